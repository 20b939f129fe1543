#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
/* Bug: the shared test-and-test-and-set lock of sync_shared_lock.comp
 * given back with a relaxed store.  The next holder's acquire reads a value
 * no release wrote, so nothing orders the last holder's update of the total
 * before its own (000 "Synchronizes-With"): the two race, and one sum is
 * lost on a GPU that keeps the first write in a cache. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
shared uint lock;
shared uint total;
void main() {
    uint l = gl_LocalInvocationIndex, base = gl_WorkGroupID.x * 64u;
    if (l == 0u) {
        lock = 0u;
        total = 0u;
    }
    barrier();
    uint sum = subgroupAdd(data[base + l]);
    if (subgroupElect()) {
        for (;;) {
            if (atomicLoad(lock, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed) == 0u &&
                atomicCompSwap(lock, 0u, 1u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquire,
                               gl_StorageSemanticsShared, gl_SemanticsRelaxed) == 0u)
                break;
        }
        total = total + sum;
        atomicStore(lock, 0u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
    }
    barrier();
    result[base + l] = total;
}
