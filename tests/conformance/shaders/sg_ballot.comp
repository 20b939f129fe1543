#version 450
// Ballots and broadcasts: subgroupBallot, InverseBallot, BallotBitExtract,
// BitCount, Inclusive/ExclusiveBitCount, FindLSB/MSB, subgroupBroadcast,
// subgroupBroadcastFirst; converged and divergent.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(std430, set = 0, binding = 1) buffer O { uint o[]; };
const uint K = 28u;
void ballots(uint b, uint x)
{
    uint lane = gl_SubgroupInvocationID;
    uvec4 bal = subgroupBallot((x & 1u) != 0u);
    o[b + 0u] = bal.x;
    o[b + 1u] = bal.y | bal.z | bal.w;
    o[b + 2u] = subgroupInverseBallot(uvec4(x, 0u, 0u, 0u)) ? 1u : 0u;
    o[b + 3u] = subgroupBallotBitExtract(bal, (lane + 1u) % gl_SubgroupSize) ? 1u : 0u;
    o[b + 4u] = subgroupBallotBitCount(bal);
    o[b + 5u] = subgroupBallotInclusiveBitCount(bal);
    o[b + 6u] = subgroupBallotExclusiveBitCount(bal);
    o[b + 7u] = bal.x != 0u ? subgroupBallotFindLSB(bal) : 999u;
    o[b + 8u] = bal.x != 0u ? subgroupBallotFindMSB(bal) : 999u;
    o[b + 9u] = subgroupBroadcastFirst(x);
    o[b + 10u] = floatBitsToUint(subgroupBroadcastFirst(vec2(float(x), -1.0)).x);
    o[b + 11u] = subgroupBroadcastFirst(x > 500u) ? 1u : 0u;
}
void main()
{
    uint g = gl_GlobalInvocationID.x;
    uint x = u[g];
    ballots(g * K, x);
    o[g * K + 12u] = subgroupBroadcast(x, 0u);
    if (gl_SubgroupSize >= 4u)
        o[g * K + 13u] = subgroupBroadcast(x * 2u, 3u);   // lane 3 may not exist in a partial subgroup
    if (gl_SubgroupInvocationID % 3u != 0u) {
        ballots(g * K + 14u, x);
        if (gl_SubgroupSize >= 2u)
            o[g * K + 26u] = subgroupBroadcast(x, 1u);
    }
}
