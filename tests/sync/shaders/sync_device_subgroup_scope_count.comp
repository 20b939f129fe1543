#version 450
#extension GL_KHR_memory_scope_semantics : require
/* Bug: a workgroup's invocations count into one buffer word with atomicAdd
 * at Subgroup scope; invocations of other subgroups are outside that scope,
 * so their additions race (000 "Data Race") and some are lost.  The fix:
 * gl_ScopeWorkgroup or gl_ScopeDevice. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) buffer Out { uint result[]; };
void main() {
    uint base = gl_WorkGroupID.x * 64u;
    atomicAdd(result[base], data[gl_GlobalInvocationID.x], gl_ScopeSubgroup, gl_StorageSemanticsBuffer,
              gl_SemanticsRelaxed);
}
