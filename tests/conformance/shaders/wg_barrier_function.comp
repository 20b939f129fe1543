#version 450
// barrier() inside called functions (in loops, with locals and parameters
// live across it, nested calls), and atomics in called functions.
layout(local_size_x = 48) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
shared uint s[48];
shared uint counter;
uint neighbour_sum(uint v, uint rounds)
{
    uint l = gl_LocalInvocationID.x;
    uint acc = v;               // live across the barriers
    for (uint r = 0u; r < rounds; r++) {
        s[l] = acc;
        barrier();
        acc += s[(l + 1u + r) % 48u];
        barrier();
    }
    return acc;
}
uint ticket(uint v)
{
    uint t = atomicAdd(counter, v & 1u);   // live values across the atomic
    return t * 0u + (v & 1u);
}
uint twice(uint v)
{
    uint a = neighbour_sum(v, 2u);
    uint b = neighbour_sum(a ^ 0x55u, 3u);
    return a * 7u + b;
}
void main()
{
    uint l = gl_LocalInvocationID.x;
    if (l == 0u)
        counter = 0u;
    barrier();
    uint v = x[gl_GlobalInvocationID.x];
    uint r = twice(v);
    uint t = ticket(v);
    barrier();
    o[gl_GlobalInvocationID.x * 3u] = r;
    o[gl_GlobalInvocationID.x * 3u + 1u] = t;
    o[gl_GlobalInvocationID.x * 3u + 2u] = counter;
}
