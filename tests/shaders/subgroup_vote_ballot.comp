#version 450
// Subgroup basic, vote and ballot operations in converged and divergent
// control flow; checked by tests/unit/test_subgroup.c.
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_vote : enable
#extension GL_KHR_shader_subgroup_ballot : enable
layout(local_size_x = 70) in;
layout(set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(set = 0, binding = 1) readonly buffer InF { float f[]; };
layout(set = 0, binding = 2) buffer Out { uint r[]; };
const uint S = 40;

void main()
{
    uint g = gl_GlobalInvocationID.x;
    uint o = g * S;
    uint x = u[g];
    uint lane = gl_SubgroupInvocationID;
    r[o + 0] = gl_SubgroupSize;
    r[o + 1] = lane;
    r[o + 2] = subgroupElect() ? 1u : 0u;
    r[o + 3] = subgroupBroadcast(x, 0);
    r[o + 4] = subgroupAll(x < 1000u) ? 1u : 0u;
    r[o + 5] = subgroupAny(x % 7u == 0u) ? 1u : 0u;
    r[o + 6] = subgroupAllEqual(x % 2u) ? 1u : 0u;
    uvec4 b = subgroupBallot((x & 1u) != 0u);
    r[o + 7] = b.x;
    r[o + 8] = b.y | b.z | b.w;
    r[o + 9] = subgroupBallotBitCount(b);
    r[o + 10] = subgroupBallotInclusiveBitCount(b);
    r[o + 11] = subgroupBallotExclusiveBitCount(b);
    r[o + 12] = subgroupBallotFindLSB(b);
    r[o + 13] = subgroupBallotFindMSB(b);
    r[o + 14] = subgroupBallotBitExtract(b, (lane + 1u) % gl_SubgroupSize) ? 1u : 0u;
    r[o + 15] = subgroupInverseBallot(uvec4(0x5a5au ^ gl_WorkGroupID.x, 0u, 0u, 0u)) ? 1u : 0u;
    r[o + 16] = subgroupBallotBitExtract(uvec4(0u, 0x80000000u, 0x10u, 0u), x % 128u) ? 1u : 0u;
    r[o + 17] = subgroupAllEqual(gl_WorkGroupID.x) ? 1u : 0u;
    subgroupBarrier();
    subgroupMemoryBarrier();
    if (lane % 3u != 0u) {
        r[o + 18] = subgroupElect() ? 1u : 0u;
        r[o + 19] = subgroupAll(x < 900u) ? 1u : 0u;
        r[o + 20] = subgroupAny(x % 11u == 0u) ? 1u : 0u;
        r[o + 21] = subgroupAllEqual(x % 2u) ? 1u : 0u;
        r[o + 22] = subgroupBroadcastFirst(x);
        uvec4 d = subgroupBallot(x % 3u == 1u);
        r[o + 23] = d.x;
        r[o + 24] = subgroupBallotInclusiveBitCount(d);
        r[o + 25] = subgroupBallotExclusiveBitCount(d);
        r[o + 26] = subgroupBallotBitCount(d);
        r[o + 27] = subgroupBroadcast(x, 1);
        vec3 v = vec3(f[g], 2.0 * f[g], -f[g]);
        vec3 bf = subgroupBroadcastFirst(v);
        r[o + 28] = floatBitsToUint(bf.z);
        r[o + 29] = subgroupAllEqual(uvec2(x % 2u, gl_WorkGroupID.x)) ? 1u : 0u;
        r[o + 30] = subgroupAllEqual(f[g] * 0.0) ? 1u : 0u;
        r[o + 31] = subgroupBallotFindLSB(d);
        r[o + 32] = subgroupBallotFindMSB(d);
        r[o + 33] = subgroupBroadcastFirst(x % 5u == 0u) ? 1u : 0u;
    }
    // Nested divergence.
    if (x % 2u == 0u) {
        if (lane >= 2u) {
            r[o + 34] = subgroupBallot(true).x;
            r[o + 35] = subgroupElect() ? 1u : 0u;
        }
    }
    // A loop that lanes leave at different iterations.
    uint acc = 0u;
    for (uint k = 0u; k < x % 5u; k++)
        acc += subgroupBallotBitCount(subgroupBallot(true)) * (k + 1u);
    r[o + 36] = acc;
    // After the loop, the subgroup has reconverged.
    r[o + 37] = subgroupBallot(true).x;
}
