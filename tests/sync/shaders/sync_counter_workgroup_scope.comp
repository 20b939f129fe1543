#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
/* Every invocation of every workgroup counts itself with an atomic add at
 * Workgroup scope.  The mistake: the counter is shared by several
 * workgroups, and atomics whose scope does not hold both invocations are
 * not ordered with each other (updates may be lost). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Count { uint count[]; };
void main() {
    atomicAdd(count[0], 1u, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}
