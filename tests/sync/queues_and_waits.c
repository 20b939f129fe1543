/* Hand-offs between queues and through synchronisation objects: two queues
 * without a semaphore, a timeline wait on a value lower than the producer
 * signals, and an event whose stage mask does not cover the producer. */
#include "sync_harness.h"

enum {
    CORRECT_SEMAPHORE,
    NO_SEMAPHORE,
    CORRECT_TIMELINE,
    TIMELINE_TOO_LOW,
    WAIT_STAGE_MISSES_CONSUMER,
    CORRECT_EVENT,
    EVENT_WRONG_STAGE,
    CORRECT_WAR,
    WAR_NO_SEMAPHORE,
    CORRECT_WAW,
    WAW_NO_SEMAPHORE,
    CORRECT_SEMAPHORE_BOTTOM_TOP,
    CORRECT_TIMELINE_BOTTOM_TOP,
    VARIANTS
};

static const struct sync_variant variants[VARIANTS] = {
    [CORRECT_SEMAPHORE] = { "correct_semaphore", NULL },
    [NO_SEMAPHORE] = { "bug_two_queues_without_semaphore", "VKMM-HAZARD-STALE-READ", 2 },
    [CORRECT_TIMELINE] = { "correct_timeline", NULL },
    [TIMELINE_TOO_LOW] = { "bug_timeline_wait_value_too_low", "VKMM-HAZARD-STALE-READ", 2 },
    [WAIT_STAGE_MISSES_CONSUMER] = { "bug_semaphore_wait_stage_misses_consumer", "VKMM-HAZARD-STALE-READ", 2 },
    [CORRECT_EVENT] = { "correct_event", NULL },
    [EVENT_WRONG_STAGE] = { "bug_event_stage_misses_producer", "VKMM-HAZARD-STALE-READ" },
    [CORRECT_WAR] = { "correct_write_after_read", NULL },
    [WAR_NO_SEMAPHORE] = { "bug_write_after_read_without_dependency", "VKMM-HAZARD-WRITE-AFTER-READ", 2 },
    [CORRECT_WAW] = { "correct_write_after_write", NULL },
    [WAW_NO_SEMAPHORE] = { "bug_write_after_write_without_dependency", "VKMM-HAZARD-WRITE-AFTER-WRITE", 2 },
    /* The CTS's multi-queue and implicit-timeline shape: signal stage
     * BOTTOM_OF_PIPE, wait stage TOP_OF_PIPE.  A semaphore's access scopes
     * are "all memory access performed by the device" in its
     * synchronization scopes, and those are every command here. */
    [CORRECT_SEMAPHORE_BOTTOM_TOP] = { "correct_semaphore_bottom_top", NULL },
    [CORRECT_TIMELINE_BOTTOM_TOP] = { "correct_timeline_bottom_top", NULL },
};

struct program_objects {
    struct vkmm_test_buffer source, readback;
    VkSemaphore semaphore;
};

static void submit(VkQueue queue, VkCommandBuffer cmd, const VkSemaphoreSubmitInfo *wait,
                   const VkSemaphoreSubmitInfo *signal)
{
    VkCommandBufferSubmitInfo command = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = cmd };
    VkSubmitInfo2 info = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
        .waitSemaphoreInfoCount = wait ? 1 : 0,
        .pWaitSemaphoreInfos = wait,
        .commandBufferInfoCount = 1,
        .pCommandBufferInfos = &command,
        .signalSemaphoreInfoCount = signal ? 1 : 0,
        .pSignalSemaphoreInfos = signal,
    };
    VK_CHECK(vkQueueSubmit2(queue, 1, &info, VK_NULL_HANDLE));
}

static void copy_to_readback(VkCommandBuffer cmd, struct program_objects *o)
{
    VkBufferCopy all = { 0, 0, SYNC_WORDS * 4 };
    vkCmdCopyBuffer(cmd, o->source.buffer, o->readback.buffer, 1, &all);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                 VK_ACCESS_2_HOST_READ_BIT);
}

