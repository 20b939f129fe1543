/* vkCreateDevice: queues, features and extensions that are supported or
 * not, vkGetDeviceQueue(2), vkGetDeviceProcAddr and vkDeviceWaitIdle. */
#include <stdio.h>
#include <string.h>

#include "vkmm_test.h"

static const float priorities[4] = { 1, 1, 1, 1 };

/* One queue of family 0 and whatever the caller chains. */
static VkResult create_device(struct vkmm_test *t, const void *pNext, const VkPhysicalDeviceFeatures *features,
                              uint32_t extension_count, const char *const *extensions, VkDevice *device)
{
    VkDeviceQueueCreateInfo queue = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = 0,
        .queueCount = 1,
        .pQueuePriorities = priorities,
    };
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = pNext,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue,
        .enabledExtensionCount = extension_count,
        .ppEnabledExtensionNames = extensions,
        .pEnabledFeatures = features,
    };
    return vkCreateDevice(t->physical_device, &info, NULL, device);
}

/* The message ID of vkmm's last error (the loader adds messages of its own
 * after it, which the harness's last_message_id would show instead). */
static char driver_message_id[128];

static VKAPI_ATTR VkBool32 VKAPI_CALL record_driver_id(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                       VkDebugUtilsMessageTypeFlagsEXT types,
                                                       const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)severity, (void)types, (void)user;
    if (data->pMessageIdName && strncmp(data->pMessageIdName, "VK_", 3) == 0)
        snprintf(driver_message_id, sizeof(driver_message_id), "%s", data->pMessageIdName);
    return VK_FALSE;
}

/* Expects vkCreateDevice to fail with VK_ERROR_FEATURE_NOT_PRESENT and vkmm
 * to say so through the messenger (once; the loader may add its own). */
static void expect_feature_not_present(struct vkmm_test *t, const void *pNext, const VkPhysicalDeviceFeatures *features)
{
    PFN_vkCreateDebugUtilsMessengerEXT create_messenger =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(t->instance, "vkCreateDebugUtilsMessengerEXT");
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger =
        (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(t->instance, "vkDestroyDebugUtilsMessengerEXT");
    VkDebugUtilsMessengerCreateInfoEXT messenger_info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
        .pfnUserCallback = record_driver_id,
    };
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VK_CHECK(create_messenger(t->instance, &messenger_info, NULL, &messenger));
    driver_message_id[0] = 0;
    uint32_t before = t->driver_errors, before_others = t->validation_errors;
    /* vkmm's message, and the loader's two that follow it. */
    t->expected_errors += 3;
    VkDevice device = VK_NULL_HANDLE;
    assert_int_equal(create_device(t, pNext, features, 0, NULL, &device), VK_ERROR_FEATURE_NOT_PRESENT);
    assert_int_equal(t->driver_errors, before + 1);
    assert_string_equal(driver_message_id, "VK_ERROR_FEATURE_NOT_PRESENT");
    t->expected_errors = t->expected_errors - 2 + (t->validation_errors - before_others);
    destroy_messenger(t->instance, messenger, NULL);
}

