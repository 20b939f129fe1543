#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
/* The same hand-off with two mistakes a GPU forgives most of the time: the
 * flag is a relaxed atomic (no release/acquire), and barrier() makes only
 * Workgroup memory available, not the buffer.  The words may still sit in
 * the producers' caches when the consumers read them. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { nonprivate uint data[]; };
layout(set = 0, binding = 1) buffer Flag { uint flag; };
layout(set = 0, binding = 2) writeonly buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    if (gl_WorkGroupID.x == 0u) {
        data[l] = l * 7u + 3u;
        barrier();
        if (l == 0u)
            atomicStore(flag, 1u, gl_ScopeDevice, 0, 0);
    } else {
        if (l == 0u) {
            while (atomicLoad(flag, gl_ScopeDevice, 0, 0) == 0u) {
            }
        }
        barrier();
        result[l] = data[l];
    }
}
