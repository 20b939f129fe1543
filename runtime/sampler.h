/* VkSampler: its state as the one word shaders read (shader_abi.h). */
#pragma once

#include <vulkan/vulkan.h>

#include "object.h"

struct vkmm_sampler {
    struct vkmm_object base;
    uint32_t word; /* VKMM_SAMPLER_* */
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_sampler, VkSampler, VK_OBJECT_TYPE_SAMPLER)

/* The sampler's word, 0 for NULL. */
uint32_t vkmm_sampler_word(const struct vkmm_sampler *sampler);
