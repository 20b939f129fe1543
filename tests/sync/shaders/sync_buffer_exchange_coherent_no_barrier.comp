#version 450
/* Bug: the legacy exchange of sync_buffer_exchange_coherent.comp without
 * memoryBarrierBuffer(); barrier(): each invocation reads the word its
 * neighbour (mostly in its own subgroup) writes, and nothing orders the
 * two invocations (lanes of one subgroup are agents of their own too). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    data[l] = l * 3u + 1u;
    result[l] = data[(l + 1u) % 64u];
}
