#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
/* sync_handoff_vmm_release.comp with one mistake: the consumers' acquire
 * (the flag's load and their control barrier) has no MakeVisible, and the
 * words are only `nonprivate` (no MakePointerVisible on the read).  The
 * write happens before the read, but nothing makes it visible to the
 * reading invocations: by the Vulkan memory model the two race, and the
 * read may return the words as they were before the dispatch. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { nonprivate uint data[]; };
layout(set = 0, binding = 1) buffer Flag { uint flag; };
layout(set = 0, binding = 2) writeonly buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    if (gl_WorkGroupID.x == 0u) {
        data[l] = l * 7u + 3u;
        controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                       gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
        if (l == 0u)
            atomicStore(flag, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    } else {
        if (l == 0u) {
            while (atomicLoad(flag, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire) == 0u) {
            }
        }
        controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                       gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable);
        result[l] = data[l];
    }
}
