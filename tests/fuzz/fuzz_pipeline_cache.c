/* libFuzzer target: the pipeline-cache loader.  Each input is a
 * VkPipelineCacheCreateInfo::pInitialData blob.  A custom mutator keeps
 * most inputs close to a real blob (vkGetPipelineCacheData of two
 * pipelines, made at start-up): it restores the header, drops, duplicates,
 * swaps and splices whole entries, rewrites counts and sizes and flips
 * bytes inside one entry, so the loader's entry walk, MAC check and the
 * pipeline's shape check all see hostile data, not just a bad header.
 *
 * Through the cache, two pipelines are created and dispatched, and their
 * results must be exactly right: a corrupted entry must be ignored and the
 * pipeline compiled anew, never run.  Then vkGetPipelineCacheData (whole
 * and truncated) and vkMergePipelineCaches run on the cache, and a cache
 * made from its data must supply both pipelines (a hit, and right). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_vk.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/* pipeline_cache.c's layout: a 32-byte header, magic and entry count,
 * then per entry 88 fixed bytes (MAC first, object size last) and the
 * object code. */
enum { HEADER = 32, COUNT_AT = 36, ENTRIES_AT = 40, FIXED = 88, OBJECT_SIZE_AT = 80 };
enum { ELEMENTS = 200, GROUPS_A = 4, GROUPS_B = 2, IDS = GROUPS_B * 24 };

static struct fuzz_vk vk;
static struct fuzz_kernel add_arrays, dispatch_ids;
static struct fuzz_buffer a, b, c, ids;
static uint8_t *seed_blob;
static size_t seed_size;

static uint8_t *cache_data(VkPipelineCache cache, size_t *size)
{
    FUZZ_CHECK(vkGetPipelineCacheData(vk.device, cache, size, NULL));
    uint8_t *data = malloc(*size);
    FUZZ_ASSERT(data, "no memory");
    FUZZ_CHECK(vkGetPipelineCacheData(vk.device, cache, size, data));
    return data;
}

static VkPipelineCache cache_from(const void *data, size_t size)
{
    VkPipelineCacheCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO, .initialDataSize = size, .pInitialData = data,
    };
    VkPipelineCache cache;
    FUZZ_CHECK(vkCreatePipelineCache(vk.device, &info, NULL, &cache));
    return cache;
}

/* Runs add_arrays (c = a * 3 + b over ELEMENTS) and checks every element,
 * and the ones past the end untouched. */
static void check_add_arrays(VkPipeline pipeline)
{
    float *fa = a.mapped, *fb = b.mapped, *fc = c.mapped;
    for (int i = 0; i < GROUPS_A * 64; i++) {
        fa[i] = (float)i;
        fb[i] = (float)(i % 7);
        fc[i] = -1.0f;
    }
    struct { uint32_t n; float scale; } push = { ELEMENTS, 3.0f };
    FUZZ_CHECK(fuzz_dispatch(&vk, add_arrays.layout, &add_arrays.set, 1, pipeline, &push, sizeof(push), GROUPS_A, 1,
                             1));
    for (int i = 0; i < GROUPS_A * 64; i++) {
        float want = i < ELEMENTS ? (float)i * 3.0f + (float)(i % 7) : -1.0f;
        FUZZ_ASSERT(fc[i] == want, "add_arrays through the cache: c[%d] = %g, not %g", i, fc[i], want);
    }
}

/* Runs dispatch_ids (4x3x2 workgroups, GROUPS_B of them) and checks the
 * ids every invocation wrote. */
static void check_dispatch_ids(VkPipeline pipeline)
{
    memset(ids.mapped, 0xff, IDS * 16);
    FUZZ_CHECK(fuzz_dispatch(&vk, dispatch_ids.layout, &dispatch_ids.set, 1, pipeline, NULL, 0, GROUPS_B, 1, 1));
    const uint32_t *out = ids.mapped;
    for (uint32_t group = 0; group < GROUPS_B; group++) {
        for (uint32_t local = 0; local < 24; local++) {
            uint32_t lx = local % 4, ly = local / 4 % 3, lz = local / 12;
            uint32_t flat = group * 4 + lx + GROUPS_B * 4 * (ly + 3 * lz);
            const uint32_t *v = &out[flat * 4];
            FUZZ_ASSERT(v[0] == group * 10000 && v[1] == local && v[2] == lx + 10 * ly + 100 * lz && v[3] == flat,
                        "dispatch_ids through the cache: invocation %u wrote (%u, %u, %u, %u)", flat, v[0], v[1], v[2],
                        v[3]);
        }
    }
}

