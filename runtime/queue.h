#pragma once

#include <vulkan/vulkan.h>

#include "object.h"

struct vkmm_queue {
    struct vkmm_object base;
    uint32_t family;
    uint32_t index;
    VkDeviceQueueCreateFlags flags;
    char *label; /* innermost open debug-utils label, for reports */
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_queue, VkQueue, VK_OBJECT_TYPE_QUEUE)
