/* Shader-side mistakes between workgroups of one dispatch: a workgroup
 * reads what another writes in the same dispatch (nothing orders
 * workgroups), with private or with coherent data (a race by
 * happens-before, whichever workgroup ran first), and a flag hand-off
 * whose data is not coherent (private writes never reach another
 * workgroup inside a command, whatever the atomics say), and a
 * Vulkan-memory-model hand-off whose flag is relaxed (nothing orders the
 * data's write before its read: VKMM-HAZARD-DISPATCH-RACE), or whose words
 * were made available at Workgroup scope only (they stay in the producers'
 * caches: VKMM-HAZARD-DISPATCH-STALE-READ), or whose fences have Workgroup
 * scope (a race again), and a counter shared by workgroups through atomics
 * of Workgroup scope (each workgroup's updates land on its own copy:
 * VKMM-HAZARD-DISPATCH-LOST-UPDATE), and a hand-off whose acquire makes
 * nothing visible (the read of `nonprivate` words is ordered after the
 * write but the write is never visible to it: a race), and a hand-off
 * between two subgroups of one workgroup whose acquire names only shared
 * memory (nothing orders the buffer write before the read: a race), and a
 * hand-off whose words are atomics of Workgroup scope with nothing made
 * available and visible at Device scope (not mutually ordered atomics, not
 * location-ordered: a race), and a hand-off between two subgroups of one
 * workgroup whose flag is stored without release (a race).  Strict mode reports each once
 * and the answer is wrong on every seed; the correct variants (two
 * dispatches with a barrier; coherent data; release/acquire with
 * MakeAvailable/MakeVisible; Device-scope fences; Workgroup-scope atomics
 * made available and visible at Device scope) are right and report-free. */
#include "sync_harness.h"

enum {
    CORRECT_TWO_DISPATCHES,
    CORRECT_COHERENT_HANDOFF,
    CORRECT_VMM_HANDOFF,
    CORRECT_VMM_FENCE_HANDOFF,
    SAME_DISPATCH,
    COHERENT_SAME_DISPATCH,
    PLAIN_HANDOFF,
    RELAXED_VMM_HANDOFF,
    WORKGROUP_SCOPE_HANDOFF,
    WORKGROUP_SCOPE_FENCE_HANDOFF,
    CORRECT_DEVICE_SCOPE_COUNTER,
    WORKGROUP_SCOPE_COUNTER,
    NOT_VISIBLE_HANDOFF,
    CORRECT_SUBGROUP_HANDOFF,
    NOT_ACQUIRED_HANDOFF,
    WORKGROUP_SCOPE_ATOMICS_HANDOFF,
    CORRECT_WORKGROUP_SCOPE_ATOMICS_HANDOFF,
    NOT_RELEASED_HANDOFF,
    VARIANTS
};

