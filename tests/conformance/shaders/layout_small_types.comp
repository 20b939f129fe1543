#version 450
// 8- and 16-bit members in std430 structs (u8 at 0, u16 at 2, i8 at 4, f16
// at 6, u32 at 8; u8vec3 aligned to 4), loaded and converted to 32 bits.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
struct S { uint8_t a; uint16_t b; int8_t c; float16_t d; uint e; u8vec3 f; int16_t g; };
// a@0 b@2 c@4 d@6 e@8 f@12 g@16, size 20 (align 4)
layout(std430, set = 0, binding = 0) readonly buffer In { S s[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
layout(std430, set = 0, binding = 2) writeonly buffer W { S w[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    S x = s[i];
    o[i * 8u + 0u] = uint(x.a);
    o[i * 8u + 1u] = uint(x.b);
    o[i * 8u + 2u] = uint(int(x.c));
    o[i * 8u + 3u] = floatBitsToUint(float(x.d));
    o[i * 8u + 4u] = x.e;
    o[i * 8u + 5u] = uint(x.f.x) | uint(x.f.y) << 8 | uint(x.f.z) << 16;
    o[i * 8u + 6u] = uint(int(x.g));
    o[i * 8u + 7u] = 0u;
    S y;
    y.a = x.a + uint8_t(1);
    y.b = x.b ^ uint16_t(0xffff);
    y.c = -x.c;
    y.d = x.d * float16_t(2.0);
    y.e = x.e + 1u;
    y.f = x.f.zyx;
    y.g = x.g >> int16_t(1);
    w[i] = y;
}
