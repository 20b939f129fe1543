/* Queue submission: several batches with several command buffers each run
 * in order (vkQueueSubmit and vkQueueSubmit2, and across calls), all six
 * queues work concurrently and independently, and a stress run of 200
 * small submissions with a fence each.
 *
 * Order is observed with a "stamp chain": each command buffer shifts the
 * words of a buffer up by one and writes its own id into word 0, so the
 * buffer ends up listing the ids of the executed command buffers, newest
 * first. */
#include <string.h>

#include "vkmm_test.h"

#define HOST_MEMORY (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
#define DEVICE_MEMORY VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT
#define MS 1000000ull
#define CHAIN_WORDS 64u

static VkFence create_fence(struct vkmm_test *t)
{
    VkFenceCreateInfo info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence;
    VK_CHECK(vkCreateFence(t->device, &info, NULL, &fence));
    return fence;
}

static VkSemaphore create_timeline(struct vkmm_test *t)
{
    VkSemaphoreTypeCreateInfo type = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
        .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
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

static VkCommandBuffer allocate_from(struct vkmm_test *t, VkCommandPool pool, VkCommandBufferUsageFlags usage)
{
    VkCommandBufferAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkCommandBuffer cmd;
    VK_CHECK(vkAllocateCommandBuffers(t->device, &info, &cmd));
    VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = usage };
    VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
    return cmd;
}

/* Shifts chain[0..N-2] up to chain[1..N-1] through tmp, then writes `id`
 * into chain[0]. */
static void record_stamp(VkCommandBuffer cmd, VkBuffer chain, VkBuffer tmp, uint32_t id)
{
    vkmm_test_full_barrier(cmd);
    VkBufferCopy down = { .srcOffset = 0, .dstOffset = 0, .size = (CHAIN_WORDS - 1) * 4 };
    vkCmdCopyBuffer(cmd, chain, tmp, 1, &down);
    vkmm_test_full_barrier(cmd);
    VkBufferCopy up = { .srcOffset = 0, .dstOffset = 4, .size = (CHAIN_WORDS - 1) * 4 };
    vkCmdCopyBuffer(cmd, tmp, chain, 1, &up);
    vkCmdFillBuffer(cmd, chain, 0, 4, id);
    vkmm_test_full_barrier(cmd);
}

/* Asserts the chain lists `ids` (oldest first), then zeros. */
static void expect_stamps(const struct vkmm_test_buffer *chain, uint32_t count, const uint32_t *ids)
{
    const uint32_t *w = chain->mapped;
    for (uint32_t i = 0; i < CHAIN_WORDS; i++) {
        uint32_t want = i < count ? ids[count - 1 - i] : 0;
        if (w[i] != want)
            fail_msg("chain word %u is %u, expected %u (execution order differs from submission order)", i, w[i],
                     want);
    }
}

/* vkQueueSubmit with 3 batches of 3 command buffers, then a second call
 * with 2 batches of 2 (reusing buffers): the stamps follow submission
 * order exactly. */
static void test_submit_batches_in_order(void **state)
{
    struct vkmm_test *t = *state;
    struct vkmm_test_buffer chain = vkmm_test_buffer_create(t, 4 * CHAIN_WORDS, HOST_MEMORY);
    struct vkmm_test_buffer tmp = vkmm_test_buffer_create(t, 4 * CHAIN_WORDS, DEVICE_MEMORY);
    memset(chain.mapped, 0, 4 * CHAIN_WORDS);
    enum { CMDS = 9 };
    VkCommandBuffer cmds[CMDS];
    for (uint32_t i = 0; i < CMDS; i++) {
        cmds[i] = allocate_from(t, t->pool, 0);
        record_stamp(cmds[i], chain.buffer, tmp.buffer, 101 + i);
        VK_CHECK(vkEndCommandBuffer(cmds[i]));
    }
    VkSubmitInfo batches[3];
    for (uint32_t b = 0; b < 3; b++)
        batches[b] = (VkSubmitInfo){ .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 3,
                                     .pCommandBuffers = &cmds[3 * b] };
    VkFence fence = create_fence(t);
    VK_CHECK(vkQueueSubmit(t->compute_queues[0], 3, batches, VK_NULL_HANDLE));
    /* The buffers are not simultaneous-use: the first call must finish
     * before they are submitted again. */
    VK_CHECK(vkQueueWaitIdle(t->compute_queues[0]));
    const uint32_t first_ids[CMDS] = { 101, 102, 103, 104, 105, 106, 107, 108, 109 };
    expect_stamps(&chain, CMDS, first_ids);

    VkCommandBuffer again_a[2] = { cmds[8], cmds[7] }, again_b[2] = { cmds[1], cmds[0] };
    VkSubmitInfo again[2] = {
        { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 2, .pCommandBuffers = again_a },
        { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 2, .pCommandBuffers = again_b },
    };
    /* Second call: cmds 8, 7 then 1, 0. */
    VK_CHECK(vkQueueSubmit(t->compute_queues[0], 2, again, fence));
    /* zero batches without a fence: nothing */
    VK_CHECK(vkQueueSubmit(t->compute_queues[0], 0, NULL, VK_NULL_HANDLE));
    VK_CHECK(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX));
    const uint32_t all_ids[CMDS + 4] = { 101, 102, 103, 104, 105, 106, 107, 108, 109, 109, 108, 102, 101 };
    expect_stamps(&chain, CMDS + 4, all_ids);

    vkFreeCommandBuffers(t->device, t->pool, CMDS, cmds);
    vkDestroyFence(t->device, fence, NULL);
    vkmm_test_buffer_destroy(t, &chain);
    vkmm_test_buffer_destroy(t, &tmp);
}