static void two_queues(struct vkmm_test *t, int variant, struct program_objects *o)
{
    bool timeline = variant == CORRECT_TIMELINE || variant == TIMELINE_TOO_LOW || variant == CORRECT_TIMELINE_BOTTOM_TOP;
    bool bottom_top = variant == CORRECT_SEMAPHORE_BOTTOM_TOP || variant == CORRECT_TIMELINE_BOTTOM_TOP;
    VkSemaphoreTypeCreateInfo type = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                       .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE, .initialValue = 1 };
    VkSemaphoreCreateInfo info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = timeline ? &type : NULL };
    VK_CHECK(vkCreateSemaphore(t->device, &info, NULL, &o->semaphore));
    VkCommandBuffer producer = vkmm_test_begin(t), consumer = vkmm_test_begin(t);
    vkCmdFillBuffer(producer, o->source.buffer, 0, VK_WHOLE_SIZE, 0x5eed1234u);
    copy_to_readback(consumer, o);
    VK_CHECK(vkEndCommandBuffer(producer));
    VK_CHECK(vkEndCommandBuffer(consumer));
    VkSemaphoreSubmitInfo signal = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = o->semaphore,
                                     .value = 2, .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    VkSemaphoreSubmitInfo wait = signal;
    wait.stageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    if (variant == TIMELINE_TOO_LOW)
        wait.value = 1; /* already reached: the wait does not order anything */
    if (variant == WAIT_STAGE_MISSES_CONSUMER)
        wait.stageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT; /* the consumer is a copy: it need not wait */
    if (bottom_top) {
        signal.stageMask = VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT;
        wait.stageMask = VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT;
    }
    bool with_semaphore = variant != NO_SEMAPHORE;
    submit(t->compute_queues[0], producer, NULL, with_semaphore ? &signal : NULL);
    submit(sync_queue(t, 1), consumer, with_semaphore ? &wait : NULL, NULL);
    VK_CHECK(vkDeviceWaitIdle(t->device));
}

static void event_on_one_queue(struct vkmm_test *t, int variant, struct program_objects *o)
{
    VkEventCreateInfo info = { .sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO, .flags = VK_EVENT_CREATE_DEVICE_ONLY_BIT };
    VkEvent event;
    VK_CHECK(vkCreateEvent(t->device, &info, NULL, &event));
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdFillBuffer(cmd, o->source.buffer, 0, VK_WHOLE_SIZE, 0x5eed1234u);
    VkMemoryBarrier2 barrier = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = variant == CORRECT_EVENT ? VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT
                                                 : VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT,
        .dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT,
    };
    VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &barrier };
    vkCmdSetEvent2(cmd, event, &dep);
    vkCmdWaitEvents2(cmd, 1, &event, &dep);
    copy_to_readback(cmd, o);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    vkDestroyEvent(t->device, event, NULL);
}

/* Makes a command buffer's transfer writes available and visible to every
 * later transfer (what the end of a well-behaved submission often does). */
static void publish(VkCommandBuffer cmd)
{
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
}

/* Queue 0 reads (WAR) or writes (WAW) the source first in submission
 * order; queue 1 then overwrites it.  Only a semaphore orders the two. */
static void overwrite(struct vkmm_test *t, int variant, struct program_objects *o)
{
    bool war = variant == CORRECT_WAR || variant == WAR_NO_SEMAPHORE;
    bool ordered = variant == CORRECT_WAR || variant == CORRECT_WAW;
    VkSemaphoreCreateInfo info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO };
    VK_CHECK(vkCreateSemaphore(t->device, &info, NULL, &o->semaphore));
    VkCommandBuffer init = vkmm_test_begin(t), first = vkmm_test_begin(t), second = vkmm_test_begin(t);
    vkCmdFillBuffer(init, o->source.buffer, 0, VK_WHOLE_SIZE, war ? 0x5eed1234u : 0u);
    publish(init);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], init);
    if (war) {
        copy_to_readback(first, o); /* reads the source ... */
        vkCmdFillBuffer(second, o->source.buffer, 0, VK_WHOLE_SIZE, 0xdeadbeefu); /* ... which is overwritten after */
    } else {
        vkCmdFillBuffer(first, o->source.buffer, 0, VK_WHOLE_SIZE, 0xdeadbeefu);
        vkCmdFillBuffer(second, o->source.buffer, 0, VK_WHOLE_SIZE, 0x5eed1234u); /* the later write must win */
    }
    publish(first);
    publish(second);
    VK_CHECK(vkEndCommandBuffer(first));
    VK_CHECK(vkEndCommandBuffer(second));
    VkSemaphoreSubmitInfo signal = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = o->semaphore,
                                     .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    VkSemaphoreSubmitInfo wait = signal;
    wait.stageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
    submit(t->compute_queues[0], first, NULL, ordered ? &signal : NULL);
    submit(sync_queue(t, 1), second, ordered ? &wait : NULL, NULL);
    VK_CHECK(vkDeviceWaitIdle(t->device));
    if (!war) {
        VkCommandBuffer check = vkmm_test_begin(t);
        copy_to_readback(check, o);
        vkmm_test_submit_and_wait(t, t->compute_queues[0], check);
    }
}

