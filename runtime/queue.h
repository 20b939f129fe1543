#pragma once

#include <vulkan/vulkan.h>

#include "object.h"
#include "physical_device.h"

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

/* The queue's number in reports and in strict mode's agents. */
static inline uint32_t vkmm_queue_id(const struct vkmm_queue *queue)
{
    return queue->family * VKMM_MAX_QUEUES_PER_FAMILY + queue->index;
}

VKMM_DEFINE_HANDLE_CASTS(vkmm_queue, VkQueue, VK_OBJECT_TYPE_QUEUE)
