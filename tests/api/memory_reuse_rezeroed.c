/* A buffer's memory freed and allocated again (the same addresses) and
 * cleared by the host through its mapping must hold zeros for the next
 * dispatch: each round counts to 1, never on top of the last round. */
#include <string.h>

#include "vkmm_test.h"

enum { N = 256 };

static void test_each_round_starts_from_the_host_zeros(void **state)
{
    (void)state;
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ 0 });
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (int round = 0; round < 3; round++) {
        struct vkmm_test_buffer b = vkmm_test_buffer_create(t, N * 4, coherent);
        memset(b.mapped, 0, N * 4);
        struct vkmm_test_compute k = vkmm_test_compute_create(t, "count_once", 1, 0, NULL);
        vkmm_test_compute_bind_buffer(t, &k, 0, b.buffer, 0, VK_WHOLE_SIZE);
        VkCommandBuffer cmd = vkmm_test_begin(t);
        vkmm_test_compute_dispatch(&k, cmd, NULL, 0, N / 64, 1, 1);
        vkmm_test_full_barrier(cmd);
        vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
        const uint32_t *out = b.mapped;
        for (uint32_t i = 0; i < N; i++)
            if (out[i] != 1)
                fail_msg("round %d: word %u is %u, expected 1", round, i, out[i]);
        vkmm_test_compute_destroy(t, &k);
        vkmm_test_buffer_destroy(t, &b);
    }
    vkmm_test_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_round_starts_from_the_host_zeros),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
