/* Invocations of one workgroup exchange words through a buffer under the
 * Vulkan memory model.  With `memoryBarrierBuffer(); barrier();` nothing
 * makes the nonprivate words available or visible (glslang's fence has no
 * MakeAvailable/MakeVisible, the control barrier covers only Workgroup
 * memory, and the acquire comes before the barrier: Vulkan-Docs issue
 * 2779): strict mode follows the model, the words stay in the writers'
 * caches, and the read is wrong and reported
 * (VKMM-HAZARD-DISPATCH-STALE-READ) on every seed.  VKMM_SHADER_FENCES=common
 * accepts the common reading (the fence's release and acquire make
 * available and visible): right and report-free.  A control barrier whose
 * semantics name the buffer with MakeAvailable|MakeVisible is right under
 * either reading. */
#include "sync_harness.h"

enum {
    CORRECT_AV_VIS,
    IDIOM_UNDER_THE_MODEL,
    CORRECT_LEGACY_COHERENT,
    LEGACY_NOT_COHERENT,
    CORRECT_DEVICECOHERENT,
    DEVICECOHERENT_BARRIER_ONLY,
    LEGACY_COHERENT_NO_BARRIER,
    LEGACY_COHERENT_FENCE_ONLY,
    LEGACY_NOT_COHERENT_PAIRS,
    LEGACY_COHERENT_NO_BARRIER_PAIRS,
    VARIANTS
};

/* In legacy GLSL (no Vulkan memory model) the same exchange is right with
 * a `coherent` buffer and a race without: accesses to a buffer that is not
 * coherent are private, and barriers do not order private accesses of two
 * invocations (VKMM-HAZARD-DISPATCH-RACE, one report naming both). */
static const struct sync_variant variants[VARIANTS] = {
    [CORRECT_AV_VIS] = { "correct_control_barrier_with_make_available_visible", NULL },
    [IDIOM_UNDER_THE_MODEL] = { "bug_memoryBarrierBuffer_barrier_under_the_vulkan_memory_model",
                                "VKMM-HAZARD-DISPATCH-STALE-READ" },
    [CORRECT_LEGACY_COHERENT] = { "correct_legacy_coherent_buffer", NULL },
    [LEGACY_NOT_COHERENT] = { "bug_legacy_buffer_not_coherent", "VKMM-HAZARD-DISPATCH-RACE" },
    /* devicecoherent words: a control barrier naming the buffer is right;
     * barrier() names only shared memory, and the stores, made available
     * at Device scope, stay with their writers. */
    [CORRECT_DEVICECOHERENT] = { "correct_devicecoherent_with_buffer_barrier", NULL },
    [DEVICECOHERENT_BARRIER_ONLY] = { "bug_devicecoherent_with_barrier_only", "VKMM-HAZARD-DISPATCH-STALE-READ",
                                      .mentions = "semantics without UniformMemory" },
    /* A coherent buffer and no barrier at all: each invocation reads its
     * neighbour's word (mostly a lane of its own subgroup), a race by
     * happens-before (runtime/strict/happens_before.h) whichever ran
     * first. */
    [LEGACY_COHERENT_NO_BARRIER] = { "bug_legacy_coherent_without_barrier", "VKMM-HAZARD-DISPATCH-RACE",
                                     .mentions = "by different invocations of one workgroup are not ordered: no "
                                                 "barrier() between them" },
    /* memoryBarrierBuffer() instead of barrier(): a fence alone orders no
     * two invocations (the module has no atomic to synchronize through). */
    [LEGACY_COHERENT_FENCE_ONLY] = { "bug_legacy_coherent_memoryBarrierBuffer_instead_of_barrier",
                                     "VKMM-HAZARD-DISPATCH-RACE", .mentions = "no barrier() between them" },
    /* The same two mistakes between lanes of one subgroup only (each pair
     * of neighbours swaps words): every invocation keeps its own cache. */
    [LEGACY_NOT_COHERENT_PAIRS] = { "bug_legacy_buffer_not_coherent_between_lanes", "VKMM-HAZARD-DISPATCH-RACE" },
    [LEGACY_COHERENT_NO_BARRIER_PAIRS] = { "bug_legacy_coherent_without_barrier_between_lanes",
                                           "VKMM-HAZARD-DISPATCH-RACE" },
};

