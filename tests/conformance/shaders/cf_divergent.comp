#version 450
// Divergent loops: every lane its own trip count, nested divergent loops,
// loops whose exit depends on values computed in other iterations.
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    // Collatz steps (bounded)
    uint c = x % 10000u + 1u, steps = 0u;
    while (c != 1u && steps < 500u) {
        c = (c & 1u) == 1u ? 3u * c + 1u : c / 2u;
        steps++;
    }
    // Nested divergent loops
    uint acc = 0u;
    for (uint k = 0u; k < (x & 15u); k++)
        for (uint j = k; j < ((x >> 4) & 15u); j++)
            acc += k * j + 1u;
    // GCD
    uint p = x % 1000u + 1u, q = (x >> 10) % 1000u + 1u;
    while (q != 0u) {
        uint t = p % q;
        p = q;
        q = t;
    }
    o[i * 3u + 0u] = steps;
    o[i * 3u + 1u] = acc;
    o[i * 3u + 2u] = p;
}
