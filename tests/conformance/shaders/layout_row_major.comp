#version 450
// row_major matrices in std430 storage (mat4, mat2x3 with 8-byte row stride)
// and in a std140 uniform block (mat3, mat2x4 with 16-byte row strides);
// loads, whole-matrix stores and single-element stores.
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer A { layout(row_major) mat4 a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { layout(row_major) mat2x3 b[]; };  // 3 rows of vec2: 24 bytes
layout(std140, set = 0, binding = 2, row_major) uniform U { mat3 m3; mat2x4 m24; } u;   // m3@0 (3 rows x 16), m24@48 (4 rows x 16)
layout(std430, set = 0, binding = 3) writeonly buffer O { layout(row_major) mat4 o[]; };
layout(std430, set = 0, binding = 4) writeonly buffer V { vec4 v[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    mat4 m = a[i];
    vec4 x = vec4(1.0, 2.0, -1.0, 0.5);
    o[i] = m * 2.0;
    o[i][1][2] = -100.0;            // column 1, row 2
    v[i * 4u + 0u] = m * x;
    v[i * 4u + 1u] = vec4(b[i] * x.xy, b[i][1][2]);
    v[i * 4u + 2u] = vec4(u.m3 * x.xyz, u.m3[2][0]);
    v[i * 4u + 3u] = u.m24 * x.zw + vec4(a[i][3][0]);
}
