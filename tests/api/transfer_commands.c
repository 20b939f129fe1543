/* Transfer commands in detail: multi-region and same-buffer copies, fills
 * with VK_WHOLE_SIZE on an odd-sized buffer, the largest vkCmdUpdateBuffer,
 * copies on the transfer-only queue family, a 16 MiB copy checked byte by
 * byte, and dependent transfers ordered by every pipeline-barrier form. */
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

#define HOST_MEMORY (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
#define DEVICE_MEMORY VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT

static uint8_t pattern_byte(uint32_t seed, size_t i)
{
    uint32_t x = (uint32_t)i * 2654435761u + seed * 40503u;
    return (uint8_t)(x >> 24 ^ x >> 8);
}

static void fill_pattern(void *p, size_t size, uint32_t seed)
{
    uint8_t *b = p;
    for (size_t i = 0; i < size; i++)
        b[i] = pattern_byte(seed, i);
}

#define EXPECT_BYTE(array, i, value)                                                                       \
    do {                                                                                                   \
        unsigned got_ = (array)[i], want_ = (value);                                                       \
        if (got_ != want_)                                                                                 \
            fail_msg("%s[%zu] = 0x%02x, expected 0x%02x", #array, (size_t)(i), got_, want_);               \
    } while (0)

#define EXPECT_WORD(array, i, value)                                                                       \
    do {                                                                                                   \
        uint32_t got_ = (array)[i], want_ = (value);                                                       \
        if (got_ != want_)                                                                                 \
            fail_msg("%s[%zu] = 0x%08x, expected 0x%08x", #array, (size_t)(i), got_, want_);               \
    } while (0)

/* Multi-region vkCmdCopyBuffer and vkCmdCopyBuffer2, with unaligned
 * offsets and sizes; bytes outside the regions stay untouched. */
static void test_copy_multiple_regions(void **state)
{
    struct vkmm_test *t = *state;
    const size_t size = 4096;
    struct vkmm_test_buffer src = vkmm_test_buffer_create(t, size, HOST_MEMORY);
    struct vkmm_test_buffer dst = vkmm_test_buffer_create(t, size, HOST_MEMORY);
    struct vkmm_test_buffer dst2 = vkmm_test_buffer_create(t, size, HOST_MEMORY);
    fill_pattern(src.mapped, size, 1);
    memset(dst.mapped, 0xEE, size);
    memset(dst2.mapped, 0xEE, size);

    static const VkBufferCopy regions[] = {
        { .srcOffset = 0, .dstOffset = 2048, .size = 256 },
        { .srcOffset = 1, .dstOffset = 3, .size = 7 },
        { .srcOffset = 1000, .dstOffset = 100, .size = 901 },
        { .srcOffset = 4095, .dstOffset = 4095, .size = 1 },
        { .srcOffset = 2048, .dstOffset = 3000, .size = 1000 },
    };
    const uint32_t count = sizeof(regions) / sizeof(regions[0]);
    VkBufferCopy2 regions2[sizeof(regions) / sizeof(regions[0])];
    for (uint32_t r = 0; r < count; r++) {
        regions2[r] = (VkBufferCopy2){
            .sType = VK_STRUCTURE_TYPE_BUFFER_COPY_2,
            .srcOffset = regions[r].srcOffset,
            .dstOffset = regions[r].dstOffset,
            .size = regions[r].size,
        };
    }
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdCopyBuffer(cmd, src.buffer, dst.buffer, count, regions);
    VkCopyBufferInfo2 info = {
        .sType = VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2,
        .srcBuffer = src.buffer,
        .dstBuffer = dst2.buffer,
        .regionCount = count,
        .pRegions = regions2,
    };
    vkCmdCopyBuffer2(cmd, &info);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    uint8_t expected[4096];
    memset(expected, 0xEE, sizeof(expected));
    for (uint32_t r = 0; r < count; r++) {
        for (VkDeviceSize i = 0; i < regions[r].size; i++)
            expected[regions[r].dstOffset + i] = pattern_byte(1, regions[r].srcOffset + i);
    }
    const uint8_t *out = dst.mapped, *out2 = dst2.mapped;
    for (size_t i = 0; i < size; i++) {
        EXPECT_BYTE(out, i, expected[i]);
        EXPECT_BYTE(out2, i, expected[i]);
    }
    vkmm_test_buffer_destroy(t, &src);
    vkmm_test_buffer_destroy(t, &dst);
    vkmm_test_buffer_destroy(t, &dst2);
}

/* Copies whose source and destination are one buffer, in non-overlapping
 * regions (device-local, so the data makes a round trip). */
static void test_copy_within_one_buffer(void **state)
{
    struct vkmm_test *t = *state;
    const size_t size = 8192;
    struct vkmm_test_buffer upload = vkmm_test_buffer_create(t, size, HOST_MEMORY);
    struct vkmm_test_buffer device = vkmm_test_buffer_create(t, size, DEVICE_MEMORY);
    struct vkmm_test_buffer readback = vkmm_test_buffer_create(t, size, HOST_MEMORY);
    struct vkmm_test_buffer host = vkmm_test_buffer_create(t, size, HOST_MEMORY);
    fill_pattern(upload.mapped, size, 2);
    fill_pattern(host.mapped, size, 3);

    /* Regions within one copy must not overlap each other either. */
    static const VkBufferCopy regions[] = {
        { .srcOffset = 0, .dstOffset = 4096, .size = 1024 },
        { .srcOffset = 1024, .dstOffset = 6000, .size = 5 },
        { .srcOffset = 2000, .dstOffset = 7000, .size = 1000 },
        { .srcOffset = 8191, .dstOffset = 5500, .size = 1 },
    };
    const uint32_t count = sizeof(regions) / sizeof(regions[0]);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    VkBufferCopy whole = { .srcOffset = 0, .dstOffset = 0, .size = size };
    vkCmdCopyBuffer(cmd, upload.buffer, device.buffer, 1, &whole);
    vkmm_test_full_barrier(cmd);
    vkCmdCopyBuffer(cmd, device.buffer, device.buffer, count, regions);
    vkCmdCopyBuffer(cmd, host.buffer, host.buffer, count, regions);
    vkmm_test_full_barrier(cmd);
    vkCmdCopyBuffer(cmd, device.buffer, readback.buffer, 1, &whole);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    for (uint32_t seed = 2; seed <= 3; seed++) {
        uint8_t *expected = malloc(size);
        assert_non_null(expected);
        fill_pattern(expected, size, seed);
        for (uint32_t r = 0; r < count; r++) {
            for (VkDeviceSize i = 0; i < regions[r].size; i++)
                expected[regions[r].dstOffset + i] = pattern_byte(seed, regions[r].srcOffset + i);
        }
        const uint8_t *out = seed == 2 ? readback.mapped : host.mapped;
        for (size_t i = 0; i < size; i++)
            EXPECT_BYTE(out, i, expected[i]);
        free(expected);
    }
    vkmm_test_buffer_destroy(t, &upload);
    vkmm_test_buffer_destroy(t, &device);
    vkmm_test_buffer_destroy(t, &readback);
    vkmm_test_buffer_destroy(t, &host);
}

/* vkCmdFillBuffer with VK_WHOLE_SIZE on a buffer of 1027 bytes fills up to
 * the nearest smaller multiple of 4 and leaves the last 3 bytes alone; with
 * an offset it fills from there; explicit sizes fill exactly. */
static void test_fill_whole_size_odd_buffer(void **state)
{
    struct vkmm_test *t = *state;
    const size_t size = 1027;
    struct vkmm_test_buffer a = vkmm_test_buffer_create(t, size, HOST_MEMORY);
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, size, HOST_MEMORY);
    memset(a.mapped, 0xEE, size);
    memset(b.mapped, 0xEE, size);

    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdFillBuffer(cmd, a.buffer, 0, VK_WHOLE_SIZE, 0x04030201);
    vkCmdFillBuffer(cmd, b.buffer, 512, VK_WHOLE_SIZE, 0x0D0C0B0A);
    vkCmdFillBuffer(cmd, b.buffer, 8, 12, 0x14131211);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    const uint8_t *pa = a.mapped, *pb = b.mapped;
    for (size_t i = 0; i < size; i++) {
        EXPECT_BYTE(pa, i, i < 1024 ? 1 + i % 4 : 0xEE);
        unsigned want = 0xEE;
        if (i >= 512 && i < 1024)
            want = 0x0A + i % 4;
        else if (i >= 8 && i < 20)
            want = 0x11 + i % 4;
        EXPECT_BYTE(pb, i, want);
    }
    vkmm_test_buffer_destroy(t, &a);
    vkmm_test_buffer_destroy(t, &b);
}

/* vkCmdUpdateBuffer of the maximum 65536 bytes lands completely, and the
 * data is captured at record time (later host changes do not matter). */
static void test_update_buffer_65536(void **state)
{
    struct vkmm_test *t = *state;
    const size_t size = 65536;
    struct vkmm_test_buffer dst = vkmm_test_buffer_create(t, size + 8, HOST_MEMORY);
    memset(dst.mapped, 0xEE, size + 8);
    uint8_t *data = malloc(size);
    assert_non_null(data);
    fill_pattern(data, size, 4);

    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdUpdateBuffer(cmd, dst.buffer, 4, size, data);
    vkmm_test_full_barrier(cmd);
    memset(data, 0, size); /* too late to change what was recorded */
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    const uint8_t *out = dst.mapped;
    for (size_t i = 0; i < size + 8; i++)
        EXPECT_BYTE(out, i, i >= 4 && i < size + 4 ? pattern_byte(4, i - 4) : 0xEE);
    free(data);
    vkmm_test_buffer_destroy(t, &dst);
}

/* Fill, update and copy on both queues of the transfer-only family, from a
 * command pool of that family. */
static void test_transfer_only_queue(void **state)
{
    struct vkmm_test *t = *state;
    assert_int_equal(t->transfer_queue_count, 2);
    uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(t->physical_device, &family_count, NULL);
    assert_int_equal(family_count, 2);
    VkQueueFamilyProperties families[2];
    vkGetPhysicalDeviceQueueFamilyProperties(t->physical_device, &family_count, families);
    assert_int_equal(families[1].queueFlags & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_TRANSFER_BIT),
                     VK_QUEUE_TRANSFER_BIT);

    VkCommandPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .queueFamilyIndex = 1,
    };
    VkCommandPool pool;
    VK_CHECK(vkCreateCommandPool(t->device, &pool_info, NULL, &pool));
    const size_t size = 16384;
    for (uint32_t q = 0; q < t->transfer_queue_count; q++) {
        struct vkmm_test_buffer src = vkmm_test_buffer_create(t, size, HOST_MEMORY);
        struct vkmm_test_buffer mid = vkmm_test_buffer_create(t, size, DEVICE_MEMORY);
        struct vkmm_test_buffer dst = vkmm_test_buffer_create(t, size, HOST_MEMORY);
        fill_pattern(src.mapped, size, 10 + q);
        memset(dst.mapped, 0xEE, size);
        uint32_t update[64];
        for (uint32_t i = 0; i < 64; i++)
            update[i] = 0xABC00000u + q * 256 + i;

        VkCommandBufferAllocateInfo alloc = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
            .commandPool = pool,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
            .commandBufferCount = 1,
        };
        VkCommandBuffer cmd;
        VK_CHECK(vkAllocateCommandBuffers(t->device, &alloc, &cmd));
        VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
        VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
        VkBufferCopy whole = { .srcOffset = 0, .dstOffset = 0, .size = size };
        vkCmdCopyBuffer(cmd, src.buffer, mid.buffer, 1, &whole);
        vkmm_test_full_barrier(cmd);
        vkCmdFillBuffer(cmd, mid.buffer, 1024, 1024, 0x77777777u + q);
        vkmm_test_full_barrier(cmd);
        vkCmdUpdateBuffer(cmd, mid.buffer, 4096, sizeof(update), update);
        vkmm_test_full_barrier(cmd);
        vkCmdCopyBuffer(cmd, mid.buffer, dst.buffer, 1, &whole);
        vkmm_test_full_barrier(cmd);
        VK_CHECK(vkEndCommandBuffer(cmd));

        VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
        VkFence fence;
        VK_CHECK(vkCreateFence(t->device, &fence_info, NULL, &fence));
        VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                                .pCommandBuffers = &cmd };
        VK_CHECK(vkQueueSubmit(t->transfer_queues[q], 1, &submit, fence));
        VK_CHECK(vkWaitForFences(t->device, 1, &fence, VK_TRUE, UINT64_MAX));
        vkDestroyFence(t->device, fence, NULL);
        vkFreeCommandBuffers(t->device, pool, 1, &cmd);

        const uint8_t *out = dst.mapped;
        const uint32_t *words = dst.mapped;
        for (size_t i = 0; i < size; i++) {
            if (i >= 1024 && i < 2048)
                EXPECT_WORD(words, i / 4, 0x77777777u + q);
            else if (i >= 4096 && i < 4096 + sizeof(update))
                EXPECT_WORD(words, i / 4, 0xABC00000u + q * 256 + (uint32_t)(i - 4096) / 4);
            else
                EXPECT_BYTE(out, i, pattern_byte(10 + q, i));
        }
        vkmm_test_buffer_destroy(t, &src);
        vkmm_test_buffer_destroy(t, &mid);
        vkmm_test_buffer_destroy(t, &dst);
    }
    vkDestroyCommandPool(t->device, pool, NULL);
}