static void program(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    struct program_objects o = { 0 };
    /* CONCURRENT is not needed: both queues are of family 0. */
    o.source = vkmm_test_buffer_create(t, SYNC_WORDS * 4, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    o.readback = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    if (variant == CORRECT_EVENT || variant == EVENT_WRONG_STAGE)
        event_on_one_queue(t, variant, &o);
    else if (variant >= CORRECT_WAR && variant <= WAW_NO_SEMAPHORE)
        overwrite(t, variant, &o);
    else
        two_queues(t, variant, &o);
    memcpy(result, o.readback.mapped, SYNC_WORDS * 4);
    if (o.semaphore)
        vkDestroySemaphore(t->device, o.semaphore, NULL);
    vkmm_test_buffer_destroy(t, &o.source);
    vkmm_test_buffer_destroy(t, &o.readback);
}

static void run(int variant)
{
    uint32_t expected[SYNC_WORDS];
    for (int i = 0; i < SYNC_WORDS; i++)
        expected[i] = 0x5eed1234u;
    sync_check(program, variant, &variants[variant], expected);
}

static void correct_semaphore(void **state) { (void)state; run(CORRECT_SEMAPHORE); }
static void bug_two_queues_without_semaphore(void **state) { (void)state; run(NO_SEMAPHORE); }
static void correct_timeline(void **state) { (void)state; run(CORRECT_TIMELINE); }
static void bug_timeline_wait_value_too_low(void **state) { (void)state; run(TIMELINE_TOO_LOW); }
static void bug_semaphore_wait_stage_misses_consumer(void **state) { (void)state; run(WAIT_STAGE_MISSES_CONSUMER); }
static void correct_event(void **state) { (void)state; run(CORRECT_EVENT); }
static void bug_event_stage_misses_producer(void **state) { (void)state; run(EVENT_WRONG_STAGE); }
static void correct_write_after_read(void **state) { (void)state; run(CORRECT_WAR); }
static void bug_write_after_read_without_dependency(void **state) { (void)state; run(WAR_NO_SEMAPHORE); }
static void correct_write_after_write(void **state) { (void)state; run(CORRECT_WAW); }
static void bug_write_after_write_without_dependency(void **state) { (void)state; run(WAW_NO_SEMAPHORE); }
static void correct_semaphore_bottom_top(void **state) { (void)state; run(CORRECT_SEMAPHORE_BOTTOM_TOP); }
static void correct_timeline_bottom_top(void **state) { (void)state; run(CORRECT_TIMELINE_BOTTOM_TOP); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct_semaphore),
        cmocka_unit_test(bug_two_queues_without_semaphore),
        cmocka_unit_test(correct_timeline),
        cmocka_unit_test(bug_timeline_wait_value_too_low),
        cmocka_unit_test(bug_semaphore_wait_stage_misses_consumer),
        cmocka_unit_test(correct_event),
        cmocka_unit_test(bug_event_stage_misses_producer),
        cmocka_unit_test(correct_write_after_read),
        cmocka_unit_test(bug_write_after_read_without_dependency),
        cmocka_unit_test(correct_write_after_write),
        cmocka_unit_test(bug_write_after_write_without_dependency),
        cmocka_unit_test(correct_semaphore_bottom_top),
        cmocka_unit_test(correct_timeline_bottom_top),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
