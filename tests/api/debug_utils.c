/* VK_EXT_debug_utils and private data: vkmm's messages reach messengers
 * (with the object and its name), masks filter them, object names, queue
 * and command-buffer labels are accepted, vkSubmitDebugUtilsMessageEXT
 * arrives, and private data slots keep values per object. */
#include <stdio.h>
#include <string.h>

#include "vkmm_test.h"

#define HANDLE(h) ((uint64_t)(uintptr_t)(h))

/* What one messenger saw. */
struct received {
    uint32_t count;
    VkDebugUtilsMessageSeverityFlagBitsEXT severity;
    VkDebugUtilsMessageTypeFlagsEXT types;
    char id[128];
    char message[1024];
    int32_t id_number;
    uint32_t object_count;
    VkObjectType object_type;
    uint64_t object_handle;
    bool object_named;
    char object_name[128];
};

static VKAPI_ATTR VkBool32 VKAPI_CALL record_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                     VkDebugUtilsMessageTypeFlagsEXT types,
                                                     const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    struct received *r = user;
    r->count++;
    r->severity = severity;
    r->types = types;
    snprintf(r->id, sizeof(r->id), "%s", data->pMessageIdName ? data->pMessageIdName : "");
    snprintf(r->message, sizeof(r->message), "%s", data->pMessage ? data->pMessage : "");
    r->id_number = data->messageIdNumber;
    r->object_count = data->objectCount;
    r->object_type = VK_OBJECT_TYPE_UNKNOWN;
    r->object_handle = 0;
    r->object_named = false;
    r->object_name[0] = 0;
    if (data->objectCount > 0) {
        r->object_type = data->pObjects[0].objectType;
        r->object_handle = data->pObjects[0].objectHandle;
        r->object_named = data->pObjects[0].pObjectName != NULL;
        if (r->object_named)
            snprintf(r->object_name, sizeof(r->object_name), "%s", data->pObjects[0].pObjectName);
    }
    return VK_FALSE;
}

static VkDebugUtilsMessengerEXT create_messenger(struct vkmm_test *t, VkDebugUtilsMessageSeverityFlagsEXT severities,
                                                 VkDebugUtilsMessageTypeFlagsEXT types, struct received *r)
{
    PFN_vkCreateDebugUtilsMessengerEXT create =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(t->instance, "vkCreateDebugUtilsMessengerEXT");
    assert_non_null(create);
    VkDebugUtilsMessengerCreateInfoEXT info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = severities,
        .messageType = types,
        .pfnUserCallback = record_message,
        .pUserData = r,
    };
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VK_CHECK(create(t->instance, &info, NULL, &messenger));
    return messenger;
}

static void destroy_messenger(struct vkmm_test *t, VkDebugUtilsMessengerEXT messenger)
{
    PFN_vkDestroyDebugUtilsMessengerEXT destroy =
        (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(t->instance, "vkDestroyDebugUtilsMessengerEXT");
    destroy(t->instance, messenger, NULL);
}

static VkResult set_name(struct vkmm_test *t, VkObjectType type, uint64_t handle, const char *name)
{
    PFN_vkSetDebugUtilsObjectNameEXT set =
        (PFN_vkSetDebugUtilsObjectNameEXT)vkGetInstanceProcAddr(t->instance, "vkSetDebugUtilsObjectNameEXT");
    assert_non_null(set);
    VkDebugUtilsObjectNameInfoEXT info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
        .objectType = type,
        .objectHandle = handle,
        .pObjectName = name,
    };
    return set(t->device, &info);
}

static VkDeviceMemory allocate(struct vkmm_test *t, uint32_t type)
{
    VkMemoryAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = 4096,
        .memoryTypeIndex = type,
    };
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VK_CHECK(vkAllocateMemory(t->device, &info, NULL, &memory));
    return memory;
}

/* Mapping device-local memory is invalid usage (hence no validation layer,
 * which would also wrap the handle vkmm reports); vkmm answers with an
 * error message about the memory object. */
