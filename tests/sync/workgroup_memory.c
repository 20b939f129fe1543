/* Shader-side mistakes with Workgroup (shared) memory: invocations of one
 * workgroup exchange words through `shared` without barrier(), with
 * memoryBarrierShared() instead of barrier(), with a Vulkan-memory-model
 * control barrier that has no memory semantics, or overwrite words others
 * have yet to read.  Strict mode reports VKMM-HAZARD-WORKGROUP-RACE once per
 * bug and the answer is wrong on every seed; the correct variants (barrier(),
 * an acquire-release control barrier, atomics) are right and report-free. */
#include "sync_harness.h"

enum {
    CORRECT_EXCHANGE,
    CORRECT_VMM_ACQ_REL,
    CORRECT_ROTATE,
    CORRECT_ATOMIC_COUNT,
    NO_BARRIER,
    MEMORY_BARRIER_ONLY,
    VMM_EXECUTION_ONLY,
    ROTATE_NO_BARRIER,
    CORRECT_EXCHANGE_ATOMIC_OUT,
    NO_BARRIER_ATOMIC_OUT,
    CORRECT_HISTOGRAM,
    HISTOGRAM_NO_BARRIER,
    ATOMIC_COUNT_NO_BARRIER,
    ATOMIC_COUNT_NO_RESET_BARRIER,
    CORRECT_HANDOFF,
    HANDOFF_RELAXED,
    HANDOFF_NO_RELEASE,
    HANDOFF_NO_ACQUIRE,
    CORRECT_HANDOFF_FENCES,
    HANDOFF_SUBGROUP_SCOPE,
    SHARED_SUBGROUP_SCOPE_COUNT,
    DEVICE_SUBGROUP_SCOPE_COUNT,
    CORRECT_DEVICE_WORKGROUP_SCOPE_COUNT,
    DEVICE_PLAIN_READ_OF_COUNT,
    DEVICE_COHERENT_READ_OF_COUNT,
    CORRECT_DEVICE_HANDOFF_WORKGROUP_SCOPE,
    HISTOGRAM_NOT_CLEARED,
    PAIR_SWAP_NO_BARRIER,
    HANDOFF_ACQUIRE_OTHER_FLAG,
    DEVICE_HANDOFF_ACQUIRE_OTHER_FLAG,
    CORRECT_DEVICE_HANDOFF_FENCES,
    SHARED_FLAG_BUFFER_TILE_OTHER_FLAG,
    CORRECT_SHARED_FLAG_BUFFER_TILE_FENCE,
    CORRECT_SHARED_LOCK,
    SHARED_LOCK_RELAXED_UNLOCK,
    VARIANTS
};

