#include "vkmm_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LeakSanitizer hook.  The validation layer's synchronization validation
 * (1.3.239 here) leaks shared_ptr cycles on every vkQueueSubmit
 * (KhronosGroup/Vulkan-ValidationLayers#5382, fixed by #5406).  vkmm, the
 * loader and the tests are C and never allocate with C++ new, so ignoring
 * leaks allocated through operator new hides only the layer's. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:asan_new_delete.cpp\n";
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)types;
    struct vkmm_test *t = user;
    const char *id = data->pMessageIdName ? data->pMessageIdName : "";
    if (strncmp(id, "VKMM-HAZARD-", 12) == 0 && strcmp(id, "VKMM-HAZARD-SUMMARY") != 0) {
        /* VKMM_TEST_PRINT_HAZARDS=1: every hazard on stderr, for debugging a test. */
        const char *print = getenv("VKMM_TEST_PRINT_HAZARDS");
        if (print && *print == '1')
            fprintf(stderr, "hazard %s: %s\n", id, data->pMessage);
        if (t->hazard_count == 0)
            snprintf(t->first_hazard_message, sizeof(t->first_hazard_message), "%s", data->pMessage);
        if (t->hazard_count < 32)
            snprintf(t->hazards[t->hazard_count], sizeof(t->hazards[0]), "%s", id);
        t->hazard_count++;
        return VK_FALSE;
    }
    /* How strict mode ran a large dispatch (dispatch.c, in parts or again in turns). */
    if (strcmp(id, "VKMM-STRICT-PARTS") == 0)
        t->dispatches_in_parts++;
    if (strcmp(id, "VKMM-STRICT-PARTS-AGAIN") == 0)
        t->dispatches_in_parts_again++;
    if (!(severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) &&
        !(severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT))
        return VK_FALSE; /* information */
    if (!(severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)) {
        size_t used = strlen(t->warning_ids);
        if (strncmp(id, "VKMM-", 5) == 0)
            t->driver_warnings++;
        if (strncmp(id, "VKMM-", 5) == 0 && !strstr(t->warning_ids, id) &&
            used + strlen(id) + 2 < sizeof(t->warning_ids))
            snprintf(t->warning_ids + used, sizeof(t->warning_ids) - used, "%s%s", used ? " " : "", id);
        return VK_FALSE;
    }
    bool from_vkmm = strncmp(id, "VKMM-", 5) == 0 || strncmp(id, "VK_", 3) == 0;
    if (from_vkmm)
        t->driver_errors++;
    else
        t->validation_errors++;
    size_t used = strlen(t->message_ids);
    if (!strstr(t->message_ids, id) && used + strlen(id) + 2 < sizeof(t->message_ids))
        snprintf(t->message_ids + used, sizeof(t->message_ids) - used, "%s%s", used ? " " : "", id);
    if (!t->first_message_id[0]) {
        snprintf(t->first_message_id, sizeof(t->first_message_id), "%s", id[0] ? id : "(no id)");
        snprintf(t->first_message, sizeof(t->first_message), "%s", data->pMessage ? data->pMessage : "");
    }
    snprintf(t->last_message, sizeof(t->last_message), "%s", data->pMessage ? data->pMessage : "");
    snprintf(t->last_message_id, sizeof(t->last_message_id), "%s", id);
    if (t->validation_errors + t->driver_errors > t->expected_errors)
        fprintf(stderr, "[%s] %s\n", id, t->last_message);
    return VK_FALSE;
}

static bool layer_available(const char *name)
{
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, NULL);
    VkLayerProperties *layers = calloc(count, sizeof(*layers));
    vkEnumerateInstanceLayerProperties(&count, layers);
    bool found = false;
    for (uint32_t i = 0; i < count; i++)
        found |= strcmp(layers[i].layerName, name) == 0;
    free(layers);
    return found;
}

static void create_instance(struct vkmm_test *t, const struct vkmm_test_options *o)
{
    const char *layer = "VK_LAYER_KHRONOS_validation";
    const char *no_validation = getenv("VKMM_TEST_NO_VALIDATION");
    t->validation = !o->no_validation && !(no_validation && *no_validation == '1') && layer_available(layer);
    const char *extensions[] = { VK_EXT_DEBUG_UTILS_EXTENSION_NAME };
    VkDebugUtilsMessengerCreateInfoEXT messenger = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT | /* VKMM-HAZARD-HOST-READ-NO-DEPENDENCY */
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT, /* VKMM-STRICT-PARTS */
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_message,
        .pUserData = t,
    };
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "vkmm API test",
        .apiVersion = VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = &messenger,
        .pApplicationInfo = &app,
        .enabledLayerCount = t->validation ? 1 : 0,
        .ppEnabledLayerNames = &layer,
        .enabledExtensionCount = 1,
        .ppEnabledExtensionNames = extensions,
    };
    VK_CHECK(vkCreateInstance(&info, o->allocator, &t->instance));
    PFN_vkCreateDebugUtilsMessengerEXT create_messenger =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(t->instance, "vkCreateDebugUtilsMessengerEXT");
    assert_non_null(create_messenger);
    VK_CHECK(create_messenger(t->instance, &messenger, o->allocator, &t->messenger));
}

