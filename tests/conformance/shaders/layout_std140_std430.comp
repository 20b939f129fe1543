#version 450
// The same struct in a std140 uniform block and a std430 storage block:
// float[3] has stride 16 vs 4, vec2[2] 16 vs 8, mat2 columns 16 vs 8.
layout(local_size_x = 32) in;
struct T { float f[3]; vec2 v[2]; mat2 m; ivec3 iv; int last; };
// std430: f@0 v@16 m@32 iv@48 last@60, size 64
// std140: f@0 v@48 m@80 iv@112 last@124, size 128
layout(std140, set = 0, binding = 0) uniform U { T t140[4]; };
layout(std430, set = 0, binding = 1) readonly buffer S { T t430[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { float o[]; };
layout(std430, set = 0, binding = 3) writeonly buffer W { T w430[]; };
float sum(T t)
{
    return t.f[0] + t.f[1] * 2.0 + t.f[2] * 3.0 + t.v[0].x * 4.0 + t.v[0].y * 5.0 + t.v[1].x * 6.0 +
           t.v[1].y * 7.0 + t.m[0][0] * 8.0 + t.m[0][1] * 9.0 + t.m[1][0] * 10.0 + t.m[1][1] * 11.0 +
           float(t.iv.x) * 12.0 + float(t.iv.y) * 13.0 + float(t.iv.z) * 14.0 + float(t.last) * 15.0;
}
void main()
{
    uint i = gl_GlobalInvocationID.x;
    T a = t140[i % 4u];
    T b = t430[i];
    o[i * 3u + 0u] = sum(a);
    o[i * 3u + 1u] = sum(b);
    o[i * 3u + 2u] = a.f[i % 3u] + b.v[i % 2u].y + a.m[i % 2u][(i / 2u) % 2u];
    w430[i] = a;   // std140 -> std430 whole-struct copy
}
