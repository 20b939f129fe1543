/* Hand-offs between the host and the device through mapped memory: a
 * missing vkFlushMappedMemoryRanges, a missing
 * vkInvalidateMappedMemoryRanges, a missing HOST_READ dependency, and host
 * reads before the fence wait - next to which reading (and handing to a
 * system call) mapped memory the pending work does not write is correct. */
#include <fcntl.h>

#include "sync_harness.h"

enum {
    CORRECT_UPLOAD,
    MISSING_FLUSH,
    CORRECT_DOWNLOAD,
    MISSING_INVALIDATE,
    MISSING_HOST_READ,
    READ_BEFORE_WAIT,
    OTHER_MEMORY_WHILE_PENDING,
    CORRECT_WRITE_AFTER_WAIT,
    WRITE_BEFORE_WAIT,
    CORRECT_WRITE_THEN_HOST_SIGNAL,
    CORRECT_BATCH_OF_READBACKS,
    LARGE_CORRECT_WRITE_AFTER_WAIT,
    LARGE_WRITE_BEFORE_WAIT,
    VARIANTS
};

static const struct sync_variant variants[VARIANTS] = {
    [CORRECT_UPLOAD] = { "correct_upload", NULL },
    [MISSING_FLUSH] = { "bug_missing_flush", "VKMM-HAZARD-STALE-READ" },
    [CORRECT_DOWNLOAD] = { "correct_download", NULL },
    [MISSING_INVALIDATE] = { "bug_missing_invalidate", "VKMM-HAZARD-HOST-STALE-READ" },
    [MISSING_HOST_READ] = { "bug_missing_host_read_dependency", "VKMM-HAZARD-HOST-READ-NO-DEPENDENCY" },
    [READ_BEFORE_WAIT] = { "bug_host_reads_before_fence_wait", "VKMM-HAZARD-HOST-STALE-READ" },
    [OTHER_MEMORY_WHILE_PENDING] = { "correct_host_reads_other_memory_while_pending", NULL },
    [CORRECT_WRITE_AFTER_WAIT] = { "correct_host_overwrites_input_after_the_wait", NULL },
    [WRITE_BEFORE_WAIT] = { "bug_host_overwrites_input_before_the_wait", "VKMM-HAZARD-WRITE-AFTER-READ" },
    /* The work waits for a timeline value the host signals after writing:
     * the write is ordered before the copy. */
    [CORRECT_WRITE_THEN_HOST_SIGNAL] = { "correct_host_writes_input_then_signals", NULL },
    /* Four command buffers in one batch, each filling its own buffer and
     * making it host-visible with a buffer barrier (the CTS's implicit
     * tests): every barrier's first scope holds its own fill. */
    [CORRECT_BATCH_OF_READBACKS] = { "correct_batch_of_readback_command_buffers", NULL },
    /* The same two with a 4 MiB staging memory: its mapped view lies on
     * huge pages, which the host trap protects and opens as well. */
    [LARGE_CORRECT_WRITE_AFTER_WAIT] = { "correct_host_overwrites_large_input_after_the_wait", NULL },
    [LARGE_WRITE_BEFORE_WAIT] = { "bug_host_overwrites_large_input_before_the_wait", "VKMM-HAZARD-WRITE-AFTER-READ" },
};

static const VkMemoryPropertyFlags cached = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;

/* Host writes non-coherent memory, the device copies it to a readback
 * buffer the host reads correctly. */
static void upload(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    struct vkmm_test_buffer staging = vkmm_test_buffer_create(t, SYNC_WORDS * 4, cached);
    struct vkmm_test_buffer readback = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    uint32_t *words = staging.mapped;
    for (int i = 0; i < SYNC_WORDS; i++)
        words[i] = 0xabc00000u + (uint32_t)i;
    if (variant == CORRECT_UPLOAD) {
        VkMappedMemoryRange range = { .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = staging.memory,
                                      .size = VK_WHOLE_SIZE };
        VK_CHECK(vkFlushMappedMemoryRanges(t->device, 1, &range));
    }
    VkCommandBuffer cmd = vkmm_test_begin(t);
    VkBufferCopy all = { 0, 0, SYNC_WORDS * 4 };
    vkCmdCopyBuffer(cmd, staging.buffer, readback.buffer, 1, &all);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                 VK_ACCESS_2_HOST_READ_BIT);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(result, readback.mapped, SYNC_WORDS * 4);
    vkmm_test_buffer_destroy(t, &staging);
    vkmm_test_buffer_destroy(t, &readback);
}

