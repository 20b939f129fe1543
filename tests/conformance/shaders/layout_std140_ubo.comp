#version 450
// A std140 uniform block: arrays of scalars and vec2 with 16-byte strides,
// vec3 followed by a float, mat3/mat2 with 16-byte column strides, arrays of
// structs, double and dvec3.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 40) in;
struct Item { int i; vec3 p; };
layout(std140, set = 0, binding = 0) uniform U {
    float f[4];     // 0, stride 16
    vec3 v;         // 64
    float after_v;  // 76
    mat3 m;         // 80, columns 16 apart
    vec2 arr2[3];   // 128, stride 16
    Item st[2];     // 176, stride 32 (p at +16)
    mat2 m2;        // 240, columns 16 apart
    double d;       // 272
    dvec3 dv;       // 288
    uint tail;      // 312
} u;
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
layout(std430, set = 0, binding = 2) writeonly buffer D { uint64_t dd[]; };
float field(uint k)
{
    if (k < 4u) return u.f[k];
    if (k < 7u) return u.v[k - 4u];
    if (k == 7u) return u.after_v;
    if (k < 17u) return u.m[(k - 8u) / 3u][(k - 8u) % 3u];
    if (k < 23u) return u.arr2[(k - 17u) / 2u][(k - 17u) % 2u];
    if (k < 31u) {
        uint s = (k - 23u) / 4u, c = (k - 23u) % 4u;
        return c == 0u ? float(u.st[s].i) : u.st[s].p[c - 1u];
    }
    if (k < 35u) return u.m2[(k - 31u) / 2u][(k - 31u) % 2u];
    return float(u.tail);
}
void main()
{
    uint k = gl_LocalInvocationID.x;  // one field per invocation
    uint g = gl_WorkGroupID.x;
    o[g * 40u + k] = floatBitsToUint(field(k));
    if (k < 4u)
        dd[g * 4u + k] = doubleBitsToUint64(k == 0u ? u.d : u.dv[k - 1u]);
}
