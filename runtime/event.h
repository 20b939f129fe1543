#pragma once

#include <stdbool.h>
#include <vulkan/vulkan.h>

#include "object.h"

struct vkmm_event {
    struct vkmm_object base;
    bool device_only; /* VK_EVENT_CREATE_DEVICE_ONLY_BIT */
    bool set;         /* guarded by the scheduler lock */
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_event, VkEvent, VK_OBJECT_TYPE_EVENT)
