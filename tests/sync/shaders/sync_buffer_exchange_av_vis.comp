#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
/* The same exchange, correct under the Vulkan memory model: the control
 * barrier's semantics name the buffer's storage class and make the words
 * available before it and visible after it. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { nonprivate uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    data[l] = l * 3u + 1u;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer,
                   gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
    result[l] = data[(l + 32u) % 64u];
}
