#version 450
// bitCount, findLSB, findMSB (signed and unsigned), bitfieldReverse.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { int o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    o[i * 6u + 0u] = bitCount(x);
    o[i * 6u + 1u] = bitCount(int(x));
    o[i * 6u + 2u] = findLSB(x);
    o[i * 6u + 3u] = findMSB(x);
    o[i * 6u + 4u] = findMSB(int(x));
    o[i * 6u + 5u] = int(bitfieldReverse(x));
}
