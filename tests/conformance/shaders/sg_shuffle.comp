#version 450
// subgroupShuffle (reverse, data-dependent), subgroupShuffleXor,
// subgroupShuffleUp/Down; results whose source lane is missing or inactive
// are undefined and not checked.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(std430, set = 0, binding = 1) buffer O { uint o[]; };
const uint K = 20u;
void shuffles(uint b, uint x)
{
    uint lane = gl_SubgroupInvocationID, w = gl_SubgroupSize;
    o[b + 0u] = subgroupShuffle(x, w - 1u - lane);
    o[b + 1u] = subgroupShuffle(x, x % w);
    o[b + 2u] = subgroupShuffleXor(x, 1u % w);
    o[b + 3u] = subgroupShuffleXor(x, (w - 1u) & 6u);
    o[b + 4u] = subgroupShuffleUp(x, 1u);
    o[b + 5u] = subgroupShuffleUp(x, 3u);
    o[b + 6u] = subgroupShuffleDown(x, 1u);
    o[b + 7u] = subgroupShuffleDown(x, 2u);
    o[b + 8u] = floatBitsToUint(subgroupShuffle(vec3(float(x), 0.5, -float(x)), 0u).z);
    o[b + 9u] = subgroupShuffleXor(x > 500u, 1u % w) ? 1u : 0u;
}
void main()
{
    uint g = gl_GlobalInvocationID.x;
    shuffles(g * K, u[g]);
    if (gl_SubgroupInvocationID % 3u != 0u)
        shuffles(g * K + 10u, u[g]);
}
