/* The one CPU physical device: what it reports, computed once. */
#pragma once

#include <vulkan/vulkan.h>

#include "object.h"
#include "vkmm_chains.h"

/* Queue families (DESIGN §2): family 0 computes and transfers, family 1 only
 * transfers, so both cross-queue and cross-family synchronization can be
 * exercised. */
enum {
    VKMM_QUEUE_FAMILY_COMPUTE = 0,
    VKMM_QUEUE_FAMILY_TRANSFER = 1,
    VKMM_QUEUE_FAMILY_COUNT = 2,
    VKMM_MAX_QUEUES_PER_FAMILY = 4,
};

/* maxComputeWorkGroupCount, every dimension. */
enum { VKMM_MAX_WORKGROUP_COUNT = 65535 };

/* Memory types; their order follows the spec's ordering rule
 * (VkPhysicalDeviceMemoryProperties: a type whose flags are a subset of
 * another's comes first). */
enum {
    VKMM_MEMORY_TYPE_DEVICE_LOCAL = 0,
    VKMM_MEMORY_TYPE_HOST_COHERENT = 1,
    VKMM_MEMORY_TYPE_HOST_CACHED = 2,
    VKMM_MEMORY_TYPE_COUNT = 3,
};

struct vkmm_physical_device {
    struct vkmm_object base;
    struct vkmm_core_features features;
    struct vkmm_core_properties properties;
    VkPhysicalDeviceMemoryProperties memory;
    VkQueueFamilyProperties queue_families[VKMM_QUEUE_FAMILY_COUNT];
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_physical_device, VkPhysicalDevice, VK_OBJECT_TYPE_PHYSICAL_DEVICE)

void vkmm_physical_device_init(struct vkmm_physical_device *physical_device,
                               struct vkmm_instance *instance);
