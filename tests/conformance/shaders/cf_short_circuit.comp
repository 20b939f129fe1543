#version 450
// && and || evaluate their right side only when needed (the right sides
// have side effects), and ?: evaluates one branch.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
bool bump(inout uint counter, bool value) { counter++; return value; }
uint costly(inout uint counter, uint v) { counter += 10u; return v * 2u; }
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint n = 0u;
    bool p = (x & 1u) != 0u, q = (x & 2u) != 0u;
    bool r1 = p && bump(n, q);
    bool r2 = p || bump(n, q);
    bool r3 = (x > 100u) && bump(n, true) && bump(n, q);
    uint t = q ? costly(n, x) : costly(n, x + 1u) + 1u;
    uint bits = uint(r1) | uint(r2) << 1 | uint(r3) << 2;
    o[i * 3u] = n;
    o[i * 3u + 1u] = bits;
    o[i * 3u + 2u] = t;
}
