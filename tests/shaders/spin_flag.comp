#version 450
/* Invocation 0 waits for a flag that the last invocation of the workgroup
 * sets: it only finishes if the waiting subgroup lets the others run. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint result[]; };
shared uint flag;
shared uint counter;
void main() {
    uint l = gl_LocalInvocationIndex;
    if (l == 0) {
        uint spins = 0;
        while (atomicAdd(flag, 0u) == 0u)
            spins++;
        result[gl_WorkGroupID.x * 64u] = 1000u + min(spins, 1u);
    } else {
        uint before = atomicAdd(counter, 1u);
        if (l == 63u)
            atomicExchange(flag, 1u);
        result[gl_WorkGroupID.x * 64u + l] = before;
    }
}
