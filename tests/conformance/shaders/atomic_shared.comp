#version 450
// Every 32-bit atomic on shared memory: a per-workgroup histogram (add),
// min/max, and/or/xor, exchange and compare-and-swap, then written out.
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };       // per workgroup 32 words
layout(std430, set = 0, binding = 2) writeonly buffer Old { uint old[]; };   // per invocation 3
shared uint hist[16];
shared uint umin, umax, uand, uor, uxor, xchg, claimed;
shared int imin, imax, iadd, iand, ior, ixor, ixchg, icas;
void main()
{
    uint l = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
    uint v = x[gl_GlobalInvocationID.x];
    if (l < 16u)
        hist[l] = 0u;
    if (l == 0u) {
        umin = 0xffffffffu; umax = 0u; uand = 0xffffffffu; uor = 0u; uxor = 0u; xchg = 12345u; claimed = 0u;
        imin = 2147483647; imax = -2147483647 - 1;
        iadd = -50; iand = -1; ior = 0; ixor = 0; ixchg = -12345; icas = 0;
    }
    barrier();
    uint hold = atomicAdd(hist[v % 16u], 1u);
    atomicMin(umin, v);
    atomicMax(umax, v);
    atomicMin(imin, int(v));
    atomicMax(imax, int(v));
    atomicAnd(uand, v | 0xff00ff00u);
    atomicOr(uor, v & 0x00ff00ffu);
    atomicXor(uxor, v);
    old[gl_GlobalInvocationID.x * 3u + 1u] = atomicExchange(xchg, l);
    atomicCompSwap(claimed, 0u, l + 1u);
    atomicAdd(iadd, int(v % 201u) - 100);
    atomicAnd(iand, int(v | 0x80f0f0f0u));
    atomicOr(ior, int(v & 0x8000000fu));
    atomicXor(ixor, int(v));
    int xo = atomicExchange(ixchg, -int(l) - 1);
    int co = atomicCompSwap(icas, 0, -int(l) - 1);
    old[gl_GlobalInvocationID.x * 3u] = hold | (co == 0 ? 0x80000000u : 0u);   // bit 31: won the int CAS
    old[gl_GlobalInvocationID.x * 3u + 2u] = uint(xo);
    barrier();
    if (l < 16u)
        o[g * 32u + l] = hist[l];
    if (l == 0u) {
        o[g * 32u + 16u] = umin;
        o[g * 32u + 17u] = umax;
        o[g * 32u + 18u] = uint(imin);
        o[g * 32u + 19u] = uint(imax);
        o[g * 32u + 20u] = uand;
        o[g * 32u + 21u] = uor;
        o[g * 32u + 22u] = uxor;
        o[g * 32u + 23u] = xchg;
        o[g * 32u + 24u] = claimed;
        o[g * 32u + 25u] = uint(iadd);
        o[g * 32u + 26u] = uint(iand);
        o[g * 32u + 27u] = uint(ior);
        o[g * 32u + 28u] = uint(ixor);
        o[g * 32u + 29u] = uint(ixchg);
        o[g * 32u + 30u] = uint(icas);
    }
}
