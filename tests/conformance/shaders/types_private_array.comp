#version 450
// A function-local array written and read with data-dependent indices.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint hist[16];
    for (int k = 0; k < 16; k++)
        hist[k] = 0u;
    uint x = a[i];
    for (int k = 0; k < 8; k++) {
        hist[x & 15u] += uint(k + 1);
        x = x * 1103515245u + 12345u;
        x ^= x >> 7;
    }
    uint perm[8] = uint[8](3u, 0u, 7u, 1u, 6u, 2u, 5u, 4u);
    uint acc = 0u;
    for (uint k = 0u; k < 16u; k++)
        acc = acc * 31u + hist[(k + i) & 15u];
    o[i * 3u + 0u] = acc;
    o[i * 3u + 1u] = hist[perm[i & 7u]] + hist[perm[(i >> 3) & 7u] + 8u];
    hist[a[i] % 16u] = 99u;
    o[i * 3u + 2u] = hist[(a[i] >> 4) % 16u];
}
