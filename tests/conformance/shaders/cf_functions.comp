#version 450
// Functions with in, out and inout parameters of scalar, vector, array and
// struct types; functions returning arrays and structs; out parameters that
// are buffer elements and vector components.
layout(local_size_x = 64) in;
struct Acc { uint sum; uint count; vec2 range; };
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) buffer O { uint o[]; };
layout(std430, set = 0, binding = 2) buffer V { vec4 v[]; };
void divmod(uint x, uint y, out uint q, out uint r) { q = x / y; r = x % y; }
void accumulate(inout Acc acc, uint x)
{
    acc.sum += x;
    acc.count++;
    acc.range = vec2(min(acc.range.x, float(x)), max(acc.range.y, float(x)));
}
void fill(out uint arr[4], uint seed)
{
    for (int k = 0; k < 4; k++)
        arr[k] = seed * uint(k + 1);
}
uint[4] reversed(uint arr[4]) { return uint[4](arr[3], arr[2], arr[1], arr[0]); }
void swap(inout vec2 p) { p = p.yx; }
void scale(inout float f, float s) { f *= s; }
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint q, r;
    divmod(x, 7u + (x & 3u), q, r);
    Acc acc = Acc(0u, 0u, vec2(1e9, -1e9));
    for (uint k = 0u; k < 5u; k++)
        accumulate(acc, (x >> (k * 4u)) & 15u);
    uint arr[4];
    fill(arr, x & 0xffu);
    uint rev[4] = reversed(arr);
    vec4 w = v[i];
    swap(w.zx);           // out/inout through a swizzle
    scale(w.y, 2.0);      // through a component
    v[i] = w;
    divmod(x, 1000u, o[i * 8u + 6u], o[i * 8u + 7u]);  // out parameters are buffer elements
    o[i * 8u + 0u] = q;
    o[i * 8u + 1u] = r;
    o[i * 8u + 2u] = acc.sum | acc.count << 16;
    o[i * 8u + 3u] = uint(acc.range.x) | uint(acc.range.y) << 8;
    o[i * 8u + 4u] = rev[0] + rev[1] * 3u;
    o[i * 8u + 5u] = arr[(x >> 9) & 3u];
}
