#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
/* The same exchange through a devicecoherent buffer (each store makes
 * itself available at Device scope, each load makes itself visible),
 * correct: the control barrier's semantics name the buffer's storage class,
 * so its release and acquire order the stores before the loads. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) devicecoherent buffer Data { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    data[l] = l * 3u + 1u;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    result[l] = data[(l + 32u) % 64u];
}
