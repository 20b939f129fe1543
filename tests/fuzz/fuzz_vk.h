/* What the ICD-level fuzz targets share: vkmm linked in and reached
 * through its loader interface (vk_icdGetInstanceProcAddr), as the loader
 * would, without the loader itself — no dlopen/dlclose under ASan, the
 * driver's coverage counters are the binary's, and the binaries need no
 * Vulkan loader or manifest at run time.  Every Vulkan command is a
 * function pointer of the same name, loaded by fuzz_vk_init. */
#pragma once

#define VK_NO_PROTOTYPES
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#define FUZZ_VK_COMMANDS(X)                                                                                       \
    X(vkCreateInstance) X(vkDestroyInstance) X(vkEnumeratePhysicalDevices) X(vkGetPhysicalDeviceProperties)      \
    X(vkGetPhysicalDeviceMemoryProperties) X(vkGetPhysicalDeviceQueueFamilyProperties)                          \
    X(vkGetPhysicalDeviceFeatures2) X(vkCreateDevice) X(vkDestroyDevice) X(vkGetDeviceQueue)                     \
    X(vkDeviceWaitIdle) X(vkQueueWaitIdle) X(vkQueueSubmit) X(vkQueueSubmit2)                                    \
    X(vkCreateBuffer) X(vkDestroyBuffer) X(vkGetBufferMemoryRequirements) X(vkBindBufferMemory)                  \
    X(vkAllocateMemory) X(vkFreeMemory) X(vkMapMemory) X(vkUnmapMemory) X(vkFlushMappedMemoryRanges)             \
    X(vkInvalidateMappedMemoryRanges) X(vkCreateShaderModule) X(vkDestroyShaderModule)                           \
    X(vkCreateDescriptorSetLayout) X(vkDestroyDescriptorSetLayout) X(vkCreatePipelineLayout)                     \
    X(vkDestroyPipelineLayout) X(vkCreateDescriptorPool) X(vkDestroyDescriptorPool)                              \
    X(vkAllocateDescriptorSets) X(vkUpdateDescriptorSets) X(vkCreateComputePipelines) X(vkDestroyPipeline)       \
    X(vkCreatePipelineCache) X(vkDestroyPipelineCache) X(vkGetPipelineCacheData) X(vkMergePipelineCaches)        \
    X(vkCreateCommandPool) X(vkDestroyCommandPool) X(vkResetCommandPool) X(vkAllocateCommandBuffers)             \
    X(vkFreeCommandBuffers) X(vkBeginCommandBuffer) X(vkEndCommandBuffer) X(vkResetCommandBuffer)                \
    X(vkCmdBindPipeline) X(vkCmdBindDescriptorSets) X(vkCmdPushConstants) X(vkCmdDispatch)                       \
    X(vkCmdFillBuffer) X(vkCmdCopyBuffer) X(vkCmdUpdateBuffer) X(vkCmdPipelineBarrier)                           \
    X(vkCmdPipelineBarrier2) X(vkCmdSetEvent) X(vkCmdResetEvent) X(vkCmdWaitEvents)                              \
    X(vkCreateFence) X(vkDestroyFence) X(vkWaitForFences) X(vkResetFences) X(vkGetFenceStatus)                   \
    X(vkCreateSemaphore) X(vkDestroySemaphore) X(vkWaitSemaphores) X(vkSignalSemaphore)                          \
    X(vkGetSemaphoreCounterValue) X(vkCreateEvent) X(vkDestroyEvent) X(vkSetEvent) X(vkResetEvent)               \
    X(vkGetEventStatus)

#define FUZZ_VK_DECLARE(name) extern PFN_##name name;
FUZZ_VK_COMMANDS(FUZZ_VK_DECLARE)
#undef FUZZ_VK_DECLARE

/* Aborts (a finding) with the call, its result and the reason when a
 * command returns what it must not. */
