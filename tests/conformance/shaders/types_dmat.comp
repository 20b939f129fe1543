#version 450
// Double matrices: dmat3 * dmat3, dmat4 * dvec4, transpose, determinant,
// inverse of dmat2.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer A { dmat4 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { double o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    dmat4 m = a[i];
    dmat3 m3 = dmat3(m);
    dmat3 p = m3 * transpose(m3);
    dvec4 v = m * dvec4(1.0lf, -2.0lf, 0.5lf, 3.0lf);
    dmat2 inv = inverse(dmat2(m));
    uint o0 = i * 20u;
    for (int k = 0; k < 3; k++) for (int j = 0; j < 3; j++) o[o0 + uint(k * 3 + j)] = p[k][j];
    for (int j = 0; j < 4; j++) o[o0 + 9u + uint(j)] = v[j];
    o[o0 + 13u] = determinant(m3);
    o[o0 + 14u] = inv[0][0]; o[o0 + 15u] = inv[0][1]; o[o0 + 16u] = inv[1][0]; o[o0 + 17u] = inv[1][1];
    o[o0 + 18u] = determinant(m);
    o[o0 + 19u] = (m * 2.0lf)[3][3];
}
