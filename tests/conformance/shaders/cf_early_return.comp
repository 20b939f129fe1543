#version 450
// Early returns from main at different points for different invocations,
// before and after stores, inside loops.
layout(local_size_x = 7, local_size_y = 3) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) buffer O { uint o[]; };
void main()
{
    uint i = gl_LocalInvocationIndex + 21u * gl_WorkGroupID.x;
    uint x = a[i];
    if (x % 5u == 0u)
        return;
    o[i * 3u] = x;
    if (x % 5u == 1u)
        return;
    for (uint k = 0u; k < 10u; k++) {
        if (k == (x >> 8) % 10u) {
            o[i * 3u + 1u] = k;
            return;
        }
        if (k == (x >> 12) % 12u)
            break;
    }
    o[i * 3u + 2u] = x * 2u;
}
