/* Sampling beyond the base level, through the loader, in both modes:
 * mip levels (texelFetch with a level, textureLod with mipmap NEAREST and
 * LINEAR, textureGrad, the sampler's minLod/maxLod/mipLodBias,
 * textureQueryLevels, offsets), cube maps (face selection and orientation
 * of all six faces, seamless linear filtering across an edge) and
 * textureGather.  Expected values follow the Vulkan spec's texel
 * filtering and LOD rules, worked out in the shaders' comments
 * (tests/api/shaders/image_mips.comp, image_cube.comp, image_gather.comp),
 * and depth images sampled with and without depth comparison
 * (image_depth_compare.comp). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

#define HOST (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
#define MAX_BINDINGS 5

struct image {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
    uint32_t size, levels, layers;
    VkImageAspectFlags aspect;
};

/* A square image of 32-bit floats (R32_SFLOAT, or D32_SFLOAT with `depth`)
 * of `size` texels, `levels` levels and `layers` layers (`cube`: a cube,
 * or a cube array above 6 layers), viewed whole.  A depth image is linear
 * and host-visible: on a queue without VK_QUEUE_GRAPHICS_BIT, buffer-image
 * copies of the depth aspect are invalid (VUID-vkCmdCopyBufferToImage-
 * commandBuffer-07739), so the host writes it through a mapping. */
static struct image make_float_image(struct vkmm_test *t, uint32_t size, uint32_t levels, uint32_t layers, bool cube,
                                     bool depth)
{
    VkFormat format = depth ? VK_FORMAT_D32_SFLOAT : VK_FORMAT_R32_SFLOAT;
    struct image out = { .size = size, .levels = levels, .layers = layers,
                         .aspect = depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT };
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .flags = cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = format,
        .extent = { size, size, 1 },
        .mipLevels = levels,
        .arrayLayers = layers,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .tiling = depth ? VK_IMAGE_TILING_LINEAR : VK_IMAGE_TILING_OPTIMAL,
        .initialLayout = depth ? VK_IMAGE_LAYOUT_PREINITIALIZED : VK_IMAGE_LAYOUT_UNDEFINED,
    };
    VK_CHECK(vkCreateImage(t->device, &info, NULL, &out.image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(t->device, out.image, &req);
    VkMemoryAllocateInfo alloc = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                   .allocationSize = req.size,
                                   .memoryTypeIndex = vkmm_test_find_memory_type(
                                       t, depth ? HOST : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0) };
    VK_CHECK(vkAllocateMemory(t->device, &alloc, NULL, &out.memory));
    VK_CHECK(vkBindImageMemory(t->device, out.image, out.memory, 0));
    VkImageViewCreateInfo view = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = out.image,
        .viewType = !cube ? VK_IMAGE_VIEW_TYPE_2D : layers > 6 ? VK_IMAGE_VIEW_TYPE_CUBE_ARRAY : VK_IMAGE_VIEW_TYPE_CUBE,
        .format = format,
        .subresourceRange = { out.aspect, 0, levels, 0, layers },
    };
    VK_CHECK(vkCreateImageView(t->device, &view, NULL, &out.view));
    return out;
}

static void free_image(struct vkmm_test *t, struct image *i)
{
    vkDestroyImageView(t->device, i->view, NULL);
    vkDestroyImage(t->device, i->image, NULL);
    vkFreeMemory(t->device, i->memory, NULL);
}

/* A clamp-to-edge sampler; `compare`: with depth comparison `op`. */
static VkSampler make_compare_sampler(struct vkmm_test *t, VkFilter filter, VkSamplerMipmapMode mipmap, float min_lod,
                                      float max_lod, float bias, bool compare, VkCompareOp op)
{
    VkSamplerCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .compareEnable = compare,
        .compareOp = op,
        .magFilter = filter,
        .minFilter = filter,
        .mipmapMode = mipmap,
        .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .mipLodBias = bias,
        .minLod = min_lod,
        .maxLod = max_lod,
    };
    VkSampler sampler;
    VK_CHECK(vkCreateSampler(t->device, &info, NULL, &sampler));
    return sampler;
}

