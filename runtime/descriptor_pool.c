#include "descriptor_set.h"

#include <stdarg.h>
#include <stdio.h>

#include "alloc.h"
#include "device.h"
#include "log.h"
#include "sampler.h"

/* The spec: "the allocation may fail due to lack of space in the
 * descriptor pool" once maxSets or a type's descriptorCount is used up.
 * That is valid usage, and applications answer it by creating another
 * pool, so it is reported as a warning, not an error. */
static VkResult pool_exhausted(const struct vkmm_descriptor_pool *pool, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static VkResult pool_exhausted(const struct vkmm_descriptor_pool *pool, const char *format, ...)
{
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof(message), format, args);
    va_end(args);
    vkmm_log(&pool->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
             "VKMM-WARNING-OUT-OF-POOL-MEMORY", "%s; vkAllocateDescriptorSets returns VK_ERROR_OUT_OF_POOL_MEMORY",
             message);
    return VK_ERROR_OUT_OF_POOL_MEMORY;
}

/* What a pool slot counts (descriptor_set_layout.h). */
static const char *slot_name(uint32_t slot)
{
    static const char *const names[VKMM_DESCRIPTOR_TYPE_COUNT] = {
        "samplers", "combined image samplers", "sampled images", "storage images", "uniform texel buffers",
        "storage texel buffers", "uniform buffers", "storage buffers", "dynamic uniform buffers",
        "dynamic storage buffers", "input attachments", "bytes of inline uniform blocks",
    };
    return names[slot];
}

/* Whether `pool` can hold one more set of `layout`; logs why not. */
static VkResult pool_reserve(struct vkmm_descriptor_pool *pool, const struct vkmm_descriptor_set_layout *layout)
{
    if (pool->set_count >= pool->max_sets)
        return pool_exhausted(pool, "all %u sets (maxSets) of the pool are allocated", pool->max_sets);
    for (uint32_t type = 0; type < VKMM_DESCRIPTOR_TYPE_COUNT; type++) {
        if (layout->type_counts[type] > pool->remaining[type])
            return pool_exhausted(pool, "the set needs %u %s and the pool has %u left", layout->type_counts[type],
                                  slot_name(type), pool->remaining[type]);
    }
    return VK_SUCCESS;
}

static VkResult set_create(struct vkmm_descriptor_pool *pool, struct vkmm_descriptor_set_layout *layout,
                           struct vkmm_descriptor_set **out)
{
    VkResult result = pool_reserve(pool, layout);
    if (result != VK_SUCCESS)
        return result;
    size_t size = sizeof(struct vkmm_descriptor_set) +
                  (size_t)layout->descriptor_count * sizeof(struct vkmm_descriptor) + layout->inline_size;
    /* Zero-filled: every descriptor starts as a null descriptor. */
    struct vkmm_descriptor_set *set = vkmm_zalloc(&pool->allocator, NULL, size, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!set)
        return vkmm_errorf(pool, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a descriptor set of %u descriptors",
                           layout->descriptor_count);
    vkmm_object_init(&set->base, VK_OBJECT_TYPE_DESCRIPTOR_SET, pool->base.instance, pool->base.device);
    set->pool = pool;
    set->layout = layout;
    vkmm_descriptor_set_layout_ref(layout);
    set->descriptor_count = layout->descriptor_count;
    /* Immutable samplers are part of the set from the start, and so are
     * the bytes of its inline uniform blocks (after the descriptors,
     * zeroed), each seen by shaders as a uniform buffer. */
    uint8_t *inline_bytes = (uint8_t *)&set->descriptors[layout->descriptor_count];
    for (uint32_t b = 0; b < layout->binding_count; b++) {
        const struct vkmm_set_layout_binding *binding = &layout->bindings[b];
        for (uint32_t e = 0; binding->immutable_samplers && e < binding->count; e++)
            vkmm_sampler_state_store(&binding->immutable_samplers[e], &set->descriptors[binding->first + e].image);
        if (binding->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK && binding->count)
            set->descriptors[binding->first] = (struct vkmm_descriptor){
                .base = inline_bytes + binding->inline_offset,
                .range = binding->inline_size,
                .reach = binding->inline_size,
            };
    }
    pool->set_count++;
    for (uint32_t type = 0; type < VKMM_DESCRIPTOR_TYPE_COUNT; type++)
        pool->remaining[type] -= layout->type_counts[type];
    set->pool_next = pool->sets;
    if (pool->sets)
        pool->sets->pool_prev = set;
    pool->sets = set;
    *out = set;
    return VK_SUCCESS;
}

/* Frees `set` and gives its sets and descriptors back to its pool. */
static void set_destroy(struct vkmm_descriptor_set *set)
{
    struct vkmm_descriptor_pool *pool = set->pool;
    if (set->pool_prev)
        set->pool_prev->pool_next = set->pool_next;
    else
        pool->sets = set->pool_next;
    if (set->pool_next)
        set->pool_next->pool_prev = set->pool_prev;
    pool->set_count--;
    for (uint32_t type = 0; type < VKMM_DESCRIPTOR_TYPE_COUNT; type++)
        pool->remaining[type] += set->layout->type_counts[type];
    vkmm_descriptor_set_layout_unref(pool->base.device, set->layout);
    vkmm_object_finish(&set->base);
    vkmm_free(&pool->allocator, NULL, set);
}

