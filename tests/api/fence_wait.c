/* Fences: initial state, vkGetFenceStatus, vkResetFences, vkWaitForFences
 * (all/any, zero and finite timeouts, waking from another thread), a
 * vkQueueSubmit with no batches, vkQueueWaitIdle and vkDeviceWaitIdle.
 *
 * Work that must not finish yet is held back by a timeline semaphore wait
 * or a vkCmdWaitEvents that the host releases later; tests release it
 * before asserting, so a failure never leaves the device blocked at
 * teardown. */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "vkmm_test.h"

#define HOST_MEMORY (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
#define MS 1000000ull
#define SENTINEL 0x5EE75EE7u

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(uint64_t ms)
{
    struct timespec ts = { .tv_sec = (time_t)(ms / 1000), .tv_nsec = (long)(ms % 1000 * MS) };
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static VkFence create_fence(struct vkmm_test *t, bool signaled)
{
    VkFenceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
        .flags = signaled ? VK_FENCE_CREATE_SIGNALED_BIT : 0,
    };
    VkFence fence = VK_NULL_HANDLE;
    VK_CHECK(vkCreateFence(t->device, &info, NULL, &fence));
    return fence;
}

static VkSemaphore create_timeline(struct vkmm_test *t, uint64_t initial)
{
    VkSemaphoreTypeCreateInfo type = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
        .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
        .initialValue = initial,
    };
    VkSemaphoreCreateInfo info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type };
    VkSemaphore semaphore;
    VK_CHECK(vkCreateSemaphore(t->device, &info, NULL, &semaphore));
    return semaphore;
}

static void host_signal(struct vkmm_test *t, VkSemaphore semaphore, uint64_t value)
{
    VkSemaphoreSignalInfo info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
        .semaphore = semaphore,
        .value = value,
    };
    VK_CHECK(vkSignalSemaphore(t->device, &info));
}

/* A recorded primary command buffer that fills `words` words of `buffer`
 * at `first_word` with `value` (and makes them visible to the host). */
static VkCommandBuffer record_fill(struct vkmm_test *t, VkBuffer buffer, uint32_t first_word, uint32_t words,
                                   uint32_t value)
{
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_full_barrier(cmd);
    vkCmdFillBuffer(cmd, buffer, first_word * 4ull, words * 4ull, value);
    vkmm_test_full_barrier(cmd);
    VK_CHECK(vkEndCommandBuffer(cmd));
    return cmd;
}

/* Submits `cmd` (may be VK_NULL_HANDLE) to wait for `gate` >= `value`
 * (gate may be VK_NULL_HANDLE) and signal `fence` (may be VK_NULL_HANDLE). */
static void submit_gated(VkQueue queue, VkCommandBuffer cmd, VkSemaphore gate, uint64_t value, VkFence fence)
{
    VkTimelineSemaphoreSubmitInfo timeline = {
        .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
        .waitSemaphoreValueCount = 1,
        .pWaitSemaphoreValues = &value,
    };
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .pNext = gate ? &timeline : NULL,
        .waitSemaphoreCount = gate ? 1 : 0,
        .pWaitSemaphores = &gate,
        .pWaitDstStageMask = &stage,
        .commandBufferCount = cmd ? 1 : 0,
        .pCommandBuffers = &cmd,
    };
    VK_CHECK(vkQueueSubmit(queue, 1, &submit, fence));
}

static void expect_words(const void *p, uint32_t first, uint32_t count, uint32_t value)
{
    const uint32_t *w = p;
    for (uint32_t i = first; i < first + count; i++) {
        if (w[i] != value)
            fail_msg("word %u is 0x%08x, expected 0x%08x", i, w[i], value);
    }
}

/* Creation state, status, reset, and zero-timeout waits on host-only
 * fences. */