/* While the fill is pending, the host reads memory the work does not
 * touch, also through a system call: correct, and it must work. */
static void use_other_memory(const struct vkmm_test_buffer *other)
{
    const uint8_t *bytes = other->mapped;
    for (int i = 0; i < SYNC_WORDS * 4; i++) {
        if (bytes[i] != 0x3c)
            fail_msg("other memory: byte %d is 0x%02x", i, bytes[i]);
    }
    char path[] = "/tmp/vkmm-sync-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        fail_msg("mkstemp failed");
    ssize_t written = write(fd, other->mapped, SYNC_WORDS * 4);
    close(fd);
    unlink(path);
    if (written != SYNC_WORDS * 4)
        fail_msg("write(2) of mapped memory the pending work does not touch: %zd bytes", written);
}

/* The device fills memory the host reads. */
static void download(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    bool coherent = variant == MISSING_HOST_READ || variant == READ_BEFORE_WAIT || variant == OTHER_MEMORY_WHILE_PENDING;
    struct vkmm_test_buffer target = vkmm_test_buffer_create(t, SYNC_WORDS * 4, coherent ? *sync_host_coherent() : cached);
    struct vkmm_test_buffer other = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    memset(other.mapped, 0x3c, SYNC_WORDS * 4);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdFillBuffer(cmd, target.buffer, 0, VK_WHOLE_SIZE, 0x5eed1234u);
    if (variant != MISSING_HOST_READ)
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                     VK_ACCESS_2_HOST_READ_BIT);
    VK_CHECK(vkEndCommandBuffer(cmd));
    VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence;
    VK_CHECK(vkCreateFence(t->device, &fence_info, NULL, &fence));
    VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd };
    VK_CHECK(vkQueueSubmit(t->compute_queues[0], 1, &submit, fence));
    if (variant == READ_BEFORE_WAIT)
        memcpy(result, target.mapped, SYNC_WORDS * 4); /* the mistake: nothing says the work is done */
    if (variant == OTHER_MEMORY_WHILE_PENDING)
        use_other_memory(&other);
    VK_CHECK(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX));
    if (variant == CORRECT_DOWNLOAD) {
        VkMappedMemoryRange range = { .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = target.memory,
                                      .size = VK_WHOLE_SIZE };
        VK_CHECK(vkInvalidateMappedMemoryRanges(t->device, 1, &range));
    }
    if (variant != READ_BEFORE_WAIT)
        memcpy(result, target.mapped, SYNC_WORDS * 4);
    vkDestroyFence(t->device, fence, NULL);
    vkFreeCommandBuffers(t->device, t->pool, 1, &cmd);
    vkmm_test_buffer_destroy(t, &target);
    vkmm_test_buffer_destroy(t, &other);
}

/* The host fills a coherent staging buffer, submits a copy of it, and then
 * overwrites the staging buffer: after the wait (correct), before it (the
 * copy may read the new bytes), or before a host signal the copy waits for
 * (correct: the program expects the new bytes). */
