/* Timestamp queries: properties, vkCmdResetQueryPool and host
 * vkResetQueryPool, vkCmdWriteTimestamp / vkCmdWriteTimestamp2 at several
 * points, vkGetQueryPoolResults in 32/64 bits with and without
 * WITH_AVAILABILITY, WAIT and strides, VK_NOT_READY for unwritten queries,
 * vkCmdCopyQueryPoolResults into a buffer, and timestamps that measure a
 * host-imposed delay.
 *
 * VK_QUERY_RESULT_PARTIAL_BIT is not exercised: it is invalid for
 * timestamp pools (VUID-vkGetQueryPoolResults-queryType-00818,
 * VUID-vkCmdCopyQueryPoolResults-queryType-00827).  Occlusion pools (core
 * 1.0) are created, reset and read; only a graphics queue could begin one. */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "vkmm_test.h"

#define HOST_MEMORY (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
#define MS 1000000ull

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

static VkQueryPool create_pool(struct vkmm_test *t, uint32_t count)
{
    VkQueryPoolCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP,
        .queryCount = count,
    };
    VkQueryPool pool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateQueryPool(t->device, &info, NULL, &pool));
    return pool;
}

/* vkGetQueryPoolResults of `count` 64-bit values, tightly packed. */
static VkResult get64(struct vkmm_test *t, VkQueryPool pool, uint32_t first, uint32_t count, uint64_t *out,
                      VkQueryResultFlags extra)
{
    return vkGetQueryPoolResults(t->device, pool, first, count, count * sizeof(uint64_t), out, sizeof(uint64_t),
                                 VK_QUERY_RESULT_64_BIT | extra);
}

/* The device's timestamp properties are the ones vkmm documents. */
static void test_timestamp_properties(void **state)
{
    struct vkmm_test *t = *state;
    assert_true(t->properties.limits.timestampPeriod == 1.0f);
    assert_int_equal(t->properties.limits.timestampComputeAndGraphics, VK_TRUE);
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(t->physical_device, &count, NULL);
    assert_int_equal(count, 2);
    VkQueueFamilyProperties families[2];
    vkGetPhysicalDeviceQueueFamilyProperties(t->physical_device, &count, families);
    assert_int_equal(families[0].timestampValidBits, 64);
    assert_int_equal(families[1].timestampValidBits, 64);
}

/* Timestamps written with both commands at several stages, in two
 * submissions, are available, non-zero and non-decreasing in submission
 * order; the 32-bit results are their low 32 bits. */
static void test_write_timestamps_in_order(void **state)
{
    struct vkmm_test *t = *state;
    enum { QUERIES = 10 };
    VkQueryPool pool = create_pool(t, QUERIES);
    struct vkmm_test_buffer a = vkmm_test_buffer_create(t, 1 << 20, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 1 << 20, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);

    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdResetQueryPool(cmd, pool, 0, QUERIES);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
    vkCmdFillBuffer(cmd, a.buffer, 0, VK_WHOLE_SIZE, 0x12345678);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, pool, 1);
    vkmm_test_full_barrier(cmd);
    VkBufferCopy whole = { .srcOffset = 0, .dstOffset = 0, .size = 1 << 20 };
    vkCmdCopyBuffer(cmd, a.buffer, b.buffer, 1, &whole);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, pool, 2);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, pool, 3);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 4);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, 5);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    /* Second submission, same queue: queries 6.. after the first ones. */
    cmd = vkmm_test_begin(t);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, pool, 6);
    vkmm_test_full_barrier(cmd);
    vkCmdFillBuffer(cmd, b.buffer, 0, VK_WHOLE_SIZE, 0);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, pool, 7);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, pool, 8);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, pool, 9);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    uint64_t ts[QUERIES];
    memset(ts, 0, sizeof(ts));
    assert_int_equal(get64(t, pool, 0, QUERIES, ts, VK_QUERY_RESULT_WAIT_BIT), VK_SUCCESS);
    for (uint32_t q = 0; q < QUERIES; q++) {
        assert_true(ts[q] != 0);
        if (q > 0 && ts[q] < ts[q - 1])
            fail_msg("timestamp %u (%llu) is before timestamp %u (%llu)", q, (unsigned long long)ts[q], q - 1,
                     (unsigned long long)ts[q - 1]);
    }
    /* Without WAIT, all being available: the same values. */
    uint64_t again[QUERIES];
    assert_int_equal(get64(t, pool, 0, QUERIES, again, 0), VK_SUCCESS);
    assert_memory_equal(again, ts, sizeof(ts));
    uint32_t low[QUERIES];
    assert_int_equal(vkGetQueryPoolResults(t->device, pool, 0, QUERIES, sizeof(low), low, sizeof(uint32_t), 0),
                     VK_SUCCESS);
    for (uint32_t q = 0; q < QUERIES; q++)
        assert_int_equal(low[q], (uint32_t)ts[q]);

    vkDestroyQueryPool(t->device, pool, NULL);
    vkmm_test_buffer_destroy(t, &a);
    vkmm_test_buffer_destroy(t, &b);
}

