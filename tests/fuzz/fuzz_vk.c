#include "fuzz_vk.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vk_icd.h>

/* vkmm's loader interface, linked in (icd/icd.c). */
VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *pSupportedVersion);
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance, const char *pName);

#define FUZZ_VK_DEFINE(name) PFN_##name name;
FUZZ_VK_COMMANDS(FUZZ_VK_DEFINE)
#undef FUZZ_VK_DEFINE

const uint32_t fuzz_shader_add_arrays[] =
#include "add_arrays.inc"
    ;
const size_t fuzz_shader_add_arrays_size = sizeof(fuzz_shader_add_arrays);
const uint32_t fuzz_shader_dispatch_ids[] =
#include "dispatch_ids.inc"
    ;
const size_t fuzz_shader_dispatch_ids_size = sizeof(fuzz_shader_dispatch_ids);

void fuzz_fail(const char *file, int line, const char *call, VkResult result)
{
    fprintf(stderr, "%s:%d: %s returned %d\n", file, line, call, (int)result);
    abort();
}

void fuzz_failf(const char *file, int line, const char *format, ...)
{
    fprintf(stderr, "%s:%d: ", file, line);
    va_list args;
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
    abort();
}

static void load_commands(VkInstance instance)
{
#define FUZZ_VK_LOAD(name)                                                                                        \
    name = (PFN_##name)vk_icdGetInstanceProcAddr(instance, #name);                                                \
    FUZZ_ASSERT(name || !instance, "vkmm has no %s", #name);
    FUZZ_VK_COMMANDS(FUZZ_VK_LOAD)
#undef FUZZ_VK_LOAD
}

/* Fuzzing defaults, each unless the environment already chose: W = 8
 * (fuzz_exec's code generation), and a watchdog short enough that a mutated
 * endless loop costs a fraction of a second (then VK_ERROR_DEVICE_LOST). */
static void set_knobs(void)
{
    setenv("VKMM_SUBGROUP_SIZE", "8", 0);
    setenv("VKMM_DISPATCH_TIMEOUT_MS", "250", 0);
    setenv("VKMM_THREADS", "2", 0);
}

void fuzz_vk_init(struct fuzz_vk *vk, const VkAllocationCallbacks *allocator)
{
    memset(vk, 0, sizeof(*vk));
    vk->allocator = allocator;
    set_knobs();
    uint32_t version = 7;
    FUZZ_CHECK(vk_icdNegotiateLoaderICDInterfaceVersion(&version));
    load_commands(VK_NULL_HANDLE);
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "vkmm fuzz", .apiVersion = VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo info = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app };
    FUZZ_CHECK(vkCreateInstance(&info, NULL, &vk->instance));
    load_commands(vk->instance);
    uint32_t count = 1;
    VkResult result = vkEnumeratePhysicalDevices(vk->instance, &count, &vk->physical_device);
    FUZZ_ASSERT((result == VK_SUCCESS || result == VK_INCOMPLETE) && count == 1, "no physical device");
    vkGetPhysicalDeviceProperties(vk->physical_device, &vk->properties);
    vkGetPhysicalDeviceMemoryProperties(vk->physical_device, &vk->memory);
    VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    vk->host_coherent_type = UINT32_MAX;
    for (uint32_t i = 0; i < vk->memory.memoryTypeCount && vk->host_coherent_type == UINT32_MAX; i++) {
        if ((vk->memory.memoryTypes[i].propertyFlags & wanted) == wanted)
            vk->host_coherent_type = i;
    }
    FUZZ_ASSERT(vk->host_coherent_type != UINT32_MAX, "no host-coherent memory type");
    fuzz_vk_create_device(vk);
}

void fuzz_vk_create_device(struct fuzz_vk *vk)
{
    VkQueueFamilyProperties families[4];
    uint32_t family_count = 4;
    vkGetPhysicalDeviceQueueFamilyProperties(vk->physical_device, &family_count, families);
    vk->family_count = family_count < 2 ? family_count : 2;
    static const float priorities[4] = { 1, 1, 1, 1 };
    VkDeviceQueueCreateInfo queues[2];
    for (uint32_t f = 0; f < vk->family_count; f++) {
        vk->queue_count[f] = families[f].queueCount < 4 ? families[f].queueCount : 4;
        queues[f] = (VkDeviceQueueCreateInfo){
            .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
            .queueFamilyIndex = f,
            .queueCount = vk->queue_count[f],
            .pQueuePriorities = priorities,
        };
    }
    /* Every supported feature: a fuzzed module may use any capability. */
    VkPhysicalDeviceVulkan13Features features13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES };
    VkPhysicalDeviceVulkan12Features features12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &features13,
    };
    VkPhysicalDeviceVulkan11Features features11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &features12,
    };
    VkPhysicalDeviceFeatures2 features = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &features11 };
    vkGetPhysicalDeviceFeatures2(vk->physical_device, &features);
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &features,
        .queueCreateInfoCount = vk->family_count,
        .pQueueCreateInfos = queues,
    };
    FUZZ_CHECK(vkCreateDevice(vk->physical_device, &info, vk->allocator, &vk->device));
    for (uint32_t f = 0; f < vk->family_count; f++) {
        for (uint32_t i = 0; i < vk->queue_count[f]; i++)
            vkGetDeviceQueue(vk->device, f, i, &vk->queues[f][i]);
    }
    VkCommandPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
    };
    FUZZ_CHECK(vkCreateCommandPool(vk->device, &pool, vk->allocator, &vk->pool));
    VkCommandBufferAllocateInfo cmd = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = vk->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    FUZZ_CHECK(vkAllocateCommandBuffers(vk->device, &cmd, &vk->cmd));
    VkFenceCreateInfo fence = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    FUZZ_CHECK(vkCreateFence(vk->device, &fence, vk->allocator, &vk->fence));
}

