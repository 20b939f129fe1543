/* VkPipelineCache: compiled shaders (object code and what is needed to run
 * it) keyed by a hash of every compilation input, so a hit skips all of the
 * compiler; its data round-trips through vkGetPipelineCacheData. */
#pragma once

#include <pthread.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "compiler.h"
#include "object.h"

struct vkmm_pipeline_cache_entry;

struct vkmm_pipeline_cache {
    struct vkmm_object base;
    VkAllocationCallbacks allocator;
    pthread_mutex_t lock;
    struct vkmm_pipeline_cache_entry *entries;
    uint32_t entry_count;
    uint8_t mac_key[32]; /* the entries' HMAC key: this build and device */
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_pipeline_cache, VkPipelineCache, VK_OBJECT_TYPE_PIPELINE_CACHE)

struct vkmm_cache_key {
    uint64_t hash[2];
};

/* Fills `shader` (object copy and metadata, not yet loaded) on a hit. */
bool vkmm_pipeline_cache_find(struct vkmm_pipeline_cache *cache, const struct vkmm_cache_key *key,
                              struct vkmm_compiled_shader *shader);
/* Why a cached shader (found for a pipeline) does not fit the pipeline's
 * module, or NULL when it does: every field the dispatch trusts. */
const char *vkmm_pipeline_cache_check(const struct vkmm_compiled_shader *cached, const struct vkmm_shader_shape *shape);
/* Drops the entry for `key`, if any (it failed a check or to load). */
void vkmm_pipeline_cache_forget(struct vkmm_pipeline_cache *cache, const struct vkmm_cache_key *key);
/* Adds a compiled shader; a failure to allocate only loses the entry. */
void vkmm_pipeline_cache_add(struct vkmm_pipeline_cache *cache, const struct vkmm_cache_key *key,
                             const struct vkmm_compiled_shader *shader);

/* Incremental 128-bit hash for cache keys. */
void vkmm_cache_key_init(struct vkmm_cache_key *key);
void vkmm_cache_key_add(struct vkmm_cache_key *key, const void *data, size_t size);
