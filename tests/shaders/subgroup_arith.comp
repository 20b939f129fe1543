#version 450
// Subgroup arithmetic: Reduce, InclusiveScan and ExclusiveScan of every
// operation, converged and divergent; checked by tests/unit/test_subgroup.c.
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : enable
#extension GL_EXT_shader_subgroup_extended_types_int64 : enable
layout(local_size_x = 70) in;
layout(set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(set = 0, binding = 1) readonly buffer InF { float f[]; };
layout(set = 0, binding = 2) buffer Out { uint r[]; };
const uint S = 128;
const uint REGION = 60;

#define U3(s, OP, v) r[o + s] = subgroup##OP(v); r[o + s + 1] = subgroupInclusive##OP(v); \
    r[o + s + 2] = subgroupExclusive##OP(v);
#define I3(s, OP, v) r[o + s] = uint(subgroup##OP(v)); r[o + s + 1] = uint(subgroupInclusive##OP(v)); \
    r[o + s + 2] = uint(subgroupExclusive##OP(v));
#define F3(s, OP, v) r[o + s] = floatBitsToUint(subgroup##OP(v)); \
    r[o + s + 1] = floatBitsToUint(subgroupInclusive##OP(v)); r[o + s + 2] = floatBitsToUint(subgroupExclusive##OP(v));
#define B3(s, OP, v) r[o + s] = subgroup##OP(v) ? 1u : 0u; r[o + s + 1] = subgroupInclusive##OP(v) ? 1u : 0u; \
    r[o + s + 2] = subgroupExclusive##OP(v) ? 1u : 0u;

// All operations, written at slots base + 0 .. base + 59.
void all_ops(uint o, uint x, float fx)
{
    uint m = x % 4u + 1u;
    uint h = x * 2654435761u;
    int sx = int(x) - 500;
    float fm = 0.75 + float(x % 64u) / 128.0;
    bool b5 = x % 5u != 0u, b7 = x % 7u == 0u, b2 = x % 2u == 1u;
    U3(0, Add, x)
    U3(3, Mul, m)
    U3(6, Min, x)
    U3(9, Max, x)
    U3(12, And, h)
    U3(15, Or, h)
    U3(18, Xor, h)
    I3(21, Min, sx)
    I3(24, Max, sx)
    I3(27, Add, sx)
    F3(30, Add, fx)
    F3(33, Mul, fm)
    F3(36, Min, fx)
    F3(39, Max, fx)
    B3(42, And, b5)
    B3(45, Or, b7)
    B3(48, Xor, b2)
    ivec3 v = subgroupAdd(ivec3(sx, 2 * sx, -sx));
    r[o + 51] = uint(v.x);
    r[o + 52] = uint(v.y);
    r[o + 53] = uint(v.z);
    r[o + 54] = subgroupInclusiveMax(uvec2(x, h)).y;
    r[o + 55] = floatBitsToUint(subgroupExclusiveMul(vec2(fm, 1.0)).x);
    uint64_t w = uint64_t(x) << 30;
    uint64_t wi = subgroupInclusiveAdd(w);
    r[o + 56] = uint(wi);
    r[o + 57] = uint(wi >> 32);
    int64_t sm = subgroupMin(int64_t(sx) * 3000000000l);
    r[o + 58] = uint(uint64_t(sm));
    r[o + 59] = uint(uint64_t(sm) >> 32);
}

void main()
{
    uint g = gl_GlobalInvocationID.x;
    uint o = g * S;
    uint x = u[g];
    uint lane = gl_SubgroupInvocationID;
    r[o + 0] = gl_SubgroupSize;
    r[o + 1] = lane;
    all_ops(o + 2u, x, f[g]);
    if (lane % 3u != 0u)
        all_ops(o + 2u + REGION, x, f[g]);
    // A loop that lanes leave at different iterations.
    uint acc = 0u;
    for (uint k = 0u; k < x % 5u; k++)
        acc += subgroupAdd(k + 1u + x % 3u) * (k + 1u);
    r[o + 2 + 2 * REGION] = acc;
}
