#version 450
/* Bug: the in-place update the other way round — each invocation reads
 * its left neighbour's element, which the neighbour may have overwritten
 * already. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Values { uint values[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i > 0u)
        values[i] = values[i - 1u] + 1u;
}
