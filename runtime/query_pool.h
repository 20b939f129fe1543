#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "object.h"

struct vkmm_query_pool {
    struct vkmm_object base;
    VkQueryType type;
    uint32_t count;
    /* Guarded by the scheduler lock. */
    uint64_t *values;
    bool *available;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_query_pool, VkQueryPool, VK_OBJECT_TYPE_QUERY_POOL)

/* Bytes that `count` results of `stride` with `flags` span (the last
 * result without padding); value_size gets 4 or 8. */
VkDeviceSize vkmm_query_result_span(uint32_t count, VkDeviceSize stride, VkQueryResultFlags flags,
                                    VkDeviceSize *value_size);

/* Device-side operations, run by the executor. */
void vkmm_query_pool_write_timestamp(struct vkmm_device *device, struct vkmm_query_pool *pool,
                                     uint32_t query);
void vkmm_query_pool_reset_range(struct vkmm_device *device, struct vkmm_query_pool *pool,
                                 uint32_t first, uint32_t count);
/* Writes results as vkGetQueryPoolResults does, without waiting; returns
 * VK_NOT_READY when some query was unavailable. */
VkResult vkmm_query_pool_copy_results(struct vkmm_device *device, struct vkmm_query_pool *pool,
                                      uint32_t first, uint32_t count, void *data, VkDeviceSize stride,
                                      VkQueryResultFlags flags);
