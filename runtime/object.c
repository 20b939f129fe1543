#include "object.h"

#include "alloc.h"
#include "device.h"
#include "instance.h"

void vkmm_object_init(struct vkmm_object *object, VkObjectType type,
                      struct vkmm_instance *instance, struct vkmm_device *device)
{
    set_loader_magic_value(object);
    object->type = type;
    object->instance = instance;
    object->device = device;
    object->debug_name = NULL;
}

void vkmm_object_finish(struct vkmm_object *object)
{
    /* The device's own store is gone by the time the device finishes. */
    if (object->device && object->type != VK_OBJECT_TYPE_DEVICE)
        vkmm_private_data_forget(&object->device->private_data, (uint64_t)(uintptr_t)object);
    const VkAllocationCallbacks *allocator =
        object->device ? &object->device->allocator : &object->instance->allocator;
    vkmm_free(allocator, NULL, object->debug_name);
    object->debug_name = NULL;
}
