/* The device's address space: one large reservation of virtual memory from
 * which every VkDeviceMemory takes its bytes.  A device address is then the
 * host address of the byte, and a shader can check that a buffer-reference
 * pointer stays inside device memory with one range check (no lookup). */
#pragma once

#include <pthread.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

struct vkmm_address_range;

struct vkmm_address_space {
    uint8_t *base;
    uint64_t size;
    pthread_mutex_t lock;
    const VkAllocationCallbacks *allocator;
    struct vkmm_address_range *free_ranges; /* sorted by offset, coalesced */
    uint32_t free_count, free_capacity;
};

/* Reserves up to `size` bytes of address space (less if the system refuses
 * so much).  Pages are committed when touched. */
VkResult vkmm_address_space_init(struct vkmm_address_space *space, uint64_t size,
                                 const VkAllocationCallbacks *allocator);
void vkmm_address_space_finish(struct vkmm_address_space *space);
/* Zero-filled bytes for an allocation, 64 KiB aligned; NULL when no range is
 * free. */
uint8_t *vkmm_address_space_alloc(struct vkmm_address_space *space, uint64_t size);
/* Returns the range and its pages. */
void vkmm_address_space_free(struct vkmm_address_space *space, uint8_t *bytes, uint64_t size);
