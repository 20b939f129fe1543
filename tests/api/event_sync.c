/* Events: host set/reset/status, device set/reset (both forms) observed
 * from the host, vkCmdWaitEvents blocked until the host sets the event
 * (with the host's writes made visible by it), vkCmdSetEvent2 /
 * vkCmdWaitEvents2 carrying a memory barrier between a fill and a copy,
 * vkCmdResetEvent2, and DEVICE_ONLY events.
 *
 * Work that must not run yet is released before any assertion, so a
 * failure never leaves the device blocked at teardown. */
#include <string.h>

#include "vkmm_test.h"

#define HOST_MEMORY (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
#define MS 1000000ull
#define SENTINEL 0x5EE75EE7u

static VkEvent create_event(struct vkmm_test *t, VkEventCreateFlags flags)
{
    VkEventCreateInfo info = { .sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO, .flags = flags };
    VkEvent event = VK_NULL_HANDLE;
    VK_CHECK(vkCreateEvent(t->device, &info, NULL, &event));
    return event;
}

static VkFence create_fence(struct vkmm_test *t)
{
    VkFenceCreateInfo info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence;
    VK_CHECK(vkCreateFence(t->device, &info, NULL, &fence));
    return fence;
}

static void submit(struct vkmm_test *t, VkQueue queue, VkCommandBuffer cmd, VkFence fence)
{
    VkSubmitInfo info = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd };
    VK_CHECK(vkQueueSubmit(queue, 1, &info, fence));
    (void)t;
}

static void set_words(void *p, uint32_t first, uint32_t count, uint32_t value)
{
    uint32_t *w = p;
    for (uint32_t i = first; i < first + count; i++)
        w[i] = value;
}

static void expect_words(const void *p, uint32_t first, uint32_t count, uint32_t value)
{
    const uint32_t *w = p;
    for (uint32_t i = first; i < first + count; i++) {
        if (w[i] != value)
            fail_msg("word %u is 0x%08x, expected 0x%08x", i, w[i], value);
    }
}

static VkMemoryBarrier2 transfer_to_transfer(void)
{
    return (VkMemoryBarrier2){
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
        .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
        .dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
    };
}

/* Host-side state changes and status. */
static void test_event_host_set_reset(void **state)
{
    struct vkmm_test *t = *state;
    VkEvent e = create_event(t, 0), other = create_event(t, 0);
    assert_int_equal(vkGetEventStatus(t->device, e), VK_EVENT_RESET);
    VK_CHECK(vkSetEvent(t->device, e));
    assert_int_equal(vkGetEventStatus(t->device, e), VK_EVENT_SET);
    assert_int_equal(vkGetEventStatus(t->device, other), VK_EVENT_RESET);
    VK_CHECK(vkSetEvent(t->device, e)); /* setting a set event keeps it set */
    assert_int_equal(vkGetEventStatus(t->device, e), VK_EVENT_SET);
    VK_CHECK(vkResetEvent(t->device, e));
    assert_int_equal(vkGetEventStatus(t->device, e), VK_EVENT_RESET);
    VK_CHECK(vkResetEvent(t->device, e));
    assert_int_equal(vkGetEventStatus(t->device, e), VK_EVENT_RESET);
    vkDestroyEvent(t->device, e, NULL);
    vkDestroyEvent(t->device, other, NULL);
    vkDestroyEvent(t->device, VK_NULL_HANDLE, NULL);
}

/* vkCmdSetEvent / vkCmdResetEvent and their synchronization2 forms change
 * the status the host reads after the submission completes. */