static void create_device(struct vkmm_test *t, const struct vkmm_test_options *o)
{
    uint32_t count = 1;
    VkResult r = vkEnumeratePhysicalDevices(t->instance, &count, &t->physical_device);
    assert_true(r == VK_SUCCESS || r == VK_INCOMPLETE);
    assert_int_equal(count, 1);
    vkGetPhysicalDeviceProperties(t->physical_device, &t->properties);
    vkGetPhysicalDeviceMemoryProperties(t->physical_device, &t->memory_properties);

    uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(t->physical_device, &family_count, NULL);
    VkQueueFamilyProperties families[4];
    assert_true(family_count >= 1 && family_count <= 4);
    vkGetPhysicalDeviceQueueFamilyProperties(t->physical_device, &family_count, families);
    static const float priorities[VKMM_TEST_MAX_QUEUES] = { 1, 1, 1, 1, 1, 1, 1, 1 };
    VkDeviceQueueCreateInfo queues[2];
    uint32_t queue_info_count = family_count < 2 ? family_count : 2;
    for (uint32_t f = 0; f < queue_info_count; f++) {
        uint32_t n = families[f].queueCount < VKMM_TEST_MAX_QUEUES ? families[f].queueCount : VKMM_TEST_MAX_QUEUES;
        queues[f] = (VkDeviceQueueCreateInfo){
            .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
            .queueFamilyIndex = f,
            .queueCount = n,
            .pQueuePriorities = priorities,
        };
    }
    /* Every feature the device supports is enabled, as real applications
     * commonly do, so shaders may use any capability vkmm advertises. */
    VkPhysicalDeviceVulkan13Features features13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES };
    VkPhysicalDeviceVulkan12Features features12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &features13,
    };
    VkPhysicalDeviceVulkan11Features features11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &features12,
    };
    VkPhysicalDeviceFeatures2 features = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &features11 };
    vkGetPhysicalDeviceFeatures2(t->physical_device, &features);
    features13.pNext = (void *)o->device_features_chain;
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &features,
        .queueCreateInfoCount = queue_info_count,
        .pQueueCreateInfos = queues,
        .enabledExtensionCount = o->device_extension_count,
        .ppEnabledExtensionNames = o->device_extensions,
    };
    VK_CHECK(vkCreateDevice(t->physical_device, &info, o->allocator, &t->device));
    t->compute_queue_count = queues[0].queueCount;
    for (uint32_t i = 0; i < t->compute_queue_count; i++)
        vkGetDeviceQueue(t->device, 0, i, &t->compute_queues[i]);
    if (queue_info_count > 1) {
        t->transfer_queue_count = queues[1].queueCount;
        for (uint32_t i = 0; i < t->transfer_queue_count; i++)
            vkGetDeviceQueue(t->device, 1, i, &t->transfer_queues[i]);
    }
    VkCommandPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = 0,
    };
    VK_CHECK(vkCreateCommandPool(t->device, &pool, o->allocator, &t->pool));
}

static const VkAllocationCallbacks *test_allocator;

struct vkmm_test *vkmm_test_create(const struct vkmm_test_options *options)
{
    static const struct vkmm_test_options defaults = { 0 };
    const struct vkmm_test_options *o = options ? options : &defaults;
    struct vkmm_test *t = calloc(1, sizeof(*t));
    assert_non_null(t);
    test_allocator = o->allocator;
    create_instance(t, o);
    create_device(t, o);
    return t;
}

