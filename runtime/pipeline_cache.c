#include "pipeline_cache.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "device.h"
#include "log.h"

#define VKMM_CACHE_MAGIC 0x4d4d4b56u /* 'VKMM' */

struct vkmm_pipeline_cache_entry {
    struct vkmm_pipeline_cache_entry *next;
    struct vkmm_cache_key key;
    uint32_t local_size[3];
    uint32_t subgroup_width;
    uint32_t subgroup_count;
    uint32_t shared_memory_size;
    uint32_t state_size;
    uint32_t uses_buffer_references;
    uint64_t object_size;
    unsigned char object[];
};

/* The serialised form of an entry's fixed part. */
struct serialized_entry {
    uint64_t hash[2];
    uint32_t local_size[3];
    uint32_t subgroup_width;
    uint32_t subgroup_count;
    uint32_t shared_memory_size;
    uint32_t state_size;
    uint32_t uses_buffer_references;
    uint64_t object_size;
};

static void serialize_entry(const struct vkmm_pipeline_cache_entry *e, struct serialized_entry *fixed)
{
    memset(fixed, 0, sizeof(*fixed));
    fixed->hash[0] = e->key.hash[0];
    fixed->hash[1] = e->key.hash[1];
    memcpy(fixed->local_size, e->local_size, sizeof(fixed->local_size));
    fixed->subgroup_width = e->subgroup_width;
    fixed->subgroup_count = e->subgroup_count;
    fixed->shared_memory_size = e->shared_memory_size;
    fixed->state_size = e->state_size;
    fixed->uses_buffer_references = e->uses_buffer_references;
    fixed->object_size = e->object_size;
}

/* --- Keys: two FNV-1a lanes with different offsets. -------------------------------- */

void vkmm_cache_key_init(struct vkmm_cache_key *key)
{
    key->hash[0] = 0xcbf29ce484222325ull;
    key->hash[1] = 0x84222325cbf29ce4ull;
}

void vkmm_cache_key_add(struct vkmm_cache_key *key, const void *data, size_t size)
{
    const unsigned char *bytes = data;
    for (size_t i = 0; i < size; i++) {
        key->hash[0] = (key->hash[0] ^ bytes[i]) * 0x100000001b3ull;
        key->hash[1] = (key->hash[1] ^ (bytes[i] + 0x9eu)) * 0x100000001b3ull;
        key->hash[1] ^= key->hash[1] >> 29;
    }
}

static bool same_key(const struct vkmm_cache_key *a, const struct vkmm_cache_key *b)
{
    return a->hash[0] == b->hash[0] && a->hash[1] == b->hash[1];
}

/* --- Entries ---------------------------------------------------------------------- */

static struct vkmm_pipeline_cache_entry *find_locked(struct vkmm_pipeline_cache *cache,
                                                     const struct vkmm_cache_key *key)
{
    for (struct vkmm_pipeline_cache_entry *e = cache->entries; e; e = e->next) {
        if (same_key(&e->key, key))
            return e;
    }
    return NULL;
}

static void insert_locked(struct vkmm_pipeline_cache *cache, const struct serialized_entry *fixed,
                          const void *object)
{
    struct vkmm_cache_key key = { { fixed->hash[0], fixed->hash[1] } };
    if (find_locked(cache, &key))
        return;
    struct vkmm_pipeline_cache_entry *e = vkmm_zalloc(&cache->allocator, NULL, sizeof(*e) + fixed->object_size,
                                                      VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!e)
        return;
    e->key = key;
    memcpy(e->local_size, fixed->local_size, sizeof(e->local_size));
    e->subgroup_width = fixed->subgroup_width;
    e->subgroup_count = fixed->subgroup_count;
    e->shared_memory_size = fixed->shared_memory_size;
    e->state_size = fixed->state_size;
    e->uses_buffer_references = fixed->uses_buffer_references;
    e->object_size = fixed->object_size;
    memcpy(e->object, object, fixed->object_size);
    e->next = cache->entries;
    cache->entries = e;
    cache->entry_count++;
}

