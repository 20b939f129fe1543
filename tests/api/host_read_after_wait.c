/* A host read after the fence wait, with no HOST / HOST_READ dependency
 * after the device write: the spec requires one, most frameworks and the
 * CTS rely on the wait alone.  Strict mode by default gives the stale bytes
 * and reports VKMM-HAZARD-HOST-READ-NO-DEPENDENCY (severity INFO: a step
 * below the other hazards); VKMM_HOST_READ=after-wait accepts the common
 * reading: the right bytes and no report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

enum { WORDS = 256 };

static bool strict_mode(void)
{
    const char *mode = getenv("VKMM_MODE");
    return !mode || strcmp(mode, "fast") != 0;
}

/* Fills a host-coherent buffer on the device, waits for the fence and
 * reads it; returns how many words hold the fill. */
static uint32_t fill_then_read(struct vkmm_test *t)
{
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, WORDS * 4, coherent);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdFillBuffer(cmd, b.buffer, 0, VK_WHOLE_SIZE, 0x5eed1234u);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd); /* fence wait; no HOST_READ barrier */
    uint32_t filled = 0;
    for (uint32_t i = 0; i < WORDS; i++)
        filled += ((const uint32_t *)b.mapped)[i] == 0x5eed1234u;
    vkmm_test_buffer_destroy(t, &b);
    return filled;
}

static void test_host_read_without_dependency_is_reported_apart(void **state)
{
    (void)state;
    if (!strict_mode())
        skip();
    unsetenv("VKMM_HOST_READ");
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    assert_true(fill_then_read(t) < WORDS);
    uint32_t hazards = t->hazard_count;
    char first[48];
    snprintf(first, sizeof(first), "%s", t->hazards[0]);
    vkmm_test_destroy(t);
    assert_int_equal(hazards, 1);
    assert_string_equal(first, "VKMM-HAZARD-HOST-READ-NO-DEPENDENCY");
}

static void test_host_read_after_wait_knob_accepts_the_common_reading(void **state)
{
    (void)state;
    setenv("VKMM_HOST_READ", "after-wait", 1);
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    uint32_t filled = fill_then_read(t);
    uint32_t hazards = t->hazard_count;
    vkmm_test_destroy(t);
    unsetenv("VKMM_HOST_READ");
    assert_int_equal(filled, WORDS);
    assert_int_equal(hazards, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_read_without_dependency_is_reported_apart),
        cmocka_unit_test(test_host_read_after_wait_knob_accepts_the_common_reading),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
