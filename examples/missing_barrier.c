/* A classic synchronization bug: a fill and a copy of its result with no
 * barrier between them.  On many GPUs it "works"; under vkmm's strict mode
 * it gets the wrong answer every time and the report names the missing
 * barrier.  Run with --fixed for the corrected program.
 *
 *   VK_ICD_FILENAMES=build/manifests/vkmm_icd.json build/examples/missing_barrier
 *   VK_ICD_FILENAMES=build/manifests/vkmm_icd.json build/examples/missing_barrier --fixed */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#define CHECK(call)                                                                   \
    do {                                                                              \
        VkResult check_ = (call);                                                     \
        if (check_ != VK_SUCCESS) {                                                   \
            fprintf(stderr, "%s failed: %d (line %d)\n", #call, check_, __LINE__);    \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

#define WORDS 64

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)severity, (void)types, (void)user;
    if (data->pMessageIdName && strncmp(data->pMessageIdName, "VKMM-HAZARD", 11) == 0)
        printf("report: %s: %s\n", data->pMessageIdName, data->pMessage);
    return VK_FALSE;
}

struct buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *mapped;
};

static struct buffer make_buffer(VkPhysicalDevice pd, VkDevice device, VkMemoryPropertyFlags want)
{
    struct buffer b = { 0 };
    VkBufferCreateInfo info = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = WORDS * 4,
                                .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT };
    CHECK(vkCreateBuffer(device, &info, NULL, &b.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, b.buffer, &req);
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(pd, &props);
    uint32_t type = 0;
    while (type < props.memoryTypeCount && (props.memoryTypes[type].propertyFlags & want) != want)
        type++;
    VkMemoryAllocateInfo alloc = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
                                   .memoryTypeIndex = type };
    CHECK(vkAllocateMemory(device, &alloc, NULL, &b.memory));
    CHECK(vkBindBufferMemory(device, b.buffer, b.memory, 0));
    if (want & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)
        CHECK(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
    return b;
}

static void barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src, VkAccessFlags2 src_access,
                    VkPipelineStageFlags2 dst, VkAccessFlags2 dst_access)
{
    VkMemoryBarrier2 b = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, .srcStageMask = src, .srcAccessMask = src_access,
                           .dstStageMask = dst, .dstAccessMask = dst_access };
    VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &b };
    vkCmdPipelineBarrier2(cmd, &dep);
}

int main(int argc, char **argv)
{
    int fixed = argc > 1 && strcmp(argv[1], "--fixed") == 0;
    const char *extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkDebugUtilsMessengerCreateInfoEXT messenger_info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
        .pfnUserCallback = on_message,
    };
    VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3 };
    VkInstanceCreateInfo instance_info = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app,
                                           .enabledExtensionCount = 1, .ppEnabledExtensionNames = &extension };
    VkInstance instance;
    CHECK(vkCreateInstance(&instance_info, NULL, &instance));
    PFN_vkCreateDebugUtilsMessengerEXT create_messenger =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT");
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger =
        (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT");
    VkDebugUtilsMessengerEXT messenger;
    CHECK(create_messenger(instance, &messenger_info, NULL, &messenger));
    uint32_t count = 1;
    VkPhysicalDevice pd;
    VkResult r = vkEnumeratePhysicalDevices(instance, &count, &pd);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0)
        return 1;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueCount = 1,
                                           .pQueuePriorities = &priority };
    VkPhysicalDeviceVulkan13Features features13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                                    .synchronization2 = VK_TRUE };
    VkDeviceCreateInfo device_info = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &features13,
                                       .queueCreateInfoCount = 1, .pQueueCreateInfos = &queue_info };
    VkDevice device;
    CHECK(vkCreateDevice(pd, &device_info, NULL, &device));
    VkQueue queue;
    vkGetDeviceQueue(device, 0, 0, &queue);
    struct buffer source = make_buffer(pd, device, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct buffer readback =
        make_buffer(pd, device, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);

    VkCommandPoolCreateInfo pool_info = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO };
    VkCommandPool pool;
    CHECK(vkCreateCommandPool(device, &pool_info, NULL, &pool));
    VkCommandBufferAllocateInfo cmd_info = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                             .commandPool = pool, .commandBufferCount = 1 };
    VkCommandBuffer cmd;
    CHECK(vkAllocateCommandBuffers(device, &cmd_info, &cmd));
    VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
    CHECK(vkBeginCommandBuffer(cmd, &begin));
    vkCmdFillBuffer(cmd, source.buffer, 0, VK_WHOLE_SIZE, 42);
    if (fixed) /* the barrier the buggy version forgets */
        barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferCopy all = { .size = WORDS * 4 };
    vkCmdCopyBuffer(cmd, source.buffer, readback.buffer, 1, &all);
    barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
            VK_ACCESS_2_HOST_READ_BIT);
    CHECK(vkEndCommandBuffer(cmd));
    VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd };
    CHECK(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
    CHECK(vkQueueWaitIdle(queue));

    const uint32_t *out = readback.mapped;
    int wrong = 0;
    for (int i = 0; i < WORDS; i++)
        wrong += out[i] != 42;
    printf("%s: word 0 = %u, %d of %d words wrong: %s\n", fixed ? "fixed program" : "program missing a barrier",
           out[0], wrong, WORDS, wrong ? "WRONG" : "correct");

    vkDestroyCommandPool(device, pool, NULL);
    struct buffer *buffers[] = { &source, &readback };
    for (int i = 0; i < 2; i++) {
        vkDestroyBuffer(device, buffers[i]->buffer, NULL);
        vkFreeMemory(device, buffers[i]->memory, NULL);
    }
    vkDestroyDevice(device, NULL);
    destroy_messenger(instance, messenger, NULL);
    vkDestroyInstance(instance, NULL);
    return 0;
}