static const struct sync_variant variants[VARIANTS] = {
    [CORRECT_EXCHANGE] = { "correct_exchange_with_barrier", NULL },
    [CORRECT_VMM_ACQ_REL] = { "correct_vulkan_memory_model_acquire_release_barrier", NULL },
    [CORRECT_ROTATE] = { "correct_in_place_rotation", NULL },
    [CORRECT_ATOMIC_COUNT] = { "correct_shared_atomic_count", NULL },
    [NO_BARRIER] = { "bug_exchange_without_barrier", "VKMM-HAZARD-WORKGROUP-RACE" },
    [MEMORY_BARRIER_ONLY] = { "bug_memory_barrier_shared_instead_of_barrier", "VKMM-HAZARD-WORKGROUP-RACE" },
    [VMM_EXECUTION_ONLY] = { "bug_control_barrier_without_semantics", "VKMM-HAZARD-WORKGROUP-RACE" },
    [ROTATE_NO_BARRIER] = { "bug_in_place_rotation_without_barrier", "VKMM-HAZARD-WORKGROUP-RACE" },
    [CORRECT_EXCHANGE_ATOMIC_OUT] = { "correct_exchange_with_barrier_atomic_output", NULL },
    [NO_BARRIER_ATOMIC_OUT] = { "bug_exchange_without_barrier_atomic_output", "VKMM-HAZARD-WORKGROUP-RACE" },
    [CORRECT_HISTOGRAM] = { "correct_shared_histogram", NULL },
    [HISTOGRAM_NO_BARRIER] = { "bug_shared_histogram_read_without_barrier", "VKMM-HAZARD-WORKGROUP-RACE" },
    [ATOMIC_COUNT_NO_BARRIER] = { "bug_shared_atomic_count_read_without_barrier", "VKMM-HAZARD-WORKGROUP-RACE" },
    [ATOMIC_COUNT_NO_RESET_BARRIER] = { "bug_shared_atomic_count_cleared_without_barrier",
                                        "VKMM-HAZARD-WORKGROUP-RACE" },
    [CORRECT_HANDOFF] = { "correct_shared_flag_handoff_release_acquire", NULL },
    [HANDOFF_RELAXED] = { "bug_shared_flag_handoff_relaxed", "VKMM-HAZARD-WORKGROUP-RACE" },
    [HANDOFF_NO_RELEASE] = { "bug_shared_flag_handoff_without_release", "VKMM-HAZARD-WORKGROUP-RACE" },
    [HANDOFF_NO_ACQUIRE] = { "bug_shared_flag_handoff_without_acquire", "VKMM-HAZARD-WORKGROUP-RACE" },
    [CORRECT_HANDOFF_FENCES] = { "correct_shared_flag_handoff_fences", NULL },
    [HANDOFF_SUBGROUP_SCOPE] = { "bug_shared_flag_handoff_at_subgroup_scope", "VKMM-HAZARD-WORKGROUP-RACE" },
    [SHARED_SUBGROUP_SCOPE_COUNT] = { "bug_shared_count_at_subgroup_scope", "VKMM-HAZARD-WORKGROUP-RACE" },
    [DEVICE_SUBGROUP_SCOPE_COUNT] = { "bug_buffer_count_at_subgroup_scope", "VKMM-HAZARD-DISPATCH-LOST-UPDATE" },
    [CORRECT_DEVICE_WORKGROUP_SCOPE_COUNT] = { "correct_buffer_count_at_workgroup_scope", NULL },
    [DEVICE_PLAIN_READ_OF_COUNT] = { "bug_plain_read_of_atomic_count", "VKMM-HAZARD-DISPATCH-RACE" },
    [DEVICE_COHERENT_READ_OF_COUNT] = { "bug_coherent_read_of_atomic_count", "VKMM-HAZARD-DISPATCH-RACE" },
    [CORRECT_DEVICE_HANDOFF_WORKGROUP_SCOPE] = { "correct_buffer_flag_handoff_at_workgroup_scope", NULL },
    [HISTOGRAM_NOT_CLEARED] = { "bug_shared_histogram_not_cleared", "VKMM-HAZARD-UNINITIALIZED-READ" },
    /* Neighbouring lanes of one subgroup swap words without barrier(). */
    [PAIR_SWAP_NO_BARRIER] = { "bug_pair_swap_between_lanes_without_barrier", "VKMM-HAZARD-WORKGROUP-RACE" },
    /* The acquire reads another variable than the one released. */
    [HANDOFF_ACQUIRE_OTHER_FLAG] = { "bug_shared_flag_handoff_acquire_of_another_variable",
                                     "VKMM-HAZARD-WORKGROUP-RACE" },
    /* The same with the tile and both flags in a buffer. */
    [DEVICE_HANDOFF_ACQUIRE_OTHER_FLAG] = { "bug_buffer_flag_handoff_acquire_of_another_variable",
                                            "VKMM-HAZARD-DISPATCH-RACE" },
    [CORRECT_DEVICE_HANDOFF_FENCES] = { "correct_buffer_flag_handoff_through_fences", NULL },
    /* The tile in a buffer, both flags in shared memory. */
    [SHARED_FLAG_BUFFER_TILE_OTHER_FLAG] = { "bug_shared_flag_buffer_tile_acquire_of_another_variable",
                                             "VKMM-HAZARD-DISPATCH-RACE" },
    [CORRECT_SHARED_FLAG_BUFFER_TILE_FENCE] = { "correct_shared_flag_buffer_tile_through_a_fence", NULL },
    /* A test-and-test-and-set lock in shared memory around a shared total. */
    [CORRECT_SHARED_LOCK] = { "correct_shared_spin_lock", NULL },
    [SHARED_LOCK_RELAXED_UNLOCK] = { "bug_shared_spin_lock_released_relaxed", "VKMM-HAZARD-WORKGROUP-RACE" },
};

