#version 450
// Clustered reductions for cluster sizes 1..16, converged and divergent;
// checked by tests/unit/test_subgroup.c.
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_clustered : enable
layout(local_size_x = 70) in;
layout(set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(set = 0, binding = 1) readonly buffer InF { float f[]; };
layout(set = 0, binding = 2) buffer Out { uint r[]; };
const uint S = 128;
const uint REGION = 60;

// Twelve operations for cluster size C at slots s .. s + 11.
#define CLUSTER(s, C) \
    r[o + s + 0] = subgroupClusteredAdd(x, C); \
    r[o + s + 1] = subgroupClusteredMul(m, C); \
    r[o + s + 2] = subgroupClusteredMin(x, C); \
    r[o + s + 3] = uint(subgroupClusteredMax(sx, C)); \
    r[o + s + 4] = subgroupClusteredAnd(h, C); \
    r[o + s + 5] = subgroupClusteredOr(h, C); \
    r[o + s + 6] = subgroupClusteredXor(h, C); \
    r[o + s + 7] = floatBitsToUint(subgroupClusteredAdd(fx, C)); \
    r[o + s + 8] = floatBitsToUint(subgroupClusteredMax(fx, C)); \
    r[o + s + 9] = subgroupClusteredAnd(b5, C) ? 1u : 0u; \
    r[o + s + 10] = subgroupClusteredOr(b7, C) ? 1u : 0u; \
    r[o + s + 11] = uint(subgroupClusteredMin(ivec2(sx, -sx), C).y);

void all_clusters(uint o, uint x, float fx)
{
    uint m = x % 4u + 1u;
    uint h = x * 2654435761u;
    int sx = int(x) - 500;
    bool b5 = x % 5u != 0u, b7 = x % 7u == 0u;
    CLUSTER(0, 1)
    CLUSTER(12, 2)
    CLUSTER(24, 4)
    CLUSTER(36, 8)
    CLUSTER(48, 16)
}

void main()
{
    uint g = gl_GlobalInvocationID.x;
    uint o = g * S;
    uint x = u[g];
    uint lane = gl_SubgroupInvocationID;
    r[o + 0] = gl_SubgroupSize;
    r[o + 1] = lane;
    all_clusters(o + 2u, x, f[g]);
    if (lane % 3u != 0u)
        all_clusters(o + 2u + REGION, x, f[g]);
}