static void exchange(struct vkmm_test *t, const char *shader_name, uint32_t result[SYNC_WORDS])
{
    struct vkmm_test_buffer data = vkmm_test_buffer_create(t, 64 * 4, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    memset(out.mapped, 0, SYNC_WORDS * 4);
    struct vkmm_test_compute shader = vkmm_test_compute_create(t, shader_name, 2, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &shader, 0, data.buffer, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(t, &shader, 1, out.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&shader, cmd, NULL, 0, 1, 1, 1);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(result, out.mapped, SYNC_WORDS * 4);
    vkmm_test_compute_destroy(t, &shader);
    vkmm_test_buffer_destroy(t, &data);
    vkmm_test_buffer_destroy(t, &out);
}

static void program(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    static const char *const shaders[VARIANTS] = {
        [CORRECT_AV_VIS] = "sync_buffer_exchange_av_vis",
        [IDIOM_UNDER_THE_MODEL] = "sync_buffer_exchange_idiom",
        [CORRECT_LEGACY_COHERENT] = "sync_buffer_exchange_coherent",
        [LEGACY_NOT_COHERENT] = "sync_buffer_exchange_plain",
        [CORRECT_DEVICECOHERENT] = "sync_buffer_exchange_devicecoherent",
        [DEVICECOHERENT_BARRIER_ONLY] = "sync_buffer_exchange_devicecoherent_barrier",
        [LEGACY_COHERENT_NO_BARRIER] = "sync_buffer_exchange_coherent_no_barrier",
        [LEGACY_COHERENT_FENCE_ONLY] = "sync_buffer_exchange_coherent_fence_only",
        [LEGACY_NOT_COHERENT_PAIRS] = "sync_buffer_pair_swap_plain",
        [LEGACY_COHERENT_NO_BARRIER_PAIRS] = "sync_buffer_pair_swap_no_barrier",
    };
    exchange(t, shaders[variant], result);
}

/* Each invocation reads the word of the invocation `distance` after it
 * (0: of its pair's other invocation). */
static void expected_words(uint32_t expected[SYNC_WORDS], uint32_t distance)
{
    memset(expected, 0, SYNC_WORDS * 4);
    for (uint32_t i = 0; i < 64; i++)
        expected[i] = (distance ? (i + distance) % 64u : i ^ 1u) * 3u + 1u;
}

static void run(int variant)
{
    uint32_t expected[SYNC_WORDS];
    bool neighbour = variant == LEGACY_COHERENT_NO_BARRIER || variant == LEGACY_COHERENT_FENCE_ONLY;
    bool pairs = variant == LEGACY_NOT_COHERENT_PAIRS || variant == LEGACY_COHERENT_NO_BARRIER_PAIRS;
    expected_words(expected, pairs ? 0 : neighbour ? 1 : 32);
    sync_check(program, variant, &variants[variant], expected);
}

static void correct_av_vis(void **state) { (void)state; run(CORRECT_AV_VIS); }
static void bug_idiom_under_the_model(void **state) { (void)state; run(IDIOM_UNDER_THE_MODEL); }
static void correct_legacy_coherent(void **state) { (void)state; run(CORRECT_LEGACY_COHERENT); }
static void bug_legacy_not_coherent(void **state) { (void)state; run(LEGACY_NOT_COHERENT); }
static void correct_devicecoherent(void **state) { (void)state; run(CORRECT_DEVICECOHERENT); }
static void bug_devicecoherent_barrier_only(void **state) { (void)state; run(DEVICECOHERENT_BARRIER_ONLY); }
static void bug_legacy_coherent_no_barrier(void **state) { (void)state; run(LEGACY_COHERENT_NO_BARRIER); }
static void bug_legacy_coherent_fence_only(void **state) { (void)state; run(LEGACY_COHERENT_FENCE_ONLY); }
static void bug_legacy_not_coherent_pairs(void **state) { (void)state; run(LEGACY_NOT_COHERENT_PAIRS); }
static void bug_legacy_coherent_no_barrier_pairs(void **state) { (void)state; run(LEGACY_COHERENT_NO_BARRIER_PAIRS); }

/* The knob: the idiom is right and nothing is reported (both modes). */
static void correct_idiom_with_common_reading(void **state)
{
    (void)state;
    setenv("VKMM_SHADER_FENCES", "common", 1);
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = false });
    unsetenv("VKMM_SHADER_FENCES");
    uint32_t result[SYNC_WORDS], expected[SYNC_WORDS];
    exchange(t, "sync_buffer_exchange_idiom", result);
    uint32_t hazards = t->hazard_count;
    vkmm_test_destroy(t);
    expected_words(expected, 32);
    assert_memory_equal(result, expected, sizeof(result));
    assert_int_equal(hazards, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct_av_vis),
        cmocka_unit_test(bug_idiom_under_the_model),
        cmocka_unit_test(correct_legacy_coherent),
        cmocka_unit_test(bug_legacy_not_coherent),
        cmocka_unit_test(correct_devicecoherent),
        cmocka_unit_test(bug_devicecoherent_barrier_only),
        cmocka_unit_test(bug_legacy_coherent_no_barrier),
        cmocka_unit_test(bug_legacy_not_coherent_pairs),
        cmocka_unit_test(bug_legacy_coherent_no_barrier_pairs),
        cmocka_unit_test(bug_legacy_coherent_fence_only),
        cmocka_unit_test(correct_idiom_with_common_reading),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