/* vkQueueSubmit2 with several batches and command buffers, interleaved
 * with vkQueueSubmit calls on the same queue without waiting in between,
 * all held back until everything is submitted: one queue order. */
static void test_submit2_and_mixed_calls_in_order(void **state)
{
    struct vkmm_test *t = *state;
    struct vkmm_test_buffer chain = vkmm_test_buffer_create(t, 4 * CHAIN_WORDS, HOST_MEMORY);
    struct vkmm_test_buffer tmp = vkmm_test_buffer_create(t, 4 * CHAIN_WORDS, DEVICE_MEMORY);
    memset(chain.mapped, 0, 4 * CHAIN_WORDS);
    enum { CMDS = 8 };
    VkCommandBuffer cmds[CMDS];
    for (uint32_t i = 0; i < CMDS; i++) {
        cmds[i] = allocate_from(t, t->pool, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
        record_stamp(cmds[i], chain.buffer, tmp.buffer, 201 + i);
        VK_CHECK(vkEndCommandBuffer(cmds[i]));
    }
    VkSemaphore gate = create_timeline(t);
    VkFence fence = create_fence(t);

    /* call 1 (Submit2): [gate wait; 0, 1] [2] */
    VkCommandBufferSubmitInfo infos[CMDS];
    for (uint32_t i = 0; i < CMDS; i++)
        infos[i] = (VkCommandBufferSubmitInfo){ .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                                .commandBuffer = cmds[i] };
    VkSemaphoreSubmitInfo wait = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = gate, .value = 1,
                                   .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    VkSubmitInfo2 call1[2] = {
        { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .waitSemaphoreInfoCount = 1, .pWaitSemaphoreInfos = &wait,
          .commandBufferInfoCount = 2, .pCommandBufferInfos = &infos[0] },
        { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = 1, .pCommandBufferInfos = &infos[2] },
    };
    VK_CHECK(vkQueueSubmit2(t->compute_queues[1], 2, call1, VK_NULL_HANDLE));
    /* call 2 (Submit): [3, 4] */
    VkSubmitInfo call2 = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 2,
                           .pCommandBuffers = &cmds[3] };
    VK_CHECK(vkQueueSubmit(t->compute_queues[1], 1, &call2, VK_NULL_HANDLE));
    /* call 3 (Submit2): [5] [] [6, 7] + fence */
    VkSubmitInfo2 call3[3] = {
        { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = 1, .pCommandBufferInfos = &infos[5] },
        { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2 },
        { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = 2, .pCommandBufferInfos = &infos[6] },
    };
    VK_CHECK(vkQueueSubmit2(t->compute_queues[1], 3, call3, fence));

    VkResult early = vkWaitForFences(t->device, 1, &fence, VK_TRUE, 20 * MS);
    uint32_t early_word = ((const uint32_t *)chain.mapped)[0];
    host_signal(t, gate, 1);
    assert_int_equal(early, VK_TIMEOUT);
    assert_int_equal(early_word, 0);
    VK_CHECK(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX));
    const uint32_t ids[CMDS] = { 201, 202, 203, 204, 205, 206, 207, 208 };
    expect_stamps(&chain, CMDS, ids);

    vkFreeCommandBuffers(t->device, t->pool, CMDS, cmds);
    vkDestroyFence(t->device, fence, NULL);
    vkDestroySemaphore(t->device, gate, NULL);
    vkmm_test_buffer_destroy(t, &chain);
    vkmm_test_buffer_destroy(t, &tmp);
}

/* Independent work on all four compute queues and both transfer queues at
 * once, each released by the same host signal; one queue kept blocked
 * does not hold the others back. */
