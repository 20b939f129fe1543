/* Semaphores: timeline creation, counter queries, host signal and wait
 * (all/any, timeouts), wait-before-signal, values in VkSubmitInfo
 * (VkTimelineSemaphoreSubmitInfo) and VkSubmitInfo2, a chain driven by two
 * host threads on two queues, binary semaphores linking the compute and
 * transfer-only queue families, and host signals from another thread
 * waking every kind of waiter.
 *
 * Work that must not run yet is blocked on a timeline value or an event;
 * each test releases it before asserting, so a failure never hangs the
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

static VkSemaphore create_semaphore(struct vkmm_test *t, VkSemaphoreType type, uint64_t initial)
{
    VkSemaphoreTypeCreateInfo type_info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
        .semaphoreType = type,
        .initialValue = initial,
    };
    VkSemaphoreCreateInfo info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type_info };
    VkSemaphore semaphore = VK_NULL_HANDLE;
    VK_CHECK(vkCreateSemaphore(t->device, &info, NULL, &semaphore));
    return semaphore;
}

static VkSemaphore create_timeline(struct vkmm_test *t, uint64_t initial)
{
    return create_semaphore(t, VK_SEMAPHORE_TYPE_TIMELINE, initial);
}

static VkSemaphore create_binary(struct vkmm_test *t)
{
    VkSemaphoreCreateInfo info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO };
    VkSemaphore semaphore = VK_NULL_HANDLE;
    VK_CHECK(vkCreateSemaphore(t->device, &info, NULL, &semaphore));
    return semaphore;
}

static VkFence create_fence(struct vkmm_test *t)
{
    VkFenceCreateInfo info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence;
    VK_CHECK(vkCreateFence(t->device, &info, NULL, &fence));
    return fence;
}

static uint64_t counter(struct vkmm_test *t, VkSemaphore semaphore)
{
    uint64_t value = 0xDEADDEADull;
    VK_CHECK(vkGetSemaphoreCounterValue(t->device, semaphore, &value));
    return value;
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

static VkResult host_wait(struct vkmm_test *t, uint32_t count, const VkSemaphore *semaphores, const uint64_t *values,
                          bool any, uint64_t timeout)
{
    VkSemaphoreWaitInfo info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
        .flags = any ? VK_SEMAPHORE_WAIT_ANY_BIT : 0,
        .semaphoreCount = count,
        .pSemaphores = semaphores,
        .pValues = values,
    };
    return vkWaitSemaphores(t->device, &info, timeout);
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

static VkCommandBuffer allocate_from(struct vkmm_test *t, VkCommandPool pool)
{
    VkCommandBufferAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkCommandBuffer cmd;
    VK_CHECK(vkAllocateCommandBuffers(t->device, &info, &cmd));
    VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
    VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
    return cmd;
}

/* Creation with an initial value, counter queries, host signals and host
 * waits with zero and finite timeouts. */
static void test_timeline_host_signal_and_wait(void **state)
{
    struct vkmm_test *t = *state;
    VkSemaphore s = create_timeline(t, 5);
    VkSemaphore zero = create_timeline(t, 0);
    VkSemaphore big = create_timeline(t, 1ull << 40);
    assert_int_equal(counter(t, s), 5);
    assert_int_equal(counter(t, zero), 0);
    assert_true(counter(t, big) == 1ull << 40);

    uint64_t v = 5;
    assert_int_equal(host_wait(t, 1, &s, &v, false, 0), VK_SUCCESS);
    v = 6;
    assert_int_equal(host_wait(t, 1, &s, &v, false, 0), VK_TIMEOUT);
    host_signal(t, s, 8);
    assert_int_equal(counter(t, s), 8);
    for (v = 0; v <= 8; v++)
        assert_int_equal(host_wait(t, 1, &s, &v, false, 0), VK_SUCCESS);
    v = 9;
    assert_int_equal(host_wait(t, 1, &s, &v, false, 0), VK_TIMEOUT);
    uint64_t start = now_ns();
    VkResult result = host_wait(t, 1, &s, &v, false, 20 * MS);
    uint64_t elapsed = now_ns() - start;
    assert_int_equal(result, VK_TIMEOUT);
    if (elapsed < 20 * MS)
        fail_msg("a 20 ms semaphore wait timed out after %llu us", (unsigned long long)(elapsed / 1000));
    assert_true(elapsed < 5000 * MS);

    host_signal(t, big, (1ull << 40) + 3);
    assert_true(counter(t, big) == (1ull << 40) + 3);
    v = (1ull << 40) + 3;
    assert_int_equal(host_wait(t, 1, &big, &v, false, UINT64_MAX), VK_SUCCESS);
    assert_int_equal(counter(t, s), 8); /* others untouched */
    assert_int_equal(counter(t, zero), 0);

    vkDestroySemaphore(t->device, s, NULL);
    vkDestroySemaphore(t->device, zero, NULL);
    vkDestroySemaphore(t->device, big, NULL);
    vkDestroySemaphore(t->device, VK_NULL_HANDLE, NULL);
}

struct delayed_signal {
    struct vkmm_test *t;
    VkSemaphore semaphore;
    uint64_t value, delay_ms;
    VkResult result;
};

