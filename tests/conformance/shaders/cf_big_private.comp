#version 450
// A large function-local array (512 floats) with data-dependent writes and
// reads, and a local array of vectors passed to a function.
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { float o[]; };
float weigh(vec4 vs[8], uint k) { return dot(vs[k % 8u], vec4(1.0, -1.0, 2.0, 0.5)); }
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint x = u[i];
    float big[512];
    for (int k = 0; k < 512; k++)
        big[k] = float(k) * 0.5;
    uint h = x;
    for (int k = 0; k < 200; k++) {
        h = h * 1664525u + 1013904223u;
        big[h >> 23] += float(k & 7);
    }
    vec4 vs[8];
    for (int k = 0; k < 8; k++)
        vs[k] = vec4(big[(x + uint(k) * 61u) % 512u], float(k), -float(k), 1.0);
    float s = 0.0;
    for (int k = 0; k < 512; k += 37)
        s += big[k];
    o[i * 3u] = s;
    o[i * 3u + 1u] = big[x % 512u] + big[(x >> 9) % 512u];
    o[i * 3u + 2u] = weigh(vs, x >> 3);
}
