#version 450
// Parallel prefix sums with barriers: Hillis-Steele inclusive scan over 256
// elements, and a Blelloch exclusive scan over 512 (two per invocation).
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Inc { uint inc[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Exc { uint exc[]; };
shared uint hs[2][256];
shared uint bl[512];
void main()
{
    uint l = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
    // Hillis-Steele
    hs[0][l] = x[g * 512u + l];
    barrier();
    uint src = 0u;
    for (uint d = 1u; d < 256u; d <<= 1) {
        uint v = hs[src][l];
        if (l >= d)
            v += hs[src][l - d];
        hs[1u - src][l] = v;
        barrier();
        src = 1u - src;
    }
    inc[g * 256u + l] = hs[src][l];
    // Blelloch
    bl[2u * l] = x[g * 512u + 2u * l];
    bl[2u * l + 1u] = x[g * 512u + 2u * l + 1u];
    uint offset = 1u;
    for (uint d = 256u; d > 0u; d >>= 1) {
        barrier();
        if (l < d) {
            uint ai = offset * (2u * l + 1u) - 1u, bi = offset * (2u * l + 2u) - 1u;
            bl[bi] += bl[ai];
        }
        offset <<= 1;
    }
    if (l == 0u)
        bl[511] = 0u;
    for (uint d = 1u; d < 512u; d <<= 1) {
        offset >>= 1;
        barrier();
        if (l < d) {
            uint ai = offset * (2u * l + 1u) - 1u, bi = offset * (2u * l + 2u) - 1u;
            uint t = bl[ai];
            bl[ai] = bl[bi];
            bl[bi] += t;
        }
    }
    barrier();
    exc[g * 512u + 2u * l] = bl[2u * l];
    exc[g * 512u + 2u * l + 1u] = bl[2u * l + 1u];
}
