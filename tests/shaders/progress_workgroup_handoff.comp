#version 450
/* Workgroup i waits for workgroup i + 1's flag before it publishes its own:
 * the last workgroup starts a chain that runs backwards through all of
 * them (decoupled look-back's shape).  Needs resident workgroups that take
 * turns. */
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) coherent buffer State { uint flags[8]; uint values[8]; };
void main() {
    uint group = gl_WorkGroupID.x, last = gl_NumWorkGroups.x - 1u;
    if (gl_LocalInvocationIndex == 0u) {
        uint before = 0u;
        if (group != last) {
            while (atomicAdd(flags[group + 1u], 0u) == 0u) {
            }
            memoryBarrierBuffer(); /* the acquire: legacy atomics are relaxed */
            before = values[group + 1u];
        }
        values[group] = before + group + 1u;
        memoryBarrierBuffer();
        atomicExchange(flags[group], 1u);
    }
}