static uint32_t add_saturating(uint32_t a, uint32_t b)
{
    return a > UINT32_MAX - b ? UINT32_MAX : a + b;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateDescriptorPool(VkDevice _device,
                                                          const VkDescriptorPoolCreateInfo *pCreateInfo,
                                                          const VkAllocationCallbacks *pAllocator,
                                                          VkDescriptorPool *pDescriptorPool)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    struct vkmm_descriptor_pool *pool =
        vkmm_zalloc(&device->allocator, pAllocator, sizeof(*pool), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!pool)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a descriptor pool");
    vkmm_object_init(&pool->base, VK_OBJECT_TYPE_DESCRIPTOR_POOL, device->base.instance, device);
    pool->allocator = *vkmm_choose_allocator(&device->allocator, pAllocator);
    pool->flags = pCreateInfo->flags;
    pool->max_sets = pCreateInfo->maxSets;
    for (uint32_t i = 0; i < pCreateInfo->poolSizeCount; i++) {
        const VkDescriptorPoolSize *size = &pCreateInfo->pPoolSizes[i];
        /* Sizes of types no layout of vkmm accepts can never be used. */
        uint32_t slot = vkmm_descriptor_type_slot(size->type);
        if (slot != UINT32_MAX)
            pool->remaining[slot] = add_saturating(pool->remaining[slot], size->descriptorCount);
    }
    *pDescriptorPool = vkmm_descriptor_pool_to_handle(pool);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyDescriptorPool(VkDevice _device, VkDescriptorPool descriptorPool,
                                                      const VkAllocationCallbacks *pAllocator)
{
    (void)_device, (void)pAllocator;
    VKMM_FROM_HANDLE(vkmm_descriptor_pool, pool, descriptorPool);
    if (!pool)
        return;
    /* The spec: "When a pool is destroyed, all descriptor sets allocated
     * from the pool are implicitly freed and become invalid." */
    while (pool->sets)
        set_destroy(pool->sets);
    VkAllocationCallbacks allocator = pool->allocator;
    vkmm_object_finish(&pool->base);
    vkmm_free(&allocator, NULL, pool);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_ResetDescriptorPool(VkDevice _device, VkDescriptorPool descriptorPool,
                                                         VkDescriptorPoolResetFlags flags)
{
    (void)_device, (void)flags;
    VKMM_FROM_HANDLE(vkmm_descriptor_pool, pool, descriptorPool);
    while (pool->sets)
        set_destroy(pool->sets);
    return VK_SUCCESS;
}

/* Frees the first `count` sets of `sets`, for an allocation that failed. */
static void free_allocated(uint32_t count, VkDescriptorSet *sets)
{
    for (uint32_t i = 0; i < count; i++)
        set_destroy(vkmm_descriptor_set_from_handle(sets[i]));
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_AllocateDescriptorSets(VkDevice _device,
                                                            const VkDescriptorSetAllocateInfo *pAllocateInfo,
                                                            VkDescriptorSet *pDescriptorSets)
{
    (void)_device;
    VKMM_FROM_HANDLE(vkmm_descriptor_pool, pool, pAllocateInfo->descriptorPool);
    uint32_t count = pAllocateInfo->descriptorSetCount;
    for (uint32_t i = 0; i < count; i++) {
        VKMM_FROM_HANDLE(vkmm_descriptor_set_layout, layout, pAllocateInfo->pSetLayouts[i]);
        struct vkmm_descriptor_set *set = NULL;
        VkResult result = set_create(pool, layout, &set);
        if (result != VK_SUCCESS) {
            /* The spec: "If the creation of any of those descriptor sets
             * fails, then the implementation must destroy all successfully
             * created descriptor set objects from this command, set all
             * entries of the pDescriptorSets array to VK_NULL_HANDLE and
             * return the error." */
            free_allocated(i, pDescriptorSets);
            for (uint32_t j = 0; j < count; j++)
                pDescriptorSets[j] = VK_NULL_HANDLE;
            return result;
        }
        pDescriptorSets[i] = vkmm_descriptor_set_to_handle(set);
    }
    return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_FreeDescriptorSets(VkDevice _device, VkDescriptorPool descriptorPool,
                                                        uint32_t descriptorSetCount,
                                                        const VkDescriptorSet *pDescriptorSets)
{
    (void)_device;
    VKMM_FROM_HANDLE(vkmm_descriptor_pool, pool, descriptorPool);
    if (!(pool->flags & VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT))
        vkmm_log(&pool->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                 VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, "VKMM-INVALID-FREE-DESCRIPTOR-SETS",
                 "vkFreeDescriptorSets on a pool created without VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT; "
                 "vkmm frees the sets anyway");
    for (uint32_t i = 0; i < descriptorSetCount; i++) {
        VKMM_FROM_HANDLE(vkmm_descriptor_set, set, pDescriptorSets[i]);
        if (!set)
            continue;
        if (set->pool != pool) {
            vkmm_log(&set->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, "VKMM-INVALID-FREE-DESCRIPTOR-SETS",
                     "pDescriptorSets[%u] was not allocated from descriptorPool; it is not freed", i);
            continue;
        }
        set_destroy(set);
    }
    return VK_SUCCESS;
}
