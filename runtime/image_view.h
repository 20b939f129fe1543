/* VkImageView: the descriptor its writes copy (shader_abi.h). */
#pragma once

#include <vulkan/vulkan.h>

#include "descriptor_set.h"
#include "image.h"
#include "object.h"

struct vkmm_image;

struct vkmm_image_view {
    struct vkmm_object base;
    struct vkmm_image *image;
    VkImageViewType type;
    VkFormat format;
    VkImageSubresourceRange range; /* VK_REMAINING_* resolved */
    struct vkmm_descriptor descriptor; /* base level, every layer of the view; no sampler */
    /* Every level of the view, relative to its base level (descriptor.image.level_table). */
    struct vkmm_image_level levels[VKMM_IMAGE_MAX_LEVELS];
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_image_view, VkImageView, VK_OBJECT_TYPE_IMAGE_VIEW)
