/* What the files of runtime/memmodel/ share.  Nothing here is used outside
 * the directory.
 *
 * Sequence numbers (DESIGN §3.1 "versioned store"): engine->seq counts the
 * availability and domain operations; every version in device memory and in
 * the host domain carries the seq of the operation that put it there, and a
 * read path sees, per byte, the newest version whose seq is <= the seq of its
 * last visibility operation.
 *
 * Write events: every write (command write or host write) is one event in
 * coherent (execution) order; its index, the "wts", names the writer in
 * reports and orders writes for the write-after-write check.  wts 0 is the
 * allocation pattern. */
#pragma once

#include "memmodel.h"

struct vkmm_mm_event {
    struct vkmm_mm_agent agent; /* kind interned in the engine */
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
    bool discards; /* a layout transition from UNDEFINED wrote the pattern (vkmm_mm_discard) */
};

/* Shadow state is kept per granule of device memory (shadow.c). */
#define VKMM_MM_GRANULE VKMM_MM_GRANULE_BYTES

/* Per-byte metadata of one level (a seq, a write event) by granule
 * (shadow.c): one cell per granule holding its value while its bytes agree;
 * otherwise DETAIL and the index of its pair (two values) or block (more).
 * A narrow meta's cells are 32 bits: values up to VKMM_MM_META_NARROW_MAX,
 * the tag and pair bits at 31 and 30. */
struct vkmm_mm_meta_pair {
    uint64_t mask;          /* the bytes holding `second`; never empty nor the whole granule */
    uint64_t first, second; /* never equal */
};
#define VKMM_MM_META_DETAIL (1ull << 63)
#define VKMM_MM_META_PAIR (1ull << 62)
#define VKMM_MM_META_INDEX 0x3fffffffull
#define VKMM_MM_META_NARROW_DETAIL (1u << 31)
#define VKMM_MM_META_NARROW_PAIR (1u << 30)
#define VKMM_MM_META_NARROW_MAX 0x7fffffffu
struct vkmm_mm_meta {
    void *cells; /* per granule: uint64_t, or uint32_t when narrow */
    bool narrow;
    uint64_t *blocks; /* VKMM_MM_GRANULE values a block; block 0 unused */
    uint32_t block_count, block_capacity, block_free, block_live;
    struct vkmm_mm_meta_pair *pairs; /* pair 0 unused */
    uint32_t pair_count, pair_capacity, pair_free, pair_live;
    uint64_t granules, size;
};

/* One overwritten version of one granule of device memory: its bytes and
 * their seqs as they were before an availability operation landed on it. */
struct vkmm_mm_version {
    uint64_t seq;    /* every byte's seq, unless `seqs` */
    uint32_t seqs;   /* 0, or the index of the per-byte seqs in memory->version_seqs */
    uint32_t next;   /* the next older version of the granule, 0: none */
    uint8_t value[VKMM_MM_GRANULE];
};

/* A stage/access write path (DESIGN §3.1): bytes written through it that are
 * not yet available.  002: "a separate cache for every access type in every
 * stage". */
struct vkmm_mm_write_path {
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
    uint8_t *value;
    struct vkmm_mm_meta wts; /* 0: the byte is clean */
    uint64_t lo, hi; /* every dirty byte is in [lo, hi) */
    uint64_t dirty;  /* number of dirty bytes */
};

struct vkmm_mm_range {
    uint64_t begin, end, seq;
};

/* A visibility operation (004 INVALIDATE) for the read paths in
 * (stages, access), both expanded: a whole-device seq for global barriers,
 * or per-range seqs for buffer barriers. */
struct vkmm_mm_vis_record {
    VkPipelineStageFlags2 stages;
    VkAccessFlags2 access;
    uint64_t seq;                 /* global records */
    struct vkmm_mm_range *ranges; /* memory records: sorted, disjoint */
    uint32_t count, capacity;
};

struct vkmm_mm_memory {
    struct vkmm_mm_engine *engine;
    uint64_t id, size;
    bool host_visible, host_coherent;

    /* Device memory (the device domain) as a versioned store: the newest
     * available version of each byte, and older versions of its granule in
     * a history list. */
    uint8_t *dev;
    struct vkmm_mm_meta dev_seq, dev_wts;
    uint32_t *dev_hist; /* per granule: newest overwritten version, 0: none */
    struct vkmm_mm_version *versions;
    uint32_t version_count, version_capacity, version_free, version_live;
    uint64_t (*version_seqs)[VKMM_MM_GRANULE];
    uint32_t version_seqs_count, version_seqs_capacity, version_seqs_free;
    uint64_t *hist_granules; /* the granules with a history, to clear them */
    uint32_t hist_count, hist_capacity;
    bool hist_overflow; /* hist_granules is incomplete: clear them all */

