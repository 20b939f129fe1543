/* Compressed images (ASTC LDR, the compressed format set vkmm supports),
 * through the loader, in both modes: the formats' required features;
 * blocks uploaded with vkCmdCopyBufferToImage (a buffer row longer than
 * the image's, partial blocks at the right and bottom edges) and read back
 * texel by texel, with nearest and linear samplers, against astc-encoder's
 * own decoding of the same blocks (tests/api/astc/); a void-extent block
 * against the ASTC specification's constant colour; blocks written by a
 * shader through an uncompressed view (BLOCK_TEXEL_VIEW_COMPATIBLE);
 * copies to a size-compatible uncompressed image; blits from a
 * compressed image. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "astc_reference.h"
#include "vkmm_test.h"

#define HOST (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)

struct astc_case {
    VkFormat format;
    uint32_t block_width, block_height;
    bool srgb;
    uint32_t width, height;
};

/* The image's blocks and what they decode to, as the reference says. */
struct reference {
    uint32_t blocks_x, blocks_y;
    uint8_t *blocks;  /* blocks_x * blocks_y blocks of 16 bytes */
    float *texels;    /* width * height RGBA, linear (sRGB decoded) */
};

static float srgb_to_linear(float c)
{
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

/* A smooth gradient with a hash on top, so that blocks are neither flat
 * nor alike. */
static struct reference make_reference(const struct astc_case *c)
{
    struct reference r = { (c->width + c->block_width - 1) / c->block_width,
                           (c->height + c->block_height - 1) / c->block_height, NULL, NULL };
    uint8_t *rgba8 = malloc((size_t)c->width * c->height * 4);
    r.blocks = malloc((size_t)r.blocks_x * r.blocks_y * 16);
    r.texels = malloc((size_t)c->width * c->height * 4 * sizeof(float));
    assert_non_null(rgba8);
    assert_non_null(r.blocks);
    assert_non_null(r.texels);
    for (uint32_t y = 0; y < c->height; y++)
        for (uint32_t x = 0; x < c->width; x++) {
            uint8_t *p = rgba8 + ((size_t)y * c->width + x) * 4;
            p[0] = (uint8_t)(x * 255 / (c->width - 1));
            p[1] = (uint8_t)(y * 255 / (c->height - 1));
            p[2] = (uint8_t)((x * 37 + y * 91) & 255);
            p[3] = (uint8_t)(255 - ((x * y * 7) & 127));
        }
    assert_true(astc_reference_encode(rgba8, c->width, c->height, c->block_width, c->block_height, c->srgb, r.blocks,
                                      r.texels));
    if (c->srgb)
        for (size_t i = 0; i < (size_t)c->width * c->height * 4; i++)
            if (i % 4 != 3)
                r.texels[i] = srgb_to_linear(r.texels[i]);
    free(rgba8);
    return r;
}

static void free_reference(struct reference *r)
{
    free(r->blocks);
    free(r->texels);
}

struct image {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
};

static struct image make_image(struct vkmm_test *t, VkFormat format, uint32_t width, uint32_t height,
                               VkImageCreateFlags flags, VkImageUsageFlags usage)
{
    struct image out = { 0 };
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .flags = flags,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = format,
        .extent = { width, height, 1 },
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .usage = usage,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    VK_CHECK(vkCreateImage(t->device, &info, NULL, &out.image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(t->device, out.image, &req);
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = vkmm_test_find_memory_type(t, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0),
    };
    VK_CHECK(vkAllocateMemory(t->device, &alloc, NULL, &out.memory));
    VK_CHECK(vkBindImageMemory(t->device, out.image, out.memory, 0));
    return out;
}

/* A view of the whole image; `usage` (0: the image's) restricts it, as a
 * compressed view of an image with storage usage must be. */
static VkImageView make_view_for(struct vkmm_test *t, VkImage image, VkFormat format, VkImageUsageFlags usage)
{
    VkImageViewUsageCreateInfo restricted = { .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO, .usage = usage };
    VkImageViewCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .pNext = usage ? &restricted : NULL,
        .image = image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = format,
        .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
    };
    VkImageView view;
    VK_CHECK(vkCreateImageView(t->device, &info, NULL, &view));
    return view;
}

static VkImageView make_view(struct vkmm_test *t, VkImage image, VkFormat format)
{
    return make_view_for(t, image, format, 0);
}

static void free_image(struct vkmm_test *t, struct image *i)
{
    if (i->view)
        vkDestroyImageView(t->device, i->view, NULL);
    vkDestroyImage(t->device, i->image, NULL);
    vkFreeMemory(t->device, i->memory, NULL);
}

static VkSampler make_sampler(struct vkmm_test *t, VkFilter filter)
{
    VkSamplerCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = filter,
        .minFilter = filter,
        .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
        .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .maxLod = 0.0f,
    };
    VkSampler sampler;
    VK_CHECK(vkCreateSampler(t->device, &info, NULL, &sampler));
    return sampler;
}

