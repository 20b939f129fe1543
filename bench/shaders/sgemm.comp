#version 450
#define TILE 16
layout(local_size_x = TILE, local_size_y = TILE) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint n; } p;
shared float ta[TILE][TILE];
shared float tb[TILE][TILE];
void main() {
    uint row = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
    uint ly = gl_LocalInvocationID.y, lx = gl_LocalInvocationID.x;
    float sum = 0.0;
    for (uint t = 0; t < p.n; t += TILE) {
        ta[ly][lx] = a[row * p.n + t + lx];
        tb[ly][lx] = b[(t + ly) * p.n + col];
        barrier();
        for (uint k = 0; k < TILE; k++)
            sum += ta[ly][k] * tb[k][lx];
        barrier();
    }
    c[row * p.n + col] = sum;
}
