/* Command pools and command buffers: pool creation flags, allocating and
 * freeing primaries and secondaries, begin/end/reset in every form (buffer
 * reset, implicit reset by vkBeginCommandBuffer, pool reset with and without
 * RELEASE_RESOURCES, trimming), re-recording, ONE_TIME_SUBMIT against
 * reusable buffers, SIMULTANEOUS_USE, and vkCmdExecuteCommands. */
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

#define HOST_MEMORY (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
#define SENTINEL 0x5EE75EE7u

#define EXPECT_WORD(array, i, value)                                                                     \
    do {                                                                                                 \
        uint32_t got_ = (array)[i], want_ = (value);                                                     \
        if (got_ != want_)                                                                               \
            fail_msg("%s[%u] = 0x%08x, expected 0x%08x", #array, (unsigned)(i), got_, want_);            \
    } while (0)

static void set_words(void *p, uint32_t first, uint32_t count, uint32_t value)
{
    uint32_t *w = p;
    for (uint32_t i = first; i < first + count; i++)
        w[i] = value;
}

static void expect_words(const void *p, uint32_t first, uint32_t count, uint32_t value)
{
    const uint32_t *words = p;
    for (uint32_t i = first; i < first + count; i++)
        EXPECT_WORD(words, i, value);
}

static VkCommandPool create_pool(struct vkmm_test *t, VkCommandPoolCreateFlags flags, uint32_t family)
{
    VkCommandPoolCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = flags,
        .queueFamilyIndex = family,
    };
    VkCommandPool pool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateCommandPool(t->device, &info, NULL, &pool));
    assert_true(pool != VK_NULL_HANDLE);
    return pool;
}

static void allocate(struct vkmm_test *t, VkCommandPool pool, VkCommandBufferLevel level, uint32_t count,
                     VkCommandBuffer *out)
{
    VkCommandBufferAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = pool,
        .level = level,
        .commandBufferCount = count,
    };
    VK_CHECK(vkAllocateCommandBuffers(t->device, &info, out));
    for (uint32_t i = 0; i < count; i++)
        assert_true(out[i] != VK_NULL_HANDLE);
}

static void begin(VkCommandBuffer cmd, VkCommandBufferUsageFlags flags)
{
    VkCommandBufferBeginInfo info = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = flags };
    VK_CHECK(vkBeginCommandBuffer(cmd, &info));
}

static void begin_secondary(VkCommandBuffer cmd, VkCommandBufferUsageFlags flags)
{
    VkCommandBufferInheritanceInfo inheritance = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
        .renderPass = VK_NULL_HANDLE,
        .subpass = 0,
        .framebuffer = VK_NULL_HANDLE,
        .occlusionQueryEnable = VK_FALSE,
    };
    VkCommandBufferBeginInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = flags,
        .pInheritanceInfo = &inheritance,
    };
    VK_CHECK(vkBeginCommandBuffer(cmd, &info));
}

/* One batch of `count` command buffers, waited for with a fence. */
static void submit_and_wait(struct vkmm_test *t, VkQueue queue, uint32_t count, const VkCommandBuffer *cmds)
{
    VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence;
    VK_CHECK(vkCreateFence(t->device, &fence_info, NULL, &fence));
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = count,
        .pCommandBuffers = cmds,
    };
    VK_CHECK(vkQueueSubmit(queue, 1, &submit, fence));
    VK_CHECK(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX));
    vkDestroyFence(t->device, fence, NULL);
}

static void fill_words(VkCommandBuffer cmd, VkBuffer buffer, uint32_t first_word, uint32_t count, uint32_t value)
{
    vkCmdFillBuffer(cmd, buffer, first_word * 4ull, count * 4ull, value);
}

/* The "shift chain": d[1..N-1] = d[0..N-2] through a temporary buffer, with
 * barriers on both sides so it orders against everything around it.  With
 * d = [V, 0, 0, ...] every execution adds one more leading V, so the count
 * of leading Vs says how many times it ran. */
#define CHAIN_WORDS 32u
#define CHAIN_VALUE 0xC4A1C4A1u

