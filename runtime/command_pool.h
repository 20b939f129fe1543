#pragma once

#include <vulkan/vulkan.h>

#include "arena.h"
#include "object.h"

struct vkmm_command_buffer;

struct vkmm_command_pool {
    struct vkmm_object base;
    VkAllocationCallbacks allocator;
    VkCommandPoolCreateFlags flags;
    uint32_t queue_family_index;
    struct vkmm_command_buffer *buffers; /* every buffer allocated from it */
    struct vkmm_arena_free_list free_blocks;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_command_pool, VkCommandPool, VK_OBJECT_TYPE_COMMAND_POOL)
