#version 450
/* A deadlock: workgroup 0 waits for a value nobody ever stores (workgroup 1
 * stores 1, the loop waits for 7).  The dispatch never ends. */
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Flag { uint flag; uint seen; };
void main() {
    if (gl_WorkGroupID.x == 1u) {
        flag = 1u;
        return;
    }
    while (flag != 7u) {
    }
    seen = 1u;
}
