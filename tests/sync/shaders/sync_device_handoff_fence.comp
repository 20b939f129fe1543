#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
/* Correct: in each workgroup the first subgroup adds to a tile of a buffer
 * (words 0-31 of its part), then a release fence and a relaxed store raise
 * a flag (word 32); invocations 34-63, in other subgroups, wait for the
 * flag with relaxed loads, then an acquire fence: the fences synchronize
 * through the flag (000 "Synchronizes-With"), and each copies tile word
 * l - 32 into word l.  Word 33 is set to 1 before the barrier, as in
 * sync_device_handoff_other_flag. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) workgroupcoherent buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationIndex, base = gl_WorkGroupID.x * 64u;
    if (l == 0u)
        atomicStore(result[base + 33u], 1u, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer,
                    gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    if (gl_SubgroupID == 0u) {
        for (uint k = gl_SubgroupInvocationID; k < 32u; k += gl_SubgroupSize)
            result[base + k] = result[base + k] + data[base + k] + 1u;
        subgroupBarrier();
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
        if (subgroupElect())
            atomicStore(result[base + 32u], 1u, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    } else if (l > 33u) {
        while (atomicLoad(result[base + 32u], gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed) ==
               0u) {
        }
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquire | gl_SemanticsMakeVisible);
        result[base + l] = result[base + l - 32u];
    }
    /* Every wait is over: the flag goes down for the next dispatch. */
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    if (l == 0u)
        atomicStore(result[base + 32u], 0u, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}
