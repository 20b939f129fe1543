#version 450
/* Bug: memoryBarrierBuffer() where barrier() belongs.  A fence orders this
 * invocation's own accesses; it synchronizes with another invocation only
 * through an atomic write and read (000 "Synchronizes-With"), and this
 * shader has none: the neighbour's word may not be written yet. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    data[l] = l * 3u + 1u;
    memoryBarrierBuffer();
    result[l] = data[(l + 1u) % 64u];
}
