#version 450
/* Workgroup 0 spins on a coherent flag (a plain load of a coherent buffer,
 * no atomics) that workgroup 1 sets after publishing a value: the spin must
 * let workgroup 1 run, and see its store.  A race by the Vulkan memory
 * model all the same (only atomics synchronize: 000 "Synchronizes-With"),
 * so strict mode reports it and the copy reads the old value. */
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer State { uint flag; uint value; uint copied; };
void main() {
    if (gl_WorkGroupID.x == 1u) {
        value = 42u;
        memoryBarrierBuffer();
        flag = 1u;
        return;
    }
    while (flag == 0u) {
    }
    memoryBarrierBuffer();
    copied = value;
}