static void *signal_later(void *arg)
{
    struct delayed_signal *d = arg;
    sleep_ms(d->delay_ms);
    VkSemaphoreSignalInfo info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
        .semaphore = d->semaphore,
        .value = d->value,
    };
    d->result = vkSignalSemaphore(d->t->device, &info);
    return NULL;
}

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

/* Submits to `queue` a batch that waits for `event` (set by the host) on
 * the device and then signals `semaphore` = `value`. */
static VkCommandBuffer submit_event_then_signal(struct vkmm_test *t, VkQueue queue, VkEvent event,
                                                VkSemaphore semaphore, uint64_t value)
{
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdWaitEvents(cmd, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, NULL, 0, NULL,
                    0, NULL);
    VK_CHECK(vkEndCommandBuffer(cmd));
    VkSemaphoreSubmitInfo signal = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = semaphore,
                                     .value = value, .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    VkCommandBufferSubmitInfo cmd_info = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                           .commandBuffer = cmd };
    VkSubmitInfo2 submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
        .commandBufferInfoCount = 1,
        .pCommandBufferInfos = &cmd_info,
        .signalSemaphoreInfoCount = 1,
        .pSignalSemaphoreInfos = &signal,
    };
    VK_CHECK(vkQueueSubmit2(queue, 1, &submit, VK_NULL_HANDLE));
    return cmd;
}

/* vkWaitSemaphores with all and with VK_SEMAPHORE_WAIT_ANY_BIT; a blocked
 * wait wakes when the value is reached.  Here another thread releases
 * queue work that signals the semaphore (host signals from another thread
 * are tested without the validation layer below). */
static void test_wait_semaphores_all_and_any(void **state)
{
    struct vkmm_test *t = *state;
    VkSemaphore s[2] = { create_timeline(t, 1), create_timeline(t, 10) };
    uint64_t two_two[2] = { 2, 2 }, one_ten[2] = { 1, 10 }, two_eleven[2] = { 2, 11 };
    assert_int_equal(host_wait(t, 2, s, two_two, false, 0), VK_TIMEOUT);
    assert_int_equal(host_wait(t, 2, s, two_two, true, 0), VK_SUCCESS);
    assert_int_equal(host_wait(t, 2, s, one_ten, false, 0), VK_SUCCESS);
    assert_int_equal(host_wait(t, 2, s, one_ten, true, UINT64_MAX), VK_SUCCESS);
    assert_int_equal(host_wait(t, 2, s, two_eleven, true, 0), VK_TIMEOUT);
    uint64_t start = now_ns();
    assert_int_equal(host_wait(t, 2, s, two_eleven, true, 15 * MS), VK_TIMEOUT);
    assert_true(now_ns() - start >= 15 * MS);
    start = now_ns();
    assert_int_equal(host_wait(t, 2, s, two_eleven, false, 15 * MS), VK_TIMEOUT);
    assert_true(now_ns() - start >= 15 * MS);

    /* wait-any blocks until queue 0 moves the second one to 11 */
    VkEvent events[2];
    for (uint32_t i = 0; i < 2; i++) {
        VkEventCreateInfo info = { .sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO };
        VK_CHECK(vkCreateEvent(t->device, &info, NULL, &events[i]));
    }
    VkCommandBuffer cmds[2];
    cmds[0] = submit_event_then_signal(t, t->compute_queues[0], events[0], s[1], 11);
    struct delayed_set d = { t, events[0], 30, VK_ERROR_UNKNOWN };
    pthread_t thread;
    start = now_ns();
    if (pthread_create(&thread, NULL, set_event_later, &d) != 0) {
        VK_CHECK(vkSetEvent(t->device, events[0]));
        fail_msg("pthread_create failed");
    }
    VkResult any = host_wait(t, 2, s, two_eleven, true, 10000 * MS);
    uint64_t elapsed = now_ns() - start;
    pthread_join(thread, NULL);
    VK_CHECK(d.result);
    assert_int_equal(any, VK_SUCCESS);
    assert_true(elapsed >= 30 * MS);
    /* all still needs the first one */
    assert_int_equal(host_wait(t, 2, s, two_eleven, false, 0), VK_TIMEOUT);

    /* wait-all blocks until queue 1 moves the first one to 2 */
    cmds[1] = submit_event_then_signal(t, t->compute_queues[1], events[1], s[0], 2);
    d = (struct delayed_set){ t, events[1], 20, VK_ERROR_UNKNOWN };
    start = now_ns();
    if (pthread_create(&thread, NULL, set_event_later, &d) != 0) {
        VK_CHECK(vkSetEvent(t->device, events[1]));
        fail_msg("pthread_create failed");
    }
    VkResult all = host_wait(t, 2, s, two_eleven, false, UINT64_MAX);
    elapsed = now_ns() - start;
    pthread_join(thread, NULL);
    VK_CHECK(d.result);
    assert_int_equal(all, VK_SUCCESS);
    assert_true(elapsed >= 20 * MS);
    assert_int_equal(counter(t, s[0]), 2);
    assert_int_equal(counter(t, s[1]), 11);

    VK_CHECK(vkDeviceWaitIdle(t->device));
    vkFreeCommandBuffers(t->device, t->pool, 2, cmds);
    vkDestroyEvent(t->device, events[0], NULL);
    vkDestroyEvent(t->device, events[1], NULL);
    vkDestroySemaphore(t->device, s[0], NULL);
    vkDestroySemaphore(t->device, s[1], NULL);
}