static VkSampler make_sampler(struct vkmm_test *t, VkFilter filter, VkSamplerMipmapMode mipmap, float min_lod,
                              float max_lod, float bias)
{
    return make_compare_sampler(t, filter, mipmap, min_lod, max_lod, bias, false, VK_COMPARE_OP_NEVER);
}

/* Texel value of (level, layer, x, y). */
typedef float (*texel_fn)(uint32_t level, uint32_t layer, uint32_t x, uint32_t y);

/* Fills every level and layer of `image` through a staging buffer and a
 * copy per level, then makes the copies visible to the shader. */
/* A linear depth image (one level and layer): written through a mapping,
 * then made available from the host and visible to the shader. */
static void host_upload(struct vkmm_test *t, VkCommandBuffer cmd, const struct image *image, texel_fn value)
{
    assert_int_equal(image->levels, 1);
    assert_int_equal(image->layers, 1);
    VkSubresourceLayout layout;
    vkGetImageSubresourceLayout(t->device, image->image, &(VkImageSubresource){ image->aspect, 0, 0 }, &layout);
    uint8_t *bytes;
    VK_CHECK(vkMapMemory(t->device, image->memory, 0, VK_WHOLE_SIZE, 0, (void **)&bytes));
    for (uint32_t y = 0; y < image->size; y++)
        for (uint32_t x = 0; x < image->size; x++) {
            float v = value(0, 0, x, y);
            memcpy(bytes + layout.offset + y * layout.rowPitch + x * 4, &v, 4);
        }
    vkUnmapMemory(t->device, image->memory);
    VkImageMemoryBarrier to_shader = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_HOST_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT,
        .oldLayout = VK_IMAGE_LAYOUT_PREINITIALIZED,
        .newLayout = VK_IMAGE_LAYOUT_GENERAL,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = image->image,
        .subresourceRange = { image->aspect, 0, 1, 0, 1 },
    };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 0, NULL,
                         1, &to_shader);
}

static void upload(struct vkmm_test *t, VkCommandBuffer cmd, const struct image *image, texel_fn value,
                   struct vkmm_test_buffer *staging)
{
    VkDeviceSize total = 0;
    for (uint32_t l = 0; l < image->levels; l++) {
        uint32_t s = image->size >> l ? image->size >> l : 1;
        total += (VkDeviceSize)s * s * image->layers * 4;
    }
    *staging = vkmm_test_buffer_create(t, total, HOST);
    VkImageMemoryBarrier to_general = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
        .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        .newLayout = VK_IMAGE_LAYOUT_GENERAL,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = image->image,
        .subresourceRange = { image->aspect, 0, image->levels, 0, image->layers },
    };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL,
                         1, &to_general);
    float *texels = staging->mapped;
    VkDeviceSize at = 0;
    for (uint32_t l = 0; l < image->levels; l++) {
        uint32_t s = image->size >> l ? image->size >> l : 1;
        VkBufferImageCopy region = { .bufferOffset = at * 4,
                                     .imageSubresource = { image->aspect, l, 0, image->layers },
                                     .imageExtent = { s, s, 1 } };
        for (uint32_t layer = 0; layer < image->layers; layer++)
            for (uint32_t y = 0; y < s; y++)
                for (uint32_t x = 0; x < s; x++)
                    texels[at++] = value(l, layer, x, y);
        vkCmdCopyBufferToImage(cmd, staging->buffer, image->image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
    }
    VkMemoryBarrier to_shader = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                  .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                  .dstAccessMask = VK_ACCESS_SHADER_READ_BIT };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &to_shader,
                         0, NULL, 0, NULL);
}

/* Runs shader `name` once with combined image samplers at bindings
 * 0..count-1 (the image's view with samplers[i]) and a storage buffer after
 * them; returns its first `floats` floats in `out`. */
