#version 450
// Atomics through buffer references: a histogram and a maximum in memory
// reached only by device address, and a pointer chosen per invocation.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Counters { uint maxv; int total; uint bins[16]; };
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(push_constant) uniform P { Counters a; Counters b; } pc;
void main()
{
    uint v = x[gl_GlobalInvocationID.x];
    Counters c = (v & 1u) == 0u ? pc.a : pc.b;
    atomicAdd(c.bins[v % 16u], 1u);
    atomicMax(c.maxv, v);
    atomicAdd(c.total, int(v % 100u) - 50);
}
