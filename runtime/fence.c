#include "fence.h"

#include "alloc.h"
#include "device.h"
#include "log.h"
#include "scheduler.h"
#include "strict/strict.h"

void vkmm_fence_signal_locked(struct vkmm_fence *fence)
{
    fence->signaled = true;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateFence(VkDevice _device, const VkFenceCreateInfo *pCreateInfo,
                                                 const VkAllocationCallbacks *pAllocator, VkFence *pFence)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    struct vkmm_fence *fence =
        vkmm_zalloc(&device->allocator, pAllocator, sizeof(*fence), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!fence)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a VkFence");
    vkmm_object_init(&fence->base, VK_OBJECT_TYPE_FENCE, device->base.instance, device);
    fence->signaled = (pCreateInfo->flags & VK_FENCE_CREATE_SIGNALED_BIT) != 0;
    *pFence = vkmm_fence_to_handle(fence);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyFence(VkDevice _device, VkFence _fence, const VkAllocationCallbacks *pAllocator)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_fence, fence, _fence);
    if (!fence)
        return;
    vkmm_object_finish(&fence->base);
    vkmm_free(&device->allocator, pAllocator, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_ResetFences(VkDevice _device, uint32_t fenceCount, const VkFence *pFences)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    vkmm_scheduler_lock(device->scheduler);
    for (uint32_t i = 0; i < fenceCount; i++)
        vkmm_fence_from_handle(pFences[i])->signaled = false;
    vkmm_scheduler_unlock(device->scheduler);
    return VK_SUCCESS;
}

struct fence_wait {
    uint32_t count;
    const VkFence *fences;
    bool all;
};

static bool fences_ready(void *arg)
{
    const struct fence_wait *w = arg;
    for (uint32_t i = 0; i < w->count; i++) {
        bool signaled = vkmm_fence_from_handle(w->fences[i])->signaled;
        if (signaled && !w->all)
            return true;
        if (!signaled && w->all)
            return false;
    }
    return w->all;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_GetFenceStatus(VkDevice _device, VkFence _fence)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    struct fence_wait wait = { 1, &_fence, true };
    vkmm_scheduler_lock(device->scheduler);
    VkResult result = vkmm_scheduler_wait_locked(device->scheduler, fences_ready, &wait, 0);
    vkmm_scheduler_unlock(device->scheduler);
    if (result == VK_SUCCESS && device->strict)
        vkmm_strict_host_wait(device->strict);
    return vkmm_device_check_lost(device, result == VK_SUCCESS ? VK_SUCCESS : VK_NOT_READY);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_WaitForFences(VkDevice _device, uint32_t fenceCount, const VkFence *pFences,
                                                   VkBool32 waitAll, uint64_t timeout)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    struct fence_wait wait = { fenceCount, pFences, waitAll != VK_FALSE };
    vkmm_scheduler_lock(device->scheduler);
    VkResult result = vkmm_scheduler_wait_locked(device->scheduler, fences_ready, &wait, timeout);
    vkmm_scheduler_unlock(device->scheduler);
    if (result == VK_SUCCESS && device->strict)
        vkmm_strict_host_wait(device->strict);
    return vkmm_device_check_lost(device, result);
}