/* The validation layer 1.3.239 (with synchronization validation) holds its
 * lock while it waits for its own record of a semaphore, so a host wait
 * that another thread's vkSignalSemaphore releases can stall it for 10 s
 * and report "state-timeout" when the waiting thread wins the race for
 * that lock.  This test of valid usage therefore runs without the layer. */
static int setup_without_validation(void **state)
{
    struct vkmm_test_options options = { .no_validation = true };
    *state = vkmm_test_create(&options);
    return 0;
}

/* vkSignalSemaphore from another thread wakes every kind of waiter:
 * vkWaitSemaphores (one semaphore, all, any), vkWaitForFences and
 * vkQueueWaitIdle on queue work that waits for the value, and
 * vkDeviceWaitIdle. */
static void test_host_signal_from_other_thread(void **state)
{
    struct vkmm_test *t = *state;
    VkSemaphore s = create_timeline(t, 0), other = create_timeline(t, 0);
    VkFence fence = create_fence(t);
    for (uint32_t round = 1; round <= 6; round++) {
        /* queue work waiting for s >= round */
        VkSemaphoreSubmitInfo wait = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = s,
                                       .value = round, .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
        VkSubmitInfo2 submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .waitSemaphoreInfoCount = 1,
                                 .pWaitSemaphoreInfos = &wait };
        VK_CHECK(vkQueueSubmit2(t->compute_queues[round % 4], 1, &submit, fence));

        struct delayed_signal d = { t, s, round, 25, VK_ERROR_UNKNOWN };
        pthread_t thread;
        uint64_t start = now_ns();
        if (pthread_create(&thread, NULL, signal_later, &d) != 0) {
            host_signal(t, s, round);
            fail_msg("pthread_create failed");
        }
        uint64_t value = round;
        VkSemaphore pair[2] = { other, s };
        uint64_t values[2] = { 1, round };
        VkResult result = VK_ERROR_UNKNOWN;
        switch (round) {
        case 1: result = host_wait(t, 1, &s, &value, false, UINT64_MAX); break;
        case 2: result = host_wait(t, 2, pair, values, true, 10000 * MS); break;
        case 3: result = vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX); break;
        case 4: result = vkQueueWaitIdle(t->compute_queues[round % 4]); break;
        case 5: result = vkDeviceWaitIdle(t->device); break;
        case 6:
            host_signal(t, other, 1);
            result = host_wait(t, 2, pair, values, false, 10000 * MS);
            break;
        }
        uint64_t elapsed = now_ns() - start;
        pthread_join(thread, NULL);
        VK_CHECK(d.result);
        if (result != VK_SUCCESS)
            fail_msg("round %u: the wait returned %d", round, result);
        if (elapsed < 25 * MS)
            fail_msg("round %u: the wait returned after %llu us, before the signal", round,
                     (unsigned long long)(elapsed / 1000));
        assert_true(counter(t, s) >= round);
        VK_CHECK(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX));
        VK_CHECK(vkResetFences(t->device, 1, &fence));
    }
    VK_CHECK(vkDeviceWaitIdle(t->device));
    vkDestroyFence(t->device, fence, NULL);
    vkDestroySemaphore(t->device, s, NULL);
    vkDestroySemaphore(t->device, other, NULL);
}

/* Wait-before-signal: a batch waiting for a value nobody signalled yet is
 * submitted, does not run, and runs once the host signals the value. */
static void test_wait_before_signal(void **state)
{
    struct vkmm_test *t = *state;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 4 * 64, HOST_MEMORY);
    set_words(b.mapped, 0, 64, SENTINEL);
    VkSemaphore s = create_timeline(t, 0);
    VkFence fence = create_fence(t);
    host_signal(t, s, 2); /* below the wait value: must not release it */

    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_full_barrier(cmd);
    vkCmdFillBuffer(cmd, b.buffer, 0, VK_WHOLE_SIZE, 0x5151AAAA);
    vkmm_test_full_barrier(cmd);
    VK_CHECK(vkEndCommandBuffer(cmd));
    const uint64_t wait_value = 3, signal_value = 4;
    VkTimelineSemaphoreSubmitInfo timeline = {
        .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
        .waitSemaphoreValueCount = 1,
        .pWaitSemaphoreValues = &wait_value,
        .signalSemaphoreValueCount = 1,
        .pSignalSemaphoreValues = &signal_value,
    };
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .pNext = &timeline,
        .waitSemaphoreCount = 1,
        .pWaitSemaphores = &s,
        .pWaitDstStageMask = &stage,
        .commandBufferCount = 1,
        .pCommandBuffers = &cmd,
        .signalSemaphoreCount = 1,
        .pSignalSemaphores = &s,
    };
    VK_CHECK(vkQueueSubmit(t->compute_queues[0], 1, &submit, fence));

    VkResult early = vkWaitForFences(t->device, 1, &fence, VK_TRUE, 50 * MS);
    uint64_t early_counter = counter(t, s);
    uint32_t early_word = ((const uint32_t *)b.mapped)[0];
    VkResult early_wait = host_wait(t, 1, &s, &signal_value, false, 0);
    host_signal(t, s, 3);
    assert_int_equal(early, VK_TIMEOUT);
    assert_int_equal(early_counter, 2);
    assert_int_equal(early_word, SENTINEL);
    assert_int_equal(early_wait, VK_TIMEOUT);

    assert_int_equal(host_wait(t, 1, &s, &signal_value, false, 10000 * MS), VK_SUCCESS);
    VK_CHECK(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX));
    assert_int_equal(counter(t, s), 4);
    expect_words(b.mapped, 0, 64, 0x5151AAAA);

    vkFreeCommandBuffers(t->device, t->pool, 1, &cmd);
    vkDestroyFence(t->device, fence, NULL);
    vkDestroySemaphore(t->device, s, NULL);
    vkmm_test_buffer_destroy(t, &b);
}