static void to_general(VkCommandBuffer cmd, VkImage image)
{
    vkmm_test_image_barrier(cmd, &(struct vkmm_test_image_barrier){
                                     .image = image,
                                     .from = VK_IMAGE_LAYOUT_UNDEFINED,
                                     .to = VK_IMAGE_LAYOUT_GENERAL,
                                     .src_stage = VK_PIPELINE_STAGE_2_NONE,
                                     .dst_stage = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT |
                                                  VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                     .dst_access = VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_WRITE_BIT,
                                 });
}

/* Transfer or shader writes made visible to the shader's and the
 * transfers' reads. */
static void writes_to_reads(VkCommandBuffer cmd)
{
    VkMemoryBarrier2 barrier = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        .dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
    };
    vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){ .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                                     .memoryBarrierCount = 1,
                                                     .pMemoryBarriers = &barrier });
}

/* Stages the reference's blocks with one spare block at the end of each
 * buffer row (bufferRowLength one block longer than the image), and
 * records their copy into `image`. */
static struct vkmm_test_buffer upload_blocks(struct vkmm_test *t, VkCommandBuffer cmd, const struct astc_case *c,
                                             const struct reference *r, VkImage image)
{
    uint32_t row_blocks = r->blocks_x + 1;
    struct vkmm_test_buffer staging = vkmm_test_buffer_create(t, (VkDeviceSize)row_blocks * r->blocks_y * 16, HOST);
    memset(staging.mapped, 0xab, staging.size);
    for (uint32_t y = 0; y < r->blocks_y; y++)
        memcpy((uint8_t *)staging.mapped + (size_t)y * row_blocks * 16, r->blocks + (size_t)y * r->blocks_x * 16,
               (size_t)r->blocks_x * 16);
    VkBufferImageCopy region = {
        .bufferRowLength = row_blocks * c->block_width,
        .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
        .imageExtent = { c->width, c->height, 1 },
    };
    vkCmdCopyBufferToImage(cmd, staging.buffer, image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
    return staging;
}

/* Records image_compressed.comp reading `view` (width x height texels plus
 * the two filtered samples) into `result`. */
static struct vkmm_test_compute record_readback(struct vkmm_test *t, VkCommandBuffer cmd, VkImageView view,
                                                const VkSampler samplers[2], uint32_t width, uint32_t height,
                                                VkBuffer result)
{
    const VkDescriptorType types[3] = { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                        VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER };
    struct vkmm_test_compute c = vkmm_test_compute_create_typed(t, "image_compressed", 3, types, 8, NULL);
    VkDescriptorImageInfo images[2] = { { samplers[0], view, VK_IMAGE_LAYOUT_GENERAL },
                                        { samplers[1], view, VK_IMAGE_LAYOUT_GENERAL } };
    VkWriteDescriptorSet writes[2];
    for (uint32_t b = 0; b < 2; b++)
        writes[b] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = c.set,
                                            .dstBinding = b, .descriptorCount = 1,
                                            .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                            .pImageInfo = &images[b] };
    vkUpdateDescriptorSets(t->device, 2, writes, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &c, 2, result, 0, VK_WHOLE_SIZE);
    uint32_t size[2] = { width, height };
    vkmm_test_compute_dispatch(&c, cmd, size, sizeof(size), 1, 1, 1);
    vkmm_test_compute_to_host_barrier(cmd);
    return c;
}

