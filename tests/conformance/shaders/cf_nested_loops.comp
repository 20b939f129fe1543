#version 450
// Nested loops with break and continue at every level, and a flag to leave
// the outer loop from the inner one.
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_LocalInvocationIndex + 64u * gl_WorkGroupID.x;
    uint x = a[i];
    uint total = 0u, iters = 0u;
    bool done = false;
    for (uint r = 0u; r < 12u && !done; r++) {
        if (((x >> r) & 1u) == 1u)
            continue;
        for (uint c = 0u; c < 12u; c++) {
            iters++;
            if (c == r)
                continue;
            if (c > r + (x & 7u))
                break;
            for (uint d = 0u; d < 4u; d++) {
                if (d == (x >> 20) % 4u)
                    break;
                total += r * 100u + c * 10u + d;
            }
            if (total > (x % 5000u) + 2000u) {
                done = true;
                break;
            }
        }
    }
    o[i * 2u] = total;
    o[i * 2u + 1u] = iters;
}
