/* Forward progress (DESIGN §3.3): spin locks and cross-workgroup hand-offs
 * built from atomics finish.  Lanes of one subgroup contend for one lock,
 * so the lane that takes it must get to release it while the others spin;
 * in strict mode a workgroup that waits for a later one lets it run.  Each
 * kernel's result shows every critical section ran exactly once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

static bool strict_mode(void)
{
    const char *mode = getenv("VKMM_MODE");
    return !mode || strcmp(mode, "fast") != 0;
}

/* Runs `shader` over a zeroed buffer of `words`; a hang fails instead of
 * blocking the suite.  In strict mode the kernel must give no report, or
 * (`racy`) reports of that hazard (one per pair of racing instructions). */
static void run_reported(const char *shader, uint32_t groups, uint32_t *words, uint32_t count, const char *racy)
{
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ 0 });
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, count * 4, coherent);
    memset(b.mapped, 0, count * 4);
    struct vkmm_test_compute k = vkmm_test_compute_create(t, shader, 1, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &k, 0, b.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&k, cmd, NULL, 0, groups, 1, 1);
    vkmm_test_full_barrier(cmd);
    assert_int_equal(vkEndCommandBuffer(cmd), VK_SUCCESS);
    VkFence fence;
    VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    assert_int_equal(vkCreateFence(t->device, &fence_info, NULL, &fence), VK_SUCCESS);
    VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd };
    assert_int_equal(vkQueueSubmit(t->compute_queues[0], 1, &submit, fence), VK_SUCCESS);
    VkResult waited = vkWaitForFences(t->device, 1, &fence, VK_TRUE, 60ull * 1000 * 1000 * 1000);
    if (waited != VK_SUCCESS) {
        /* Hung: the process cannot tear the device down cleanly. */
        fprintf(stderr, "%s: the dispatch did not finish in 60 s (%d)\n", shader, waited);
        _Exit(1);
    }
    memcpy(words, b.mapped, count * 4);
    vkDestroyFence(t->device, fence, NULL);
    vkmm_test_compute_destroy(t, &k);
    vkmm_test_buffer_destroy(t, &b);
    uint32_t hazards = t->hazard_count;
    char first[48];
    snprintf(first, sizeof(first), "%s", hazards ? t->hazards[0] : "");
    if (strict_mode() && !racy && hazards)
        fail_msg("%s: %u reports for a correct kernel, first %s: %s", shader, hazards, first,
                 t->first_hazard_message);
    if (strict_mode() && racy && (!hazards || strcmp(first, racy) != 0))
        fail_msg("%s: %u reports (first %s), expected %s", shader, hazards, first, racy);
    vkmm_test_destroy(t);
}

static void run(const char *shader, uint32_t groups, uint32_t *words, uint32_t count)
{
    run_reported(shader, groups, words, count, NULL);
}

/* `order` holds each id in [0, n) exactly once. */
static void assert_permutation(const uint32_t *order, uint32_t n)
{
    static uint8_t seen[4096];
    assert_true(n <= sizeof(seen));
    memset(seen, 0, n);
    for (uint32_t i = 0; i < n; i++) {
        assert_true(order[i] < n);
        assert_int_equal(seen[order[i]], 0);
        seen[order[i]] = 1;
    }
}

static void test_spin_lock_within_and_across_subgroups(void **state)
{
    (void)state;
    enum { GROUPS = 4, N = GROUPS * 64 };
    static uint32_t words[2 + N];
    run("progress_spin_lock", GROUPS, words, 2 + N);
    assert_int_equal(words[0], 0); /* released */
    assert_int_equal(words[1], N); /* every critical section, once */
    assert_permutation(words + 2, N);
}

static void test_spin_lock_vulkan_memory_model(void **state)
{
    (void)state;
    enum { GROUPS = 4, N = GROUPS * 64 };
    static uint32_t words[2 + N];
    run("progress_spin_lock_vmm", GROUPS, words, 2 + N);
    assert_int_equal(words[0], 0);
    assert_int_equal(words[1], N);
    assert_permutation(words + 2, N);
}