static void test_all_queues_concurrently(void **state)
{
    struct vkmm_test *t = *state;
    assert_int_equal(t->compute_queue_count, 4);
    assert_int_equal(t->transfer_queue_count, 2);
    enum { QUEUES = 6, SIZE = 256 << 10, WORDS = SIZE / 4 };
    VkCommandPoolCreateInfo pool_info = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = 1 };
    VkCommandPool transfer_pool;
    VK_CHECK(vkCreateCommandPool(t->device, &pool_info, NULL, &transfer_pool));
    VkSemaphore gate = create_timeline(t);
    struct vkmm_test_buffer src[QUEUES], mid[QUEUES], dst[QUEUES];
    VkCommandBuffer cmds[QUEUES];
    VkFence fences[QUEUES];
    VkQueue queues[QUEUES];
    uint32_t update[1024];

    for (uint32_t q = 0; q < QUEUES; q++) {
        bool transfer = q >= 4;
        queues[q] = transfer ? t->transfer_queues[q - 4] : t->compute_queues[q];
        src[q] = vkmm_test_buffer_create(t, SIZE, HOST_MEMORY);
        mid[q] = vkmm_test_buffer_create(t, SIZE, DEVICE_MEMORY);
        dst[q] = vkmm_test_buffer_create(t, SIZE, HOST_MEMORY);
        uint32_t *in = src[q].mapped;
        for (uint32_t i = 0; i < WORDS; i++)
            in[i] = (q << 24) ^ i;
        memset(dst[q].mapped, 0, SIZE);
        fences[q] = create_fence(t);
        cmds[q] = allocate_from(t, transfer ? transfer_pool : t->pool, 0);
        VkBufferCopy whole = { .srcOffset = 0, .dstOffset = 0, .size = SIZE };
        vkCmdCopyBuffer(cmds[q], src[q].buffer, mid[q].buffer, 1, &whole);
        vkmm_test_full_barrier(cmds[q]);
        vkCmdFillBuffer(cmds[q], mid[q].buffer, 4096 * q, 4096, 0xF111F000u + q);
        vkmm_test_full_barrier(cmds[q]);
        for (uint32_t i = 0; i < 1024; i++)
            update[i] = 0xD0D00000u + q * 4096 + i;
        vkCmdUpdateBuffer(cmds[q], mid[q].buffer, 65536, sizeof(update), update);
        vkmm_test_full_barrier(cmds[q]);
        vkCmdCopyBuffer(cmds[q], mid[q].buffer, dst[q].buffer, 1, &whole);
        vkmm_test_full_barrier(cmds[q]);
        VK_CHECK(vkEndCommandBuffer(cmds[q]));

        /* queue 3 waits for 2, the rest for 1 */
        const uint64_t value = q == 3 ? 2 : 1;
        VkSemaphoreSubmitInfo wait = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = gate,
                                       .value = value, .stageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT };
        VkCommandBufferSubmitInfo cmd_info = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                               .commandBuffer = cmds[q] };
        VkSubmitInfo2 submit = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
            .waitSemaphoreInfoCount = 1,
            .pWaitSemaphoreInfos = &wait,
            .commandBufferInfoCount = 1,
            .pCommandBufferInfos = &cmd_info,
        };
        VK_CHECK(vkQueueSubmit2(queues[q], 1, &submit, fences[q]));
    }

    host_signal(t, gate, 1);
    VkFence others[5] = { fences[0], fences[1], fences[2], fences[4], fences[5] };
    VkResult others_done = vkWaitForFences(t->device, 5, others, VK_TRUE, 10000 * MS);
    VkResult blocked = vkGetFenceStatus(t->device, fences[3]);
    uint32_t blocked_word = ((const uint32_t *)dst[3].mapped)[0];
    host_signal(t, gate, 2);
    assert_int_equal(others_done, VK_SUCCESS);
    assert_int_equal(blocked, VK_NOT_READY);
    assert_int_equal(blocked_word, 0);
    VK_CHECK(vkWaitForFences(t->device, QUEUES, fences, VK_TRUE, UINT64_MAX));

    for (uint32_t q = 0; q < QUEUES; q++) {
        const uint32_t *out = dst[q].mapped;
        for (uint32_t i = 0; i < WORDS; i++) {
            uint32_t want = (q << 24) ^ i;
            if (i >= 1024 * q && i < 1024 * (q + 1))
                want = 0xF111F000u + q;
            if (i >= 16384 && i < 16384 + 1024)
                want = 0xD0D00000u + q * 4096 + (i - 16384);
            if (out[i] != want)
                fail_msg("queue %u: word %u is 0x%08x, expected 0x%08x", q, i, out[i], want);
        }
    }
    for (uint32_t q = 0; q < QUEUES; q++) {
        vkFreeCommandBuffers(t->device, q >= 4 ? transfer_pool : t->pool, 1, &cmds[q]);
        vkDestroyFence(t->device, fences[q], NULL);
        vkmm_test_buffer_destroy(t, &src[q]);
        vkmm_test_buffer_destroy(t, &mid[q]);
        vkmm_test_buffer_destroy(t, &dst[q]);
    }
    vkDestroyCommandPool(t->device, transfer_pool, NULL);
    vkDestroySemaphore(t->device, gate, NULL);
}

