#version 450
/* Bug: an in-place update — each invocation reads its right neighbour's
 * element and overwrites its own, in one buffer.  The neighbour may have
 * overwritten its element already (another subgroup or workgroup that ran
 * first): nothing orders the read before that write. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Values { uint values[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i + 1u < 256u)
        values[i] = values[i + 1u] + 1u;
}