static void test_ticket_lock(void **state)
{
    (void)state;
    enum { GROUPS = 3, N = GROUPS * 32 };
    static uint32_t words[3 + N];
    run("progress_ticket_lock", GROUPS, words, 3 + N);
    assert_int_equal(words[0], N);
    assert_int_equal(words[1], N);
    assert_int_equal(words[2], N);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(words[3 + i], i); /* served in ticket order */
}

static void test_workgroups_hand_off_backwards(void **state)
{
    (void)state;
    /* Fast mode runs as many workgroups at once as it has threads; a
     * hand-off chain longer than that waits on a workgroup that never
     * starts, as on a GPU with too few resident workgroups. */
    if (!strict_mode())
        skip();
    enum { GROUPS = 8 };
    static uint32_t words[16];
    run("progress_workgroup_handoff", GROUPS, words, 16);
    uint32_t sum = 0;
    for (int g = GROUPS - 1; g >= 0; g--) {
        sum += (uint32_t)g + 1;
        assert_int_equal(words[g], 1);
        assert_int_equal(words[8 + g], sum);
    }
}

static void test_spin_on_coherent_flag_sees_the_other_workgroup(void **state)
{
    (void)state;
    static uint32_t words[3];
    run_reported("progress_coherent_flag", 2, words, 3, "VKMM-HAZARD-DISPATCH-RACE");
    assert_int_equal(words[0], 1);
    assert_int_equal(words[1], 42);
    /* The flag is no atomic: nothing orders the copy after the store, and
     * strict mode reads the value from before the dispatch. */
    assert_int_equal(words[2], strict_mode() ? 0 : 42);
}

static void test_atomics_in_divergent_loop_run_once(void **state)
{
    (void)state;
    static uint32_t words[256];
    run("divergent_atomic_loop", 1, words, 256);
    for (uint32_t i = 0; i < 256; i++)
        if (words[i] != 1)
            fail_msg("a[%u] = %u, expected 1", i, words[i]);
}

static void test_atomics_in_long_divergent_loop_run_once(void **state)
{
    (void)state;
    static uint32_t words[8192];
    run("divergent_atomic_loop_big", 1, words, 8192);
    for (uint32_t i = 0; i < 8192; i++)
        if (words[i] != 1)
            fail_msg("a[%u] = %u, expected 1", i, words[i]);
}

static void test_atomics_in_spec_sized_divergent_loop_run_once(void **state)
{
    (void)state;
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ 0 });
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 8192 * 4, coherent);
    memset(b.mapped, 0, 8192 * 4);
    const uint32_t values[4] = { 1014, 1, 1, 2048 };
    const VkSpecializationMapEntry entries[4] = { { 0, 0, 4 }, { 1, 4, 4 }, { 2, 8, 4 }, { 3, 12, 4 } };
    const VkSpecializationInfo spec = { 4, entries, sizeof(values), values };
    struct vkmm_test_compute k = vkmm_test_compute_create(t, "divergent_atomic_loop_spec", 1, 0, &spec);
    vkmm_test_compute_bind_buffer(t, &k, 0, b.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&k, cmd, NULL, 0, 1, 1, 1);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    const uint32_t *out = b.mapped;
    uint32_t wrong = 0;
    for (uint32_t i = 0; i < 8192; i++)
        if (out[i] != 1 && wrong++ < 8)
            printf("a[%u] = %u\n", i, out[i]);
    if (wrong)
        fail_msg("%u words are not 1", wrong);
    vkmm_test_compute_destroy(t, &k);
    vkmm_test_buffer_destroy(t, &b);
    vkmm_test_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spin_lock_within_and_across_subgroups),
        cmocka_unit_test(test_spin_lock_vulkan_memory_model),
        cmocka_unit_test(test_ticket_lock),
        cmocka_unit_test(test_workgroups_hand_off_backwards),
        cmocka_unit_test(test_spin_on_coherent_flag_sees_the_other_workgroup),
        cmocka_unit_test(test_atomics_in_divergent_loop_run_once),
        cmocka_unit_test(test_atomics_in_long_divergent_loop_run_once),
        cmocka_unit_test(test_atomics_in_spec_sized_divergent_loop_run_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
