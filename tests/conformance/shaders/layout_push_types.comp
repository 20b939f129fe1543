#version 450
// Push constants of many types at their std430 offsets, including 8/16/64
// bit members and a double.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(push_constant) uniform P {
    int i;          // 0
    uint u;         // 4
    float f;        // 8
    uint8_t b8;     // 12
    int16_t s16;    // 14
    vec2 v2;        // 16
    ivec2 iv2;      // 24
    vec3 v3;        // 32
    uint after;     // 44
    vec4 v4;        // 48
    mat2 m2;        // 64 (std430: columns 8 apart)
    double d;       // 80
    int64_t l;      // 88
    uvec3 uv3;      // 96
    float16_t h;    // 108
} pc;
layout(std430, set = 0, binding = 0) writeonly buffer O { uint o[]; };
void main()
{
    uint g = gl_GlobalInvocationID.x;
    uint vals[24] = uint[24](uint(pc.i), pc.u, floatBitsToUint(pc.f), uint(pc.b8), uint(int(pc.s16)),
                             floatBitsToUint(pc.v2.x), floatBitsToUint(pc.v2.y), uint(pc.iv2.x), uint(pc.iv2.y),
                             floatBitsToUint(pc.v3.x), floatBitsToUint(pc.v3.z), pc.after,
                             floatBitsToUint(pc.v4.y), floatBitsToUint(pc.v4.w),
                             floatBitsToUint(pc.m2[0][1]), floatBitsToUint(pc.m2[1][0]),
                             unpackDouble2x32(pc.d).x, unpackDouble2x32(pc.d).y,
                             uint(pc.l), uint(pc.l >> 32), pc.uv3.x, pc.uv3.z,
                             floatBitsToUint(float(pc.h)), uint(pc.i + int(g)));
    o[g] = vals[g % 24u] + (g / 24u) * 0u;
}
