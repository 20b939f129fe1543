/* VkDeviceMemory.  Mapped memory goes through this object alone: the
 * pointer vkMapMemory returns, flush and invalidate are implemented here, so
 * that strict mode can give the host its own view of the bytes (DESIGN §3.1)
 * without touching callers. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "object.h"

struct vkmm_device_memory {
    struct vkmm_object base;
    VkDeviceSize size;
    uint32_t type_index;
    VkMemoryPropertyFlags properties;
    uint8_t *bytes;         /* the device domain's copy */
    size_t mapping_size;    /* bytes reserved with mmap */
    uint64_t device_address; /* base of its range in the device address space */
    bool device_addressable; /* allocated with VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT */
    /* Strict mode: these bytes as the bridge knows them (strict/strict.h);
     * NULL in fast mode and for memory strict mode does not emulate. */
    struct vkmm_strict_memory *strict;
    /* Host mapping state (vkMapMemory is externally synchronized). */
    void *map_pointer;
    VkDeviceSize map_offset, map_size;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_device_memory, VkDeviceMemory, VK_OBJECT_TYPE_DEVICE_MEMORY)

/* Reserves the device's address space (address_space.h). */
VkResult vkmm_device_memory_init_address_space(struct vkmm_device *device);

/* Device-side access to the bytes of [offset, offset+size): the executor's
 * only way to reach memory contents. */
uint8_t *vkmm_device_memory_device_bytes(struct vkmm_device_memory *memory, VkDeviceSize offset,
                                         VkDeviceSize size);
