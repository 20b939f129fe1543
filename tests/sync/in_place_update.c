/* In-place updates without synchronization (anti-dependencies): each
 * invocation reads a neighbour's element and then overwrites its own, in
 * one buffer or in `shared` memory, with nothing ordering the read before
 * the neighbour's write.  The author means every read to see the old
 * value; a GPU that runs the neighbour's subgroup or workgroup first gives
 * the new one.  Strict mode reports the race once and makes it show: the
 * racing read sees the newer value, running the dispatch again with its
 * workgroups and subgroups in reverse order when the seeded order ran
 * every such read first (runtime/exec/dispatch.c, runs_writers_first).
 * The correct variants (two buffers, barrier() between read and write) are
 * right and report-free. */
#include "sync_harness.h"

enum {
    CORRECT_TWO_BUFFERS,
    NEXT_IN_PLACE,
    PREVIOUS_IN_PLACE,
    NEXT_IN_PLACE_COHERENT,
    NEXT_AFTER_LOAD,
    NEXT_SELECTED,
    CORRECT_SHARED_WITH_BARRIER,
    SHARED_NO_BARRIER,
    VARIANTS
};

static const struct sync_variant variants[VARIANTS] = {
    [CORRECT_TWO_BUFFERS] = { "correct_update_into_another_buffer", NULL },
    [NEXT_IN_PLACE] = { "bug_in_place_update_from_the_next_element", "VKMM-HAZARD-DISPATCH-RACE",
                        .mentions = "an in-place update" },
    [PREVIOUS_IN_PLACE] = { "bug_in_place_update_from_the_previous_element", "VKMM-HAZARD-DISPATCH-RACE",
                            .mentions = "an in-place update" },
    [NEXT_IN_PLACE_COHERENT] = { "bug_in_place_update_of_a_coherent_buffer", "VKMM-HAZARD-DISPATCH-RACE" },
    /* The load before the branch that stores, and the load in a branch
     * with the store after it. */
    [NEXT_AFTER_LOAD] = { "bug_in_place_update_stored_in_a_branch", "VKMM-HAZARD-DISPATCH-RACE",
                          .mentions = "an in-place update" },
    [NEXT_SELECTED] = { "bug_in_place_update_loaded_in_a_branch", "VKMM-HAZARD-DISPATCH-RACE",
                        .mentions = "an in-place update" },
    [CORRECT_SHARED_WITH_BARRIER] = { "correct_shared_update_with_barrier", NULL },
    [SHARED_NO_BARRIER] = { "bug_shared_in_place_update_without_barrier", "VKMM-HAZARD-WORKGROUP-RACE" },
};

static const char *const shaders[VARIANTS] = {
    [CORRECT_TWO_BUFFERS] = "sync_update_next_two_buffers",
    [NEXT_IN_PLACE] = "sync_update_next_in_place",
    [PREVIOUS_IN_PLACE] = "sync_update_previous_in_place",
    [NEXT_IN_PLACE_COHERENT] = "sync_update_next_in_place_coherent",
    [NEXT_AFTER_LOAD] = "sync_update_next_after_load",
    [NEXT_SELECTED] = "sync_update_next_selected",
    [CORRECT_SHARED_WITH_BARRIER] = "sync_shared_update_next",
    [SHARED_NO_BARRIER] = "sync_shared_update_next_no_barrier",
};

static uint32_t input_word(uint32_t i)
{
    return i * 3u + 1u;
}

static bool in_place(int variant)
{
    return variant != CORRECT_TWO_BUFFERS && variant != CORRECT_SHARED_WITH_BARRIER && variant != SHARED_NO_BARRIER;
}

static void program(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    struct vkmm_test_buffer values = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    for (uint32_t i = 0; i < SYNC_WORDS; i++)
        ((uint32_t *)values.mapped)[i] = input_word(i);
    memset(out.mapped, 0, SYNC_WORDS * 4);
    uint32_t bindings = in_place(variant) ? 1 : 2;
    struct vkmm_test_compute shader = vkmm_test_compute_create(t, shaders[variant], bindings, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &shader, 0, values.buffer, 0, VK_WHOLE_SIZE);
    if (bindings == 2)
        vkmm_test_compute_bind_buffer(t, &shader, 1, out.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&shader, cmd, NULL, 0, SYNC_WORDS / 64, 1, 1);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(result, (in_place(variant) ? values : out).mapped, SYNC_WORDS * 4);
    vkmm_test_compute_destroy(t, &shader);
    vkmm_test_buffer_destroy(t, &values);
    vkmm_test_buffer_destroy(t, &out);
}

/* What a program whose reads all come before the writes computes. */
static void expected_result(int variant, uint32_t expected[SYNC_WORDS])
{
    for (uint32_t i = 0; i < SYNC_WORDS; i++) {
        switch (variant) {
        case PREVIOUS_IN_PLACE:
            expected[i] = i > 0 ? input_word(i - 1) + 1u : input_word(i);
            break;
        case CORRECT_SHARED_WITH_BARRIER:
        case SHARED_NO_BARRIER:
            expected[i] = i % 64 < 63 ? input_word(i + 1) * 2u : input_word(i);
            break;
        default:
            expected[i] = i + 1 < SYNC_WORDS ? input_word(i + 1) + 1u : input_word(i);
            break;
        }
    }
}

static void run(int variant)
{
    uint32_t expected[SYNC_WORDS];
    expected_result(variant, expected);
    sync_check(program, variant, &variants[variant], expected);
}

static void correct_two_buffers(void **state) { (void)state; run(CORRECT_TWO_BUFFERS); }
static void bug_next_in_place(void **state) { (void)state; run(NEXT_IN_PLACE); }
static void bug_previous_in_place(void **state) { (void)state; run(PREVIOUS_IN_PLACE); }
static void bug_next_in_place_coherent(void **state) { (void)state; run(NEXT_IN_PLACE_COHERENT); }
static void bug_next_after_load(void **state) { (void)state; run(NEXT_AFTER_LOAD); }
static void bug_next_selected(void **state) { (void)state; run(NEXT_SELECTED); }
static void correct_shared_with_barrier(void **state) { (void)state; run(CORRECT_SHARED_WITH_BARRIER); }
static void bug_shared_no_barrier(void **state) { (void)state; run(SHARED_NO_BARRIER); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct_two_buffers),         cmocka_unit_test(bug_next_in_place),
        cmocka_unit_test(bug_previous_in_place),       cmocka_unit_test(correct_shared_with_barrier),
        cmocka_unit_test(bug_shared_no_barrier),       cmocka_unit_test(bug_next_in_place_coherent),
        cmocka_unit_test(bug_next_after_load),         cmocka_unit_test(bug_next_selected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
