/* A chunked bump allocator for recorded commands.  Blocks released by a
 * reset go to a free list shared by the arenas of one command pool (which
 * the spec makes externally synchronized), and vkTrimCommandPool returns
 * that list to the allocator. */
#pragma once

#include <stddef.h>
#include <vulkan/vulkan.h>

struct vkmm_arena_block;

struct vkmm_arena_free_list {
    const VkAllocationCallbacks *allocator;
    struct vkmm_arena_block *blocks;
};

struct vkmm_arena {
    struct vkmm_arena_free_list *free_list;
    struct vkmm_arena_block *blocks; /* newest first */
    size_t used;                     /* bytes used in the newest block */
};

void vkmm_arena_init(struct vkmm_arena *arena, struct vkmm_arena_free_list *free_list);
/* 16-byte aligned, zero-filled storage; NULL when out of memory. */
void *vkmm_arena_alloc(struct vkmm_arena *arena, size_t size);
/* Gives every block back to the free list. */
void vkmm_arena_reset(struct vkmm_arena *arena);
/* Frees the blocks of the free list. */
void vkmm_arena_free_list_trim(struct vkmm_arena_free_list *free_list);