static const struct sync_variant variants[VARIANTS] = {
    [CORRECT_TWO_DISPATCHES] = { "correct_neighbour_in_next_dispatch", NULL },
    [CORRECT_COHERENT_HANDOFF] = { "correct_flag_handoff_with_coherent_data", NULL },
    [CORRECT_VMM_HANDOFF] = { "correct_flag_handoff_vulkan_memory_model", NULL },
    [CORRECT_VMM_FENCE_HANDOFF] = { "correct_flag_handoff_device_scope_fences", NULL },
    [PLAIN_HANDOFF] = { "bug_flag_handoff_with_data_not_coherent", "VKMM-HAZARD-DISPATCH-RACE" },
    /* The reports name both invocations (gl_LocalInvocationID of
     * gl_WorkGroupID): workgroup 0's invocations write the data. */
    [RELAXED_VMM_HANDOFF] = { "bug_relaxed_flag_and_no_availability", "VKMM-HAZARD-DISPATCH-RACE",
                              .mentions = "the atomics between the workgroups do not order them (relaxed" },
    [WORKGROUP_SCOPE_HANDOFF] = { "bug_availability_at_workgroup_scope_across_workgroups",
                                  "VKMM-HAZARD-DISPATCH-STALE-READ" },
    [WORKGROUP_SCOPE_FENCE_HANDOFF] = { "bug_fences_at_workgroup_scope_across_workgroups",
                                        "VKMM-HAZARD-DISPATCH-RACE",
                                        .mentions = "has Workgroup scope, but the two invocations are in different "
                                                    "workgroups" },
    [NOT_VISIBLE_HANDOFF] = { "bug_acquire_without_make_visible", "VKMM-HAZARD-DISPATCH-RACE",
                              .mentions = "is never made visible to its invocation" },
    [CORRECT_SUBGROUP_HANDOFF] = { "correct_subgroup_handoff_acquire_naming_the_buffer", NULL },
    [NOT_ACQUIRED_HANDOFF] = { "bug_acquire_naming_only_shared_memory", "VKMM-HAZARD-DISPATCH-RACE",
                               .mentions = "performed no acquire naming this memory" },
    [WORKGROUP_SCOPE_ATOMICS_HANDOFF] = { "bug_data_atomics_at_workgroup_scope_across_workgroups",
                                          "VKMM-HAZARD-DISPATCH-RACE",
                                          .mentions = "the atomic's scope is Workgroup (or narrower) but the two "
                                                      "invocations are in different workgroups" },
    [CORRECT_WORKGROUP_SCOPE_ATOMICS_HANDOFF] = { "correct_workgroup_scope_atomics_made_visible_at_device_scope",
                                                  NULL },
    [NOT_RELEASED_HANDOFF] = { "bug_subgroup_handoff_flag_stored_without_release", "VKMM-HAZARD-DISPATCH-RACE",
                               .mentions = "performed no release naming this memory after the write" },
    [CORRECT_DEVICE_SCOPE_COUNTER] = { "correct_counter_atomics_at_device_scope", NULL },
    [WORKGROUP_SCOPE_COUNTER] = { "bug_counter_atomics_at_workgroup_scope_across_workgroups",
                                  "VKMM-HAZARD-DISPATCH-LOST-UPDATE", .mentions = "invocation (" },
    [SAME_DISPATCH] = { "bug_neighbour_read_in_same_dispatch", "VKMM-HAZARD-DISPATCH-RACE",
                        .mentions = "invocation (" },
    [COHERENT_SAME_DISPATCH] = { "bug_coherent_neighbour_read_in_same_dispatch", "VKMM-HAZARD-DISPATCH-RACE",
                                 .mentions = "invocation (" },
};

static const char *const handoff_shaders[VARIANTS] = {
    [CORRECT_COHERENT_HANDOFF] = "sync_handoff_coherent",
    [CORRECT_VMM_HANDOFF] = "sync_handoff_vmm_release",
    [PLAIN_HANDOFF] = "sync_handoff_plain",
    [RELAXED_VMM_HANDOFF] = "sync_handoff_vmm_relaxed",
    [WORKGROUP_SCOPE_HANDOFF] = "sync_handoff_vmm_workgroup_scope",
    [CORRECT_VMM_FENCE_HANDOFF] = "sync_handoff_vmm_device_fences",
    [WORKGROUP_SCOPE_FENCE_HANDOFF] = "sync_handoff_vmm_workgroup_fences",
    [NOT_VISIBLE_HANDOFF] = "sync_handoff_vmm_not_visible",
    [CORRECT_SUBGROUP_HANDOFF] = "sync_handoff_subgroups_acquire_buffer",
    [NOT_ACQUIRED_HANDOFF] = "sync_handoff_subgroups_acquire_shared_only",
    [WORKGROUP_SCOPE_ATOMICS_HANDOFF] = "sync_handoff_workgroup_scope_atomics",
    [CORRECT_WORKGROUP_SCOPE_ATOMICS_HANDOFF] = "sync_handoff_workgroup_scope_atomics_made_visible",
    [NOT_RELEASED_HANDOFF] = "sync_handoff_subgroups_no_release",
};

static uint32_t input_word(uint32_t i)
{
    return i * 5u + 2u;
}