/* A three-queue pipeline submitted in reverse order and released by one
 * host signal: queue 0 (vkQueueSubmit + VkTimelineSemaphoreSubmitInfo)
 * fills a; queue 1 (vkQueueSubmit2) copies a -> b and signals two
 * semaphores; queue 2 (vkQueueSubmit2) waits for both and copies b -> c. */
static void test_submit_and_submit2_values(void **state)
{
    struct vkmm_test *t = *state;
    struct vkmm_test_buffer a = vkmm_test_buffer_create(t, 4 * 256, HOST_MEMORY);
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 4 * 256, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer c = vkmm_test_buffer_create(t, 4 * 256, HOST_MEMORY);
    set_words(a.mapped, 0, 256, SENTINEL);
    set_words(c.mapped, 0, 256, SENTINEL);
    VkSemaphore s = create_timeline(t, 0), u = create_timeline(t, 100);
    VkBufferCopy whole = { .srcOffset = 0, .dstOffset = 0, .size = 4 * 256 };

    VkCommandBuffer fill = vkmm_test_begin(t);
    vkCmdFillBuffer(fill, a.buffer, 0, VK_WHOLE_SIZE, 0x7E57DA7A);
    vkmm_test_full_barrier(fill);
    VK_CHECK(vkEndCommandBuffer(fill));
    VkCommandBuffer copy_ab = vkmm_test_begin(t);
    vkCmdCopyBuffer(copy_ab, a.buffer, b.buffer, 1, &whole);
    vkmm_test_full_barrier(copy_ab);
    VK_CHECK(vkEndCommandBuffer(copy_ab));
    VkCommandBuffer copy_bc = vkmm_test_begin(t);
    vkCmdCopyBuffer(copy_bc, b.buffer, c.buffer, 1, &whole);
    vkmm_test_full_barrier(copy_bc);
    VK_CHECK(vkEndCommandBuffer(copy_bc));

    /* queue 2: waits s >= 3 and u >= 107, copies b -> c, signals s = 4 */
    VkSemaphoreSubmitInfo q2_waits[2] = {
        { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = s, .value = 3,
          .stageMask = VK_PIPELINE_STAGE_2_COPY_BIT },
        { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = u, .value = 107,
          .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT },
    };
    VkSemaphoreSubmitInfo q2_signal = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = s, .value = 4,
                                        .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    VkCommandBufferSubmitInfo q2_cmd = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                         .commandBuffer = copy_bc };
    VkSubmitInfo2 q2 = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
        .waitSemaphoreInfoCount = 2,
        .pWaitSemaphoreInfos = q2_waits,
        .commandBufferInfoCount = 1,
        .pCommandBufferInfos = &q2_cmd,
        .signalSemaphoreInfoCount = 1,
        .pSignalSemaphoreInfos = &q2_signal,
    };
    VK_CHECK(vkQueueSubmit2(t->compute_queues[2], 1, &q2, VK_NULL_HANDLE));

    /* queue 1: waits s >= 2, copies a -> b, signals s = 3 and u = 107 */
    VkSemaphoreSubmitInfo q1_wait = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = s, .value = 2,
                                      .stageMask = VK_PIPELINE_STAGE_2_COPY_BIT };
    VkSemaphoreSubmitInfo q1_signals[2] = {
        { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = s, .value = 3,
          .stageMask = VK_PIPELINE_STAGE_2_COPY_BIT },
        { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = u, .value = 107,
          .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT },
    };
    VkCommandBufferSubmitInfo q1_cmd = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                         .commandBuffer = copy_ab };
    VkSubmitInfo2 q1 = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
        .waitSemaphoreInfoCount = 1,
        .pWaitSemaphoreInfos = &q1_wait,
        .commandBufferInfoCount = 1,
        .pCommandBufferInfos = &q1_cmd,
        .signalSemaphoreInfoCount = 2,
        .pSignalSemaphoreInfos = q1_signals,
    };
    VK_CHECK(vkQueueSubmit2(t->compute_queues[1], 1, &q1, VK_NULL_HANDLE));

    /* queue 0: waits s >= 1 (from the host), fills a, signals s = 2 */
    const uint64_t q0_wait = 1, q0_signal = 2;
    VkTimelineSemaphoreSubmitInfo q0_values = {
        .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
        .waitSemaphoreValueCount = 1,
        .pWaitSemaphoreValues = &q0_wait,
        .signalSemaphoreValueCount = 1,
        .pSignalSemaphoreValues = &q0_signal,
    };
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkSubmitInfo q0 = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .pNext = &q0_values,
        .waitSemaphoreCount = 1,
        .pWaitSemaphores = &s,
        .pWaitDstStageMask = &stage,
        .commandBufferCount = 1,
        .pCommandBuffers = &fill,
        .signalSemaphoreCount = 1,
        .pSignalSemaphores = &s,
    };
    VK_CHECK(vkQueueSubmit(t->compute_queues[0], 1, &q0, VK_NULL_HANDLE));

    uint64_t four = 4;
    VkResult early = host_wait(t, 1, &s, &four, false, 30 * MS);
    uint64_t early_s = counter(t, s), early_u = counter(t, u);
    uint32_t early_a = ((const uint32_t *)a.mapped)[0], early_c = ((const uint32_t *)c.mapped)[0];
    host_signal(t, s, 1);
    assert_int_equal(early, VK_TIMEOUT);
    assert_int_equal(early_s, 0);
    assert_int_equal(early_u, 100);
    assert_int_equal(early_a, SENTINEL);
    assert_int_equal(early_c, SENTINEL);

    assert_int_equal(host_wait(t, 1, &s, &four, false, 10000 * MS), VK_SUCCESS);
    assert_int_equal(counter(t, s), 4);
    assert_int_equal(counter(t, u), 107);
    expect_words(c.mapped, 0, 256, 0x7E57DA7A);

    VK_CHECK(vkDeviceWaitIdle(t->device));
    VkCommandBuffer cmds[3] = { fill, copy_ab, copy_bc };
    vkFreeCommandBuffers(t->device, t->pool, 3, cmds);
    vkDestroySemaphore(t->device, s, NULL);
    vkDestroySemaphore(t->device, u, NULL);
    vkmm_test_buffer_destroy(t, &a);
    vkmm_test_buffer_destroy(t, &b);
    vkmm_test_buffer_destroy(t, &c);
}