static void test_messenger_receives_driver_errors(void **state)
{
    (void)state;
    const struct vkmm_test_options options = { .no_validation = true };
    struct vkmm_test *t = vkmm_test_create(&options);
    struct received all = { 0 }, warnings_only = { 0 }, validation_only = { 0 };
    const VkDebugUtilsMessageTypeFlagsEXT every_type = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    VkDebugUtilsMessengerEXT m_all = create_messenger(
        t, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, every_type,
        &all);
    VkDebugUtilsMessengerEXT m_warnings =
        create_messenger(t, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, every_type, &warnings_only);
    VkDebugUtilsMessengerEXT m_validation = create_messenger(
        t, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        &validation_only);

    VkDeviceMemory memory = allocate(t, 0);
    void *p = NULL;
    t->expected_errors++;
    assert_int_equal(vkMapMemory(t->device, memory, 0, VK_WHOLE_SIZE, 0, &p), VK_ERROR_MEMORY_MAP_FAILED);
    assert_int_equal(all.count, 1);
    assert_int_equal(all.severity, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT);
    assert_true(all.types & every_type);
    assert_true(strncmp(all.id, "VK_ERROR", 8) == 0);
    assert_string_equal(all.id, "VK_ERROR_MEMORY_MAP_FAILED");
    assert_true(strlen(all.message) > 0);
    assert_true(all.object_count >= 1);
    assert_int_equal(all.object_type, VK_OBJECT_TYPE_DEVICE_MEMORY);
    assert_true(all.object_handle == HANDLE(memory));
    assert_false(all.object_named);
    /* The masks filter: neither a warnings-only messenger nor one for
     * performance messages hears about it. */
    assert_int_equal(warnings_only.count, 0);
    assert_int_equal(validation_only.count, 0);

    /* With a name, the message carries it. */
    VK_CHECK(set_name(t, VK_OBJECT_TYPE_DEVICE_MEMORY, HANDLE(memory), "device-local scratch"));
    t->expected_errors++;
    assert_int_equal(vkMapMemory(t->device, memory, 0, 64, 0, &p), VK_ERROR_MEMORY_MAP_FAILED);
    assert_int_equal(all.count, 2);
    assert_true(all.object_named);
    assert_string_equal(all.object_name, "device-local scratch");
    assert_true(all.object_handle == HANDLE(memory));

    /* A destroyed messenger hears nothing more; the others still do. */
    destroy_messenger(t, m_all);
    uint32_t before = t->driver_errors;
    t->expected_errors++;
    assert_int_equal(vkMapMemory(t->device, memory, 0, 64, 0, &p), VK_ERROR_MEMORY_MAP_FAILED);
    assert_int_equal(all.count, 2);
    assert_int_equal(t->driver_errors, before + 1);

    destroy_messenger(t, m_warnings);
    destroy_messenger(t, m_validation);
    vkFreeMemory(t->device, memory, NULL);
    vkmm_test_destroy(t);
}

/* Names are used in vkmm's messages and follow renaming and clearing. */
static void test_names_appear_in_messages(void **state)
{
    (void)state;
    const struct vkmm_test_options options = { .no_validation = true };
    struct vkmm_test *t = vkmm_test_create(&options);
    struct received r = { 0 };
    VkDebugUtilsMessengerEXT messenger =
        create_messenger(t, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                         VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
                         &r);
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = 256,
        .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
    };
    VkBuffer buffer = VK_NULL_HANDLE;
    VK_CHECK(vkCreateBuffer(t->device, &info, NULL, &buffer));
    VkDeviceMemory memory = allocate(t, 1);
    VK_CHECK(vkBindBufferMemory(t->device, buffer, memory, 0));

    static const char *const names[] = { "first name", "second, longer name of the same buffer", NULL };
    for (uint32_t i = 0; i < 3; i++) {
        VK_CHECK(set_name(t, VK_OBJECT_TYPE_BUFFER, HANDLE(buffer), names[i]));
        /* Binding a bound buffer again is invalid: vkmm says so about the
         * buffer. */
        uint32_t count = r.count;
        t->expected_errors++;
        assert_int_not_equal(vkBindBufferMemory(t->device, buffer, memory, 0), VK_SUCCESS);
        assert_int_equal(r.count, count + 1);
        assert_int_equal(r.object_type, VK_OBJECT_TYPE_BUFFER);
        assert_true(r.object_handle == HANDLE(buffer));
        if (names[i]) {
            assert_true(r.object_named);
            assert_string_equal(r.object_name, names[i]);
        } else {
            assert_false(r.object_named);
        }
    }
    /* An empty name clears it too. */
    VK_CHECK(set_name(t, VK_OBJECT_TYPE_BUFFER, HANDLE(buffer), "again"));
    VK_CHECK(set_name(t, VK_OBJECT_TYPE_BUFFER, HANDLE(buffer), ""));
    t->expected_errors++;
    assert_int_not_equal(vkBindBufferMemory(t->device, buffer, memory, 0), VK_SUCCESS);
    assert_false(r.object_named);

    destroy_messenger(t, messenger);
    vkDestroyBuffer(t->device, buffer, NULL);
    vkFreeMemory(t->device, memory, NULL);
    vkmm_test_destroy(t);
}

