#version 450
// mat2: mat*vec, vec*mat, mat*mat, scalar*mat, matrixCompMult, +, -.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { mat2 a[]; };
layout(set = 0, binding = 1) readonly buffer B { mat2 b[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    mat2 m = a[i], n = b[i];
    vec2 v = n[1];
    mat2 r[5] = mat2[5](m * n, 2.0 * m - n, matrixCompMult(m, n), m + n * 0.5, mat2(m * v, v * m));
    for (int k = 0; k < 5; k++)
        for (int c = 0; c < 2; c++)
            for (int j = 0; j < 2; j++)
                o[i * 20u + uint(k * 4 + c * 2 + j)] = r[k][c][j];
}
