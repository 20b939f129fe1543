#version 450
/* Invocation 0 spins on a plain `shared` flag that the workgroup's last
 * invocation (another subgroup) sets, with no barrier() between: until a
 * barrier the read need never see the write. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint unused; uint seen; };
shared uint Flag;
void main() {
    uint l = gl_LocalInvocationID.x;
    if (l == 0u)
        Flag = 0u;
    barrier();
    if (l == 63u)
        Flag = 1u;
    if (l == 0u) {
        while (Flag == 0u) {
        }
        seen = 1u;
    }
}
