#version 450
// The call chain of cf_call_chain.comp with one more call site of level1:
// slow to compile at VKMM_OPT_LEVEL=2 (run only with VKMM_CONFORMANCE_SLOW=1).
// A chain of calls (no recursion) with early returns inside loops in the
// callees, calls from divergent control flow, and the same function called
// with different argument shapes.
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
uint find_first(uint x, uint bit)
{
    for (uint k = 0u; k < 32u; k++)
        if (((x >> k) & 1u) == bit)
            return k;
    return 99u;
}
uint level3(uint x) { return find_first(x, 1u) + find_first(x, 0u) * 100u; }
uint level2(uint x)
{
    if (x == 0u)
        return 7u;
    uint r = level3(x);
    if ((x & 0xf0u) == 0u)
        return r + level3(~x);
    return r * 2u;
}
uint level1(uint x, uint y)
{
    uint acc = 0u;
    for (uint k = 0u; k < y; k++) {
        if (k == 3u)
            return acc + 1000u;
        acc += level2(x >> k);
    }
    return acc;
}
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint r;
    if ((x & 1u) == 0u)
        r = level1(x, x % 6u);
    else
        r = level2(x) + level1(x >> 4, 2u);
    o[i] = r;
}
