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
    const VkAllocationCallbacks *allocator =
        object->device ? &object->device->allocator : &object->instance->allocator;
    vkmm_free(allocator, NULL, object->debug_name);
    object->debug_name = NULL;
}
