#version 450
// determinant and inverse of mat2, mat3, mat4.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { mat4 a[]; };
layout(set = 0, binding = 1) writeonly buffer D { vec4 d[]; };
layout(set = 0, binding = 2) writeonly buffer I4 { mat4 inv4[]; };
layout(set = 0, binding = 3) writeonly buffer I3 { mat3 inv3[]; };
layout(set = 0, binding = 4) writeonly buffer I2 { mat2 inv2[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    mat4 m = a[i];
    mat3 m3 = mat3(m);
    mat2 m2 = mat2(m);
    d[i] = vec4(determinant(m), determinant(m3), determinant(m2), 0.0);
    inv4[i] = inverse(m);
    inv3[i] = inverse(m3);
    inv2[i] = inverse(m2);
}
