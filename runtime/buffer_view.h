/* VkBufferView: a texel buffer's descriptor (shader_abi.h). */
#pragma once

#include <vulkan/vulkan.h>

#include "descriptor_set.h"
#include "object.h"

struct vkmm_buffer_view {
    struct vkmm_object base;
    struct vkmm_buffer *buffer;
    VkFormat format;
    VkDeviceSize offset, range; /* VK_WHOLE_SIZE resolved */
    struct vkmm_descriptor descriptor;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_buffer_view, VkBufferView, VK_OBJECT_TYPE_BUFFER_VIEW)
