#version 450
// 64-bit signed and unsigned arithmetic, shifts, comparisons.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 7) in;
layout(set = 0, binding = 0) readonly buffer A { int64_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { int64_t b[]; };
layout(set = 0, binding = 2) writeonly buffer O { int64_t o[]; };
const uint K = 16u;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    int64_t x = a[i], y = b[i];
    uint64_t ux = uint64_t(x), uy = uint64_t(y);
    int s = int(y & 63l);
    o[i * K + 0u] = x + y;
    o[i * K + 1u] = x - y;
    o[i * K + 2u] = x * y;
    o[i * K + 3u] = x / y;
    o[i * K + 4u] = x % y;
    o[i * K + 5u] = int64_t(ux / uy);
    o[i * K + 6u] = int64_t(ux % uy);
    o[i * K + 7u] = x >> s;
    o[i * K + 8u] = int64_t(ux >> s);
    o[i * K + 9u] = x << s;
    o[i * K + 10u] = (x & y) ^ (x | ~y);
    o[i * K + 11u] = min(x, y);
    o[i * K + 12u] = int64_t(max(ux, uy));
    o[i * K + 13u] = (x < y ? 1l : 0l) | (ux < uy ? 2l : 0l) | (x == y ? 4l : 0l);
    o[i * K + 14u] = abs(x);
    o[i * K + 15u] = x / 1000000007l + int64_t(ux % 10ul);
}
