#include "private_data.h"

#include <string.h>

#include "alloc.h"
#include "device.h"
#include "log.h"

struct vkmm_private_data_entry {
    struct vkmm_private_data_slot *slot;
    VkObjectType object_type;
    uint64_t object;
    uint64_t value;
};

void vkmm_private_data_store_init(struct vkmm_private_data_store *store)
{
    memset(store, 0, sizeof(*store));
    pthread_mutex_init(&store->lock, NULL);
}

void vkmm_private_data_store_finish(struct vkmm_private_data_store *store,
                                    const VkAllocationCallbacks *allocator)
{
    vkmm_free(allocator, NULL, store->entries);
    pthread_mutex_destroy(&store->lock);
}

void vkmm_private_data_forget(struct vkmm_private_data_store *store, uint64_t object)
{
    pthread_mutex_lock(&store->lock);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < store->count; i++) {
        if (store->entries[i].object != object)
            store->entries[kept++] = store->entries[i];
    }
    store->count = kept;
    pthread_mutex_unlock(&store->lock);
}

static struct vkmm_private_data_entry *find_entry(struct vkmm_private_data_store *store,
                                                  struct vkmm_private_data_slot *slot,
                                                  VkObjectType type, uint64_t object)
{
    for (uint32_t i = 0; i < store->count; i++) {
        struct vkmm_private_data_entry *e = &store->entries[i];
        if (e->slot == slot && e->object_type == type && e->object == object)
            return e;
    }
    return NULL;
}

static VkResult grow(struct vkmm_device *device, struct vkmm_private_data_store *store)
{
    uint32_t capacity = store->capacity ? store->capacity * 2 : 16;
    struct vkmm_private_data_entry *entries =
        vkmm_zalloc(&device->allocator, NULL, capacity * sizeof(*entries), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
    if (!entries)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    if (store->count)
        memcpy(entries, store->entries, store->count * sizeof(*entries));
    vkmm_free(&device->allocator, NULL, store->entries);
    store->entries = entries;
    store->capacity = capacity;
    return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreatePrivateDataSlot(VkDevice _device,
                                                           const VkPrivateDataSlotCreateInfo *pCreateInfo,
                                                           const VkAllocationCallbacks *pAllocator,
                                                           VkPrivateDataSlot *pPrivateDataSlot)
{
    (void)pCreateInfo;
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    struct vkmm_private_data_slot *slot =
        vkmm_zalloc(&device->allocator, pAllocator, sizeof(*slot), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!slot)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a private data slot");
    vkmm_object_init(&slot->base, VK_OBJECT_TYPE_PRIVATE_DATA_SLOT, device->base.instance, device);
    *pPrivateDataSlot = vkmm_private_data_slot_to_handle(slot);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyPrivateDataSlot(VkDevice _device, VkPrivateDataSlot privateDataSlot,
                                                        const VkAllocationCallbacks *pAllocator)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_private_data_slot, slot, privateDataSlot);
    if (!slot)
        return;
    struct vkmm_private_data_store *store = &device->private_data;
    pthread_mutex_lock(&store->lock);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < store->count; i++) {
        if (store->entries[i].slot != slot)
            store->entries[kept++] = store->entries[i];
    }
    store->count = kept;
    pthread_mutex_unlock(&store->lock);
    vkmm_object_finish(&slot->base);
    vkmm_free(&device->allocator, pAllocator, slot);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_SetPrivateData(VkDevice _device, VkObjectType objectType,
                                                    uint64_t objectHandle, VkPrivateDataSlot privateDataSlot,
                                                    uint64_t data)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_private_data_slot, slot, privateDataSlot);
    struct vkmm_private_data_store *store = &device->private_data;
    VkResult result = VK_SUCCESS;
    pthread_mutex_lock(&store->lock);
    struct vkmm_private_data_entry *entry = find_entry(store, slot, objectType, objectHandle);
    if (!entry && store->count == store->capacity)
        result = grow(device, store);
    if (!entry && result == VK_SUCCESS) {
        entry = &store->entries[store->count++];
        *entry = (struct vkmm_private_data_entry){ slot, objectType, objectHandle, 0 };
    }
    if (entry)
        entry->value = data;
    pthread_mutex_unlock(&store->lock);
    if (result != VK_SUCCESS)
        return vkmm_errorf(device, result, "no memory to store private data");
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetPrivateData(VkDevice _device, VkObjectType objectType,
                                                uint64_t objectHandle, VkPrivateDataSlot privateDataSlot,
                                                uint64_t *pData)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_private_data_slot, slot, privateDataSlot);
    struct vkmm_private_data_store *store = &device->private_data;
    pthread_mutex_lock(&store->lock);
    struct vkmm_private_data_entry *entry = find_entry(store, slot, objectType, objectHandle);
    /* The spec: "If ... not previously set, ... *pData [is] zero." */
    *pData = entry ? entry->value : 0;
    pthread_mutex_unlock(&store->lock);
}