static void test_fence_status_and_reset(void **state)
{
    struct vkmm_test *t = *state;
    VkFence on = create_fence(t, true), off = create_fence(t, false);
    assert_int_equal(vkGetFenceStatus(t->device, on), VK_SUCCESS);
    assert_int_equal(vkGetFenceStatus(t->device, off), VK_NOT_READY);
    assert_int_equal(vkWaitForFences(t->device, 1, &on, VK_TRUE, 0), VK_SUCCESS);
    assert_int_equal(vkWaitForFences(t->device, 1, &off, VK_TRUE, 0), VK_TIMEOUT);
    assert_int_equal(vkWaitForFences(t->device, 1, &on, VK_TRUE, UINT64_MAX), VK_SUCCESS);

    VkFence both[2] = { on, off };
    VK_CHECK(vkResetFences(t->device, 2, both)); /* resetting an unsignaled fence is fine */
    assert_int_equal(vkGetFenceStatus(t->device, on), VK_NOT_READY);
    assert_int_equal(vkGetFenceStatus(t->device, off), VK_NOT_READY);
    assert_int_equal(vkWaitForFences(t->device, 2, both, VK_FALSE, 0), VK_TIMEOUT);

    /* A queue signals it; status and waits see it; reset again. */
    for (uint32_t round = 0; round < 5; round++) {
        VK_CHECK(vkQueueSubmit(t->compute_queues[round % 4], 0, NULL, on));
        assert_int_equal(vkWaitForFences(t->device, 1, &on, VK_TRUE, UINT64_MAX), VK_SUCCESS);
        assert_int_equal(vkGetFenceStatus(t->device, on), VK_SUCCESS);
        assert_int_equal(vkGetFenceStatus(t->device, off), VK_NOT_READY);
        VK_CHECK(vkResetFences(t->device, 1, &on));
        assert_int_equal(vkGetFenceStatus(t->device, on), VK_NOT_READY);
    }
    vkDestroyFence(t->device, on, NULL);
    vkDestroyFence(t->device, off, NULL);
    vkDestroyFence(t->device, VK_NULL_HANDLE, NULL);
}

/* A finite timeout on a fence nothing will signal returns VK_TIMEOUT, and
 * not before the timeout has passed. */
static void test_fence_timeout_elapses(void **state)
{
    struct vkmm_test *t = *state;
    VkFence fence = create_fence(t, false), signaled = create_fence(t, true);
    static const uint64_t timeouts_ms[] = { 1, 20, 45 };
    for (uint32_t i = 0; i < 3; i++) {
        uint64_t start = now_ns();
        VkResult result = vkWaitForFences(t->device, 1, &fence, VK_TRUE, timeouts_ms[i] * MS);
        uint64_t elapsed = now_ns() - start;
        assert_int_equal(result, VK_TIMEOUT);
        if (elapsed < timeouts_ms[i] * MS)
            fail_msg("a %llu ms timeout returned after %llu us", (unsigned long long)timeouts_ms[i],
                     (unsigned long long)(elapsed / 1000));
        assert_true(elapsed < 5000 * MS);
    }
    /* wait-all with one unsignaled fence times out too */
    VkFence pair[2] = { signaled, fence };
    uint64_t start = now_ns();
    assert_int_equal(vkWaitForFences(t->device, 2, pair, VK_TRUE, 20 * MS), VK_TIMEOUT);
    assert_true(now_ns() - start >= 20 * MS);
    vkDestroyFence(t->device, fence, NULL);
    vkDestroyFence(t->device, signaled, NULL);
}

