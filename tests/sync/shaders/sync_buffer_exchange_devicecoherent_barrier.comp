#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
/* The devicecoherent exchange with one mistake: barrier() under the Vulkan
 * memory model synchronizes Workgroup memory only (its semantics name no
 * buffer), so nothing orders the stores before the other invocations'
 * loads: each store was made available at Device scope, but no release
 * naming the buffer carries it to them (Khronos `test0`). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) devicecoherent buffer Data { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    data[l] = l * 3u + 1u;
    barrier();
    result[l] = data[(l + 32u) % 64u];
}
