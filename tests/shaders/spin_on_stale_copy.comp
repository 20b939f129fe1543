#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
/* Workgroup 1 spins on a nonprivate flag that workgroup 0 sets, but the
 * spin's load makes nothing visible: it keeps reading its own copy, and
 * never sees the flag (the Vulkan memory model allows exactly that). */
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Flag { nonprivate uint flag; uint seen; };
void main() {
    if (gl_WorkGroupID.x == 0u) {
        flag = 1u;
    } else {
        while (flag == 0u) {
        }
        seen = 1u;
    }
}