static void record_shift(VkCommandBuffer cmd, VkBuffer d, VkBuffer tmp)
{
    vkmm_test_full_barrier(cmd);
    VkBufferCopy down = { .srcOffset = 0, .dstOffset = 0, .size = (CHAIN_WORDS - 1) * 4 };
    vkCmdCopyBuffer(cmd, d, tmp, 1, &down);
    vkmm_test_full_barrier(cmd);
    VkBufferCopy up = { .srcOffset = 0, .dstOffset = 4, .size = (CHAIN_WORDS - 1) * 4 };
    vkCmdCopyBuffer(cmd, tmp, d, 1, &up);
    vkmm_test_full_barrier(cmd);
}

static void chain_init(struct vkmm_test_buffer *d)
{
    set_words(d->mapped, 0, CHAIN_WORDS, 0);
    ((uint32_t *)d->mapped)[0] = CHAIN_VALUE;
}

/* Asserts that d holds exactly `runs` + 1 leading CHAIN_VALUEs, then 0s. */
static void expect_chain(const struct vkmm_test_buffer *d, uint32_t runs)
{
    assert_true(runs + 1 <= CHAIN_WORDS);
    const uint32_t *w = d->mapped;
    for (uint32_t i = 0; i < CHAIN_WORDS; i++) {
        uint32_t want = i <= runs ? CHAIN_VALUE : 0;
        if (w[i] != want)
            fail_msg("after %u runs of the shift chain word %u is 0x%08x, expected 0x%08x", runs, i, w[i], want);
    }
}

/* Every combination of pool flags, in both queue families: the pool
 * allocates a buffer whose recorded fill runs on a queue of that family. */
static void test_pool_flags_record_and_run(void **state)
{
    struct vkmm_test *t = *state;
    static const VkCommandPoolCreateFlags flag_sets[] = {
        0,
        VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
        VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        VK_COMMAND_POOL_CREATE_TRANSIENT_BIT | VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
    };
    assert_true(t->transfer_queue_count >= 1);
    for (uint32_t family = 0; family < 2; family++) {
        /* One buffer per family: an EXCLUSIVE buffer is only ever used by
         * the family that first used it. */
        struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 4 * 64, HOST_MEMORY);
        set_words(b.mapped, 0, 64, SENTINEL);
        VkQueue queue = family == 0 ? t->compute_queues[0] : t->transfer_queues[0];
        for (uint32_t f = 0; f < 4; f++) {
            VkCommandPool pool = create_pool(t, flag_sets[f], family);
            VkCommandBuffer cmd;
            allocate(t, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1, &cmd);
            begin(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
            fill_words(cmd, b.buffer, f * 16, 16, 0xF00D0000u + family * 16 + f);
            vkmm_test_full_barrier(cmd);
            VK_CHECK(vkEndCommandBuffer(cmd));
            submit_and_wait(t, queue, 1, &cmd);
            vkFreeCommandBuffers(t->device, pool, 1, &cmd);
            vkDestroyCommandPool(t->device, pool, NULL);
            expect_words(b.mapped, f * 16, 16, 0xF00D0000u + family * 16 + f);
            if (f < 3)
                expect_words(b.mapped, (f + 1) * 16, 16 * (3 - f), SENTINEL);
        }
        vkmm_test_buffer_destroy(t, &b);
    }
}

/* Several primaries and secondaries allocated in one call, some freed
 * (with VK_NULL_HANDLE elements in the array), reallocated, all recorded
 * and executed together; a pool destroyed with buffers still allocated
 * frees them. */