/* 16 MiB through device-local memory and back, in one region and then in
 * three regions that swap the thirds around; every word is checked. */
static void test_large_copy_16mib(void **state)
{
    struct vkmm_test *t = *state;
    const VkDeviceSize size = 16u << 20;
    const size_t words = size / 4;
    struct vkmm_test_buffer src = vkmm_test_buffer_create(t, size, HOST_MEMORY);
    struct vkmm_test_buffer device = vkmm_test_buffer_create(t, size, DEVICE_MEMORY);
    struct vkmm_test_buffer dst = vkmm_test_buffer_create(t, size, HOST_MEMORY);
    uint32_t *in = src.mapped;
    for (size_t i = 0; i < words; i++)
        in[i] = (uint32_t)i * 2654435761u ^ 0x5A5A5A5Au;
    memset(dst.mapped, 0, size);

    const VkDeviceSize third = (size / 3) & ~(VkDeviceSize)3; /* 5592404 */
    const VkDeviceSize rest = size - 2 * third;
    VkBufferCopy swap[3] = {
        { .srcOffset = 0, .dstOffset = size - third, .size = third },
        { .srcOffset = third, .dstOffset = rest, .size = third },
        { .srcOffset = 2 * third, .dstOffset = 0, .size = rest },
    };
    VkCommandBuffer cmd = vkmm_test_begin(t);
    VkBufferCopy whole = { .srcOffset = 0, .dstOffset = 0, .size = size };
    vkCmdCopyBuffer(cmd, src.buffer, device.buffer, 1, &whole);
    vkmm_test_full_barrier(cmd);
    vkCmdCopyBuffer(cmd, device.buffer, dst.buffer, 3, swap);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    const uint32_t *out = dst.mapped;
    for (size_t i = 0; i < words; i++) {
        VkDeviceSize byte = (VkDeviceSize)i * 4, from;
        if (byte < rest)
            from = 2 * third + byte;
        else if (byte < rest + third)
            from = third + (byte - rest);
        else
            from = byte - (size - third);
        EXPECT_WORD(out, i, (uint32_t)(from / 4) * 2654435761u ^ 0x5A5A5A5Au);
    }
    vkmm_test_buffer_destroy(t, &src);
    vkmm_test_buffer_destroy(t, &device);
    vkmm_test_buffer_destroy(t, &dst);
}

