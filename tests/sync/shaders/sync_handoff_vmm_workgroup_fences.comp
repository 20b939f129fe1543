#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
/* The fence hand-off with one mistake: the release and acquire fences
 * are at Workgroup scope, so they synchronize nothing between the two
 * workgroups (000 "Synchronizes-With": both fences' scopes must include
 * both invocations; Khronos `fencefencebroken`).  The words were made
 * available at Device scope as they were written, but no happens-before
 * chain reaches the reads: they race with the writes. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) devicecoherent buffer Data { uint data[]; };
layout(set = 0, binding = 1) buffer Flag { uint flag; };
layout(set = 0, binding = 2) writeonly buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    if (gl_WorkGroupID.x == 0u) {
        data[l] = l * 7u + 3u;
        controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
        if (l == 0u) {
            memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
            atomicStore(flag, 1u, gl_ScopeDevice, 0, 0);
        }
    } else {
        if (l == 0u) {
            while (atomicLoad(flag, gl_ScopeDevice, 0, 0) == 0u) {
            }
            memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
        }
        controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
        result[l] = data[l];
    }
}