static void test_allocate_free_several(void **state)
{
    struct vkmm_test *t = *state;
    enum { PRIMARIES = 8, SECONDARIES = 4, WORDS = 16 };
    VkCommandPool pool = create_pool(t, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, 0);
    VkCommandBuffer primary[PRIMARIES], secondary[SECONDARIES];
    allocate(t, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, PRIMARIES, primary);
    allocate(t, pool, VK_COMMAND_BUFFER_LEVEL_SECONDARY, SECONDARIES, secondary);
    for (uint32_t i = 0; i < PRIMARIES + SECONDARIES; i++) {
        VkCommandBuffer a = i < PRIMARIES ? primary[i] : secondary[i - PRIMARIES];
        for (uint32_t j = 0; j < i; j++) {
            VkCommandBuffer b = j < PRIMARIES ? primary[j] : secondary[j - PRIMARIES];
            assert_true(a != b);
        }
    }

    /* Free the odd primaries and secondary 0; NULL handles are ignored. */
    VkCommandBuffer to_free[6] = { primary[1], VK_NULL_HANDLE, primary[3], primary[5], primary[7], secondary[0] };
    vkFreeCommandBuffers(t->device, pool, 6, to_free);
    VkCommandBuffer again[4];
    allocate(t, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 4, again);
    for (uint32_t i = 0; i < 4; i++)
        primary[2 * i + 1] = again[i];
    allocate(t, pool, VK_COMMAND_BUFFER_LEVEL_SECONDARY, 1, &secondary[0]);

    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 4 * WORDS * (PRIMARIES + SECONDARIES), HOST_MEMORY);
    set_words(b.mapped, 0, WORDS * (PRIMARIES + SECONDARIES), SENTINEL);
    for (uint32_t s = 0; s < SECONDARIES; s++) {
        begin_secondary(secondary[s], 0);
        fill_words(secondary[s], b.buffer, (PRIMARIES + s) * WORDS, WORDS, 0x5EC00000u + s);
        VK_CHECK(vkEndCommandBuffer(secondary[s]));
    }
    for (uint32_t p = 0; p < PRIMARIES; p++) {
        begin(primary[p], 0);
        vkmm_test_full_barrier(primary[p]);
        fill_words(primary[p], b.buffer, p * WORDS, WORDS, 0x9A000000u + p);
        if (p < SECONDARIES)
            vkCmdExecuteCommands(primary[p], 1, &secondary[p]);
        vkmm_test_full_barrier(primary[p]);
        VK_CHECK(vkEndCommandBuffer(primary[p]));
    }
    submit_and_wait(t, t->compute_queues[0], PRIMARIES, primary);
    for (uint32_t p = 0; p < PRIMARIES; p++)
        expect_words(b.mapped, p * WORDS, WORDS, 0x9A000000u + p);
    for (uint32_t s = 0; s < SECONDARIES; s++)
        expect_words(b.mapped, (PRIMARIES + s) * WORDS, WORDS, 0x5EC00000u + s);

    /* Free a few; the rest go with the pool. */
    vkFreeCommandBuffers(t->device, pool, 2, primary);
    vkFreeCommandBuffers(t->device, pool, 1, &secondary[3]);
    vkDestroyCommandPool(t->device, pool, NULL);
    vkmm_test_buffer_destroy(t, &b);
}

/* A pool without RESET_COMMAND_BUFFER_BIT: vkResetCommandPool (plain, with
 * RELEASE_RESOURCES, and followed by vkTrimCommandPool) returns every buffer
 * to the initial state, and a re-recording runs only its new commands. */
