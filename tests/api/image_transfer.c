/* Images through the loader: vkCmdClearColorImage, vkCmdCopyBufferToImage(2),
 * vkCmdCopyImageToBuffer(2) and vkCmdCopyImage(2) move the right texels
 * between mip levels, layers and regions, with image barriers (layout
 * transitions) between them; vkCmdBlitImage(2) scales, mirrors, filters and
 * converts; vkGetImageSubresourceLayout describes linear images; invalid
 * creation arguments give errors, not crashes. */
#include <string.h>

#include "vkmm_test.h"

struct test_image {
    VkImage image;
    VkDeviceMemory memory;
};

static struct test_image image_create(struct vkmm_test *t, VkFormat format, VkImageType type, VkExtent3D extent,
                                      uint32_t levels, uint32_t layers, VkImageTiling tiling)
{
    struct test_image out = { 0 };
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = type,
        .format = format,
        .extent = extent,
        .mipLevels = levels,
        .arrayLayers = layers,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = tiling,
        .usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    VK_CHECK(vkCreateImage(t->device, &info, NULL, &out.image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(t->device, out.image, &req);
    assert_true(req.size >= (VkDeviceSize)extent.width * extent.height * extent.depth * layers);
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = vkmm_test_find_memory_type(t, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0),
    };
    assert_true(req.memoryTypeBits & (1u << alloc.memoryTypeIndex));
    VK_CHECK(vkAllocateMemory(t->device, &alloc, NULL, &out.memory));
    VK_CHECK(vkBindImageMemory(t->device, out.image, out.memory, 0));
    return out;
}

static void image_destroy(struct vkmm_test *t, struct test_image *image)
{
    vkDestroyImage(t->device, image->image, NULL);
    vkFreeMemory(t->device, image->memory, NULL);
}

/* An image barrier covering every subresource. */
static void transition(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to)
{
    vkmm_test_image_barrier(cmd, &(struct vkmm_test_image_barrier){
                                     .image = image, .from = from, .to = to,
                                     .src_stage = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                                     .src_access = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                     .dst_stage = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                                     .dst_access = VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT });
}

/* A clear of two levels and two layers, a padded buffer region into layer
 * 1, and both levels read back: every texel is the clear colour except the
 * region's. */
static void test_image_clear_and_buffer_copies(void **state)
{
    struct vkmm_test *t = *state;
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct test_image image = image_create(t, VK_FORMAT_R8G8B8A8_UINT, VK_IMAGE_TYPE_2D, (VkExtent3D){ 8, 4, 1 }, 2,
                                           2, VK_IMAGE_TILING_OPTIMAL);
    struct vkmm_test_buffer upload = vkmm_test_buffer_create(t, 4 * 4 * 2, host);
    struct vkmm_test_buffer readback = vkmm_test_buffer_create(t, 4 * (8 * 4 * 2 + 4 * 2 * 2), host);
    uint32_t *in = upload.mapped;
    for (uint32_t i = 0; i < 8; i++)
        in[i] = 0xC0000000u + i; /* 2 rows of bufferRowLength 4, 3 texels used per row */
    memset(readback.mapped, 0xEE, readback.size);

    VkCommandBuffer cmd = vkmm_test_begin(t);
    transition(cmd, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    VkClearColorValue color = { .uint32 = { 1, 2, 3, 4 } };
    VkImageSubresourceRange all = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 2, 0, 2 };
    vkCmdClearColorImage(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &all);
    transition(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    VkBufferImageCopy region = {
        .bufferOffset = 0,
        .bufferRowLength = 4,
        .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 1 },
        .imageOffset = { 2, 1, 0 },
        .imageExtent = { 3, 2, 1 },
    };
    vkCmdCopyBufferToImage(cmd, upload.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    transition(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    VkBufferImageCopy2 back[2] = {
        { .sType = VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2,
          .bufferOffset = 0,
          .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2 },
          .imageExtent = { 8, 4, 1 } },
        { .sType = VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2,
          .bufferOffset = 4 * 8 * 4 * 2,
          .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 2 },
          .imageExtent = { 4, 2, 1 } },
    };
    VkCopyImageToBufferInfo2 copy = {
        .sType = VK_STRUCTURE_TYPE_COPY_IMAGE_TO_BUFFER_INFO_2,
        .srcImage = image.image,
        .srcImageLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        .dstBuffer = readback.buffer,
        .regionCount = 2,
        .pRegions = back,
    };
    vkCmdCopyImageToBuffer2(cmd, &copy);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    const uint32_t *out = readback.mapped;
    const uint32_t clear = 0x04030201u;
    for (uint32_t layer = 0; layer < 2; layer++)
        for (uint32_t y = 0; y < 4; y++)
            for (uint32_t x = 0; x < 8; x++) {
                uint32_t expected = clear;
                if (layer == 1 && x >= 2 && x < 5 && y >= 1 && y < 3)
                    expected = 0xC0000000u + (y - 1) * 4 + (x - 2);
                assert_int_equal(out[(layer * 4 + y) * 8 + x], expected);
            }
    for (uint32_t i = 0; i < 4 * 2 * 2; i++)
        assert_int_equal(out[8 * 4 * 2 + i], clear);
    vkmm_test_buffer_destroy(t, &upload);
    vkmm_test_buffer_destroy(t, &readback);
    image_destroy(t, &image);
}

/* vkCmdCopyImage between a 2D array and a 3D image: layers become depth
 * slices, and only the region moves. */
static void test_image_to_image_copy(void **state)
{
    struct vkmm_test *t = *state;
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct test_image src = image_create(t, VK_FORMAT_R32_UINT, VK_IMAGE_TYPE_2D, (VkExtent3D){ 4, 4, 1 }, 1, 2,
                                         VK_IMAGE_TILING_OPTIMAL);
    struct test_image dst = image_create(t, VK_FORMAT_R32_SFLOAT, VK_IMAGE_TYPE_3D, (VkExtent3D){ 4, 4, 4 }, 1, 1,
                                         VK_IMAGE_TILING_OPTIMAL);
    struct vkmm_test_buffer io = vkmm_test_buffer_create(t, 4 * 4 * 4 * 4, host);
    uint32_t *words = io.mapped;
    for (uint32_t i = 0; i < 32; i++)
        words[i] = 1000 + i;

    VkCommandBuffer cmd = vkmm_test_begin(t);
    transition(cmd, src.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
    transition(cmd, dst.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
    VkBufferImageCopy up = { .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2 }, .imageExtent = { 4, 4, 1 } };
    vkCmdCopyBufferToImage(cmd, io.buffer, src.image, VK_IMAGE_LAYOUT_GENERAL, 1, &up);
    VkClearColorValue zero = { .float32 = { 0 } };
    VkImageSubresourceRange all = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 };
    vkCmdClearColorImage(cmd, dst.image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &all);
    vkmm_test_full_barrier(cmd);
    VkImageCopy region = {
        .srcSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2 },
        .srcOffset = { 1, 1, 0 },
        .dstSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
        .dstOffset = { 0, 2, 1 },
        .extent = { 2, 2, 2 }, /* depth = the source's layer count (VUID-vkCmdCopyImage-srcImage-01791) */
    };
    vkCmdCopyImage(cmd, src.image, VK_IMAGE_LAYOUT_GENERAL, dst.image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
    transition(cmd, dst.image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL);
    VkBufferImageCopy down = { .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
                               .imageExtent = { 4, 4, 4 } };
    vkCmdCopyImageToBuffer(cmd, dst.image, VK_IMAGE_LAYOUT_GENERAL, io.buffer, 1, &down);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    for (uint32_t z = 0; z < 4; z++)
        for (uint32_t y = 0; y < 4; y++)
            for (uint32_t x = 0; x < 4; x++) {
                uint32_t expected = 0;
                if (z >= 1 && z < 3 && y >= 2 && x < 2)
                    expected = 1000 + (z - 1) * 16 + (y - 1) * 4 + (x + 1);
                assert_int_equal(words[(z * 4 + y) * 4 + x], expected);
            }
    vkmm_test_buffer_destroy(t, &io);
    image_destroy(t, &src);
    image_destroy(t, &dst);
}

static void test_image_subresource_layout(void **state)
{
    struct vkmm_test *t = *state;
    struct test_image image = image_create(t, VK_FORMAT_R32_UINT, VK_IMAGE_TYPE_2D, (VkExtent3D){ 4, 3, 1 }, 2, 2,
                                           VK_IMAGE_TILING_LINEAR);
    VkSubresourceLayout layout;
    VkImageSubresource sub = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1 };
    vkGetImageSubresourceLayout(t->device, image.image, &sub, &layout);
    assert_int_equal(layout.rowPitch, 16);
    assert_int_equal(layout.arrayPitch, 48);
    assert_int_equal(layout.offset, 48);
    assert_int_equal(layout.size, 48);
    sub = (VkImageSubresource){ VK_IMAGE_ASPECT_COLOR_BIT, 1, 0 };
    vkGetImageSubresourceLayout(t->device, image.image, &sub, &layout);
    assert_int_equal(layout.rowPitch, 8);
    assert_int_equal(layout.offset, 96);
    image_destroy(t, &image);
}