/* Result layouts: WITH_AVAILABILITY in both widths, strides larger than a
 * result (the padding is left alone), and a sub-range of the pool. */
static void test_result_flags_and_stride(void **state)
{
    struct vkmm_test *t = *state;
    enum { QUERIES = 6 };
    VkQueryPool pool = create_pool(t, QUERIES);
    vkResetQueryPool(t->device, pool, 0, QUERIES);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    for (uint32_t q = 0; q < QUERIES; q++)
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, q);
    vkmm_test_submit_and_wait(t, t->compute_queues[1], cmd);

    uint64_t ts[QUERIES];
    assert_int_equal(get64(t, pool, 0, QUERIES, ts, 0), VK_SUCCESS);

    /* 64-bit with availability, stride 24: value, availability, padding */
    uint64_t wide[QUERIES * 3];
    memset(wide, 0xAB, sizeof(wide));
    assert_int_equal(vkGetQueryPoolResults(t->device, pool, 0, QUERIES, sizeof(wide), wide, 24,
                                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
                     VK_SUCCESS);
    for (uint32_t q = 0; q < QUERIES; q++) {
        assert_true(wide[3 * q] == ts[q]);
        assert_int_equal(wide[3 * q + 1], 1);
        assert_true(wide[3 * q + 2] == 0xABABABABABABABABull);
    }

    /* 32-bit with availability, stride 8 (tight) and stride 12 */
    uint32_t narrow[QUERIES * 3];
    assert_int_equal(vkGetQueryPoolResults(t->device, pool, 0, QUERIES, QUERIES * 8, narrow, 8,
                                           VK_QUERY_RESULT_WITH_AVAILABILITY_BIT | VK_QUERY_RESULT_WAIT_BIT),
                     VK_SUCCESS);
    for (uint32_t q = 0; q < QUERIES; q++) {
        assert_int_equal(narrow[2 * q], (uint32_t)ts[q]);
        assert_int_equal(narrow[2 * q + 1], 1);
    }
    memset(narrow, 0xCD, sizeof(narrow));
    assert_int_equal(vkGetQueryPoolResults(t->device, pool, 0, QUERIES, sizeof(narrow), narrow, 12,
                                           VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
                     VK_SUCCESS);
    for (uint32_t q = 0; q < QUERIES; q++) {
        assert_int_equal(narrow[3 * q], (uint32_t)ts[q]);
        assert_int_equal(narrow[3 * q + 1], 1);
        assert_int_equal(narrow[3 * q + 2], 0xCDCDCDCDu);
    }

    /* queries 2..4 only, 64-bit, stride 16 without availability */
    uint64_t sub[6];
    memset(sub, 0xEF, sizeof(sub));
    assert_int_equal(vkGetQueryPoolResults(t->device, pool, 2, 3, 16 * 2 + 8, sub, 16,
                                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                     VK_SUCCESS);
    for (uint32_t i = 0; i < 3; i++) {
        assert_true(sub[2 * i] == ts[2 + i]);
        if (i < 2)
            assert_true(sub[2 * i + 1] == 0xEFEFEFEFEFEFEFEFull);
    }
    assert_true(sub[5] == 0xEFEFEFEFEFEFEFEFull);
    vkDestroyQueryPool(t->device, pool, NULL);
}

/* After a host reset, unwritten queries are VK_NOT_READY: no value is
 * written for them, availability (when asked) is 0, and available queries
 * in the same call are still written. */
static void test_not_ready_after_host_reset(void **state)
{
    struct vkmm_test *t = *state;
    enum { QUERIES = 4 };
    VkQueryPool pool = create_pool(t, QUERIES);
    vkResetQueryPool(t->device, pool, 0, QUERIES);

    uint64_t values[QUERIES * 2];
    memset(values, 0x77, sizeof(values));
    assert_int_equal(get64(t, pool, 0, QUERIES, values, 0), VK_NOT_READY);
    for (uint32_t i = 0; i < QUERIES; i++)
        assert_true(values[i] == 0x7777777777777777ull);
    assert_int_equal(vkGetQueryPoolResults(t->device, pool, 0, QUERIES, sizeof(values), values, 16,
                                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
                     VK_NOT_READY);
    for (uint32_t q = 0; q < QUERIES; q++) {
        assert_true(values[2 * q] == 0x7777777777777777ull);
        assert_int_equal(values[2 * q + 1], 0);
    }

    /* Write all four, then host-reset query 1 only. */
    VkCommandBuffer cmd = vkmm_test_begin(t);
    for (uint32_t q = 0; q < QUERIES; q++)
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, q);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    uint64_t ts[QUERIES];
    assert_int_equal(get64(t, pool, 0, QUERIES, ts, 0), VK_SUCCESS);
    vkResetQueryPool(t->device, pool, 1, 1);

    memset(values, 0x77, sizeof(values));
    assert_int_equal(vkGetQueryPoolResults(t->device, pool, 0, QUERIES, sizeof(values), values, 16,
                                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
                     VK_NOT_READY);
    for (uint32_t q = 0; q < QUERIES; q++) {
        if (q == 1) {
            assert_true(values[2 * q] == 0x7777777777777777ull);
            assert_int_equal(values[2 * q + 1], 0);
        } else {
            assert_true(values[2 * q] == ts[q]);
            assert_int_equal(values[2 * q + 1], 1);
        }
    }
    uint32_t narrow[QUERIES];
    memset(narrow, 0x77, sizeof(narrow));
    assert_int_equal(vkGetQueryPoolResults(t->device, pool, 0, QUERIES, sizeof(narrow), narrow, 4, 0), VK_NOT_READY);
    assert_int_equal(narrow[1], 0x77777777u);
    assert_int_equal(narrow[3], (uint32_t)ts[3]);
    /* The available ones alone are ready. */
    assert_int_equal(get64(t, pool, 2, 2, values, 0), VK_SUCCESS);
    assert_true(values[0] == ts[2] && values[1] == ts[3]);

    /* A device reset does the same. */
    cmd = vkmm_test_begin(t);
    vkCmdResetQueryPool(cmd, pool, 0, QUERIES);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 2);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memset(values, 0x77, sizeof(values));
    assert_int_equal(vkGetQueryPoolResults(t->device, pool, 0, QUERIES, sizeof(values), values, 16,
                                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
                     VK_NOT_READY);
    for (uint32_t q = 0; q < QUERIES; q++)
        assert_int_equal(values[2 * q + 1], q == 2 ? 1 : 0);
    assert_true(values[2 * 2] >= ts[3]);
    vkDestroyQueryPool(t->device, pool, NULL);
}

struct delayed_event {
    struct vkmm_test *t;
    VkEvent event;
    uint64_t delay_ms;
    VkResult result;
};

static void *set_event_later(void *arg)
{
    struct delayed_event *d = arg;
    sleep_ms(d->delay_ms);
    d->result = vkSetEvent(d->t->device, d->event);
    return NULL;
}

/* vkGetQueryPoolResults with WAIT blocks until the device writes the
 * query; two timestamps around a vkCmdWaitEvents that the host releases
 * 30 ms later are at least 30 ms apart (timestampPeriod is 1 ns). */
static void test_wait_bit_and_elapsed_time(void **state)
{
    struct vkmm_test *t = *state;
    VkQueryPool pool = create_pool(t, 2);
    vkResetQueryPool(t->device, pool, 0, 2);
    VkEventCreateInfo event_info = { .sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO };
    VkEvent event;
    VK_CHECK(vkCreateEvent(t->device, &event_info, NULL, &event));

    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
    vkCmdWaitEvents(cmd, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, NULL, 0, NULL,
                    0, NULL);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
    VK_CHECK(vkEndCommandBuffer(cmd));
    VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence;
    VK_CHECK(vkCreateFence(t->device, &fence_info, NULL, &fence));
    VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd };
    VK_CHECK(vkQueueSubmit(t->compute_queues[2], 1, &submit, fence));

    /* Query 0 becomes available while the command buffer is blocked. */
    uint64_t ts0 = 0, ts1 = 0;
    VkResult first = VK_NOT_READY;
    for (uint64_t start = now_ns(); first == VK_NOT_READY && now_ns() - start < 5000 * MS;) {
        first = get64(t, pool, 0, 1, &ts0, 0);
        if (first == VK_NOT_READY)
            sleep_ms(1);
    }
    VkResult second_early = get64(t, pool, 1, 1, &ts1, 0);
    VkResult fence_early = vkGetFenceStatus(t->device, fence);

    struct delayed_event d = { t, event, 30, VK_ERROR_UNKNOWN };
    pthread_t thread;
    uint64_t start = now_ns();
    if (pthread_create(&thread, NULL, set_event_later, &d) != 0) {
        VK_CHECK(vkSetEvent(t->device, event));
        fail_msg("pthread_create failed");
    }
    VkResult second = get64(t, pool, 1, 1, &ts1, VK_QUERY_RESULT_WAIT_BIT);
    uint64_t waited = now_ns() - start;
    pthread_join(thread, NULL);
    VK_CHECK(d.result);
    VK_CHECK(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX));

    assert_int_equal(first, VK_SUCCESS);
    assert_int_equal(second_early, VK_NOT_READY);
    assert_int_equal(fence_early, VK_NOT_READY);
    assert_int_equal(second, VK_SUCCESS);
    assert_true(waited >= 30 * MS);
    if (ts1 < ts0 || ts1 - ts0 < 30 * MS)
        fail_msg("timestamps %llu and %llu are less than 30 ms apart", (unsigned long long)ts0,
                 (unsigned long long)ts1);

    vkFreeCommandBuffers(t->device, t->pool, 1, &cmd);
    vkDestroyFence(t->device, fence, NULL);
    vkDestroyEvent(t->device, event, NULL);
    vkDestroyQueryPool(t->device, pool, NULL);
}

/* vkCmdCopyQueryPoolResults: 64-bit with availability (WAIT) at an
 * offset, 32-bit with availability, and an unwritten query whose
 * availability is copied as 0; the values match vkGetQueryPoolResults. */
static void test_copy_query_pool_results(void **state)
{
    struct vkmm_test *t = *state;
    enum { QUERIES = 4, WRITTEN = 3 };
    VkQueryPool pool = create_pool(t, QUERIES);
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, 256, HOST_MEMORY);
    memset(out.mapped, 0xAB, 256);

    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdResetQueryPool(cmd, pool, 0, QUERIES);
    for (uint32_t q = 0; q < WRITTEN; q++)
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, q);
    /* 64-bit + availability, stride 16, at byte 16: bytes 16..63 */
    vkCmdCopyQueryPoolResults(cmd, pool, 0, WRITTEN, out.buffer, 16, 16,
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
                                  VK_QUERY_RESULT_WAIT_BIT);
    /* 32-bit + availability, stride 12, at byte 64: bytes 64..95 */
    vkCmdCopyQueryPoolResults(cmd, pool, 0, WRITTEN, out.buffer, 64, 12,
                              VK_QUERY_RESULT_WITH_AVAILABILITY_BIT | VK_QUERY_RESULT_WAIT_BIT);
    /* the unwritten query 3, no WAIT: availability 0 at bytes 136..143 */
    vkCmdCopyQueryPoolResults(cmd, pool, 3, 1, out.buffer, 128, 16,
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
    /* 64-bit plain, stride 8, at byte 160: bytes 160..183 */
    vkCmdCopyQueryPoolResults(cmd, pool, 0, WRITTEN, out.buffer, 160, 8, VK_QUERY_RESULT_64_BIT);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    uint64_t ts[WRITTEN];
    assert_int_equal(get64(t, pool, 0, WRITTEN, ts, 0), VK_SUCCESS);
    const uint8_t *bytes = out.mapped;
    uint64_t v64;
    uint32_t v32;
    for (uint32_t i = 0; i < 16; i++)
        assert_int_equal(bytes[i], 0xAB);
    for (uint32_t q = 0; q < WRITTEN; q++) {
        memcpy(&v64, bytes + 16 + 16 * q, 8);
        assert_true(v64 == ts[q]);
        memcpy(&v64, bytes + 16 + 16 * q + 8, 8);
        assert_int_equal(v64, 1);
        memcpy(&v32, bytes + 64 + 12 * q, 4);
        assert_int_equal(v32, (uint32_t)ts[q]);
        memcpy(&v32, bytes + 64 + 12 * q + 4, 4);
        assert_int_equal(v32, 1);
        if (q < WRITTEN - 1) {
            memcpy(&v32, bytes + 64 + 12 * q + 8, 4);
            assert_int_equal(v32, 0xABABABABu); /* stride padding */
        }
        memcpy(&v64, bytes + 160 + 8 * q, 8);
        assert_true(v64 == ts[q]);
    }
    for (uint32_t i = 96; i < 128; i++)
        assert_int_equal(bytes[i], 0xAB);
    for (uint32_t i = 144; i < 160; i++)
        assert_int_equal(bytes[i], 0xAB);
    memcpy(&v64, bytes + 136, 8);
    assert_int_equal(v64, 0);
    for (uint32_t i = 184; i < 256; i++)
        assert_int_equal(bytes[i], 0xAB);
    vkDestroyQueryPool(t->device, pool, NULL);
    vkmm_test_buffer_destroy(t, &out);
}