static void test_reset_and_trim_pool(void **state)
{
    struct vkmm_test *t = *state;
    enum { BUFFERS = 3, BIG = 65536, BIG_UPDATES = 4 };
    VkCommandPool pool = create_pool(t, VK_COMMAND_POOL_CREATE_TRANSIENT_BIT, 0);
    VkCommandBuffer cmd[BUFFERS];
    allocate(t, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, BUFFERS, cmd);
    /* Layout: per buffer BIG_UPDATES * 64 KiB of updates, then 16 marker
     * words per buffer at the end. */
    const VkDeviceSize big_span = (VkDeviceSize)BIG * BIG_UPDATES;
    const uint32_t marker_word = (uint32_t)(big_span * BUFFERS / 4);
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, big_span * BUFFERS + 4 * 16 * BUFFERS, HOST_MEMORY);
    uint32_t *payload = malloc(BIG);
    assert_non_null(payload);

    /* Round 0: large recordings that take several arena blocks. */
    set_words(b.mapped, 0, marker_word + 16 * BUFFERS, SENTINEL);
    for (uint32_t c = 0; c < BUFFERS; c++) {
        begin(cmd[c], 0);
        vkmm_test_full_barrier(cmd[c]);
        for (uint32_t u = 0; u < BIG_UPDATES; u++) {
            for (uint32_t i = 0; i < BIG / 4; i++)
                payload[i] = (c << 28) ^ (u << 24) ^ i;
            vkCmdUpdateBuffer(cmd[c], b.buffer, big_span * c + (VkDeviceSize)BIG * u, BIG, payload);
        }
        fill_words(cmd[c], b.buffer, marker_word + 16 * c, 16, 0xAB000000u + c);
        vkmm_test_full_barrier(cmd[c]);
        VK_CHECK(vkEndCommandBuffer(cmd[c]));
    }
    submit_and_wait(t, t->compute_queues[0], BUFFERS, cmd);
    const uint32_t *w = b.mapped;
    for (uint32_t c = 0; c < BUFFERS; c++) {
        for (uint32_t u = 0; u < BIG_UPDATES; u++) {
            for (uint32_t i = 0; i < BIG / 4; i++)
                EXPECT_WORD(w, (big_span * c + (VkDeviceSize)BIG * u) / 4 + i, (c << 28) ^ (u << 24) ^ i);
        }
        expect_words(b.mapped, marker_word + 16 * c, 16, 0xAB000000u + c);
    }

    /* Rounds 1-3: reset the pool in each way, record only a marker fill. */
    for (uint32_t round = 1; round <= 3; round++) {
        if (round == 1) {
            VK_CHECK(vkResetCommandPool(t->device, pool, 0));
        } else if (round == 2) {
            VK_CHECK(vkResetCommandPool(t->device, pool, VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT));
        } else {
            VK_CHECK(vkResetCommandPool(t->device, pool, 0));
            vkTrimCommandPool(t->device, pool, 0);
        }
        set_words(b.mapped, 0, marker_word + 16 * BUFFERS, SENTINEL);
        for (uint32_t c = 0; c < BUFFERS; c++) {
            /* Begin without a reset of the buffer itself: valid only if the
             * pool reset put it back in the initial state. */
            begin(cmd[c], VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
            vkmm_test_full_barrier(cmd[c]);
            fill_words(cmd[c], b.buffer, marker_word + 16 * c, 16, 0xCD000000u + round * 16 + c);
            vkmm_test_full_barrier(cmd[c]);
            VK_CHECK(vkEndCommandBuffer(cmd[c]));
        }
        submit_and_wait(t, t->compute_queues[0], BUFFERS, cmd);
        /* The updates of round 0 are gone. */
        expect_words(b.mapped, 0, marker_word, SENTINEL);
        for (uint32_t c = 0; c < BUFFERS; c++)
            expect_words(b.mapped, marker_word + 16 * c, 16, 0xCD000000u + round * 16 + c);
    }
    free(payload);
    vkFreeCommandBuffers(t->device, pool, BUFFERS, cmd);
    vkTrimCommandPool(t->device, pool, 0);
    vkDestroyCommandPool(t->device, pool, NULL);
    vkmm_test_buffer_destroy(t, &b);
}

/* vkResetCommandBuffer (both flags) and the implicit reset of
 * vkBeginCommandBuffer drop the old commands: a re-recording gives only the
 * new commands' results. */
static void test_rerecord_after_reset(void **state)
{
    struct vkmm_test *t = *state;
    struct vkmm_test_buffer a = vkmm_test_buffer_create(t, 4 * 256, HOST_MEMORY);
    struct vkmm_test_buffer c = vkmm_test_buffer_create(t, 4 * 256, HOST_MEMORY);
    VkCommandBuffer cmd;
    allocate(t, t->pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1, &cmd);

    set_words(a.mapped, 0, 256, SENTINEL);
    set_words(c.mapped, 0, 256, SENTINEL);
    begin(cmd, 0);
    fill_words(cmd, a.buffer, 0, 64, 0x11111111);
    vkmm_test_full_barrier(cmd);
    VkBufferCopy copy = { .srcOffset = 0, .dstOffset = 0, .size = 4 * 256 };
    vkCmdCopyBuffer(cmd, a.buffer, c.buffer, 1, &copy);
    vkmm_test_full_barrier(cmd);
    VK_CHECK(vkEndCommandBuffer(cmd));
    submit_and_wait(t, t->compute_queues[0], 1, &cmd);
    expect_words(c.mapped, 0, 64, 0x11111111);
    expect_words(c.mapped, 64, 192, SENTINEL);

    static const VkCommandBufferResetFlags resets[] = { 0, VK_COMMAND_BUFFER_RESET_RELEASE_RESOURCES_BIT };
    for (uint32_t round = 0; round < 3; round++) {
        if (round < 2)
            VK_CHECK(vkResetCommandBuffer(cmd, resets[round]));
        /* round 2: the buffer is executable; vkBeginCommandBuffer resets it
         * implicitly (the pool has RESET_COMMAND_BUFFER_BIT). */
        set_words(a.mapped, 0, 256, SENTINEL);
        set_words(c.mapped, 0, 256, SENTINEL);
        uint32_t first = 64 * (round + 1), value = 0x22222222u * (round + 2);
        begin(cmd, 0);
        vkmm_test_full_barrier(cmd);
        fill_words(cmd, a.buffer, first, 64, value);
        vkmm_test_full_barrier(cmd);
        VK_CHECK(vkEndCommandBuffer(cmd));
        submit_and_wait(t, t->compute_queues[0], 1, &cmd);
        for (uint32_t i = 0; i < 256; i++)
            EXPECT_WORD((const uint32_t *)a.mapped, i, i >= first && i < first + 64 ? value : SENTINEL);
        expect_words(c.mapped, 0, 256, SENTINEL); /* the old copy did not run */
    }
    vkFreeCommandBuffers(t->device, t->pool, 1, &cmd);
    vkmm_test_buffer_destroy(t, &a);
    vkmm_test_buffer_destroy(t, &c);
}