static void expect_texel(const float *actual, const float *expected, float tolerance, const char *what, uint32_t x,
                         uint32_t y)
{
    for (uint32_t k = 0; k < 4; k++)
        if (!(fabsf(actual[k] - expected[k]) <= tolerance))
            fail_msg("%s (%u, %u) channel %u: %f, expected %f", what, x, y, k, actual[k], expected[k]);
}

/* Every texel of the readback against the reference, then the linear
 * sample between (3, 1) and (4, 1) and the nearest one at (5, 2). */
static void expect_readback(const struct astc_case *c, const struct reference *r, const float *out)
{
    float tolerance = c->srgb ? 1e-4f : 1e-6f;
    for (uint32_t y = 0; y < c->height; y++)
        for (uint32_t x = 0; x < c->width; x++) {
            size_t i = ((size_t)y * c->width + x) * 4;
            expect_texel(out + i, r->texels + i, tolerance, "texelFetch", x, y);
        }
    const float *a = r->texels + ((size_t)1 * c->width + 3) * 4, *b = r->texels + ((size_t)1 * c->width + 4) * 4;
    float mean[4];
    for (uint32_t k = 0; k < 4; k++)
        mean[k] = (a[k] + b[k]) / 2;
    size_t n = (size_t)c->width * c->height * 4;
    expect_texel(out + n, mean, 2e-3f, "linear sample between", 3, 1);
    expect_texel(out + n + 4, r->texels + ((size_t)2 * c->width + 5) * 4, tolerance, "nearest sample at", 5, 2);
}

/* Uploads the reference's blocks into a fresh image of the case and reads
 * them back through the samplers. */