/* Timestamps on both transfer-only queues, from a pool of that family. */
static void test_timestamps_on_transfer_queue(void **state)
{
    struct vkmm_test *t = *state;
    VkQueryPool pool = create_pool(t, 4);
    vkResetQueryPool(t->device, pool, 0, 4);
    VkCommandPoolCreateInfo pool_info = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = 1 };
    VkCommandPool cmd_pool;
    VK_CHECK(vkCreateCommandPool(t->device, &pool_info, NULL, &cmd_pool));
    for (uint32_t q = 0; q < 2; q++) {
        VkCommandBufferAllocateInfo alloc = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
            .commandPool = cmd_pool,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
            .commandBufferCount = 1,
        };
        VkCommandBuffer cmd;
        VK_CHECK(vkAllocateCommandBuffers(t->device, &alloc, &cmd));
        VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
        VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, pool, 2 * q);
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, pool, 2 * q + 1);
        VK_CHECK(vkEndCommandBuffer(cmd));
        VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
        VkFence fence;
        VK_CHECK(vkCreateFence(t->device, &fence_info, NULL, &fence));
        VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                                .pCommandBuffers = &cmd };
        VK_CHECK(vkQueueSubmit(t->transfer_queues[q], 1, &submit, fence));
        VK_CHECK(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX));
        vkDestroyFence(t->device, fence, NULL);
        vkFreeCommandBuffers(t->device, cmd_pool, 1, &cmd);
    }
    uint64_t ts[4];
    assert_int_equal(get64(t, pool, 0, 4, ts, 0), VK_SUCCESS);
    for (uint32_t q = 0; q < 4; q++)
        assert_true(ts[q] != 0);
    assert_true(ts[1] >= ts[0]);
    assert_true(ts[3] >= ts[2]);
    vkDestroyCommandPool(t->device, cmd_pool, NULL);
    vkDestroyQueryPool(t->device, pool, NULL);
}

