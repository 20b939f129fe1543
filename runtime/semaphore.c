#include "semaphore.h"

#include "host_trap.h"

#include "alloc.h"
#include "device.h"
#include "log.h"
#include "scheduler.h"
#include "strict/strict.h"

uint64_t vkmm_semaphore_wait_target_locked(struct vkmm_semaphore *semaphore, uint64_t value)
{
    if (semaphore->type == VK_SEMAPHORE_TYPE_TIMELINE)
        return value;
    return ++semaphore->binary_waits_submitted;
}

uint64_t vkmm_semaphore_signal_target_locked(struct vkmm_semaphore *semaphore, uint64_t value)
{
    if (semaphore->type == VK_SEMAPHORE_TYPE_TIMELINE)
        return value;
    return ++semaphore->binary_signals_submitted;
}

void vkmm_semaphore_signal_locked(struct vkmm_semaphore *semaphore, uint64_t target)
{
    /* Timeline values only grow (VUID-VkSemaphoreSignalInfo-value-03258 and
     * the submit-time equivalent); keeping the maximum makes an invalid
     * smaller signal harmless instead of un-signalling waiters. */
    if (target > semaphore->payload)
        semaphore->payload = target;
}

bool vkmm_semaphore_reached_locked(const struct vkmm_semaphore *semaphore, uint64_t target)
{
    return semaphore->payload >= target;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateSemaphore(VkDevice _device, const VkSemaphoreCreateInfo *pCreateInfo,
                                                     const VkAllocationCallbacks *pAllocator, VkSemaphore *pSemaphore)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VkSemaphoreType type = VK_SEMAPHORE_TYPE_BINARY;
    uint64_t initial = 0;
    for (const VkBaseInStructure *s = pCreateInfo->pNext; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO) {
            const VkSemaphoreTypeCreateInfo *info = (const VkSemaphoreTypeCreateInfo *)s;
            type = info->semaphoreType;
            initial = info->initialValue;
        } else if (s->sType == VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO) {
            return vkmm_errorf(device, VK_ERROR_INVALID_EXTERNAL_HANDLE, "external semaphores are not supported");
        }
    }
    struct vkmm_semaphore *semaphore =
        vkmm_zalloc(&device->allocator, pAllocator, sizeof(*semaphore), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!semaphore)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a VkSemaphore");
    vkmm_object_init(&semaphore->base, VK_OBJECT_TYPE_SEMAPHORE, device->base.instance, device);
    semaphore->type = type;
    semaphore->payload = type == VK_SEMAPHORE_TYPE_TIMELINE ? initial : 0;
    *pSemaphore = vkmm_semaphore_to_handle(semaphore);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroySemaphore(VkDevice _device, VkSemaphore _semaphore,
                                                 const VkAllocationCallbacks *pAllocator)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_semaphore, semaphore, _semaphore);
    if (!semaphore)
        return;
    vkmm_object_finish(&semaphore->base);
    vkmm_free(&device->allocator, pAllocator, semaphore);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_GetSemaphoreCounterValue(VkDevice _device, VkSemaphore _semaphore,
                                                              uint64_t *pValue)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_semaphore, semaphore, _semaphore);
    vkmm_scheduler_lock(device->scheduler);
    vkmm_scheduler_settle_locked(device->scheduler);
    *pValue = semaphore->payload;
    vkmm_scheduler_unlock(device->scheduler);
    return VK_SUCCESS;
}

struct semaphore_wait {
    const VkSemaphoreWaitInfo *info;
};

static bool semaphores_ready(void *arg)
{
    const VkSemaphoreWaitInfo *info = ((struct semaphore_wait *)arg)->info;
    bool any = (info->flags & VK_SEMAPHORE_WAIT_ANY_BIT) != 0;
    for (uint32_t i = 0; i < info->semaphoreCount; i++) {
        bool reached = vkmm_semaphore_reached_locked(vkmm_semaphore_from_handle(info->pSemaphores[i]),
                                                     info->pValues[i]);
        if (reached && any)
            return true;
        if (!reached && !any)
            return false;
    }
    return !any;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_WaitSemaphores(VkDevice _device, const VkSemaphoreWaitInfo *pWaitInfo,
                                                    uint64_t timeout)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    struct semaphore_wait wait = { pWaitInfo };
    vkmm_scheduler_lock(device->scheduler);
    VkResult result = vkmm_scheduler_wait_locked(device->scheduler, semaphores_ready, &wait, timeout);
    vkmm_scheduler_unlock(device->scheduler);
    if (result == VK_SUCCESS && device->strict)
        vkmm_strict_host_wait(device->strict);
    return vkmm_device_check_lost(device, result);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_SignalSemaphore(VkDevice _device, const VkSemaphoreSignalInfo *pSignalInfo)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_semaphore, semaphore, pSignalInfo->semaphore);
    if (semaphore->type != VK_SEMAPHORE_TYPE_TIMELINE)
        return vkmm_errorf(semaphore, VK_ERROR_UNKNOWN, "vkSignalSemaphore needs a timeline semaphore");
    vkmm_host_trap_note_sync(); /* may order host writes before device work */
    if (device->strict)
        vkmm_strict_host_signal(device->strict);
    vkmm_scheduler_lock(device->scheduler);
    vkmm_semaphore_signal_locked(semaphore, pSignalInfo->value);
    vkmm_scheduler_notify_locked(device->scheduler);
    vkmm_scheduler_unlock(device->scheduler);
    return VK_SUCCESS;
}
