#version 450
// Subgroup shuffles (absolute, xor, up, down) and broadcasts, converged and
// divergent; checked by tests/unit/test_subgroup.c.
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_ballot : enable
#extension GL_KHR_shader_subgroup_shuffle : enable
#extension GL_KHR_shader_subgroup_shuffle_relative : enable
layout(local_size_x = 70) in;
layout(set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(set = 0, binding = 1) readonly buffer InF { float f[]; };
layout(set = 0, binding = 2) buffer Out { uint r[]; };
const uint S = 40;
const uint REGION = 16;

// Slots s .. s + 15.
void shuffles(uint o, uint x, float fx, uint lane)
{
    uint size = gl_SubgroupSize;
    r[o + 0] = subgroupShuffle(x, (lane * 5u + 3u) % size);
    r[o + 1] = subgroupShuffle(x, size - 1u - lane);
    r[o + 2] = subgroupShuffleXor(x, 1u);
    r[o + 3] = subgroupShuffleXor(x, 2u);
    r[o + 4] = subgroupShuffleXor(x, 5u);
    r[o + 5] = subgroupShuffleUp(x, 1u);
    r[o + 6] = subgroupShuffleUp(x, 3u);
    r[o + 7] = subgroupShuffleDown(x, 1u);
    r[o + 8] = subgroupShuffleDown(x, 2u);
    r[o + 9] = subgroupShuffleUp(x, x % 4u);
    vec3 v = subgroupShuffle(vec3(fx, 2.0 * fx, float(lane)), (lane + 1u) % size);
    r[o + 10] = floatBitsToUint(v.y);
    r[o + 11] = subgroupShuffleXor(x % 3u == 0u, 1u) ? 1u : 0u;
    r[o + 12] = subgroupShuffle(x, x % 16u);
    r[o + 13] = subgroupBroadcast(x, 2u);
    r[o + 14] = subgroupBroadcast(x, (gl_WorkGroupID.x + 1u) & (size - 1u));
    r[o + 15] = subgroupShuffleDown(x, 100u);
}

void main()
{
    uint g = gl_GlobalInvocationID.x;
    uint o = g * S;
    uint x = u[g];
    uint lane = gl_SubgroupInvocationID;
    r[o + 0] = gl_SubgroupSize;
    r[o + 1] = lane;
    shuffles(o + 2u, x, f[g], lane);
    if (lane % 3u != 0u)
        shuffles(o + 2u + REGION, x, f[g], lane);
}
