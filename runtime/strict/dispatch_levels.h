/* Strict mode inside a dispatch: the subgroup and workgroup domains of
 * device memory (DESIGN §3.1), as caches of 64-byte lines.
 *
 *   subgroup domain   one cache per subgroup (its invocations' caches: the
 *                     lanes of one subgroup share it)
 *   workgroup domain  one cache per workgroup
 *   shader domain     the device bytes the dispatch runs on
 *
 * A line holds, per byte, whether the level has a value for it (`valid`,
 * a snapshot taken when the line was filled) and whether that value was
 * written at this level and not yet pushed outward (`dirty`).  Stores that
 * are not available at a wider scope stay in the subgroup's cache; reads
 * without visibility read the subgroup's snapshot, which stays stale until
 * a visibility operation (000 "Availability and Visibility Semantics").
 * Availability operations push dirty bytes outward; visibility operations
 * drop snapshots; atomics run at the level of their scope, so atomics of
 * different scope instances may each work on their own copy.  Caches evict
 * at scheduling points, out of program order, as the seed decides.
 *
 * The generated code calls the device-memory monitor's hook before every
 * access; the monitor hands each lane here, and a lane whose bytes live in
 * a line gets the line's address (stores, snapshots) or a view holding the
 * merged bytes (reads).  Knows no Vulkan object. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "shader_abi.h" /* enum vkmm_access_scope, VKMM_FENCE_* */

struct vkmm_dispatch_levels;

/* Levels over the device address space [base, base + size); NULL when out
 * of memory. */
struct vkmm_dispatch_levels *vkmm_dispatch_levels_create(uint8_t *base, uint64_t size);
void vkmm_dispatch_levels_destroy(struct vkmm_dispatch_levels *levels);

/* Whether a store the compiler may perform before the load ahead of it
 * (compiler/early_stores.c) goes early this time: never on seed 0 (program
 * order), a coin on other seeds. */
bool vkmm_dispatch_levels_early_store(struct vkmm_dispatch_levels *levels);

/* A dispatch starts under `seed` (0: the stalest schedule); its
 * subgroups have `subgroup_width` lanes. */
void vkmm_dispatch_levels_begin(struct vkmm_dispatch_levels *levels, uint64_t seed, uint32_t subgroup_width);
/* Every line still held goes out to the device bytes (the dispatch ended,
 * or was aborted). */
void vkmm_dispatch_levels_end(struct vkmm_dispatch_levels *levels);

/* One lane's access of `size` bytes at `offset` by local invocation index
 * `invocation` (for reports) (flags as the generated code
 * passes them: VKMM_WORKGROUP_READ/WRITE/ATOMIC, VKMM_ACCESS_PRIVATE, the
 * scope at VKMM_ACCESS_SCOPE_SHIFT).  Returns the address the lane must use:
 * `address` itself, a line's bytes, or `view` (at least 64 bytes) filled with
 * what the read sees.  Returns NULL when out of memory (the device is lost). */
uint8_t *vkmm_dispatch_levels_access(struct vkmm_dispatch_levels *levels, uint32_t workgroup_tag, uint32_t subgroup,
                                     uint64_t offset, uint32_t size, uint32_t flags, uint8_t *view, uint32_t site,
                                     uint32_t invocation);

/* What made the last access's read stale (DESIGN §3.4: the coherent view
 * — the newest write of each byte, wherever it is held — differs from what
 * the read returned).  Only non-atomic, non-private reads are judged: in a
 * race-free program every such read returns the newest write, which
 * happens before it. */
struct vkmm_level_stale {
    bool stale;
    bool held;              /* the newer bytes wait in a cache (else they reached the device bytes) */
    bool made_available;    /* held, made available at device scope: no release after the write carried
                               it to the reader yet */
    bool for_good;          /* nothing the writer does can change it: the reader used its own stale copy,
                               or the writer finished and its cache keeps the bytes to the end */
    uint32_t writer_tag;    /* held: the writer's workgroup tag */
    uint32_t writer_site;   /* held: the writing instruction's site (the caller's index) */
    uint32_t writer_invocation; /* held: its local invocation index (UINT32_MAX: unknown) */
    uint64_t offset;        /* the first stale byte */
};
/* A read-modify-write of Workgroup (Subgroup) scope whose workgroup's
 * (subgroup's) copy went out over a change another agent made meanwhile: a
 * lost update. */
struct vkmm_level_lost {
    uint64_t offset;      /* the first lost byte */
    uint32_t writer_tag;  /* the atomic's workgroup tag */
    uint32_t writer_site; /* the atomic's site (the caller's index) */
    uint32_t writer_invocation; /* its local invocation index */
    bool subgroup_scope;  /* the atomic had Subgroup scope: another subgroup of its workgroup changed the bytes */
};
#define VKMM_LEVEL_MAX_LOST 16
/* The lost updates of the dispatch so far (one per instruction). */
const struct vkmm_level_lost *vkmm_dispatch_levels_lost(const struct vkmm_dispatch_levels *levels, uint32_t *count);

/* The last access's verdict (cleared by every access). */
const struct vkmm_level_stale *vkmm_dispatch_levels_stale(const struct vkmm_dispatch_levels *levels);
/* Does the workgroup hold any line?  (Private accesses look here first.) */
bool vkmm_dispatch_levels_busy(const struct vkmm_dispatch_levels *levels, uint32_t workgroup_tag);

/* A memory barrier, or the release / acquire half of a control barrier or
 * an atomic's semantics. */
void vkmm_dispatch_levels_fence(struct vkmm_dispatch_levels *levels, uint32_t workgroup_tag, uint32_t subgroup,
                                uint32_t kind);

/* Scheduling (dispatch.c): a subgroup stopped at a scheduling point, a
 * subgroup finished, a workgroup finished. */
void vkmm_dispatch_levels_yield(struct vkmm_dispatch_levels *levels, uint32_t workgroup_tag, uint32_t subgroup);
void vkmm_dispatch_levels_subgroup_done(struct vkmm_dispatch_levels *levels, uint32_t workgroup_tag,
                                        uint32_t subgroup);
void vkmm_dispatch_levels_workgroup_done(struct vkmm_dispatch_levels *levels, uint32_t workgroup_tag);
/* A subgroup stopped at a control barrier (its atomic stores are performed
 * while it waits); the workgroup's barrier opened. */
void vkmm_dispatch_levels_wait_at_barrier(struct vkmm_dispatch_levels *levels, uint32_t workgroup_tag,
                                          uint32_t subgroup);
void vkmm_dispatch_levels_barrier_open(struct vkmm_dispatch_levels *levels, uint32_t workgroup_tag);
/* Every resident workgroup stepped once. */
void vkmm_dispatch_levels_round(struct vkmm_dispatch_levels *levels);
/* VKMM_SHADER_FENCES=common: in modules of the Vulkan memory model, a
 * release on device memory also makes available and an acquire also makes
 * visible (the reading of `memoryBarrierBuffer(); barrier();` many programs
 * rely on; Vulkan-Docs issue 2779).  Default: the model — only MakeAvailable
 * and MakeVisible do. */
void vkmm_dispatch_levels_set_common_fences(struct vkmm_dispatch_levels *levels, bool common);
bool vkmm_dispatch_levels_common_fences(const struct vkmm_dispatch_levels *levels);
/* An allocation failed while the dispatch ran: some store may have been
 * dropped, and the device must be lost.  Cleared by begin. */
bool vkmm_dispatch_levels_failed(const struct vkmm_dispatch_levels *levels);