void fuzz_vk_destroy_device(struct fuzz_vk *vk)
{
    vkDestroyFence(vk->device, vk->fence, vk->allocator);
    vkDestroyCommandPool(vk->device, vk->pool, vk->allocator);
    vkDestroyDevice(vk->device, vk->allocator);
    vk->device = VK_NULL_HANDLE;
}

void fuzz_buffer_create(struct fuzz_vk *vk, VkDeviceSize size, VkBufferUsageFlags usage, struct fuzz_buffer *b)
{
    memset(b, 0, sizeof(*b));
    b->size = size;
    VkBufferCreateInfo info = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage };
    FUZZ_CHECK(vkCreateBuffer(vk->device, &info, vk->allocator, &b->buffer));
    VkMemoryRequirements needs;
    vkGetBufferMemoryRequirements(vk->device, b->buffer, &needs);
    FUZZ_ASSERT(needs.memoryTypeBits & (1u << vk->host_coherent_type), "buffer cannot live in host memory");
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = needs.size,
        .memoryTypeIndex = vk->host_coherent_type,
    };
    FUZZ_CHECK(vkAllocateMemory(vk->device, &alloc, vk->allocator, &b->memory));
    FUZZ_CHECK(vkBindBufferMemory(vk->device, b->buffer, b->memory, 0));
    FUZZ_CHECK(vkMapMemory(vk->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped));
}

void fuzz_buffer_destroy(struct fuzz_vk *vk, struct fuzz_buffer *b)
{
    vkDestroyBuffer(vk->device, b->buffer, vk->allocator);
    vkFreeMemory(vk->device, b->memory, vk->allocator);
    memset(b, 0, sizeof(*b));
}

void fuzz_kernel_create(struct fuzz_vk *vk, const uint32_t *words, size_t size, uint32_t binding_count,
                        uint32_t push_size, struct fuzz_kernel *k)
{
    memset(k, 0, sizeof(*k));
    VkShaderModuleCreateInfo module = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
                                        .pCode = words };
    FUZZ_CHECK(vkCreateShaderModule(vk->device, &module, vk->allocator, &k->module));
    VkDescriptorSetLayoutBinding bindings[16];
    FUZZ_ASSERT(binding_count <= 16, "too many bindings");
    for (uint32_t i = 0; i < binding_count; i++)
        bindings[i] = (VkDescriptorSetLayoutBinding){ i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                                      VK_SHADER_STAGE_COMPUTE_BIT, NULL };
    VkDescriptorSetLayoutCreateInfo set = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = binding_count,
        .pBindings = bindings,
    };
    FUZZ_CHECK(vkCreateDescriptorSetLayout(vk->device, &set, vk->allocator, &k->set_layout));
    VkPushConstantRange push = { VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size };
    VkPipelineLayoutCreateInfo layout = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1, .pSetLayouts = &k->set_layout,
        .pushConstantRangeCount = push_size ? 1 : 0, .pPushConstantRanges = &push,
    };
    FUZZ_CHECK(vkCreatePipelineLayout(vk->device, &layout, vk->allocator, &k->layout));
    VkDescriptorPoolSize sizes = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, binding_count ? binding_count : 1 };
    VkDescriptorPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &sizes,
    };
    FUZZ_CHECK(vkCreateDescriptorPool(vk->device, &pool, vk->allocator, &k->pool));
    VkDescriptorSetAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = k->pool, .descriptorSetCount = 1,
        .pSetLayouts = &k->set_layout,
    };
    FUZZ_CHECK(vkAllocateDescriptorSets(vk->device, &alloc, &k->set));
}

