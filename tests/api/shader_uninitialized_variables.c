/* Strict mode: Workgroup and Function variables without an initializer
 * start with the seeded pattern (DESIGN §3.2), never with leftover host
 * bytes: two runs with one seed give the same bytes, all of them the
 * pattern's. */
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

enum { GROUPS = 4, WORDS = GROUPS * 64 * 2 };

static bool strict_mode(void)
{
    const char *mode = getenv("VKMM_MODE");
    return !mode || strcmp(mode, "fast") != 0;
}

static void run_once(uint32_t out[WORDS])
{
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ 0 });
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, WORDS * 4, coherent);
    struct vkmm_test_compute k = vkmm_test_compute_create(t, "uninitialized_variables", 1, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &k, 0, b.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&k, cmd, NULL, 0, GROUPS, 1, 1);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(out, b.mapped, WORDS * 4);
    vkmm_test_compute_destroy(t, &k);
    vkmm_test_buffer_destroy(t, &b);
    vkmm_test_destroy(t);
}

static void test_uninitialized_variables_are_the_seeded_pattern(void **state)
{
    (void)state;
    if (!strict_mode())
        skip();
    static uint32_t first[WORDS], second[WORDS];
    /* The second device reuses memory the first one freed: leftover bytes
     * must not show. */
    run_once(first);
    run_once(second);
    assert_memory_equal(first, second, sizeof(first));
    for (uint32_t i = 0; i < WORDS; i++)
        assert_true(first[i] >= 0x80000000u); /* the pattern's high bit: not zero, not leftovers */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uninitialized_variables_are_the_seeded_pattern),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