static void run(struct vkmm_test *t, const char *name, const struct image *image, texel_fn value,
                const VkSampler *samplers, uint32_t count, float *out, uint32_t floats)
{
    VkDescriptorType types[MAX_BINDINGS + 1];
    for (uint32_t b = 0; b <= count; b++)
        types[b] = b < count ? VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    struct vkmm_test_compute c = vkmm_test_compute_create_typed(t, name, count + 1, types, 0, NULL);
    struct vkmm_test_buffer result = vkmm_test_buffer_create(t, floats * 4, HOST);
    memset(result.mapped, 0xff, floats * 4);
    VkDescriptorImageInfo images[MAX_BINDINGS];
    VkWriteDescriptorSet writes[MAX_BINDINGS];
    for (uint32_t b = 0; b < count; b++) {
        images[b] = (VkDescriptorImageInfo){ samplers[b], image->view, VK_IMAGE_LAYOUT_GENERAL };
        writes[b] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = c.set,
                                            .dstBinding = b, .descriptorCount = 1,
                                            .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                            .pImageInfo = &images[b] };
    }
    vkUpdateDescriptorSets(t->device, count, writes, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &c, count, result.buffer, 0, VK_WHOLE_SIZE);

    struct vkmm_test_buffer staging = { 0 };
    VkCommandBuffer cmd = vkmm_test_begin(t);
    if (image->aspect == VK_IMAGE_ASPECT_DEPTH_BIT)
        host_upload(t, cmd, image, value);
    else
        upload(t, cmd, image, value, &staging);
    vkmm_test_compute_dispatch(&c, cmd, NULL, 0, 1, 1, 1);
    vkmm_test_compute_to_host_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(out, result.mapped, floats * 4);

    vkmm_test_buffer_destroy(t, &staging);
    vkmm_test_buffer_destroy(t, &result);
    vkmm_test_compute_destroy(t, &c);
}

static void expect(const float *actual, const float *expected, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        if (fabsf(actual[i] - expected[i]) > 1e-3f)
            fail_msg("value %u: %f, expected %f", i, actual[i], expected[i]);
}

/* Level 0: 10 + x; levels 1-3: 20, 30, 40. */
static float mip_value(uint32_t level, uint32_t layer, uint32_t x, uint32_t y)
{
    (void)layer, (void)y;
    return level ? 10.0f * (float)(level + 1) : 10.0f + (float)x;
}

static void test_mip_levels(void **state)
{
    struct vkmm_test *t = *state;
    struct image image = make_float_image(t, 8, 4, 1, false, false);
    VkSampler samplers[4] = {
        make_sampler(t, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, 0.0f, VK_LOD_CLAMP_NONE, 0.0f),
        make_sampler(t, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR, 0.0f, VK_LOD_CLAMP_NONE, 0.0f),
        make_sampler(t, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, 1.0f, 2.0f, 0.0f),
        make_sampler(t, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, 0.0f, VK_LOD_CLAMP_NONE, 1.0f),
    };
    float out[25];
    run(t, "image_mips", &image, mip_value, samplers, 4, out, 25);
    const float expected[25] = {
        10, 20, 30, 40, 0,    /* texelFetch per level; no level 4 */
        20, 20, 0,            /* level 1: inside, its last texel, outside */
        13,                   /* texelFetchOffset */
        4, 2,                 /* textureQueryLevels, textureSize(level 2) */
        12, 20, 30, 40, 12,   /* textureLod nearest: 0, 1.4, 1.6, 10, -1 */
        16, 32.5f, 40,        /* mipmap linear: 0.5, 2.25, 3.5 */
        20, 30,               /* textureGrad: lod 1, lod 2 */
        20, 30,               /* minLod 1, maxLod 2 */
        20,                   /* mipLodBias 1 */
        14,                   /* textureLodOffset */
    };
    expect(out, expected, 25);
    for (int i = 0; i < 4; i++)
        vkDestroySampler(t->device, samplers[i], NULL);
    free_image(t, &image);
}

/* Face f: 100 (f + 1) + 4 y + x. */
static float cube_value(uint32_t level, uint32_t layer, uint32_t x, uint32_t y)
{
    (void)level;
    return 100.0f * (float)(layer + 1) + 4.0f * (float)y + (float)x;
}

