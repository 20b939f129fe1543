#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
/* Inside workgroup 0: its first subgroup publishes 64 words of a buffer
 * and raises a flag in shared memory; its last subgroup waits for the flag
 * (acquire naming buffer and shared memory) and copies the words out.  The
 * mistake: the flag's store is relaxed (no release), so nothing orders the
 * words' writes before the consumers' reads, whatever their acquire does. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { devicecoherent uint data[]; };
layout(set = 0, binding = 1) buffer Flag { uint unused; };
layout(set = 0, binding = 2) writeonly buffer Out { uint result[]; };
shared uint flag;
void main() {
    if (gl_WorkGroupID.x != 0u)
        return;
    if (gl_LocalInvocationIndex == 0u)
        atomicStore(flag, 0u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
    barrier();
    if (gl_SubgroupID == 0u) {
        for (uint k = gl_SubgroupInvocationID; k < 64u; k += gl_SubgroupSize)
            data[k] = k * 7u + 3u;
        subgroupBarrier();
        if (subgroupElect())
            atomicStore(flag, 1u, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                        gl_SemanticsRelaxed);
    } else if (gl_SubgroupID == gl_NumSubgroups - 1u) {
        while (atomicLoad(flag, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                          gl_SemanticsAcquire | gl_SemanticsMakeVisible) == 0u) {
        }
        for (uint k = gl_SubgroupInvocationID; k < 64u; k += gl_SubgroupSize)
            result[k] = data[k];
    }
}
