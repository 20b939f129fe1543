#include "image_view.h"

#include "alloc.h"
#include "device.h"
#include "image.h"
#include "log.h"

/* Whether a view of `type` may be made of `image` (the spec's "Image and
 * image view parameter compatibility" table; 2D views of 3D images need
 * VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT, which vkmm's views do not
 * support yet). */
static bool type_compatible(const struct vkmm_image *image, VkImageViewType type)
{
    switch (image->type) {
    case VK_IMAGE_TYPE_1D:
        return type == VK_IMAGE_VIEW_TYPE_1D || type == VK_IMAGE_VIEW_TYPE_1D_ARRAY;
    case VK_IMAGE_TYPE_2D:
        if (type == VK_IMAGE_VIEW_TYPE_CUBE || type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY)
            return (image->flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) != 0;
        return type == VK_IMAGE_VIEW_TYPE_2D || type == VK_IMAGE_VIEW_TYPE_2D_ARRAY;
    case VK_IMAGE_TYPE_3D:
        return type == VK_IMAGE_VIEW_TYPE_3D;
    default:
        return false;
    }
}

static VkImageSubresourceRange resolve_range(const struct vkmm_image *image, VkImageSubresourceRange range)
{
    if (range.levelCount == VK_REMAINING_MIP_LEVELS)
        range.levelCount = range.baseMipLevel < image->levels ? image->levels - range.baseMipLevel : 0;
    if (range.layerCount == VK_REMAINING_ARRAY_LAYERS)
        range.layerCount = range.baseArrayLayer < image->layers ? image->layers - range.baseArrayLayer : 0;
    return range;
}

/* What is wrong with the create info, or NULL. */
static const char *check(const struct vkmm_image *image, const VkImageViewCreateInfo *info,
                         const VkImageSubresourceRange *range)
{
    const struct vkmm_texel_format *format = vkmm_texel_format(info->format);
    if (!image->bytes.memory)
        return "the image is not bound to memory";
    if (!format)
        return "the format is not one vkmm supports";
    if (format->size != image->texel->size)
        return "the view's format and the image's have different texel (block) sizes";
    if (vkmm_texel_format_is_compressed(format) &&
        (format->block_width != image->texel->block_width || format->block_height != image->texel->block_height))
        return "a compressed view's format has the image's block size";
    /* An uncompressed view of a compressed image sees one texel per block
     * (VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT, one level and layer). */
    if (!vkmm_texel_format_is_compressed(format) && vkmm_texel_format_is_compressed(image->texel) &&
        (!(image->flags & VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT) || range->levelCount != 1 ||
         range->layerCount != 1))
        return "an uncompressed view of a compressed image needs VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT and "
               "has one level and one layer";
    if (format->format != image->format && !(image->flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT))
        return "another format than the image's needs VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT";
    if (!type_compatible(image, info->viewType))
        return "the view type does not fit the image type (or needs 2D views of 3D images, not supported)";
    /* A depth/stencil image's view may name either aspect or both. */
    VkImageAspectFlags aspects = vkmm_image_aspect(image);
    if (!range->aspectMask || (range->aspectMask & ~aspects) ||
        (!image->texel->stencil && range->aspectMask != aspects))
        return "the aspect mask must be the image's: COLOR, DEPTH for a depth format, DEPTH and/or STENCIL for a "
               "depth/stencil format";
    if (format->depth != image->texel->depth)
        return "a view of a depth image has a depth format, and a view of a colour image a colour format";
    if (!range->levelCount || range->baseMipLevel >= image->levels ||
        range->levelCount > image->levels - range->baseMipLevel)
        return "the mip levels are outside the image";
    if (!range->layerCount || range->baseArrayLayer >= image->layers ||
        range->layerCount > image->layers - range->baseArrayLayer)
        return "the array layers are outside the image";
    bool single = info->viewType == VK_IMAGE_VIEW_TYPE_1D || info->viewType == VK_IMAGE_VIEW_TYPE_2D ||
                  info->viewType == VK_IMAGE_VIEW_TYPE_3D;
    if (single && range->layerCount != 1)
        return "a non-array view has one layer";
    if (info->viewType == VK_IMAGE_VIEW_TYPE_CUBE && range->layerCount != 6)
        return "a cube view has 6 layers";
    if (info->viewType == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY && range->layerCount % 6)
        return "a cube array view has a multiple of 6 layers";
    return NULL;
}

/* VkComponentSwizzle of each channel with IDENTITY made explicit, 4 bits each. */
static uint32_t pack_swizzle(const VkComponentMapping *mapping)
{
    const VkComponentSwizzle in[4] = { mapping->r, mapping->g, mapping->b, mapping->a };
    uint32_t word = 0;
    for (uint32_t c = 0; c < 4; c++) {
        VkComponentSwizzle s = in[c] == VK_COMPONENT_SWIZZLE_IDENTITY || in[c] > VK_COMPONENT_SWIZZLE_A
                                   ? (VkComponentSwizzle)(VK_COMPONENT_SWIZZLE_R + c)
                                   : in[c];
        word |= (uint32_t)s << (4 * c);
    }
    return word;
}