static void test_cube_faces_and_seamless_edges(void **state)
{
    struct vkmm_test *t = *state;
    struct image image = make_float_image(t, 4, 1, 6, true, false);
    VkSampler samplers[2] = {
        make_sampler(t, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, 0.0f, 0.0f, 0.0f),
        make_sampler(t, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST, 0.0f, 0.0f, 0.0f),
    };
    float out[12];
    run(t, "image_cube", &image, cube_value, samplers, 2, out, 12);
    /* The edge samples, a quarter each: +Z texels (3,1) and (3,2) and
     * across the edge +X texels (0,1) and (0,2); +Z texels (1,0) and (2,0)
     * and +Y texels (1,3) and (2,3). */
    const float expected[10] = { 105, 206, 307, 410, 511, 604, 606, (507 + 511 + 104 + 108) / 4.0f, 4,
                                 (501 + 502 + 313 + 314) / 4.0f };
    expect(out, expected, 10);
    for (int i = 10; i < 12; i++)
        if (!(out[i] >= 100.0f && out[i] <= 615.0f))
            fail_msg("value %d: %f is no texel of the cube", i, out[i]);
    for (int i = 0; i < 2; i++)
        vkDestroySampler(t->device, samplers[i], NULL);
    free_image(t, &image);
}

static void test_cube_array(void **state)
{
    struct vkmm_test *t = *state;
    struct image image = make_float_image(t, 4, 1, 12, true, false);
    VkSampler sampler = make_sampler(t, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, 0.0f, 0.0f, 0.0f);
    float out[5];
    run(t, "image_cube_array", &image, cube_value, &sampler, 1, out, 5);
    const float expected[5] = { 105, 705, 1204, 1204, 2 };
    expect(out, expected, 5);
    vkDestroySampler(t->device, sampler, NULL);
    free_image(t, &image);
}

/* 4 y + x. */
static float gather_value(uint32_t level, uint32_t layer, uint32_t x, uint32_t y)
{
    (void)level, (void)layer;
    return 4.0f * (float)y + (float)x;
}

static void test_gather(void **state)
{
    struct vkmm_test *t = *state;
    struct image image = make_float_image(t, 4, 1, 1, false, false);
    VkSampler sampler = make_sampler(t, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, 0.0f, 0.0f, 0.0f);
    float out[12];
    run(t, "image_gather", &image, gather_value, &sampler, 1, out, 12);
    const float expected[12] = { 9, 10, 6, 5, 0, 0, 0, 0, 0, 1, 1, 0 };
    expect(out, expected, 12);
    vkDestroySampler(t->device, sampler, NULL);
    free_image(t, &image);
}

static float depth_value(uint32_t level, uint32_t layer, uint32_t x, uint32_t y)
{
    (void)level, (void)layer, (void)y;
    return 0.25f * (float)x;
}

/* A D32_SFLOAT image sampled with depth comparison (nearest, linear, Proj
 * and gather) and without; expected values in image_depth_compare.comp. */
static void test_depth_compare(void **state)
{
    struct vkmm_test *t = *state;
    struct image image = make_float_image(t, 4, 1, 1, false, true);
    VkSampler samplers[3] = {
        make_compare_sampler(t, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, 0.0f, 0.0f, 0.0f, true,
                             VK_COMPARE_OP_LESS),
        make_compare_sampler(t, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST, 0.0f, 0.0f, 0.0f, true,
                             VK_COMPARE_OP_LESS),
        make_sampler(t, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, 0.0f, 0.0f, 0.0f),
    };
    float out[13];
    run(t, "image_depth_compare", &image, depth_value, samplers, 3, out, 13);
    const float expected[13] = { 0, 0, 1, 1, 0.5f, 0.5f, 1, 1, 0, 1, 1, 0, 0 };
    expect(out, expected, 13);
    for (uint32_t i = 0; i < 3; i++)
        vkDestroySampler(t->device, samplers[i], NULL);
    free_image(t, &image);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_mip_levels, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_cube_faces_and_seamless_edges, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_cube_array, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_gather, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_depth_compare, vkmm_test_setup, vkmm_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