/* A resource that recorded commands use is destroyed while recording: the
 * command buffer is invalid, and vkBeginCommandBuffer (an implicit reset,
 * with RESET_COMMAND_BUFFER_BIT) is valid.  fuzz_api found vkmm refusing it
 * as "already recording". */
static void test_begin_after_a_used_buffer_is_destroyed(void **state)
{
    struct vkmm_test *t = *state;
    struct vkmm_test_buffer gone = vkmm_test_buffer_create(t, 4 * 64, HOST_MEMORY);
    struct vkmm_test_buffer kept = vkmm_test_buffer_create(t, 4 * 64, HOST_MEMORY);
    VkCommandBuffer cmd;
    allocate(t, t->pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1, &cmd);
    begin(cmd, 0);
    fill_words(cmd, gone.buffer, 0, 64, 0x33333333);
    vkmm_test_buffer_destroy(t, &gone); /* cmd is now invalid */
    set_words(kept.mapped, 0, 64, SENTINEL);
    begin(cmd, 0);
    vkmm_test_full_barrier(cmd);
    fill_words(cmd, kept.buffer, 0, 64, 0x44444444);
    vkmm_test_full_barrier(cmd);
    VK_CHECK(vkEndCommandBuffer(cmd));
    submit_and_wait(t, t->compute_queues[0], 1, &cmd);
    expect_words(kept.mapped, 0, 64, 0x44444444);
    vkFreeCommandBuffers(t->device, t->pool, 1, &cmd);
    vkmm_test_buffer_destroy(t, &kept);
}

/* A reusable buffer re-executes on every submission; a ONE_TIME_SUBMIT
 * buffer runs once and can then be re-recorded. */