/* Without the validation layer (the calls are invalid): errors, no crash. */
static void test_image_invalid_arguments(void **state)
{
    (void)state;
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = VK_FORMAT_BC1_RGB_UNORM_BLOCK, /* no compressed formats */
        .extent = { 4, 4, 1 },
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT,
    };
    VkImage image = VK_NULL_HANDLE;
    t->expected_errors = 4;
    assert_int_not_equal(vkCreateImage(t->device, &info, NULL, &image), VK_SUCCESS);
    info.format = VK_FORMAT_R8_UNORM;
    info.mipLevels = 4; /* a 4x4 image has 3 */
    assert_int_not_equal(vkCreateImage(t->device, &info, NULL, &image), VK_SUCCESS);
    info.mipLevels = 1;
    info.extent.width = 1u << 20;
    assert_int_not_equal(vkCreateImage(t->device, &info, NULL, &image), VK_SUCCESS);
    info.extent.width = 4;
    VK_CHECK(vkCreateImage(t->device, &info, NULL, &image));
    /* A view of an unbound image. */
    VkImageViewCreateInfo view_info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = VK_FORMAT_R8_UNORM,
        .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
    };
    VkImageView view;
    assert_int_not_equal(vkCreateImageView(t->device, &view_info, NULL, &view), VK_SUCCESS);
    assert_int_equal(t->driver_errors, 4);
    vkDestroyImage(t->device, image, NULL);
    vkmm_test_destroy(t);
}