/* waitAll against wait-any, with one fence held back by a semaphore. */
static void test_wait_all_and_any(void **state)
{
    struct vkmm_test *t = *state;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 4 * 64, HOST_MEMORY);
    memset(b.mapped, 0, 4 * 64);
    VkSemaphore gate = create_timeline(t, 0);
    VkFence fast = create_fence(t, false), slow = create_fence(t, false), never = create_fence(t, false);
    VkCommandBuffer cmd_fast = record_fill(t, b.buffer, 0, 32, 0xFA57FA57);
    VkCommandBuffer cmd_slow = record_fill(t, b.buffer, 32, 32, 0x5104510F);
    submit_gated(t->compute_queues[1], cmd_slow, gate, 1, slow);
    submit_gated(t->compute_queues[0], cmd_fast, VK_NULL_HANDLE, 0, fast);

    VkFence fast_slow[2] = { fast, slow };
    VkFence slow_never[2] = { slow, never };
    VkResult any = vkWaitForFences(t->device, 2, fast_slow, VK_FALSE, 10000 * MS);
    VkResult fast_status = vkGetFenceStatus(t->device, fast);
    VkResult all = vkWaitForFences(t->device, 2, fast_slow, VK_TRUE, 30 * MS);
    VkResult slow_status = vkGetFenceStatus(t->device, slow);
    VkResult any_held = vkWaitForFences(t->device, 2, slow_never, VK_FALSE, 0);
    uint32_t held_word = ((const uint32_t *)b.mapped)[32];
    host_signal(t, gate, 1);
    assert_int_equal(any, VK_SUCCESS);
    assert_int_equal(fast_status, VK_SUCCESS);
    assert_int_equal(all, VK_TIMEOUT);
    assert_int_equal(slow_status, VK_NOT_READY);
    assert_int_equal(any_held, VK_TIMEOUT);
    assert_int_equal(held_word, 0);

    assert_int_equal(vkWaitForFences(t->device, 2, fast_slow, VK_TRUE, UINT64_MAX), VK_SUCCESS);
    assert_int_equal(vkWaitForFences(t->device, 2, slow_never, VK_FALSE, 0), VK_SUCCESS);
    assert_int_equal(vkWaitForFences(t->device, 2, slow_never, VK_TRUE, 0), VK_TIMEOUT);
    assert_int_equal(vkGetFenceStatus(t->device, never), VK_NOT_READY);
    expect_words(b.mapped, 0, 32, 0xFA57FA57);
    expect_words(b.mapped, 32, 32, 0x5104510F);

    VkCommandBuffer cmds[2] = { cmd_fast, cmd_slow };
    vkFreeCommandBuffers(t->device, t->pool, 2, cmds);
    vkDestroyFence(t->device, fast, NULL);
    vkDestroyFence(t->device, slow, NULL);
    vkDestroyFence(t->device, never, NULL);
    vkDestroySemaphore(t->device, gate, NULL);
    vkmm_test_buffer_destroy(t, &b);
}

static VkEvent create_event(struct vkmm_test *t)
{
    VkEventCreateInfo info = { .sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO };
    VkEvent event;
    VK_CHECK(vkCreateEvent(t->device, &info, NULL, &event));
    return event;
}

/* Like record_fill, but the fill first waits for `event`, which the host
 * sets (srcStageMask HOST). */
static VkCommandBuffer record_event_gated_fill(struct vkmm_test *t, VkEvent event, VkBuffer buffer,
                                               uint32_t first_word, uint32_t words, uint32_t value)
{
    VkCommandBuffer cmd = vkmm_test_begin(t);
    VkMemoryBarrier host_to_transfer = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_HOST_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
    };
    vkCmdWaitEvents(cmd, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 1, &host_to_transfer,
                    0, NULL, 0, NULL);
    vkCmdFillBuffer(cmd, buffer, first_word * 4ull, words * 4ull, value);
    vkmm_test_full_barrier(cmd);
    VK_CHECK(vkEndCommandBuffer(cmd));
    return cmd;
}

/* Another thread releases blocked work with vkSetEvent.  (Not with
 * vkSignalSemaphore: the validation layer 1.3.239 then times out waiting
 * for its own semaphore state when the waiting thread wins the race for
 * its lock; semaphore_timeline.c covers that path without the layer.) */
struct delayed_set {
    struct vkmm_test *t;
    VkEvent event;
    uint64_t delay_ms;
    VkResult result;
};

static void *set_event_later(void *arg)
{
    struct delayed_set *d = arg;
    sleep_ms(d->delay_ms);
    d->result = vkSetEvent(d->t->device, d->event);
    return NULL;
}

/* A blocked vkWaitForFences (infinite and finite timeout, one fence and
 * several) wakes when another thread lets the fence's work run. */
