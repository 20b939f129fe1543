#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
/* spin_on_subgroup_scope_flag with the flag in Workgroup storage: in
 * workgroup 0 the first subgroup sets it, the invocations of the other
 * subgroups spin on it, all through atomics of Subgroup scope.  A scope
 * instance holds one subgroup, so the loads are not ordered with the store
 * (000 "Data Race"): the spin may never see the flag. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint unused; uint seen; };
shared uint Flag;
void main() {
    if (gl_WorkGroupID.x != 0u)
        return;
    if (gl_LocalInvocationIndex == 0u)
        atomicStore(Flag, 0u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
    barrier();
    if (gl_SubgroupID == 0u) {
        if (subgroupElect())
            atomicStore(Flag, 1u, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
    } else {
        while (atomicLoad(Flag, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed) == 0u) {
        }
        if (gl_LocalInvocationIndex == gl_WorkGroupSize.x - 1u)
            seen = 1u;
    }
}
