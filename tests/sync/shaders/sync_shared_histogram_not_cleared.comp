#version 450
#extension GL_KHR_memory_scope_semantics : require
/* Bug: a workgroup histogram in shared memory whose bins are never
 * cleared: Workgroup variables start undefined in every workgroup, so the
 * counts start from garbage (on a GPU, whatever the last workgroup on that
 * unit left).  The fix: clear the bins, then barrier(), before counting. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) buffer Out { uint result[]; };
shared uint bins[16];
void main() {
    uint l = gl_LocalInvocationID.x;
    atomicAdd(bins[data[gl_GlobalInvocationID.x] % 16u], 1u);
    barrier();
    atomicStore(result[gl_GlobalInvocationID.x], l < 16u ? bins[l] : 0u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                gl_SemanticsRelaxed);
}