/* Two host threads, each submitting to its own queue from its own pool,
 * build one chain through a timeline semaphore: thread B's step i waits
 * for 2i-2 and signals 2i-1, thread A's step i waits for 2i-1 (signalled by
 * B) and signals 2i.  Step k copies word k-1 of a buffer into word k, so
 * every word ends up equal to word 0 only if every step ran after the one
 * before it. */
#define CHAIN_STEPS 40u /* per thread */

struct chain_thread {
    struct vkmm_test *t;
    VkQueue queue;
    VkSemaphore semaphore;
    VkBuffer buffer;
    bool is_a;
    pthread_barrier_t *start;
    VkResult result;
};

static VkResult submit_step(const struct chain_thread *c, VkCommandBuffer cmd, uint64_t wait, uint64_t signal)
{
    if (c->is_a) {
        VkTimelineSemaphoreSubmitInfo values = {
            .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
            .waitSemaphoreValueCount = 1,
            .pWaitSemaphoreValues = &wait,
            .signalSemaphoreValueCount = 1,
            .pSignalSemaphoreValues = &signal,
        };
        VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
        VkSubmitInfo submit = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
            .pNext = &values,
            .waitSemaphoreCount = 1,
            .pWaitSemaphores = &c->semaphore,
            .pWaitDstStageMask = &stage,
            .commandBufferCount = 1,
            .pCommandBuffers = &cmd,
            .signalSemaphoreCount = 1,
            .pSignalSemaphores = &c->semaphore,
        };
        return vkQueueSubmit(c->queue, 1, &submit, VK_NULL_HANDLE);
    }
    VkSemaphoreSubmitInfo wait_info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = c->semaphore,
                                        .value = wait, .stageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT };
    VkSemaphoreSubmitInfo signal_info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                          .semaphore = c->semaphore, .value = signal,
                                          .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    VkCommandBufferSubmitInfo cmd_info = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                           .commandBuffer = cmd };
    VkSubmitInfo2 submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
        .waitSemaphoreInfoCount = 1,
        .pWaitSemaphoreInfos = &wait_info,
        .commandBufferInfoCount = 1,
        .pCommandBufferInfos = &cmd_info,
        .signalSemaphoreInfoCount = 1,
        .pSignalSemaphoreInfos = &signal_info,
    };
    return vkQueueSubmit2(c->queue, 1, &submit, VK_NULL_HANDLE);
}

