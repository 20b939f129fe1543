#version 450
#extension GL_KHR_memory_scope_semantics : require
/* Correct: each invocation publishes a word in shared memory and, after
 * barrier(), hands its neighbour's to the output with an atomic store
 * (a module with atomics on a buffer: strict mode still watches its shared
 * memory). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
shared uint tile[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    tile[l] = data[gl_GlobalInvocationID.x];
    barrier();
    atomicStore(result[gl_GlobalInvocationID.x], tile[(l + 1u) % 64u], gl_ScopeDevice, gl_StorageSemanticsBuffer,
                gl_SemanticsRelaxed);
}