static void overwrite_input(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    bool large = variant == LARGE_CORRECT_WRITE_AFTER_WAIT || variant == LARGE_WRITE_BEFORE_WAIT;
    if (variant == LARGE_CORRECT_WRITE_AFTER_WAIT)
        variant = CORRECT_WRITE_AFTER_WAIT;
    struct vkmm_test_buffer staging = vkmm_test_buffer_create(t, large ? 4u << 20 : SYNC_WORDS * 4,
                                                              *sync_host_coherent());
    struct vkmm_test_buffer readback = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    uint32_t *words = staging.mapped;
    for (int i = 0; i < SYNC_WORDS; i++)
        words[i] = 0xabc00000u + (uint32_t)i;
    VkSemaphoreTypeCreateInfo type = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                       .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE };
    VkSemaphoreCreateInfo semaphore_info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type };
    VkSemaphore semaphore;
    VK_CHECK(vkCreateSemaphore(t->device, &semaphore_info, NULL, &semaphore));
    bool signalled = variant == CORRECT_WRITE_THEN_HOST_SIGNAL;
    VkCommandBuffer cmd = vkmm_test_begin(t);
    /* Host writes made after vkQueueSubmit reach the device through a
     * dependency with HOST / HOST_WRITE in its first scope (000: the
     * host-to-device domain operation), once the semaphore orders them. */
    if (signalled)
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferCopy all = { 0, 0, SYNC_WORDS * 4 };
    vkCmdCopyBuffer(cmd, staging.buffer, readback.buffer, 1, &all);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                 VK_ACCESS_2_HOST_READ_BIT);
    VK_CHECK(vkEndCommandBuffer(cmd));
    VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence;
    VK_CHECK(vkCreateFence(t->device, &fence_info, NULL, &fence));
    VkSemaphoreSubmitInfo wait = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = semaphore,
                                   .value = 1, .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    VkCommandBufferSubmitInfo command = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = cmd };
    VkSubmitInfo2 submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .waitSemaphoreInfoCount = signalled ? 1 : 0,
                             .pWaitSemaphoreInfos = &wait, .commandBufferInfoCount = 1, .pCommandBufferInfos = &command };
    VK_CHECK(vkQueueSubmit2(t->compute_queues[0], 1, &submit, fence));
    if (variant != CORRECT_WRITE_AFTER_WAIT) {
        for (int i = 0; i < SYNC_WORDS; i++)
            words[i] = signalled ? 0xabc00000u + (uint32_t)i : 0xdead0000u + (uint32_t)i;
    }
    if (signalled) {
        VkSemaphoreSignalInfo signal = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = semaphore,
                                         .value = 1 };
        VK_CHECK(vkSignalSemaphore(t->device, &signal));
    }
    VK_CHECK(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX));
    if (variant == CORRECT_WRITE_AFTER_WAIT) {
        for (int i = 0; i < SYNC_WORDS; i++)
            words[i] = 0xdead0000u + (uint32_t)i; /* the copy is done: harmless */
    }
    memcpy(result, readback.mapped, SYNC_WORDS * 4);
    vkDestroyFence(t->device, fence, NULL);
    vkDestroySemaphore(t->device, semaphore, NULL);
    vkFreeCommandBuffers(t->device, t->pool, 1, &cmd);
    vkmm_test_buffer_destroy(t, &staging);
    vkmm_test_buffer_destroy(t, &readback);
}

static void batch_of_readbacks(struct vkmm_test *t, uint32_t result[SYNC_WORDS])
{
    enum { PARTS = 4, WORDS = SYNC_WORDS / PARTS };
    struct vkmm_test_buffer parts[PARTS];
    VkCommandBuffer cmds[PARTS];
    for (uint32_t p = 0; p < PARTS; p++) {
        parts[p] = vkmm_test_buffer_create(t, WORDS * 4, *sync_host_coherent());
        cmds[p] = vkmm_test_begin(t);
        vkCmdFillBuffer(cmds[p], parts[p].buffer, 0, VK_WHOLE_SIZE, 0x5eed1234u);
        VkBufferMemoryBarrier2 to_host = {
            .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2,
            .srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
            .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
            .dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
            .dstAccessMask = VK_ACCESS_2_HOST_READ_BIT,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .buffer = parts[p].buffer,
            .size = VK_WHOLE_SIZE,
        };
        VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .bufferMemoryBarrierCount = 1,
                                 .pBufferMemoryBarriers = &to_host };
        vkCmdPipelineBarrier2(cmds[p], &dep);
        VK_CHECK(vkEndCommandBuffer(cmds[p]));
    }
    VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence;
    VK_CHECK(vkCreateFence(t->device, &fence_info, NULL, &fence));
    VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = PARTS,
                            .pCommandBuffers = cmds };
    VK_CHECK(vkQueueSubmit(t->compute_queues[0], 1, &submit, fence));
    VK_CHECK(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX));
    for (uint32_t p = 0; p < PARTS; p++) {
        memcpy(result + p * WORDS, parts[p].mapped, WORDS * 4);
        vkmm_test_buffer_destroy(t, &parts[p]);
    }
    vkDestroyFence(t->device, fence, NULL);
    vkFreeCommandBuffers(t->device, t->pool, PARTS, cmds);
}

