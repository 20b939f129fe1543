/* A host read after the fence wait, with no HOST / HOST_READ dependency
 * after the device write: the spec requires one, many frameworks rely on
 * the wait alone.  Strict mode by default gives the stale bytes
 * and reports VKMM-HAZARD-HOST-READ-NO-DEPENDENCY (severity INFO: a step
 * below the other hazards); VKMM_HOST_READ=after-wait accepts the common
 * reading: the right bytes and no report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

enum { WORDS = 256 };

static bool strict_mode(void)
{
    const char *mode = getenv("VKMM_MODE");
    return !mode || strcmp(mode, "fast") != 0;
}

/* Fills a host-coherent buffer on the device, waits for the fence and
 * reads it; returns how many words hold the fill. */
static uint32_t fill_then_read(struct vkmm_test *t)
{
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, WORDS * 4, coherent);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdFillBuffer(cmd, b.buffer, 0, VK_WHOLE_SIZE, 0x5eed1234u);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd); /* fence wait; no HOST_READ barrier */
    uint32_t filled = 0;
    for (uint32_t i = 0; i < WORDS; i++)
        filled += ((const uint32_t *)b.mapped)[i] == 0x5eed1234u;
    vkmm_test_buffer_destroy(t, &b);
    return filled;
}

static void test_host_read_without_dependency_is_reported_apart(void **state)
{
    (void)state;
    if (!strict_mode())
        skip();
    unsetenv("VKMM_HOST_READ");
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    assert_true(fill_then_read(t) < WORDS);
    uint32_t hazards = t->hazard_count;
    char first[48];
    snprintf(first, sizeof(first), "%s", t->hazards[0]);
    vkmm_test_destroy(t);
    assert_int_equal(hazards, 1);
    assert_string_equal(first, "VKMM-HAZARD-HOST-READ-NO-DEPENDENCY");
}

static void test_host_read_after_wait_knob_accepts_the_common_reading(void **state)
{
    (void)state;
    setenv("VKMM_HOST_READ", "after-wait", 1);
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    uint32_t filled = fill_then_read(t);
    uint32_t hazards = t->hazard_count;
    vkmm_test_destroy(t);
    unsetenv("VKMM_HOST_READ");
    assert_int_equal(filled, WORDS);
    assert_int_equal(hazards, 0);
}

/* The CTS's device_host shape: work submitted up front waits for a timeline
 * value; the host writes its input, then signals the value.  The spec gives
 * vkSignalSemaphore no access scope, so the write needs a HOST / HOST_WRITE
 * dependency to reach the device; VKMM_HOST_WRITE=before-signal accepts the
 * common reading. */
static uint32_t host_writes_then_signals(struct vkmm_test *t)
{
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct vkmm_test_buffer input = vkmm_test_buffer_create(t, WORDS * 4, coherent);
    struct vkmm_test_buffer output = vkmm_test_buffer_create(t, WORDS * 4, coherent);
    memset(input.mapped, 0, WORDS * 4);
    VkSemaphoreTypeCreateInfo type = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                       .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE };
    VkSemaphoreCreateInfo semaphore_info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type };
    VkSemaphore semaphore;
    VK_CHECK(vkCreateSemaphore(t->device, &semaphore_info, NULL, &semaphore));
    VkCommandBuffer cmd = vkmm_test_begin(t);
    VkBufferCopy all = { 0, 0, WORDS * 4 };
    vkCmdCopyBuffer(cmd, input.buffer, output.buffer, 1, &all);
    vkmm_test_full_barrier(cmd);
    VK_CHECK(vkEndCommandBuffer(cmd));
    VkSemaphoreSubmitInfo wait = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = semaphore,
                                   .value = 1, .stageMask = VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT };
    VkCommandBufferSubmitInfo command = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = cmd };
    VkSubmitInfo2 submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .waitSemaphoreInfoCount = 1,
                             .pWaitSemaphoreInfos = &wait, .commandBufferInfoCount = 1, .pCommandBufferInfos = &command };
    VK_CHECK(vkQueueSubmit2(t->compute_queues[0], 1, &submit, VK_NULL_HANDLE));
    for (uint32_t i = 0; i < WORDS; i++)
        ((uint32_t *)input.mapped)[i] = 0xabc00000u + i;
    VkSemaphoreSignalInfo signal = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = semaphore,
                                     .value = 1 };
    VK_CHECK(vkSignalSemaphore(t->device, &signal));
    VK_CHECK(vkQueueWaitIdle(t->compute_queues[0]));
    uint32_t copied = 0;
    for (uint32_t i = 0; i < WORDS; i++)
        copied += ((const uint32_t *)output.mapped)[i] == 0xabc00000u + i;
    vkDestroySemaphore(t->device, semaphore, NULL);
    vkFreeCommandBuffers(t->device, t->pool, 1, &cmd);
    vkmm_test_buffer_destroy(t, &input);
    vkmm_test_buffer_destroy(t, &output);
    return copied;
}

static void test_host_write_before_signal_knob(void **state)
{
    (void)state;
    if (!strict_mode())
        skip();
    unsetenv("VKMM_HOST_WRITE");
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    uint32_t spec = host_writes_then_signals(t);
    uint32_t hazards = t->hazard_count;
    vkmm_test_destroy(t);
    assert_true(spec < WORDS); /* by the letter of the spec: stale, and reported */
    assert_true(hazards >= 1);
    setenv("VKMM_HOST_WRITE", "before-signal", 1);
    setenv("VKMM_HOST_READ", "after-wait", 1);
    t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    uint32_t common = host_writes_then_signals(t);
    hazards = t->hazard_count;
    vkmm_test_destroy(t);
    unsetenv("VKMM_HOST_WRITE");
    unsetenv("VKMM_HOST_READ");
    assert_int_equal(common, WORDS);
    assert_int_equal(hazards, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_read_without_dependency_is_reported_apart),
        cmocka_unit_test(test_host_read_after_wait_knob_accepts_the_common_reading),
        cmocka_unit_test(test_host_write_before_signal_knob),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
