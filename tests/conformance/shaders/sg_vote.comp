#version 450
// subgroupAll, subgroupAny, subgroupAllEqual (uint, float, vector, bool),
// converged and inside `if (lane % 3 != 0)`.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(std430, set = 0, binding = 1) buffer O { uint o[]; };
const uint K = 12u;
void votes(uint b, uint x)
{
    o[b + 0u] = subgroupAll(x < 1000u) ? 1u : 0u;
    o[b + 1u] = subgroupAny(x >= 1100u) ? 1u : 0u;
    o[b + 2u] = subgroupAllEqual(x / 100u) ? 1u : 0u;
    o[b + 3u] = subgroupAllEqual(float(x / 200u)) ? 1u : 0u;
    o[b + 4u] = subgroupAllEqual(uvec2(x / 100u, 7u)) ? 1u : 0u;
    o[b + 5u] = subgroupAllEqual(x > 600u) ? 1u : 0u;
}
void main()
{
    uint g = gl_GlobalInvocationID.x;
    uint x = u[g];
    votes(g * K, x);
    if (gl_SubgroupInvocationID % 3u != 0u)
        votes(g * K + 6u, x);
}
