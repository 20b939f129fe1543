/* Recording of the image transfer commands.  Images are linear memory
 * (image.h), so every copy becomes the byte ranges it moves — one per row,
 * merged where rows are contiguous on both sides — recorded as a buffer
 * copy between the image's bytes and the buffer (or the other image), and a
 * clear becomes buffer updates with the encoded colour.  The executor,
 * the command footprints and strict mode's memory engine then see them as
 * they see buffer transfers (stages COPY and CLEAR). */
#include <stdlib.h>
#include <string.h>

#include "buffer.h"
#include "command_buffer.h"
#include "image.h"

/* The byte ranges of one command, merged as they are added. */
struct ranges {
    VkBufferCopy2 *items;
    uint32_t count, capacity;
    bool failed;
};

static void add_range(struct ranges *r, VkDeviceSize src, VkDeviceSize dst, VkDeviceSize size)
{
    if (r->count) {
        VkBufferCopy2 *last = &r->items[r->count - 1];
        if (last->srcOffset + last->size == src && last->dstOffset + last->size == dst) {
            last->size += size;
            return;
        }
    }
    if (r->count == r->capacity) {
        uint32_t capacity = r->capacity ? r->capacity * 2 : 16;
        VkBufferCopy2 *bigger = realloc(r->items, capacity * sizeof(*bigger));
        if (!bigger) {
            r->failed = true;
            return;
        }
        r->items = bigger;
        r->capacity = capacity;
    }
    r->items[r->count++] = (VkBufferCopy2){
        .sType = VK_STRUCTURE_TYPE_BUFFER_COPY_2, .srcOffset = src, .dstOffset = dst, .size = size };
}

static void record_ranges(struct vkmm_command_buffer *cmd, struct vkmm_buffer *src, struct vkmm_buffer *dst,
                          struct ranges *r)
{
    if (r->failed) {
        vkmm_command_buffer_reject(cmd, "image copy: out of host memory while recording (the copy is dropped)");
    } else if (r->count) {
        struct vkmm_command *command = vkmm_command_buffer_append(cmd, VKMM_COMMAND_COPY_BUFFER);
        if (command) {
            command->u.copy_buffer.src = src;
            command->u.copy_buffer.dst = dst;
            command->u.copy_buffer.region_count = r->count;
            command->u.copy_buffer.regions = vkmm_command_buffer_store(cmd, r->items, r->count * sizeof(*r->items));
        }
    }
    free(r->items);
}

static uint64_t blocks_of(uint64_t texels, uint32_t block)
{
    return (texels + block - 1) / block;
}

/* What is wrong with a region of `image` (texel offsets and extent at a
 * subresource), or NULL.  A copy's region of a compressed format
 * (`whole_blocks`) starts at a block and covers whole blocks (a partial
 * block at the level's edge is whole in memory); a blit reads any texels. */
static const char *check_subresource(const struct vkmm_image *image, const VkImageSubresourceLayers *sub,
                                     VkOffset3D offset, VkExtent3D extent, bool whole_blocks)
{
    if (!image->bytes.memory)
        return "the image is not bound to memory";
    if (sub->aspectMask != vkmm_image_aspect(image))
        return "the aspect mask must be the image's: DEPTH for a depth format, COLOR otherwise";
    if (sub->mipLevel >= image->levels)
        return "the mip level is outside the image";
    uint32_t layers = sub->layerCount == VK_REMAINING_ARRAY_LAYERS && sub->baseArrayLayer < image->layers
                          ? image->layers - sub->baseArrayLayer
                          : sub->layerCount;
    if (!layers || sub->baseArrayLayer >= image->layers || layers > image->layers - sub->baseArrayLayer)
        return "the array layers are outside the image";
    if (offset.x < 0 || offset.y < 0 || offset.z < 0)
        return "the region is outside the mip level";
    uint32_t bw = whole_blocks ? vkmm_texel_block_width(image->texel) : 1;
    uint32_t bh = whole_blocks ? vkmm_texel_block_height(image->texel) : 1;
    if ((uint32_t)offset.x % bw || (uint32_t)offset.y % bh)
        return "the region's offset is not a multiple of the compressed format's block size";
    VkExtent3D level = whole_blocks ? vkmm_image_level_blocks(image, sub->mipLevel)
                                    : vkmm_image_level_extent(image, sub->mipLevel);
    uint32_t x = (uint32_t)offset.x / bw, y = (uint32_t)offset.y / bh, z = (uint32_t)offset.z;
    uint32_t width = (uint32_t)blocks_of(extent.width, bw), height = (uint32_t)blocks_of(extent.height, bh);
    if (x > level.width || width > level.width - x || y > level.height || height > level.height - y ||
        z > level.depth || extent.depth > level.depth - z)
        return "the region is outside the mip level";
    return NULL;
}

