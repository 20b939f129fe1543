#include "alloc.h"

#include <stdlib.h>
#include <string.h>

#define VKMM_ALLOC_ALIGN 16

static void *VKAPI_PTR default_allocation(void *user_data, size_t size, size_t alignment,
                                          VkSystemAllocationScope scope)
{
    (void)user_data;
    (void)scope;
    void *memory = NULL;
    if (alignment < sizeof(void *))
        alignment = sizeof(void *);
    if (posix_memalign(&memory, alignment, size) != 0)
        return NULL;
    return memory;
}

static void *VKAPI_PTR default_reallocation(void *user_data, void *original, size_t size,
                                            size_t alignment, VkSystemAllocationScope scope)
{
    (void)user_data;
    (void)scope;
    (void)alignment; /* vkmm never reallocates with an alignment above malloc's */
    return realloc(original, size);
}

static void VKAPI_PTR default_free(void *user_data, void *memory)
{
    (void)user_data;
    free(memory);
}

const VkAllocationCallbacks vkmm_default_allocator = {
    .pUserData = NULL,
    .pfnAllocation = default_allocation,
    .pfnReallocation = default_reallocation,
    .pfnFree = default_free,
};

const VkAllocationCallbacks *vkmm_choose_allocator(const VkAllocationCallbacks *parent,
                                                   const VkAllocationCallbacks *alloc)
{
    if (alloc)
        return alloc;
    if (parent)
        return parent;
    return &vkmm_default_allocator;
}

void *vkmm_zalloc(const VkAllocationCallbacks *parent, const VkAllocationCallbacks *alloc,
                  size_t size, VkSystemAllocationScope scope)
{
    const VkAllocationCallbacks *a = vkmm_choose_allocator(parent, alloc);
    void *memory = a->pfnAllocation(a->pUserData, size, VKMM_ALLOC_ALIGN, scope);
    if (memory)
        memset(memory, 0, size);
    return memory;
}

void vkmm_free(const VkAllocationCallbacks *parent, const VkAllocationCallbacks *alloc,
               void *memory)
{
    if (!memory)
        return;
    const VkAllocationCallbacks *a = vkmm_choose_allocator(parent, alloc);
    a->pfnFree(a->pUserData, memory);
}

char *vkmm_strdup(const VkAllocationCallbacks *allocator, const char *text,
                  VkSystemAllocationScope scope)
{
    size_t length = strlen(text) + 1;
    char *copy = vkmm_zalloc(allocator, NULL, length, scope);
    if (copy)
        memcpy(copy, text, length);
    return copy;
}