static void test_reusable_and_one_time_submit(void **state)
{
    struct vkmm_test *t = *state;
    struct vkmm_test_buffer d = vkmm_test_buffer_create(t, 4 * CHAIN_WORDS, HOST_MEMORY);
    struct vkmm_test_buffer tmp = vkmm_test_buffer_create(t, 4 * CHAIN_WORDS, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    chain_init(&d);

    VkCommandBuffer reusable, once;
    allocate(t, t->pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1, &reusable);
    allocate(t, t->pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1, &once);
    begin(reusable, 0);
    record_shift(reusable, d.buffer, tmp.buffer);
    VK_CHECK(vkEndCommandBuffer(reusable));
    uint32_t runs = 0;
    for (uint32_t i = 0; i < 6; i++) {
        submit_and_wait(t, t->compute_queues[i % 2], 1, &reusable);
        expect_chain(&d, ++runs);
    }

    for (uint32_t i = 0; i < 3; i++) {
        /* Re-recorded each time: after its one submission completes a
         * ONE_TIME_SUBMIT buffer is invalid, and begin resets it. */
        begin(once, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
        record_shift(once, d.buffer, tmp.buffer);
        VK_CHECK(vkEndCommandBuffer(once));
        submit_and_wait(t, t->compute_queues[0], 1, &once);
        expect_chain(&d, ++runs);
    }

    /* The reusable buffer still works after all that. */
    submit_and_wait(t, t->compute_queues[0], 1, &reusable);
    expect_chain(&d, ++runs);

    VkCommandBuffer both[2] = { reusable, once };
    vkFreeCommandBuffers(t->device, t->pool, 2, both);
    vkmm_test_buffer_destroy(t, &d);
    vkmm_test_buffer_destroy(t, &tmp);
}

/* SIMULTANEOUS_USE: one buffer several times in one batch, in several
 * batches of one submit and in a second submit while the first is pending;
 * every instance runs, in submission order. */
static void test_simultaneous_use(void **state)
{
    struct vkmm_test *t = *state;
    struct vkmm_test_buffer d = vkmm_test_buffer_create(t, 4 * CHAIN_WORDS, HOST_MEMORY);
    struct vkmm_test_buffer tmp = vkmm_test_buffer_create(t, 4 * CHAIN_WORDS, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    chain_init(&d);
    VkCommandBuffer cmd;
    allocate(t, t->pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1, &cmd);
    begin(cmd, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
    record_shift(cmd, d.buffer, tmp.buffer);
    VK_CHECK(vkEndCommandBuffer(cmd));

    /* Block the queue until everything is submitted, so the buffer is
     * certainly pending when it is submitted again. */
    VkSemaphoreTypeCreateInfo type = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
        .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
    };
    VkSemaphoreCreateInfo sem_info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type };
    VkSemaphore gate;
    VK_CHECK(vkCreateSemaphore(t->device, &sem_info, NULL, &gate));
    VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fences[2];
    VK_CHECK(vkCreateFence(t->device, &fence_info, NULL, &fences[0]));
    VK_CHECK(vkCreateFence(t->device, &fence_info, NULL, &fences[1]));

    const uint64_t one = 1;
    VkTimelineSemaphoreSubmitInfo timeline = {
        .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
        .waitSemaphoreValueCount = 1,
        .pWaitSemaphoreValues = &one,
    };
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    VkCommandBuffer two[2] = { cmd, cmd };
    VkSubmitInfo batches[3] = {
        {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
            .pNext = &timeline,
            .waitSemaphoreCount = 1,
            .pWaitSemaphores = &gate,
            .pWaitDstStageMask = &stage,
            .commandBufferCount = 2,
            .pCommandBuffers = two,
        },
        { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd },
        { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd },
    };
    VK_CHECK(vkQueueSubmit(t->compute_queues[0], 3, batches, fences[0]));
    VkSubmitInfo later = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd };
    VK_CHECK(vkQueueSubmit(t->compute_queues[0], 1, &later, fences[1]));
    VkResult blocked = vkGetFenceStatus(t->device, fences[1]);
    VkSemaphoreSignalInfo signal = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = gate, .value = 1 };
    VK_CHECK(vkSignalSemaphore(t->device, &signal));
    VK_CHECK(vkWaitForFences(t->device, 2, fences, VK_TRUE, UINT64_MAX));
    assert_int_equal(blocked, VK_NOT_READY);
    expect_chain(&d, 5);

    vkDestroyFence(t->device, fences[0], NULL);
    vkDestroyFence(t->device, fences[1], NULL);
    vkDestroySemaphore(t->device, gate, NULL);
    vkFreeCommandBuffers(t->device, t->pool, 1, &cmd);
    vkmm_test_buffer_destroy(t, &d);
    vkmm_test_buffer_destroy(t, &tmp);
}

/* vkCmdExecuteCommands: secondaries (begun with inheritance info) run at
 * their place among the primary's own commands, a SIMULTANEOUS_USE
 * secondary can run several times in one primary, and resubmitting the
 * primary runs the secondaries again. */