/* A chain of dependent transfers, each ordered after the previous one by
 * a different barrier form: legacy vkCmdPipelineBarrier with a
 * VkMemoryBarrier, with a VkBufferMemoryBarrier (whole buffer and a
 * range), and vkCmdPipelineBarrier2 with memory and buffer barriers. */
static void test_barriers_between_dependent_transfers(void **state)
{
    struct vkmm_test *t = *state;
    const VkDeviceSize size = 4096;
    struct vkmm_test_buffer a = vkmm_test_buffer_create(t, size, DEVICE_MEMORY);
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, size, DEVICE_MEMORY);
    struct vkmm_test_buffer c = vkmm_test_buffer_create(t, size, DEVICE_MEMORY);
    struct vkmm_test_buffer d = vkmm_test_buffer_create(t, size, HOST_MEMORY);
    memset(d.mapped, 0xEE, size);
    uint32_t update[256];
    for (uint32_t i = 0; i < 256; i++)
        update[i] = 0x0BAD0000u + i;

    VkCommandBuffer cmd = vkmm_test_begin(t);
    VkBufferCopy whole = { .srcOffset = 0, .dstOffset = 0, .size = size };
    /* 1. fill a */
    vkCmdFillBuffer(cmd, a.buffer, 0, VK_WHOLE_SIZE, 0x11111111);
    VkMemoryBarrier memory = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
    };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &memory, 0, NULL,
                         0, NULL);
    /* 2. a -> b */
    vkCmdCopyBuffer(cmd, a.buffer, b.buffer, 1, &whole);
    VkBufferMemoryBarrier buffer_barrier = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .buffer = b.buffer,
        .offset = 0,
        .size = VK_WHOLE_SIZE,
    };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 1,
                         &buffer_barrier, 0, NULL);
    /* 3. b -> c */
    vkCmdCopyBuffer(cmd, b.buffer, c.buffer, 1, &whole);
    VkBufferMemoryBarrier2 buffer_barrier2 = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT,
        .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT,
        .dstAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_TRANSFER_READ_BIT,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .buffer = c.buffer,
        .offset = 0,
        .size = size,
    };
    VkDependencyInfo dep_buffer = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
        .bufferMemoryBarrierCount = 1,
        .pBufferMemoryBarriers = &buffer_barrier2,
    };
    vkCmdPipelineBarrier2(cmd, &dep_buffer);
    /* 4. update part of c */
    vkCmdUpdateBuffer(cmd, c.buffer, 1024, sizeof(update), update);
    VkMemoryBarrier2 memory2 = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
        .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT,
        .dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT,
    };
    VkDependencyInfo dep_memory = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
        .memoryBarrierCount = 1,
        .pMemoryBarriers = &memory2,
    };
    vkCmdPipelineBarrier2(cmd, &dep_memory);
    /* 5. c -> d, then a range barrier on d to the host */
    vkCmdCopyBuffer(cmd, c.buffer, d.buffer, 1, &whole);
    VkBufferMemoryBarrier to_host = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .buffer = d.buffer,
        .offset = 0,
        .size = size,
    };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL, 1, &to_host, 0,
                         NULL);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    const uint32_t *out = d.mapped;
    for (uint32_t i = 0; i < size / 4; i++)
        EXPECT_WORD(out, i, i >= 256 && i < 512 ? 0x0BAD0000u + (i - 256) : 0x11111111u);
    vkmm_test_buffer_destroy(t, &a);
    vkmm_test_buffer_destroy(t, &b);
    vkmm_test_buffer_destroy(t, &c);
    vkmm_test_buffer_destroy(t, &d);
}