static void program(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    if (variant == CORRECT_BATCH_OF_READBACKS)
        batch_of_readbacks(t, result);
    else if (variant == CORRECT_UPLOAD || variant == MISSING_FLUSH)
        upload(t, variant, result);
    else if (variant >= CORRECT_WRITE_AFTER_WAIT && variant != CORRECT_BATCH_OF_READBACKS)
        overwrite_input(t, variant, result);
    else
        download(t, variant, result);
}

static void run(int variant)
{
    uint32_t expected[SYNC_WORDS];
    bool up = variant == CORRECT_UPLOAD || variant == MISSING_FLUSH ||
              (variant >= CORRECT_WRITE_AFTER_WAIT && variant != CORRECT_BATCH_OF_READBACKS);
    for (uint32_t i = 0; i < SYNC_WORDS; i++)
        expected[i] = up ? 0xabc00000u + i : 0x5eed1234u;
    sync_check(program, variant, &variants[variant], expected);
}

static void correct_upload(void **state) { (void)state; run(CORRECT_UPLOAD); }
static void bug_missing_flush(void **state) { (void)state; run(MISSING_FLUSH); }
static void correct_download(void **state) { (void)state; run(CORRECT_DOWNLOAD); }
static void bug_missing_invalidate(void **state) { (void)state; run(MISSING_INVALIDATE); }
static void bug_missing_host_read_dependency(void **state) { (void)state; run(MISSING_HOST_READ); }
static void bug_host_reads_before_fence_wait(void **state) { (void)state; run(READ_BEFORE_WAIT); }
static void correct_host_reads_other_memory_while_pending(void **state) { (void)state; run(OTHER_MEMORY_WHILE_PENDING); }
static void correct_host_overwrites_input_after_the_wait(void **state) { (void)state; run(CORRECT_WRITE_AFTER_WAIT); }
static void bug_host_overwrites_input_before_the_wait(void **state) { (void)state; run(WRITE_BEFORE_WAIT); }
static void correct_host_writes_input_then_signals(void **state) { (void)state; run(CORRECT_WRITE_THEN_HOST_SIGNAL); }
static void correct_batch_of_readback_command_buffers(void **state) { (void)state; run(CORRECT_BATCH_OF_READBACKS); }
static void correct_host_overwrites_large_input_after_the_wait(void **state)
{
    (void)state;
    run(LARGE_CORRECT_WRITE_AFTER_WAIT);
}
static void bug_host_overwrites_large_input_before_the_wait(void **state)
{
    (void)state;
    run(LARGE_WRITE_BEFORE_WAIT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct_upload),
        cmocka_unit_test(bug_missing_flush),
        cmocka_unit_test(correct_download),
        cmocka_unit_test(bug_missing_invalidate),
        cmocka_unit_test(bug_missing_host_read_dependency),
        cmocka_unit_test(bug_host_reads_before_fence_wait),
        cmocka_unit_test(correct_host_reads_other_memory_while_pending),
        cmocka_unit_test(correct_host_overwrites_input_after_the_wait),
        cmocka_unit_test(bug_host_overwrites_input_before_the_wait),
        cmocka_unit_test(correct_host_writes_input_then_signals),
        cmocka_unit_test(correct_batch_of_readback_command_buffers),
        cmocka_unit_test(correct_host_overwrites_large_input_after_the_wait),
        cmocka_unit_test(bug_host_overwrites_large_input_before_the_wait),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
