#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
/* Correct: sync_shared_flag_buffer_tile_other_flag with the fix: after the
 * relaxed spin on the shared `flag`, an acquire fence naming the buffer
 * synchronizes with the release store of `flag` (000 "Synchronizes-With":
 * an atomic read, then an acquire fence). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) workgroupcoherent buffer Out { uint result[]; };
shared uint flag;
shared uint ready;
void main() {
    uint l = gl_LocalInvocationIndex, base = gl_WorkGroupID.x * 64u;
    if (l == 0u) {
        atomicStore(flag, 0u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
        atomicStore(ready, 1u, gl_ScopeWorkgroup, gl_StorageSemanticsShared | gl_StorageSemanticsBuffer,
                    gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    }
    if (l == 33u)
        result[base + 33u] = 1u;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared | gl_StorageSemanticsBuffer,
                   gl_SemanticsAcquireRelease);
    if (gl_SubgroupID == 0u) {
        for (uint k = gl_SubgroupInvocationID; k < 32u; k += gl_SubgroupSize)
            result[base + k] = result[base + k] + data[base + k] + 1u;
        subgroupBarrier();
        if (subgroupElect())
            atomicStore(flag, 1u, gl_ScopeWorkgroup, gl_StorageSemanticsShared | gl_StorageSemanticsBuffer,
                        gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    } else if (l > 33u) {
        while (atomicLoad(flag, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed) == 0u) {
        }
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsShared | gl_StorageSemanticsBuffer,
                      gl_SemanticsAcquire | gl_SemanticsMakeVisible);
        uint scale = atomicLoad(ready, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
        result[base + l] = result[base + l - 32u] * scale;
    }
    if (l == 32u)
        result[base + 32u] = 0u;
}