void fuzz_kernel_bind(struct fuzz_vk *vk, struct fuzz_kernel *k, const struct fuzz_buffer *buffers, uint32_t count)
{
    VkDescriptorBufferInfo infos[16];
    VkWriteDescriptorSet writes[16];
    for (uint32_t i = 0; i < count && i < 16; i++) {
        infos[i] = (VkDescriptorBufferInfo){ buffers[i].buffer, 0, VK_WHOLE_SIZE };
        writes[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = k->set, .dstBinding = i,
            .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &infos[i],
        };
    }
    vkUpdateDescriptorSets(vk->device, count, writes, 0, NULL);
}

void fuzz_kernel_destroy(struct fuzz_vk *vk, struct fuzz_kernel *k)
{
    vkDestroyDescriptorPool(vk->device, k->pool, vk->allocator);
    vkDestroyPipelineLayout(vk->device, k->layout, vk->allocator);
    vkDestroyDescriptorSetLayout(vk->device, k->set_layout, vk->allocator);
    vkDestroyShaderModule(vk->device, k->module, vk->allocator);
    memset(k, 0, sizeof(*k));
}

VkResult fuzz_pipeline_create(struct fuzz_vk *vk, const struct fuzz_kernel *k, VkPipelineCache cache,
                              VkPipeline *pipeline, bool *hit)
{
    VkPipelineCreationFeedback feedback = { 0 };
    VkPipelineCreationFeedbackCreateInfo feedback_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO, .pPipelineCreationFeedback = &feedback,
    };
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .pNext = &feedback_info,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = k->module, .pName = "main" },
        .layout = k->layout,
    };
    *pipeline = VK_NULL_HANDLE;
    VkResult result = vkCreateComputePipelines(vk->device, cache, 1, &info, vk->allocator, pipeline);
    if (hit)
        *hit = result == VK_SUCCESS &&
               (feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT);
    return result;
}

VkResult fuzz_dispatch(struct fuzz_vk *vk, VkPipelineLayout layout, const VkDescriptorSet *sets, uint32_t set_count,
                       VkPipeline pipeline, const void *push, uint32_t push_size, uint32_t x, uint32_t y, uint32_t z)
{
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    FUZZ_CHECK(vkBeginCommandBuffer(vk->cmd, &begin));
    vkCmdBindPipeline(vk->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    if (set_count)
        vkCmdBindDescriptorSets(vk->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, set_count, sets, 0, NULL);
    if (push_size)
        vkCmdPushConstants(vk->cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size, push);
    vkCmdDispatch(vk->cmd, x, y, z);
    /* The host reads the results after the fence. */
    VkMemoryBarrier to_host = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    vkCmdPipelineBarrier(vk->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host,
                         0, NULL, 0, NULL);
    FUZZ_CHECK(vkEndCommandBuffer(vk->cmd));
    VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                            .pCommandBuffers = &vk->cmd };
    VkResult result = vkQueueSubmit(vk->queues[0][0], 1, &submit, vk->fence);
    if (result == VK_SUCCESS)
        result = vkWaitForFences(vk->device, 1, &vk->fence, VK_TRUE, 60ull * 1000000000ull);
    FUZZ_ASSERT(result == VK_SUCCESS || result == VK_ERROR_DEVICE_LOST,
                "a dispatch ended with %d (a hang outlived the watchdog?)", (int)result);
    if (result == VK_SUCCESS) {
        FUZZ_CHECK(vkResetFences(vk->device, 1, &vk->fence));
        FUZZ_CHECK(vkResetCommandBuffer(vk->cmd, 0));
    }
    return result;
}
