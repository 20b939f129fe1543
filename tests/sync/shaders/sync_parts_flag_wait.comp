#version 450
/* Bug: the middle workgroup (in another part of strict mode's run) writes
 * its words into mid[1..64] and then a flag into mid[0]; invocation 0 of
 * workgroup 0 waits for the flag, and each of its invocations takes a word.  The buffer is coherent, but no atomic
 * orders the two workgroups: a race, whatever the wait.  (One store and
 * one load instruction each, so that the mistake is one pair.) */
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint distance; uint total; };
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) coherent buffer Mid { uint mid[]; };
layout(set = 0, binding = 2) writeonly buffer Out { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;
    if (gl_WorkGroupID.x == total / 128u) {
        for (uint k = 0u; k < 2u; k++) {
            if (k == 1u && l != 0u)
                break;
            mid[k == 0u ? 1u + l : 0u] = k == 0u ? a[i] : 1234u;
            memoryBarrierBuffer();
        }
    }
    if (gl_WorkGroupID.x == 0u) {
        uint at = l == 0u ? 0u : 1u + l; /* invocation 0 waits, the others just read */
        for (;;) {
            uint v = mid[at];
            if (at != 0u) {
                result[i] = v;
                break;
            }
            if (v != 0u)
                at = 1u + l;
        }
    } else {
        result[i] = a[i] + 1u;
    }
}