static void test_event_device_set_reset(void **state)
{
    struct vkmm_test *t = *state;
    VkEvent set1 = create_event(t, 0), reset1 = create_event(t, 0);
    VkEvent set2 = create_event(t, 0), reset2 = create_event(t, 0);
    VkEvent toggled = create_event(t, 0);
    VK_CHECK(vkSetEvent(t->device, reset1));
    VK_CHECK(vkSetEvent(t->device, reset2));

    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdSetEvent(cmd, set1, VK_PIPELINE_STAGE_TRANSFER_BIT);
    vkCmdResetEvent(cmd, reset1, VK_PIPELINE_STAGE_TRANSFER_BIT);
    VkMemoryBarrier2 barrier = transfer_to_transfer();
    VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1,
                             .pMemoryBarriers = &barrier };
    vkCmdSetEvent2(cmd, set2, &dep);
    vkCmdResetEvent2(cmd, reset2, VK_PIPELINE_STAGE_2_TRANSFER_BIT);
    /* set, then reset in the same command buffer: ends reset */
    vkCmdSetEvent2(cmd, toggled, &dep);
    vkmm_test_full_barrier(cmd); /* order the reset after the set */
    vkCmdResetEvent2(cmd, toggled, VK_PIPELINE_STAGE_2_TRANSFER_BIT);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    assert_int_equal(vkGetEventStatus(t->device, set1), VK_EVENT_SET);
    assert_int_equal(vkGetEventStatus(t->device, reset1), VK_EVENT_RESET);
    assert_int_equal(vkGetEventStatus(t->device, set2), VK_EVENT_SET);
    assert_int_equal(vkGetEventStatus(t->device, reset2), VK_EVENT_RESET);
    assert_int_equal(vkGetEventStatus(t->device, toggled), VK_EVENT_RESET);

    /* and back the other way in a second submission */
    cmd = vkmm_test_begin(t);
    vkCmdResetEvent(cmd, set1, VK_PIPELINE_STAGE_TRANSFER_BIT);
    vkCmdSetEvent(cmd, reset1, VK_PIPELINE_STAGE_TRANSFER_BIT);
    vkmm_test_submit_and_wait(t, t->compute_queues[1], cmd);
    assert_int_equal(vkGetEventStatus(t->device, set1), VK_EVENT_RESET);
    assert_int_equal(vkGetEventStatus(t->device, reset1), VK_EVENT_SET);

    VkEvent all[5] = { set1, reset1, set2, reset2, toggled };
    for (uint32_t i = 0; i < 5; i++)
        vkDestroyEvent(t->device, all[i], NULL);
}

/* vkCmdWaitEvents on events the host sets after the submission: the work
 * after the wait does not run before vkSetEvent, and host writes made
 * before vkSetEvent are visible to it (srcStageMask HOST, HOST_WRITE ->
 * TRANSFER_READ).  With two events the work waits for both. */
static void test_wait_events_set_from_host(void **state)
{
    struct vkmm_test *t = *state;
    enum { WORDS = 256 };
    struct vkmm_test_buffer src = vkmm_test_buffer_create(t, 4 * WORDS, HOST_MEMORY);
    struct vkmm_test_buffer dst = vkmm_test_buffer_create(t, 4 * WORDS, HOST_MEMORY);
    set_words(src.mapped, 0, WORDS, 0x01D01D01u);
    set_words(dst.mapped, 0, WORDS, SENTINEL);
    VkEvent events[2] = { create_event(t, 0), create_event(t, 0) };
    VkFence fence = create_fence(t);

    VkCommandBuffer cmd = vkmm_test_begin(t);
    VkMemoryBarrier host_to_transfer = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_HOST_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
    };
    vkCmdWaitEvents(cmd, 2, events, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 1,
                    &host_to_transfer, 0, NULL, 0, NULL);
    VkBufferCopy whole = { .srcOffset = 0, .dstOffset = 0, .size = 4 * WORDS };
    vkCmdCopyBuffer(cmd, src.buffer, dst.buffer, 1, &whole);
    vkmm_test_full_barrier(cmd);
    VK_CHECK(vkEndCommandBuffer(cmd));
    submit(t, t->compute_queues[0], cmd, fence);

    VkResult before_any = vkWaitForFences(t->device, 1, &fence, VK_TRUE, 50 * MS);
    uint32_t dst_before_any = ((const uint32_t *)dst.mapped)[0];
    /* Written after submission, before the event: must be what is copied. */
    for (uint32_t i = 0; i < WORDS; i++)
        ((uint32_t *)src.mapped)[i] = 0xA0A00000u + i;
    VK_CHECK(vkSetEvent(t->device, events[0]));
    VkResult before_second = vkWaitForFences(t->device, 1, &fence, VK_TRUE, 30 * MS);
    uint32_t dst_before_second = ((const uint32_t *)dst.mapped)[0];
    VK_CHECK(vkSetEvent(t->device, events[1]));
    assert_int_equal(before_any, VK_TIMEOUT);
    assert_int_equal(dst_before_any, SENTINEL);
    assert_int_equal(before_second, VK_TIMEOUT);
    assert_int_equal(dst_before_second, SENTINEL);

    VK_CHECK(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX));
    const uint32_t *out = dst.mapped;
    for (uint32_t i = 0; i < WORDS; i++) {
        if (out[i] != 0xA0A00000u + i)
            fail_msg("word %u is 0x%08x: the copy did not see the host's write", i, out[i]);
    }
    assert_int_equal(vkGetEventStatus(t->device, events[0]), VK_EVENT_SET);

    vkFreeCommandBuffers(t->device, t->pool, 1, &cmd);
    vkDestroyFence(t->device, fence, NULL);
    vkDestroyEvent(t->device, events[0], NULL);
    vkDestroyEvent(t->device, events[1], NULL);
    vkmm_test_buffer_destroy(t, &src);
    vkmm_test_buffer_destroy(t, &dst);
}