/* An occlusion pool is created like any core pool type; reset on the host,
 * its queries are not ready (nothing can begin one without a graphics
 * queue).  A pipeline-statistics pool needs a feature vkmm does not
 * report, and is refused. */
static void test_occlusion_pool_is_created_and_read(void **state)
{
    struct vkmm_test *t = *state;
    VkQueryPoolCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_OCCLUSION,
        .queryCount = 2,
    };
    VkQueryPool pool = VK_NULL_HANDLE;
    assert_int_equal(vkCreateQueryPool(t->device, &info, NULL, &pool), VK_SUCCESS);
    vkResetQueryPool(t->device, pool, 0, 2);
    uint64_t values[2] = { 5, 5 };
    assert_int_equal(get64(t, pool, 0, 2, values, 0), VK_NOT_READY);
    assert_true(values[0] == 5 && values[1] == 5);
    vkDestroyQueryPool(t->device, pool, NULL);
    VkPhysicalDeviceFeatures features;
    vkGetPhysicalDeviceFeatures(t->physical_device, &features);
    assert_int_equal(features.pipelineStatisticsQuery, VK_FALSE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_timestamp_properties, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_write_timestamps_in_order, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_result_flags_and_stride, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_not_ready_after_host_reset, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_wait_bit_and_elapsed_time, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_copy_query_pool_results, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_timestamps_on_transfer_queue, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_occlusion_pool_is_created_and_read, vkmm_test_setup, vkmm_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
