#version 450
// 64-bit atomics (shaderBufferInt64Atomics, shaderSharedInt64Atomics): add,
// min, max, and, or, xor, exchange, compare-and-swap on uint64_t and int64_t
// in a buffer and in shared memory.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint64_t x[]; };
layout(std430, set = 0, binding = 1) buffer B {
    uint64_t add; int64_t iadd; uint64_t umin; uint64_t umax; int64_t imin; int64_t imax;
    uint64_t band; uint64_t bor; uint64_t bxor; uint64_t xchg; uint64_t cas;
    int64_t ixchg; int64_t icas; int64_t iand;
} b;
layout(std430, set = 0, binding = 2) writeonly buffer O { uint64_t o[]; };  // per workgroup 8
layout(std430, set = 0, binding = 3) writeonly buffer Old { uint64_t old[]; };
shared uint64_t s_add, s_max, s_or, s_xchg, s_and, s_xor, s_cas, s_umin;
shared int64_t s_min, s_imax;
void main()
{
    uint l = gl_LocalInvocationID.x, g = gl_WorkGroupID.x, i = gl_GlobalInvocationID.x;
    uint64_t v = x[i];
    if (l == 0u) {
        s_add = 0ul; s_max = 0ul; s_or = 0ul; s_xchg = 0xfffffffffffful; s_min = 0x7fffffffffffffffl;
        s_and = 0xfffffffffffffffful; s_xor = 0ul; s_cas = 0ul; s_umin = 0xfffffffffffffffful;
        s_imax = -0x7fffffffffffffffl - 1l;
    }
    barrier();
    old[i * 2u] = atomicAdd(b.add, v);
    atomicAdd(b.iadd, int64_t(v) >> 20);
    atomicMin(b.umin, v);
    atomicMax(b.umax, v);
    atomicMin(b.imin, int64_t(v));
    atomicMax(b.imax, int64_t(v));
    atomicAnd(b.band, v | 0xff00000000000000ul);
    atomicOr(b.bor, v & 0x0000ffff0000fffful);
    atomicXor(b.bxor, v);
    old[i * 2u + 1u] = atomicExchange(b.xchg, uint64_t(i) << 33);
    atomicCompSwap(b.cas, 0ul, uint64_t(i + 1u) << 32);
    atomicExchange(b.ixchg, -int64_t(i) - 1l);
    atomicCompSwap(b.icas, -1l, -int64_t(i) - 2l);
    atomicAnd(b.iand, int64_t(v) | 0x4000000000000000l);
    atomicAdd(s_add, v >> 8);
    atomicMax(s_max, v);
    atomicOr(s_or, 1ul << (l % 64u));
    atomicMin(s_min, int64_t(v));
    atomicExchange(s_xchg, uint64_t(l));
    atomicAnd(s_and, v | 0x00000000ffff0000ul);
    atomicXor(s_xor, v);
    atomicCompSwap(s_cas, 0ul, uint64_t(l + 1u) << 40);
    atomicMin(s_umin, v);
    atomicMax(s_imax, int64_t(v));
    barrier();
    if (l == 0u) {
        o[g * 8u + 0u] = s_add;
        o[g * 8u + 1u] = s_max;
        o[g * 8u + 2u] = s_or;
        o[g * 8u + 3u] = uint64_t(s_min);
        o[g * 8u + 4u] = s_xchg;
        o[g * 8u + 5u] = s_and ^ s_xor;
        o[g * 8u + 6u] = s_cas | (s_umin & 0xfffffffful);
        o[g * 8u + 7u] = uint64_t(s_imax);
    }
}
