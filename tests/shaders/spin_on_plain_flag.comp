#version 450
/* Workgroup 1 spins on a plain flag that workgroup 0 sets: the load is
 * private (no coherent, no NonPrivatePointer, not atomic), and a private
 * read never sees another invocation's write inside a dispatch. */
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Flag { uint flag; uint seen; };
void main() {
    if (gl_WorkGroupID.x == 0u) {
        flag = 1u;
    } else {
        while (flag == 0u) {
        }
        seen = 1u;
    }
}
