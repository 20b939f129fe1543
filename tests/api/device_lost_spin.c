/* A dispatch that never ends — a spin on a coherent flag for a value
 * nobody stores — ends in device loss when VKMM_DISPATCH_TIMEOUT_MS runs out (DESIGN §3.3
 * "no hangs"; a runaway dispatch ends as on a GPU): the wait returns
 * VK_ERROR_DEVICE_LOST, the message names the loop's source line, and later
 * submissions and waits say the device is lost. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vkmm_test.h"

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static bool strict_mode(void);

/* `groups` workgroups: all but workgroup 1 spin.  (With 16, the watchdog
 * waits 2 s: the parts give up well before, even under ThreadSanitizer.) */
static void spin_till_the_watchdog(uint32_t groups)
{
    setenv("VKMM_DISPATCH_TIMEOUT_MS", groups >= 8 ? "2000" : "500", 1);
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    unsetenv("VKMM_DISPATCH_TIMEOUT_MS"); /* read when the device is created */
    t->expected_errors = UINT32_MAX; /* the device-lost message is expected */
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 8, coherent);
    memset(b.mapped, 0, 8);
    struct vkmm_test_compute k = vkmm_test_compute_create(t, "spin_never_satisfied", 1, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &k, 0, b.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&k, cmd, NULL, 0, groups, 1, 1);
    assert_int_equal(vkEndCommandBuffer(cmd), VK_SUCCESS);
    VkFence fence;
    VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    assert_int_equal(vkCreateFence(t->device, &fence_info, NULL, &fence), VK_SUCCESS);
    VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd };
    assert_int_equal(vkQueueSubmit(t->compute_queues[0], 1, &submit, fence), VK_SUCCESS);
    double start = now_seconds();
    VkResult waited = vkWaitForFences(t->device, 1, &fence, VK_TRUE, 30ull * 1000 * 1000 * 1000);
    double took = now_seconds() - start;
    assert_int_equal(waited, VK_ERROR_DEVICE_LOST);
    assert_true(took < 20.0);
    /* The message names the loop (glslc -g keeps OpLine). */
    assert_string_equal(t->first_message_id, "VKMM-DEVICE-LOST");
    if (!strstr(t->first_message, "the loop at line 11"))
        fail_msg("the device-lost message does not name the loop at line 11: %s", t->first_message);
    /* Strict mode with two threads or more runs a dispatch of 16 workgroups
     * of a module without atomics in parts first: the parts give up once
     * their workgroups stopped writing (the dispatch then ran in turns on
     * one thread till the watchdog), rather than waiting for it. */
    const char *threads = getenv("VKMM_THREADS");
    bool in_parts = strict_mode() && groups >= 8 &&
                    (threads ? strtol(threads, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN)) >= 2;
    if (in_parts && t->dispatches_in_parts_again != 1)
        fail_msg("the parts did not give up (%u ran again in turns)", t->dispatches_in_parts_again);
    assert_int_equal(vkQueueSubmit(t->compute_queues[0], 1, &submit, VK_NULL_HANDLE), VK_ERROR_DEVICE_LOST);
    assert_int_equal(vkQueueWaitIdle(t->compute_queues[0]), VK_ERROR_DEVICE_LOST);
    assert_int_equal(vkGetFenceStatus(t->device, fence), VK_ERROR_DEVICE_LOST);
    vkDestroyFence(t->device, fence, NULL);
    vkmm_test_compute_destroy(t, &k);
    vkmm_test_buffer_destroy(t, &b);
    vkmm_test_destroy(t);
}

static void test_spin_on_private_flag_loses_the_device(void **state)
{
    (void)state;
    spin_till_the_watchdog(2);
}

static void test_spin_in_parts_loses_the_device(void **state)
{
    (void)state;
    spin_till_the_watchdog(16);
}

static bool strict_mode(void)
{
    const char *mode = getenv("VKMM_MODE");
    return !mode || strcmp(mode, "fast") != 0;
}

/* A spin whose load makes nothing visible keeps reading its own stale copy
 * of a flag another workgroup set (DESIGN §3.3 "no hangs from emulated
 * staleness"): strict mode sees that every running invocation spins on a
 * value it can never see and ends the dispatch at once — well before the
 * watchdog's 20 s — with a message naming the load.  Fast mode is coherent:
 * the spin sees the flag. */
/* A spin that can never see its flag (strict mode): the device is lost at
 * once, with a message naming the spin (`mention`, the block `Flag`), by
 * `groups` workgroups (workgroup 0 sets the flag, the others spin). */
