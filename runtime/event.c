#include "event.h"

#include "host_trap.h"

#include "alloc.h"
#include "device.h"
#include "log.h"
#include "scheduler.h"
#include "strict/strict.h"

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateEvent(VkDevice _device, const VkEventCreateInfo *pCreateInfo,
                                                 const VkAllocationCallbacks *pAllocator, VkEvent *pEvent)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    struct vkmm_event *event =
        vkmm_zalloc(&device->allocator, pAllocator, sizeof(*event), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!event)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a VkEvent");
    vkmm_object_init(&event->base, VK_OBJECT_TYPE_EVENT, device->base.instance, device);
    event->device_only = (pCreateInfo->flags & VK_EVENT_CREATE_DEVICE_ONLY_BIT) != 0;
    /* The spec: "When created, the event object is in the unsignaled state." */
    event->set = false;
    *pEvent = vkmm_event_to_handle(event);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyEvent(VkDevice _device, VkEvent _event, const VkAllocationCallbacks *pAllocator)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_event, event, _event);
    if (!event)
        return;
    vkmm_object_finish(&event->base);
    vkmm_free(&device->allocator, pAllocator, event);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_GetEventStatus(VkDevice _device, VkEvent _event)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_event, event, _event);
    if (event->device_only)
        return vkmm_errorf(event, VK_ERROR_UNKNOWN, "vkGetEventStatus on a DEVICE_ONLY event");
    vkmm_scheduler_lock(device->scheduler);
    vkmm_scheduler_settle_locked(device->scheduler);
    bool set = event->set;
    vkmm_scheduler_unlock(device->scheduler);
    return set ? VK_EVENT_SET : VK_EVENT_RESET;
}

static VkResult host_set(struct vkmm_device *device, struct vkmm_event *event, bool set, const char *what)
{
    if (event->device_only)
        return vkmm_errorf(event, VK_ERROR_UNKNOWN, "%s on a DEVICE_ONLY event", what);
    vkmm_scheduler_lock(device->scheduler);
    event->set = set;
    vkmm_scheduler_notify_locked(device->scheduler);
    vkmm_scheduler_unlock(device->scheduler);
    return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_SetEvent(VkDevice _device, VkEvent _event)
{
    vkmm_host_trap_note_sync(); /* may order host writes before device work */
    struct vkmm_device *device = vkmm_device_from_handle(_device);
    if (device->strict)
        vkmm_strict_host_signal(device->strict);
    return host_set(device, vkmm_event_from_handle(_event), true, "vkSetEvent");
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_ResetEvent(VkDevice _device, VkEvent _event)
{
    return host_set(vkmm_device_from_handle(_device), vkmm_event_from_handle(_event), false, "vkResetEvent");
}
