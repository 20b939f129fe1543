#version 450
// Subgroup operations on 8-, 16- and 64-bit types, and across workgroup
// barriers (subgroups as coroutines); checked by tests/unit/test_subgroup.c.
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_vote : enable
#extension GL_KHR_shader_subgroup_ballot : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_KHR_shader_subgroup_shuffle : enable
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : enable
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : enable
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : enable
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : enable
#extension GL_EXT_shader_subgroup_extended_types_int8 : enable
#extension GL_EXT_shader_subgroup_extended_types_int16 : enable
#extension GL_EXT_shader_subgroup_extended_types_float16 : enable
layout(local_size_x = 70) in;
layout(set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(set = 0, binding = 1) readonly buffer InF { float f[]; };
layout(set = 0, binding = 2) buffer Out { uint r[]; };
const uint S = 24;
shared uint tile[70];

void main()
{
    uint g = gl_GlobalInvocationID.x;
    uint i = gl_LocalInvocationIndex;
    uint o = g * S;
    uint x = u[g];
    uint lane = gl_SubgroupInvocationID;
    tile[i] = x;
    uint before = subgroupInclusiveAdd(x);
    barrier();
    uint y = tile[69u - i];
    r[o + 0] = gl_SubgroupSize;
    r[o + 1] = lane;
    float16_t h = float16_t(f[g]);
    r[o + 2] = floatBitsToUint(float(subgroupMin(h)));
    r[o + 3] = floatBitsToUint(float(subgroupInclusiveMax(h)));
    int8_t b8 = int8_t(int(x % 200u) - 100);
    r[o + 4] = uint(int(subgroupMax(b8)));
    r[o + 5] = uint(int(subgroupInclusiveMin(b8)));
    uint8_t ub = uint8_t(x);
    r[o + 6] = uint(subgroupExclusiveMin(ub));
    int16_t s16 = int16_t(int(x) - 600);
    r[o + 7] = uint(int(subgroupAdd(s16)));
    r[o + 8] = uint(int(subgroupExclusiveMin(s16)));
    double d = double(f[g]) * 1.5;
    uint64_t sum = doubleBitsToUint64(subgroupAdd(d));
    r[o + 9] = uint(sum);
    r[o + 10] = uint(sum >> 32);
    r[o + 11] = uint(doubleBitsToUint64(subgroupShuffle(d, gl_SubgroupSize - 1u - lane)) >> 32);
    r[o + 12] = uint(int(subgroupBroadcastFirst(s16)));
    r[o + 13] = subgroupAllEqual(f16vec2(1.0, h * float16_t(0.0))) ? 1u : 0u;
    r[o + 14] = subgroupAdd(y);
    barrier();
    r[o + 15] = before;
    if (lane % 3u != 0u) {
        r[o + 16] = uint(int(subgroupExclusiveMax(b8)));
        r[o + 17] = floatBitsToUint(float(subgroupMin(h)));
        r[o + 18] = uint(subgroupExclusiveMax(uint16_t(x)));
        r[o + 19] = subgroupBallot(true).x;
    }
    r[o + 20] = subgroupBallotBitCount(subgroupBallot(y > x));
}
