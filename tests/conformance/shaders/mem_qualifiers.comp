#version 450
// Memory qualifiers: restrict, readonly, writeonly, coherent, volatile on
// blocks and members; results are the plain ones.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) restrict readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) coherent buffer B { float b[]; };
layout(std430, set = 0, binding = 2) volatile buffer C { float c[]; };
layout(std430, set = 0, binding = 3) restrict writeonly buffer D { float d[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    b[i] = b[i] + x;
    c[i] = c[i] * 2.0;
    c[i] = c[i] + 1.0;    // volatile: both stores happen, the load sees the first
    d[i] = b[i] - c[i];
}
