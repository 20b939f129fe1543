#version 450
/* Bug: the in-place update on a coherent buffer: coherence makes writes
 * reach other invocations, but still nothing orders the neighbour's read
 * before the write. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) coherent buffer Values { uint values[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i + 1u < 256u)
        values[i] = values[i + 1u] + 1u;
}
