#version 450
// floor, ceil, trunc, round (no halves), roundEven, fract, on scalars and vec4.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    o[i * 8u + 0u] = floor(x);
    o[i * 8u + 1u] = ceil(x);
    o[i * 8u + 2u] = trunc(x);
    o[i * 8u + 3u] = round(x + 0.25 * sign(x - floor(x) - 0.5));
    o[i * 8u + 4u] = roundEven(x);
    o[i * 8u + 5u] = fract(x);
    vec4 v = floor(vec4(x, -x, x * 0.5, x + 0.5));
    o[i * 8u + 6u] = v.x + v.y * 10.0 + v.z * 100.0 + v.w * 1000.0;
    o[i * 8u + 7u] = dot(ceil(vec2(x, -x * 0.25)), vec2(1.0, 1000.0));
}
