#version 450
// Shared variables of many types (8/16/64-bit, half, double, vec3, struct
// arrays, matrices) written by one invocation and read by another.
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 64) in;
struct Item { vec3 p; uint id; uint8_t tag; };
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
shared uint8_t s8[64];
shared uint16_t s16[64];
shared float16_t sh[64];
shared double sd[64];
shared uint64_t s64[64];
shared vec3 sv[64];
shared Item items[64];
shared mat2 sm[64];
void main()
{
    uint l = gl_LocalInvocationID.x;
    uint v = x[gl_GlobalInvocationID.x];
    s8[l] = uint8_t(v);
    s16[l] = uint16_t(v >> 8);
    sh[l] = float16_t(float(v & 0x3ffu) * 0.25);
    sd[l] = double(v) * 0.5lf;
    s64[l] = uint64_t(v) << 24;
    sv[l] = vec3(float(v & 0xffu), float((v >> 8) & 0xffu), -1.0);
    items[l] = Item(vec3(float(l)), v, uint8_t(l * 3u));
    sm[l] = mat2(float(l), 1.0, 2.0, float(v & 7u));
    barrier();
    uint p = (l * 37u + 11u) % 64u;   // a permutation of 0..63
    o[gl_GlobalInvocationID.x * 8u + 0u] = uint(s8[p]);
    o[gl_GlobalInvocationID.x * 8u + 1u] = uint(s16[p]);
    o[gl_GlobalInvocationID.x * 8u + 2u] = floatBitsToUint(float(sh[p]));
    o[gl_GlobalInvocationID.x * 8u + 3u] = uint(sd[p] * 2.0lf) ^ uint(s64[p] >> 24);
    o[gl_GlobalInvocationID.x * 8u + 4u] = floatBitsToUint(sv[p].x + sv[p].y * 256.0 + sv[p].z);
    o[gl_GlobalInvocationID.x * 8u + 5u] = items[p].id + uint(items[p].tag) + uint(items[p].p.y);
    o[gl_GlobalInvocationID.x * 8u + 6u] = floatBitsToUint(determinant(sm[p]));
    o[gl_GlobalInvocationID.x * 8u + 7u] = uint(s64[p] >> 32);
}
