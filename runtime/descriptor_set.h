/* VkDescriptorSet and VkDescriptorPool. */
#pragma once

#include <vulkan/vulkan.h>

#include "descriptor_set_layout.h"
#include "object.h"
#include "shader_abi.h"

struct vkmm_device_memory;

/* One buffer descriptor as shaders see it.  `base` points at the device
 * bytes of the first byte of the range (NULL for an unwritten or null
 * descriptor); `range` is the bytes a shader may touch from there.  The
 * memory and offset identify the bytes for strict mode's reports. */
struct vkmm_descriptor {
    uint8_t *base;
    uint64_t range;
    struct vkmm_device_memory *memory;
    uint64_t memory_offset; /* of `base` within `memory` */
    /* Bytes from `base` to the end of the buffer: how far a dynamic offset
     * may move the range (VUID-vkCmdBindDescriptorSets-pDynamicOffsets-01979). */
    uint64_t reach;
    /* Images, texel buffers and samplers (shader_abi.h). */
    struct vkmm_image_descriptor image;
};
_Static_assert(offsetof(struct vkmm_descriptor, image) == VKMM_DESCRIPTOR_IMAGE, "shader_abi.h");
_Static_assert(sizeof(struct vkmm_descriptor) == VKMM_DESCRIPTOR_SIZE, "shader_abi.h");
_Static_assert(offsetof(struct vkmm_descriptor, range) == VKMM_DESCRIPTOR_RANGE, "shader_abi.h");

struct vkmm_descriptor_set {
    struct vkmm_object base;
    struct vkmm_descriptor_pool *pool;
    struct vkmm_descriptor_set_layout *layout;
    struct vkmm_descriptor_set *pool_prev, *pool_next;
    uint32_t descriptor_count;
    /* layout->descriptor_count, then layout->inline_size bytes of inline
     * uniform blocks. */
    struct vkmm_descriptor descriptors[];
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_descriptor_set, VkDescriptorSet, VK_OBJECT_TYPE_DESCRIPTOR_SET)

/* The descriptors of `binding` (element 0 first), or NULL when the set's
 * layout has no descriptors with that binding number. */
const struct vkmm_descriptor *vkmm_descriptor_set_binding(const struct vkmm_descriptor_set *set, uint32_t binding);

/* Writes `count` descriptors of `type` from dst_binding[dst_element]
 * onwards, crossing into the following bindings as the spec's consecutive
 * binding updates do.  Buffer types read one VkDescriptorBufferInfo per
 * descriptor, `stride` bytes apart from `infos`; texel buffers one
 * VkBufferView, the other types one VkDescriptorImageInfo; an inline
 * uniform block takes `count` bytes from `infos` at byte `dst_element`.  An
 * invalid write is reported and dropped whole.  The one write path of
 * vkUpdateDescriptorSets and update templates. */
void vkmm_descriptor_set_write(struct vkmm_descriptor_set *set, uint32_t dst_binding, uint32_t dst_element,
                               uint32_t count, VkDescriptorType type, const void *infos, size_t stride);

struct vkmm_descriptor_pool {
    struct vkmm_object base;
    VkAllocationCallbacks allocator; /* for the pool and its sets */
    VkDescriptorPoolCreateFlags flags;
    uint32_t max_sets;
    uint32_t set_count;
    /* Remaining descriptors of each type, by slot (vkmm_descriptor_type_slot;
     * bytes for inline uniform blocks); the spec: allocation beyond them
     * may fail with VK_ERROR_OUT_OF_POOL_MEMORY. */
    uint32_t remaining[VKMM_DESCRIPTOR_TYPE_COUNT];
    struct vkmm_descriptor_set *sets;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_descriptor_pool, VkDescriptorPool, VK_OBJECT_TYPE_DESCRIPTOR_POOL)

/* The descriptor moved by a dynamic offset, or false when the moved range
 * would leave the buffer (VUID-vkCmdBindDescriptorSets-pDynamicOffsets-01979):
 * the caller then makes it a null descriptor, so invalid usage never lets
 * a shader reach past its buffer. */
bool vkmm_descriptor_apply_dynamic_offset(struct vkmm_descriptor *descriptor, uint64_t offset);