/* No cmocka asserts here: they must not longjmp out of another thread. */
static void *chain_thread_main(void *arg)
{
    struct chain_thread *c = arg;
    VkDevice device = c->t->device;
    VkCommandPoolCreateInfo pool_info = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = 0 };
    VkCommandPool pool;
    c->result = vkCreateCommandPool(device, &pool_info, NULL, &pool);
    if (c->result != VK_SUCCESS) {
        pthread_barrier_wait(c->start);
        pthread_barrier_wait(c->start);
        return NULL;
    }
    VkCommandBuffer cmds[CHAIN_STEPS];
    VkCommandBufferAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = CHAIN_STEPS,
    };
    c->result = vkAllocateCommandBuffers(device, &alloc, cmds);
    for (uint32_t i = 1; c->result == VK_SUCCESS && i <= CHAIN_STEPS; i++) {
        uint64_t signal = c->is_a ? 2 * i : 2 * i - 1;
        VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
        c->result = vkBeginCommandBuffer(cmds[i - 1], &begin);
        if (c->result != VK_SUCCESS)
            break;
        VkBufferCopy step = { .srcOffset = 4 * (signal - 1), .dstOffset = 4 * signal, .size = 4 };
        vkCmdCopyBuffer(cmds[i - 1], c->buffer, c->buffer, 1, &step);
        vkmm_test_full_barrier(cmds[i - 1]);
        c->result = vkEndCommandBuffer(cmds[i - 1]);
    }
    pthread_barrier_wait(c->start);
    for (uint32_t i = 1; c->result == VK_SUCCESS && i <= CHAIN_STEPS; i++) {
        uint64_t signal = c->is_a ? 2 * i : 2 * i - 1;
        c->result = submit_step(c, cmds[i - 1], signal - 1, signal);
    }
    /* Both threads' submissions are complete calls before either waits: a
     * waiter inside the validation layer holds its lock until its record
     * of the semaphore catches up, which a submit call still on its way
     * out of the layer could never do. */
    pthread_barrier_wait(c->start);
    /* Wait for this thread's own last step before freeing its pool. */
    if (c->result == VK_SUCCESS) {
        uint64_t last = c->is_a ? 2 * CHAIN_STEPS : 2 * CHAIN_STEPS - 1;
        VkSemaphoreWaitInfo wait = {
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
            .semaphoreCount = 1,
            .pSemaphores = &c->semaphore,
            .pValues = &last,
        };
        c->result = vkWaitSemaphores(device, &wait, 20000 * MS);
    }
    if (c->result == VK_SUCCESS)
        c->result = vkQueueWaitIdle(c->queue);
    vkDestroyCommandPool(device, pool, NULL);
    return NULL;
}

static void test_two_threads_timeline_chain(void **state)
{
    struct vkmm_test *t = *state;
    const uint32_t words = 2 * CHAIN_STEPS + 1;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 4 * words, HOST_MEMORY);
    uint32_t *w = b.mapped;
    w[0] = 0xC4A1C4A1u;
    for (uint32_t k = 1; k < words; k++)
        w[k] = 0xBAD00000u + k;
    VkSemaphore s = create_timeline(t, 0);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, 2);
    struct chain_thread threads[2] = {
        { .t = t, .queue = t->compute_queues[0], .semaphore = s, .buffer = b.buffer, .is_a = true, .start = &start },
        { .t = t, .queue = t->compute_queues[1], .semaphore = s, .buffer = b.buffer, .is_a = false, .start = &start },
    };
    pthread_t ids[2];
    for (uint32_t i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&ids[i], NULL, chain_thread_main, &threads[i]), 0);
    for (uint32_t i = 0; i < 2; i++)
        pthread_join(ids[i], NULL);
    pthread_barrier_destroy(&start);
    if (threads[0].result != VK_SUCCESS || threads[1].result != VK_SUCCESS)
        host_signal(t, s, 2 * CHAIN_STEPS + 1); /* release whatever still waits */
    VK_CHECK(threads[0].result);
    VK_CHECK(threads[1].result);

    assert_int_equal(counter(t, s), 2 * CHAIN_STEPS);
    for (uint32_t k = 0; k < words; k++) {
        if (w[k] != 0xC4A1C4A1u)
            fail_msg("chain word %u is 0x%08x: step %u did not run after step %u", k, w[k], k, k - 1);
    }
    vkDestroySemaphore(t->device, s, NULL);
    vkmm_test_buffer_destroy(t, &b);
}