static void test_wait_wakes_when_other_thread_releases(void **state)
{
    struct vkmm_test *t = *state;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 4 * 3, HOST_MEMORY);
    memset(b.mapped, 0, 4 * 3);
    VkFence fences[3] = { create_fence(t, false), create_fence(t, false), create_fence(t, false) };
    VkEvent events[3] = { create_event(t), create_event(t), create_event(t) };
    VkCommandBuffer cmds[3];
    for (uint32_t round = 0; round < 3; round++) {
        cmds[round] = record_event_gated_fill(t, events[round], b.buffer, round, 1, 0xE0E0E000u + round);
        submit_gated(t->compute_queues[round], cmds[round], VK_NULL_HANDLE, 0, fences[round]);
        struct delayed_set d = { t, events[round], 30, VK_ERROR_UNKNOWN };
        pthread_t thread;
        uint64_t start = now_ns();
        if (pthread_create(&thread, NULL, set_event_later, &d) != 0) {
            VK_CHECK(vkSetEvent(t->device, events[round]));
            fail_msg("pthread_create failed");
        }
        VkResult result;
        if (round == 0)
            result = vkWaitForFences(t->device, 1, &fences[0], VK_TRUE, UINT64_MAX);
        else if (round == 1)
            result = vkWaitForFences(t->device, 1, &fences[1], VK_TRUE, 10000 * MS);
        else
            result = vkWaitForFences(t->device, 3, fences, VK_TRUE, 10000 * MS);
        uint64_t elapsed = now_ns() - start;
        pthread_join(thread, NULL);
        VK_CHECK(d.result);
        assert_int_equal(result, VK_SUCCESS);
        assert_true(elapsed >= 30 * MS);
        assert_int_equal(vkGetFenceStatus(t->device, fences[round]), VK_SUCCESS);
        expect_words(b.mapped, round, 1, 0xE0E0E000u + round);
    }
    vkFreeCommandBuffers(t->device, t->pool, 3, cmds);
    for (uint32_t i = 0; i < 3; i++) {
        vkDestroyFence(t->device, fences[i], NULL);
        vkDestroyEvent(t->device, events[i], NULL);
    }
    vkmm_test_buffer_destroy(t, &b);
}

/* vkQueueSubmit with zero batches and a fence: the fence signals once all
 * work submitted to the queue before it has completed. */
static void test_submit_zero_batches_with_fence(void **state)
{
    struct vkmm_test *t = *state;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 4 * 64, HOST_MEMORY);
    memset(b.mapped, 0, 4 * 64);
    VkSemaphore gate = create_timeline(t, 0);

    /* On an idle queue it signals promptly. */
    VkFence idle = create_fence(t, false);
    VK_CHECK(vkQueueSubmit(t->compute_queues[2], 0, NULL, idle));
    assert_int_equal(vkWaitForFences(t->device, 1, &idle, VK_TRUE, 5000 * MS), VK_SUCCESS);

    /* Behind blocked work it waits for that work. */
    VkCommandBuffer cmd = record_fill(t, b.buffer, 0, 64, 0x0DDBA11u);
    submit_gated(t->compute_queues[0], cmd, gate, 1, VK_NULL_HANDLE);
    VkFence after = create_fence(t, false);
    VK_CHECK(vkQueueSubmit(t->compute_queues[0], 0, NULL, after));
    VkResult early = vkWaitForFences(t->device, 1, &after, VK_TRUE, 50 * MS);
    uint32_t early_word = ((const uint32_t *)b.mapped)[0];
    host_signal(t, gate, 1);
    assert_int_equal(early, VK_TIMEOUT);
    assert_int_equal(early_word, 0);
    assert_int_equal(vkWaitForFences(t->device, 1, &after, VK_TRUE, UINT64_MAX), VK_SUCCESS);
    expect_words(b.mapped, 0, 64, 0x0DDBA11u);

    vkFreeCommandBuffers(t->device, t->pool, 1, &cmd);
    vkDestroyFence(t->device, idle, NULL);
    vkDestroyFence(t->device, after, NULL);
    vkDestroySemaphore(t->device, gate, NULL);
    vkmm_test_buffer_destroy(t, &b);
}

/* vkQueueWaitIdle returns only after the queue's work, including work that
 * another thread releases, and does not wait for other queues; after
 * vkDeviceWaitIdle every queue's work is done. */
