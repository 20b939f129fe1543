/* VkSampler: its state as the one word shaders read (shader_abi.h). */
#pragma once

#include <vulkan/vulkan.h>

#include "object.h"

/* What a descriptor holds of a sampler (struct vkmm_image_descriptor). */
struct vkmm_sampler_state {
    uint32_t word; /* VKMM_SAMPLER_*; 0: no sampler */
    float min_lod, max_lod, lod_bias;
};

struct vkmm_sampler {
    struct vkmm_object base;
    struct vkmm_sampler_state state;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_sampler, VkSampler, VK_OBJECT_TYPE_SAMPLER)

struct vkmm_image_descriptor;

/* The sampler's state, all 0 for NULL. */
struct vkmm_sampler_state vkmm_sampler_state(const struct vkmm_sampler *sampler);
/* Puts `state` into an image descriptor's sampler fields. */
void vkmm_sampler_state_store(const struct vkmm_sampler_state *state, struct vkmm_image_descriptor *descriptor);
