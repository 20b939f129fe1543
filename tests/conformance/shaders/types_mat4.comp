#version 450
// mat4: mat*vec, vec*mat, mat*mat (chains), mat/scalar, mat4 columns.
layout(local_size_x = 16, local_size_y = 2) in;
layout(set = 0, binding = 0) readonly buffer A { mat4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { vec4 b[]; };
layout(set = 0, binding = 2) writeonly buffer O { mat4 o[]; };
layout(set = 0, binding = 3) writeonly buffer V { vec4 v[]; };
void main()
{
    uint i = gl_LocalInvocationIndex + 32u * gl_WorkGroupID.x;
    mat4 m = a[i];
    mat4 n = a[i ^ 1u];
    vec4 x = b[i];
    o[i * 2u + 0u] = m * n;
    o[i * 2u + 1u] = (m + n) / 4.0 - mat4(1.0);
    v[i * 3u + 0u] = m * x;
    v[i * 3u + 1u] = x * m;
    v[i * 3u + 2u] = m * (n * x);
}
