#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
/* Invocations of one workgroup exchange words through a buffer with the
 * common idiom `memoryBarrierBuffer(); barrier();`.  Under the Vulkan memory
 * model (glslang: OpMemoryBarrier QueueFamily AcquireRelease|UniformMemory,
 * no MakeAvailable/MakeVisible; OpControlBarrier with WorkgroupMemory only)
 * nothing makes the nonprivate words available or visible, and the acquire
 * comes before the control barrier (Vulkan-Docs issue 2779). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { nonprivate uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    data[l] = l * 3u + 1u;
    memoryBarrierBuffer();
    barrier();
    result[l] = data[(l + 32u) % 64u];
}
