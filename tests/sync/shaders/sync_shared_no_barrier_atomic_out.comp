#version 450
#extension GL_KHR_memory_scope_semantics : require
/* Bug: the neighbour's word is read with no barrier() after the writes, in
 * a module whose result goes out through an atomic on a buffer (the
 * atomic orders nothing in shared memory). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
shared uint tile[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    tile[l] = data[gl_GlobalInvocationID.x];
    atomicStore(result[gl_GlobalInvocationID.x], tile[(l + 1u) % 64u], gl_ScopeDevice, gl_StorageSemanticsBuffer,
                gl_SemanticsRelaxed);
}
