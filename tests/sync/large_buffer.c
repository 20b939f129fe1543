/* Strict mode emulates large allocations too (issue 9: "a 1 GiB buffer must
 * be emulated"; allocations over 64 MiB used to be left out, so mistakes in
 * them went unseen).  A 65 MiB buffer is filled whole, then a dispatch
 * writes a window near its end and a copy reads the window back.  The
 * correct program orders all three; the mistakes leave out the barrier
 * between the fill and the dispatch (write-after-write: the fill's zeros
 * may land over the dispatch's values) or between the dispatch and the
 * copy (the copy reads stale bytes). */
#include "sync_harness.h"

enum { CORRECT, FILL_THEN_DISPATCH_NO_BARRIER, DISPATCH_THEN_COPY_NO_BARRIER, VARIANTS };

static const struct sync_variant variants[VARIANTS] = {
    [CORRECT] = { "correct_large_buffer", NULL },
    [FILL_THEN_DISPATCH_NO_BARRIER] = { "bug_large_buffer_fill_then_dispatch_no_barrier",
                                        "VKMM-HAZARD-WRITE-AFTER-WRITE" },
    [DISPATCH_THEN_COPY_NO_BARRIER] = { "bug_large_buffer_dispatch_then_copy_no_barrier", "VKMM-HAZARD-STALE-READ" },
};

/* -DLARGE_BYTES=... tries other sizes (1 GiB: docs/performance.md). */
#ifndef LARGE_BYTES
#define LARGE_BYTES (65ull << 20)
#endif
/* The window: past the old 64 MiB limit, not at a granule boundary. */
#define WINDOW_OFFSET ((64ull << 20) + 4 * 40)

static void program(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    struct vkmm_test_buffer data = vkmm_test_buffer_create(t, LARGE_BYTES, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer unused = vkmm_test_buffer_create(t, 256, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer readback = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    struct vkmm_test_compute k = vkmm_test_compute_create(t, "sync_fill_range", 2, 8, NULL);
    vkmm_test_compute_bind_buffer(t, &k, 0, data.buffer, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(t, &k, 1, unused.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdFillBuffer(cmd, data.buffer, 0, VK_WHOLE_SIZE, 0);
    if (variant != FILL_THEN_DISPATCH_NO_BARRIER)
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    uint32_t push[2] = { (uint32_t)(WINDOW_OFFSET / 4), 1000 };
    vkmm_test_compute_dispatch(&k, cmd, push, sizeof(push), SYNC_WORDS / 64, 1, 1);
    if (variant != DISPATCH_THEN_COPY_NO_BARRIER)
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferCopy window = { WINDOW_OFFSET, 0, SYNC_WORDS * 4 };
    vkCmdCopyBuffer(cmd, data.buffer, readback.buffer, 1, &window);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                 VK_ACCESS_2_HOST_READ_BIT);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(result, readback.mapped, SYNC_WORDS * 4);
    vkmm_test_compute_destroy(t, &k);
    vkmm_test_buffer_destroy(t, &data);
    vkmm_test_buffer_destroy(t, &unused);
    vkmm_test_buffer_destroy(t, &readback);
}

static void run(int variant)
{
    uint32_t expected[SYNC_WORDS];
    for (uint32_t i = 0; i < SYNC_WORDS; i++)
        expected[i] = 1000 + i;
    sync_check(program, variant, &variants[variant], expected);
}

static void correct_large_buffer(void **state) { (void)state; run(CORRECT); }
static void bug_large_buffer_fill_then_dispatch_no_barrier(void **state) { (void)state; run(FILL_THEN_DISPATCH_NO_BARRIER); }
static void bug_large_buffer_dispatch_then_copy_no_barrier(void **state) { (void)state; run(DISPATCH_THEN_COPY_NO_BARRIER); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct_large_buffer),
        cmocka_unit_test(bug_large_buffer_fill_then_dispatch_no_barrier),
        cmocka_unit_test(bug_large_buffer_dispatch_then_copy_no_barrier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