/* --- Blits ---------------------------------------------------------------------------- */

/* vkCmdBlitImage needs a graphics queue (VUID-vkCmdBlitImage-commandBuffer-cmdpool),
 * which vkmm has none of; it runs blits on its compute queue with that
 * message (the required format features include BLIT_SRC and BLIT_DST).
 * So these tests run without the validation layer and expect the message. */
struct blit_case {
    VkFormat src_format, dst_format;
    VkExtent3D src_extent, dst_extent;
    uint32_t src_texel, dst_texel; /* bytes */
    const void *src_data;
    VkImageBlit region;
    VkFilter filter;
    VkImageAspectFlags aspect; /* of both images' copies: 0 for COLOR */
};

/* Uploads the source, blits it into a fresh destination and reads the
 * destination back into `out` (dst_extent texels). */
static void blit_run(struct vkmm_test *t, const struct blit_case *c, void *out)
{
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct test_image src = image_create(t, c->src_format, VK_IMAGE_TYPE_2D, c->src_extent, 1, 1,
                                         VK_IMAGE_TILING_OPTIMAL);
    struct test_image dst = image_create(t, c->dst_format, VK_IMAGE_TYPE_2D, c->dst_extent, 1, 1,
                                         VK_IMAGE_TILING_OPTIMAL);
    VkDeviceSize in_size = (VkDeviceSize)c->src_extent.width * c->src_extent.height * c->src_texel;
    VkDeviceSize out_size = (VkDeviceSize)c->dst_extent.width * c->dst_extent.height * c->dst_texel;
    struct vkmm_test_buffer upload = vkmm_test_buffer_create(t, in_size, host);
    struct vkmm_test_buffer readback = vkmm_test_buffer_create(t, out_size, host);
    memcpy(upload.mapped, c->src_data, in_size);
    memset(readback.mapped, 0xEE, out_size);

    VkCommandBuffer cmd = vkmm_test_begin(t);
    transition(cmd, src.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    transition(cmd, dst.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    VkBufferImageCopy whole = { .imageSubresource = { c->aspect ? c->aspect : VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
                                .imageExtent = c->src_extent };
    vkCmdCopyBufferToImage(cmd, upload.buffer, src.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &whole);
    transition(cmd, src.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    vkCmdBlitImage(cmd, src.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst.image,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &c->region, c->filter);
    transition(cmd, dst.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    whole.imageExtent = c->dst_extent;
    vkCmdCopyImageToBuffer(cmd, dst.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &whole);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(out, readback.mapped, out_size);

    vkmm_test_buffer_destroy(t, &upload);
    vkmm_test_buffer_destroy(t, &readback);
    image_destroy(t, &src);
    image_destroy(t, &dst);
}

static struct vkmm_test *blit_test_create(uint32_t blits)
{
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    t->expected_errors = blits;
    return t;
}

static VkImageBlit whole_blit(VkExtent3D src, VkOffset3D dst0, VkOffset3D dst1)
{
    return (VkImageBlit){
        .srcSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
        .srcOffsets = { { 0, 0, 0 }, { (int32_t)src.width, (int32_t)src.height, 1 } },
        .dstSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
        .dstOffsets = { dst0, dst1 },
    };
}

/* A 2x linear minification: each destination texel is the mean of its 2x2
 * source block. */
static void test_blit_linear_minify(void **state)
{
    (void)state;
    struct vkmm_test *t = blit_test_create(1);
    uint8_t in[4 * 4 * 4];
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            uint8_t *texel = &in[(y * 4 + x) * 4];
            texel[0] = (uint8_t)(20 * x + 40 * y);
            texel[1] = 0;
            texel[2] = (uint8_t)(200 - 10 * x);
            texel[3] = 255;
        }
    struct blit_case c = {
        .src_format = VK_FORMAT_R8G8B8A8_UNORM, .dst_format = VK_FORMAT_R8G8B8A8_UNORM,
        .src_extent = { 4, 4, 1 }, .dst_extent = { 2, 2, 1 }, .src_texel = 4, .dst_texel = 4,
        .src_data = in, .filter = VK_FILTER_LINEAR,
        .region = whole_blit((VkExtent3D){ 4, 4, 1 }, (VkOffset3D){ 0, 0, 0 }, (VkOffset3D){ 2, 2, 1 }),
    };
    uint8_t out[2 * 2 * 4];
    blit_run(t, &c, out);
    for (uint32_t j = 0; j < 2; j++)
        for (uint32_t i = 0; i < 2; i++) {
            const uint8_t *texel = &out[(j * 2 + i) * 4];
            int mean_r = 40 * (int)i + 80 * (int)j + 30, mean_b = 200 - 20 * (int)i - 5;
            assert_in_range(texel[0], mean_r - 1, mean_r + 1);
            assert_int_equal(texel[1], 0);
            assert_in_range(texel[2], mean_b - 1, mean_b + 1);
            assert_int_equal(texel[3], 255);
        }
    assert_non_null(strstr(t->message_ids, "VUID-vkCmdBlitImage2-commandBuffer-cmdpool"));
    vkmm_test_destroy(t);
}

/* Nearest magnification into swapped destination corners: the image is
 * doubled and mirrored left to right. */
static void test_blit_nearest_mirror_magnify(void **state)
{
    (void)state;
    struct vkmm_test *t = blit_test_create(1);
    const uint32_t in[4] = { 1, 2, 3, 4 }; /* 2x2 */
    struct blit_case c = {
        .src_format = VK_FORMAT_R32_UINT, .dst_format = VK_FORMAT_R32_UINT,
        .src_extent = { 2, 2, 1 }, .dst_extent = { 4, 4, 1 }, .src_texel = 4, .dst_texel = 4,
        .src_data = in, .filter = VK_FILTER_NEAREST,
        .region = whole_blit((VkExtent3D){ 2, 2, 1 }, (VkOffset3D){ 4, 0, 0 }, (VkOffset3D){ 0, 4, 1 }),
    };
    uint32_t out[16];
    blit_run(t, &c, out);
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++)
            assert_int_equal(out[y * 4 + x], in[(y / 2) * 2 + (1 - x / 2)]);
    vkmm_test_destroy(t);
}

/* Format conversion: integers clamp to the narrower format's range, floats
 * round to half precision. */
static void test_blit_converts_formats(void **state)
{
    (void)state;
    struct vkmm_test *t = blit_test_create(2);
    const uint32_t wide[4] = { 5, 255, 256, 70000 };
    struct blit_case c = {
        .src_format = VK_FORMAT_R32_UINT, .dst_format = VK_FORMAT_R8_UINT,
        .src_extent = { 4, 1, 1 }, .dst_extent = { 4, 1, 1 }, .src_texel = 4, .dst_texel = 1,
        .src_data = wide, .filter = VK_FILTER_NEAREST,
        .region = whole_blit((VkExtent3D){ 4, 1, 1 }, (VkOffset3D){ 0, 0, 0 }, (VkOffset3D){ 4, 1, 1 }),
    };
    uint8_t narrow[4];
    blit_run(t, &c, narrow);
    assert_int_equal(narrow[0], 5);
    assert_int_equal(narrow[1], 255);
    assert_int_equal(narrow[2], 255);
    assert_int_equal(narrow[3], 255);

    const float floats[4] = { 0.5f, -2.0f, 100.0f, 3.25f };
    c.src_format = VK_FORMAT_R32_SFLOAT;
    c.dst_format = VK_FORMAT_R16_SFLOAT;
    c.dst_texel = 2;
    c.src_data = floats;
    uint16_t halves[4];
    blit_run(t, &c, halves);
    assert_int_equal(halves[0], 0x3800);
    assert_int_equal(halves[1], 0xC000);
    assert_int_equal(halves[2], 0x5640);
    assert_int_equal(halves[3], 0x4280);
    vkmm_test_destroy(t);
}

/* A depth image blits to its own format, nearest: a mirrored D16_UNORM
 * row keeps every value exactly.  (Buffer copies of the depth aspect need
 * a graphics queue too; this test runs without the validation layer.) */
static void test_blit_depth(void **state)
{
    (void)state;
    struct vkmm_test *t = blit_test_create(2); /* the blit's queue message, the refusal below */
    const uint16_t in[4] = { 0, 1000, 40000, 65535 };
    VkImageBlit region = whole_blit((VkExtent3D){ 4, 1, 1 }, (VkOffset3D){ 4, 0, 0 }, (VkOffset3D){ 0, 1, 1 });
    region.srcSubresource.aspectMask = region.dstSubresource.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
    struct blit_case c = {
        .src_format = VK_FORMAT_D16_UNORM, .dst_format = VK_FORMAT_D16_UNORM,
        .src_extent = { 4, 1, 1 }, .dst_extent = { 4, 1, 1 }, .src_texel = 2, .dst_texel = 2,
        .src_data = in, .filter = VK_FILTER_NEAREST, .region = region, .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
    };
    uint16_t out[4];
    blit_run(t, &c, out);
    for (uint32_t i = 0; i < 4; i++)
        assert_int_equal(out[i], in[3 - i]);
    /* Linear filtering of depth is refused. */
    assert_int_equal(t->driver_errors, 0);
    c.filter = VK_FILTER_LINEAR;
    blit_run(t, &c, out);
    assert_int_equal(t->driver_errors, 1);
    vkmm_test_destroy(t);
}

/* An integer image cannot be blitted to a float one, nor filtered
 * linearly: the command is refused with a message and writes nothing. */
static void test_blit_invalid_formats(void **state)
{
    (void)state;
    struct vkmm_test *t = blit_test_create(2);
    const uint32_t in[4] = { 1, 2, 3, 4 };
    struct blit_case c = {
        .src_format = VK_FORMAT_R32_UINT, .dst_format = VK_FORMAT_R32_SFLOAT,
        .src_extent = { 2, 2, 1 }, .dst_extent = { 2, 2, 1 }, .src_texel = 4, .dst_texel = 4,
        .src_data = in, .filter = VK_FILTER_NEAREST,
        .region = whole_blit((VkExtent3D){ 2, 2, 1 }, (VkOffset3D){ 0, 0, 0 }, (VkOffset3D){ 2, 2, 1 }),
    };
    uint32_t out[4];
    blit_run(t, &c, out);
    assert_int_equal(t->driver_errors, 1);
    c.dst_format = VK_FORMAT_R32_UINT;
    c.filter = VK_FILTER_LINEAR;
    blit_run(t, &c, out);
    assert_int_equal(t->driver_errors, 2);
    assert_null(strstr(t->message_ids, "cmdpool")); /* refused before it would run */
    vkmm_test_destroy(t);
}

/* D32_SFLOAT_S8_UINT is a depth/stencil attachment: its views may name
 * the depth aspect, the stencil aspect or both, never COLOR (without the
 * validation layer: that call is invalid). */
static void test_depth_stencil_views(void **state)
{
    (void)state;
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .imageType = VK_IMAGE_TYPE_2D,
        .format = VK_FORMAT_D32_SFLOAT_S8_UINT, .extent = { 4, 4, 1 }, .mipLevels = 1, .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT, .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
    };
    VkImage image;
    VK_CHECK(vkCreateImage(t->device, &info, NULL, &image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(t->device, image, &req);
    VkMemoryAllocateInfo alloc = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
                                   .memoryTypeIndex = vkmm_test_find_memory_type(t, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0) };
    VkDeviceMemory memory;
    VK_CHECK(vkAllocateMemory(t->device, &alloc, NULL, &memory));
    VK_CHECK(vkBindImageMemory(t->device, image, memory, 0));
    const VkImageAspectFlags good[3] = { VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_ASPECT_STENCIL_BIT,
                                         VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT };
    VkImageViewCreateInfo view_info = { .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = image,
                                        .viewType = VK_IMAGE_VIEW_TYPE_2D, .format = VK_FORMAT_D32_SFLOAT_S8_UINT,
                                        .subresourceRange = { 0, 0, 1, 0, 1 } };
    VkImageView view;
    for (uint32_t i = 0; i < 3; i++) {
        view_info.subresourceRange.aspectMask = good[i];
        VK_CHECK(vkCreateImageView(t->device, &view_info, NULL, &view));
        vkDestroyImageView(t->device, view, NULL);
    }
    t->expected_errors = 1;
    view_info.subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    assert_int_not_equal(vkCreateImageView(t->device, &view_info, NULL, &view), VK_SUCCESS);
    assert_int_equal(t->driver_errors, 1);
    vkDestroyImage(t->device, image, NULL);
    vkFreeMemory(t->device, memory, NULL);
    vkmm_test_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_image_clear_and_buffer_copies, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_image_to_image_copy, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_image_subresource_layout, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test(test_image_invalid_arguments),
        cmocka_unit_test(test_blit_linear_minify),
        cmocka_unit_test(test_blit_nearest_mirror_magnify),
        cmocka_unit_test(test_blit_converts_formats),
        cmocka_unit_test(test_blit_invalid_formats),
        cmocka_unit_test(test_blit_depth),
        cmocka_unit_test(test_depth_stencil_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
