#version 450
// Unsigned loop idioms: descending with wrap-around exit, steps > 1,
// counters changed inside the body, a loop over the full uint8 range, and
// an int loop counting down through zero.
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint x = u[i];
    uint a = 0u;
    for (uint k = x % 17u; k-- > 0u;)
        a = a * 3u + k;
    uint b = 0u;
    for (uint k = 0u; k < 100u; k += 7u + (x & 3u))
        b += k;
    uint c = 0u, k = 0u;
    while (k < 50u) {
        c += k;
        if ((k & 3u) == (x & 3u))
            k += 5u;
        k++;
    }
    uint d = 0u;
    for (uint t = 0xfffffff0u; t != 0x4u; t++)
        d ^= t * (x | 1u);
    int e = 0;
    for (int t = int(x % 5u); t >= -3; t--)
        e = e * 2 + t;
    o[i * 5u] = a;
    o[i * 5u + 1u] = b;
    o[i * 5u + 2u] = c;
    o[i * 5u + 3u] = d;
    o[i * 5u + 4u] = uint(e);
}