static void neighbours(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    struct vkmm_test_buffer input = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    struct vkmm_test_buffer mid = vkmm_test_buffer_create(t, SYNC_WORDS * 4, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    for (uint32_t i = 0; i < SYNC_WORDS; i++)
        ((uint32_t *)input.mapped)[i] = input_word(i);
    bool split = variant == CORRECT_TWO_DISPATCHES;
    struct vkmm_test_compute first =
        vkmm_test_compute_create(t, split ? "sync_neighbour_write"
                                 : variant == COHERENT_SAME_DISPATCH ? "sync_neighbour_same_dispatch_coherent"
                                                                     : "sync_neighbour_same_dispatch", 3, 0, NULL);
    struct vkmm_test_compute second = vkmm_test_compute_create(t, "sync_neighbour_gather", 3, 0, NULL);
    struct vkmm_test_compute *shaders[2] = { &first, &second };
    for (int s = 0; s < 2; s++) {
        vkmm_test_compute_bind_buffer(t, shaders[s], 0, input.buffer, 0, VK_WHOLE_SIZE);
        vkmm_test_compute_bind_buffer(t, shaders[s], 1, mid.buffer, 0, VK_WHOLE_SIZE);
        vkmm_test_compute_bind_buffer(t, shaders[s], 2, out.buffer, 0, VK_WHOLE_SIZE);
    }
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&first, cmd, NULL, 0, SYNC_WORDS / 64, 1, 1);
    if (split) {
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
        vkmm_test_compute_dispatch(&second, cmd, NULL, 0, SYNC_WORDS / 64, 1, 1);
    }
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(result, out.mapped, SYNC_WORDS * 4);
    vkmm_test_compute_destroy(t, &first);
    vkmm_test_compute_destroy(t, &second);
    vkmm_test_buffer_destroy(t, &input);
    vkmm_test_buffer_destroy(t, &mid);
    vkmm_test_buffer_destroy(t, &out);
}

