#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
/* Workgroup 0 publishes 64 words with atomic stores and raises a flag with
 * a Device-scope release; workgroup 1 waits for the flag with a Device-scope
 * acquire and reads the words with atomic loads.  The mistake: the words'
 * atomics have Workgroup scope, which does not hold the other workgroup, so
 * they are not ordered with each other, and nothing makes the words
 * available and visible at Device scope (no MakeAvailable / MakeVisible):
 * the loads race with the stores (Khronos mpnotinscope2). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) buffer Flag { uint flag; };
layout(set = 0, binding = 2) writeonly buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    if (gl_WorkGroupID.x == 0u) {
        atomicStore(data[l], l * 7u + 3u, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
        controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
        if (l == 0u)
            atomicStore(flag, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    } else {
        if (l == 0u) {
            while (atomicLoad(flag, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire) == 0u) {
            }
        }
        controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
        result[l] = atomicLoad(data[l], gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    }
}
