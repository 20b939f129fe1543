#include "command_pool.h"

#include "alloc.h"
#include "command_buffer.h"
#include "device.h"
#include "log.h"

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateCommandPool(VkDevice _device, const VkCommandPoolCreateInfo *pCreateInfo,
                                                       const VkAllocationCallbacks *pAllocator,
                                                       VkCommandPool *pCommandPool)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    if (pCreateInfo->queueFamilyIndex >= VKMM_QUEUE_FAMILY_COUNT)
        return vkmm_errorf(device, VK_ERROR_INITIALIZATION_FAILED, "queue family %u does not exist",
                           pCreateInfo->queueFamilyIndex);
    if (pCreateInfo->flags & VK_COMMAND_POOL_CREATE_PROTECTED_BIT)
        return vkmm_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT, "protected command pools are not supported");
    struct vkmm_command_pool *pool =
        vkmm_zalloc(&device->allocator, pAllocator, sizeof(*pool), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!pool)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a command pool");
    vkmm_object_init(&pool->base, VK_OBJECT_TYPE_COMMAND_POOL, device->base.instance, device);
    pool->allocator = *vkmm_choose_allocator(&device->allocator, pAllocator);
    pool->flags = pCreateInfo->flags;
    pool->queue_family_index = pCreateInfo->queueFamilyIndex;
    pool->free_blocks.allocator = &pool->allocator;
    *pCommandPool = vkmm_command_pool_to_handle(pool);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyCommandPool(VkDevice _device, VkCommandPool commandPool,
                                                   const VkAllocationCallbacks *pAllocator)
{
    (void)_device, (void)pAllocator;
    VKMM_FROM_HANDLE(vkmm_command_pool, pool, commandPool);
    if (!pool)
        return;
    /* The spec: "When a pool is destroyed, all command buffers allocated
     * from the pool are freed." */
    bool kept = false;
    for (struct vkmm_command_buffer *cmd = pool->buffers, *next; cmd; cmd = next) {
        next = cmd->pool_next;
        if (vkmm_command_buffer_settle_before_free(cmd, "VUID-vkDestroyCommandPool-commandPool-00041"))
            vkmm_command_buffer_destroy(cmd);
        else
            kept = true;
    }
    vkmm_arena_free_list_trim(&pool->free_blocks);
    if (kept)
        return; /* its pending command buffers still use it: leaked with them */
    VkAllocationCallbacks allocator = pool->allocator;
    vkmm_object_finish(&pool->base);
    vkmm_free(&allocator, NULL, pool);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_ResetCommandPool(VkDevice _device, VkCommandPool commandPool,
                                                      VkCommandPoolResetFlags flags)
{
    (void)_device;
    VKMM_FROM_HANDLE(vkmm_command_pool, pool, commandPool);
    /* Resetting would free commands a queue still runs. */
    for (struct vkmm_command_buffer *cmd = pool->buffers; cmd; cmd = cmd->pool_next) {
        if (vkmm_command_buffer_is_pending(cmd))
            return vkmm_errorf(pool, VK_ERROR_UNKNOWN,
                               "vkResetCommandPool with a pending command buffer (VUID-vkResetCommandPool-"
                               "commandPool-00040): nothing is reset");
    }
    for (struct vkmm_command_buffer *cmd = pool->buffers; cmd; cmd = cmd->pool_next)
        vkmm_command_buffer_reset(cmd);
    if (flags & VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT)
        vkmm_arena_free_list_trim(&pool->free_blocks);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_TrimCommandPool(VkDevice _device, VkCommandPool commandPool,
                                                VkCommandPoolTrimFlags flags)
{
    (void)_device, (void)flags;
    VKMM_FROM_HANDLE(vkmm_command_pool, pool, commandPool);
    vkmm_arena_free_list_trim(&pool->free_blocks);
}
