/* Multisampled images through the loader, in both modes: a 4-sample image
 * (the spec's minimum sample counts for sampled images) is cleared, copied
 * from another 4-sample image with vkCmdCopyImage, and read per sample by
 * texelFetch in a compute shader (tests/api/shaders/image_multisample.comp);
 * textureSamples gives 4; what cannot hold samples is refused. */
#include <string.h>

#include "vkmm_test.h"

#define HOST (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)

struct ms_image {
    VkImage image;
    VkDeviceMemory memory;
};

static VkImageCreateInfo ms_info(void)
{
    return (VkImageCreateInfo){
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = VK_FORMAT_R32_UINT,
        .extent = { 2, 2, 1 },
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_4_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
    };
}

static struct ms_image ms_create(struct vkmm_test *t)
{
    struct ms_image out;
    VkImageCreateInfo info = ms_info();
    VK_CHECK(vkCreateImage(t->device, &info, NULL, &out.image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(t->device, out.image, &req);
    assert_true(req.size >= 2 * 2 * 4 * 4); /* every sample of every texel */
    VkMemoryAllocateInfo alloc = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
                                   .memoryTypeIndex = vkmm_test_find_memory_type(t, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0) };
    VK_CHECK(vkAllocateMemory(t->device, &alloc, NULL, &out.memory));
    VK_CHECK(vkBindImageMemory(t->device, out.image, out.memory, 0));
    return out;
}

static void ms_destroy(struct vkmm_test *t, struct ms_image *i)
{
    vkDestroyImage(t->device, i->image, NULL);
    vkFreeMemory(t->device, i->memory, NULL);
}

static void barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                    VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access)
{
    vkmm_test_image_barrier(cmd, &(struct vkmm_test_image_barrier){
                                     .image = image, .from = from, .to = to,
                                     .src_stage = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                                     .src_access = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                     .dst_stage = dst_stage, .dst_access = dst_access });
}

/* Image `a` cleared to 7, `b` to 9; texel (1, 0) of `a` copied into `b`:
 * every sample of b's texel (1, 0) is 7, the others 9. */
static void test_multisample_clear_copy_fetch(void **state)
{
    struct vkmm_test *t = *state;
    VkImageFormatProperties p;
    VK_CHECK(vkGetPhysicalDeviceImageFormatProperties(t->physical_device, VK_FORMAT_R32_UINT, VK_IMAGE_TYPE_2D,
                                                      VK_IMAGE_TILING_OPTIMAL, ms_info().usage, 0, &p));
    assert_true(p.sampleCounts & VK_SAMPLE_COUNT_4_BIT);
    assert_true(t->properties.limits.sampledImageColorSampleCounts & VK_SAMPLE_COUNT_4_BIT);
    struct ms_image a = ms_create(t), b = ms_create(t);
    VkImageView view;
    VkImageViewCreateInfo view_info = { .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = b.image,
                                        .viewType = VK_IMAGE_VIEW_TYPE_2D, .format = VK_FORMAT_R32_UINT,
                                        .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 } };
    VK_CHECK(vkCreateImageView(t->device, &view_info, NULL, &view));
    VkSamplerCreateInfo sampler_info = { .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO };
    VkSampler sampler;
    VK_CHECK(vkCreateSampler(t->device, &sampler_info, NULL, &sampler));
    VkDescriptorType types[2] = { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER };
    struct vkmm_test_compute c = vkmm_test_compute_create_typed(t, "image_multisample", 2, types, 0, NULL);
    struct vkmm_test_buffer result = vkmm_test_buffer_create(t, 18 * 4, HOST);
    memset(result.mapped, 0xff, 18 * 4);
    VkDescriptorImageInfo image_info = { sampler, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
    VkWriteDescriptorSet write = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = c.set, .dstBinding = 0,
                                   .descriptorCount = 1,
                                   .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                   .pImageInfo = &image_info };
    vkUpdateDescriptorSets(t->device, 1, &write, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &c, 1, result.buffer, 0, VK_WHOLE_SIZE);

    VkCommandBuffer cmd = vkmm_test_begin(t);
    barrier(cmd, a.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    barrier(cmd, b.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkImageSubresourceRange range = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 };
    vkCmdClearColorImage(cmd, a.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &(VkClearColorValue){ .uint32 = { 7 } },
                         1, &range);
    vkCmdClearColorImage(cmd, b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &(VkClearColorValue){ .uint32 = { 9 } },
                         1, &range);
    barrier(cmd, a.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
            VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    barrier(cmd, b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkImageCopy copy = { .srcSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 }, .srcOffset = { 1, 0, 0 },
                         .dstSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 }, .dstOffset = { 1, 0, 0 },
                         .extent = { 1, 1, 1 } };
    vkCmdCopyImage(cmd, a.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                   &copy);
    barrier(cmd, b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    vkmm_test_compute_dispatch(&c, cmd, NULL, 0, 1, 1, 1);
    vkmm_test_compute_to_host_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    const uint32_t *out = result.mapped;
    for (uint32_t texel = 0; texel < 4; texel++)
        for (uint32_t s = 0; s < 4; s++)
            assert_int_equal(out[texel * 4 + s], texel == 1 ? 7 : 9);
    assert_int_equal(out[16], 4);
    assert_int_equal(out[17], 0); /* sample 4 is outside the texel: robust access gives zero */

    vkmm_test_buffer_destroy(t, &result);
    vkmm_test_compute_destroy(t, &c);
    vkDestroySampler(t->device, sampler, NULL);
    vkDestroyImageView(t->device, view, NULL);
    ms_destroy(t, &a);
    ms_destroy(t, &b);
}

/* Without the validation layer (the calls are invalid): a multisampled
 * storage image, a 3D one and an 8-sample one are refused, and a buffer
 * copy from a multisampled image is dropped, each with a message. */
static void test_multisample_refusals(void **state)
{
    (void)state;
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    t->expected_errors = 4;
    VkImage image;
    VkImageCreateInfo info = ms_info();
    info.usage |= VK_IMAGE_USAGE_STORAGE_BIT;
    assert_int_not_equal(vkCreateImage(t->device, &info, NULL, &image), VK_SUCCESS);
    info = ms_info();
    info.samples = VK_SAMPLE_COUNT_8_BIT;
    assert_int_not_equal(vkCreateImage(t->device, &info, NULL, &image), VK_SUCCESS);
    info = ms_info();
    info.mipLevels = 2;
    assert_int_not_equal(vkCreateImage(t->device, &info, NULL, &image), VK_SUCCESS);
    assert_int_equal(t->driver_errors, 3);
    struct ms_image a = ms_create(t);
    struct vkmm_test_buffer buffer = vkmm_test_buffer_create(t, 64, HOST);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    VkBufferImageCopy region = { .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 }, .imageExtent = { 2, 2, 1 } };
    vkCmdCopyImageToBuffer(cmd, a.image, VK_IMAGE_LAYOUT_GENERAL, buffer.buffer, 1, &region);
    assert_int_equal(t->driver_errors, 4);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    vkmm_test_buffer_destroy(t, &buffer);
    ms_destroy(t, &a);
    vkmm_test_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_multisample_clear_copy_fetch, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test(test_multisample_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
