#pragma once

#include <vulkan/vulkan.h>

#include "object.h"

struct vkmm_device;
struct vkmm_device_memory;

struct vkmm_buffer {
    struct vkmm_object base;
    VkDeviceSize size;
    VkBufferUsageFlags usage;
    VkBufferCreateFlags flags;
    struct vkmm_device_memory *memory; /* NULL until bound */
    VkDeviceSize memory_offset;
    /* Strict mode: its name over the memory's bytes in the bridge's
     * registry (strict/strict.h), for reports; NULL when not bound to
     * emulated memory. */
    struct vkmm_strict_buffer *strict;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_buffer, VkBuffer, VK_OBJECT_TYPE_BUFFER)

/* Strict mode: registers (bind) or forgets (unbind) the bound buffer's
 * bytes with the bridge; images bind their bytes through these too. */
void vkmm_buffer_strict_bind(struct vkmm_device *device, struct vkmm_buffer *buffer);
void vkmm_buffer_strict_unbind(struct vkmm_device *device, struct vkmm_buffer *buffer);

/* Device-side pointer to [offset, offset+size) of a bound buffer. */
uint8_t *vkmm_buffer_device_bytes(struct vkmm_buffer *buffer, VkDeviceSize offset, VkDeviceSize size);