/* Both pipelines through `cache`; *hits counts the cache hits. */
static void create_and_check(VkPipelineCache cache, unsigned *hits)
{
    VkPipeline pipeline;
    bool hit;
    FUZZ_CHECK(fuzz_pipeline_create(&vk, &add_arrays, cache, &pipeline, &hit));
    check_add_arrays(pipeline);
    vkDestroyPipeline(vk.device, pipeline, NULL);
    *hits = hit;
    FUZZ_CHECK(fuzz_pipeline_create(&vk, &dispatch_ids, cache, &pipeline, &hit));
    check_dispatch_ids(pipeline);
    vkDestroyPipeline(vk.device, pipeline, NULL);
    *hits += hit;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_vk_init(&vk, NULL);
    fuzz_kernel_create(&vk, fuzz_shader_add_arrays, fuzz_shader_add_arrays_size, 3, 8, &add_arrays);
    fuzz_kernel_create(&vk, fuzz_shader_dispatch_ids, fuzz_shader_dispatch_ids_size, 1, 0, &dispatch_ids);
    fuzz_buffer_create(&vk, GROUPS_A * 64 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &a);
    fuzz_buffer_create(&vk, GROUPS_A * 64 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &b);
    fuzz_buffer_create(&vk, GROUPS_A * 64 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &c);
    fuzz_buffer_create(&vk, IDS * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &ids);
    fuzz_kernel_bind(&vk, &add_arrays, (struct fuzz_buffer[]){ a, b, c }, 3);
    fuzz_kernel_bind(&vk, &dispatch_ids, &ids, 1);
    /* The real blob the mutator starts from. */
    VkPipelineCache cache = cache_from(NULL, 0);
    unsigned hits;
    create_and_check(cache, &hits);
    seed_blob = cache_data(cache, &seed_size);
    vkDestroyPipelineCache(vk.device, cache, NULL);
    FUZZ_ASSERT(hits == 0 && seed_size > ENTRIES_AT, "an empty cache hit, or gave no data");
    return 0;
}

/* --- The mutator ---------------------------------------------------------------------- */

static uint32_t random_next(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return (uint32_t)(*state >> 16);
}

/* The entries' offsets in `data`, as the loader would walk them (at most
 * `max`); returns how many whole entries there are. */
static size_t walk_entries(const uint8_t *data, size_t size, size_t *offsets, size_t *sizes, size_t max)
{
    size_t n = 0;
    for (size_t at = ENTRIES_AT; n < max && size >= at && size - at >= FIXED;) {
        uint64_t object;
        memcpy(&object, data + at + OBJECT_SIZE_AT, 8);
        if (object > size - at - FIXED)
            break;
        offsets[n] = at;
        sizes[n] = FIXED + (size_t)object;
        at += sizes[n++];
    }
    return n;
}

static size_t replace_range(uint8_t *data, size_t size, size_t max_size, size_t at, size_t old_length,
                            const uint8_t *with, size_t new_length)
{
    if (size - old_length + new_length > max_size)
        return size;
    memmove(data + at + new_length, data + at + old_length, size - at - old_length);
    if (with)
        memcpy(data + at, with, new_length);
    return size - old_length + new_length;
}

static void set_count(uint8_t *data, size_t size, uint32_t count)
{
    if (size >= ENTRIES_AT)
        memcpy(data + COUNT_AT, &count, 4);
}

