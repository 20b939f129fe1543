#include "query_pool.h"

#include <string.h>
#include <time.h>

#include "alloc.h"
#include "device.h"
#include "log.h"
#include "scheduler.h"

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

VkDeviceSize vkmm_query_result_span(uint32_t count, VkDeviceSize stride, VkQueryResultFlags flags,
                                    VkDeviceSize *value_size)
{
    *value_size = (flags & VK_QUERY_RESULT_64_BIT) ? 8 : 4;
    VkDeviceSize per_query = *value_size * ((flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) ? 2 : 1);
    return count ? (count - 1) * stride + per_query : 0;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateQueryPool(VkDevice _device, const VkQueryPoolCreateInfo *pCreateInfo,
                                                     const VkAllocationCallbacks *pAllocator, VkQueryPool *pQueryPool)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    /* Occlusion pools are core 1.0 and may be created on any device; only
     * a graphics queue can begin one (VUID-vkCmdBeginQuery-queryType-00803),
     * and vkmm has none, so they are reset and read, never counted.  The
     * other types need a feature or an extension vkmm does not offer. */
    if (pCreateInfo->queryType != VK_QUERY_TYPE_TIMESTAMP && pCreateInfo->queryType != VK_QUERY_TYPE_OCCLUSION)
        return vkmm_errorf(device, VK_ERROR_UNKNOWN,
                           "query type %d needs a feature or extension vkmm does not offer (timestamp and occlusion "
                           "pools only; VUID-VkQueryPoolCreateInfo-queryType-00791)",
                           pCreateInfo->queryType);
    if (pCreateInfo->queryCount == 0)
        return vkmm_errorf(device, VK_ERROR_UNKNOWN, "queryCount is 0");
    size_t count = pCreateInfo->queryCount;
    size_t size = sizeof(struct vkmm_query_pool) + count * (sizeof(uint64_t) + sizeof(bool));
    struct vkmm_query_pool *pool = vkmm_zalloc(&device->allocator, pAllocator, size, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!pool)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a query pool of %zu queries", count);
    vkmm_object_init(&pool->base, VK_OBJECT_TYPE_QUERY_POOL, device->base.instance, device);
    pool->type = pCreateInfo->queryType;
    pool->count = pCreateInfo->queryCount;
    pool->values = (uint64_t *)(pool + 1);
    pool->available = (bool *)(pool->values + count);
    *pQueryPool = vkmm_query_pool_to_handle(pool);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyQueryPool(VkDevice _device, VkQueryPool queryPool,
                                                 const VkAllocationCallbacks *pAllocator)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_query_pool, pool, queryPool);
    if (!pool)
        return;
    vkmm_object_finish(&pool->base);
    vkmm_free(&device->allocator, pAllocator, pool);
}

void vkmm_query_pool_write_timestamp(struct vkmm_device *device, struct vkmm_query_pool *pool, uint32_t query)
{
    uint64_t stamp = now_ns();
    vkmm_scheduler_lock(device->scheduler);
    pool->values[query] = stamp;
    pool->available[query] = true;
    vkmm_scheduler_notify_locked(device->scheduler);
    vkmm_scheduler_unlock(device->scheduler);
}

void vkmm_query_pool_reset_range(struct vkmm_device *device, struct vkmm_query_pool *pool, uint32_t first,
                                 uint32_t count)
{
    vkmm_scheduler_lock(device->scheduler);
    for (uint32_t q = first; q < first + count; q++) {
        pool->available[q] = false;
        pool->values[q] = 0;
    }
    vkmm_scheduler_unlock(device->scheduler);
}

static void write_value(void *at, uint64_t value, VkQueryResultFlags flags)
{
    if (flags & VK_QUERY_RESULT_64_BIT)
        memcpy(at, &value, sizeof(value));
    else {
        uint32_t narrow = (uint32_t)value; /* the spec: the low 32 bits */
        memcpy(at, &narrow, sizeof(narrow));
    }
}

/* Scheduler lock held. */
static VkResult copy_results_locked(struct vkmm_query_pool *pool, uint32_t first, uint32_t count, uint8_t *data,
                                    VkDeviceSize stride, VkQueryResultFlags flags)
{
    VkDeviceSize value_size;
    vkmm_query_result_span(count, stride, flags, &value_size);
    VkResult result = VK_SUCCESS;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t q = first + i;
        uint8_t *at = data + i * stride;
        bool available = pool->available[q];
        /* The spec: without WAIT and PARTIAL, "no result values are
         * written" for an unavailable query; availability still is. */
        if (available || (flags & VK_QUERY_RESULT_PARTIAL_BIT))
            write_value(at, available ? pool->values[q] : 0, flags);
        if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT)
            write_value(at + value_size, available ? 1 : 0, flags);
        if (!available)
            result = VK_NOT_READY;
    }
    return result;
}

VkResult vkmm_query_pool_copy_results(struct vkmm_device *device, struct vkmm_query_pool *pool, uint32_t first,
                                      uint32_t count, void *data, VkDeviceSize stride, VkQueryResultFlags flags)
{
    vkmm_scheduler_lock(device->scheduler);
    VkResult result = copy_results_locked(pool, first, count, data, stride, flags);
    vkmm_scheduler_unlock(device->scheduler);
    return result;
}

struct query_wait {
    struct vkmm_query_pool *pool;
    uint32_t first, count;
};

static bool queries_available(void *arg)
{
    const struct query_wait *w = arg;
    for (uint32_t q = w->first; q < w->first + w->count; q++) {
        if (!w->pool->available[q])
            return false;
    }
    return true;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_GetQueryPoolResults(VkDevice _device, VkQueryPool queryPool, uint32_t firstQuery,
                                                         uint32_t queryCount, size_t dataSize, void *pData,
                                                         VkDeviceSize stride, VkQueryResultFlags flags)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_query_pool, pool, queryPool);
    VkDeviceSize value_size;
    VkDeviceSize span = vkmm_query_result_span(queryCount, stride, flags, &value_size);
    if (firstQuery >= pool->count || queryCount > pool->count - firstQuery)
        return vkmm_errorf(pool, VK_ERROR_UNKNOWN, "queries [%u, +%u) exceed the pool's %u", firstQuery, queryCount,
                           pool->count);
    if (span > dataSize || stride % value_size)
        return vkmm_errorf(pool, VK_ERROR_UNKNOWN, "dataSize %zu / stride %llu cannot hold %u results", dataSize,
                           (unsigned long long)stride, queryCount);
    vkmm_scheduler_lock(device->scheduler);
    vkmm_scheduler_settle_locked(device->scheduler);
    if (flags & VK_QUERY_RESULT_WAIT_BIT) {
        struct query_wait wait = { pool, firstQuery, queryCount };
        vkmm_scheduler_wait_locked(device->scheduler, queries_available, &wait, UINT64_MAX);
    }
    VkResult result = copy_results_locked(pool, firstQuery, queryCount, pData, stride, flags);
    vkmm_scheduler_unlock(device->scheduler);
    return result;
}

VKAPI_ATTR void VKAPI_CALL vkmm_ResetQueryPool(VkDevice _device, VkQueryPool queryPool, uint32_t firstQuery,
                                               uint32_t queryCount)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_query_pool, pool, queryPool);
    vkmm_query_pool_reset_range(device, pool, firstQuery, queryCount);
}