static const char *const shaders[VARIANTS] = {
    [CORRECT_EXCHANGE] = "sync_shared_exchange",
    [CORRECT_VMM_ACQ_REL] = "sync_shared_vmm_acq_rel",
    [CORRECT_ROTATE] = "sync_shared_rotate",
    [CORRECT_ATOMIC_COUNT] = "sync_shared_atomic_count",
    [NO_BARRIER] = "sync_shared_no_barrier",
    [MEMORY_BARRIER_ONLY] = "sync_shared_memory_barrier_only",
    [VMM_EXECUTION_ONLY] = "sync_shared_vmm_execution_only",
    [ROTATE_NO_BARRIER] = "sync_shared_rotate_no_barrier",
    [CORRECT_EXCHANGE_ATOMIC_OUT] = "sync_shared_exchange_atomic_out",
    [NO_BARRIER_ATOMIC_OUT] = "sync_shared_no_barrier_atomic_out",
    [CORRECT_HISTOGRAM] = "sync_shared_histogram",
    [HISTOGRAM_NO_BARRIER] = "sync_shared_histogram_no_barrier",
    [ATOMIC_COUNT_NO_BARRIER] = "sync_shared_atomic_count_no_barrier",
    [ATOMIC_COUNT_NO_RESET_BARRIER] = "sync_shared_atomic_count_no_reset_barrier",
    [CORRECT_HANDOFF] = "sync_shared_handoff_release_acquire",
    [HANDOFF_RELAXED] = "sync_shared_handoff_relaxed",
    [HANDOFF_NO_RELEASE] = "sync_shared_handoff_no_release",
    [HANDOFF_NO_ACQUIRE] = "sync_shared_handoff_no_acquire",
    [CORRECT_HANDOFF_FENCES] = "sync_shared_handoff_fences",
    [HANDOFF_SUBGROUP_SCOPE] = "sync_shared_handoff_subgroup_scope",
    [SHARED_SUBGROUP_SCOPE_COUNT] = "sync_shared_subgroup_scope_count",
    [DEVICE_SUBGROUP_SCOPE_COUNT] = "sync_device_subgroup_scope_count",
    [CORRECT_DEVICE_WORKGROUP_SCOPE_COUNT] = "sync_device_workgroup_scope_count",
    [DEVICE_PLAIN_READ_OF_COUNT] = "sync_device_plain_read_of_atomic_count",
    [DEVICE_COHERENT_READ_OF_COUNT] = "sync_device_coherent_read_of_atomic_count",
    [CORRECT_DEVICE_HANDOFF_WORKGROUP_SCOPE] = "sync_device_handoff_workgroup_scope",
    [HISTOGRAM_NOT_CLEARED] = "sync_shared_histogram_not_cleared",
    [PAIR_SWAP_NO_BARRIER] = "sync_shared_pair_swap_no_barrier",
    [HANDOFF_ACQUIRE_OTHER_FLAG] = "sync_shared_handoff_other_flag",
    [DEVICE_HANDOFF_ACQUIRE_OTHER_FLAG] = "sync_device_handoff_other_flag",
    [CORRECT_DEVICE_HANDOFF_FENCES] = "sync_device_handoff_fence",
    [SHARED_FLAG_BUFFER_TILE_OTHER_FLAG] = "sync_shared_flag_buffer_tile_other_flag",
    [CORRECT_SHARED_FLAG_BUFFER_TILE_FENCE] = "sync_shared_flag_buffer_tile_fence",
    [CORRECT_SHARED_LOCK] = "sync_shared_lock",
    [SHARED_LOCK_RELAXED_UNLOCK] = "sync_shared_lock_relaxed_unlock",
};

static uint32_t input_word(uint32_t i)
{
    return i * 3u + 1u;
}

