#version 450
// mat3: mat*vec, vec*mat, mat*mat, -mat, matrixCompMult.  mat3 arrays in
// std430 have 16-byte column strides.
layout(local_size_x = 100) in;
layout(set = 0, binding = 0) readonly buffer A { mat3 a[]; };
layout(set = 0, binding = 1) readonly buffer B { mat3 b[]; };
layout(set = 0, binding = 2) writeonly buffer O { mat3 o[]; };
layout(set = 0, binding = 3) writeonly buffer V { vec4 v[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    mat3 m = a[i], n = b[i];
    o[i * 3u + 0u] = m * n;
    o[i * 3u + 1u] = -matrixCompMult(m, n) + n;
    o[i * 3u + 2u] = n * m * 0.5;
    vec3 x = vec3(1.0, -2.0, 0.5) + n[2];
    v[i * 2u + 0u] = vec4(m * x, 1.0);
    v[i * 2u + 1u] = vec4(x * m, 2.0);
}