static void spin_that_never_sees(const char *shader, const char *mention, uint32_t groups)
{
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    t->expected_errors = UINT32_MAX;
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 8, coherent);
    memset(b.mapped, 0, 8);
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
    double start = now_seconds();
    VkResult waited = vkWaitForFences(t->device, 1, &fence, VK_TRUE, 60ull * 1000 * 1000 * 1000);
    double took = now_seconds() - start;
    if (strict_mode()) {
        assert_int_equal(waited, VK_ERROR_DEVICE_LOST);
        printf("strict mode gave up after %.2f s\n", took);
        assert_true(took < 10.0);
        assert_string_equal(t->first_message_id, "VKMM-DEVICE-LOST");
        if (!strstr(t->first_message, "can never finish") || !strstr(t->first_message, "`Flag`") ||
            !strstr(t->first_message, mention))
            fail_msg("the device-lost message does not name the spin: %s", t->first_message);
        /* One bug, one report: the device-lost report names the spin (its
         * race with the flag's write is not reported again). */
        if (t->hazard_count != 1)
            fail_msg("%u reports for one spin (%s, %s; first: %s)", t->hazard_count, t->hazards[0], t->hazards[1],
                     t->first_hazard_message);
    } else {
        assert_int_equal(waited, VK_SUCCESS);
        assert_int_equal(((uint32_t *)b.mapped)[1], 1);
    }
    vkDestroyFence(t->device, fence, NULL);
    vkmm_test_compute_destroy(t, &k);
    vkmm_test_buffer_destroy(t, &b);
    vkmm_test_destroy(t);
}

static void test_spin_on_stale_copy_ends_at_once(void **state)
{
    (void)state;
    spin_that_never_sees("spin_on_stale_copy", "OpLoad", 2);
}

/* The same with 16 workgroups, a dispatch strict mode runs in parts when it
 * has two threads or more (the module has no atomics): the part without
 * workgroup 0 never learns that its spinners wait for the flag in vain (it
 * never saw the flag written); it gives up when no workgroup of it writes
 * any more, and the dispatch runs again in turns on one thread, where the
 * spin is found hopeless — not after the 20 s watchdog. */
static void test_spin_on_stale_copy_in_parts_ends_at_once(void **state)
{
    (void)state;
    spin_that_never_sees("spin_on_stale_copy", "OpLoad", 16);
}

/* A plain flag (private loads): the spin yields (a loop whose exit
 * depends on a load of a buffer), its writer runs, and its reads return the
 * bytes from before the dispatch for good. */
static void test_spin_on_plain_flag_ends_at_once(void **state)
{
    (void)state;
    spin_that_never_sees("spin_on_plain_flag", "a private read (not coherent", 2);
}

/* The same inside one workgroup: the spinning subgroup yields to the one
 * that sets the flag (strict mode; fast mode runs a workgroup's subgroups
 * one after the other and has no contract for this racing program). */
static void test_spin_on_plain_flag_in_workgroup_ends_at_once(void **state)
{
    (void)state;
    if (strict_mode())
        spin_that_never_sees("spin_on_plain_flag_in_workgroup", "a private read (not coherent", 1);
}

/* A plain `shared` flag set without barrier(): the read keeps the value
 * from before the write until a barrier (strict mode). */
static void test_spin_on_shared_plain_flag_ends_at_once(void **state)
{
    (void)state;
    if (strict_mode())
        spin_that_never_sees("spin_on_shared_plain_flag", "a plain read of Workgroup memory", 1);
}

static void test_spin_on_workgroup_scope_flag_ends_at_once(void **state)
{
    (void)state;
    spin_that_never_sees("spin_on_workgroup_scope_flag", "OpAtomicLoad, line 14), an atomic of Workgroup scope", 2);
}

static void test_spin_on_subgroup_scope_flag_ends_at_once(void **state)
{
    (void)state;
    spin_that_never_sees("spin_on_subgroup_scope_flag", "an atomic of Subgroup scope", 2);
}

/* The same with the flag in Workgroup storage: its loads read the value
 * from before the store (the workgroup monitor's interval start). */
static void test_spin_on_shared_subgroup_scope_flag_ends_at_once(void **state)
{
    (void)state;
    spin_that_never_sees("spin_on_shared_subgroup_scope_flag", "an atomic of Subgroup scope", 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spin_on_private_flag_loses_the_device),
        cmocka_unit_test(test_spin_in_parts_loses_the_device),
        cmocka_unit_test(test_spin_on_stale_copy_ends_at_once),
        cmocka_unit_test(test_spin_on_stale_copy_in_parts_ends_at_once),
        cmocka_unit_test(test_spin_on_plain_flag_ends_at_once),
        cmocka_unit_test(test_spin_on_plain_flag_in_workgroup_ends_at_once),
        cmocka_unit_test(test_spin_on_shared_plain_flag_ends_at_once),
        cmocka_unit_test(test_spin_on_workgroup_scope_flag_ends_at_once),
        cmocka_unit_test(test_spin_on_subgroup_scope_flag_ends_at_once),
        cmocka_unit_test(test_spin_on_shared_subgroup_scope_flag_ends_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