#define FUZZ_CHECK(call)                                                                                          \
    do {                                                                                                          \
        VkResult fuzz_result_ = (call);                                                                           \
        if (fuzz_result_ != VK_SUCCESS)                                                                           \
            fuzz_fail(__FILE__, __LINE__, #call, fuzz_result_);                                                   \
    } while (0)
#define FUZZ_ASSERT(condition, ...)                                                                               \
    do {                                                                                                          \
        if (!(condition))                                                                                         \
            fuzz_failf(__FILE__, __LINE__, __VA_ARGS__);                                                          \
    } while (0)
_Noreturn void fuzz_fail(const char *file, int line, const char *call, VkResult result);
_Noreturn __attribute__((format(printf, 3, 4))) void fuzz_failf(const char *file, int line, const char *format, ...);

struct fuzz_vk {
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkPhysicalDeviceProperties properties;
    VkPhysicalDeviceMemoryProperties memory;
    VkDevice device;
    const VkAllocationCallbacks *allocator; /* for the device and everything on it; NULL: vkmm's */
    uint32_t family_count;                  /* 1 or 2: family 0 computes, family 1 (if any) transfers */
    uint32_t queue_count[2];
    VkQueue queues[2][4];
    uint32_t host_coherent_type; /* a HOST_VISIBLE | HOST_COHERENT memory type */
    VkCommandPool pool;          /* family 0: fuzz_dispatch's */
    VkCommandBuffer cmd;
    VkFence fence;
};

/* Sets vkmm's knobs for fuzzing (unless the environment has them: W = 8,
 * a short dispatch watchdog), creates the instance and a device with every
 * supported feature.  Aborts on failure. */
void fuzz_vk_init(struct fuzz_vk *vk, const VkAllocationCallbacks *allocator);
void fuzz_vk_create_device(struct fuzz_vk *vk);
void fuzz_vk_destroy_device(struct fuzz_vk *vk);

/* A host-visible, coherent buffer with its own memory, mapped. */
struct fuzz_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    void *mapped;
};
void fuzz_buffer_create(struct fuzz_vk *vk, VkDeviceSize size, VkBufferUsageFlags usage, struct fuzz_buffer *b);
void fuzz_buffer_destroy(struct fuzz_vk *vk, struct fuzz_buffer *b);

/* A compute kernel's objects short of the pipeline: one descriptor set
 * (set 0) of `binding_count` storage buffers bound 0.., and a push-constant
 * range of `push_size` bytes. */
struct fuzz_kernel {
    VkShaderModule module;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
};
void fuzz_kernel_create(struct fuzz_vk *vk, const uint32_t *words, size_t size, uint32_t binding_count,
                        uint32_t push_size, struct fuzz_kernel *k);
void fuzz_kernel_bind(struct fuzz_vk *vk, struct fuzz_kernel *k, const struct fuzz_buffer *buffers, uint32_t count);
void fuzz_kernel_destroy(struct fuzz_vk *vk, struct fuzz_kernel *k);
/* A pipeline for the kernel through `cache` (may be VK_NULL_HANDLE); *hit
 * says whether the cache supplied it (creation feedback). */
VkResult fuzz_pipeline_create(struct fuzz_vk *vk, const struct fuzz_kernel *k, VkPipelineCache cache,
                              VkPipeline *pipeline, bool *hit);
/* Records binds (sets 0..set_count-1), push constants and one dispatch,
 * submits on queue 0 and waits: VK_SUCCESS, or VK_ERROR_DEVICE_LOST when the watchdog ended it. */
VkResult fuzz_dispatch(struct fuzz_vk *vk, VkPipelineLayout layout, const VkDescriptorSet *sets, uint32_t set_count,
                       VkPipeline pipeline, const void *push, uint32_t push_size, uint32_t x, uint32_t y, uint32_t z);

/* The fixed shaders, compiled from GLSL at build time. */
extern const uint32_t fuzz_shader_add_arrays[];   /* c[i] = a[i] * p.scale + b[i] for i < p.n; 64 wide */
extern const size_t fuzz_shader_add_arrays_size;  /* bytes */
extern const uint32_t fuzz_shader_dispatch_ids[]; /* ids[flat index] = uvec4(ids); 4x3x2 */
extern const size_t fuzz_shader_dispatch_ids_size;
