#version 450
// 8-, 16- and 64-bit integer vectors and float16 vectors: arithmetic,
// swizzles, conversions, with 8/16-bit storage.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { i8vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { u16vec4 b[]; };
layout(set = 0, binding = 2) readonly buffer C { f16vec4 c[]; };
layout(set = 0, binding = 3) writeonly buffer O8 { i8vec4 o8[]; };
layout(set = 0, binding = 4) writeonly buffer O16 { u16vec4 o16[]; };
layout(set = 0, binding = 5) writeonly buffer OH { f16vec4 oh[]; };
layout(set = 0, binding = 6) writeonly buffer O64 { u64vec2 o64[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    i8vec4 x = a[i];
    u16vec4 y = b[i];
    f16vec4 h = c[i];
    o8[i] = x * i8vec4(3) + x.wzyx - i8vec4(y.xyzw);
    o16[i] = y.yxwz * uint16_t(5) + u16vec4(uvec4(x) & 0xffu) ^ (y >> uint16_t(3));
    oh[i] = h * h.yxwz + f16vec4(1.0hf, -2.0hf, 0.5hf, 0.25hf);
    u64vec2 w = u64vec2(y.xy) << 33ul | u64vec2(uvec2(x.xy));
    o64[i] = w * 0x100000001ul + u64vec2(y.zw);
}
