#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
/* Workgroup 0 publishes 64 words and raises a relaxed flag after a release
 * fence; workgroup 1 waits for the flag and reads the words after an
 * acquire fence.  Correct under the Vulkan memory model: the words are
 * devicecoherent (each store makes itself available at Device scope), the
 * fences are at Device scope, so the release fence synchronizes with the
 * acquire fence through the flag (000 "Synchronizes-With"), and the control
 * barriers carry the order to the other invocations. */
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
            memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
            atomicStore(flag, 1u, gl_ScopeDevice, 0, 0);
        }
    } else {
        if (l == 0u) {
            while (atomicLoad(flag, gl_ScopeDevice, 0, 0) == 0u) {
            }
            memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
        }
        controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
        result[l] = data[l];
    }
}