/* A level's extent as the view sees it: in texels, or in blocks for an
 * uncompressed view of a compressed image. */
static VkExtent3D view_level_extent(const struct vkmm_image_view *view, uint32_t level)
{
    if (vkmm_texel_format_is_compressed(vkmm_texel_format(view->format)))
        return vkmm_image_level_extent(view->image, level);
    return vkmm_image_level_blocks(view->image, level);
}

/* The view's levels as shaders find them: each relative to the first
 * texel of the base level's first layer (levels follow one another in the
 * image, each with all the image's layers). */
static void fill_levels(struct vkmm_image_view *view, VkDeviceSize base_offset)
{
    struct vkmm_image *image = view->image;
    for (uint32_t l = 0; l < view->range.levelCount; l++) {
        uint32_t level = view->range.baseMipLevel + l;
        VkExtent3D extent = view_level_extent(view, level);
        view->levels[l] = (struct vkmm_image_level){
            .offset = (int64_t)(vkmm_image_texel_offset(image, level, view->range.baseArrayLayer, 0, 0, 0) -
                                base_offset),
            .extent = { extent.width, extent.height, extent.depth },
            .row_pitch = (uint32_t)vkmm_image_row_pitch(image, level),
            .slice_pitch = (uint32_t)vkmm_image_slice_pitch(image, level),
            .layer_pitch = vkmm_image_layer_pitch(image, level),
        };
    }
}

static void fill_descriptor(struct vkmm_image_view *view, const VkComponentMapping *mapping)
{
    struct vkmm_image *image = view->image;
    uint32_t level = view->range.baseMipLevel, last = level + view->range.levelCount - 1;
    VkExtent3D extent = view_level_extent(view, level);
    const struct vkmm_texel_format *format = vkmm_texel_format(view->format);
    VkDeviceSize offset = vkmm_image_texel_offset(image, level, view->range.baseArrayLayer, 0, 0, 0);
    VkDeviceSize layer_pitch = vkmm_image_layer_pitch(image, level);
    /* The bytes of every level's layers of the view (with the other
     * layers between levels: one range, as a buffer's). */
    VkDeviceSize size = vkmm_image_texel_offset(image, last, view->range.baseArrayLayer + view->range.layerCount, 0,
                                                0, 0) - offset;
    fill_levels(view, offset);
    view->descriptor = (struct vkmm_descriptor){
        .base = vkmm_buffer_device_bytes(&image->bytes, offset, size),
        .range = size,
        .memory = image->bytes.memory,
        .memory_offset = image->bytes.memory_offset + offset,
        .reach = size,
        .image = {
            .format = view->format,
            .texel_size = image->texel->size,
            .extent = { extent.width, extent.height, extent.depth },
            .layers = view->range.layerCount,
            .row_pitch = (uint32_t)vkmm_image_row_pitch(image, level),
            .slice_pitch = (uint32_t)vkmm_image_slice_pitch(image, level),
            .layer_pitch = layer_pitch,
            .swizzle = pack_swizzle(mapping),
            .level_table = (uint64_t)(uintptr_t)view->levels,
            .levels = view->range.levelCount,
            .samples_log2 = (uint32_t)__builtin_ctz(image->samples),
            .block = vkmm_texel_format_is_compressed(format) ? format->block_width | (uint32_t)format->block_height << 8
                                                            : 0,
        },
    };
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateImageView(VkDevice _device, const VkImageViewCreateInfo *pCreateInfo,
                                                     const VkAllocationCallbacks *pAllocator, VkImageView *pView)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_image, image, pCreateInfo->image);
    if (!image)
        return vkmm_errorf(device, VK_ERROR_UNKNOWN, "vkCreateImageView: no image");
    VkImageSubresourceRange range = resolve_range(image, pCreateInfo->subresourceRange);
    const char *problem = check(image, pCreateInfo, &range);
    if (problem)
        return vkmm_errorf(image, VK_ERROR_UNKNOWN, "vkCreateImageView (type %d, format %d, levels %u+%u, layers "
                           "%u+%u): %s", pCreateInfo->viewType, pCreateInfo->format, range.baseMipLevel,
                           range.levelCount, range.baseArrayLayer, range.layerCount, problem);
    struct vkmm_image_view *view =
        vkmm_zalloc(&device->allocator, pAllocator, sizeof(*view), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!view)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a VkImageView");
    vkmm_object_init(&view->base, VK_OBJECT_TYPE_IMAGE_VIEW, device->base.instance, device);
    view->image = image;
    view->type = pCreateInfo->viewType;
    view->format = pCreateInfo->format;
    view->range = range;
    fill_descriptor(view, &pCreateInfo->components);
    *pView = vkmm_image_view_to_handle(view);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyImageView(VkDevice _device, VkImageView imageView,
                                                 const VkAllocationCallbacks *pAllocator)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_image_view, view, imageView);
    if (!view)
        return;
    vkmm_object_finish(&view->base);
    vkmm_free(&device->allocator, pAllocator, view);
}
