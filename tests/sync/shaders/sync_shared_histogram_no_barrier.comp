#version 450
#extension GL_KHR_memory_scope_semantics : require
/* Bug: the bins are read with no barrier() after the other invocations'
 * atomicAdd (relaxed atomics order nothing; the plain read races with
 * them). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) buffer Out { uint result[]; };
shared uint bins[16];
void main() {
    uint l = gl_LocalInvocationID.x;
    if (l < 16u)
        bins[l] = 0u;
    barrier();
    atomicAdd(bins[data[gl_GlobalInvocationID.x] % 16u], 1u);
    atomicStore(result[gl_GlobalInvocationID.x], l < 16u ? bins[l] : 0u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                gl_SemanticsRelaxed);
}