static void handoff(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    struct vkmm_test_buffer data = vkmm_test_buffer_create(t, 64 * 4, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer flag = vkmm_test_buffer_create(t, 4, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    memset(out.mapped, 0, SYNC_WORDS * 4);
    struct vkmm_test_compute shader = vkmm_test_compute_create(t, handoff_shaders[variant], 3, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &shader, 0, data.buffer, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(t, &shader, 1, flag.buffer, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(t, &shader, 2, out.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdFillBuffer(cmd, data.buffer, 0, VK_WHOLE_SIZE, 0);
    vkCmdFillBuffer(cmd, flag.buffer, 0, VK_WHOLE_SIZE, 0);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    vkmm_test_compute_dispatch(&shader, cmd, NULL, 0, 2, 1, 1);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(result, out.mapped, SYNC_WORDS * 4);
    vkmm_test_compute_destroy(t, &shader);
    vkmm_test_buffer_destroy(t, &data);
    vkmm_test_buffer_destroy(t, &flag);
    vkmm_test_buffer_destroy(t, &out);
}

/* Four workgroups of 64 count themselves into out[0]. */
static void counter(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    const char *name = variant == WORKGROUP_SCOPE_COUNTER ? "sync_counter_workgroup_scope" : "sync_counter_device_scope";
    struct vkmm_test_compute shader = vkmm_test_compute_create(t, name, 1, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &shader, 0, out.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdFillBuffer(cmd, out.buffer, 0, VK_WHOLE_SIZE, 0);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    vkmm_test_compute_dispatch(&shader, cmd, NULL, 0, 4, 1, 1);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(result, out.mapped, SYNC_WORDS * 4);
    vkmm_test_compute_destroy(t, &shader);
    vkmm_test_buffer_destroy(t, &out);
}

static void program(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    if (variant == CORRECT_TWO_DISPATCHES || variant == SAME_DISPATCH || variant == COHERENT_SAME_DISPATCH)
        neighbours(t, variant, result);
    else if (variant == CORRECT_DEVICE_SCOPE_COUNTER || variant == WORKGROUP_SCOPE_COUNTER)
        counter(t, variant, result);
    else
        handoff(t, variant, result);
}

static void run(int variant)
{
    uint32_t expected[SYNC_WORDS] = { 0 };
    for (uint32_t i = 0; i < SYNC_WORDS; i++) {
        if (variant == CORRECT_TWO_DISPATCHES || variant == SAME_DISPATCH || variant == COHERENT_SAME_DISPATCH)
            expected[i] = input_word((i + 64) % SYNC_WORDS) * 2u;
        else if (variant == CORRECT_DEVICE_SCOPE_COUNTER || variant == WORKGROUP_SCOPE_COUNTER)
            expected[i] = i == 0 ? 4 * 64 : 0;
        else if (i < 64)
            expected[i] = i * 7u + 3u;
    }
    sync_check(program, variant, &variants[variant], expected);
}

static void correct_two_dispatches(void **state) { (void)state; run(CORRECT_TWO_DISPATCHES); }
static void correct_coherent_handoff(void **state) { (void)state; run(CORRECT_COHERENT_HANDOFF); }
static void correct_vmm_handoff(void **state) { (void)state; run(CORRECT_VMM_HANDOFF); }
static void correct_vmm_fence_handoff(void **state) { (void)state; run(CORRECT_VMM_FENCE_HANDOFF); }

static void bug_same_dispatch(void **state) { (void)state; run(SAME_DISPATCH); }
static void bug_coherent_same_dispatch(void **state) { (void)state; run(COHERENT_SAME_DISPATCH); }
static void bug_plain_handoff(void **state) { (void)state; run(PLAIN_HANDOFF); }
static void bug_relaxed_vmm_handoff(void **state) { (void)state; run(RELAXED_VMM_HANDOFF); }
static void bug_workgroup_scope_handoff(void **state) { (void)state; run(WORKGROUP_SCOPE_HANDOFF); }
static void bug_workgroup_scope_fences(void **state) { (void)state; run(WORKGROUP_SCOPE_FENCE_HANDOFF); }
static void correct_device_scope_counter(void **state) { (void)state; run(CORRECT_DEVICE_SCOPE_COUNTER); }
static void bug_workgroup_scope_counter(void **state) { (void)state; run(WORKGROUP_SCOPE_COUNTER); }
static void bug_not_visible_handoff(void **state) { (void)state; run(NOT_VISIBLE_HANDOFF); }
static void correct_subgroup_handoff(void **state) { (void)state; run(CORRECT_SUBGROUP_HANDOFF); }
static void bug_not_acquired_handoff(void **state) { (void)state; run(NOT_ACQUIRED_HANDOFF); }
static void bug_workgroup_scope_atomics_handoff(void **state) { (void)state; run(WORKGROUP_SCOPE_ATOMICS_HANDOFF); }
static void bug_not_released_handoff(void **state) { (void)state; run(NOT_RELEASED_HANDOFF); }
static void correct_workgroup_scope_atomics_handoff(void **state)
{
    (void)state;
    run(CORRECT_WORKGROUP_SCOPE_ATOMICS_HANDOFF);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct_two_dispatches),
        cmocka_unit_test(correct_coherent_handoff),
        cmocka_unit_test(correct_vmm_handoff),
        cmocka_unit_test(correct_vmm_fence_handoff),
        cmocka_unit_test(bug_same_dispatch),
        cmocka_unit_test(bug_coherent_same_dispatch),
        cmocka_unit_test(bug_plain_handoff),
        cmocka_unit_test(bug_relaxed_vmm_handoff),
        cmocka_unit_test(bug_workgroup_scope_handoff),
        cmocka_unit_test(bug_workgroup_scope_fences),
        cmocka_unit_test(correct_device_scope_counter),
        cmocka_unit_test(bug_workgroup_scope_counter),
        cmocka_unit_test(bug_not_visible_handoff),
        cmocka_unit_test(correct_subgroup_handoff),
        cmocka_unit_test(bug_not_acquired_handoff),
        cmocka_unit_test(bug_workgroup_scope_atomics_handoff),
        cmocka_unit_test(correct_workgroup_scope_atomics_handoff),
        cmocka_unit_test(bug_not_released_handoff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
