#version 450
/* The same exchange in legacy GLSL, correct: `coherent` makes the accesses
 * non-private with availability and visibility at device scope on each
 * access, memoryBarrierBuffer() orders the write before the barrier, and
 * barrier() orders the invocations. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    data[l] = l * 3u + 1u;
    memoryBarrierBuffer();
    barrier();
    result[l] = data[(l + 32u) % 64u];
}
