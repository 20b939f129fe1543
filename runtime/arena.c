#include "arena.h"

#include <string.h>

#include "alloc.h"

#define VKMM_ARENA_BLOCK_SIZE (16u << 10)

struct vkmm_arena_block {
    struct vkmm_arena_block *next;
    size_t capacity;
    _Alignas(16) unsigned char data[];
};

void vkmm_arena_init(struct vkmm_arena *arena, struct vkmm_arena_free_list *free_list)
{
    arena->free_list = free_list;
    arena->blocks = NULL;
    arena->used = 0;
}

static struct vkmm_arena_block *take_block(struct vkmm_arena *arena, size_t capacity)
{
    struct vkmm_arena_free_list *list = arena->free_list;
    for (struct vkmm_arena_block **link = &list->blocks; *link; link = &(*link)->next) {
        if ((*link)->capacity >= capacity) {
            struct vkmm_arena_block *block = *link;
            *link = block->next;
            return block;
        }
    }
    struct vkmm_arena_block *block = vkmm_zalloc(list->allocator, NULL, sizeof(*block) + capacity,
                                                 VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (block)
        block->capacity = capacity;
    return block;
}

void *vkmm_arena_alloc(struct vkmm_arena *arena, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (!arena->blocks || arena->used + size > arena->blocks->capacity) {
        size_t capacity = size > VKMM_ARENA_BLOCK_SIZE ? size : VKMM_ARENA_BLOCK_SIZE;
        struct vkmm_arena_block *block = take_block(arena, capacity);
        if (!block)
            return NULL;
        block->next = arena->blocks;
        arena->blocks = block;
        arena->used = 0;
    }
    void *memory = arena->blocks->data + arena->used;
    arena->used += size;
    memset(memory, 0, size);
    return memory;
}

void vkmm_arena_reset(struct vkmm_arena *arena)
{
    while (arena->blocks) {
        struct vkmm_arena_block *block = arena->blocks;
        arena->blocks = block->next;
        block->next = arena->free_list->blocks;
        arena->free_list->blocks = block;
    }
    arena->used = 0;
}

void vkmm_arena_free_list_trim(struct vkmm_arena_free_list *free_list)
{
    while (free_list->blocks) {
        struct vkmm_arena_block *block = free_list->blocks;
        free_list->blocks = block->next;
        vkmm_free(free_list->allocator, NULL, block);
    }
}
