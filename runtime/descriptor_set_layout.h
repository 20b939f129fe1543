/* VkDescriptorSetLayout: where each binding's descriptors live in a set's
 * flat array of struct vkmm_descriptor. */
#pragma once

#include <stdatomic.h>
#include <vulkan/vulkan.h>

#include "object.h"

/* The core descriptor types, VK_DESCRIPTOR_TYPE_SAMPLER (0) through
 * VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT (10): the only ones a layout accepts,
 * since vkmm enables no extension or feature that adds types. */
#define VKMM_DESCRIPTOR_TYPE_COUNT 11

struct vkmm_set_layout_binding {
    uint32_t binding;
    VkDescriptorType type;
    uint32_t count;          /* descriptorCount */
    uint32_t first;          /* index of element 0 in the set's descriptor array */
    uint32_t dynamic_first;  /* for *_DYNAMIC types: index among the set's dynamic descriptors */
    VkShaderStageFlags stages;
    /* SAMPLER and COMBINED_IMAGE_SAMPLER bindings with pImmutableSamplers:
     * the samplers' words (shader_abi.h, VKMM_SAMPLER_*), one per element;
     * they are in every set from allocation on and writes keep them. */
    const uint32_t *immutable_samplers;
};

struct vkmm_descriptor_set_layout {
    struct vkmm_object base;
    atomic_uint ref_count; /* the spec lets a layout be destroyed while sets and pipeline layouts use it */
    VkDescriptorSetLayoutCreateFlags flags;
    uint32_t binding_count;       /* entries in `bindings`, sorted by binding number */
    uint32_t descriptor_count;    /* total descriptors of a set */
    uint32_t dynamic_count;       /* dynamic descriptors of a set, in binding order */
    uint32_t type_counts[VKMM_DESCRIPTOR_TYPE_COUNT]; /* descriptors of each type: what a set takes from a pool */
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
