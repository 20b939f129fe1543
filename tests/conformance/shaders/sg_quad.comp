#version 450
// Quad operations: subgroupQuadBroadcast (each lane of the quad),
// subgroupQuadSwapHorizontal/Vertical/Diagonal, on uint and vec2.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(std430, set = 0, binding = 1) buffer O { uint o[]; };
const uint K = 16u;
void quads(uint b, uint x)
{
    o[b + 0u] = subgroupQuadBroadcast(x, 0u);
    o[b + 1u] = subgroupQuadBroadcast(x, 1u);
    o[b + 2u] = subgroupQuadBroadcast(x, 2u);
    o[b + 3u] = subgroupQuadBroadcast(x, 3u);
    o[b + 4u] = subgroupQuadSwapHorizontal(x);
    o[b + 5u] = subgroupQuadSwapVertical(x);
    o[b + 6u] = subgroupQuadSwapDiagonal(x);
    o[b + 7u] = floatBitsToUint(subgroupQuadSwapDiagonal(vec2(float(x), -1.0)).x);
}
void main()
{
    uint g = gl_GlobalInvocationID.x;
    quads(g * K, u[g]);
    if (gl_SubgroupInvocationID % 3u != 0u)
        quads(g * K + 8u, u[g]);
}
