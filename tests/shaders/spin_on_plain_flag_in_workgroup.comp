#version 450
/* Invocation 0 spins on a plain flag that the workgroup's last invocation
 * (another subgroup) sets. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Flag { uint flag; uint seen; };
void main() {
    uint l = gl_LocalInvocationID.x;
    if (l == 63u)
        flag = 1u;
    if (l == 0u) {
        while (flag == 0u) {
        }
        seen = 1u;
    }
}