bool vkmm_pipeline_cache_find(struct vkmm_pipeline_cache *cache, const struct vkmm_cache_key *key,
                              struct vkmm_compiled_shader *shader)
{
    bool found = false;
    pthread_mutex_lock(&cache->lock);
    struct vkmm_pipeline_cache_entry *e = find_locked(cache, key);
    if (e) {
        memset(shader, 0, sizeof(*shader));
        shader->object = malloc(e->object_size);
        if (shader->object) {
            memcpy(shader->object, e->object, e->object_size);
            shader->object_size = e->object_size;
            memcpy(shader->local_size, e->local_size, sizeof(shader->local_size));
            shader->subgroup_width = e->subgroup_width;
            shader->subgroup_count = e->subgroup_count;
            shader->shared_memory_size = e->shared_memory_size;
            shader->state_size = e->state_size;
            shader->uses_buffer_references = e->uses_buffer_references;
            found = true;
        }
    }
    pthread_mutex_unlock(&cache->lock);
    return found;
}

void vkmm_pipeline_cache_add(struct vkmm_pipeline_cache *cache, const struct vkmm_cache_key *key,
                             const struct vkmm_compiled_shader *shader)
{
    struct serialized_entry fixed = {
        .hash = { key->hash[0], key->hash[1] },
        .local_size = { shader->local_size[0], shader->local_size[1], shader->local_size[2] },
        .subgroup_width = shader->subgroup_width,
        .subgroup_count = shader->subgroup_count,
        .shared_memory_size = shader->shared_memory_size,
        .state_size = shader->state_size,
        .uses_buffer_references = shader->uses_buffer_references,
        .object_size = shader->object_size,
    };
    pthread_mutex_lock(&cache->lock);
    insert_locked(cache, &fixed, shader->object);
    pthread_mutex_unlock(&cache->lock);
}

/* --- Serialisation ------------------------------------------------------------------- */

static void header_of(struct vkmm_device *device, VkPipelineCacheHeaderVersionOne *header)
{
    const VkPhysicalDeviceProperties *p = &device->physical_device->properties.v10;
    header->headerSize = sizeof(*header);
    header->headerVersion = VK_PIPELINE_CACHE_HEADER_VERSION_ONE;
    header->vendorID = p->vendorID;
    header->deviceID = p->deviceID;
    memcpy(header->pipelineCacheUUID, p->pipelineCacheUUID, VK_UUID_SIZE);
}

/* Loads data from vkGetPipelineCacheData.  The spec: data that is
 * incompatible (header mismatch) is ignored; so is anything malformed. */
