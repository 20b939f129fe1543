/* VkDescriptorSetLayout: where each binding's descriptors live in a set's
 * flat array of struct vkmm_descriptor. */
#pragma once

#include <stdatomic.h>
#include <vulkan/vulkan.h>

#include "object.h"

struct vkmm_sampler_state;

/* The descriptor types a layout accepts, each with a slot for what sets
 * take from pools: the core types VK_DESCRIPTOR_TYPE_SAMPLER (0) through
 * VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT (10) in their own slots, and inline
 * uniform blocks (Vulkan 1.3) in the last, counted in bytes as the spec
 * counts them. */
#define VKMM_DESCRIPTOR_SLOT_INLINE_UNIFORM_BLOCK 11
#define VKMM_DESCRIPTOR_TYPE_COUNT 12
/* The slot of `type`, or UINT32_MAX for a type no layout accepts. */
uint32_t vkmm_descriptor_type_slot(VkDescriptorType type);

/* An inline uniform block's bytes start at multiples of this in a set. */
#define VKMM_INLINE_UNIFORM_BLOCK_ALIGNMENT 16

struct vkmm_set_layout_binding {
    uint32_t binding;
    VkDescriptorType type;
    /* descriptorCount; for an inline uniform block, 1 (one descriptor
     * pointing at its bytes), or 0 when it has no bytes. */
    uint32_t count;
    uint32_t first;          /* index of element 0 in the set's descriptor array */
    uint32_t dynamic_first;  /* for *_DYNAMIC types: index among the set's dynamic descriptors */
    VkShaderStageFlags stages;
    /* SAMPLER and COMBINED_IMAGE_SAMPLER bindings with pImmutableSamplers:
     * the samplers' words (shader_abi.h, VKMM_SAMPLER_*), one per element;
     * they are in every set from allocation on and writes keep them. */
    const struct vkmm_sampler_state *immutable_samplers;
    /* Inline uniform blocks: the block's bytes (descriptorCount) and where
     * they start in the set's inline bytes. */
    uint32_t inline_size;
    uint32_t inline_offset;
};

struct vkmm_descriptor_set_layout {
    struct vkmm_object base;
    atomic_uint ref_count; /* the spec lets a layout be destroyed while sets and pipeline layouts use it */
    VkDescriptorSetLayoutCreateFlags flags;
    uint32_t binding_count;       /* entries in `bindings`, sorted by binding number */
    uint32_t descriptor_count;    /* total descriptors of a set */
    uint32_t dynamic_count;       /* dynamic descriptors of a set, in binding order */
    uint32_t type_counts[VKMM_DESCRIPTOR_TYPE_COUNT]; /* per slot: what a set takes from a pool */
    uint32_t inline_size; /* bytes of a set's inline uniform blocks, each aligned */
    struct vkmm_set_layout_binding *bindings;
    /* The same bindings with each descriptor type replaced by the buffer
     * type whose memory accesses it makes (storage images and texel
     * buffers: STORAGE_BUFFER; sampled ones: UNIFORM_BUFFER; samplers
     * alone: SAMPLER): what strict mode's dispatch set-up, which mirrors
     * the bytes of buffer descriptors, is given (vkmm_pipeline_layout_memory_view). */
    struct vkmm_set_layout_binding *memory_bindings;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_descriptor_set_layout, VkDescriptorSetLayout, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT)

/* The binding with number `binding`, or NULL. */
const struct vkmm_set_layout_binding *
vkmm_descriptor_set_layout_find(const struct vkmm_descriptor_set_layout *layout, uint32_t binding);

/* The layout is freed when vkDestroyDescriptorSetLayout has been called and
 * the last set or pipeline layout using it drops its reference. */
void vkmm_descriptor_set_layout_ref(struct vkmm_descriptor_set_layout *layout);
void vkmm_descriptor_set_layout_unref(struct vkmm_device *device, struct vkmm_descriptor_set_layout *layout);