static void test_queue_and_device_wait_idle(void **state)
{
    struct vkmm_test *t = *state;
    enum { WORDS = 16 };
    assert_int_equal(t->compute_queue_count, 4);
    assert_int_equal(t->transfer_queue_count, 2);
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 4 * WORDS * 8, HOST_MEMORY);
    memset(b.mapped, 0, 4 * WORDS * 8);
    VkSemaphore gate = create_timeline(t, 0);
    VkEvent events[2] = { create_event(t), create_event(t) };

    /* Queue 0 blocked until a thread sets an event after 30 ms; queue 1
     * blocked until this thread signals the gate. */
    VkCommandBuffer cmd0 = record_event_gated_fill(t, events[0], b.buffer, 0, WORDS, 0xAAAA0000u);
    VkCommandBuffer cmd1 = record_fill(t, b.buffer, WORDS, WORDS, 0xAAAA0001u);
    submit_gated(t->compute_queues[0], cmd0, VK_NULL_HANDLE, 0, VK_NULL_HANDLE);
    submit_gated(t->compute_queues[1], cmd1, gate, 1, VK_NULL_HANDLE);
    struct delayed_set d = { t, events[0], 30, VK_ERROR_UNKNOWN };
    pthread_t thread;
    uint64_t start = now_ns();
    if (pthread_create(&thread, NULL, set_event_later, &d) != 0) {
        VK_CHECK(vkSetEvent(t->device, events[0]));
        host_signal(t, gate, 1);
        fail_msg("pthread_create failed");
    }
    VkResult idle0 = vkQueueWaitIdle(t->compute_queues[0]);
    uint64_t elapsed = now_ns() - start;
    pthread_join(thread, NULL);
    uint32_t word0 = ((const uint32_t *)b.mapped)[0];
    uint32_t word1 = ((const uint32_t *)b.mapped)[WORDS];
    /* An idle queue and a queue whose work is done need no waiting even
     * while queue 1 is blocked. */
    VkResult idle3 = vkQueueWaitIdle(t->compute_queues[3]);
    VkResult idle0_again = vkQueueWaitIdle(t->compute_queues[0]);
    host_signal(t, gate, 1);
    VK_CHECK(d.result);
    assert_int_equal(idle0, VK_SUCCESS);
    assert_int_equal(idle3, VK_SUCCESS);
    assert_int_equal(idle0_again, VK_SUCCESS);
    assert_true(elapsed >= 30 * MS);
    assert_int_equal(word0, 0xAAAA0000u);
    assert_int_equal(word1, 0);
    VK_CHECK(vkQueueWaitIdle(t->compute_queues[1]));
    expect_words(b.mapped, WORDS, WORDS, 0xAAAA0001u);

    /* Device idle: queue 0 waits for an event another thread sets after
     * 30 ms, then signals the gate (2) that work on the other compute
     * queues and both transfer queues waits for. */
    VkCommandPoolCreateInfo pool_info = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = 1 };
    VkCommandPool transfer_pool;
    VK_CHECK(vkCreateCommandPool(t->device, &pool_info, NULL, &transfer_pool));
    struct vkmm_test_buffer tb[2] = { vkmm_test_buffer_create(t, 4 * WORDS, HOST_MEMORY),
                                      vkmm_test_buffer_create(t, 4 * WORDS, HOST_MEMORY) };
    memset(b.mapped, 0, 4 * WORDS * 8);
    VkCommandBuffer cmds[4], tcmds[2];
    cmds[0] = record_event_gated_fill(t, events[1], b.buffer, 2 * WORDS, WORDS, 0xBBBB0000u);
    const uint64_t two = 2;
    VkTimelineSemaphoreSubmitInfo signal_two = {
        .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
        .signalSemaphoreValueCount = 1,
        .pSignalSemaphoreValues = &two,
    };
    VkSubmitInfo first = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .pNext = &signal_two,
        .commandBufferCount = 1,
        .pCommandBuffers = &cmds[0],
        .signalSemaphoreCount = 1,
        .pSignalSemaphores = &gate,
    };
    VK_CHECK(vkQueueSubmit(t->compute_queues[0], 1, &first, VK_NULL_HANDLE));
    for (uint32_t q = 1; q < 4; q++) {
        cmds[q] = record_fill(t, b.buffer, (2 + q) * WORDS, WORDS, 0xBBBB0000u + q);
        submit_gated(t->compute_queues[q], cmds[q], gate, 2, VK_NULL_HANDLE);
    }
    for (uint32_t q = 0; q < 2; q++) {
        memset(tb[q].mapped, 0, 4 * WORDS);
        VkCommandBufferAllocateInfo alloc = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
            .commandPool = transfer_pool,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
            .commandBufferCount = 1,
        };
        VK_CHECK(vkAllocateCommandBuffers(t->device, &alloc, &tcmds[q]));
        VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
        VK_CHECK(vkBeginCommandBuffer(tcmds[q], &begin));
        vkCmdFillBuffer(tcmds[q], tb[q].buffer, 0, VK_WHOLE_SIZE, 0xCCCC0000u + q);
        vkmm_test_full_barrier(tcmds[q]);
        VK_CHECK(vkEndCommandBuffer(tcmds[q]));
        submit_gated(t->transfer_queues[q], tcmds[q], gate, 2, VK_NULL_HANDLE);
    }
    d = (struct delayed_set){ t, events[1], 30, VK_ERROR_UNKNOWN };
    start = now_ns();
    if (pthread_create(&thread, NULL, set_event_later, &d) != 0) {
        VK_CHECK(vkSetEvent(t->device, events[1]));
        fail_msg("pthread_create failed");
    }
    VkResult device_idle = vkDeviceWaitIdle(t->device);
    elapsed = now_ns() - start;
    pthread_join(thread, NULL);
    VK_CHECK(d.result);
    assert_int_equal(device_idle, VK_SUCCESS);
    assert_true(elapsed >= 30 * MS);
    for (uint32_t q = 0; q < 4; q++)
        expect_words(b.mapped, (2 + q) * WORDS, WORDS, 0xBBBB0000u + q);
    for (uint32_t q = 0; q < 2; q++)
        expect_words(tb[q].mapped, 0, WORDS, 0xCCCC0000u + q);

    /* Idle everything: both calls return at once. */
    VK_CHECK(vkDeviceWaitIdle(t->device));
    for (uint32_t q = 0; q < 2; q++)
        VK_CHECK(vkQueueWaitIdle(t->transfer_queues[q]));

    vkFreeCommandBuffers(t->device, t->pool, 4, cmds);
    vkFreeCommandBuffers(t->device, t->pool, 1, &cmd0);
    vkFreeCommandBuffers(t->device, t->pool, 1, &cmd1);
    vkFreeCommandBuffers(t->device, transfer_pool, 2, tcmds);
    vkDestroyCommandPool(t->device, transfer_pool, NULL);
    vkDestroySemaphore(t->device, gate, NULL);
    vkDestroyEvent(t->device, events[0], NULL);
    vkDestroyEvent(t->device, events[1], NULL);
    vkmm_test_buffer_destroy(t, &tb[0]);
    vkmm_test_buffer_destroy(t, &tb[1]);
    vkmm_test_buffer_destroy(t, &b);
}

