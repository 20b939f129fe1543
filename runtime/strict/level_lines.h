/* The lines of the dispatch's levels (dispatch_levels.c): 64-byte lines of
 * the device address space in per-domain caches, the lists of lines that
 * hold dirty bytes (by granule hash: the stale-read check looks at those,
 * not at every cache), and the spare line blocks that emptied caches hand
 * to the next ones.  Knows no Vulkan object. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#define LINE_BYTES 64u
#define LINES_PER_BLOCK 4u      /* most subgroup caches hold a line or two */
#define HOLDER_SLOTS 65536u     /* the dirty-holder lists, by granule hash */
#define SPARE_BLOCKS 6144u      /* line blocks kept for the next caches (about 8 MiB) */
#define DOMAIN_CACHE UINT32_MAX /* struct cache's subgroup for a workgroup domain */

struct line {
    uint64_t granule; /* offset / 64 in the device address space */
    uint64_t valid;   /* bytes this level holds a value for */
    uint64_t dirty;   /* bytes written here and not yet pushed outward (dirty ⊆ valid) */
    uint64_t atomic;  /* dirty bytes an atomic store wrote (atomic ⊆ dirty): a release orders them */
    uint64_t device;  /* those of device scope (device ⊆ atomic): performed in the shader domain */
    uint64_t available; /* dirty bytes a store made available at device scope (MakePointerAvailable):
                           they leave a subgroup's line at its next release, a workgroup's line at
                           its workgroup's next Device-scope release (available ⊆ dirty) */
    uint64_t order;   /* when the line last became dirty: eviction picks the newest */
    uint64_t epoch;   /* the subgroup's release epoch of its atomic bytes */
    uint32_t writer_tag, writer_site; /* the last write into the line (for reports) */
    uint16_t writer_invocation[LINE_BYTES]; /* per byte: the local invocation index of its last write */
    uint64_t scoped;  /* bytes a read-modify-write of this level's scope changed (workgroup domain:
                         Workgroup scope; subgroup domain: Subgroup scope) */
    uint8_t bytes[LINE_BYTES];
    uint8_t base[LINE_BYTES]; /* workgroup domain: the device bytes when the line was filled; subgroup
                                 domain: the `scoped` bytes before the first read-modify-write */
    /* Whose cache holds it: the workgroup's slot, and its subgroup or
     * DOMAIN_CACHE. */
    uint32_t workgroup, subgroup;
    /* While it holds dirty bytes, the line is in its granule hash's holder
     * list (struct vkmm_level_lines). */
    struct line *next_holder, **holder_link;
};

/* One domain's cache: lines in an array, found through an open-addressing
 * index.  Lines are never removed one by one; the whole cache is emptied
 * when its workgroup's lines go out (the dispatch ends, or room is needed). */

struct cache {
    /* Lines live in blocks that never move: an access hands out a line's
     * address, and a later lane of the same access may add lines. */
    struct line **blocks;
    uint32_t block_slots; /* room in `blocks` */
    uint32_t count, capacity;
    uint32_t *index; /* line number + 1, 0: empty */
    uint32_t index_size;
    uint32_t dirty_lines; /* lines with dirty bytes (an upper bound: cleared lazily) */
    uint32_t idle_yields;
    uint64_t retire_round; /* its agent finished: its atomic stores are performed at this round
                              (0: running; UINT64_MAX: performed) */
    uint64_t epoch;        /* releases so far: atomic stores of an older epoch go out first */
    uint64_t barrier_round; /* its agent waits at a control barrier: its atomic stores are performed at this
                               round (0: not waiting; UINT64_MAX: performed) */
    uint32_t workgroup, subgroup; /* whose cache it is (struct line's) */
};

struct vkmm_level_lines {
    /* The lines, in all caches, that hold dirty bytes of a granule with
     * this hash. */
    struct line *holders[HOLDER_SLOTS];
    /* Blocks of emptied caches, handed to the next ones: caches fill and
     * empty at every workgroup, and the allocator gave their pages back
     * to the system each time. */
    struct line *spare[SPARE_BLOCKS];
    uint32_t spare_count;
};

static inline struct line *line_at(const struct cache *c, uint32_t n)
{
    return &c->blocks[n / LINES_PER_BLOCK][n % LINES_PER_BLOCK];
}

/* The head of the holder list of `granule`'s hash. */
struct line **vkmm_level_holders(struct vkmm_level_lines *ll, uint64_t granule);
/* A line that just got dirty bytes joins its holder list. */
void vkmm_level_add_holder(struct vkmm_level_lines *ll, struct line *line);
/* The line's dirty bytes in `mask` leave it (pushed outward or dropped). */
void vkmm_level_clean(struct line *line, uint64_t mask);
/* The cache's line for `granule`, or NULL. */
struct line *vkmm_level_find(const struct cache *c, uint64_t granule);
/* The line for `granule`, added empty when absent; NULL when out of memory. */
struct line *vkmm_level_get(struct vkmm_level_lines *ll, struct cache *c, uint64_t granule);
/* Empties a cache: its lines' dirty bytes are dropped (the callers pushed
 * them first), its blocks go to the spare list. */
void vkmm_level_clear(struct vkmm_level_lines *ll, struct cache *c);
/* Frees the spare blocks. */
void vkmm_level_lines_free(struct vkmm_level_lines *ll);