static void test_all_queues_exist_and_run(void **state)
{
    struct vkmm_test *t = *state;
    assert_int_equal(t->compute_queue_count, 4);
    assert_int_equal(t->transfer_queue_count, 2);
    VkQueue all[6];
    for (uint32_t i = 0; i < 4; i++)
        all[i] = t->compute_queues[i];
    for (uint32_t i = 0; i < 2; i++)
        all[4 + i] = t->transfer_queues[i];
    for (uint32_t i = 0; i < 6; i++) {
        assert_non_null(all[i]);
        for (uint32_t j = 0; j < i; j++)
            assert_ptr_not_equal(all[i], all[j]);
    }

    /* vkGetDeviceQueue returns the same handle each time, and
     * vkGetDeviceQueue2 with the creation flags (0) the same one. */
    for (uint32_t family = 0; family < 2; family++) {
        uint32_t n = family == 0 ? 4 : 2;
        for (uint32_t index = 0; index < n; index++) {
            VkQueue queue = VK_NULL_HANDLE, queue2 = VK_NULL_HANDLE;
            vkGetDeviceQueue(t->device, family, index, &queue);
            assert_ptr_equal(queue, family == 0 ? t->compute_queues[index] : t->transfer_queues[index]);
            VkDeviceQueueInfo2 info = {
                .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2,
                .queueFamilyIndex = family,
                .queueIndex = index,
            };
            vkGetDeviceQueue2(t->device, &info, &queue2);
            assert_ptr_equal(queue2, queue);
        }
    }

    /* Every queue executes: an empty submission signals its fence. */
    VkFence fences[6];
    for (uint32_t i = 0; i < 6; i++) {
        VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
        VK_CHECK(vkCreateFence(t->device, &fence_info, NULL, &fences[i]));
        VK_CHECK(vkQueueSubmit(all[i], 0, NULL, fences[i]));
    }
    VK_CHECK(vkWaitForFences(t->device, 6, fences, VK_TRUE, UINT64_MAX));
    for (uint32_t i = 0; i < 6; i++) {
        assert_int_equal(vkGetFenceStatus(t->device, fences[i]), VK_SUCCESS);
        VK_CHECK(vkQueueWaitIdle(all[i]));
        vkDestroyFence(t->device, fences[i], NULL);
    }
}

static void test_device_wait_idle_waits_for_work(void **state)
{
    struct vkmm_test *t = *state;
    const VkDeviceSize size = 1 << 20;
    struct vkmm_test_buffer buffers[3];
    VkCommandBuffer cmds[3];
    for (uint32_t i = 0; i < 3; i++) {
        buffers[i] = vkmm_test_buffer_create(t, size, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                          VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
        memset(buffers[i].mapped, 0, size);
        cmds[i] = vkmm_test_begin(t);
        vkCmdFillBuffer(cmds[i], buffers[i].buffer, 0, VK_WHOLE_SIZE, 0x01010101u * (i + 1));
        vkmm_test_full_barrier(cmds[i]);
        VK_CHECK(vkEndCommandBuffer(cmds[i]));
        VkSubmitInfo submit = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
            .commandBufferCount = 1,
            .pCommandBuffers = &cmds[i],
        };
        /* No fence: only vkDeviceWaitIdle tells when they are done. */
        VK_CHECK(vkQueueSubmit(t->compute_queues[i], 1, &submit, VK_NULL_HANDLE));
    }
    VK_CHECK(vkDeviceWaitIdle(t->device));
    for (uint32_t i = 0; i < 3; i++) {
        const uint8_t *bytes = buffers[i].mapped;
        for (VkDeviceSize b = 0; b < size; b += 4093)
            assert_int_equal(bytes[b], i + 1);
        assert_int_equal(bytes[size - 1], i + 1);
    }
    vkFreeCommandBuffers(t->device, t->pool, 3, cmds);
    for (uint32_t i = 0; i < 3; i++)
        vkmm_test_buffer_destroy(t, &buffers[i]);
    /* Idle with nothing pending returns at once. */
    VK_CHECK(vkDeviceWaitIdle(t->device));
}