/* --- Buffer <-> image ---------------------------------------------------------- */

/* Adds the rows of one buffer-image region; `to_image` orders the ranges. */
static const char *add_buffer_image_region(struct ranges *r, const struct vkmm_buffer *buffer,
                                           const struct vkmm_image *image, const VkBufferImageCopy2 *region,
                                           bool to_image)
{
    const char *problem = check_subresource(image, &region->imageSubresource, region->imageOffset,
                                            region->imageExtent, true);
    if (problem)
        return problem;
    if (!buffer->memory)
        return "the buffer is not bound to memory";
    if (image->samples != 1)
        return "a multisampled image copies only to and from images of its sample count";
    /* In blocks of a compressed format (texels otherwise): the buffer's
     * rows hold whole blocks, bufferRowLength and bufferImageHeight count
     * texels. */
    uint32_t bw = vkmm_texel_block_width(image->texel), bh = vkmm_texel_block_height(image->texel);
    VkExtent3D e = region->imageExtent;
    uint64_t texel = image->texel->size;
    uint64_t row_length = region->bufferRowLength ? region->bufferRowLength : e.width;
    uint64_t image_height = region->bufferImageHeight ? region->bufferImageHeight : e.height;
    if (row_length < e.width || image_height < e.height)
        return "bufferRowLength or bufferImageHeight is smaller than the extent";
    if (region->bufferOffset % texel)
        return "bufferOffset is not a multiple of the texel (block) size";
    uint32_t layers = vkmm_image_subresource_layers(image, &region->imageSubresource);
    uint64_t slices = (uint64_t)layers * e.depth;
    if (!e.width || !e.height || !e.depth)
        return NULL; /* nothing to copy */
    uint64_t width = blocks_of(e.width, bw), height = blocks_of(e.height, bh);
    row_length = blocks_of(row_length, bw);
    image_height = blocks_of(image_height, bh);
    uint64_t last = region->bufferOffset + (((slices - 1) * image_height + height - 1) * row_length + width) * texel;
    if (last > buffer->size)
        return "the region's buffer bytes run past the end of the buffer";
    for (uint32_t layer = 0; layer < layers; layer++) {
        for (uint32_t z = 0; z < e.depth; z++) {
            for (uint32_t y = 0; y < height; y++) {
                uint64_t slice = (uint64_t)layer * e.depth + z;
                VkDeviceSize at_buffer = region->bufferOffset + ((slice * image_height + y) * row_length) * texel;
                VkDeviceSize at_image = vkmm_image_texel_offset(
                    image, region->imageSubresource.mipLevel, region->imageSubresource.baseArrayLayer + layer,
                    (uint32_t)region->imageOffset.x, (uint32_t)region->imageOffset.y + y * bh,
                    (uint32_t)region->imageOffset.z + z);
                if (to_image)
                    add_range(r, at_buffer, at_image, width * texel);
                else
                    add_range(r, at_image, at_buffer, width * texel);
            }
        }
    }
    return NULL;
}

