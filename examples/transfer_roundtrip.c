/* Moves data through buffers with transfer commands and prints what came
 * back: host -> upload buffer -> device-local buffer (plus a fill and an
 * update) -> readback buffer -> host, with the barriers and the host
 * dependency a correct program needs.  Runs on whatever driver the loader
 * picks; the README runs it on vkmm with VK_ICD_FILENAMES. */
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

#define COUNT 16

struct buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *mapped;
};

static uint32_t find_type(VkPhysicalDevice pd, VkMemoryPropertyFlags want)
{
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(pd, &props);
    for (uint32_t i = 0; i < props.memoryTypeCount; i++) {
        if ((props.memoryTypes[i].propertyFlags & want) == want)
            return i;
    }
    fprintf(stderr, "no memory type with flags 0x%x\n", want);
    exit(1);
}

static struct buffer make_buffer(VkPhysicalDevice pd, VkDevice device, VkMemoryPropertyFlags want)
{
    struct buffer b = { 0 };
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = COUNT * sizeof(uint32_t),
        .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
    };
    CHECK(vkCreateBuffer(device, &info, NULL, &b.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, b.buffer, &req);
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = find_type(pd, want),
    };
    CHECK(vkAllocateMemory(device, &alloc, NULL, &b.memory));
    CHECK(vkBindBufferMemory(device, b.buffer, b.memory, 0));
    if (want & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)
        CHECK(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
    return b;
}

static void barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access)
{
    VkMemoryBarrier2 b = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
        .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
        .dstStageMask = dst_stage,
        .dstAccessMask = dst_access,
    };
    VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &b };
    vkCmdPipelineBarrier2(cmd, &dep);
}

int main(void)
{
    VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3 };
    VkInstanceCreateInfo instance_info = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app };
    VkInstance instance;
    CHECK(vkCreateInstance(&instance_info, NULL, &instance));
    uint32_t count = 1;
    VkPhysicalDevice pd;
    VkResult r = vkEnumeratePhysicalDevices(instance, &count, &pd);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) {
        fprintf(stderr, "no Vulkan device\n");
        return 1;
    }
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pd, &props);
    printf("device: %s\n", props.deviceName);

    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = 0, .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkPhysicalDeviceVulkan13Features features13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, .synchronization2 = VK_TRUE,
    };
    VkDeviceCreateInfo device_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &features13, .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue_info,
    };
    VkDevice device;
    CHECK(vkCreateDevice(pd, &device_info, NULL, &device));
    VkQueue queue;
    vkGetDeviceQueue(device, 0, 0, &queue);

    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct buffer upload = make_buffer(pd, device, host);
    struct buffer middle = make_buffer(pd, device, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct buffer readback = make_buffer(pd, device, host);
    uint32_t *in = upload.mapped;
    for (uint32_t i = 0; i < COUNT; i++)
        in[i] = i * i;

    VkCommandPoolCreateInfo pool_info = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = 0 };
    VkCommandPool pool;
    CHECK(vkCreateCommandPool(device, &pool_info, NULL, &pool));
    VkCommandBufferAllocateInfo cmd_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1,
    };
    VkCommandBuffer cmd;
    CHECK(vkAllocateCommandBuffers(device, &cmd_info, &cmd));
    VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
    CHECK(vkBeginCommandBuffer(cmd, &begin));
    VkBufferCopy all = { .size = COUNT * sizeof(uint32_t) };
    vkCmdCopyBuffer(cmd, upload.buffer, middle.buffer, 1, &all);
    barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdFillBuffer(cmd, middle.buffer, 0, 4 * sizeof(uint32_t), 7);
    barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    const uint32_t marker[2] = { 1000, 2000 };
    vkCmdUpdateBuffer(cmd, middle.buffer, 8 * sizeof(uint32_t), sizeof(marker), marker);
    barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    vkCmdCopyBuffer(cmd, middle.buffer, readback.buffer, 1, &all);
    /* The host reads the result: a HOST_READ dependency makes it visible. */
    barrier(cmd, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    CHECK(vkEndCommandBuffer(cmd));

    VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence;
    CHECK(vkCreateFence(device, &fence_info, NULL, &fence));
    VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd };
    CHECK(vkQueueSubmit(queue, 1, &submit, fence));
    CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));

    const uint32_t *out = readback.mapped;
    int wrong = 0;
    printf("result:");
    for (uint32_t i = 0; i < COUNT; i++) {
        uint32_t expected = i < 4 ? 7 : i == 8 ? 1000 : i == 9 ? 2000 : i * i;
        printf(" %u", out[i]);
        wrong += out[i] != expected;
    }
    printf("\n%s\n", wrong ? "WRONG" : "correct");

    vkDestroyFence(device, fence, NULL);
    vkDestroyCommandPool(device, pool, NULL);
    struct buffer *buffers[] = { &upload, &middle, &readback };
    for (int i = 0; i < 3; i++) {
        vkDestroyBuffer(device, buffers[i]->buffer, NULL);
        vkFreeMemory(device, buffers[i]->memory, NULL);
    }
    vkDestroyDevice(device, NULL);
    vkDestroyInstance(instance, NULL);
    return wrong ? 1 : 0;
}