void vkmm_test_destroy(struct vkmm_test *t)
{
    if (!t)
        return;
    vkDestroyCommandPool(t->device, t->pool, test_allocator);
    vkDestroyDevice(t->device, test_allocator);
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger =
        (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(t->instance, "vkDestroyDebugUtilsMessengerEXT");
    destroy_messenger(t->instance, t->messenger, test_allocator);
    vkDestroyInstance(t->instance, test_allocator);
    uint32_t errors = t->validation_errors + t->driver_errors;
    uint32_t expected = t->expected_errors;
    char last[1200];
    snprintf(last, sizeof(last), "[%s] %s", t->last_message_id, t->last_message);
    free(t);
    if (errors > expected)
        fail_msg("%u error messages (%u expected); last: %s", errors, expected, last);
}

int vkmm_test_setup(void **state)
{
    *state = vkmm_test_create(NULL);
    return 0;
}

int vkmm_test_teardown(void **state)
{
    vkmm_test_destroy(*state);
    return 0;
}

uint32_t vkmm_test_has_memory_type(const struct vkmm_test *t, VkMemoryPropertyFlags required,
                                   VkMemoryPropertyFlags forbidden)
{
    for (uint32_t i = 0; i < t->memory_properties.memoryTypeCount; i++) {
        VkMemoryPropertyFlags flags = t->memory_properties.memoryTypes[i].propertyFlags;
        if ((flags & required) == required && !(flags & forbidden))
            return i;
    }
    return UINT32_MAX;
}

uint32_t vkmm_test_find_memory_type(struct vkmm_test *t, VkMemoryPropertyFlags required,
                                    VkMemoryPropertyFlags forbidden)
{
    uint32_t type = vkmm_test_has_memory_type(t, required, forbidden);
    if (type != UINT32_MAX)
        return type;
    fail_msg("no memory type with flags 0x%x and without 0x%x", required, forbidden);
    return UINT32_MAX;
}

struct vkmm_test_buffer vkmm_test_buffer_create(struct vkmm_test *t, VkDeviceSize size,
                                                VkMemoryPropertyFlags properties)
{
    struct vkmm_test_buffer b = { .size = size };
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                 VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                 VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VK_CHECK(vkCreateBuffer(t->device, &info, test_allocator, &b.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(t->device, b.buffer, &req);
    /* Exactly the asked-for kind: coherent memory is not taken when cached
     * non-coherent was asked for, and device-local only when asked. */
    VkMemoryPropertyFlags forbidden = 0;
    if ((properties & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) && !(properties & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
        forbidden |= VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    if (!(properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
        forbidden |= VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
    if (t->any_memory_type && vkmm_test_has_memory_type(t, properties, forbidden) == UINT32_MAX)
        forbidden = 0;
    b.memory_type = vkmm_test_find_memory_type(t, properties, forbidden);
    assert_true(req.memoryTypeBits & (1u << b.memory_type));
    VkMemoryAllocateFlagsInfo flags = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
    };
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = &flags,
        .allocationSize = req.size,
        .memoryTypeIndex = b.memory_type,
    };
    VK_CHECK(vkAllocateMemory(t->device, &alloc, test_allocator, &b.memory));
    VK_CHECK(vkBindBufferMemory(t->device, b.buffer, b.memory, 0));
    if (properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)
        VK_CHECK(vkMapMemory(t->device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
    return b;
}

void vkmm_test_buffer_destroy(struct vkmm_test *t, struct vkmm_test_buffer *b)
{
    vkDestroyBuffer(t->device, b->buffer, test_allocator);
    vkFreeMemory(t->device, b->memory, test_allocator);
    memset(b, 0, sizeof(*b));
}

VkCommandBuffer vkmm_test_begin(struct vkmm_test *t)
{
    VkCommandBufferAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = t->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkCommandBuffer cmd;
    VK_CHECK(vkAllocateCommandBuffers(t->device, &info, &cmd));
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
    return cmd;
}

void vkmm_test_submit_and_wait(struct vkmm_test *t, VkQueue queue, VkCommandBuffer cmd)
{
    VK_CHECK(vkEndCommandBuffer(cmd));
    VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence;
    VK_CHECK(vkCreateFence(t->device, &fence_info, test_allocator, &fence));
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &cmd,
    };
    VK_CHECK(vkQueueSubmit(queue, 1, &submit, fence));
    VK_CHECK(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX));
    vkDestroyFence(t->device, fence, test_allocator);
    vkFreeCommandBuffers(t->device, t->pool, 1, &cmd);
}

void vkmm_test_full_barrier(VkCommandBuffer cmd)
{
    VkMemoryBarrier2 barrier = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
        .srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_HOST_BIT,
        .dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_HOST_READ_BIT,
    };
    VkDependencyInfo dep = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
        .memoryBarrierCount = 1,
        .pMemoryBarriers = &barrier,
    };
    vkCmdPipelineBarrier2(cmd, &dep);
}

void vkmm_test_compute_to_host_barrier(VkCommandBuffer cmd)
{
    VkMemoryBarrier to_host = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT, .dstAccessMask = VK_ACCESS_HOST_READ_BIT };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                         NULL, 0, NULL);
}

void vkmm_test_image_barrier(VkCommandBuffer cmd, const struct vkmm_test_image_barrier *b)
{
    VkImageMemoryBarrier2 barrier = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
        .srcStageMask = b->src_stage,
        .srcAccessMask = b->src_access,
        .dstStageMask = b->dst_stage,
        .dstAccessMask = b->dst_access,
        .oldLayout = b->from,
        .newLayout = b->to,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = b->image,
        .subresourceRange = { b->aspect ? b->aspect : VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0,
                              VK_REMAINING_ARRAY_LAYERS },
    };
    VkDependencyInfo dependency = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .imageMemoryBarrierCount = 1,
                                    .pImageMemoryBarriers = &barrier };
    vkCmdPipelineBarrier2(cmd, &dependency);
}

