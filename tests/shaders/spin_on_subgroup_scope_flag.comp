#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
/* In workgroup 0 the first subgroup sets a flag that the invocations of the
 * other subgroups spin on, all through atomics of Subgroup scope: a scope
 * instance holds one subgroup, so the spin's loads are not ordered with the
 * store and work on their own subgroup's copy: the spin may never see the
 * flag. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Flag { uint flag; uint seen; };
void main() {
    if (gl_WorkGroupID.x != 0u)
        return;
    if (gl_SubgroupID == 0u) {
        if (subgroupElect())
            atomicStore(flag, 1u, gl_ScopeSubgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    } else {
        while (atomicLoad(flag, gl_ScopeSubgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed) == 0u) {
        }
        seen = 1u;
    }
}
