/* Mistakes between a producer and a consumer command on one queue: no
 * barrier, a barrier with the wrong source access, the wrong destination
 * access, or the wrong stages.  The producer fills a buffer, the consumer
 * copies it, the host reads the copy (correctly synchronised). */
#include "sync_harness.h"

enum { CORRECT, NO_BARRIER, WRONG_SRC_ACCESS, WRONG_DST_ACCESS, WRONG_STAGES, VARIANTS };

static const struct sync_variant variants[VARIANTS] = {
    [CORRECT] = { "correct", NULL },
    [NO_BARRIER] = { "bug_no_barrier", "VKMM-HAZARD-STALE-READ" },
    [WRONG_SRC_ACCESS] = { "bug_wrong_src_access", "VKMM-HAZARD-STALE-READ" },
    [WRONG_DST_ACCESS] = { "bug_wrong_dst_access", "VKMM-HAZARD-STALE-READ" },
    [WRONG_STAGES] = { "bug_wrong_stages", "VKMM-HAZARD-STALE-READ" },
};

static void program(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    struct vkmm_test_buffer source = vkmm_test_buffer_create(t, SYNC_WORDS * 4, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer readback = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdFillBuffer(cmd, source.buffer, 0, VK_WHOLE_SIZE, 0x5eed1234u);
    switch (variant) {
    case CORRECT:
        /* ALL_TRANSFER: whether vkCmdFillBuffer runs in the CLEAR or the COPY
         * stage, the barrier covers it (implementations and layers differ). */
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_TRANSFER_READ_BIT);
        break;
    case WRONG_SRC_ACCESS:
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_TRANSFER_READ_BIT);
        break;
    case WRONG_DST_ACCESS:
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_SHADER_READ_BIT);
        break;
    case WRONG_STAGES:
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        break;
    default:
        break; /* NO_BARRIER */
    }
    VkBufferCopy all = { 0, 0, SYNC_WORDS * 4 };
    vkCmdCopyBuffer(cmd, source.buffer, readback.buffer, 1, &all);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                 VK_ACCESS_2_HOST_READ_BIT);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(result, readback.mapped, SYNC_WORDS * 4);
    vkmm_test_buffer_destroy(t, &source);
    vkmm_test_buffer_destroy(t, &readback);
}

static uint32_t expected[SYNC_WORDS];

static void run(int variant)
{
    for (int i = 0; i < SYNC_WORDS; i++)
        expected[i] = 0x5eed1234u;
    sync_check(program, variant, &variants[variant], expected);
}

static void correct(void **state) { (void)state; run(CORRECT); }
static void bug_no_barrier(void **state) { (void)state; run(NO_BARRIER); }
static void bug_wrong_src_access(void **state) { (void)state; run(WRONG_SRC_ACCESS); }
static void bug_wrong_dst_access(void **state) { (void)state; run(WRONG_DST_ACCESS); }
static void bug_wrong_stages(void **state) { (void)state; run(WRONG_STAGES); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct),
        cmocka_unit_test(bug_no_barrier),
        cmocka_unit_test(bug_wrong_src_access),
        cmocka_unit_test(bug_wrong_dst_access),
        cmocka_unit_test(bug_wrong_stages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
