#pragma once

#include <stdbool.h>
#include <vulkan/vulkan.h>

#include "object.h"

struct vkmm_fence {
    struct vkmm_object base;
    bool signaled; /* guarded by the scheduler lock */
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_fence, VkFence, VK_OBJECT_TYPE_FENCE)

/* Called by the scheduler, with its lock held, when the fence's signal
 * operation executes. */
void vkmm_fence_signal_locked(struct vkmm_fence *fence);