static void test_execute_commands_order(void **state)
{
    struct vkmm_test *t = *state;
    enum { WORDS = 64 };
    struct vkmm_test_buffer a = vkmm_test_buffer_create(t, 4 * WORDS, HOST_MEMORY);
    struct vkmm_test_buffer e = vkmm_test_buffer_create(t, 4 * WORDS, HOST_MEMORY);
    struct vkmm_test_buffer f = vkmm_test_buffer_create(t, 4 * WORDS, HOST_MEMORY);
    struct vkmm_test_buffer d = vkmm_test_buffer_create(t, 4 * CHAIN_WORDS, HOST_MEMORY);
    struct vkmm_test_buffer tmp = vkmm_test_buffer_create(t, 4 * CHAIN_WORDS, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    set_words(a.mapped, 0, WORDS, SENTINEL);
    set_words(e.mapped, 0, WORDS, SENTINEL);
    set_words(f.mapped, 0, WORDS, SENTINEL);
    chain_init(&d);

    enum { S_COPY, S_FILL, S_SHIFT, S_COUNT };
    VkCommandBuffer s[S_COUNT], primary;
    allocate(t, t->pool, VK_COMMAND_BUFFER_LEVEL_SECONDARY, S_COUNT, s);
    allocate(t, t->pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1, &primary);

    begin_secondary(s[S_COPY], 0);
    VkBufferCopy whole = { .srcOffset = 0, .dstOffset = 0, .size = 4 * WORDS };
    vkCmdCopyBuffer(s[S_COPY], a.buffer, e.buffer, 1, &whole);
    VK_CHECK(vkEndCommandBuffer(s[S_COPY]));
    begin_secondary(s[S_FILL], 0);
    fill_words(s[S_FILL], a.buffer, 0, WORDS, 0x22222222);
    VK_CHECK(vkEndCommandBuffer(s[S_FILL]));
    begin_secondary(s[S_SHIFT], VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
    record_shift(s[S_SHIFT], d.buffer, tmp.buffer);
    VK_CHECK(vkEndCommandBuffer(s[S_SHIFT]));

    begin(primary, 0);
    vkmm_test_full_barrier(primary);
    fill_words(primary, a.buffer, 0, WORDS, 0x11111111);
    vkmm_test_full_barrier(primary);
    vkCmdExecuteCommands(primary, 1, &s[S_COPY]); /* e = 0x11.. */
    vkmm_test_full_barrier(primary);
    vkCmdExecuteCommands(primary, 1, &s[S_FILL]); /* a = 0x22.. */
    vkmm_test_full_barrier(primary);
    vkCmdCopyBuffer(primary, a.buffer, f.buffer, 1, &whole); /* f = 0x22.. */
    vkmm_test_full_barrier(primary);
    vkCmdExecuteCommands(primary, 1, &s[S_SHIFT]);
    VkCommandBuffer shifts[2] = { s[S_SHIFT], s[S_SHIFT] };
    vkCmdExecuteCommands(primary, 2, shifts);
    vkmm_test_full_barrier(primary);
    VK_CHECK(vkEndCommandBuffer(primary));

    submit_and_wait(t, t->compute_queues[0], 1, &primary);
    expect_words(e.mapped, 0, WORDS, 0x11111111);
    expect_words(a.mapped, 0, WORDS, 0x22222222);
    expect_words(f.mapped, 0, WORDS, 0x22222222);
    expect_chain(&d, 3);

    set_words(e.mapped, 0, WORDS, SENTINEL);
    set_words(f.mapped, 0, WORDS, SENTINEL);
    submit_and_wait(t, t->compute_queues[1], 1, &primary);
    expect_words(e.mapped, 0, WORDS, 0x11111111);
    expect_words(f.mapped, 0, WORDS, 0x22222222);
    expect_chain(&d, 6);

    vkFreeCommandBuffers(t->device, t->pool, 1, &primary);
    vkFreeCommandBuffers(t->device, t->pool, S_COUNT, s);
    vkmm_test_buffer_destroy(t, &a);
    vkmm_test_buffer_destroy(t, &e);
    vkmm_test_buffer_destroy(t, &f);
    vkmm_test_buffer_destroy(t, &d);
    vkmm_test_buffer_destroy(t, &tmp);
}

/* An empty command buffer (begin, end) submits and completes; ending
 * with nothing recorded is no error. */
static void test_empty_command_buffers(void **state)
{
    struct vkmm_test *t = *state;
    VkCommandBuffer cmd[3];
    allocate(t, t->pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 3, cmd);
    for (uint32_t i = 0; i < 3; i++) {
        begin(cmd[i], i == 0 ? VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT : 0);
        VK_CHECK(vkEndCommandBuffer(cmd[i]));
    }
    submit_and_wait(t, t->compute_queues[0], 3, cmd);
    submit_and_wait(t, t->compute_queues[1], 2, cmd + 1);
    vkFreeCommandBuffers(t->device, t->pool, 3, cmd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_pool_flags_record_and_run, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_allocate_free_several, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_reset_and_trim_pool, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_rerecord_after_reset, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_begin_after_a_used_buffer_is_destroyed, vkmm_test_setup,
                                        vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_reusable_and_one_time_submit, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_simultaneous_use, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_execute_commands_order, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_empty_command_buffers, vkmm_test_setup, vkmm_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
