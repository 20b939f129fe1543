#version 450
// Subgroup reductions: Add, Mul, Min, Max, And, Or, Xor on uint, int and
// float (exact data), converged and divergent.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(std430, set = 0, binding = 1) readonly buffer InF { float f[]; };
layout(std430, set = 0, binding = 2) buffer O { uint o[]; };
const uint K = 32u;
void reduce(uint b, uint x, float y)
{
    int s = int(x) - 600;
    uint m = x % 3u + 1u;
    o[b + 0u] = subgroupAdd(x);
    o[b + 1u] = subgroupMul(m);
    o[b + 2u] = subgroupMin(x);
    o[b + 3u] = subgroupMax(x);
    o[b + 4u] = subgroupAnd(x | 0xf00u);
    o[b + 5u] = subgroupOr(x);
    o[b + 6u] = subgroupXor(x);
    o[b + 7u] = uint(subgroupAdd(s));
    o[b + 8u] = uint(subgroupMul(int(m) - 2));
    o[b + 9u] = uint(subgroupMin(s));
    o[b + 10u] = uint(subgroupMax(s));
    o[b + 11u] = floatBitsToUint(subgroupAdd(y));
    o[b + 12u] = floatBitsToUint(subgroupMul(float(1u << (x % 3u)) * 0.5));
    o[b + 13u] = floatBitsToUint(subgroupMin(y));
    o[b + 14u] = floatBitsToUint(subgroupMax(y));
    o[b + 15u] = subgroupAdd(uvec2(x, 1u)).y;
}
void main()
{
    uint g = gl_GlobalInvocationID.x;
    reduce(g * K, u[g], f[g]);
    if (gl_SubgroupInvocationID % 3u != 0u)
        reduce(g * K + 16u, u[g], f[g]);
}
