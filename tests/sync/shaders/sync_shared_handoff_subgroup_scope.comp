#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
/* Bug: in each workgroup the first subgroup fills a shared tile and
 * raises a shared flag with a release store; every other subgroup waits for
 * the flag with acquire loads and reads the tile.  The mistake: the store
 * and the loads have Subgroup scope, which does not hold invocations of
 * other subgroups, so they synchronize nothing between subgroups (000
 * "Synchronizes-With": the scope must include both agents). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
shared uint tile[64];
shared uint flag;
void main() {
    uint l = gl_LocalInvocationIndex, base = gl_WorkGroupID.x * 64u;
    if (l == 0u)
        atomicStore(flag, 0u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
    barrier();
    if (gl_SubgroupID == 0u) {
        for (uint k = gl_SubgroupInvocationID; k < 64u; k += gl_SubgroupSize)
            tile[k] = data[base + k];
        subgroupBarrier();
        if (subgroupElect())
            atomicStore(flag, 1u, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsRelease);
    } else {
        /* A bounded wait: strict mode's loads never see the store, so an
         * unbounded spin would end in device loss
         * (tests/api/device_lost_spin.c). */
        for (uint i = 0u;
             i < 256u && atomicLoad(flag, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsAcquire) == 0u;
             i++) {
        }
    }
    result[base + l] = tile[(l + 1u) % 64u];
}