static void test_set_object_names(void **state)
{
    struct vkmm_test *t = *state;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 256, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence = VK_NULL_HANDLE;
    VK_CHECK(vkCreateFence(t->device, &fence_info, NULL, &fence));
    VkCommandBuffer cmd = vkmm_test_begin(t);

    assert_int_equal(set_name(t, VK_OBJECT_TYPE_BUFFER, HANDLE(b.buffer), "a buffer"), VK_SUCCESS);
    assert_int_equal(set_name(t, VK_OBJECT_TYPE_FENCE, HANDLE(fence), "a fence"), VK_SUCCESS);
    assert_int_equal(set_name(t, VK_OBJECT_TYPE_DEVICE_MEMORY, HANDLE(b.memory), "its memory"), VK_SUCCESS);
    assert_int_equal(set_name(t, VK_OBJECT_TYPE_DEVICE, HANDLE(t->device), "the device"), VK_SUCCESS);
    assert_int_equal(set_name(t, VK_OBJECT_TYPE_QUEUE, HANDLE(t->compute_queues[0]), "queue 0"), VK_SUCCESS);
    assert_int_equal(set_name(t, VK_OBJECT_TYPE_COMMAND_BUFFER, HANDLE(cmd), "a command buffer"), VK_SUCCESS);
    assert_int_equal(set_name(t, VK_OBJECT_TYPE_COMMAND_POOL, HANDLE(t->pool), "the pool"), VK_SUCCESS);
    /* Renaming and clearing. */
    assert_int_equal(set_name(t, VK_OBJECT_TYPE_FENCE, HANDLE(fence), "renamed fence"), VK_SUCCESS);
    assert_int_equal(set_name(t, VK_OBJECT_TYPE_FENCE, HANDLE(fence), NULL), VK_SUCCESS);
    assert_int_equal(set_name(t, VK_OBJECT_TYPE_BUFFER, HANDLE(b.buffer), "renamed buffer"), VK_SUCCESS);

    PFN_vkSetDebugUtilsObjectTagEXT set_tag =
        (PFN_vkSetDebugUtilsObjectTagEXT)vkGetInstanceProcAddr(t->instance, "vkSetDebugUtilsObjectTagEXT");
    static const uint32_t tag_data[4] = { 1, 2, 3, 4 };
    VkDebugUtilsObjectTagInfoEXT tag = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_TAG_INFO_EXT,
        .objectType = VK_OBJECT_TYPE_FENCE,
        .objectHandle = HANDLE(fence),
        .tagName = 42,
        .tagSize = sizeof(tag_data),
        .pTag = tag_data,
    };
    assert_int_equal(set_tag(t->device, &tag), VK_SUCCESS);

    /* Named objects keep working. */
    vkCmdFillBuffer(cmd, b.buffer, 0, VK_WHOLE_SIZE, 7);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    vkDestroyFence(t->device, fence, NULL);
    vkmm_test_buffer_destroy(t, &b);
}

/* The messenger handle the application holds is the loader's, so naming
 * it must not make vkmm misread that handle as one of its objects. */
static void test_name_debug_messenger(void **state)
{
    struct vkmm_test *t = *state;
    uint32_t before = t->driver_errors;
    assert_int_equal(set_name(t, VK_OBJECT_TYPE_DEBUG_UTILS_MESSENGER_EXT, HANDLE(t->messenger), "the messenger"),
                     VK_SUCCESS);
    assert_int_equal(set_name(t, VK_OBJECT_TYPE_DEBUG_UTILS_MESSENGER_EXT, HANDLE(t->messenger), NULL), VK_SUCCESS);
    assert_int_equal(t->driver_errors, before);
}

