#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
/* The release/acquire hand-off with one mistake: the producers make the
 * words available at Workgroup scope only, so they reach their own
 * workgroup's domain and not the consumer's workgroup (the flag's release
 * and acquire are at Device scope, but availability is the writer's
 * operation at the scope it names). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { nonprivate uint data[]; };
layout(set = 0, binding = 1) buffer Flag { uint flag; };
layout(set = 0, binding = 2) writeonly buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    if (gl_WorkGroupID.x == 0u) {
        data[l] = l * 7u + 3u;
        controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer,
                       gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
        if (l == 0u)
            atomicStore(flag, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    } else {
        if (l == 0u) {
            while (atomicLoad(flag, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire) == 0u) {
            }
        }
        controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                       gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
        result[l] = data[l];
    }
}