/* A long ping-pong of dependent copies between two buffers, each step
 * also overwriting one word, so any reordering leaves a wrong word. */
static void test_ping_pong_chain(void **state)
{
    struct vkmm_test *t = *state;
    enum { WORDS = 64, STEPS = 50 };
    struct vkmm_test_buffer x = vkmm_test_buffer_create(t, 4 * WORDS, HOST_MEMORY);
    struct vkmm_test_buffer y = vkmm_test_buffer_create(t, 4 * WORDS, DEVICE_MEMORY);
    memset(x.mapped, 0, 4 * WORDS);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    VkBufferCopy whole = { .srcOffset = 0, .dstOffset = 0, .size = 4 * WORDS };
    for (uint32_t s = 0; s < STEPS; s++) {
        /* x -> y, then word s of y = s + 1, then y -> x */
        vkCmdCopyBuffer(cmd, x.buffer, y.buffer, 1, &whole);
        vkmm_test_full_barrier(cmd);
        vkCmdFillBuffer(cmd, y.buffer, 4 * s, 4, s + 1);
        vkmm_test_full_barrier(cmd);
        vkCmdCopyBuffer(cmd, y.buffer, x.buffer, 1, &whole);
        vkmm_test_full_barrier(cmd);
    }
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    const uint32_t *out = x.mapped;
    for (uint32_t i = 0; i < WORDS; i++)
        EXPECT_WORD(out, i, i < STEPS ? i + 1 : 0);
    vkmm_test_buffer_destroy(t, &x);
    vkmm_test_buffer_destroy(t, &y);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_copy_multiple_regions, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_copy_within_one_buffer, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_fill_whole_size_odd_buffer, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_update_buffer_65536, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_transfer_only_queue, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_large_copy_16mib, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_barriers_between_dependent_transfers, vkmm_test_setup,
                                        vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_ping_pong_chain, vkmm_test_setup, vkmm_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
