/* Host allocations through VkAllocationCallbacks. */
#pragma once

#include <stddef.h>
#include <vulkan/vulkan.h>

/* The callbacks used when the application passes none. */
extern const VkAllocationCallbacks vkmm_default_allocator;

/* The spec: "pAllocator controls host memory allocation" and, when NULL, the
 * parent object's allocator is used (Memory Allocation, "Object lifetime").
 * Returns `alloc` when non-NULL, else `parent`, else the default. */
const VkAllocationCallbacks *vkmm_choose_allocator(const VkAllocationCallbacks *parent,
                                                   const VkAllocationCallbacks *alloc);

/* Zero-filled allocation of `size` bytes aligned to 16; NULL on failure. */
void *vkmm_zalloc(const VkAllocationCallbacks *parent, const VkAllocationCallbacks *alloc,
                  size_t size, VkSystemAllocationScope scope);
void vkmm_free(const VkAllocationCallbacks *parent, const VkAllocationCallbacks *alloc,
               void *memory);
char *vkmm_strdup(const VkAllocationCallbacks *allocator, const char *text,
                  VkSystemAllocationScope scope);