static void test_supported_features_and_extensions(void **state)
{
    struct vkmm_test *t = *state;
    VkPhysicalDeviceVulkan13Features v13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .synchronization2 = VK_TRUE,
        .privateData = VK_TRUE,
    };
    VkPhysicalDeviceVulkan12Features v12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = &v13,
        .timelineSemaphore = VK_TRUE,
        .bufferDeviceAddress = VK_TRUE,
        .hostQueryReset = VK_TRUE,
    };
    VkPhysicalDeviceFeatures2 features2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = &v12,
    };
    const char *extensions[] = { VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME, VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME };
    VkDevice device = VK_NULL_HANDLE;
    VK_CHECK(create_device(t, &features2, NULL, 2, extensions, &device));
    assert_non_null(device);
    assert_ptr_not_equal(device, t->device);
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(device, 0, 0, &queue);
    assert_non_null(queue);
    assert_ptr_not_equal(queue, t->compute_queues[0]);
    VK_CHECK(vkDeviceWaitIdle(device));
    vkDestroyDevice(device, NULL);

    /* Individual feature structures instead of the aggregates. */
    VkPhysicalDeviceTimelineSemaphoreFeatures timeline = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
        .timelineSemaphore = VK_TRUE,
    };
    VkPhysicalDeviceSynchronization2Features sync2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES,
        .pNext = &timeline,
        .synchronization2 = VK_TRUE,
    };
    VK_CHECK(create_device(t, &sync2, NULL, 0, NULL, &device));
    vkDestroyDevice(device, NULL);

    /* A device with only a transfer queue. */
    VkDeviceQueueCreateInfo queue_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = 1,
        .queueCount = 2,
        .pQueuePriorities = priorities,
    };
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue_info,
    };
    VK_CHECK(vkCreateDevice(t->physical_device, &info, NULL, &device));
    VkQueue transfer[2];
    vkGetDeviceQueue(device, 1, 0, &transfer[0]);
    vkGetDeviceQueue(device, 1, 1, &transfer[1]);
    assert_non_null(transfer[0]);
    assert_non_null(transfer[1]);
    assert_ptr_not_equal(transfer[0], transfer[1]);
    VK_CHECK(vkQueueWaitIdle(transfer[1]));
    vkDestroyDevice(device, NULL);
}

/* Invalid requests: the validation layer would (rightly) object, so these
 * run without it and check vkmm's own answer. */
static void test_unsupported_features_fail(void **state)
{
    (void)state;
    const struct vkmm_test_options options = { .no_validation = true };
    struct vkmm_test *t = vkmm_test_create(&options);
    /* Graphics features, which a compute-only device does not have. */
    VkPhysicalDeviceVulkan12Features supported12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES };
    VkPhysicalDeviceVulkan11Features supported11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
        .pNext = &supported12,
    };
    VkPhysicalDeviceFeatures2 supported = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &supported11 };
    vkGetPhysicalDeviceFeatures2(t->physical_device, &supported);
    assert_false(supported.features.geometryShader);
    assert_false(supported.features.tessellationShader);
    assert_true(supported11.multiview); /* required of 1.1: view masks in render passes */
    assert_false(supported11.multiviewGeometryShader);
    assert_false(supported12.drawIndirectCount);

    VkPhysicalDeviceFeatures geometry = { .geometryShader = VK_TRUE };
    expect_feature_not_present(t, NULL, &geometry);

    VkPhysicalDeviceFeatures2 features2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .features = { .tessellationShader = VK_TRUE },
    };
    expect_feature_not_present(t, &features2, NULL);

    VkPhysicalDeviceVulkan11Features v11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
        .multiview = VK_TRUE,
        .multiviewGeometryShader = VK_TRUE,
    };
    expect_feature_not_present(t, &v11, NULL);

    VkPhysicalDeviceMultiviewFeatures multiview = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES,
        .multiviewTessellationShader = VK_TRUE,
    };
    expect_feature_not_present(t, &multiview, NULL);

    /* An unsupported one deeper in a chain of supported ones. */
    VkPhysicalDeviceVulkan12Features v12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .timelineSemaphore = VK_TRUE,
        .drawIndirectCount = VK_TRUE,
    };
    VkPhysicalDeviceVulkan13Features v13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .pNext = &v12,
        .synchronization2 = VK_TRUE,
    };
    expect_feature_not_present(t, &v13, NULL);

    /* Supported ones alone still work on the same physical device. */
    v12.drawIndirectCount = VK_FALSE;
    VkDevice device = VK_NULL_HANDLE;
    VK_CHECK(create_device(t, &v13, NULL, 0, NULL, &device));
    vkDestroyDevice(device, NULL);
    vkmm_test_destroy(t);
}

