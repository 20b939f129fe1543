#pragma once

#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "object.h"

struct vkmm_shader_module {
    struct vkmm_object base;
    size_t word_count;
    uint32_t words[];
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_shader_module, VkShaderModule, VK_OBJECT_TYPE_SHADER_MODULE)
