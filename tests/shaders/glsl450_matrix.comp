#version 450
// determinant and inverse of mat2/3/4 and dmat2/3/4.  Item i's mat4 is
// columns m[4i..4i+3]; the mat3 and mat2 are its upper-left corners.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer M { vec4 m[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };   // 32 per item
layout(set = 0, binding = 2) writeonly buffer DY { double dy[]; }; // 32 per item
layout(push_constant) uniform P { uint n; } p;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n)
        return;
    mat4 m4 = mat4(m[4 * i], m[4 * i + 1], m[4 * i + 2], m[4 * i + 3]);
    mat3 m3 = mat3(m4);
    mat2 m2 = mat2(m4);
    uint o = 32 * i;
    y[o + 0] = determinant(m4);
    y[o + 1] = determinant(m3);
    y[o + 2] = determinant(m2);
    mat4 i4 = inverse(m4);
    mat3 i3 = inverse(m3);
    mat2 i2 = inverse(m2);
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            y[o + 3 + 4 * c + r] = i4[c][r];
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            y[o + 19 + 3 * c + r] = i3[c][r];
    for (int c = 0; c < 2; c++)
        for (int r = 0; r < 2; r++)
            y[o + 28 + 2 * c + r] = i2[c][r];

    dmat4 d4 = dmat4(m4);
    dmat3 d3 = dmat3(m3);
    dmat2 d2 = dmat2(m2);
    dy[o + 0] = determinant(d4);
    dy[o + 1] = determinant(d3);
    dy[o + 2] = determinant(d2);
    dmat4 j4 = inverse(d4);
    dmat3 j3 = inverse(d3);
    dmat2 j2 = inverse(d2);
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            dy[o + 3 + 4 * c + r] = j4[c][r];
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            dy[o + 19 + 3 * c + r] = j3[c][r];
    for (int c = 0; c < 2; c++)
        for (int r = 0; r < 2; r++)
            dy[o + 28 + 2 * c + r] = j2[c][r];
}
