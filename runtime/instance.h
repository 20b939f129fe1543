#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <vulkan/vulkan.h>

#include "object.h"
#include "physical_device.h"

struct vkmm_debug_messenger;

struct vkmm_instance {
    struct vkmm_object base;
    VkAllocationCallbacks allocator;
    uint32_t api_version;
    uint64_t enabled_extensions; /* bit e: vkmm_instance_extensions[e] */

    pthread_mutex_t messenger_lock; /* recursive: a callback may log again */
    struct vkmm_debug_messenger *messengers;
    /* Messengers chained to VkInstanceCreateInfo, live only while the
     * instance is being created or destroyed. */
    VkDebugUtilsMessengerCreateInfoEXT *lifecycle_messengers;
    uint32_t lifecycle_messenger_count;
    bool lifecycle_messengers_active;

    struct vkmm_physical_device physical_device;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_instance, VkInstance, VK_OBJECT_TYPE_INSTANCE)

/* Fills a caller's array with the two-call idiom: with `out` NULL returns
 * the count; otherwise copies min(count, n) elements and returns
 * VK_INCOMPLETE when some did not fit. */
VkResult vkmm_fill_array(void *out, uint32_t *count, const void *items, uint32_t n, size_t size);
/* The index of extension `name` in `list` (n entries), or -1. */
int vkmm_extension_index(const VkExtensionProperties *list, uint32_t n, const char *name);
/* Bit e set for each of `names` that is list[e] (e < 64). */
uint64_t vkmm_extension_bits(const VkExtensionProperties *list, uint32_t n, const char *const *names, uint32_t count);
