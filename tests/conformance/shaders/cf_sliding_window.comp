#version 450
// A loop shifting a private array every iteration (a window over a buffer),
// with the window's sum carried across iterations.
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer A { int a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { int o[]; };
layout(push_constant) uniform P { uint len; uint width; } pc;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    int win[8];
    for (int k = 0; k < 8; k++)
        win[k] = 0;
    int sum = 0, best = -2147483647, best_at = -1;
    for (uint k = 0u; k < pc.len; k++) {
        int incoming = a[(i * 7u + k) % uint(a.length())];
        sum += incoming - win[0];
        for (uint s = 0u; s + 1u < pc.width; s++)
            win[s] = win[s + 1u];
        win[pc.width - 1u] = incoming;
        if (sum > best) {
            best = sum;
            best_at = int(k);
        }
    }
    o[i * 2u] = best;
    o[i * 2u + 1u] = best_at;
}