static void record_buffer_image(struct vkmm_command_buffer *cmd, const char *what, struct vkmm_buffer *buffer,
                                struct vkmm_image *image, uint32_t count, const VkBufferImageCopy2 *regions,
                                bool to_image)
{
    struct ranges r = { 0 };
    for (uint32_t i = 0; i < count; i++) {
        const char *problem = add_buffer_image_region(&r, buffer, image, &regions[i], to_image);
        if (problem) {
            vkmm_command_buffer_reject(cmd, "%s: region %u: %s", what, i, problem);
            free(r.items);
            return;
        }
    }
    if (to_image)
        record_ranges(cmd, buffer, &image->bytes, &r);
    else
        record_ranges(cmd, &image->bytes, buffer, &r);
}

static VkBufferImageCopy2 *convert_regions(struct vkmm_command_buffer *cmd, uint32_t count,
                                           const VkBufferImageCopy *in)
{
    VkBufferImageCopy2 *out = vkmm_command_buffer_store(cmd, NULL, count * sizeof(*out));
    for (uint32_t i = 0; out && i < count; i++)
        out[i] = (VkBufferImageCopy2){
            .sType = VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2,
            .bufferOffset = in[i].bufferOffset,
            .bufferRowLength = in[i].bufferRowLength,
            .bufferImageHeight = in[i].bufferImageHeight,
            .imageSubresource = in[i].imageSubresource,
            .imageOffset = in[i].imageOffset,
            .imageExtent = in[i].imageExtent,
        };
    return out;
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdCopyBufferToImage2(VkCommandBuffer commandBuffer,
                                                      const VkCopyBufferToImageInfo2 *pInfo)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    record_buffer_image(cmd, "vkCmdCopyBufferToImage", vkmm_buffer_from_handle(pInfo->srcBuffer),
                        vkmm_image_from_handle(pInfo->dstImage), pInfo->regionCount, pInfo->pRegions, true);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdCopyBufferToImage(VkCommandBuffer commandBuffer, VkBuffer srcBuffer,
                                                     VkImage dstImage, VkImageLayout dstImageLayout,
                                                     uint32_t regionCount, const VkBufferImageCopy *pRegions)
{
    (void)dstImageLayout;
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    VkBufferImageCopy2 *regions = convert_regions(cmd, regionCount, pRegions);
    if (regions || !regionCount)
        record_buffer_image(cmd, "vkCmdCopyBufferToImage", vkmm_buffer_from_handle(srcBuffer),
                            vkmm_image_from_handle(dstImage), regionCount, regions, true);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdCopyImageToBuffer2(VkCommandBuffer commandBuffer,
                                                      const VkCopyImageToBufferInfo2 *pInfo)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    record_buffer_image(cmd, "vkCmdCopyImageToBuffer", vkmm_buffer_from_handle(pInfo->dstBuffer),
                        vkmm_image_from_handle(pInfo->srcImage), pInfo->regionCount, pInfo->pRegions, false);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdCopyImageToBuffer(VkCommandBuffer commandBuffer, VkImage srcImage,
                                                     VkImageLayout srcImageLayout, VkBuffer dstBuffer,
                                                     uint32_t regionCount, const VkBufferImageCopy *pRegions)
{
    (void)srcImageLayout;
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    VkBufferImageCopy2 *regions = convert_regions(cmd, regionCount, pRegions);
    if (regions || !regionCount)
        record_buffer_image(cmd, "vkCmdCopyImageToBuffer", vkmm_buffer_from_handle(dstBuffer),
                            vkmm_image_from_handle(srcImage), regionCount, regions, false);
}

/* --- Image -> image ---------------------------------------------------------------- */

/* Slice s of a copy region: layer base + s of a 2D image, or depth slice
 * offset.z + s of a 3D one (the spec lets 3D and 2D-array images exchange
 * slices for layers). */
static void slice_of(const struct vkmm_image *image, const VkImageSubresourceLayers *sub, VkOffset3D offset,
                     uint32_t s, uint32_t *layer, uint32_t *z)
{
    bool is_3d = image->type == VK_IMAGE_TYPE_3D;
    *layer = sub->baseArrayLayer + (is_3d ? 0 : s);
    *z = (uint32_t)offset.z + (is_3d ? s : 0);
}

/* The extent is in the source's texels; a compressed image and an
 * uncompressed one of its block's size exchange one block for one texel
 * (the spec's size-compatible formats), so the copy moves rows of blocks. */
static const char *add_image_region(struct ranges *r, const struct vkmm_image *src, const struct vkmm_image *dst,
                                    const VkImageCopy2 *region)
{
    VkExtent3D e = region->extent;
    bool src_3d = src->type == VK_IMAGE_TYPE_3D, dst_3d = dst->type == VK_IMAGE_TYPE_3D;
    uint32_t sbw = vkmm_texel_block_width(src->texel), sbh = vkmm_texel_block_height(src->texel);
    uint32_t dbw = vkmm_texel_block_width(dst->texel), dbh = vkmm_texel_block_height(dst->texel);
    uint32_t width = (uint32_t)blocks_of(e.width, sbw), height = (uint32_t)blocks_of(e.height, sbh);
    uint32_t slices = src_3d ? e.depth : vkmm_image_subresource_layers(src, &region->srcSubresource);
    VkExtent3D src_extent = { e.width, e.height, src_3d ? e.depth : 1 };
    VkExtent3D dst_extent = { width * dbw, height * dbh, dst_3d ? slices : 1 };
    if (sbw == dbw && sbh == dbh)
        dst_extent.width = e.width, dst_extent.height = e.height;
    const char *problem = check_subresource(src, &region->srcSubresource, region->srcOffset, src_extent, true);
    if (!problem)
        problem = check_subresource(dst, &region->dstSubresource, region->dstOffset, dst_extent, true);
    if (problem)
        return problem;
    if (src->texel->size != dst->texel->size)
        return "the images' formats have different texel (block) sizes";
    if (src->samples != dst->samples)
        return "the images have different sample counts";
    if (!dst_3d && vkmm_image_subresource_layers(dst, &region->dstSubresource) != slices)
        return "the source and destination have different numbers of layers or slices";
    for (uint32_t s = 0; s < slices; s++) {
        uint32_t src_layer, src_z, dst_layer, dst_z;
        slice_of(src, &region->srcSubresource, region->srcOffset, s, &src_layer, &src_z);
        slice_of(dst, &region->dstSubresource, region->dstOffset, s, &dst_layer, &dst_z);
        for (uint32_t y = 0; y < height; y++) {
            VkDeviceSize from = vkmm_image_texel_offset(src, region->srcSubresource.mipLevel, src_layer,
                                                        (uint32_t)region->srcOffset.x,
                                                        (uint32_t)region->srcOffset.y + y * sbh, src_z);
            VkDeviceSize to = vkmm_image_texel_offset(dst, region->dstSubresource.mipLevel, dst_layer,
                                                      (uint32_t)region->dstOffset.x,
                                                      (uint32_t)region->dstOffset.y + y * dbh, dst_z);
            add_range(r, from, to, (VkDeviceSize)width * vkmm_image_element_size(src));
        }
    }
    return NULL;
}

static void record_image_copy(struct vkmm_command_buffer *cmd, struct vkmm_image *src, struct vkmm_image *dst,
                              uint32_t count, const VkImageCopy2 *regions)
{
    struct ranges r = { 0 };
    for (uint32_t i = 0; i < count; i++) {
        const char *problem = add_image_region(&r, src, dst, &regions[i]);
        if (problem) {
            vkmm_command_buffer_reject(cmd, "vkCmdCopyImage: region %u: %s", i, problem);
            free(r.items);
            return;
        }
    }
    record_ranges(cmd, &src->bytes, &dst->bytes, &r);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdCopyImage2(VkCommandBuffer commandBuffer, const VkCopyImageInfo2 *pInfo)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    record_image_copy(cmd, vkmm_image_from_handle(pInfo->srcImage), vkmm_image_from_handle(pInfo->dstImage),
                      pInfo->regionCount, pInfo->pRegions);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdCopyImage(VkCommandBuffer commandBuffer, VkImage srcImage,
                                             VkImageLayout srcImageLayout, VkImage dstImage,
                                             VkImageLayout dstImageLayout, uint32_t regionCount,
                                             const VkImageCopy *pRegions)
{
    (void)srcImageLayout, (void)dstImageLayout;
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    VkImageCopy2 *regions = vkmm_command_buffer_store(cmd, NULL, regionCount * sizeof(*regions));
    if (!regions && regionCount)
        return;
    for (uint32_t i = 0; i < regionCount; i++)
        regions[i] = (VkImageCopy2){
            .sType = VK_STRUCTURE_TYPE_IMAGE_COPY_2,
            .srcSubresource = pRegions[i].srcSubresource,
            .srcOffset = pRegions[i].srcOffset,
            .dstSubresource = pRegions[i].dstSubresource,
            .dstOffset = pRegions[i].dstOffset,
            .extent = pRegions[i].extent,
        };
    record_image_copy(cmd, vkmm_image_from_handle(srcImage), vkmm_image_from_handle(dstImage), regionCount, regions);
}

/* --- Blit -------------------------------------------------------------------------- */

static VkOffset3D corner_min(const VkOffset3D o[2])
{
    return (VkOffset3D){ o[0].x < o[1].x ? o[0].x : o[1].x, o[0].y < o[1].y ? o[0].y : o[1].y,
                         o[0].z < o[1].z ? o[0].z : o[1].z };
}

static VkExtent3D corner_extent(const VkOffset3D o[2])
{
    return (VkExtent3D){ (uint32_t)abs(o[1].x - o[0].x), (uint32_t)abs(o[1].y - o[0].y),
                         (uint32_t)abs(o[1].z - o[0].z) };
}

/* A 1D or 2D image's region spans z 0..1, and a 1D one's y 0..1
 * (VUID-VkImageBlit2-srcImage-00245, -00247). */
static bool flat_axes_ok(const struct vkmm_image *image, const VkOffset3D o[2])
{
    if (image->type != VK_IMAGE_TYPE_3D && (o[0].z != 0 || o[1].z != 1))
        return false;
    return image->type != VK_IMAGE_TYPE_1D || (o[0].y == 0 && o[1].y == 1);
}

static const char *check_blit_region(const struct vkmm_image *src, const struct vkmm_image *dst,
                                     const VkImageBlit2 *r)
{
    const char *problem = check_subresource(src, &r->srcSubresource, corner_min(r->srcOffsets),
                                            corner_extent(r->srcOffsets), false);
    if (!problem)
        problem = check_subresource(dst, &r->dstSubresource, corner_min(r->dstOffsets),
                                    corner_extent(r->dstOffsets), false);
    if (problem)
        return problem;
    if (!flat_axes_ok(src, r->srcOffsets) || !flat_axes_ok(dst, r->dstOffsets))
        return "the offsets of a 1D or 2D image must span y (1D) and z 0..1";
    if (src->samples != 1 || dst->samples != 1)
        return "multisampled images cannot be blitted";
    uint32_t src_layers =
        src->type == VK_IMAGE_TYPE_3D ? 1 : vkmm_image_subresource_layers(src, &r->srcSubresource);
    uint32_t dst_layers =
        dst->type == VK_IMAGE_TYPE_3D ? 1 : vkmm_image_subresource_layers(dst, &r->dstSubresource);
    if (src_layers != dst_layers)
        return "the source and destination have different numbers of layers";
    return NULL;
}

/* Integer formats blit only to integer formats of the same signedness
 * (VUID-vkCmdBlitImage2-srcImage-00229, -00230, -00231). */
static const char *check_blit_formats(const struct vkmm_image *src, const struct vkmm_image *dst, VkFilter filter)
{
    /* Depth images blit to their own format, nearest only (-00232, -00233). */
    if ((src->texel->depth || dst->texel->depth) && (src->format != dst->format || filter != VK_FILTER_NEAREST))
        return "a depth image blits only to an image of its own format, with VK_FILTER_NEAREST";
    /* Compressed formats are BLIT_SRC only (format_properties.c). */
    if (vkmm_texel_format_is_compressed(dst->texel))
        return "a compressed format cannot be a blit's destination (no BLIT_DST)";
    bool src_float = vkmm_texel_format_is_float(src->texel), dst_float = vkmm_texel_format_is_float(dst->texel);
    if (src_float != dst_float || (!src_float && src->texel->kind != dst->texel->kind))
        return "an integer format blits only to an integer format of the same signedness";
    if (filter == VK_FILTER_LINEAR && !src_float)
        return "VK_FILTER_LINEAR needs a format with SAMPLED_IMAGE_FILTER_LINEAR (not an integer format)";
    if (filter != VK_FILTER_NEAREST && filter != VK_FILTER_LINEAR)
        return "the filter must be VK_FILTER_NEAREST or VK_FILTER_LINEAR (no cubic filtering)";
    return NULL;
}

static void record_blit(struct vkmm_command_buffer *cmd, struct vkmm_image *src, struct vkmm_image *dst,
                        uint32_t count, const VkImageBlit2 *regions, VkFilter filter)
{
    const char *problem = check_blit_formats(src, dst, filter);
    for (uint32_t i = 0; !problem && i < count; i++) {
        problem = check_blit_region(src, dst, &regions[i]);
        if (problem) {
            vkmm_command_buffer_reject(cmd, "vkCmdBlitImage: region %u: %s", i, problem);
            return;
        }
    }
    if (problem) {
        vkmm_command_buffer_reject(cmd, "vkCmdBlitImage: %s", problem);
        return;
    }
    /* vkmm runs the blit on its compute queues: the required format
     * features include BLIT_SRC and BLIT_DST (format_properties.c). */
    vkmm_command_buffer_invalid(cmd, "VUID-vkCmdBlitImage2-commandBuffer-cmdpool",
                                "vkCmdBlitImage needs a queue family with VK_QUEUE_GRAPHICS_BIT; vkmm has none and "
                                "runs the blit on this queue");
    VkImageBlit2 *stored = vkmm_command_buffer_store(cmd, regions, count * sizeof(*regions));
    struct vkmm_command *command = (stored || !count) ? vkmm_command_buffer_append(cmd, VKMM_COMMAND_BLIT_IMAGE)
                                                      : NULL;
    if (!command)
        return;
    command->u.blit_image.src = src;
    command->u.blit_image.dst = dst;
    command->u.blit_image.filter = filter;
    command->u.blit_image.region_count = count;
    command->u.blit_image.regions = stored;
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdBlitImage2(VkCommandBuffer commandBuffer, const VkBlitImageInfo2 *pInfo)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    record_blit(cmd, vkmm_image_from_handle(pInfo->srcImage), vkmm_image_from_handle(pInfo->dstImage),
                pInfo->regionCount, pInfo->pRegions, pInfo->filter);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdBlitImage(VkCommandBuffer commandBuffer, VkImage srcImage,
                                             VkImageLayout srcImageLayout, VkImage dstImage,
                                             VkImageLayout dstImageLayout, uint32_t regionCount,
                                             const VkImageBlit *pRegions, VkFilter filter)
{
    (void)srcImageLayout, (void)dstImageLayout;
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    VkImageBlit2 *regions = vkmm_command_buffer_store(cmd, NULL, regionCount * sizeof(*regions));
    if (!regions && regionCount)
        return;
    for (uint32_t i = 0; i < regionCount; i++) {
        regions[i] = (VkImageBlit2){ .sType = VK_STRUCTURE_TYPE_IMAGE_BLIT_2,
                                     .srcSubresource = pRegions[i].srcSubresource,
                                     .dstSubresource = pRegions[i].dstSubresource };
        memcpy(regions[i].srcOffsets, pRegions[i].srcOffsets, sizeof(regions[i].srcOffsets));
        memcpy(regions[i].dstOffsets, pRegions[i].dstOffsets, sizeof(regions[i].dstOffsets));
    }
    record_blit(cmd, vkmm_image_from_handle(srcImage), vkmm_image_from_handle(dstImage), regionCount, regions,
                filter);
}

/* --- Clear ------------------------------------------------------------------------- */

/* One buffer update per level (and layer range) a clear range covers: the
 * layers of a level are contiguous.  `pattern` holds the encoded colour
 * repeated over the largest of them. */
static void record_clear_range(struct vkmm_command_buffer *cmd, struct vkmm_image *image,
                               const VkImageSubresourceRange *range, void *pattern)
{
    uint32_t levels = range->levelCount == VK_REMAINING_MIP_LEVELS ? image->levels - range->baseMipLevel
                                                                   : range->levelCount;
    uint32_t layers = range->layerCount == VK_REMAINING_ARRAY_LAYERS ? image->layers - range->baseArrayLayer
                                                                     : range->layerCount;
    for (uint32_t level = range->baseMipLevel; level < range->baseMipLevel + levels; level++) {
        struct vkmm_command *command = vkmm_command_buffer_append(cmd, VKMM_COMMAND_UPDATE_BUFFER);
        if (!command)
            return;
        command->u.update_buffer.dst = &image->bytes;
        command->u.update_buffer.offset = vkmm_image_texel_offset(image, level, range->baseArrayLayer, 0, 0, 0);
        command->u.update_buffer.size = vkmm_image_layer_pitch(image, level) * layers;
        command->u.update_buffer.data = pattern;
    }
}

static bool clear_range_ok(const struct vkmm_image *image, const VkImageSubresourceRange *range)
{
    uint32_t levels = range->levelCount == VK_REMAINING_MIP_LEVELS && range->baseMipLevel < image->levels
                          ? image->levels - range->baseMipLevel
                          : range->levelCount;
    uint32_t layers = range->layerCount == VK_REMAINING_ARRAY_LAYERS && range->baseArrayLayer < image->layers
                          ? image->layers - range->baseArrayLayer
                          : range->layerCount;
    return range->aspectMask == VK_IMAGE_ASPECT_COLOR_BIT && !image->texel->depth &&
           !vkmm_texel_format_is_compressed(image->texel) &&
           range->baseMipLevel < image->levels && levels &&
           levels <= image->levels - range->baseMipLevel && range->baseArrayLayer < image->layers && layers &&
           layers <= image->layers - range->baseArrayLayer;
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdClearColorImage(VkCommandBuffer commandBuffer, VkImage _image,
                                                   VkImageLayout imageLayout, const VkClearColorValue *pColor,
                                                   uint32_t rangeCount, const VkImageSubresourceRange *pRanges)
{
    (void)imageLayout;
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    VKMM_FROM_HANDLE(vkmm_image, image, _image);
    if (!image->bytes.memory) {
        vkmm_command_buffer_reject(cmd, "vkCmdClearColorImage: the image is not bound to memory");
        return;
    }
    for (uint32_t i = 0; i < rangeCount; i++) {
        if (!clear_range_ok(image, &pRanges[i])) {
            vkmm_command_buffer_reject(cmd, "vkCmdClearColorImage: range %u is outside the image or not COLOR, or "
                                       "the format is compressed (VUID-vkCmdClearColorImage-image-00007)", i);
            return;
        }
    }
    /* The whole image at most: level 0 is the largest. */
    VkDeviceSize largest = vkmm_image_layer_pitch(image, 0) * image->layers;
    uint8_t *pattern = vkmm_command_buffer_store(cmd, NULL, largest);
    if (!pattern)
        return;
    /* The clear value's union holds float32, int32 or uint32 words, the
     * same bits vkmm_texel_encode takes. */
    uint32_t rgba[4];
    memcpy(rgba, pColor->uint32, sizeof(rgba));
    vkmm_texel_encode(image->texel, rgba, pattern);
    for (VkDeviceSize at = image->texel->size; at < largest; at += image->texel->size)
        memcpy(pattern + at, pattern, image->texel->size);
    for (uint32_t i = 0; i < rangeCount; i++)
        record_clear_range(cmd, image, &pRanges[i], pattern);
}