    /* The coherent view (DESIGN §3.4). */
    uint8_t *coh;
    struct vkmm_mm_meta coh_wts;

    struct vkmm_mm_write_path *paths;
    uint32_t path_count, path_capacity;

    struct vkmm_mm_vis_record *vis; /* buffer-barrier visibility */
    uint32_t vis_count, vis_capacity;

    /* Host domain (a versioned level without history) and host view.  The
     * host changed byte b of the view since the engine last placed it there
     * iff view[b] != view_base[b]; view_seen is what the coherent view has
     * absorbed, view_wts the event of that host write.  view_seen exists
     * only while it may hold host writes that view_base lacks (absorbed, not
     * flushed yet); NULL: the two are equal everywhere (host.c seen()), and
     * a flush finds the host's writes with one comparison per granule.  The
     * common memory is flushed whole at every submission, so it keeps one
     * copy fewer. */
    uint8_t *host; /* read through vkmm_mm_host_bytes (host_level.c) */
    uint64_t *host_own; /* per page: the host level holds its own bytes there */
    uint64_t host_own_pages;
    size_t host_span; /* host's own pages (mmap), 0: from the allocator */
    bool host_landed; /* a landing made pages own since they last met device memory */
    bool whole_levels; /* vkmm_mm_set_whole_levels when it was created */
    struct vkmm_mm_meta host_seq, host_wts;
    uint8_t *view, *view_base, *view_seen;
    size_t view_span; /* the view's own pages (mmap), 0: from the allocator */
    /* The device->host domain operation moved device bytes into the host
     * domain since vkmm_mm_host_wait last placed the view. */
    bool host_from_device;
    /* view_all_seen: the last whole-memory flush took every host write of
     * the view in, and no host-side call came since.  view_quiet: the
     * caller vouches that the host writes none from then on (it cannot
     * reach the view, vkmm_mm_host_view_quiet): absorbing has nothing to
     * find, so device accesses skip the comparison. */
    bool view_all_seen, view_quiet;
    /* host_ahead: some byte's host seq may exceed its device seq (a flush
     * moved host bytes the host->device domain operation has not landed);
     * dev_ahead: some device seq may exceed the host seq (a device write
     * the device->host domain operation has not moved).  False: a whole-
     * memory domain operation in that direction has nothing to do. */
    bool host_ahead, dev_ahead;
    uint64_t changes; /* vkmm_mm_memory_changes */
    struct vkmm_mm_meta view_wts;
};

struct vkmm_mm_engine {
    vkmm_mm_sink sink;
    void *user;
    uint64_t seed;
    VkAllocationCallbacks allocator;
    bool has_allocator;
    VkResult status;

    uint64_t seq;        /* last availability/domain operation */
    uint64_t submit_vis; /* every device read path sees at least this */
    uint64_t submits;    /* vkmm_mm_submit calls: the host agent's submission */
    uint64_t discards;   /* vkmm_mm_discard calls: each discard writes a pattern of its own */
    uint32_t last_discard_event; /* the newest discard's write event (0: none) */
    uint64_t hazards;
    bool host_wait_reads; /* vkmm_mm_set_host_wait_reads: a host wait is also DOM(device, host) */
    /* Every level of a host-visible memory kept whole, as the engine did
     * before it kept copies only where they differ (vkmm_mm_set_whole_levels:
     * tests compare the two). */
    bool whole_levels;
    /* Landings keep no history: vkQueueSubmit's domain operation, after
     * which every read path sees every version (vkmm_mm_submit). */
    bool landing_without_history;

    /* Meta-bit expansions, from the generated enum names (dependency.c). */
    VkPipelineStageFlags2 all_commands;
    VkAccessFlags2 all_reads, all_writes;

    struct vkmm_mm_vis_record *gvis; /* global visibility */
    uint32_t gvis_count, gvis_capacity;

    struct vkmm_mm_event *events;
    uint32_t event_count, event_capacity;

    char **kinds;
    uint32_t kind_count, kind_capacity;

    struct vkmm_mm_memory **memories; /* creation order */
    uint32_t memory_count, memory_capacity;

    uint64_t *scratch; /* visible sets while pruning */
    uint32_t scratch_capacity;

    vkmm_mm_parallel parallel; /* bulk.c; NULL: one thread */
    void *parallel_user;
};