static void sample_and_check(struct vkmm_test *t, const struct astc_case *c, const struct reference *r)
{
    struct image image = make_image(t, c->format, c->width, c->height, 0,
                                    VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    image.view = make_view(t, image.image, c->format);
    VkSampler samplers[2] = { make_sampler(t, VK_FILTER_NEAREST), make_sampler(t, VK_FILTER_LINEAR) };
    size_t floats = ((size_t)c->width * c->height + 2) * 4;
    struct vkmm_test_buffer result = vkmm_test_buffer_create(t, floats * 4, HOST);

    VkCommandBuffer cmd = vkmm_test_begin(t);
    to_general(cmd, image.image);
    struct vkmm_test_buffer staging = upload_blocks(t, cmd, c, r, image.image);
    writes_to_reads(cmd);
    struct vkmm_test_compute compute = record_readback(t, cmd, image.view, samplers, c->width, c->height,
                                                       result.buffer);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    expect_readback(c, r, result.mapped);

    vkmm_test_compute_destroy(t, &compute);
    vkmm_test_buffer_destroy(t, &staging);
    vkmm_test_buffer_destroy(t, &result);
    for (uint32_t i = 0; i < 2; i++)
        vkDestroySampler(t->device, samplers[i], NULL);
    free_image(t, &image);
}

static void run_sampling_case(struct vkmm_test *t, const struct astc_case *c)
{
    struct reference r = make_reference(c);
    sample_and_check(t, c, &r);
    free_reference(&r);
}

static void test_sampling_4x4_unorm(void **state)
{
    run_sampling_case(*state, &(struct astc_case){ VK_FORMAT_ASTC_4x4_UNORM_BLOCK, 4, 4, false, 13, 11 });
}

static void test_sampling_6x5_srgb(void **state)
{
    run_sampling_case(*state, &(struct astc_case){ VK_FORMAT_ASTC_6x5_SRGB_BLOCK, 6, 5, true, 13, 11 });
}

static void test_sampling_12x12_unorm(void **state)
{
    run_sampling_case(*state, &(struct astc_case){ VK_FORMAT_ASTC_12x12_UNORM_BLOCK, 12, 12, false, 30, 17 });
}

/* A void-extent block (ASTC spec, "Void-Extent Blocks"): header bits 0-8
 * 0x1FC, bit 9 clear (LDR), bits 10-11 set, the extent all ones (none),
 * then a constant colour as four UNORM16 values, which every texel decodes
 * to: value / 65535 at the precision of the default decode mode, 16-bit
 * floats (Vulkan spec, "ASTC Decode Mode": R16G16B16A16_SFLOAT without
 * VK_EXT_astc_decode_mode). */
static void test_void_extent_block(void **state)
{
    struct vkmm_test *t = *state;
    const struct astc_case c = { VK_FORMAT_ASTC_4x4_UNORM_BLOCK, 4, 4, false, 8, 4 };
    const uint16_t colour[4] = { 0x8000, 0xffff, 0x0000, 0x4000 };
    uint8_t block[16] = { 0xfc, 0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    for (uint32_t k = 0; k < 4; k++) {
        block[8 + 2 * k] = (uint8_t)(colour[k] & 0xff);
        block[9 + 2 * k] = (uint8_t)(colour[k] >> 8);
    }
    struct reference r = { 2, 1, malloc(32), malloc(8 * 4 * 4 * sizeof(float)) };
    assert_non_null(r.blocks);
    assert_non_null(r.texels);
    memcpy(r.blocks, block, 16);
    memcpy(r.blocks + 16, block, 16);
    for (uint32_t i = 0; i < 8 * 4; i++)
        for (uint32_t k = 0; k < 4; k++)
            r.texels[i * 4 + k] = (float)(_Float16)((float)colour[k] / 65535.0f);

    sample_and_check(t, &c, &r);
    free_reference(&r);
}

/* A shader writes the blocks through an R32G32B32A32_UINT view (one texel
 * per block) and the compressed view samples them. */
static void test_blocks_written_through_uncompressed_view(void **state)
{
    struct vkmm_test *t = *state;
    const struct astc_case c = { VK_FORMAT_ASTC_5x4_UNORM_BLOCK, 5, 4, false, 14, 8 };
    struct reference r = make_reference(&c);
    struct image image = make_image(t, c.format, c.width, c.height,
                                    VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT |
                                        VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT,
                                    VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT);
    image.view = make_view_for(t, image.image, c.format, VK_IMAGE_USAGE_SAMPLED_BIT);
    VkImageView blocks_view = make_view_for(t, image.image, VK_FORMAT_R32G32B32A32_UINT, VK_IMAGE_USAGE_STORAGE_BIT);
    struct vkmm_test_buffer source = vkmm_test_buffer_create(t, (VkDeviceSize)r.blocks_x * r.blocks_y * 16, HOST);
    memcpy(source.mapped, r.blocks, (size_t)r.blocks_x * r.blocks_y * 16);
    const VkDescriptorType types[2] = { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER };
    struct vkmm_test_compute writer = vkmm_test_compute_create_typed(t, "image_block_write", 2, types, 8, NULL);
    VkDescriptorImageInfo storage = { VK_NULL_HANDLE, blocks_view, VK_IMAGE_LAYOUT_GENERAL };
    vkUpdateDescriptorSets(t->device, 1,
                           &(VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                                    .dstSet = writer.set, .dstBinding = 0, .descriptorCount = 1,
                                                    .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                                    .pImageInfo = &storage },
                           0, NULL);
    vkmm_test_compute_bind_buffer(t, &writer, 1, source.buffer, 0, VK_WHOLE_SIZE);
    VkSampler samplers[2] = { make_sampler(t, VK_FILTER_NEAREST), make_sampler(t, VK_FILTER_LINEAR) };
    struct vkmm_test_buffer result =
        vkmm_test_buffer_create(t, ((VkDeviceSize)c.width * c.height + 2) * 16, HOST);

    VkCommandBuffer cmd = vkmm_test_begin(t);
    to_general(cmd, image.image);
    uint32_t blocks[2] = { r.blocks_x, r.blocks_y };
    vkmm_test_compute_dispatch(&writer, cmd, blocks, sizeof(blocks), 1, 1, 1);
    writes_to_reads(cmd);
    struct vkmm_test_compute reader = record_readback(t, cmd, image.view, samplers, c.width, c.height,
                                                      result.buffer);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    expect_readback(&c, &r, result.mapped);

    vkmm_test_compute_destroy(t, &reader);
    vkmm_test_compute_destroy(t, &writer);
    vkmm_test_buffer_destroy(t, &result);
    vkmm_test_buffer_destroy(t, &source);
    for (uint32_t i = 0; i < 2; i++)
        vkDestroySampler(t->device, samplers[i], NULL);
    vkDestroyImageView(t->device, blocks_view, NULL);
    free_image(t, &image);
    free_reference(&r);
}

/* vkCmdCopyImage from a compressed image to an uncompressed one of the
 * block's size moves one block per texel (the extent counts the source's
 * texels); a block-aligned sub-region then goes back to a buffer. */
static void test_copy_to_size_compatible_image(void **state)
{
    struct vkmm_test *t = *state;
    const struct astc_case c = { VK_FORMAT_ASTC_4x4_UNORM_BLOCK, 4, 4, false, 16, 8 };
    struct reference r = make_reference(&c);
    struct image compressed = make_image(t, c.format, c.width, c.height, 0,
                                         VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    struct image plain = make_image(t, VK_FORMAT_R32G32B32A32_UINT, 4, 2, 0,
                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    struct vkmm_test_buffer plain_out = vkmm_test_buffer_create(t, 4 * 2 * 16, HOST);
    struct vkmm_test_buffer region_out = vkmm_test_buffer_create(t, 2 * 16, HOST);
    memset(plain_out.mapped, 0, plain_out.size);
    memset(region_out.mapped, 0, region_out.size);

    VkCommandBuffer cmd = vkmm_test_begin(t);
    to_general(cmd, compressed.image);
    to_general(cmd, plain.image);
    struct vkmm_test_buffer staging = upload_blocks(t, cmd, &c, &r, compressed.image);
    writes_to_reads(cmd);
    VkImageCopy whole = { .srcSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
                          .dstSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
                          .extent = { 16, 8, 1 } };
    vkCmdCopyImage(cmd, compressed.image, VK_IMAGE_LAYOUT_GENERAL, plain.image, VK_IMAGE_LAYOUT_GENERAL, 1, &whole);
    VkBufferImageCopy sub = { .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
                              .imageOffset = { 8, 4, 0 },
                              .imageExtent = { 8, 4, 1 } };
    vkCmdCopyImageToBuffer(cmd, compressed.image, VK_IMAGE_LAYOUT_GENERAL, region_out.buffer, 1, &sub);
    writes_to_reads(cmd);
    VkBufferImageCopy all = { .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 }, .imageExtent = { 4, 2, 1 } };
    vkCmdCopyImageToBuffer(cmd, plain.image, VK_IMAGE_LAYOUT_GENERAL, plain_out.buffer, 1, &all);
    VkMemoryBarrier2 to_host = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                                 .srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                                 .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                 .dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
                                 .dstAccessMask = VK_ACCESS_2_HOST_READ_BIT };
    vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){ .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                                     .memoryBarrierCount = 1, .pMemoryBarriers = &to_host });
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    assert_memory_equal(plain_out.mapped, r.blocks, 4 * 2 * 16);
    /* Blocks (2, 1) and (3, 1). */
    assert_memory_equal(region_out.mapped, r.blocks + (1 * 4 + 2) * 16, 2 * 16);

    vkmm_test_buffer_destroy(t, &staging);
    vkmm_test_buffer_destroy(t, &plain_out);
    vkmm_test_buffer_destroy(t, &region_out);
    free_image(t, &plain);
    free_image(t, &compressed);
    free_reference(&r);
}

