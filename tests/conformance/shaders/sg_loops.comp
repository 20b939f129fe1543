#version 450
// Subgroup operations inside a loop whose trip count differs per lane (the
// active lanes shrink every iteration), and after some lanes returned early.
// The reference assumes lanes reconverge after the loop and that only the
// lanes still iterating take part in each iteration's operations.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(std430, set = 0, binding = 1) buffer O { uint o[]; };
const uint K = 12u;
void main()
{
    uint g = gl_GlobalInvocationID.x, b = g * K;
    uint x = u[g];
    uint n = x % 6u;
    for (uint k = 0u; k < n; k++) {
        uint s = subgroupAdd(k + 1u);
        uint c = subgroupBallotBitCount(subgroupBallot(true));
        o[b + k] = s * 100u + c;
    }
    if (x % 4u == 0u)
        return;
    o[b + 6u] = subgroupAdd(1u);
    o[b + 7u] = subgroupMax(x);
    o[b + 8u] = subgroupExclusiveAdd(1u);
    if (gl_SubgroupInvocationID % 2u == 1u)
        return;
    o[b + 9u] = subgroupMin(x);
    o[b + 10u] = subgroupBroadcastFirst(gl_SubgroupInvocationID);
}