/* --- Compute pipelines ------------------------------------------------- */

uint32_t *vkmm_test_load_spirv(const char *name, size_t *size_bytes)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s.spv", VKMM_TEST_SHADER_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *words = malloc((size_t)size);
    assert_non_null(words);
    assert_int_equal(fread(words, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    *size_bytes = (size_t)size;
    return words;
}

struct vkmm_test_compute vkmm_test_compute_create(struct vkmm_test *t, const char *name, uint32_t binding_count,
                                                  uint32_t push_size, const VkSpecializationInfo *specialization)
{
    return vkmm_test_compute_create_typed(t, name, binding_count, NULL, push_size, specialization);
}

struct vkmm_test_compute vkmm_test_compute_create_typed(struct vkmm_test *t, const char *name, uint32_t binding_count,
                                                        const VkDescriptorType *types, uint32_t push_size,
                                                        const VkSpecializationInfo *specialization)
{
    struct vkmm_test_compute c = { .binding_count = binding_count };
    size_t size = 0;
    uint32_t *words = vkmm_test_load_spirv(name, &size);
    VkShaderModuleCreateInfo module_info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = size,
        .pCode = words,
    };
    VK_CHECK(vkCreateShaderModule(t->device, &module_info, test_allocator, &c.module));
    free(words);
    VkDescriptorSetLayoutBinding bindings[16];
    assert_true(binding_count <= 16);
    for (uint32_t i = 0; i < binding_count; i++) {
        bindings[i] = (VkDescriptorSetLayoutBinding){
            .binding = i,
            .descriptorType = types ? types[i] : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .descriptorCount = 1,
            .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        };
    }
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = binding_count,
        .pBindings = bindings,
    };
    VK_CHECK(vkCreateDescriptorSetLayout(t->device, &set_info, test_allocator, &c.set_layout));
    VkPushConstantRange range = { VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size };
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &c.set_layout,
        .pushConstantRangeCount = push_size ? 1 : 0,
        .pPushConstantRanges = &range,
    };
    VK_CHECK(vkCreatePipelineLayout(t->device, &layout_info, test_allocator, &c.layout));
    VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = c.module,
            .pName = "main",
            .pSpecializationInfo = specialization,
        },
        .layout = c.layout,
    };
    VK_CHECK(vkCreateComputePipelines(t->device, VK_NULL_HANDLE, 1, &pipeline_info, test_allocator, &c.pipeline));
    /* One pool size per binding: pools may repeat a type. */
    VkDescriptorPoolSize pool_sizes[16] = { { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 } };
    for (uint32_t i = 0; i < binding_count; i++)
        pool_sizes[i] = (VkDescriptorPoolSize){ bindings[i].descriptorType, 1 };
    VkDescriptorPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = binding_count ? binding_count : 1,
        .pPoolSizes = pool_sizes,
    };
    VK_CHECK(vkCreateDescriptorPool(t->device, &pool_info, test_allocator, &c.pool));
    VkDescriptorSetAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = c.pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &c.set_layout,
    };
    VK_CHECK(vkAllocateDescriptorSets(t->device, &alloc, &c.set));
    return c;
}

void vkmm_test_compute_bind_buffer(struct vkmm_test *t, struct vkmm_test_compute *c, uint32_t binding,
                                   VkBuffer buffer, VkDeviceSize offset, VkDeviceSize range)
{
    VkDescriptorBufferInfo info = { buffer, offset, range };
    VkWriteDescriptorSet write = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = c->set,
        .dstBinding = binding,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .pBufferInfo = &info,
    };
    vkUpdateDescriptorSets(t->device, 1, &write, 0, NULL);
}

void vkmm_test_compute_dispatch(struct vkmm_test_compute *c, VkCommandBuffer cmd, const void *push,
                                uint32_t push_size, uint32_t x, uint32_t y, uint32_t z)
{
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
    if (push_size)
        vkCmdPushConstants(cmd, c->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size, push);
    vkCmdDispatch(cmd, x, y, z);
}

void vkmm_test_compute_destroy(struct vkmm_test *t, struct vkmm_test_compute *c)
{
    vkDestroyDescriptorPool(t->device, c->pool, test_allocator);
    vkDestroyPipeline(t->device, c->pipeline, test_allocator);
    vkDestroyPipelineLayout(t->device, c->layout, test_allocator);
    vkDestroyDescriptorSetLayout(t->device, c->set_layout, test_allocator);
    vkDestroyShaderModule(t->device, c->module, test_allocator);
    memset(c, 0, sizeof(*c));
}
