#version 450
// floatBitsToInt/Uint, intBitsToFloat, uintBitsToFloat (scalars, vectors);
// OpBitcast between int and float.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    uint u = b[i];
    o[i * 6u + 0u] = uint(floatBitsToInt(x));
    o[i * 6u + 1u] = floatBitsToUint(x) ^ 0x80000000u;
    o[i * 6u + 2u] = floatBitsToUint(intBitsToFloat(int(u)));   // round trip
    o[i * 6u + 3u] = floatBitsToUint(uintBitsToFloat(u & 0x807fffffu | 0x3f800000u) * 2.0);
    uvec2 v = floatBitsToUint(vec2(x, -x));
    o[i * 6u + 4u] = v.x + v.y;
    ivec3 w = floatBitsToInt(intBitsToFloat(ivec3(int(u), int(u >> 1), 0x40490fdb)));
    o[i * 6u + 5u] = uint(w.x ^ w.y ^ w.z);
}
