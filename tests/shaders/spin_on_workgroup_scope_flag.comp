#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
/* Workgroup 1 spins on a flag that workgroup 0 sets, both through atomics
 * of Workgroup scope: their scope instances hold one workgroup each, so the
 * spin's loads are not ordered with the store and work on their own
 * workgroup's copy: the spin may never see the flag. */
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Flag { uint flag; uint seen; };
void main() {
    if (gl_WorkGroupID.x == 0u) {
        atomicStore(flag, 1u, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    } else {
        while (atomicLoad(flag, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed) == 0u) {
        }
        seen = 1u;
    }
}
