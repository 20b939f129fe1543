#version 450
// Matrix constructors (from scalars, vectors, other matrices) and dynamic
// column/element indexing of matrices.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    vec4 x = a[i * 2u], y = a[i * 2u + 1u];
    mat4 m = mat4(x, y, x.wzyx, y.yxwz);
    mat3 m3 = mat3(m);                 // upper-left 3x3
    mat4 m4 = mat4(mat2(x));           // identity elsewhere
    mat2 m2 = mat2(y.x, y.y, x.z, x.w);
    mat3 d = mat3(x.x);                // diagonal
    uint c = i % 4u, r = (i / 4u) % 4u;
    uint o0 = i * 12u;
    o[o0 + 0u] = m[c][r];
    o[o0 + 1u] = m3[c % 3u][r % 3u];
    o[o0 + 2u] = m4[c][r];
    o[o0 + 3u] = m2[c % 2u][r % 2u];
    o[o0 + 4u] = d[c % 3u][r % 3u];
    vec4 col = m[r];
    o[o0 + 5u] = col.x + col.y * 2.0 + col.z * 3.0 + col.w * 4.0;
    mat4 w = m;
    w[c] = vec4(-1.0);
    w[r][c] = 7.0;
    o[o0 + 6u] = w[0][0] + w[1][1] * 10.0 + w[2][2] * 100.0 + w[3][3] * 1000.0;
    o[o0 + 7u] = w[c][0] + w[r][1];
    mat2x3 n = mat2x3(m);
    o[o0 + 8u] = n[1][2];
    o[o0 + 9u] = mat3x2(m)[2][1];
    o[o0 + 10u] = mat4(m3)[3][3] + mat4(m3)[2][3];
    o[o0 + 11u] = mat3(m2)[2][2] + mat3(m2)[1][1];
}
