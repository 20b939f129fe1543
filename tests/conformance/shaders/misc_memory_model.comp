#version 450
// Vulkan memory model (GL_KHR_memory_scope_semantics): message passing
// inside a workgroup with atomicStore(release) / atomicLoad(acquire) on a
// flag in shared memory and plain data, plus buffer atomics with explicit
// scopes.
#extension GL_KHR_memory_scope_semantics : require
#pragma use_vulkan_memory_model
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer B { uint counter; uint data[]; };
shared uint payload[64];
shared uint flag[64];
void main()
{
    uint l = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
    flag[l] = 0u;
    barrier();
    payload[l] = g * 100u + l;
    atomicStore(flag[l], 1u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelease);
    barrier();
    uint src = (l + 7u) % 64u;
    uint seen = atomicLoad(flag[src], gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquire);
    uint v = seen == 1u ? payload[src] : 0xffffffffu;
    data[g * 64u + l] = v;
    atomicAdd(counter, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}