/* 200 small submissions, each with its own fence: first spread over the
 * four compute queues (independent fills), then all on one queue with one
 * simultaneous-use command buffer that counts its own executions. */
static void test_stress_200_submissions(void **state)
{
    struct vkmm_test *t = *state;
    enum { N = 200 };
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 4 * N, HOST_MEMORY);
    memset(b.mapped, 0, 4 * N);
    VkFence fences[N];
    VkCommandBuffer cmds[N];
    for (uint32_t i = 0; i < N; i++) {
        fences[i] = create_fence(t);
        cmds[i] = allocate_from(t, t->pool, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
        vkCmdFillBuffer(cmds[i], b.buffer, 4 * i, 4, 7 * i + 1);
        vkmm_test_full_barrier(cmds[i]);
        VK_CHECK(vkEndCommandBuffer(cmds[i]));
        VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                                .pCommandBuffers = &cmds[i] };
        VK_CHECK(vkQueueSubmit(t->compute_queues[i % 4], 1, &submit, fences[i]));
    }
    VK_CHECK(vkWaitForFences(t->device, N, fences, VK_TRUE, UINT64_MAX));
    const uint32_t *w = b.mapped;
    for (uint32_t i = 0; i < N; i++) {
        assert_int_equal(vkGetFenceStatus(t->device, fences[i]), VK_SUCCESS);
        if (w[i] != 7 * i + 1)
            fail_msg("submission %u: word is %u, expected %u", i, w[i], 7 * i + 1);
    }
    vkFreeCommandBuffers(t->device, t->pool, N, cmds);
    VK_CHECK(vkResetFences(t->device, N, fences));

    /* One queue, one simultaneous-use command buffer adding a word to a
     * run of them each time: d = [V, 0, ...] grows to N + 1 Vs. */
    struct vkmm_test_buffer d = vkmm_test_buffer_create(t, 4 * (N + 8), HOST_MEMORY);
    struct vkmm_test_buffer tmp = vkmm_test_buffer_create(t, 4 * (N + 8), DEVICE_MEMORY);
    uint32_t *dw = d.mapped;
    memset(dw, 0, 4 * (N + 8));
    dw[0] = 0x600DF00Du;
    VkCommandBuffer grow = allocate_from(t, t->pool, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
    vkmm_test_full_barrier(grow);
    VkBufferCopy down = { .srcOffset = 0, .dstOffset = 0, .size = 4 * (N + 7) };
    vkCmdCopyBuffer(grow, d.buffer, tmp.buffer, 1, &down);
    vkmm_test_full_barrier(grow);
    VkBufferCopy up = { .srcOffset = 0, .dstOffset = 4, .size = 4 * (N + 7) };
    vkCmdCopyBuffer(grow, tmp.buffer, d.buffer, 1, &up);
    vkmm_test_full_barrier(grow);
    VK_CHECK(vkEndCommandBuffer(grow));
    for (uint32_t i = 0; i < N; i++) {
        VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                                .pCommandBuffers = &grow };
        VK_CHECK(vkQueueSubmit(t->compute_queues[0], 1, &submit, fences[i]));
    }
    /* Fences signal in submission order on one queue: once the last one
     * is signalled, all are. */
    VK_CHECK(vkWaitForFences(t->device, 1, &fences[N - 1], VK_TRUE, UINT64_MAX));
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(vkGetFenceStatus(t->device, fences[i]), VK_SUCCESS);
    for (uint32_t i = 0; i < N + 8; i++) {
        uint32_t want = i <= N ? 0x600DF00Du : 0;
        if (dw[i] != want)
            fail_msg("after %u runs word %u is 0x%08x, expected 0x%08x", N, i, dw[i], want);
    }

    vkFreeCommandBuffers(t->device, t->pool, 1, &grow);
    for (uint32_t i = 0; i < N; i++)
        vkDestroyFence(t->device, fences[i], NULL);
    vkmm_test_buffer_destroy(t, &b);
    vkmm_test_buffer_destroy(t, &d);
    vkmm_test_buffer_destroy(t, &tmp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_submit_batches_in_order, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_submit2_and_mixed_calls_in_order, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_all_queues_concurrently, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_stress_200_submissions, vkmm_test_setup, vkmm_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