static void test_submit_message_reaches_messenger(void **state)
{
    struct vkmm_test *t = *state;
    struct received r = { 0 };
    VkDebugUtilsMessengerEXT messenger = create_messenger(
        t, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
        VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT, &r);
    PFN_vkSubmitDebugUtilsMessageEXT submit =
        (PFN_vkSubmitDebugUtilsMessageEXT)vkGetInstanceProcAddr(t->instance, "vkSubmitDebugUtilsMessageEXT");
    assert_non_null(submit);
    VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence = VK_NULL_HANDLE;
    VK_CHECK(vkCreateFence(t->device, &fence_info, NULL, &fence));
    VkDebugUtilsObjectNameInfoEXT object = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
        .objectType = VK_OBJECT_TYPE_FENCE,
        .objectHandle = HANDLE(fence),
        .pObjectName = "submitted fence",
    };
    VkDebugUtilsMessengerCallbackDataEXT data = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT,
        .pMessageIdName = "APP-test-message",
        .messageIdNumber = 4711,
        .pMessage = "hello from the application",
        .objectCount = 1,
        .pObjects = &object,
    };
    submit(t->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
           &data);
    /* Once: not again by the loader and the driver both. */
    assert_int_equal(r.count, 1);
    assert_int_equal(r.severity, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT);
    assert_int_equal(r.types, VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT);
    assert_string_equal(r.id, "APP-test-message");
    assert_int_equal(r.id_number, 4711);
    assert_string_equal(r.message, "hello from the application");
    assert_int_equal(r.object_count, 1);
    assert_int_equal(r.object_type, VK_OBJECT_TYPE_FENCE);
    assert_true(r.object_named);
    assert_string_equal(r.object_name, "submitted fence");

    /* A severity the messenger did not ask for does not arrive. */
    uint32_t count = r.count;
    submit(t->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
           &data);
    assert_int_equal(r.count, count);
    /* Nor a type. */
    submit(t->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
           &data);
    assert_int_equal(r.count, count);
    /* Info and general: it does. */
    submit(t->instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
           &data);
    assert_int_equal(r.count, count + 1);
    assert_int_equal(r.severity, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT);

    destroy_messenger(t, messenger);
    vkDestroyFence(t->device, fence, NULL);
}

static void test_queue_and_command_buffer_labels(void **state)
{
    struct vkmm_test *t = *state;
    PFN_vkQueueBeginDebugUtilsLabelEXT queue_begin =
        (PFN_vkQueueBeginDebugUtilsLabelEXT)vkGetInstanceProcAddr(t->instance, "vkQueueBeginDebugUtilsLabelEXT");
    PFN_vkQueueEndDebugUtilsLabelEXT queue_end =
        (PFN_vkQueueEndDebugUtilsLabelEXT)vkGetInstanceProcAddr(t->instance, "vkQueueEndDebugUtilsLabelEXT");
    PFN_vkQueueInsertDebugUtilsLabelEXT queue_insert =
        (PFN_vkQueueInsertDebugUtilsLabelEXT)vkGetInstanceProcAddr(t->instance, "vkQueueInsertDebugUtilsLabelEXT");
    PFN_vkCmdBeginDebugUtilsLabelEXT cmd_begin =
        (PFN_vkCmdBeginDebugUtilsLabelEXT)vkGetInstanceProcAddr(t->instance, "vkCmdBeginDebugUtilsLabelEXT");
    PFN_vkCmdEndDebugUtilsLabelEXT cmd_end =
        (PFN_vkCmdEndDebugUtilsLabelEXT)vkGetInstanceProcAddr(t->instance, "vkCmdEndDebugUtilsLabelEXT");
    PFN_vkCmdInsertDebugUtilsLabelEXT cmd_insert =
        (PFN_vkCmdInsertDebugUtilsLabelEXT)vkGetInstanceProcAddr(t->instance, "vkCmdInsertDebugUtilsLabelEXT");
    assert_non_null(queue_begin);
    assert_non_null(queue_end);
    assert_non_null(queue_insert);
    assert_non_null(cmd_begin);
    assert_non_null(cmd_end);
    assert_non_null(cmd_insert);

    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 1024, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    VkDebugUtilsLabelEXT outer = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT,
        .pLabelName = "outer",
        .color = { 1, 0, 0, 1 },
    };
    VkDebugUtilsLabelEXT inner = { .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = "inner" };
    VkDebugUtilsLabelEXT point = { .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = "point" };
    VkQueue queue = t->compute_queues[0];
    queue_begin(queue, &outer);
    queue_insert(queue, &point);
    queue_begin(queue, &inner);

    VkCommandBuffer cmd = vkmm_test_begin(t);
    cmd_begin(cmd, &outer);
    cmd_insert(cmd, &point);
    vkCmdFillBuffer(cmd, b.buffer, 0, 512, 0xAAAAAAAAu);
    cmd_begin(cmd, &inner);
    vkmm_test_full_barrier(cmd);
    vkCmdFillBuffer(cmd, b.buffer, 512, 512, 0xBBBBBBBBu);
    cmd_end(cmd);
    vkmm_test_full_barrier(cmd);
    cmd_end(cmd);
    vkmm_test_submit_and_wait(t, queue, cmd);

    queue_end(queue);
    queue_insert(queue, &point);
    queue_end(queue);

    const uint32_t *words = b.mapped;
    assert_int_equal(words[0], 0xAAAAAAAAu);
    assert_int_equal(words[127], 0xAAAAAAAAu);
    assert_int_equal(words[128], 0xBBBBBBBBu);
    assert_int_equal(words[255], 0xBBBBBBBBu);
    vkmm_test_buffer_destroy(t, &b);
}

