#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
/* Bug: in each workgroup the first subgroup adds to a tile of a buffer
 * (words 0-31 of its part) and raises a flag (word 32) with a release store
 * at Workgroup scope; invocations 34-63, in other subgroups, wait for the
 * flag with relaxed loads, then make an acquire load of `ready` (word 33) --
 * another variable, released before the barrier -- and copy tile word
 * l - 32 into word l.  An acquire synchronizes only with the release whose
 * value it reads (000 "Synchronizes-With"): nothing orders the tile's
 * writes before the copies.  The fix: acquire the flag itself (or an
 * acquire fence after the loop: sync_device_handoff_fence). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) workgroupcoherent buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationIndex, base = gl_WorkGroupID.x * 64u;
    if (l == 0u)
        atomicStore(result[base + 33u], 1u, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer,
                    gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    uint scale = 1u;
    if (gl_SubgroupID == 0u) {
        for (uint k = gl_SubgroupInvocationID; k < 32u; k += gl_SubgroupSize)
            result[base + k] = result[base + k] + data[base + k] + 1u;
        subgroupBarrier();
        if (subgroupElect())
            atomicStore(result[base + 32u], 1u, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer,
                        gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    } else if (l > 33u) {
        while (atomicLoad(result[base + 32u], gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed) ==
               0u) {
        }
        scale = atomicLoad(result[base + 33u], gl_ScopeWorkgroup, gl_StorageSemanticsBuffer,
                           gl_SemanticsAcquire | gl_SemanticsMakeVisible);
        result[base + l] = result[base + l - 32u] * scale;
    }
    /* Every wait is over: the flag goes down for the next dispatch. */
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    if (l == 0u)
        atomicStore(result[base + 32u], 0u, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}
