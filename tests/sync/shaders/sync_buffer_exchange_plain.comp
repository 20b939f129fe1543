#version 450
/* Invocations of one workgroup exchange words through a buffer that is
 * not coherent (legacy GLSL, no Vulkan memory model): its accesses are
 * private (000 "Private vs. Non-Private"), and private accesses of two
 * invocations are ordered only between commands - memoryBarrierBuffer()
 * and barrier() change nothing.  The mistake: `data` is not `coherent`. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    data[l] = l * 3u + 1u;
    memoryBarrierBuffer();
    barrier();
    result[l] = data[(l + 32u) % 64u];
}