/* Private data needs the privateData feature, which the harness's device
 * does not enable: a device of its own. */
static void test_private_data(void **state)
{
    struct vkmm_test *t = *state;
    VkPhysicalDeviceVulkan13Features v13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .privateData = VK_TRUE,
    };
    VkDevicePrivateDataCreateInfo reserve = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_PRIVATE_DATA_CREATE_INFO,
        .pNext = &v13,
        .privateDataSlotRequestCount = 2,
    };
    static const float priority = 1;
    VkDeviceQueueCreateInfo queue = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = 0,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo device_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &reserve,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue,
    };
    VkDevice device = VK_NULL_HANDLE;
    VK_CHECK(vkCreateDevice(t->physical_device, &device_info, NULL, &device));

    VkPrivateDataSlotCreateInfo slot_info = { .sType = VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO };
    VkPrivateDataSlot slots[2];
    VK_CHECK(vkCreatePrivateDataSlot(device, &slot_info, NULL, &slots[0]));
    VK_CHECK(vkCreatePrivateDataSlot(device, &slot_info, NULL, &slots[1]));
    assert_ptr_not_equal(slots[0], slots[1]);

    VkBufferCreateInfo buffer_info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = 64,
        .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
    };
    VkBuffer buffer = VK_NULL_HANDLE;
    VK_CHECK(vkCreateBuffer(device, &buffer_info, NULL, &buffer));
    enum { FENCES = 24 }; /* enough entries for the store to grow */
    VkFence fences[FENCES];
    for (uint32_t i = 0; i < FENCES; i++) {
        VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
        VK_CHECK(vkCreateFence(device, &fence_info, NULL, &fences[i]));
    }

    /* Unset: 0. */
    uint64_t value = 99;
    vkGetPrivateData(device, VK_OBJECT_TYPE_BUFFER, HANDLE(buffer), slots[0], &value);
    assert_true(value == 0);

    VK_CHECK(vkSetPrivateData(device, VK_OBJECT_TYPE_BUFFER, HANDLE(buffer), slots[0], 0xDEADBEEFCAFEF00Dull));
    VK_CHECK(vkSetPrivateData(device, VK_OBJECT_TYPE_DEVICE, HANDLE(device), slots[0], 17));
    for (uint32_t i = 0; i < FENCES; i++) {
        VK_CHECK(vkSetPrivateData(device, VK_OBJECT_TYPE_FENCE, HANDLE(fences[i]), slots[0], 1000 + i));
        VK_CHECK(vkSetPrivateData(device, VK_OBJECT_TYPE_FENCE, HANDLE(fences[i]), slots[1], 2000 + i));
    }
    vkGetPrivateData(device, VK_OBJECT_TYPE_BUFFER, HANDLE(buffer), slots[0], &value);
    assert_true(value == 0xDEADBEEFCAFEF00Dull);
    vkGetPrivateData(device, VK_OBJECT_TYPE_DEVICE, HANDLE(device), slots[0], &value);
    assert_true(value == 17);
    /* Slots are independent. */
    value = 99;
    vkGetPrivateData(device, VK_OBJECT_TYPE_BUFFER, HANDLE(buffer), slots[1], &value);
    assert_true(value == 0);
    for (uint32_t i = 0; i < FENCES; i++) {
        vkGetPrivateData(device, VK_OBJECT_TYPE_FENCE, HANDLE(fences[i]), slots[0], &value);
        assert_true(value == 1000 + i);
        vkGetPrivateData(device, VK_OBJECT_TYPE_FENCE, HANDLE(fences[i]), slots[1], &value);
        assert_true(value == 2000 + i);
    }
    /* Overwriting. */
    VK_CHECK(vkSetPrivateData(device, VK_OBJECT_TYPE_BUFFER, HANDLE(buffer), slots[0], 5));
    vkGetPrivateData(device, VK_OBJECT_TYPE_BUFFER, HANDLE(buffer), slots[0], &value);
    assert_true(value == 5);

    /* Destroying one slot leaves the other's data. */
    vkDestroyPrivateDataSlot(device, slots[0], NULL);
    for (uint32_t i = 0; i < FENCES; i++) {
        vkGetPrivateData(device, VK_OBJECT_TYPE_FENCE, HANDLE(fences[i]), slots[1], &value);
        assert_true(value == 2000 + i);
    }
    vkDestroyPrivateDataSlot(device, VK_NULL_HANDLE, NULL);
    vkDestroyPrivateDataSlot(device, slots[1], NULL);
    for (uint32_t i = 0; i < FENCES; i++)
        vkDestroyFence(device, fences[i], NULL);
    vkDestroyBuffer(device, buffer, NULL);
    vkDestroyDevice(device, NULL);
}

