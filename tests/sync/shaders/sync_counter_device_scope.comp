#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
/* Every invocation of every workgroup counts itself with an atomic add at
 * Device scope.  Correct: Device scope holds every invocation. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Count { uint count[]; };
void main() {
    atomicAdd(count[0], 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}