static void test_unsupported_extension_fails(void **state)
{
    (void)state;
    const struct vkmm_test_options options = { .no_validation = true };
    struct vkmm_test *t = vkmm_test_create(&options);
    const char *names[] = { "VK_KHR_swapchain", "VK_VKMM_no_such_extension" };
    for (uint32_t i = 0; i < 2; i++) {
        const char *extensions[] = { VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME, names[i] };
        uint32_t before = t->driver_errors + t->validation_errors;
        t->expected_errors += 2;
        VkDevice device = VK_NULL_HANDLE;
        assert_int_equal(create_device(t, NULL, NULL, 2, extensions, &device), VK_ERROR_EXTENSION_NOT_PRESENT);
        /* The loader or vkmm (whichever checks first) may say why. */
        t->expected_errors = t->expected_errors - 2 + (t->driver_errors + t->validation_errors - before);
    }
    vkmm_test_destroy(t);
}

static void test_device_proc_addr(void **state)
{
    struct vkmm_test *t = *state;
    static const char *const implemented[] = {
        "vkCmdCopyBuffer2", "vkQueueSubmit2",        "vkGetBufferDeviceAddress", "vkCmdPipelineBarrier2",
        "vkCmdCopyBuffer",  "vkGetDeviceQueue2",     "vkCreatePrivateDataSlot",  "vkGetSemaphoreCounterValue",
        "vkResetQueryPool", "vkCmdWriteTimestamp2",  "vkGetDeviceProcAddr",
    };
    for (size_t i = 0; i < sizeof(implemented) / sizeof(implemented[0]); i++) {
        if (!vkGetDeviceProcAddr(t->device, implemented[i]))
            fail_msg("vkGetDeviceProcAddr(%s) is NULL", implemented[i]);
    }
    assert_null(vkGetDeviceProcAddr(t->device, "vkNoSuchCommandVKMM"));

    /* The pointer works: vkGetBufferDeviceAddress through it. */
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 256, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    PFN_vkGetBufferDeviceAddress get_address =
        (PFN_vkGetBufferDeviceAddress)vkGetDeviceProcAddr(t->device, "vkGetBufferDeviceAddress");
    VkBufferDeviceAddressInfo address_info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
        .buffer = b.buffer,
    };
    VkDeviceAddress address = get_address(t->device, &address_info);
    assert_true(address != 0);
    assert_true(address == vkGetBufferDeviceAddress(t->device, &address_info));
    vkmm_test_buffer_destroy(t, &b);
}

/* A 1.3 driver gives every core entry point, also those of graphics work
 * vkmm has no queue for: calling one never crashes, the command says why
 * and records nothing; render passes and framebuffers are plain objects.
 * Without the validation layer (it answers every core command with its
 * own entry point, and would report these calls). */