/* A buffer usable by both queue families without ownership transfers. */
static struct vkmm_test_buffer concurrent_buffer(struct vkmm_test *t, VkDeviceSize size)
{
    struct vkmm_test_buffer b = { .size = size };
    const uint32_t families[2] = { 0, 1 };
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        .sharingMode = VK_SHARING_MODE_CONCURRENT,
        .queueFamilyIndexCount = 2,
        .pQueueFamilyIndices = families,
    };
    VK_CHECK(vkCreateBuffer(t->device, &info, NULL, &b.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(t->device, b.buffer, &req);
    b.memory_type = vkmm_test_find_memory_type(t, HOST_MEMORY, 0);
    assert_true(req.memoryTypeBits & (1u << b.memory_type));
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = b.memory_type,
    };
    VK_CHECK(vkAllocateMemory(t->device, &alloc, NULL, &b.memory));
    VK_CHECK(vkBindBufferMemory(t->device, b.buffer, b.memory, 0));
    VK_CHECK(vkMapMemory(t->device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
    return b;
}

/* Binary semaphores link queue 0 (compute family) and a transfer-only
 * queue: fill a on queue 0 -> copy a -> b on the transfer queue -> copy
 * b -> c on queue 0, with the first step held back by a timeline value the
 * host signals later (a batch mixing binary and timeline semaphores).  The
 * same binary semaphores are reused every round. */
static void test_binary_semaphores_across_families(void **state)
{
    struct vkmm_test *t = *state;
    enum { WORDS = 1024, ROUNDS = 4 };
    assert_true(t->transfer_queue_count >= 1);
    struct vkmm_test_buffer a = concurrent_buffer(t, 4 * WORDS);
    struct vkmm_test_buffer b = concurrent_buffer(t, 4 * WORDS);
    struct vkmm_test_buffer c = concurrent_buffer(t, 4 * WORDS);
    set_words(a.mapped, 0, WORDS, SENTINEL);
    set_words(b.mapped, 0, WORDS, SENTINEL);
    set_words(c.mapped, 0, WORDS, SENTINEL);
    VkSemaphore gate = create_timeline(t, 0);
    VkSemaphore s1 = create_binary(t), s2 = create_binary(t);
    VkFence fence = create_fence(t);
    VkCommandPoolCreateInfo pool_info = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = 1 };
    VkCommandPool transfer_pool;
    VK_CHECK(vkCreateCommandPool(t->device, &pool_info, NULL, &transfer_pool));
    VkBufferCopy whole = { .srcOffset = 0, .dstOffset = 0, .size = 4 * WORDS };

    for (uint32_t round = 0; round < ROUNDS; round++) {
        const uint32_t value = 0xF1F00000u + round;
        VkCommandBuffer fill = vkmm_test_begin(t);
        vkmm_test_full_barrier(fill);
        vkCmdFillBuffer(fill, a.buffer, 0, VK_WHOLE_SIZE, value);
        vkmm_test_full_barrier(fill);
        VK_CHECK(vkEndCommandBuffer(fill));
        VkCommandBuffer copy_ab = allocate_from(t, transfer_pool);
        vkmm_test_full_barrier(copy_ab);
        vkCmdCopyBuffer(copy_ab, a.buffer, b.buffer, 1, &whole);
        vkmm_test_full_barrier(copy_ab);
        VK_CHECK(vkEndCommandBuffer(copy_ab));
        VkCommandBuffer copy_bc = vkmm_test_begin(t);
        vkmm_test_full_barrier(copy_bc);
        vkCmdCopyBuffer(copy_bc, b.buffer, c.buffer, 1, &whole);
        vkmm_test_full_barrier(copy_bc);
        VK_CHECK(vkEndCommandBuffer(copy_bc));

        /* queue 0: wait gate >= round + 1, fill, signal s1.  The value for
         * the binary s1 is ignored. */
        const uint64_t gate_value = round + 1, ignored = 0xFFFF;
        VkTimelineSemaphoreSubmitInfo fill_values = {
            .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
            .waitSemaphoreValueCount = 1,
            .pWaitSemaphoreValues = &gate_value,
            .signalSemaphoreValueCount = 1,
            .pSignalSemaphoreValues = &ignored,
        };
        VkPipelineStageFlags transfer_stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
        VkSubmitInfo fill_submit = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
            .pNext = &fill_values,
            .waitSemaphoreCount = 1,
            .pWaitSemaphores = &gate,
            .pWaitDstStageMask = &transfer_stage,
            .commandBufferCount = 1,
            .pCommandBuffers = &fill,
            .signalSemaphoreCount = 1,
            .pSignalSemaphores = &s1,
        };
        VK_CHECK(vkQueueSubmit(t->compute_queues[0], 1, &fill_submit, VK_NULL_HANDLE));
        /* transfer queue: wait s1, copy, signal s2 */
        VkSubmitInfo copy_submit = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
            .waitSemaphoreCount = 1,
            .pWaitSemaphores = &s1,
            .pWaitDstStageMask = &transfer_stage,
            .commandBufferCount = 1,
            .pCommandBuffers = &copy_ab,
            .signalSemaphoreCount = 1,
            .pSignalSemaphores = &s2,
        };
        VK_CHECK(vkQueueSubmit(t->transfer_queues[round % t->transfer_queue_count], 1, &copy_submit,
                               VK_NULL_HANDLE));
        /* queue 0 again (alternating with queue 3): wait s2 and the gate */
        VkSemaphore waits[2] = { s2, gate };
        VkPipelineStageFlags stages[2] = { VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT };
        const uint64_t wait_values[2] = { 0 /* binary: ignored */, gate_value };
        VkTimelineSemaphoreSubmitInfo last_values = {
            .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
            .waitSemaphoreValueCount = 2,
            .pWaitSemaphoreValues = wait_values,
        };
        VkSubmitInfo last_submit = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
            .pNext = &last_values,
            .waitSemaphoreCount = 2,
            .pWaitSemaphores = waits,
            .pWaitDstStageMask = stages,
            .commandBufferCount = 1,
            .pCommandBuffers = &copy_bc,
        };
        VK_CHECK(vkQueueSubmit(t->compute_queues[round % 2 ? 3 : 0], 1, &last_submit, fence));

        VkResult early = vkWaitForFences(t->device, 1, &fence, VK_TRUE, 30 * MS);
        uint32_t early_b = ((const uint32_t *)b.mapped)[0], early_c = ((const uint32_t *)c.mapped)[0];
        host_signal(t, gate, gate_value);
        assert_int_equal(early, VK_TIMEOUT);
        assert_int_equal(early_b, round == 0 ? SENTINEL : value - 1);
        assert_int_equal(early_c, round == 0 ? SENTINEL : value - 1);
        VK_CHECK(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX));
        VK_CHECK(vkResetFences(t->device, 1, &fence));
        expect_words(a.mapped, 0, WORDS, value);
        expect_words(b.mapped, 0, WORDS, value);
        expect_words(c.mapped, 0, WORDS, value);

        VK_CHECK(vkDeviceWaitIdle(t->device));
        VkCommandBuffer compute_cmds[2] = { fill, copy_bc };
        vkFreeCommandBuffers(t->device, t->pool, 2, compute_cmds);
        vkFreeCommandBuffers(t->device, transfer_pool, 1, &copy_ab);
    }
    vkDestroyCommandPool(t->device, transfer_pool, NULL);
    vkDestroyFence(t->device, fence, NULL);
    vkDestroySemaphore(t->device, gate, NULL);
    vkDestroySemaphore(t->device, s1, NULL);
    vkDestroySemaphore(t->device, s2, NULL);
    vkmm_test_buffer_destroy(t, &a);
    vkmm_test_buffer_destroy(t, &b);
    vkmm_test_buffer_destroy(t, &c);
}