/* memcpy and !memcmp of the engine's levels, large ones spread over the
 * engine's threads (bulk.c). */
void vkmm_mm_copy(const struct vkmm_mm_engine *e, void *dst, const void *src, uint64_t size);
bool vkmm_mm_same(const struct vkmm_mm_engine *e, const void *a, const void *b, uint64_t size);

/* What a report names as missing; report.c turns it into words. */
enum vkmm_mm_missing {
    VKMM_MM_MISSING_BARRIER,         /* the write is still in its write path */
    VKMM_MM_MISSING_VISIBILITY,      /* available, but not visible to the reader */
    VKMM_MM_MISSING_OVERWRITTEN,     /* an older write became available over it */
    VKMM_MM_MISSING_HOST_FLUSH,      /* a host write was never flushed */
    VKMM_MM_MISSING_HOST_TO_DEVICE,  /* a host write never reached device memory */
    VKMM_MM_MISSING_DEVICE_TO_HOST,  /* no HOST_READ dependency after availability */
    VKMM_MM_MISSING_HOST_VISIBILITY, /* in the host domain, not in the view */
    VKMM_MM_MISSING_FLUSH_BEFORE_INVALIDATE,
    VKMM_MM_MISSING_WAW_BARRIER,
    VKMM_MM_MISSING_INITIALIZATION, /* nothing ever wrote the bytes */
    VKMM_MM_MISSING_WRITE_AFTER_DISCARD, /* nothing wrote them since a transition from UNDEFINED */
};

/* Consecutive bytes with the same writer, second party and missing
 * operation make one report. */
struct vkmm_mm_run {
    const char *id;
    struct vkmm_mm_memory *memory;
    bool has_reader; /* else the second party is the event `second` */
    struct vkmm_mm_agent reader;
    VkPipelineStageFlags2 reader_stage;
    VkAccessFlags2 reader_access;
    bool open;
    uint64_t begin, end;
    uint32_t first, second;
    enum vkmm_mm_missing missing;
};

/* shadow.c */
bool vkmm_mm_meta_init(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta, uint64_t size, bool narrow);
void vkmm_mm_meta_finish(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta);
/* Granule g's cell as 64 bits: a value (the granule is uniform), or
 * VKMM_MM_META_DETAIL, maybe VKMM_MM_META_PAIR, and an index. */
static inline uint64_t vkmm_mm_meta_cell(const struct vkmm_mm_meta *meta, uint64_t g)
{
    if (!meta->narrow)
        return ((const uint64_t *)meta->cells)[g];
    uint32_t cell = ((const uint32_t *)meta->cells)[g];
    if (!(cell & VKMM_MM_META_NARROW_DETAIL))
        return cell;
    return VKMM_MM_META_DETAIL | (cell & VKMM_MM_META_NARROW_PAIR ? VKMM_MM_META_PAIR : 0) |
           (cell & VKMM_MM_META_INDEX);
}
/* The bytes in `mask` (bit k: byte k) of a granule go from src to dst,
 * both at its start. */
static inline void vkmm_mm_copy_mask(uint8_t *dst, const uint8_t *src, uint64_t mask)
{
    for (; mask; mask &= mask - 1) {
        unsigned k = (unsigned)__builtin_ctzll(mask);
        dst[k] = src[k];
    }
}
static inline uint64_t vkmm_mm_meta_get(const struct vkmm_mm_meta *meta, uint64_t b)
{
    uint64_t cell = vkmm_mm_meta_cell(meta, b / VKMM_MM_GRANULE);
    if (!(cell & VKMM_MM_META_DETAIL))
        return cell;
    unsigned k = (unsigned)(b % VKMM_MM_GRANULE);
    if (cell & VKMM_MM_META_PAIR) {
        const struct vkmm_mm_meta_pair *pair = &meta->pairs[cell & VKMM_MM_META_INDEX];
        return pair->mask >> k & 1 ? pair->second : pair->first;
    }
    return meta->blocks[(cell & VKMM_MM_META_INDEX) * VKMM_MM_GRANULE + k];
}
/* Every byte's value of granule g (the whole granule, past a short last
 * one's end too). */
void vkmm_mm_meta_granule_values(const struct vkmm_mm_meta *meta, uint64_t g, uint64_t values[VKMM_MM_GRANULE]);
void vkmm_mm_meta_write_mask(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta, uint64_t g, uint64_t mask,
                             uint64_t value);