static void test_device_proc_addr_graphics_entry_points(void **state)
{
    (void)state;
    const struct vkmm_test_options options = { .no_validation = true };
    struct vkmm_test *t = vkmm_test_create(&options);
    static const char *const graphics[] = {
        "vkCmdDraw",           "vkCmdDrawIndexed",          "vkCmdDrawIndirectCount", "vkCmdBeginRenderPass",
        "vkCmdBeginRendering", "vkCmdEndRenderPass2",       "vkCmdSetViewport",       "vkCmdSetScissorWithCount",
        "vkCmdBlitImage2",     "vkCmdResolveImage",         "vkCmdBindVertexBuffers", "vkCmdClearAttachments",
        "vkCmdBeginQuery",     "vkCmdSetDeviceMask",        "vkCreateGraphicsPipelines",
        "vkCreateRenderPass2", "vkCreateFramebuffer",       "vkGetRenderAreaGranularity",
        "vkQueueBindSparse",   "vkCreateSamplerYcbcrConversion", "vkGetDeviceGroupPeerMemoryFeatures",
    };
    for (size_t i = 0; i < sizeof(graphics) / sizeof(graphics[0]); i++) {
        if (!vkGetDeviceProcAddr(t->device, graphics[i]))
            fail_msg("vkGetDeviceProcAddr(%s) is NULL", graphics[i]);
    }
    assert_null(vkGetDeviceProcAddr(t->device, "vkNoSuchCommandVKMM"));
    assert_null(vkGetDeviceProcAddr(t->device, "vkCmdWriteBufferMarker2AMD")); /* its extension is not enabled */
    /* An alias of a core command, of an extension vkmm has but the device
     * was not created with: NULL too (the spec of vkGetDeviceProcAddr). */
    assert_null(vkGetDeviceProcAddr(t->device, "vkSignalSemaphoreKHR"));
    assert_non_null(vkGetDeviceProcAddr(t->device, "vkSignalSemaphore"));

    /* A draw in a command buffer: one message, and the buffer still runs. */
    VkCommandBuffer cmd = vkmm_test_begin(t);
    t->expected_errors = 2;
    vkCmdDraw(cmd, 3, 1, 0, 0);
    assert_int_equal(t->driver_errors, 1);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    VkGraphicsPipelineCreateInfo pipeline_info = { .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO };
    VkPipeline pipeline = (VkPipeline)(uintptr_t)0x1234;
    assert_int_not_equal(vkCreateGraphicsPipelines(t->device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &pipeline),
                         VK_SUCCESS);
    assert_true(pipeline == VK_NULL_HANDLE);
    assert_int_equal(t->driver_errors, 2);

    VkAttachmentDescription attachment = { .format = VK_FORMAT_R8G8B8A8_UNORM, .samples = VK_SAMPLE_COUNT_1_BIT,
                                           .finalLayout = VK_IMAGE_LAYOUT_GENERAL };
    VkSubpassDescription subpass = { .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS };
    VkRenderPassCreateInfo pass_info = { .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, .attachmentCount = 1,
                                         .pAttachments = &attachment, .subpassCount = 1, .pSubpasses = &subpass };
    VkRenderPass pass;
    VK_CHECK(vkCreateRenderPass(t->device, &pass_info, NULL, &pass));
    VkExtent2D granularity = { 0, 0 };
    vkGetRenderAreaGranularity(t->device, pass, &granularity);
    assert_true(granularity.width == 1 && granularity.height == 1);
    /* The required limits hold (the granularity is within them). */
    assert_true(t->properties.limits.maxFramebufferWidth >= 4096 && t->properties.limits.maxFramebufferHeight >= 4096);
    assert_true(t->properties.limits.maxFramebufferLayers >= 256);
    /* multiview (required of 1.1): a render pass with view masks, and the
     * required limits. */
    VkPhysicalDeviceVulkan11Properties v11 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES };
    VkPhysicalDeviceProperties2 properties2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &v11 };
    vkGetPhysicalDeviceProperties2(t->physical_device, &properties2);
    assert_true(v11.maxMultiviewViewCount >= 6 && v11.maxMultiviewInstanceIndex >= (1u << 27) - 1);
    const uint32_t view_mask = 0x3;
    VkRenderPassMultiviewCreateInfo multiview = { .sType = VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO,
                                                  .subpassCount = 1, .pViewMasks = &view_mask };
    pass_info.pNext = &multiview;
    VkRenderPass multiview_pass;
    VK_CHECK(vkCreateRenderPass(t->device, &pass_info, NULL, &multiview_pass));
    vkDestroyRenderPass(t->device, multiview_pass, NULL);
    VkFramebufferCreateInfo framebuffer_info = { .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                                 .flags = VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT, .renderPass = pass,
                                                 .attachmentCount = 0, .width = 4, .height = 4, .layers = 1 };
    VkFramebuffer framebuffer;
    VK_CHECK(vkCreateFramebuffer(t->device, &framebuffer_info, NULL, &framebuffer));
    vkDestroyFramebuffer(t->device, framebuffer, NULL);
    vkDestroyRenderPass(t->device, pass, NULL);
    vkmm_test_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_all_queues_exist_and_run, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_device_wait_idle_waits_for_work, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_supported_features_and_extensions, vkmm_test_setup,
                                        vkmm_test_teardown),
        cmocka_unit_test(test_unsupported_features_fail),
        cmocka_unit_test(test_unsupported_extension_fails),
        cmocka_unit_test_setup_teardown(test_device_proc_addr, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test(test_device_proc_addr_graphics_entry_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
