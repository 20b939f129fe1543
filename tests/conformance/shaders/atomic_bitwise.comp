#version 450
// atomicAnd/atomicOr/atomicXor on uint and int.
layout(local_size_x = 32, local_size_y = 2) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) buffer M { uint uand[4]; uint uor[4]; uint uxor[4]; int iand; int ior; int ixor; };
layout(std430, set = 0, binding = 2) writeonly buffer Old { uint old[]; };
void main()
{
    uint i = gl_LocalInvocationIndex + 64u * gl_WorkGroupID.x;
    uint v = x[i];
    uint s = i % 4u;
    old[i * 3u + 0u] = atomicAnd(uand[s], ~(1u << (i % 32u)) | (v & 0x0f0f0f0fu));
    old[i * 3u + 1u] = atomicOr(uor[s], v & 0x80402010u);
    old[i * 3u + 2u] = atomicXor(uxor[s], v);
    atomicAnd(iand, int(v | 0x10000000u));
    atomicOr(ior, int(v & 0x00008001u));
    atomicXor(ixor, int(v));
}
