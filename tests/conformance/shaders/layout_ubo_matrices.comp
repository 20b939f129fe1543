#version 450
// std140 uniform arrays of matrices (mat3[4], row_major mat2x3 in a nested
// struct array, dmat2), indexed dynamically.
layout(local_size_x = 32) in;
struct Inner { mat2x3 r; vec2 off; };                     // row_major through the block member   // r: 3 rows of vec2 at 16 bytes = 48; off@48; size 64
struct Outer { Inner in_[2]; float w; };                  // in_@0 (2 x 64), w@128; size 144
layout(std140, set = 0, binding = 0) uniform U {
    mat3 ms[4];       // 0, 48 each
    layout(row_major) Outer outs[3];   // 192, 144 each
    dmat2 dm;         // 624: 2 columns of dvec2 at 16 bytes
} u;
layout(std430, set = 0, binding = 1) readonly buffer In { uint keys[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { float o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint k = keys[i];
    mat3 m = u.ms[k % 4u];
    vec3 v = m * vec3(1.0, 2.0, 3.0);
    Inner in_ = u.outs[k % 3u].in_[(k >> 2) % 2u];
    vec3 r = in_.r * in_.off;
    o[i * 8u + 0u] = v.x;
    o[i * 8u + 1u] = v.y;
    o[i * 8u + 2u] = v.z;
    o[i * 8u + 3u] = r.x + r.y * 10.0 + r.z * 100.0;
    o[i * 8u + 4u] = u.outs[(k >> 4) % 3u].w;
    o[i * 8u + 5u] = u.ms[(k >> 6) % 4u][(k >> 8) % 3u][(k >> 10) % 3u];
    o[i * 8u + 6u] = float(u.dm[(k >> 1) % 2u][k % 2u]);
    o[i * 8u + 7u] = u.outs[1].in_[1].r[1][2];
}
