/* Strict mode's scheduler: device work runs when the host observes it, in
 * an order that depends only on the API calls and the seed.  Two queues
 * writing the same bytes without a semaphore between them race; with the
 * default seed strict mode runs the later submission first, so the earlier
 * one's write lands last - every time.  (A deliberately racy program: it
 * runs without the validation layer, whose synchronization validation would
 * rightly object.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

static bool strict_mode(void)
{
    const char *mode = getenv("VKMM_MODE");
    return !mode || strcmp(mode, "fast") != 0;
}

static void fill_on(struct vkmm_test *t, VkQueue queue, VkBuffer buffer, uint32_t value)
{
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdFillBuffer(cmd, buffer, 0, VK_WHOLE_SIZE, value);
    VkMemoryBarrier2 to_host = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
        .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
        .dstAccessMask = VK_ACCESS_2_HOST_READ_BIT,
    };
    VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &to_host };
    vkCmdPipelineBarrier2(cmd, &dep);
    VK_CHECK(vkEndCommandBuffer(cmd));
    VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd };
    VK_CHECK(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
}

static void test_scheduler_unsynchronised_queues_run_latest_first(void **state)
{
    (void)state;
    struct vkmm_test_options options = { .no_validation = true };
    for (int round = 0; round < 3; round++) {
        struct vkmm_test *t = vkmm_test_create(&options);
        struct vkmm_test_buffer b = vkmm_test_buffer_create(
            t, 4096, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
        fill_on(t, t->compute_queues[0], b.buffer, 0x11111111u);
        fill_on(t, t->compute_queues[1], b.buffer, 0x22222222u);
        VK_CHECK(vkDeviceWaitIdle(t->device));
        const uint32_t *words = b.mapped;
        uint32_t first = words[0];
        if (strict_mode()) {
            for (int i = 1; i < 1024; i++)
                assert_int_equal(words[i], first); /* one fill ran whole, then the other */
            assert_int_equal(first, 0x11111111u); /* the earlier submission ran last ... */
            assert_true(t->hazard_count > 0);     /* ... and strict mode says so */
            assert_string_equal(t->hazards[0], "VKMM-HAZARD-WRITE-AFTER-WRITE");
        }
        else {
            /* Fast mode runs the queues on two threads at once: the race may
             * mix the fills, word by word. */
            for (int i = 0; i < 1024; i++)
                assert_true(words[i] == 0x11111111u || words[i] == 0x22222222u);
        }
        vkmm_test_buffer_destroy(t, &b);
        vkmm_test_destroy(t);
    }
}

static void test_scheduler_semaphore_orders_queues_in_every_mode(void **state)
{
    struct vkmm_test *t = *state;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(
        t, 4096, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    VkSemaphoreCreateInfo info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO };
    VkSemaphore semaphore;
    VK_CHECK(vkCreateSemaphore(t->device, &info, NULL, &semaphore));
    VkCommandBuffer first = vkmm_test_begin(t), second = vkmm_test_begin(t);
    vkCmdFillBuffer(first, b.buffer, 0, VK_WHOLE_SIZE, 0x11111111u);
    vkCmdFillBuffer(second, b.buffer, 0, VK_WHOLE_SIZE, 0x22222222u);
    VkMemoryBarrier2 to_host = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
        .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
        .dstAccessMask = VK_ACCESS_2_HOST_READ_BIT,
    };
    VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &to_host };
    vkCmdPipelineBarrier2(second, &dep);
    VK_CHECK(vkEndCommandBuffer(first));
    VK_CHECK(vkEndCommandBuffer(second));
    VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkSubmitInfo signal = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &first,
                            .signalSemaphoreCount = 1, .pSignalSemaphores = &semaphore };
    VkSubmitInfo wait = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .waitSemaphoreCount = 1, .pWaitSemaphores = &semaphore,
                          .pWaitDstStageMask = &wait_stage, .commandBufferCount = 1, .pCommandBuffers = &second };
    VK_CHECK(vkQueueSubmit(t->compute_queues[0], 1, &signal, VK_NULL_HANDLE));
    VK_CHECK(vkQueueSubmit(t->compute_queues[1], 1, &wait, VK_NULL_HANDLE));
    VK_CHECK(vkDeviceWaitIdle(t->device));
    assert_int_equal(((uint32_t *)b.mapped)[17], 0x22222222u); /* the semaphore decides, whatever the mode */
    VkCommandBuffer used[2] = { first, second };
    vkFreeCommandBuffers(t->device, t->pool, 2, used);
    vkDestroySemaphore(t->device, semaphore, NULL);
    vkmm_test_buffer_destroy(t, &b);
}

static void set_name(struct vkmm_test *t, VkObjectType type, uint64_t handle, const char *name)
{
    PFN_vkSetDebugUtilsObjectNameEXT set =
        (PFN_vkSetDebugUtilsObjectNameEXT)vkGetDeviceProcAddr(t->device, "vkSetDebugUtilsObjectNameEXT");
    VkDebugUtilsObjectNameInfoEXT info = { .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                           .objectType = type, .objectHandle = handle, .pObjectName = name };
    VK_CHECK(set(t->device, &info));
}

