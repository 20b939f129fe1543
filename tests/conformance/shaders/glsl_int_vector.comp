#version 450
// Integer GLSL.std.450 on vectors: abs, sign, min, max, clamp, findLSB,
// findMSB, bitCount on ivec4/uvec4.
layout(local_size_x = 8, local_size_y = 8, local_size_z = 2) in;
layout(set = 0, binding = 0) readonly buffer A { ivec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { ivec4 o[]; };
void main()
{
    uint i = gl_LocalInvocationIndex + 128u * gl_WorkGroupID.x;
    ivec4 x = a[i];
    uvec4 u = uvec4(x);
    o[i * 7u + 0u] = abs(x);
    o[i * 7u + 1u] = sign(x);
    o[i * 7u + 2u] = min(x, x.wzyx);
    o[i * 7u + 3u] = ivec4(max(u, u.yxwz));
    o[i * 7u + 4u] = clamp(x, ivec4(-100, -10, 0, 5), ivec4(100, 10, 1000, 6));
    o[i * 7u + 5u] = findLSB(x) + findMSB(u) * 100;
    o[i * 7u + 6u] = bitCount(x) + findMSB(x) * 100;
}