/* An event already set by the host before submission lets the wait
 * through at once. */
static void test_wait_events_already_set(void **state)
{
    struct vkmm_test *t = *state;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 4 * 16, HOST_MEMORY);
    set_words(b.mapped, 0, 16, SENTINEL);
    VkEvent e = create_event(t, 0);
    VK_CHECK(vkSetEvent(t->device, e));
    VkCommandBuffer cmd = vkmm_test_begin(t);
    VkMemoryBarrier host_to_transfer = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_HOST_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
    };
    vkCmdWaitEvents(cmd, 1, &e, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 1, &host_to_transfer, 0,
                    NULL, 0, NULL);
    vkCmdFillBuffer(cmd, b.buffer, 0, VK_WHOLE_SIZE, 0x5E7B4F0Eu);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[2], cmd);
    expect_words(b.mapped, 0, 16, 0x5E7B4F0Eu);
    vkDestroyEvent(t->device, e, NULL);
    vkmm_test_buffer_destroy(t, &b);
}

/* vkCmdSetEvent2 / vkCmdWaitEvents2 with the same VkDependencyInfo carry
 * the memory dependency between a fill and a copy in one command buffer
 * (no pipeline barrier between them); vkCmdResetEvent2 resets it. */
static void test_set_wait_events2_dependency(void **state)
{
    struct vkmm_test *t = *state;
    enum { WORDS = 1024 };
    struct vkmm_test_buffer a = vkmm_test_buffer_create(t, 4 * WORDS, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 4 * WORDS, HOST_MEMORY);
    struct vkmm_test_buffer c = vkmm_test_buffer_create(t, 4 * WORDS, HOST_MEMORY);
    set_words(b.mapped, 0, WORDS, SENTINEL);
    set_words(c.mapped, 0, WORDS, SENTINEL);
    VkEvent e = create_event(t, 0);

    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdFillBuffer(cmd, a.buffer, 0, VK_WHOLE_SIZE, 0xE2E2E2E2u);
    VkMemoryBarrier2 barrier = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT,
        .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT,
        .dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT,
    };
    VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1,
                             .pMemoryBarriers = &barrier };
    vkCmdSetEvent2(cmd, e, &dep);
    vkCmdWaitEvents2(cmd, 1, &e, &dep);
    VkBufferCopy whole = { .srcOffset = 0, .dstOffset = 0, .size = 4 * WORDS };
    vkCmdCopyBuffer(cmd, a.buffer, b.buffer, 1, &whole);
    /* The reset must come after the wait has finished with the event. */
    VkMemoryBarrier2 after_wait = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
    };
    VkDependencyInfo after_wait_dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1,
                                        .pMemoryBarriers = &after_wait };
    vkCmdPipelineBarrier2(cmd, &after_wait_dep);
    vkCmdResetEvent2(cmd, e, VK_PIPELINE_STAGE_2_TRANSFER_BIT);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    expect_words(b.mapped, 0, WORDS, 0xE2E2E2E2u);
    assert_int_equal(vkGetEventStatus(t->device, e), VK_EVENT_RESET);

    /* The reset event is reused by a second command buffer, and the copy
     * sees the second fill. */
    cmd = vkmm_test_begin(t);
    vkmm_test_full_barrier(cmd);
    vkCmdFillBuffer(cmd, a.buffer, 0, VK_WHOLE_SIZE, 0xE3E3E3E3u);
    vkCmdSetEvent2(cmd, e, &dep);
    vkCmdWaitEvents2(cmd, 1, &e, &dep);
    vkCmdCopyBuffer(cmd, a.buffer, c.buffer, 1, &whole);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[1], cmd);
    expect_words(c.mapped, 0, WORDS, 0xE3E3E3E3u);
    assert_int_equal(vkGetEventStatus(t->device, e), VK_EVENT_SET);

    vkDestroyEvent(t->device, e, NULL);
    vkmm_test_buffer_destroy(t, &a);
    vkmm_test_buffer_destroy(t, &b);
    vkmm_test_buffer_destroy(t, &c);
}

/* DEVICE_ONLY events, set and waited for on the device only (their host
 * status may not be queried), several times in one command buffer and
 * across submissions, with a buffer barrier in the dependency. */
