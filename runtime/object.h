/* The base every vkmm object starts with, and the handle casts. */
#pragma once

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>
#include <vulkan/vk_icd.h>

struct vkmm_device;
struct vkmm_instance;

/* First member of every object.  For dispatchable objects the loader
 * overwrites loader_data with its dispatch table pointer (vk_icd.h), so it
 * must stay first. */
struct vkmm_object {
    VK_LOADER_DATA loader_data;
    VkObjectType type;
    struct vkmm_instance *instance;
    struct vkmm_device *device; /* NULL for instance-level objects */
    char *debug_name;           /* VK_EXT_debug_utils object name, or NULL */
};

void vkmm_object_init(struct vkmm_object *object, VkObjectType type,
                      struct vkmm_instance *instance, struct vkmm_device *device);
/* Releases what the base owns (the debug name); the object's memory is the
 * caller's. */
void vkmm_object_finish(struct vkmm_object *object);

/* Defines <name>_from_handle() and <name>_to_handle() for a struct whose
 * first member is `struct vkmm_object base`.  The type check catches a
 * handle of the wrong kind in debug builds. */
#define VKMM_DEFINE_HANDLE_CASTS(name, VkType, object_type)                     \
    _Static_assert(offsetof(struct name, base) == 0, #name ": base not first"); \
    static inline struct name *name##_from_handle(VkType handle)                 \
    {                                                                             \
        struct name *object = (struct name *)(uintptr_t)handle;                  \
        assert(!object || object->base.type == (object_type));                   \
        return object;                                                            \
    }                                                                             \
    static inline VkType name##_to_handle(struct name *object)                   \
    {                                                                             \
        return (VkType)(uintptr_t)object;                                         \
    }

#define VKMM_FROM_HANDLE(name, var, handle) struct name *var = name##_from_handle(handle)
