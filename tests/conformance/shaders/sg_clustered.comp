#version 450
// Clustered reductions with cluster sizes 1, 2, 4, 8, 16 (each only when the
// subgroup is at least that large), converged and divergent.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(std430, set = 0, binding = 1) buffer O { uint o[]; };
const uint K = 24u;
void clusters(uint b, uint x)
{
    o[b + 0u] = subgroupClusteredAdd(x, 1u);
    if (gl_SubgroupSize >= 2u) {
        o[b + 1u] = subgroupClusteredAdd(x, 2u);
        o[b + 2u] = subgroupClusteredMax(x, 2u);
    }
    if (gl_SubgroupSize >= 4u) {
        o[b + 3u] = subgroupClusteredAdd(x, 4u);
        o[b + 4u] = subgroupClusteredMul(x % 3u + 1u, 4u);
        o[b + 5u] = subgroupClusteredMin(x, 4u);
        o[b + 6u] = subgroupClusteredAnd(x | 0xf00u, 4u);
        o[b + 7u] = subgroupClusteredOr(x, 4u);
        o[b + 8u] = subgroupClusteredXor(x, 4u);
        o[b + 9u] = uint(subgroupClusteredMin(int(x) - 600, 4u));
    }
    if (gl_SubgroupSize >= 8u)
        o[b + 10u] = subgroupClusteredAdd(x, 8u);
    if (gl_SubgroupSize >= 16u)
        o[b + 11u] = floatBitsToUint(subgroupClusteredAdd(float(x) * 0.25, 16u));
}
void main()
{
    uint g = gl_GlobalInvocationID.x;
    clusters(g * K, u[g]);
    if (gl_SubgroupInvocationID % 3u != 0u)
        clusters(g * K + 12u, u[g]);
}