static void test_device_only_events(void **state)
{
    struct vkmm_test *t = *state;
    enum { WORDS = 512, ROUNDS = 4 };
    struct vkmm_test_buffer a = vkmm_test_buffer_create(t, 4 * WORDS, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 4 * WORDS * ROUNDS, HOST_MEMORY);
    set_words(b.mapped, 0, WORDS * ROUNDS, SENTINEL);
    VkEvent e = create_event(t, VK_EVENT_CREATE_DEVICE_ONLY_BIT);

    for (uint32_t submission = 0; submission < 2; submission++) {
        VkCommandBuffer cmd = vkmm_test_begin(t);
        for (uint32_t r = 0; r < ROUNDS; r++) {
            uint32_t value = 0xD0000000u + submission * 16 + r;
            /* orders the fill after the previous round's copy read a, and
             * this round's set after the previous round's reset */
            vkmm_test_full_barrier(cmd);
            vkCmdFillBuffer(cmd, a.buffer, 0, VK_WHOLE_SIZE, value);
            VkBufferMemoryBarrier2 barrier = {
                .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2,
                .srcStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                .dstStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                .dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT,
                .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .buffer = a.buffer,
                .offset = 0,
                .size = VK_WHOLE_SIZE,
            };
            VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .bufferMemoryBarrierCount = 1,
                                     .pBufferMemoryBarriers = &barrier };
            vkCmdSetEvent2(cmd, e, &dep);
            vkCmdWaitEvents2(cmd, 1, &e, &dep);
            VkBufferCopy copy = { .srcOffset = 0, .dstOffset = 4ull * WORDS * r, .size = 4 * WORDS };
            vkCmdCopyBuffer(cmd, a.buffer, b.buffer, 1, &copy);
            vkmm_test_full_barrier(cmd); /* the reset after the wait */
            vkCmdResetEvent2(cmd, e, VK_PIPELINE_STAGE_2_TRANSFER_BIT);
        }
        vkmm_test_full_barrier(cmd);
        vkmm_test_submit_and_wait(t, t->compute_queues[submission], cmd);
        for (uint32_t r = 0; r < ROUNDS; r++)
            expect_words(b.mapped, WORDS * r, WORDS, 0xD0000000u + submission * 16 + r);
    }
    vkDestroyEvent(t->device, e, NULL);
    vkmm_test_buffer_destroy(t, &a);
    vkmm_test_buffer_destroy(t, &b);
}

/* An event set by one submission and waited for (legacy form) by a later
 * submission on the same queue. */
static void test_event_across_submissions(void **state)
{
    struct vkmm_test *t = *state;
    struct vkmm_test_buffer a = vkmm_test_buffer_create(t, 4 * 64, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 4 * 64, HOST_MEMORY);
    set_words(b.mapped, 0, 64, SENTINEL);
    VkEvent e = create_event(t, 0);
    VkFence fence = create_fence(t);

    VkCommandBuffer first = vkmm_test_begin(t);
    vkCmdFillBuffer(first, a.buffer, 0, VK_WHOLE_SIZE, 0x1A2B3C4Du);
    vkCmdSetEvent(first, e, VK_PIPELINE_STAGE_TRANSFER_BIT);
    VK_CHECK(vkEndCommandBuffer(first));
    VkCommandBuffer second = vkmm_test_begin(t);
    VkMemoryBarrier barrier = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
    };
    vkCmdWaitEvents(second, 1, &e, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 1, &barrier, 0,
                    NULL, 0, NULL);
    VkBufferCopy whole = { .srcOffset = 0, .dstOffset = 0, .size = 4 * 64 };
    vkCmdCopyBuffer(second, a.buffer, b.buffer, 1, &whole);
    vkmm_test_full_barrier(second);
    VK_CHECK(vkEndCommandBuffer(second));
    VkCommandBuffer both[2] = { first, second };
    VkSubmitInfo batches[2] = {
        { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &both[0] },
        { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &both[1] },
    };
    VK_CHECK(vkQueueSubmit(t->compute_queues[0], 2, batches, fence));
    VK_CHECK(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX));
    expect_words(b.mapped, 0, 64, 0x1A2B3C4Du);
    assert_int_equal(vkGetEventStatus(t->device, e), VK_EVENT_SET);

    vkFreeCommandBuffers(t->device, t->pool, 2, both);
    vkDestroyFence(t->device, fence, NULL);
    vkDestroyEvent(t->device, e, NULL);
    vkmm_test_buffer_destroy(t, &a);
    vkmm_test_buffer_destroy(t, &b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_event_host_set_reset, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_event_device_set_reset, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_wait_events_set_from_host, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_wait_events_already_set, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_set_wait_events2_dependency, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_device_only_events, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_event_across_submissions, vkmm_test_setup, vkmm_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
