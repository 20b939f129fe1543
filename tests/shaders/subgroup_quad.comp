#version 450
// Quad broadcasts and swaps, converged and divergent; checked by
// tests/unit/test_subgroup.c.
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_quad : enable
layout(local_size_x = 70) in;
layout(set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(set = 0, binding = 1) readonly buffer InF { float f[]; };
layout(set = 0, binding = 2) buffer Out { uint r[]; };
const uint S = 24;
const uint REGION = 10;

// Slots s .. s + 9.
void quads(uint o, uint x, float fx)
{
    r[o + 0] = subgroupQuadBroadcast(x, 0u);
    r[o + 1] = subgroupQuadBroadcast(x, 1u);
    r[o + 2] = subgroupQuadBroadcast(x, 2u);
    r[o + 3] = subgroupQuadBroadcast(x, 3u);
    r[o + 4] = subgroupQuadSwapHorizontal(x);
    r[o + 5] = subgroupQuadSwapVertical(x);
    r[o + 6] = subgroupQuadSwapDiagonal(x);
    vec2 v = subgroupQuadSwapDiagonal(vec2(fx, -fx));
    r[o + 7] = floatBitsToUint(v.y);
    r[o + 8] = subgroupQuadBroadcast(x % 3u == 0u, 2u) ? 1u : 0u;
    r[o + 9] = uint(subgroupQuadSwapVertical(ivec3(int(x), -int(x), 7)).y);
}

void main()
{
    uint g = gl_GlobalInvocationID.x;
    uint o = g * S;
    uint x = u[g];
    uint lane = gl_SubgroupInvocationID;
    r[o + 0] = gl_SubgroupSize;
    r[o + 1] = lane;
    quads(o + 2u, x, f[g]);
    if (lane % 3u != 0u)
        quads(o + 2u + REGION, x, f[g]);
}
