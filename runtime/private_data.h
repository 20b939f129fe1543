/* VkPrivateDataSlot (core 1.3): application data attached to any object. */
#pragma once

#include <pthread.h>
#include <vulkan/vulkan.h>

#include "object.h"

struct vkmm_private_data_entry;

struct vkmm_private_data_slot {
    struct vkmm_object base;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_private_data_slot, VkPrivateDataSlot, VK_OBJECT_TYPE_PRIVATE_DATA_SLOT)

/* The device's table of (slot, object) -> value. */
struct vkmm_private_data_store {
    pthread_mutex_t lock;
    struct vkmm_private_data_entry *entries;
    uint32_t count, capacity;
};

void vkmm_private_data_store_init(struct vkmm_private_data_store *store);
/* Drops the data attached to a destroyed object, so that a new object at
 * the same address reads zero (the spec's value for data never set). */
void vkmm_private_data_forget(struct vkmm_private_data_store *store, uint64_t object);
void vkmm_private_data_store_finish(struct vkmm_private_data_store *store,
                                    const VkAllocationCallbacks *allocator);
