#version 450
// mod (negatives), modf, frexp, ldexp.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
layout(set = 0, binding = 3) writeonly buffer E { int e[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], y = b[i];
    o[i * 5u + 0u] = mod(x, y);
    float whole;
    o[i * 5u + 1u] = modf(x, whole);
    o[i * 5u + 2u] = whole;
    int ex;
    o[i * 5u + 3u] = frexp(x, ex);
    e[i * 2u + 0u] = ex;
    o[i * 5u + 4u] = ldexp(y, int(i % 20u) - 10);
    e[i * 2u + 1u] = int(mod(vec2(x, 7.0), vec2(3.0)).y);
}
