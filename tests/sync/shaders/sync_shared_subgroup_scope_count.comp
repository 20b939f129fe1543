#version 450
#extension GL_KHR_memory_scope_semantics : require
/* Bug: every invocation counts into one shared word with atomicAdd at
 * Subgroup scope.  Atomics are mutually ordered only when their scope holds
 * both invocations (000 "Data Race": a pair of atomics races when neither
 * scope includes the other invocation): the subgroups' additions race and
 * some are lost.  The fix: gl_ScopeWorkgroup (or plain atomicAdd). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
shared uint total;
void main() {
    if (gl_LocalInvocationID.x == 0u)
        total = 0u;
    barrier();
    atomicAdd(total, data[gl_GlobalInvocationID.x], gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
    barrier();
    result[gl_GlobalInvocationID.x] = total;
}
