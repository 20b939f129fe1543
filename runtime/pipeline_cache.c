#include "pipeline_cache.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "build_identity.h"
#include "device.h"
#include "log.h"
#include "physical_device.h"

#define VKMM_CACHE_MAGIC 0x324d4b56u /* 'VKM2': entries carry a MAC */

/* Pipeline-cache data is untrusted input (it comes from disk or another
 * program), and an entry holds native code that vkmm would execute.  Each
 * entry therefore carries an HMAC-SHA-256 of its fields and object code
 * under a key derived from this driver build and device
 * (cache_mac_key): an entry that does not verify is ignored, never linked.
 * Entries that do verify are still checked against the pipeline they are
 * loaded for (vkmm_pipeline_cache_check) before their code runs. */

struct vkmm_pipeline_cache_entry {
    struct vkmm_pipeline_cache_entry *next;
    uint8_t mac[VKMM_DIGEST_SIZE];
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

/* The serialised form of an entry's fixed part; the object code follows. */
struct serialized_entry {
    uint8_t mac[VKMM_DIGEST_SIZE]; /* over the rest of this struct and the object code */
    uint64_t hash[2];
    uint32_t local_size[3];
    uint32_t subgroup_width;
    uint32_t subgroup_count;
    uint32_t shared_memory_size;
    uint32_t state_size;
    uint32_t uses_buffer_references;
    uint64_t object_size;
};
_Static_assert(sizeof(struct serialized_entry) == 88, "no padding: every byte is covered by the MAC");

/* The largest object code and per-subgroup state an entry may claim. */
#define MAX_OBJECT_SIZE (256u << 20)
#define MAX_STATE_SIZE (64u << 20)

static void serialize_entry(const struct vkmm_pipeline_cache_entry *e, struct serialized_entry *fixed)
{
    memset(fixed, 0, sizeof(*fixed));
    memcpy(fixed->mac, e->mac, sizeof(fixed->mac));
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

/* The MAC key: this driver build, the device's cache UUID and name (the
 * name carries the mode, whose code differs). */
static void cache_mac_key(struct vkmm_device *device, uint8_t key[VKMM_DIGEST_SIZE])
{
    const VkPhysicalDeviceProperties *p = &device->physical_device->properties.v10;
    const void *pieces[] = { "vkmm pipeline cache MAC key", vkmm_build_identity(), p->pipelineCacheUUID,
                             p->deviceName };
    size_t sizes[] = { 27, VKMM_DIGEST_SIZE, VK_UUID_SIZE, strlen(p->deviceName) };
    vkmm_sha256(pieces, sizes, 4, key);
}

static bool entry_mac(const struct vkmm_pipeline_cache *cache, const struct serialized_entry *fixed,
                      const void *object, uint8_t mac[VKMM_DIGEST_SIZE])
{
    const void *pieces[] = { (const uint8_t *)fixed + VKMM_DIGEST_SIZE, object };
    size_t sizes[] = { sizeof(*fixed) - VKMM_DIGEST_SIZE, (size_t)fixed->object_size };
    return vkmm_hmac_sha256(cache->mac_key, pieces, sizes, 2, mac);
}

/* Constant time, although the MAC key is no secret from the driver's
 * readers: a habit that costs nothing. */
static bool same_mac(const uint8_t *a, const uint8_t *b)
{
    uint8_t difference = 0;
    for (size_t i = 0; i < VKMM_DIGEST_SIZE; i++)
        difference |= a[i] ^ b[i];
    return difference == 0;
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
    memcpy(e->mac, fixed->mac, sizeof(e->mac));
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

void vkmm_pipeline_cache_forget(struct vkmm_pipeline_cache *cache, const struct vkmm_cache_key *key)
{
    pthread_mutex_lock(&cache->lock);
    for (struct vkmm_pipeline_cache_entry **link = &cache->entries; *link; link = &(*link)->next) {
        struct vkmm_pipeline_cache_entry *e = *link;
        if (!same_key(&e->key, key))
            continue;
        *link = e->next;
        cache->entry_count--;
        vkmm_free(&cache->allocator, NULL, e);
        break;
    }
    pthread_mutex_unlock(&cache->lock);
}

const char *vkmm_pipeline_cache_check(const struct vkmm_compiled_shader *cached, const struct vkmm_shader_shape *shape)
{
    if (memcmp(cached->local_size, shape->local_size, sizeof(shape->local_size)) != 0)
        return "its workgroup size is not the module's";
    if (cached->subgroup_width != shape->subgroup_width || cached->subgroup_count != shape->subgroup_count)
        return "its subgroup width or count is not the device's";
    if (cached->shared_memory_size != shape->shared_memory_size)
        return "its shared-memory size is not the module's";
    if (cached->uses_buffer_references != shape->uses_buffer_references)
        return "its buffer-reference use is not the module's";
    return NULL;
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
    if (!entry_mac(cache, &fixed, shader->object, fixed.mac))
        return; /* no memory in the crypto library: only the entry is lost */
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

__attribute__((format(printf, 2, 3))) static void warn_ignored(struct vkmm_device *device, const char *format, ...)
{
    char message[384];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof(message), format, args);
    va_end(args);
    vkmm_log(&device->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
             VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, "VKMM-PIPELINE-CACHE-IGNORED",
             "pipeline cache initial data: %s; ignored (pipelines are compiled anew)", message);
}

/* Fields an entry claims that no pipeline of this device can have. */
static const char *implausible(const struct serialized_entry *fixed)
{
    if (fixed->object_size == 0 || fixed->object_size > MAX_OBJECT_SIZE)
        return "object size out of range";
    if (fixed->state_size < 8 || fixed->state_size > MAX_STATE_SIZE || fixed->state_size % 8)
        return "subgroup state size out of range";
    if (fixed->uses_buffer_references > 1)
        return "bad buffer-reference flag";
    return NULL;
}

/* Loads data from vkGetPipelineCacheData.  The spec: data that is
 * incompatible (header mismatch) is ignored; so is anything malformed, and
 * any entry whose MAC does not verify (corrupted, truncated, tampered with,
 * or written by another build).  Never an error for the application. */
static void load_initial_data(struct vkmm_device *device, struct vkmm_pipeline_cache *cache, const uint8_t *data,
                              size_t size)
{
    VkPipelineCacheHeaderVersionOne expected, header;
    header_of(device, &expected);
    if (size < sizeof(header) + 8)
        return warn_ignored(device, "%zu bytes are too few for a header", size);
    memcpy(&header, data, sizeof(header));
    if (memcmp(&header, &expected, sizeof(header)) != 0)
        return warn_ignored(device, "the header (vendor, device or pipelineCacheUUID) is another driver's or build's");
    uint32_t magic, count;
    memcpy(&magic, data + sizeof(header), 4);
    memcpy(&count, data + sizeof(header) + 4, 4);
    if (magic != VKMM_CACHE_MAGIC)
        return warn_ignored(device, "unknown format 0x%08x", magic);
    size_t at = sizeof(header) + 8;
    uint32_t rejected = 0;
    for (uint32_t i = 0; i < count; i++) {
        struct serialized_entry fixed;
        if (size - at < sizeof(fixed)) {
            warn_ignored(device, "entry %u of %u is truncated", i, count);
            break;
        }
        memcpy(&fixed, data + at, sizeof(fixed));
        at += sizeof(fixed);
        if (fixed.object_size > size - at) {
            warn_ignored(device, "entry %u of %u is truncated", i, count);
            break;
        }
        const uint8_t *object = data + at;
        at += fixed.object_size;
        uint8_t mac[VKMM_DIGEST_SIZE];
        const char *problem = implausible(&fixed);
        if (!problem && !entry_mac(cache, &fixed, object, mac))
            problem = "no memory to check its MAC";
        else if (!problem && !same_mac(mac, fixed.mac))
            problem = "its MAC does not verify (corrupted, or written by another build)";
        if (problem) {
            if (rejected++ < 4)
                warn_ignored(device, "entry %u of %u: %s", i, count, problem);
            continue;
        }
        insert_locked(cache, &fixed, object);
    }
    if (rejected > 4)
        warn_ignored(device, "%u entries in all", rejected);
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
    cache_mac_key(device, cache->mac_key);
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
