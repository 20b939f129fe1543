/* VkImage.  A software device has no tiling: every image is linear memory,
 * mip level after mip level, each level its array layers one after
 * another, each layer its depth slices, each slice its rows of texels
 * without padding (a multisampled image's texel: its samples one after
 * another, an element of samples x texel size bytes; a compressed
 * format's rows are rows of blocks).  So a view of one level and a range of layers is one
 * contiguous range, as a buffer descriptor is. */
#pragma once

#include <vulkan/vulkan.h>

#include "buffer.h"
#include "object.h"
#include "texel_format.h"

#define VKMM_IMAGE_MAX_LEVELS 16

struct vkmm_image {
    struct vkmm_object base;
    VkImageType type;
    VkFormat format;
    const struct vkmm_texel_format *texel;
    VkExtent3D extent;
    uint32_t levels;
    uint32_t layers;
    uint32_t samples; /* 1 or 4 (VkSampleCountFlagBits) */
    VkImageUsageFlags usage;
    VkImageCreateFlags flags;
    VkImageTiling tiling;
    VkDeviceSize level_offset[VKMM_IMAGE_MAX_LEVELS];
    VkDeviceSize size;
    /* The image's bytes as a buffer (memory, offset, size), so that copies,
     * barriers, descriptors and strict mode's memory engine treat them as
     * they treat a buffer's. */
    struct vkmm_buffer bytes;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_image, VkImage, VK_OBJECT_TYPE_IMAGE)

/* The aspects of the image's texels: DEPTH for a depth format (and
 * STENCIL for a depth/stencil one), COLOR otherwise (copies, views and
 * barriers name them). */
VkImageAspectFlags vkmm_image_aspect(const struct vkmm_image *image);
/* The array layers a subresource names (VK_REMAINING_ARRAY_LAYERS resolved). */
uint32_t vkmm_image_subresource_layers(const struct vkmm_image *image, const VkImageSubresourceLayers *sub);
/* Bytes of one texel with all its samples. */
VkDeviceSize vkmm_image_element_size(const struct vkmm_image *image);
/* The extent of mip level `level`. */
VkExtent3D vkmm_image_level_extent(const struct vkmm_image *image, uint32_t level);
/* The extent of mip level `level` in blocks of a compressed format
 * (rounded up), in texels for the other formats. */
VkExtent3D vkmm_image_level_blocks(const struct vkmm_image *image, uint32_t level);
/* Bytes between rows (of blocks), depth slices and array layers of a level. */
VkDeviceSize vkmm_image_row_pitch(const struct vkmm_image *image, uint32_t level);
VkDeviceSize vkmm_image_slice_pitch(const struct vkmm_image *image, uint32_t level);
VkDeviceSize vkmm_image_layer_pitch(const struct vkmm_image *image, uint32_t level);
/* Offset of the texel (x, y, z) of (level, layer) from the image's start
 * (of the block holding it, for compressed formats). */
VkDeviceSize vkmm_image_texel_offset(const struct vkmm_image *image, uint32_t level, uint32_t layer, uint32_t x,
                                     uint32_t y, uint32_t z);
