#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
/* Bug: in each workgroup the first subgroup fills a shared tile and raises
 * `flag` with a release store; every other subgroup waits for `flag` with
 * relaxed loads, then makes an acquire load of `ready` -- another variable,
 * released before the barrier -- and reads the tile.  An acquire
 * synchronizes only with the release whose value it reads (000
 * "Synchronizes-With"): nothing orders the tile's writes before the reads.
 * The fix: acquire `flag` itself (or an acquire fence after the loop). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
shared uint tile[64];
shared uint flag;
shared uint ready;
void main() {
    uint l = gl_LocalInvocationIndex, base = gl_WorkGroupID.x * 64u;
    if (l == 0u) {
        atomicStore(flag, 0u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
        atomicStore(ready, 1u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelease);
    }
    barrier();
    uint scale = 1u;
    if (gl_SubgroupID == 0u) {
        for (uint k = gl_SubgroupInvocationID; k < 64u; k += gl_SubgroupSize)
            tile[k] = data[base + k];
        subgroupBarrier();
        if (subgroupElect())
            atomicStore(flag, 1u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelease);
    } else {
        while (atomicLoad(flag, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed) == 0u) {
        }
        scale = atomicLoad(ready, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquire);
    }
    result[base + l] = tile[(l + 1u) % 64u] * scale;
}
