/* A dispatch writes the arguments of a vkCmdDispatchIndirect.  The
 * argument read happens in the DRAW_INDIRECT stage with
 * INDIRECT_COMMAND_READ access: a barrier to COMPUTE_SHADER / SHADER_READ
 * (the commonest mistake) covers the shader of the indirect dispatch but
 * not its argument read. */
#include "sync_harness.h"

enum { CORRECT, MISSES_DRAW_INDIRECT, NO_BARRIER, VARIANTS };

static const struct sync_variant variants[VARIANTS] = {
    [CORRECT] = { "correct", NULL },
    [MISSES_DRAW_INDIRECT] = { "bug_barrier_misses_draw_indirect", "VKMM-HAZARD-STALE-READ" },
    [NO_BARRIER] = { "bug_no_barrier", "VKMM-HAZARD-STALE-READ" },
};

static void program(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    VkMemoryPropertyFlags device_local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    struct vkmm_test_buffer args = vkmm_test_buffer_create(t, 16, device_local);
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    memset(out.mapped, 0, SYNC_WORDS * 4);
    struct vkmm_test_compute write_args = vkmm_test_compute_create(t, "sync_write_args", 1, 0, NULL);
    struct vkmm_test_compute produce = vkmm_test_compute_create(t, "sync_produce", 1, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &write_args, 0, args.buffer, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(t, &produce, 0, out.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&write_args, cmd, NULL, 0, 1, 1, 1);
    if (variant == CORRECT)
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
    else if (variant == MISSES_DRAW_INDIRECT)
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    /* vkmm_test_compute_dispatch records a direct dispatch: bind by hand. */
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, produce.pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, produce.layout, 0, 1, &produce.set, 0, NULL);
    vkCmdDispatchIndirect(cmd, args.buffer, 0);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(result, out.mapped, SYNC_WORDS * 4);
    vkmm_test_compute_destroy(t, &write_args);
    vkmm_test_compute_destroy(t, &produce);
    vkmm_test_buffer_destroy(t, &args);
    vkmm_test_buffer_destroy(t, &out);
}

static void run(int variant)
{
    uint32_t expected[SYNC_WORDS];
    for (uint32_t i = 0; i < SYNC_WORDS; i++)
        expected[i] = i + 1000u;
    sync_check(program, variant, &variants[variant], expected);
}

static void correct(void **state) { (void)state; run(CORRECT); }
static void bug_barrier_misses_draw_indirect(void **state) { (void)state; run(MISSES_DRAW_INDIRECT); }
static void bug_no_barrier(void **state) { (void)state; run(NO_BARRIER); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct),
        cmocka_unit_test(bug_barrier_misses_draw_indirect),
        cmocka_unit_test(bug_no_barrier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
