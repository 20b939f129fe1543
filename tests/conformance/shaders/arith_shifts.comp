#version 450
// Shifts: arithmetic (int) and logical (uint) right shifts, left shifts,
// by variable, by constant, and per component of vectors.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) readonly buffer S { uint s[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    uint u = uint(x);
    uint sh = s[i];
    const uint K = 10u;
    o[i * K + 0u] = uint(x >> sh);
    o[i * K + 1u] = u >> sh;
    o[i * K + 2u] = uint(x << sh);
    o[i * K + 3u] = u << sh;
    o[i * K + 4u] = uint(x >> 7);
    o[i * K + 5u] = u >> 31;
    o[i * K + 6u] = u << 13;
    ivec2 v = ivec2(x, -x) >> ivec2(sh, 31u - sh);
    o[i * K + 7u] = uint(v.x);
    o[i * K + 8u] = uint(v.y);
    uvec2 w = uvec2(u, ~u) << uvec2(31u - sh, sh);
    o[i * K + 9u] = w.x ^ w.y;
}
