#version 450
// Non-square matrices: mat2x3 * mat3x2, mat3x4 * vec3, vec4 * mat3x4,
// mat4x2 * mat2x4, in std430 storage (column strides 16 and 8).
layout(local_size_x = 7) in;
layout(set = 0, binding = 0) readonly buffer A { mat2x3 a[]; };  // 2 columns of vec3
layout(set = 0, binding = 1) readonly buffer B { mat3x2 b[]; };  // 3 columns of vec2
layout(set = 0, binding = 2) readonly buffer C { mat3x4 c[]; };
layout(set = 0, binding = 3) readonly buffer D { mat4x2 d[]; };
layout(set = 0, binding = 4) writeonly buffer O { float o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    mat3 p = a[i] * b[i];          // 3x3
    mat2 q = b[i] * a[i];          // 2x2
    vec4 r = c[i] * a[i][0];       // mat3x4 * vec3
    vec3 s = c[i][1] * c[i];       // vec4 * mat3x4
    mat2x4 t = transpose(d[i]);
    mat4 u = t * d[i];             // 4x4 from mat2x4 * mat4x2
    uint o0 = i * 40u;
    for (int k = 0; k < 3; k++) for (int j = 0; j < 3; j++) o[o0 + uint(k * 3 + j)] = p[k][j];
    for (int k = 0; k < 2; k++) for (int j = 0; j < 2; j++) o[o0 + 9u + uint(k * 2 + j)] = q[k][j];
    for (int j = 0; j < 4; j++) o[o0 + 13u + uint(j)] = r[j];
    for (int j = 0; j < 3; j++) o[o0 + 17u + uint(j)] = s[j];
    for (int k = 0; k < 4; k++) for (int j = 0; j < 4; j++) o[o0 + 20u + uint(k * 4 + j)] = u[k][j];
    o[o0 + 36u] = a[i][1][2];
    o[o0 + 37u] = b[i][2][1];
    o[o0 + 38u] = c[i][2][3];
    o[o0 + 39u] = d[i][3][1];
}