static void program(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    struct vkmm_test_buffer input = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    for (uint32_t i = 0; i < SYNC_WORDS; i++)
        ((uint32_t *)input.mapped)[i] = input_word(i);
    memset(out.mapped, 0, SYNC_WORDS * 4); /* the buffer-count variants add into it */
    struct vkmm_test_compute shader = vkmm_test_compute_create(t, shaders[variant], 2, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &shader, 0, input.buffer, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(t, &shader, 1, out.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    /* Twice, as a frame loop would: one bug, one report. */
    for (int i = 0; i < 2; i++) {
        vkmm_test_compute_dispatch(&shader, cmd, NULL, 0, SYNC_WORDS / 64, 1, 1);
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_HOST_BIT,
                     VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                         VK_ACCESS_2_HOST_READ_BIT);
    }
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(result, out.mapped, SYNC_WORDS * 4);
    vkmm_test_compute_destroy(t, &shader);
    vkmm_test_buffer_destroy(t, &input);
    vkmm_test_buffer_destroy(t, &out);
}

/* What a program without the bug computes. */
static void expected_result(int variant, uint32_t expected[SYNC_WORDS])
{
    for (uint32_t i = 0; i < SYNC_WORDS; i++) {
        uint32_t group = i / 64, neighbour = group * 64 + (i % 64 + 1) % 64;
        switch (variant) {
        case CORRECT_ROTATE:
        case ROTATE_NO_BARRIER:
            expected[i] = input_word(neighbour) * 2u;
            break;
        case CORRECT_HISTOGRAM:
        case HISTOGRAM_NOT_CLEARED:
        case HISTOGRAM_NO_BARRIER: {
            uint32_t count = 0;
            for (uint32_t j = 0; j < 64 && i % 64 < 16; j++)
                count += input_word(group * 64 + j) % 16u == i % 64;
            expected[i] = count;
            break;
        }
        case DEVICE_SUBGROUP_SCOPE_COUNT:
        case CORRECT_DEVICE_WORKGROUP_SCOPE_COUNT: {
            uint32_t sum = 0;
            for (uint32_t j = 0; j < 64 && i % 64 == 0; j++)
                sum += input_word(group * 64 + j);
            expected[i] = 2u * sum; /* two dispatches add */
            break;
        }
        case CORRECT_DEVICE_HANDOFF_WORKGROUP_SCOPE:
            expected[i] = i % 64 < 32 ? input_word(i) + 1u : i % 64 == 32 ? 0u : input_word(i - 32) + 1u;
            break;
        case DEVICE_HANDOFF_ACQUIRE_OTHER_FLAG:
        case CORRECT_DEVICE_HANDOFF_FENCES:
        case SHARED_FLAG_BUFFER_TILE_OTHER_FLAG:
        case CORRECT_SHARED_FLAG_BUFFER_TILE_FENCE: {
            /* Two dispatches add to the tile: a copy of the first one's
             * tile is wrong. */
            uint32_t tile = i % 64 < 32 ? i : i - 32;
            expected[i] = i % 64 == 32 ? 0u : i % 64 == 33 ? 1u : 2u * (input_word(tile) + 1u);
            break;
        }
        case DEVICE_PLAIN_READ_OF_COUNT:
        case DEVICE_COHERENT_READ_OF_COUNT:
            expected[i] = i == 0 || i % 64 == 1 ? 2u * SYNC_WORDS : 0u;
            break;
        case PAIR_SWAP_NO_BARRIER:
            expected[i] = input_word(i ^ 1u);
            break;
        case SHARED_SUBGROUP_SCOPE_COUNT:
        case CORRECT_SHARED_LOCK:
        case SHARED_LOCK_RELAXED_UNLOCK:
        case CORRECT_ATOMIC_COUNT:
        case ATOMIC_COUNT_NO_BARRIER:
        case ATOMIC_COUNT_NO_RESET_BARRIER: {
            uint32_t sum = 0;
            for (uint32_t j = 0; j < 64; j++)
                sum += input_word(group * 64 + j);
            expected[i] = sum;
            break;
        }
        default:
            expected[i] = input_word(neighbour);
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

static void correct_exchange(void **state) { (void)state; run(CORRECT_EXCHANGE); }
static void correct_vmm_acq_rel(void **state) { (void)state; run(CORRECT_VMM_ACQ_REL); }
static void correct_rotate(void **state) { (void)state; run(CORRECT_ROTATE); }
static void correct_atomic_count(void **state) { (void)state; run(CORRECT_ATOMIC_COUNT); }
static void bug_no_barrier(void **state) { (void)state; run(NO_BARRIER); }
static void bug_memory_barrier_only(void **state) { (void)state; run(MEMORY_BARRIER_ONLY); }
static void bug_vmm_execution_only(void **state) { (void)state; run(VMM_EXECUTION_ONLY); }
static void bug_rotate_no_barrier(void **state) { (void)state; run(ROTATE_NO_BARRIER); }
static void correct_exchange_atomic_out(void **state) { (void)state; run(CORRECT_EXCHANGE_ATOMIC_OUT); }
static void bug_no_barrier_atomic_out(void **state) { (void)state; run(NO_BARRIER_ATOMIC_OUT); }
static void correct_histogram(void **state) { (void)state; run(CORRECT_HISTOGRAM); }
static void bug_histogram_no_barrier(void **state) { (void)state; run(HISTOGRAM_NO_BARRIER); }
static void bug_atomic_count_no_barrier(void **state) { (void)state; run(ATOMIC_COUNT_NO_BARRIER); }
static void bug_atomic_count_no_reset_barrier(void **state) { (void)state; run(ATOMIC_COUNT_NO_RESET_BARRIER); }
static void correct_handoff(void **state) { (void)state; run(CORRECT_HANDOFF); }
static void bug_handoff_relaxed(void **state) { (void)state; run(HANDOFF_RELAXED); }
static void bug_handoff_no_release(void **state) { (void)state; run(HANDOFF_NO_RELEASE); }
static void bug_handoff_no_acquire(void **state) { (void)state; run(HANDOFF_NO_ACQUIRE); }
static void correct_handoff_fences(void **state) { (void)state; run(CORRECT_HANDOFF_FENCES); }
static void bug_handoff_subgroup_scope(void **state) { (void)state; run(HANDOFF_SUBGROUP_SCOPE); }
static void bug_shared_subgroup_scope_count(void **state) { (void)state; run(SHARED_SUBGROUP_SCOPE_COUNT); }
static void bug_device_subgroup_scope_count(void **state) { (void)state; run(DEVICE_SUBGROUP_SCOPE_COUNT); }
static void correct_device_workgroup_scope_count(void **state)
{
    (void)state;
    run(CORRECT_DEVICE_WORKGROUP_SCOPE_COUNT);
}
static void bug_device_plain_read_of_count(void **state) { (void)state; run(DEVICE_PLAIN_READ_OF_COUNT); }
static void bug_device_coherent_read_of_count(void **state) { (void)state; run(DEVICE_COHERENT_READ_OF_COUNT); }
static void bug_histogram_not_cleared(void **state) { (void)state; run(HISTOGRAM_NOT_CLEARED); }
static void bug_pair_swap_no_barrier(void **state) { (void)state; run(PAIR_SWAP_NO_BARRIER); }
static void bug_handoff_acquire_other_flag(void **state) { (void)state; run(HANDOFF_ACQUIRE_OTHER_FLAG); }
static void bug_device_handoff_acquire_other_flag(void **state)
{
    (void)state;
    run(DEVICE_HANDOFF_ACQUIRE_OTHER_FLAG);
}
static void correct_device_handoff_fences(void **state) { (void)state; run(CORRECT_DEVICE_HANDOFF_FENCES); }
static void bug_shared_flag_buffer_tile_other_flag(void **state)
{
    (void)state;
    run(SHARED_FLAG_BUFFER_TILE_OTHER_FLAG);
}
static void correct_shared_flag_buffer_tile_fence(void **state)
{
    (void)state;
    run(CORRECT_SHARED_FLAG_BUFFER_TILE_FENCE);
}
static void correct_shared_spin_lock(void **state) { (void)state; run(CORRECT_SHARED_LOCK); }
static void bug_shared_spin_lock_released_relaxed(void **state) { (void)state; run(SHARED_LOCK_RELAXED_UNLOCK); }
static void correct_device_handoff_workgroup_scope(void **state)
{
    (void)state;
    run(CORRECT_DEVICE_HANDOFF_WORKGROUP_SCOPE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct_exchange),     cmocka_unit_test(correct_vmm_acq_rel),
        cmocka_unit_test(correct_rotate),       cmocka_unit_test(correct_atomic_count),
        cmocka_unit_test(bug_no_barrier),       cmocka_unit_test(bug_memory_barrier_only),
        cmocka_unit_test(bug_vmm_execution_only), cmocka_unit_test(bug_rotate_no_barrier),
        cmocka_unit_test(correct_exchange_atomic_out), cmocka_unit_test(bug_no_barrier_atomic_out),
        cmocka_unit_test(correct_histogram),    cmocka_unit_test(bug_histogram_no_barrier),
        cmocka_unit_test(bug_atomic_count_no_barrier), cmocka_unit_test(bug_atomic_count_no_reset_barrier),
        cmocka_unit_test(correct_handoff),      cmocka_unit_test(bug_handoff_relaxed),
        cmocka_unit_test(bug_handoff_no_release), cmocka_unit_test(bug_handoff_no_acquire),
        cmocka_unit_test(correct_handoff_fences), cmocka_unit_test(bug_handoff_subgroup_scope),
        cmocka_unit_test(bug_shared_subgroup_scope_count), cmocka_unit_test(bug_device_subgroup_scope_count),
        cmocka_unit_test(correct_device_workgroup_scope_count), cmocka_unit_test(bug_device_plain_read_of_count),
        cmocka_unit_test(bug_device_coherent_read_of_count), cmocka_unit_test(correct_device_handoff_workgroup_scope),
        cmocka_unit_test(bug_histogram_not_cleared),
        cmocka_unit_test(bug_pair_swap_no_barrier),
        cmocka_unit_test(bug_handoff_acquire_other_flag),
        cmocka_unit_test(bug_device_handoff_acquire_other_flag),
        cmocka_unit_test(correct_device_handoff_fences),
        cmocka_unit_test(bug_shared_flag_buffer_tile_other_flag),
        cmocka_unit_test(correct_shared_flag_buffer_tile_fence),
        cmocka_unit_test(correct_shared_spin_lock),
        cmocka_unit_test(bug_shared_spin_lock_released_relaxed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
