#version 450
// exp, exp2, log, log2, on scalars and a vec2.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], p = b[i];
    o[i * 6u + 0u] = exp(x);
    o[i * 6u + 1u] = exp2(x);
    o[i * 6u + 2u] = log(p);
    o[i * 6u + 3u] = log2(p);
    vec2 v = exp(vec2(x, -x) * 0.5);
    o[i * 6u + 4u] = v.x * v.y;
    o[i * 6u + 5u] = log2(vec2(p, p * 4.0)).y;
}