/* VK_EXT_private_data: a device created with the extension (and its own
 * feature structure) reaches the same commands through the EXT names;
 * one created without it gets NULL for them. */
static void test_private_data_extension(void **state)
{
    struct vkmm_test *t = *state;
    VkPhysicalDevicePrivateDataFeaturesEXT feature = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES_EXT,
        .privateData = VK_TRUE,
    };
    static const float priority = 1;
    VkDeviceQueueCreateInfo queue = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = 0,
                                      .queueCount = 1, .pQueuePriorities = &priority };
    const char *extension = VK_EXT_PRIVATE_DATA_EXTENSION_NAME;
    VkDeviceCreateInfo device_info = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &feature,
                                       .queueCreateInfoCount = 1, .pQueueCreateInfos = &queue,
                                       .enabledExtensionCount = 1, .ppEnabledExtensionNames = &extension };
    VkDevice device = VK_NULL_HANDLE;
    VK_CHECK(vkCreateDevice(t->physical_device, &device_info, NULL, &device));
    PFN_vkCreatePrivateDataSlotEXT create =
        (PFN_vkCreatePrivateDataSlotEXT)vkGetDeviceProcAddr(device, "vkCreatePrivateDataSlotEXT");
    PFN_vkSetPrivateDataEXT set = (PFN_vkSetPrivateDataEXT)vkGetDeviceProcAddr(device, "vkSetPrivateDataEXT");
    PFN_vkGetPrivateDataEXT get = (PFN_vkGetPrivateDataEXT)vkGetDeviceProcAddr(device, "vkGetPrivateDataEXT");
    PFN_vkDestroyPrivateDataSlotEXT destroy =
        (PFN_vkDestroyPrivateDataSlotEXT)vkGetDeviceProcAddr(device, "vkDestroyPrivateDataSlotEXT");
    assert_true(create && set && get && destroy);
    VkPrivateDataSlotCreateInfoEXT slot_info = { .sType = VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO_EXT };
    VkPrivateDataSlotEXT slot;
    VK_CHECK(create(device, &slot_info, NULL, &slot));
    VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence;
    VK_CHECK(vkCreateFence(device, &fence_info, NULL, &fence));
    VK_CHECK(set(device, VK_OBJECT_TYPE_FENCE, HANDLE(fence), slot, 42));
    uint64_t value = 0;
    get(device, VK_OBJECT_TYPE_FENCE, HANDLE(fence), slot, &value);
    assert_true(value == 42);
    /* The core command sees what the EXT one set: one store. */
    value = 0;
    vkGetPrivateData(device, VK_OBJECT_TYPE_FENCE, HANDLE(fence), slot, &value);
    assert_true(value == 42);
    destroy(device, slot, NULL);
    vkDestroyFence(device, fence, NULL);
    vkDestroyDevice(device, NULL);

    /* Without the extension: NULL for the EXT names (the core ones stay). */
    device_info.pNext = NULL;
    device_info.enabledExtensionCount = 0;
    VK_CHECK(vkCreateDevice(t->physical_device, &device_info, NULL, &device));
    assert_null(vkGetDeviceProcAddr(device, "vkCreatePrivateDataSlotEXT"));
    assert_non_null(vkGetDeviceProcAddr(device, "vkCreatePrivateDataSlot"));
    vkDestroyDevice(device, NULL);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, vkmm_test_setup, vkmm_test_teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_messenger_receives_driver_errors),
        cmocka_unit_test(test_names_appear_in_messages),
        T(test_set_object_names),
        T(test_name_debug_messenger),
        T(test_submit_message_reaches_messenger),
        T(test_queue_and_command_buffer_labels),
        T(test_private_data),
        T(test_private_data_extension),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
