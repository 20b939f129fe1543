/* What the two files of the dispatch's levels share: dispatch_levels.c
 * (lines, agents, moving bytes between levels, the coherent view,
 * accesses, fences) and dispatch_levels_schedule.c (eviction, retirement,
 * barrier waits: when bytes move without an access asking).  Nothing here
 * is used outside them. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "dispatch_levels.h"
#include "level_lines.h"

#define MAX_WORKGROUPS 64u  /* resident at once: dispatch.c keeps 16 */
#define IDLE_YIELDS_DRAIN 8 /* scheduling points without a store before a cache drains (progress) */

struct workgroup {
    uint32_t tag; /* 0: free */
    bool done;    /* finished: its lines wait for the dispatch's end, or for room */
    struct cache domain;
    struct cache *subgroups;
    uint32_t subgroup_count;
};

struct vkmm_dispatch_levels {
    uint8_t *base;
    uint64_t size;
    uint64_t seed, random, clock;
    uint64_t round; /* scheduling rounds of the dispatch (every resident workgroup stepped once) */
    uint32_t used;  /* workgroups in the table */
    uint32_t subgroup_width; /* lanes per subgroup: invocation = subgroup * width + lane */
    uint32_t site, tag, invocation; /* the access being made */
    struct vkmm_level_stale stale;
    struct vkmm_level_lost lost[VKMM_LEVEL_MAX_LOST];
    uint32_t lost_count;
    bool failed;
    bool common_fences; /* VKMM_SHADER_FENCES=common */
    struct workgroup workgroups[MAX_WORKGROUPS];
    struct workgroup *last_found; /* find_workgroup's last answer (checked by its tag) */
    struct vkmm_level_lines lines; /* the dirty-holder lists and spare line blocks */
    struct vkmm_atomic_history *history; /* coherence order of atomic words, agents' views */
};

/* dispatch_levels.c */
struct workgroup *vkmm_levels_find_workgroup(struct vkmm_dispatch_levels *l, uint32_t tag);
/* The bytes of `mask` in `line` go out one level, to the device or to the
 * workgroup's domain. */
void vkmm_levels_push_to_device(struct vkmm_dispatch_levels *l, struct line *line, uint64_t mask);
void vkmm_levels_push_to_workgroup(struct vkmm_dispatch_levels *l, struct workgroup *w, struct line *line,
                                   uint64_t mask);
/* Every dirty byte of a subgroup's cache, or of a workgroup's domain, goes
 * out one level. */
void vkmm_levels_push_subgroup(struct vkmm_dispatch_levels *l, struct workgroup *w, struct cache *sg);
void vkmm_levels_push_workgroup(struct vkmm_dispatch_levels *l, struct workgroup *w);
void vkmm_levels_drop_snapshots(struct cache *c);

/* dispatch_levels_schedule.c */
/* A workgroup's lines all go out and its slot is free again. */
void vkmm_levels_finish_workgroup(struct vkmm_dispatch_levels *l, struct workgroup *w);
