#pragma once

#include <vulkan/vulkan.h>

#include "object.h"

struct vkmm_device_memory;

struct vkmm_buffer {
    struct vkmm_object base;
    VkDeviceSize size;
    VkBufferUsageFlags usage;
    VkBufferCreateFlags flags;
    struct vkmm_device_memory *memory; /* NULL until bound */
    VkDeviceSize memory_offset;
    /* Strict mode, for reports: its number (bind order) and its place in
     * the memory's list of bound buffers (engine lock). */
    uint64_t id;
    struct vkmm_buffer *bound_prev, *bound_next;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_buffer, VkBuffer, VK_OBJECT_TYPE_BUFFER)

/* Device-side pointer to [offset, offset+size) of a bound buffer. */
uint8_t *vkmm_buffer_device_bytes(struct vkmm_buffer *buffer, VkDeviceSize offset, VkDeviceSize size);