/* Batches without command buffers still wait and signal: a timeline
 * signal-only batch, a binary semaphore passed between two empty batches
 * on different queues, and vkQueueSubmit2 forms of both. */
static void test_semaphore_only_batches(void **state)
{
    struct vkmm_test *t = *state;
    VkSemaphore s = create_timeline(t, 0), binary = create_binary(t);

    const uint64_t five = 5;
    VkTimelineSemaphoreSubmitInfo values = {
        .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
        .signalSemaphoreValueCount = 1,
        .pSignalSemaphoreValues = &five,
    };
    VkSubmitInfo signal_only = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .pNext = &values,
        .signalSemaphoreCount = 1,
        .pSignalSemaphores = &s,
    };
    VK_CHECK(vkQueueSubmit(t->compute_queues[0], 1, &signal_only, VK_NULL_HANDLE));
    assert_int_equal(host_wait(t, 1, &s, &five, false, 10000 * MS), VK_SUCCESS);
    assert_int_equal(counter(t, s), 5);

    for (uint32_t round = 0; round < 3; round++) {
        /* queue 1: wait s >= 6 + 2 round, signal binary; queue 2: wait
         * binary, signal s = 7 + 2 round. */
        VkSemaphoreSubmitInfo wait_s = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = s,
                                         .value = 6 + 2 * round, .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
        VkSemaphoreSubmitInfo signal_binary = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                                .semaphore = binary,
                                                .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
        VkSubmitInfo2 first = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
            .waitSemaphoreInfoCount = 1,
            .pWaitSemaphoreInfos = &wait_s,
            .signalSemaphoreInfoCount = 1,
            .pSignalSemaphoreInfos = &signal_binary,
        };
        VK_CHECK(vkQueueSubmit2(t->compute_queues[1], 1, &first, VK_NULL_HANDLE));
        VkSemaphoreSubmitInfo wait_binary = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = binary,
                                              .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
        VkSemaphoreSubmitInfo signal_s = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = s,
                                           .value = 7 + 2 * round,
                                           .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
        VkSubmitInfo2 second = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
            .waitSemaphoreInfoCount = 1,
            .pWaitSemaphoreInfos = &wait_binary,
            .signalSemaphoreInfoCount = 1,
            .pSignalSemaphoreInfos = &signal_s,
        };
        VK_CHECK(vkQueueSubmit2(t->compute_queues[2], 1, &second, VK_NULL_HANDLE));

        uint64_t target = 7 + 2 * round;
        VkResult early = host_wait(t, 1, &s, &target, false, 20 * MS);
        uint64_t early_counter = counter(t, s);
        host_signal(t, s, 6 + 2 * round);
        assert_int_equal(early, VK_TIMEOUT);
        assert_int_equal(early_counter, 5 + 2 * round);
        assert_int_equal(host_wait(t, 1, &s, &target, false, 10000 * MS), VK_SUCCESS);
        assert_int_equal(counter(t, s), target);
    }
    VK_CHECK(vkDeviceWaitIdle(t->device));
    vkDestroySemaphore(t->device, s, NULL);
    vkDestroySemaphore(t->device, binary, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_timeline_host_signal_and_wait, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_wait_semaphores_all_and_any, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_host_signal_from_other_thread, setup_without_validation,
                                        vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_wait_before_signal, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_submit_and_submit2_values, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_two_threads_timeline_chain, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_binary_semaphores_across_families, vkmm_test_setup,
                                        vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_semaphore_only_batches, vkmm_test_setup, vkmm_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
