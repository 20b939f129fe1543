#version 450
// Subgroup built-ins, elect, masks, subgroupBarrier with a shared-memory
// exchange inside each subgroup; workgroup size from a spec constant.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(std430, set = 0, binding = 1) buffer O { uint o[]; };
shared uint sh[1024];
const uint K = 16u;
void main()
{
    uint g = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex, b = g * K;
    uint lane = gl_SubgroupInvocationID;
    o[b + 0u] = gl_SubgroupSize;
    o[b + 1u] = lane;
    o[b + 2u] = gl_NumSubgroups;
    o[b + 3u] = gl_SubgroupID;
    o[b + 4u] = subgroupElect() ? 1u : 0u;
    o[b + 5u] = gl_SubgroupEqMask.x;
    o[b + 6u] = gl_SubgroupGeMask.x;
    o[b + 7u] = gl_SubgroupGtMask.x;
    o[b + 8u] = gl_SubgroupLeMask.x;
    o[b + 9u] = gl_SubgroupLtMask.x;
    o[b + 10u] = gl_SubgroupEqMask.y | gl_SubgroupLeMask.z | gl_SubgroupLtMask.w;
    // Exchange through shared memory within the subgroup.
    sh[l] = u[g];
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    uint count = subgroupBallotBitCount(subgroupBallot(true));
    uint first = l - lane;
    o[b + 11u] = sh[first + (lane + 1u) % count];
    if (lane % 3u != 0u) {
        o[b + 12u] = subgroupElect() ? 1u : 0u;
        o[b + 13u] = subgroupBallotBitCount(subgroupBallot(true));
    }
    if (lane >= gl_SubgroupSize / 2u)
        o[b + 14u] = subgroupElect() ? 1u : 0u;
}
