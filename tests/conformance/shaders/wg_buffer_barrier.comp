#version 450
// Invocations of one workgroup communicating through a storage buffer:
// write, memoryBarrierBuffer() + barrier(), read the neighbour's value;
// twice, in a loop.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) coherent buffer Scratch { uint scratch[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main()
{
    uint l = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
    uint base = g * 64u;
    uint v = g * 1000u + l;
    for (uint round = 0u; round < 3u; round++) {
        scratch[base + l] = v;
        memoryBarrierBuffer();
        barrier();
        v = scratch[base + (l + 1u + round) % 64u] + 1u;
        memoryBarrierBuffer();
        barrier();
    }
    o[base + l] = v;
}