uint64_t vkmm_mm_meta_mask_of(const struct vkmm_mm_meta *meta, uint64_t g, uint64_t mask, uint64_t value);
void vkmm_mm_meta_set(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta, uint64_t b, uint64_t value);
void vkmm_mm_meta_fill(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta, uint64_t begin, uint64_t end,
                       uint64_t value);
uint64_t vkmm_mm_meta_run_end(const struct vkmm_mm_meta *meta, uint64_t b, uint64_t end);
/* The first granule in [g, last) whose cell is not the uniform `value`. */
uint64_t vkmm_mm_meta_uniform_end(const struct vkmm_mm_meta *meta, uint64_t g, uint64_t last, uint64_t value);
/* The first granule in [g, last) where some byte's value in `a` may exceed
 * its value in `b` (g itself unless both have 64-bit cells). */
uint64_t vkmm_mm_meta_first_above(const struct vkmm_mm_meta *a, const struct vkmm_mm_meta *b, uint64_t g,
                                  uint64_t last);
/* The largest and smallest value among the bytes of granule g: inline for
 * the common uniform granule (the engine's per-granule loops ask it for
 * every granule of megabytes), out of line for pairs and blocks. */
uint64_t vkmm_mm_meta_block_max(const struct vkmm_mm_meta *meta, uint64_t g);
uint64_t vkmm_mm_meta_block_min(const struct vkmm_mm_meta *meta, uint64_t g);
static inline uint64_t vkmm_mm_meta_granule_max(const struct vkmm_mm_meta *meta, uint64_t g)
{
    uint64_t cell = vkmm_mm_meta_cell(meta, g);
    return cell & VKMM_MM_META_DETAIL ? vkmm_mm_meta_block_max(meta, g) : cell;
}
static inline uint64_t vkmm_mm_meta_granule_min(const struct vkmm_mm_meta *meta, uint64_t g)
{
    uint64_t cell = vkmm_mm_meta_cell(meta, g);
    return cell & VKMM_MM_META_DETAIL ? vkmm_mm_meta_block_min(meta, g) : cell;
}
uint64_t vkmm_mm_meta_bytes(const struct vkmm_mm_meta *meta);

/* levels.c */
void *vkmm_mm_alloc(struct vkmm_mm_engine *e, size_t size);
void *vkmm_mm_calloc(struct vkmm_mm_engine *e, uint64_t count, size_t elem);
void *vkmm_mm_calloc_aligned(struct vkmm_mm_engine *e, uint64_t count, size_t elem);
void vkmm_mm_free(struct vkmm_mm_engine *e, void *p);
bool vkmm_mm_reserve_grow(struct vkmm_mm_engine *e, void **array, uint32_t *capacity, uint64_t need, size_t elem);
/* Room for `need` elements: inline while there is (the common case, once
 * per version, pair or block), a call to grow otherwise. */
static inline bool vkmm_mm_reserve(struct vkmm_mm_engine *e, void **array, uint32_t *capacity, uint64_t need,
                                   size_t elem)
{
    return need <= *capacity || vkmm_mm_reserve_grow(e, array, capacity, need, elem);
}
uint64_t vkmm_mm_hash(uint64_t a, uint64_t b, uint64_t c, uint64_t d);
/* DESIGN §3.2's allocation pattern of bytes [offset, offset + size) of
 * memory `id` (aligned words keep their high bit set). */
void vkmm_mm_pattern(uint64_t seed, uint64_t id, uint64_t offset, uint8_t *out, uint64_t size);
uint32_t vkmm_mm_event_add(struct vkmm_mm_engine *e, const struct vkmm_mm_agent *agent, VkPipelineStageFlags2 stage,
                           VkAccessFlags2 access);
bool vkmm_mm_clamp(const struct vkmm_mm_memory *m, uint64_t offset, uint64_t size, uint64_t *begin, uint64_t *end);
uint8_t vkmm_mm_device_value_at(const struct vkmm_mm_memory *m, uint64_t b, uint64_t visible);
void vkmm_mm_device_land(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end,
                         const uint8_t *values, uint32_t wts, uint64_t seq, struct vkmm_mm_run *waw);
void vkmm_mm_device_land_mask(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t g, uint64_t mask,
                              const uint8_t *values, uint32_t wts, uint64_t seq, struct vkmm_mm_run *waw);
void vkmm_mm_history_clear(struct vkmm_mm_memory *m);
struct vkmm_mm_write_path *vkmm_mm_write_path(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m,
                                              VkPipelineStageFlags2 stage, VkAccessFlags2 access);
