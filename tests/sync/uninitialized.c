/* Forgot to initialise: a dispatch reads a device-local buffer that nothing
 * wrote (the program assumes zeros).  Strict mode gives the allocation
 * pattern and reports VKMM-HAZARD-UNINITIALIZED-READ; the correct variant
 * clears the buffer first. */
#include "sync_harness.h"

enum { CORRECT, NEVER_WRITTEN, VARIANTS };

static const struct sync_variant variants[VARIANTS] = {
    [CORRECT] = { "correct_cleared_before_use", NULL },
    [NEVER_WRITTEN] = { "bug_read_of_never_written_buffer", "VKMM-HAZARD-UNINITIALIZED-READ" },
};

static void program(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    struct vkmm_test_buffer input = vkmm_test_buffer_create(t, SYNC_WORDS * 4, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    struct vkmm_test_compute consume = vkmm_test_compute_create(t, "sync_double", 2, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &consume, 0, input.buffer, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(t, &consume, 1, out.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    if (variant == CORRECT) {
        vkCmdFillBuffer(cmd, input.buffer, 0, VK_WHOLE_SIZE, 0);
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    }
    vkmm_test_compute_dispatch(&consume, cmd, NULL, 0, SYNC_WORDS / 64, 1, 1);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(result, out.mapped, SYNC_WORDS * 4);
    vkmm_test_compute_destroy(t, &consume);
    vkmm_test_buffer_destroy(t, &input);
    vkmm_test_buffer_destroy(t, &out);
}

static void run(int variant)
{
    uint32_t expected[SYNC_WORDS] = { 0 }; /* 0 * 2 */
    sync_check(program, variant, &variants[variant], expected);
}

static void correct_cleared_before_use(void **state) { (void)state; run(CORRECT); }
static void bug_read_of_never_written_buffer(void **state) { (void)state; run(NEVER_WRITTEN); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct_cleared_before_use),
        cmocka_unit_test(bug_read_of_never_written_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
