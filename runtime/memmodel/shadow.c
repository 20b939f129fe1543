/* Shadow state that scales (DESIGN §3.1 "versioned store"; issue 9 "state
 * proportional to the bytes touched"): per-byte metadata of a level — the
 * seq of a version, the write event that made it — kept per 64-byte
 * granule.  Bytes of a granule written by one command and made available by
 * one operation share their metadata, so the common granule costs one value
 * for 64 bytes; a granule whose bytes differ gets a block of per-byte values
 * until a write covers it whole again.
 *
 * The arrays are calloc'd: for large memories they come as fresh pages,
 * committed only where a granule is touched. */
#include <string.h>

#include "memmodel_internal.h"

#define G VKMM_MM_GRANULE

bool vkmm_mm_meta_init(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta, uint64_t size)
{
    *meta = (struct vkmm_mm_meta){ .granules = (size + G - 1) / G, .size = size };
    meta->uniform = vkmm_mm_calloc(e, meta->granules, sizeof *meta->uniform);
    meta->detail = vkmm_mm_calloc(e, meta->granules, sizeof *meta->detail);
    return meta->uniform && meta->detail;
}

void vkmm_mm_meta_finish(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta)
{
    vkmm_mm_free(e, meta->uniform);
    vkmm_mm_free(e, meta->detail);
    vkmm_mm_free(e, meta->blocks);
    *meta = (struct vkmm_mm_meta){ 0 };
}

/* A block of per-byte values: block 0 means "none", free blocks form a
 * list through their first value. */
static uint32_t block_alloc(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta)
{
    if (meta->block_free) {
        uint32_t i = meta->block_free;
        meta->block_free = (uint32_t)meta->blocks[(uint64_t)i * G];
        meta->block_live++;
        return i;
    }
    uint32_t first = meta->block_count ? meta->block_count : 1;
    if (first == UINT32_MAX || !vkmm_mm_reserve(e, (void **)&meta->blocks, &meta->block_capacity,
                                                (uint64_t)first + 1, G * sizeof *meta->blocks))
        return 0;
    meta->block_count = first + 1;
    meta->block_live++;
    return first;
}

static void block_release(struct vkmm_mm_meta *meta, uint32_t i)
{
    meta->blocks[(uint64_t)i * G] = meta->block_free;
    meta->block_free = i;
    meta->block_live--;
}

/* Granule g becomes uniform with `value` (its block, if any, is freed). */
static void granule_uniform(struct vkmm_mm_meta *meta, uint64_t g, uint64_t value)
{
    if (meta->detail[g]) {
        block_release(meta, meta->detail[g]);
        meta->detail[g] = 0;
    }
    meta->uniform[g] = value;
}

/* Granule g gets a per-byte block holding its uniform value; false when
 * out of memory (e->status says so). */
static bool granule_detail(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta, uint64_t g)
{
    if (meta->detail[g])
        return true;
    uint32_t i = block_alloc(e, meta);
    if (!i)
        return false;
    uint64_t *block = &meta->blocks[(uint64_t)i * G];
    for (unsigned k = 0; k < G; k++)
        block[k] = meta->uniform[g];
    meta->detail[g] = i;
    return true;
}

/* Bytes of granule g inside the memory (the last granule may be short). */
static unsigned granule_bytes(const struct vkmm_mm_meta *meta, uint64_t g)
{
    uint64_t left = meta->size - g * G;
    return left < G ? (unsigned)left : G;
}

/* A block whose bytes agree again becomes a uniform granule. */
static void granule_collapse(struct vkmm_mm_meta *meta, uint64_t g)
{
    const uint64_t *block = &meta->blocks[(uint64_t)meta->detail[g] * G];
    unsigned n = granule_bytes(meta, g);
    for (unsigned k = 1; k < n; k++)
        if (block[k] != block[0])
            return;
    granule_uniform(meta, g, block[0]);
}

void vkmm_mm_meta_set(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta, uint64_t b, uint64_t value)
{
    uint64_t g = b / G;
    if (!meta->detail[g] && meta->uniform[g] == value)
        return;
    if (!granule_detail(e, meta, g))
        return;
    meta->blocks[(uint64_t)meta->detail[g] * G + b % G] = value;
}

/* Whole granules [first, last) all get `value`: their blocks go, then one
 * pass stores the value (a landing or a write fills megabytes at once). */
static void fill_whole_granules(struct vkmm_mm_meta *meta, uint64_t first, uint64_t last, uint64_t value)
{
    for (uint64_t g = first; g < last; g++) {
        if (meta->detail[g]) {
            block_release(meta, meta->detail[g]);
            meta->detail[g] = 0;
        }
    }
    for (uint64_t g = first; g < last; g++)
        meta->uniform[g] = value;
}

void vkmm_mm_meta_fill(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta, uint64_t begin, uint64_t end,
                       uint64_t value)
{
    while (begin < end) {
        if (begin % G == 0 && end - begin >= 2 * G) {
            /* Whole granules, but never the short last one (granule_bytes
             * knows it): that one goes below. */
            uint64_t last = end / G < meta->granules - 1 ? end / G : meta->granules - 1;
            if (last > begin / G) {
                fill_whole_granules(meta, begin / G, last, value);
                begin = last * G;
                continue;
            }
        }
        uint64_t g = begin / G;
        uint64_t g_end = g * G + granule_bytes(meta, g);
        uint64_t stop = end < g_end ? end : g_end;
        if (begin == g * G && stop == g_end) {
            granule_uniform(meta, g, value);
        } else if (meta->detail[g] || meta->uniform[g] != value) {
            if (!granule_detail(e, meta, g))
                return;
            uint64_t *block = &meta->blocks[(uint64_t)meta->detail[g] * G];
            for (uint64_t b = begin; b < stop; b++)
                block[b % G] = value;
            granule_collapse(meta, g);
        }
        begin = stop;
    }
}

/* The end of the run of bytes from b (before `end`) that hold b's value. */
uint64_t vkmm_mm_meta_run_end(const struct vkmm_mm_meta *meta, uint64_t b, uint64_t end)
{
    uint64_t value = vkmm_mm_meta_get(meta, b);
    while (b < end) {
        uint64_t g = b / G;
        if (!meta->detail[g]) {
            if (meta->uniform[g] != value)
                return b;
            b = (g + 1) * G;
            continue;
        }
        const uint64_t *block = &meta->blocks[(uint64_t)meta->detail[g] * G];
        for (; b < end && b < (g + 1) * G; b++)
            if (block[b % G] != value)
                return b;
    }
    return end;
}

uint64_t vkmm_mm_meta_block_max(const struct vkmm_mm_meta *meta, uint64_t g)
{
    const uint64_t *block = &meta->blocks[(uint64_t)meta->detail[g] * G];
    uint64_t max = block[0];
    for (unsigned k = 1; k < granule_bytes(meta, g); k++)
        max = block[k] > max ? block[k] : max;
    return max;
}

uint64_t vkmm_mm_meta_block_min(const struct vkmm_mm_meta *meta, uint64_t g)
{
    const uint64_t *block = &meta->blocks[(uint64_t)meta->detail[g] * G];
    uint64_t min = block[0];
    for (unsigned k = 1; k < granule_bytes(meta, g); k++)
        min = block[k] < min ? block[k] : min;
    return min;
}

/* Bytes of state the map holds now. */
uint64_t vkmm_mm_meta_bytes(const struct vkmm_mm_meta *meta)
{
    return meta->granules * (sizeof *meta->uniform + sizeof *meta->detail) +
           (uint64_t)meta->block_live * G * sizeof *meta->blocks;
}
