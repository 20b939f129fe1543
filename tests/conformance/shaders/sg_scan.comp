#version 450
// Subgroup inclusive and exclusive scans of every operation on uint, int
// and float, converged and divergent.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(std430, set = 0, binding = 1) readonly buffer InF { float f[]; };
layout(std430, set = 0, binding = 2) buffer O { uint o[]; };
const uint K = 48u;
void scans(uint b, uint x, float y)
{
    int s = int(x) - 600;
    uint m = x % 3u + 1u;
    o[b + 0u] = subgroupInclusiveAdd(x);
    o[b + 1u] = subgroupExclusiveAdd(x);
    o[b + 2u] = subgroupInclusiveMul(m);
    o[b + 3u] = subgroupExclusiveMul(m);
    o[b + 4u] = subgroupInclusiveMin(x);
    o[b + 5u] = subgroupExclusiveMin(x);
    o[b + 6u] = subgroupInclusiveMax(x);
    o[b + 7u] = subgroupExclusiveMax(x);
    o[b + 8u] = subgroupInclusiveAnd(x | 0xf00u);
    o[b + 9u] = subgroupExclusiveAnd(x | 0xf00u);
    o[b + 10u] = subgroupInclusiveOr(x);
    o[b + 11u] = subgroupExclusiveOr(x);
    o[b + 12u] = subgroupInclusiveXor(x);
    o[b + 13u] = subgroupExclusiveXor(x);
    o[b + 14u] = uint(subgroupInclusiveAdd(s));
    o[b + 15u] = uint(subgroupExclusiveAdd(s));
    o[b + 16u] = uint(subgroupInclusiveMin(s));
    o[b + 17u] = uint(subgroupExclusiveMin(s));
    o[b + 18u] = uint(subgroupInclusiveMax(s));
    o[b + 19u] = uint(subgroupExclusiveMax(s));
    o[b + 20u] = floatBitsToUint(subgroupInclusiveAdd(y));
    o[b + 21u] = floatBitsToUint(subgroupExclusiveAdd(y));
    o[b + 22u] = floatBitsToUint(subgroupInclusiveMin(y));
    o[b + 23u] = floatBitsToUint(subgroupExclusiveMax(y));
}
void main()
{
    uint g = gl_GlobalInvocationID.x;
    scans(g * K, u[g], f[g]);
    if (gl_SubgroupInvocationID % 3u != 0u)
        scans(g * K + 24u, u[g], f[g]);
}