/* A fence waited for by many submissions' worth of reuse: submit, wait,
 * reset, 50 times with real work, checking each result. */
static void test_fence_reuse(void **state)
{
    struct vkmm_test *t = *state;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 4 * 64, HOST_MEMORY);
    memset(b.mapped, 0, 4 * 64);
    VkFence fence = create_fence(t, true);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    VK_CHECK(vkEndCommandBuffer(cmd));
    for (uint32_t i = 0; i < 50; i++) {
        assert_int_equal(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
        if (i > 0)
            expect_words(b.mapped, 0, 64, 0x1000u + i - 1);
        VK_CHECK(vkResetFences(t->device, 1, &fence));
        assert_int_equal(vkGetFenceStatus(t->device, fence), VK_NOT_READY);
        VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
        VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
        vkmm_test_full_barrier(cmd);
        vkCmdFillBuffer(cmd, b.buffer, 0, VK_WHOLE_SIZE, 0x1000u + i);
        vkmm_test_full_barrier(cmd);
        VK_CHECK(vkEndCommandBuffer(cmd));
        VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                                .pCommandBuffers = &cmd };
        VK_CHECK(vkQueueSubmit(t->compute_queues[i % 4], 1, &submit, fence));
    }
    assert_int_equal(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
    expect_words(b.mapped, 0, 64, 0x1000u + 49);
    vkFreeCommandBuffers(t->device, t->pool, 1, &cmd);
    vkDestroyFence(t->device, fence, NULL);
    vkmm_test_buffer_destroy(t, &b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fence_status_and_reset, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_fence_timeout_elapses, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_wait_all_and_any, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_wait_wakes_when_other_thread_releases, vkmm_test_setup,
                                        vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_submit_zero_batches_with_fence, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_queue_and_device_wait_idle, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_fence_reuse, vkmm_test_setup, vkmm_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