bool vkmm_mm_pending_in_path(const struct vkmm_mm_memory *m, uint64_t b, uint32_t wts);
void vkmm_mm_coherent_write(struct vkmm_mm_memory *m, uint64_t begin, uint64_t end, const uint8_t *values,
                            uint32_t wts);
void vkmm_mm_coherent_write_mask(struct vkmm_mm_memory *m, uint64_t g, uint64_t mask, const uint8_t *values,
                                 uint32_t wts);

/* avail_vis.c */
bool vkmm_mm_visible_set(struct vkmm_mm_engine *e, const struct vkmm_mm_memory *m, uint64_t begin, uint64_t end,
                         uint32_t *count);
void vkmm_mm_availability(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, VkPipelineStageFlags2 stages,
                          VkAccessFlags2 access, uint64_t begin, uint64_t end, const struct vkmm_mm_dependency *dep);
void vkmm_mm_visibility(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, VkPipelineStageFlags2 stages,
                        VkAccessFlags2 access, uint64_t begin, uint64_t end);
void vkmm_mm_visibility_clear(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m);

/* dependency.c */
void vkmm_mm_masks_init(struct vkmm_mm_engine *e);
VkPipelineStageFlags2 vkmm_mm_expand_stages(const struct vkmm_mm_engine *e, VkPipelineStageFlags2 mask);
VkAccessFlags2 vkmm_mm_expand_access(const struct vkmm_mm_engine *e, VkAccessFlags2 mask);
bool vkmm_mm_in_scope(const struct vkmm_mm_engine *e, VkPipelineStageFlags2 scope_stages, VkAccessFlags2 scope_access,
                      VkPipelineStageFlags2 stage, VkAccessFlags2 access);
bool vkmm_mm_is_host_access(VkPipelineStageFlags2 stage, VkAccessFlags2 access);

/* host.c */
void vkmm_mm_host_absorb(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end);
void vkmm_mm_host_write(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end,
                        const struct vkmm_mm_agent *agent, const uint8_t *data);
void vkmm_mm_host_read(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end,
                       const struct vkmm_mm_agent *agent, uint8_t *out);
/* view_seen as a copy of view_base (false: out of memory). */
bool vkmm_mm_view_seen_make(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m);
void vkmm_mm_host_to_device(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end);
void vkmm_mm_device_to_host(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end);

/* Tests: memories created from now on keep view_seen and the host level
 * whole (no sharing, no dropping), for a differential check. */
void vkmm_mm_set_whole_levels(struct vkmm_mm_engine *e, bool whole);

/* host_level.c: the host level's bytes, shared with device memory where
 * the two agree (pages of VKMM_MM_HOST_PAGE). */
#define VKMM_MM_HOST_PAGE 4096u
bool vkmm_mm_host_level_init(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m);
void vkmm_mm_host_level_finish(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m);
/* The host level's bytes from b to the end of b's page. */
const uint8_t *vkmm_mm_host_bytes(const struct vkmm_mm_memory *m, uint64_t b);
/* The end of the run of pages from b (before end) that are all own or all
 * shared: one pointer from vkmm_mm_host_bytes serves the run. */
uint64_t vkmm_mm_host_run_end(const struct vkmm_mm_memory *m, uint64_t b, uint64_t end);
/* The pages of [begin, end) hold their own bytes, copied from device memory
 * where they did not: before the host level is written there, and before a
 * landing (`landing`) changes device memory under it. */
void vkmm_mm_host_own(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end,
                      bool landing);
/* The host level equals device memory everywhere again (a domain operation
 * over the whole memory left neither side ahead). */
void vkmm_mm_host_share(struct vkmm_mm_memory *m);
/* vkmm_mm_set_whole_levels: every page own for good, view_seen too. */
void vkmm_mm_host_keep_whole(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m);

/* report.c */
/* reader NULL: the second party of each report is the event `second`. */
void vkmm_mm_run_init(struct vkmm_mm_engine *e, struct vkmm_mm_run *run, const char *id, struct vkmm_mm_memory *m,
                      const struct vkmm_mm_agent *reader, VkPipelineStageFlags2 reader_stage,
                      VkAccessFlags2 reader_access);
/* The agent of host accesses the engine finds by itself. */
struct vkmm_mm_agent vkmm_mm_host_agent(const struct vkmm_mm_engine *e, const char *kind);
void vkmm_mm_run_add(struct vkmm_mm_engine *e, struct vkmm_mm_run *run, uint64_t b, uint32_t first, uint32_t second,
                     enum vkmm_mm_missing missing);
void vkmm_mm_run_end(struct vkmm_mm_engine *e, struct vkmm_mm_run *run);
