#version 450
// Loops with several loop-carried values (phi-heavy once optimized):
// Fibonacci pairs, xorshift state, running min/max/sum, data-dependent trip
// counts.
layout(local_size_x = 100) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint n = a[i] % 64u;
    uint f0 = 0u, f1 = 1u;
    uint s = a[i] | 1u;
    uint mn = 0xffffffffu, mx = 0u, sum = 0u;
    for (uint k = 0u; k < n; k++) {
        uint t = f0 + f1;
        f0 = f1;
        f1 = t;
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        mn = min(mn, s);
        mx = max(mx, s);
        sum += s & 0xffu;
    }
    o[i * 5u + 0u] = f0;
    o[i * 5u + 1u] = s;
    o[i * 5u + 2u] = mn;
    o[i * 5u + 3u] = mx;
    o[i * 5u + 4u] = sum;
}
