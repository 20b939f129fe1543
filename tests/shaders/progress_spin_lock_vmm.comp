#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
/* The spin lock under the Vulkan memory model: the counter and the order
 * are nonprivate, the lock's acquire makes them visible and its release
 * makes them available (strict mode keeps them in the subgroup's cache
 * otherwise); the release store of the lock waits in a store buffer. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer State { uint lock; nonprivate uint counter; nonprivate uint order[]; };
void main() {
    while (atomicCompSwap(lock, 0u, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                          gl_SemanticsAcquire | gl_SemanticsMakeVisible, gl_StorageSemanticsNone,
                          gl_SemanticsRelaxed) != 0u) {
    }
    uint ticket = counter;
    order[ticket] = gl_GlobalInvocationID.x;
    counter = ticket + 1u;
    atomicStore(lock, 0u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
}