/* The formats' required features (textureCompressionASTC_LDR), and the
 * image types vkmm makes of them. */
static void test_formats_advertised(void **state)
{
    struct vkmm_test *t = *state;
    VkPhysicalDeviceFeatures features;
    vkGetPhysicalDeviceFeatures(t->physical_device, &features);
    assert_true(features.textureCompressionASTC_LDR);
    const VkFormatFeatureFlags required = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_BLIT_SRC_BIT |
                                          VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                                          VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    for (VkFormat f = VK_FORMAT_ASTC_4x4_UNORM_BLOCK; f <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK; f++) {
        VkFormatProperties p;
        vkGetPhysicalDeviceFormatProperties(t->physical_device, f, &p);
        if ((p.optimalTilingFeatures & required) != required)
            fail_msg("format %d: optimal features 0x%x lack 0x%x", f, p.optimalTilingFeatures,
                     required & ~p.optimalTilingFeatures);
        assert_int_equal(p.optimalTilingFeatures & (VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT),
                         0);
        assert_int_equal(p.bufferFeatures, 0);
        VkImageFormatProperties ip;
        VK_CHECK(vkGetPhysicalDeviceImageFormatProperties(t->physical_device, f, VK_IMAGE_TYPE_2D,
                                                          VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_SAMPLED_BIT, 0, &ip));
        assert_true(ip.maxExtent.width >= 4096 && ip.maxMipLevels >= 13 && ip.maxArrayLayers >= 256);
        assert_int_equal(ip.sampleCounts, VK_SAMPLE_COUNT_1_BIT);
        assert_int_equal(vkGetPhysicalDeviceImageFormatProperties(t->physical_device, f, VK_IMAGE_TYPE_3D,
                                                                  VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_SAMPLED_BIT,
                                                                  0, &ip),
                         VK_ERROR_FORMAT_NOT_SUPPORTED);
    }
}

