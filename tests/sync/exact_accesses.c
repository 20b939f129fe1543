/* A dispatch's accesses are the bytes its invocations touched (DESIGN §3
 * "Exact accesses"), not its whole bindings.  Correct programs that the
 * whole-binding reading misreported: two dispatches writing disjoint halves
 * of one buffer, an update of one half and a dispatch whose writeonly
 * binding covers it but writes the other, a fill of a buffer that a
 * dispatch binds but never touches —
 * none needs a barrier.  And the mistake it must still catch: two
 * dispatches writing the same bytes with no barrier. */
#include "sync_harness.h"

enum { CORRECT_DISJOINT, CORRECT_FILL_AND_WRITEONLY, CORRECT_UNUSED_BINDING, OVERLAPPING_WRITERS, VARIANTS };

static const struct sync_variant variants[VARIANTS] = {
    [CORRECT_DISJOINT] = { "correct_disjoint_dispatch_writers", NULL },
    /* The layer takes the dispatch to write its whole binding: a false
     * WRITE-AFTER-WRITE with the update. */
    [CORRECT_FILL_AND_WRITEONLY] = { "correct_update_and_writeonly_dispatch", NULL, 0, true },
    [CORRECT_UNUSED_BINDING] = { "correct_fill_of_a_bound_but_unused_buffer", NULL },
    [OVERLAPPING_WRITERS] = { "bug_overlapping_dispatch_writers_no_barrier", "VKMM-HAZARD-WRITE-AFTER-WRITE" },
};

enum { HALF = SYNC_WORDS / 2 };

static void dispatch_range(VkCommandBuffer cmd, struct vkmm_test_compute *k, uint32_t first, uint32_t count,
                           uint32_t value)
{
    uint32_t push[2] = { first, value };
    vkmm_test_compute_dispatch(k, cmd, push, sizeof(push), count / 64, 1, 1);
}

static void program(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    struct vkmm_test_buffer data = vkmm_test_buffer_create(t, SYNC_WORDS * 4, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer other = vkmm_test_buffer_create(t, SYNC_WORDS * 4, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer readback = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    struct vkmm_test_compute k = vkmm_test_compute_create(t, "sync_fill_range", 2, 8, NULL);
    vkmm_test_compute_bind_buffer(t, &k, 0, data.buffer, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(t, &k, 1, other.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    switch (variant) {
    case CORRECT_DISJOINT:
        dispatch_range(cmd, &k, 0, HALF, 1000);
        dispatch_range(cmd, &k, HALF, HALF, 1000 + HALF);
        break;
    case CORRECT_FILL_AND_WRITEONLY: {
        uint32_t words[HALF];
        for (uint32_t i = 0; i < HALF; i++)
            words[i] = 1000 + i;
        vkCmdUpdateBuffer(cmd, data.buffer, 0, sizeof(words), words); /* the first half */
        dispatch_range(cmd, &k, HALF, HALF, 1000 + HALF); /* binds all of `data`, writes only its second half */
        break;
    }
    case CORRECT_UNUSED_BINDING:
        vkCmdFillBuffer(cmd, other.buffer, 0, VK_WHOLE_SIZE, 7); /* `other` is bound to the dispatch, never touched */
        dispatch_range(cmd, &k, 0, SYNC_WORDS, 1000);
        break;
    default: /* OVERLAPPING_WRITERS: the later dispatch's values must win */
        dispatch_range(cmd, &k, 0, SYNC_WORDS, 5);
        dispatch_range(cmd, &k, 0, SYNC_WORDS, 1000);
        break;
    }
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                 VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                 VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferCopy all = { 0, 0, SYNC_WORDS * 4 };
    vkCmdCopyBuffer(cmd, data.buffer, readback.buffer, 1, &all);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                 VK_ACCESS_2_HOST_READ_BIT);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(result, readback.mapped, SYNC_WORDS * 4);
    vkmm_test_compute_destroy(t, &k);
    vkmm_test_buffer_destroy(t, &data);
    vkmm_test_buffer_destroy(t, &other);
    vkmm_test_buffer_destroy(t, &readback);
}

static void run(int variant)
{
    uint32_t expected[SYNC_WORDS];
    for (uint32_t i = 0; i < SYNC_WORDS; i++)
        expected[i] = 1000 + i;
    sync_check(program, variant, &variants[variant], expected);
}

static void correct_disjoint_dispatch_writers(void **state) { (void)state; run(CORRECT_DISJOINT); }
static void correct_update_and_writeonly_dispatch(void **state) { (void)state; run(CORRECT_FILL_AND_WRITEONLY); }
static void correct_fill_of_a_bound_but_unused_buffer(void **state) { (void)state; run(CORRECT_UNUSED_BINDING); }
static void bug_overlapping_dispatch_writers_no_barrier(void **state) { (void)state; run(OVERLAPPING_WRITERS); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct_disjoint_dispatch_writers),
        cmocka_unit_test(correct_update_and_writeonly_dispatch),
        cmocka_unit_test(correct_fill_of_a_bound_but_unused_buffer),
        cmocka_unit_test(bug_overlapping_dispatch_writers_no_barrier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
