/* A compute producer and a compute consumer (dispatch -> dispatch), and a
 * transfer producer before a compute consumer: without the barrier between
 * them, or with a barrier for the wrong access, the consumer reads what the
 * buffer held before. */
#include "sync_harness.h"

enum { CORRECT, NO_BARRIER, WRONG_DST_ACCESS, TRANSFER_CORRECT, TRANSFER_NO_BARRIER, VARIANTS };

static const struct sync_variant variants[VARIANTS] = {
    [CORRECT] = { "correct", NULL },
    [NO_BARRIER] = { "bug_no_barrier", "VKMM-HAZARD-STALE-READ" },
    [WRONG_DST_ACCESS] = { "bug_wrong_dst_access", "VKMM-HAZARD-STALE-READ" },
    [TRANSFER_CORRECT] = { "correct_transfer_to_compute", NULL },
    [TRANSFER_NO_BARRIER] = { "bug_transfer_to_compute_no_barrier", "VKMM-HAZARD-STALE-READ" },
};

static void program(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    bool transfer = variant == TRANSFER_CORRECT || variant == TRANSFER_NO_BARRIER;
    struct vkmm_test_buffer middle = vkmm_test_buffer_create(t, SYNC_WORDS * 4, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    struct vkmm_test_compute produce = vkmm_test_compute_create(t, "sync_produce", 1, 0, NULL);
    struct vkmm_test_compute consume = vkmm_test_compute_create(t, "sync_double", 2, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &produce, 0, middle.buffer, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(t, &consume, 0, middle.buffer, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(t, &consume, 1, out.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    if (transfer)
        vkCmdFillBuffer(cmd, middle.buffer, 0, VK_WHOLE_SIZE, 500u);
    else
        vkmm_test_compute_dispatch(&produce, cmd, NULL, 0, SYNC_WORDS / 64, 1, 1);
    if (variant == CORRECT)
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    else if (variant == WRONG_DST_ACCESS)
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_UNIFORM_READ_BIT);
    else if (variant == TRANSFER_CORRECT)
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    vkmm_test_compute_dispatch(&consume, cmd, NULL, 0, SYNC_WORDS / 64, 1, 1);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(result, out.mapped, SYNC_WORDS * 4);
    vkmm_test_compute_destroy(t, &produce);
    vkmm_test_compute_destroy(t, &consume);
    vkmm_test_buffer_destroy(t, &middle);
    vkmm_test_buffer_destroy(t, &out);
}

static void run(int variant)
{
    uint32_t expected[SYNC_WORDS];
    bool transfer = variant == TRANSFER_CORRECT || variant == TRANSFER_NO_BARRIER;
    for (uint32_t i = 0; i < SYNC_WORDS; i++)
        expected[i] = transfer ? 1000u : (i + 1000u) * 2u;
    sync_check(program, variant, &variants[variant], expected);
}

static void correct(void **state) { (void)state; run(CORRECT); }
static void bug_no_barrier(void **state) { (void)state; run(NO_BARRIER); }
static void bug_wrong_dst_access(void **state) { (void)state; run(WRONG_DST_ACCESS); }
static void correct_transfer_to_compute(void **state) { (void)state; run(TRANSFER_CORRECT); }
static void bug_transfer_to_compute_no_barrier(void **state) { (void)state; run(TRANSFER_NO_BARRIER); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct),
        cmocka_unit_test(bug_no_barrier),
        cmocka_unit_test(bug_wrong_dst_access),
        cmocka_unit_test(correct_transfer_to_compute),
        cmocka_unit_test(bug_transfer_to_compute_no_barrier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
