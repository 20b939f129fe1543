#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
/* Bug (Vulkan memory model): a control barrier with no memory semantics
 * waits for every invocation but makes no write visible. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
shared uint tile[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    tile[l] = data[gl_GlobalInvocationID.x];
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, 0, 0);
    result[gl_GlobalInvocationID.x] = tile[(l + 1u) % 64u];
}
