/* Waits honour their timeouts in strict mode too, where device work runs
 * inside the host's waits: a wait stops between commands when its time is
 * up (VK_TIMEOUT), vkGetFenceStatus runs a bounded slice and returns
 * VK_NOT_READY instead of running everything, and the work finishes —
 * right — at the next wait. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vkmm_test.h"

enum { FILLS = 12, BYTES = 256 << 10 };

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void test_waits_stop_when_their_time_is_up(void **state)
{
    struct vkmm_test *t = *state;
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, BYTES, coherent);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    for (uint32_t i = 0; i < FILLS; i++) {
        vkCmdFillBuffer(cmd, b.buffer, 0, VK_WHOLE_SIZE, i + 1);
        vkmm_test_full_barrier(cmd);
    }
    VK_CHECK(vkEndCommandBuffer(cmd));
    VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence;
    VK_CHECK(vkCreateFence(t->device, &fence_info, NULL, &fence));
    VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd };
    VK_CHECK(vkQueueSubmit(t->compute_queues[0], 1, &submit, fence));
    double start = now_s();
    VkResult waited = vkWaitForFences(t->device, 1, &fence, VK_TRUE, 1000 * 1000 /* 1 ms */);
    double wait_s = now_s() - start;
    start = now_s();
    VkResult status = vkGetFenceStatus(t->device, fence);
    double status_s = now_s() - start;
    const char *mode = getenv("VKMM_MODE");
    if (!mode || strcmp(mode, "fast") != 0) {
        /* Strict mode runs the fills on this thread: seconds of work. */
        assert_int_equal(waited, VK_TIMEOUT);
        assert_int_equal(status, VK_NOT_READY);
        assert_true(wait_s < 1.0);
        assert_true(status_s < 1.0);
    } else {
        assert_true(waited == VK_TIMEOUT || waited == VK_SUCCESS);
        assert_true(status == VK_NOT_READY || status == VK_SUCCESS);
    }
    VK_CHECK(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX));
    assert_int_equal(vkGetFenceStatus(t->device, fence), VK_SUCCESS);
    const uint32_t *words = b.mapped;
    for (uint32_t i = 0; i < BYTES / 4; i += 4099)
        assert_int_equal(words[i], FILLS);
    vkDestroyFence(t->device, fence, NULL);
    vkFreeCommandBuffers(t->device, t->pool, 1, &cmd);
    vkmm_test_buffer_destroy(t, &b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_waits_stop_when_their_time_is_up, vkmm_test_setup, vkmm_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