/* One change at the level of entries. */
static size_t mutate_entries(uint8_t *data, size_t size, size_t max_size, uint64_t *random)
{
    size_t offsets[64], sizes[64];
    size_t n = walk_entries(data, size, offsets, sizes, 64);
    uint32_t choice = random_next(random) % 8;
    size_t e = n ? random_next(random) % n : 0, f = n ? random_next(random) % n : 0;
    if (n == 0 || choice == 0) {
        /* Splice an entry of the real blob (valid MAC) onto the end. */
        size_t seed_offsets[8], seed_sizes[8];
        size_t m = walk_entries(seed_blob, seed_size, seed_offsets, seed_sizes, 8);
        size_t pick = m ? random_next(random) % m : 0;
        if (!m || size < ENTRIES_AT)
            return size;
        size = replace_range(data, size, max_size, size, 0, seed_blob + seed_offsets[pick], seed_sizes[pick]);
        set_count(data, size, (uint32_t)walk_entries(data, size, offsets, sizes, 64));
        return size;
    }
    switch (choice) {
    case 1: /* drop */
        size = replace_range(data, size, max_size, offsets[e], sizes[e], NULL, 0);
        set_count(data, size, (uint32_t)(n - 1));
        return size;
    case 2: { /* duplicate */
        uint8_t *copy = malloc(sizes[e]);
        if (!copy)
            return size;
        memcpy(copy, data + offsets[e], sizes[e]);
        size = replace_range(data, size, max_size, offsets[f], 0, copy, sizes[e]);
        free(copy);
        set_count(data, size, (uint32_t)(n + 1));
        return size;
    }
    case 3: /* the count says more or fewer entries than there are */
        set_count(data, size, random_next(random) % 2 ? (uint32_t)(n + 1 + random_next(random) % 3)
                                                      : random_next(random));
        return size;
    case 4: { /* an object size that lies */
        uint64_t object = sizes[e] - FIXED;
        uint64_t lie = random_next(random) % 2 ? object + (random_next(random) % 17) - 8 : random_next(random);
        memcpy(data + offsets[e] + OBJECT_SIZE_AT, &lie, 8);
        return size;
    }
    case 5: /* one byte of one entry: MAC, fields or code */
        data[offsets[e] + random_next(random) % sizes[e]] ^= (uint8_t)(1u << (random_next(random) % 8));
        return size;
    case 6: /* cut inside an entry */
        return offsets[e] + random_next(random) % sizes[e];
    default: { /* swap two entries (same MACs, other order) */
        if (e == f)
            return size;
        size_t lo = e < f ? e : f, hi = e < f ? f : e;
        uint8_t *copy = malloc(sizes[hi]);
        if (!copy)
            return size;
        memcpy(copy, data + offsets[hi], sizes[hi]);
        size = replace_range(data, size, max_size, offsets[hi], sizes[hi], NULL, 0);
        size = replace_range(data, size, max_size, offsets[lo], 0, copy, sizes[hi]);
        free(copy);
        return size;
    }
    }
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    uint64_t random = seed * 0x9e3779b97f4a7c15ull + 1;
    uint32_t choice = random_next(&random) % 16;
    if (choice == 0)
        return LLVMFuzzerMutate(data, size, max_size);
    if (size < ENTRIES_AT || memcmp(data, seed_blob, HEADER) != 0 || choice == 1) {
        /* Back to the real blob, or only its header and magic restored. */
        if (choice % 2 && seed_size <= max_size) {
            memcpy(data, seed_blob, seed_size);
            return seed_size;
        }
        if (size >= ENTRIES_AT)
            memcpy(data, seed_blob, COUNT_AT);
        return size;
    }
    return mutate_entries(data, size, max_size, &random);
}

/* --- The target ----------------------------------------------------------------------- */

/* vkGetPipelineCacheData into a buffer too small: a valid prefix of whole
 * entries and VK_INCOMPLETE (or nothing, below a header). */
static void check_truncated_data(VkPipelineCache cache, const uint8_t *whole, size_t whole_size, size_t capacity)
{
    uint8_t *part = malloc(capacity ? capacity : 1);
    FUZZ_ASSERT(part, "no memory");
    size_t written = capacity;
    VkResult result = vkGetPipelineCacheData(vk.device, cache, &written, capacity ? part : NULL);
    if (capacity) {
        FUZZ_ASSERT(result == (capacity >= whole_size ? VK_SUCCESS : VK_INCOMPLETE) && written <= capacity,
                    "vkGetPipelineCacheData into %zu of %zu bytes: %d, %zu written", capacity, whole_size,
                    (int)result, written);
        FUZZ_ASSERT(written < ENTRIES_AT || memcmp(part, whole, HEADER) == 0, "a truncated copy has another header");
    }
    free(part);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    VkPipelineCache cache = cache_from(data, size);
    unsigned hits;
    create_and_check(cache, &hits);

    /* Whatever the initial data, the cache now holds both pipelines. */
    size_t copy_size;
    uint8_t *copy = cache_data(cache, &copy_size);
    check_truncated_data(cache, copy, copy_size, size % (copy_size + 1));
    VkPipelineCache again = cache_from(copy, copy_size);
    create_and_check(again, &hits);
    FUZZ_ASSERT(hits == 2, "a cache made from vkGetPipelineCacheData supplied %u of 2 pipelines", hits);

    /* Merged into a cache with the same fuzzed start. */
    VkPipelineCache merged = cache_from(data, size);
    VkPipelineCache sources[2] = { cache, again };
    FUZZ_CHECK(vkMergePipelineCaches(vk.device, merged, 2, sources));
    size_t merged_size;
    uint8_t *merged_data = cache_data(merged, &merged_size);
    FUZZ_ASSERT(merged_size >= copy_size, "a merge lost entries: %zu bytes, not at least %zu", merged_size,
                copy_size);
    free(merged_data);
    vkDestroyPipelineCache(vk.device, merged, NULL);
    vkDestroyPipelineCache(vk.device, again, NULL);
    vkDestroyPipelineCache(vk.device, cache, NULL);
    free(copy);
    return 0;
}
