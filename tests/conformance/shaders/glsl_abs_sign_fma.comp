#version 450
// abs, sign (float), fma, degrees, radians.
layout(local_size_x = 7) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], y = b[i];
    o[i * 7u + 0u] = abs(x);
    o[i * 7u + 1u] = sign(x);
    o[i * 7u + 2u] = fma(x, y, 1.5);
    o[i * 7u + 3u] = degrees(y);
    o[i * 7u + 4u] = radians(x);
    vec3 s = sign(vec3(x, y, 0.0));
    o[i * 7u + 5u] = s.x + s.y * 2.0 + s.z * 4.0;
    o[i * 7u + 6u] = fma(vec2(x, y), vec2(y, x), vec2(-x)).y;
}