static void load_initial_data(struct vkmm_device *device, struct vkmm_pipeline_cache *cache, const uint8_t *data,
                              size_t size)
{
    VkPipelineCacheHeaderVersionOne expected, header;
    header_of(device, &expected);
    if (size < sizeof(header) + 8)
        return;
    memcpy(&header, data, sizeof(header));
    if (memcmp(&header, &expected, sizeof(header)) != 0)
        return;
    uint32_t magic, count;
    memcpy(&magic, data + sizeof(header), 4);
    memcpy(&count, data + sizeof(header) + 4, 4);
    if (magic != VKMM_CACHE_MAGIC)
        return;
    size_t at = sizeof(header) + 8;
    for (uint32_t i = 0; i < count; i++) {
        struct serialized_entry fixed;
        if (size - at < sizeof(fixed))
            return;
        memcpy(&fixed, data + at, sizeof(fixed));
        at += sizeof(fixed);
        if (fixed.object_size > size - at)
            return;
        insert_locked(cache, &fixed, data + at);
        at += fixed.object_size;
    }
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreatePipelineCache(VkDevice _device, const VkPipelineCacheCreateInfo *pCreateInfo,
                                                         const VkAllocationCallbacks *pAllocator,
                                                         VkPipelineCache *pPipelineCache)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    struct vkmm_pipeline_cache *cache =
        vkmm_zalloc(&device->allocator, pAllocator, sizeof(*cache), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!cache)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a pipeline cache");
    vkmm_object_init(&cache->base, VK_OBJECT_TYPE_PIPELINE_CACHE, device->base.instance, device);
    cache->allocator = *vkmm_choose_allocator(&device->allocator, pAllocator);
    pthread_mutex_init(&cache->lock, NULL);
    if (pCreateInfo->initialDataSize && pCreateInfo->pInitialData)
        load_initial_data(device, cache, pCreateInfo->pInitialData, pCreateInfo->initialDataSize);
    *pPipelineCache = vkmm_pipeline_cache_to_handle(cache);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyPipelineCache(VkDevice _device, VkPipelineCache pipelineCache,
                                                     const VkAllocationCallbacks *pAllocator)
{
    (void)_device, (void)pAllocator;
    VKMM_FROM_HANDLE(vkmm_pipeline_cache, cache, pipelineCache);
    if (!cache)
        return;
    while (cache->entries) {
        struct vkmm_pipeline_cache_entry *e = cache->entries;
        cache->entries = e->next;
        vkmm_free(&cache->allocator, NULL, e);
    }
    pthread_mutex_destroy(&cache->lock);
    VkAllocationCallbacks allocator = cache->allocator;
    vkmm_object_finish(&cache->base);
    vkmm_free(&allocator, NULL, cache);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_GetPipelineCacheData(VkDevice _device, VkPipelineCache pipelineCache,
                                                          size_t *pDataSize, void *pData)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_pipeline_cache, cache, pipelineCache);
    VkPipelineCacheHeaderVersionOne header;
    header_of(device, &header);
    pthread_mutex_lock(&cache->lock);
    size_t total = sizeof(header) + 8;
    for (struct vkmm_pipeline_cache_entry *e = cache->entries; e; e = e->next)
        total += sizeof(struct serialized_entry) + e->object_size;
    if (!pData) {
        pthread_mutex_unlock(&cache->lock);
        *pDataSize = total;
        return VK_SUCCESS;
    }
    /* The spec: if pDataSize is too small, write nothing but a valid prefix
     * of whole entries ... return VK_INCOMPLETE.  Here: header and the
     * entries that fit. */
    size_t capacity = *pDataSize, at = 0;
    VkResult result = VK_SUCCESS;
    if (capacity < sizeof(header) + 8) {
        pthread_mutex_unlock(&cache->lock);
        *pDataSize = 0;
        return VK_INCOMPLETE;
    }
    uint8_t *out = pData;
    memcpy(out, &header, sizeof(header));
    at = sizeof(header) + 8;
    uint32_t magic = VKMM_CACHE_MAGIC, written = 0;
    for (struct vkmm_pipeline_cache_entry *e = cache->entries; e; e = e->next) {
        size_t need = sizeof(struct serialized_entry) + e->object_size;
        if (capacity - at < need) {
            result = VK_INCOMPLETE;
            break;
        }
        struct serialized_entry fixed;
        serialize_entry(e, &fixed);
        memcpy(out + at, &fixed, sizeof(fixed));
        memcpy(out + at + sizeof(fixed), e->object, e->object_size);
        at += need;
        written++;
    }
    memcpy(out + sizeof(header), &magic, 4);
    memcpy(out + sizeof(header) + 4, &written, 4);
    pthread_mutex_unlock(&cache->lock);
    *pDataSize = at;
    return result;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_MergePipelineCaches(VkDevice _device, VkPipelineCache dstCache,
                                                         uint32_t srcCacheCount, const VkPipelineCache *pSrcCaches)
{
    (void)_device;
    VKMM_FROM_HANDLE(vkmm_pipeline_cache, dst, dstCache);
    for (uint32_t i = 0; i < srcCacheCount; i++) {
        VKMM_FROM_HANDLE(vkmm_pipeline_cache, src, pSrcCaches[i]);
        pthread_mutex_lock(&src->lock);
        pthread_mutex_lock(&dst->lock);
        for (struct vkmm_pipeline_cache_entry *e = src->entries; e; e = e->next) {
            struct serialized_entry fixed;
            serialize_entry(e, &fixed);
            insert_locked(dst, &fixed, e->object);
        }
        pthread_mutex_unlock(&dst->lock);
        pthread_mutex_unlock(&src->lock);
    }
    return VK_SUCCESS;
}
