/* VK_EXT_debug_utils object names, tags and queue labels.  Names are kept
 * on the object so messages and hazard reports can use them. */
#include <string.h>

#include "alloc.h"
#include "buffer.h"
#include "device.h"
#include "device_memory.h"
#include "log.h"
#include "queue.h"
#include "strict/strict.h"

/* Handles whose value the loader replaces with its own (so they do not point
 * at a vkmm object) cannot carry a name here.  Besides instances and
 * physical devices, the loader hands out its own debug messenger and
 * debug report callback handles (one loader object fanning out to every
 * driver's), and creates surfaces itself; reading those as vkmm objects
 * reads the loader's memory. */
static bool handle_is_ours(VkObjectType type)
{
    switch (type) {
    case VK_OBJECT_TYPE_UNKNOWN:
    case VK_OBJECT_TYPE_INSTANCE:
    case VK_OBJECT_TYPE_PHYSICAL_DEVICE:
    case VK_OBJECT_TYPE_DEBUG_UTILS_MESSENGER_EXT:
    case VK_OBJECT_TYPE_DEBUG_REPORT_CALLBACK_EXT:
    case VK_OBJECT_TYPE_SURFACE_KHR:
        return false;
    default:
        return true;
    }
}

/* Strict mode's reports name memories and buffers as the application
 * does: the bridge's registry learns each new name (strict/strict.h). */
static void name_in_strict_registry(struct vkmm_device *device, struct vkmm_object *object)
{
    if (!device->strict)
        return;
    if (object->type == VK_OBJECT_TYPE_DEVICE_MEMORY) {
        struct vkmm_device_memory *memory = (struct vkmm_device_memory *)object;
        if (memory->strict)
            vkmm_strict_memory_name(device->strict, memory->strict, object->debug_name);
    } else if (object->type == VK_OBJECT_TYPE_BUFFER) {
        struct vkmm_buffer *buffer = (struct vkmm_buffer *)object;
        if (buffer->strict)
            vkmm_strict_buffer_name(device->strict, buffer->strict, object->debug_name);
    }
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_SetDebugUtilsObjectNameEXT(VkDevice _device,
                                                                const VkDebugUtilsObjectNameInfoEXT *pNameInfo)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    if (!handle_is_ours(pNameInfo->objectType) || !pNameInfo->objectHandle)
        return VK_SUCCESS;
    struct vkmm_object *object = (struct vkmm_object *)(uintptr_t)pNameInfo->objectHandle;
    if (object->type != pNameInfo->objectType)
        return vkmm_errorf(device, VK_ERROR_UNKNOWN, "objectType %d does not match the handle's type %d",
                           pNameInfo->objectType, object->type);
    char *name = NULL;
    if (pNameInfo->pObjectName && pNameInfo->pObjectName[0]) {
        name = vkmm_strdup(&device->allocator, pNameInfo->pObjectName, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
        if (!name)
            return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for an object name");
    }
    vkmm_free(&device->allocator, NULL, object->debug_name);
    object->debug_name = name;
    name_in_strict_registry(device, object);
    return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_SetDebugUtilsObjectTagEXT(VkDevice _device,
                                                               const VkDebugUtilsObjectTagInfoEXT *pTagInfo)
{
    (void)_device, (void)pTagInfo;
    /* The spec leaves the use of tags to the implementation; vkmm's
     * reports have no use for binary tags. */
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_QueueBeginDebugUtilsLabelEXT(VkQueue _queue, const VkDebugUtilsLabelEXT *pLabelInfo)
{
    VKMM_FROM_HANDLE(vkmm_queue, queue, _queue);
    struct vkmm_device *device = queue->base.device;
    const char *name = pLabelInfo->pLabelName ? pLabelInfo->pLabelName : "";
    size_t length = strlen(name) + 1;
    struct vkmm_queue_label *label = vkmm_zalloc(&device->allocator, NULL, sizeof(*label) + length,
                                                 VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!label) {
        vkmm_errorf(queue, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a queue label; it is not recorded");
        return;
    }
    memcpy(label->name, name, length);
    label->outer = queue->labels;
    queue->labels = label;
}

VKAPI_ATTR void VKAPI_CALL vkmm_QueueEndDebugUtilsLabelEXT(VkQueue _queue)
{
    VKMM_FROM_HANDLE(vkmm_queue, queue, _queue);
    struct vkmm_queue_label *label = queue->labels;
    if (!label)
        return; /* unbalanced end: invalid usage, nothing to close */
    queue->labels = label->outer;
    vkmm_free(&queue->base.device->allocator, NULL, label);
}

VKAPI_ATTR void VKAPI_CALL vkmm_QueueInsertDebugUtilsLabelEXT(VkQueue _queue, const VkDebugUtilsLabelEXT *pLabelInfo)
{
    /* A single point in the queue's timeline: it opens no region, so the
     * open labels (what reports name) stay as they are. */
    (void)_queue, (void)pLabelInfo;
}
