#version 450
// 64-bit packing and bit casts: doubleBitsToInt64/Uint64,
// int64BitsToDouble, packDouble2x32, unpackDouble2x32, pack64/unpack32,
// pack32/unpack16/unpack8, float16BitsToUint16.
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { double a[]; };
layout(set = 0, binding = 1) readonly buffer B { uvec2 b[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint64_t o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    double x = a[i];
    uvec2 u = b[i];
    o[i * 8u + 0u] = uint64_t(doubleBitsToInt64(x));
    o[i * 8u + 1u] = doubleBitsToUint64(-x);
    o[i * 8u + 2u] = doubleBitsToUint64(packDouble2x32(u));
    uvec2 back = unpackDouble2x32(x);
    o[i * 8u + 3u] = uint64_t(back.x) | (uint64_t(back.y) << 32);
    o[i * 8u + 4u] = pack64(u);
    u32vec2 halves = unpack32(pack64(u) * 3ul);
    o[i * 8u + 5u] = uint64_t(halves.y) | (uint64_t(halves.x) << 32);
    u16vec2 s = unpack16(u.x);
    u8vec4 c = unpack8(u.y);
    o[i * 8u + 6u] = uint64_t(pack32(s.yx)) | (uint64_t(c.x + c.y + c.z + c.w) << 40);
    o[i * 8u + 7u] = uint64_t(float16BitsToUint16(float16_t(float(u.x & 0x7ffu)))) |
                     (uint64_t(int64BitsToDouble((int64_t(u.y) << 20) | 0x3ff0000000000000l) == x ? 1 : 0) << 32);
}