/* fill_on with names: the command buffer's debug name, a label around the
 * fill, and a queue label around the submission. */
static void fill_named(struct vkmm_test *t, VkQueue queue, VkBuffer buffer, uint32_t value)
{
    PFN_vkCmdBeginDebugUtilsLabelEXT begin =
        (PFN_vkCmdBeginDebugUtilsLabelEXT)vkGetDeviceProcAddr(t->device, "vkCmdBeginDebugUtilsLabelEXT");
    PFN_vkCmdEndDebugUtilsLabelEXT end =
        (PFN_vkCmdEndDebugUtilsLabelEXT)vkGetDeviceProcAddr(t->device, "vkCmdEndDebugUtilsLabelEXT");
    PFN_vkQueueBeginDebugUtilsLabelEXT queue_begin =
        (PFN_vkQueueBeginDebugUtilsLabelEXT)vkGetDeviceProcAddr(t->device, "vkQueueBeginDebugUtilsLabelEXT");
    PFN_vkQueueEndDebugUtilsLabelEXT queue_end =
        (PFN_vkQueueEndDebugUtilsLabelEXT)vkGetDeviceProcAddr(t->device, "vkQueueEndDebugUtilsLabelEXT");
    VkCommandBuffer cmd = vkmm_test_begin(t);
    set_name(t, VK_OBJECT_TYPE_COMMAND_BUFFER, (uint64_t)(uintptr_t)cmd, "uploader");
    VkDebugUtilsLabelEXT label = { .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = "clear particles" };
    begin(cmd, &label);
    vkCmdFillBuffer(cmd, buffer, 0, VK_WHOLE_SIZE, value);
    end(cmd);
    VK_CHECK(vkEndCommandBuffer(cmd));
    VkDebugUtilsLabelEXT frame = { .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = "frame 7" };
    queue_begin(queue, &frame);
    VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd };
    VK_CHECK(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
    queue_end(queue);
}

/* A report names the bytes as the application knows them: the buffers
 * bound over them (bind order, debug name, offset inside the buffer) and
 * the memory (its debug name), in the message and in the JSON line; and
 * the commands by their command buffer, label and queue label. */
static void test_report_names_buffers_and_memory(void **state)
{
    (void)state;
    if (!strict_mode())
        skip();
    const char *path = "/tmp/vkmm-report-names.jsonl";
    setenv("VKMM_REPORT", path, 1);
    struct vkmm_test_options options = { .no_validation = true };
    struct vkmm_test *t = vkmm_test_create(&options);
    unsetenv("VKMM_REPORT");
    VkBuffer buffers[2];
    for (int i = 0; i < 2; i++) {
        VkBufferCreateInfo info = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 1024,
                                    .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT };
        VK_CHECK(vkCreateBuffer(t->device, &info, NULL, &buffers[i]));
    }
    VkMemoryAllocateInfo allocate = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = 2048,
        .memoryTypeIndex = vkmm_test_find_memory_type(t, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0),
    };
    VkDeviceMemory memory;
    VK_CHECK(vkAllocateMemory(t->device, &allocate, NULL, &memory));
    VK_CHECK(vkBindBufferMemory(t->device, buffers[0], memory, 0));
    VK_CHECK(vkBindBufferMemory(t->device, buffers[1], memory, 1024));
    set_name(t, VK_OBJECT_TYPE_DEVICE_MEMORY, (uint64_t)(uintptr_t)memory, "arena");
    set_name(t, VK_OBJECT_TYPE_BUFFER, (uint64_t)(uintptr_t)buffers[1], "particles");
    fill_named(t, t->compute_queues[0], buffers[1], 1);
    fill_on(t, t->compute_queues[1], buffers[1], 2);
    VK_CHECK(vkDeviceWaitIdle(t->device));
    assert_true(t->hazard_count > 0);
    assert_non_null(strstr(t->first_hazard_message, "buffer #2 'particles' bytes [0, +1024) in memory #1 'arena' "
                                                     "bytes [1024, +1024)"));
    assert_non_null(strstr(t->first_hazard_message, "command buffer 'uploader', label 'clear particles', queue label "
                                                     "'frame 7'"));
    for (int i = 0; i < 2; i++)
        vkDestroyBuffer(t->device, buffers[i], NULL);
    vkFreeMemory(t->device, memory, NULL);
    vkmm_test_destroy(t);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[2048] = { 0 };
    assert_non_null(fgets(line, sizeof(line), f));
    fclose(f);
    remove(path);
    assert_non_null(strstr(line, "\"memory_name\":\"arena\""));
    assert_non_null(strstr(line, "\"buffers\":[{\"buffer\":2,\"name\":\"particles\",\"offset\":0}]"));
    assert_non_null(strstr(line, "\"where\":\"command buffer 'uploader', label 'clear particles', queue label "
                                 "'frame 7'\""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scheduler_unsynchronised_queues_run_latest_first),
        cmocka_unit_test(test_report_names_buffers_and_memory),
        cmocka_unit_test_setup_teardown(test_scheduler_semaphore_orders_queues_in_every_mode, vkmm_test_setup,
                                        vkmm_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