/* vkCmdBlitImage needs a graphics queue (VUID-vkCmdBlitImage-commandBuffer-
 * cmdpool); vkmm runs it on its compute queue with that message, so this
 * test runs without the validation layer and expects it.  A compressed
 * source is decoded; the destination is R32G32B32A32_SFLOAT. */
static void test_blit_from_compressed(void **state)
{
    (void)state;
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    t->expected_errors = 1;
    const struct astc_case c = { VK_FORMAT_ASTC_8x5_SRGB_BLOCK, 8, 5, true, 13, 11 };
    struct reference r = make_reference(&c);
    struct image compressed = make_image(t, c.format, c.width, c.height, 0,
                                         VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    struct image plain = make_image(t, VK_FORMAT_R32G32B32A32_SFLOAT, c.width, c.height, 0,
                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, (VkDeviceSize)c.width * c.height * 16, HOST);

    VkCommandBuffer cmd = vkmm_test_begin(t);
    to_general(cmd, compressed.image);
    to_general(cmd, plain.image);
    struct vkmm_test_buffer staging = upload_blocks(t, cmd, &c, &r, compressed.image);
    writes_to_reads(cmd);
    VkImageBlit blit = { .srcSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
                         .srcOffsets = { { 0, 0, 0 }, { (int32_t)c.width, (int32_t)c.height, 1 } },
                         .dstSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
                         .dstOffsets = { { 0, 0, 0 }, { (int32_t)c.width, (int32_t)c.height, 1 } } };
    vkCmdBlitImage(cmd, compressed.image, VK_IMAGE_LAYOUT_GENERAL, plain.image, VK_IMAGE_LAYOUT_GENERAL, 1, &blit,
                   VK_FILTER_NEAREST);
    writes_to_reads(cmd);
    VkBufferImageCopy all = { .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
                              .imageExtent = { c.width, c.height, 1 } };
    vkCmdCopyImageToBuffer(cmd, plain.image, VK_IMAGE_LAYOUT_GENERAL, out.buffer, 1, &all);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    const float *texels = out.mapped;
    for (uint32_t y = 0; y < c.height; y++)
        for (uint32_t x = 0; x < c.width; x++) {
            size_t i = ((size_t)y * c.width + x) * 4;
            expect_texel(texels + i, r.texels + i, 1e-4f, "blitted texel", x, y);
        }
    assert_non_null(strstr(t->message_ids, "VUID-vkCmdBlitImage2-commandBuffer-cmdpool"));

    vkmm_test_buffer_destroy(t, &staging);
    vkmm_test_buffer_destroy(t, &out);
    free_image(t, &plain);
    free_image(t, &compressed);
    free_reference(&r);
    vkmm_test_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_formats_advertised, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_sampling_4x4_unorm, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_sampling_6x5_srgb, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_sampling_12x12_unorm, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_void_extent_block, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_blocks_written_through_uncompressed_view, vkmm_test_setup,
                                        vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_copy_to_size_compatible_image, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test(test_blit_from_compressed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
