#version 450
// robustBufferAccess: stores (scalar, vector, straddling the end) and
// atomics past the bound range change nothing outside it.
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) writeonly buffer S { uint s[]; };
layout(std430, set = 0, binding = 1) writeonly buffer V { uvec4 v[]; };
layout(std430, set = 0, binding = 2) buffer A { uint a[]; };
layout(std430, set = 0, binding = 3) writeonly buffer F { uint inb[]; };  // in-bounds results
void main()
{
    uint i = gl_GlobalInvocationID.x;
    s[i] = i + 1u;
    s[i + 100000u] = 7u;
    v[i] = uvec4(i, i * 2u, i * 3u, i * 4u);
    uint old = atomicAdd(a[i % 200u], 1u);
    inb[i] = i * 5u;
}
