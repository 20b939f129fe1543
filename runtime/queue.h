#pragma once

#include <vulkan/vulkan.h>

#include "object.h"

struct vkmm_queue_label {
    struct vkmm_queue_label *outer;
    char name[];
};

struct vkmm_queue {
    struct vkmm_object base;
    uint32_t family;
    uint32_t index;
    VkDeviceQueueCreateFlags flags;
    struct vkmm_queue_label *labels; /* open debug-utils labels, innermost first, for reports */
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_queue, VkQueue, VK_OBJECT_TYPE_QUEUE)
