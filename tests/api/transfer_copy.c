/* vkCmdCopyBuffer(2), vkCmdFillBuffer and vkCmdUpdateBuffer move the right
 * bytes between buffers of every memory type. */
#include <string.h>

#include "vkmm_test.h"

static void test_transfer_fill_update_copy_round_trip(void **state)
{
    struct vkmm_test *t = *state;
    const VkDeviceSize size = 4096;
    struct vkmm_test_buffer upload =
        vkmm_test_buffer_create(t, size, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    struct vkmm_test_buffer device = vkmm_test_buffer_create(t, size, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer readback =
        vkmm_test_buffer_create(t, size, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    uint32_t *in = upload.mapped;
    for (uint32_t i = 0; i < size / 4; i++)
        in[i] = i * 2654435761u;
    uint32_t update[16];
    for (uint32_t i = 0; i < 16; i++)
        update[i] = 0xA0000000u + i;

    VkCommandBuffer cmd = vkmm_test_begin(t);
    VkBufferCopy region = { .srcOffset = 0, .dstOffset = 0, .size = size };
    vkCmdCopyBuffer(cmd, upload.buffer, device.buffer, 1, &region);
    vkmm_test_full_barrier(cmd);
    vkCmdFillBuffer(cmd, device.buffer, 256, 128, 0xDEADBEEF);
    vkmm_test_full_barrier(cmd);
    vkCmdUpdateBuffer(cmd, device.buffer, 1024, sizeof(update), update);
    vkmm_test_full_barrier(cmd);
    VkBufferCopy2 region2 = { .sType = VK_STRUCTURE_TYPE_BUFFER_COPY_2, .srcOffset = 0, .dstOffset = 0, .size = size };
    VkCopyBufferInfo2 copy2 = {
        .sType = VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2,
        .srcBuffer = device.buffer,
        .dstBuffer = readback.buffer,
        .regionCount = 1,
        .pRegions = &region2,
    };
    vkCmdCopyBuffer2(cmd, &copy2);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    const uint32_t *out = readback.mapped;
    for (uint32_t i = 0; i < size / 4; i++) {
        uint32_t expected = i * 2654435761u;
        if (i >= 64 && i < 96)
            expected = 0xDEADBEEF;
        if (i >= 256 && i < 272)
            expected = 0xA0000000u + (i - 256);
        assert_int_equal(out[i], expected);
    }
    vkmm_test_buffer_destroy(t, &upload);
    vkmm_test_buffer_destroy(t, &device);
    vkmm_test_buffer_destroy(t, &readback);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_transfer_fill_update_copy_round_trip, vkmm_test_setup,
                                        vkmm_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
