#version 450
// transpose (square and non-square) and outerProduct.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    vec4 x = a[i * 4u], y = a[i * 4u + 1u], z = a[i * 4u + 2u], w = a[i * 4u + 3u];
    mat4 m = mat4(x, y, z, w);
    mat4 t = transpose(m);
    mat3x2 n = mat3x2(x.xy, y.xy, z.xy);
    mat2x3 tn = transpose(n);
    mat4x3 op = outerProduct(x.xyz, y);
    uint o0 = i * 50u;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            o[o0 + uint(c * 4 + r)] = t[c][r];
    for (int c = 0; c < 2; c++)
        for (int r = 0; r < 3; r++)
            o[o0 + 16u + uint(c * 3 + r)] = tn[c][r];
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 3; r++)
            o[o0 + 22u + uint(c * 3 + r)] = op[c][r];
    mat2 sq = outerProduct(z.xy, w.zw);
    o[o0 + 34u] = sq[0][0]; o[o0 + 35u] = sq[0][1]; o[o0 + 36u] = sq[1][0]; o[o0 + 37u] = sq[1][1];
    mat3 t3 = transpose(mat3(m));
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            o[o0 + 38u + uint(c * 3 + r)] = t3[c][r];
    o[o0 + 47u] = 0.0; o[o0 + 48u] = 0.0; o[o0 + 49u] = 0.0;
}
