#version 450
// Tiled matrix multiply C = A * B with 16x16 shared-memory tiles.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };   // M x K, row-major
layout(std430, set = 0, binding = 1) readonly buffer B { float b[]; };   // K x N
layout(std430, set = 0, binding = 2) writeonly buffer C { float c[]; };  // M x N
layout(push_constant) uniform P { uint M; uint N; uint K; } pc;
shared float ta[16][16];
shared float tb[16][16];
void main()
{
    uint row = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
    uint ly = gl_LocalInvocationID.y, lx = gl_LocalInvocationID.x;
    float acc = 0.0;
    for (uint t = 0u; t < (pc.K + 15u) / 16u; t++) {
        uint ka = t * 16u + lx, kb = t * 16u + ly;
        ta[ly][lx] = (row < pc.M && ka < pc.K) ? a[row * pc.K + ka] : 0.0;
        tb[ly][lx] = (kb < pc.K && col < pc.N) ? b[kb * pc.N + col] : 0.0;
        barrier();
        for (uint k = 0u; k < 16u; k++)
            acc += ta[ly][k] * tb[k][lx];
        barrier();
    }
    if (row < pc.M && col < pc.N)
        c[row * pc.N + col] = acc;
}
