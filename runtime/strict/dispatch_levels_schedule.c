/* The dispatch's levels between accesses (DESIGN §3.3): what a cache
 * evicts at a scheduling point, when a finished or waiting subgroup's
 * atomic stores are performed, and how a finished workgroup's lines go out.
 * The seed decides what may; seed 0 gives the stalest result. */
#include <stdlib.h>

#include "dispatch_levels_state.h"

static void flush_retired(struct vkmm_dispatch_levels *l);

static uint64_t next_random(struct vkmm_dispatch_levels *l)
{
    l->random ^= l->random << 13;
    l->random ^= l->random >> 7;
    l->random ^= l->random << 17;
    return l->random;
}

bool vkmm_dispatch_levels_early_store(struct vkmm_dispatch_levels *l)
{
    return l->seed != 0 && (next_random(l) & 1);
}

/* The oldest release epoch among the cache's atomic stores: only lines
 * of that epoch (or without atomic bytes) may leave. */
static uint64_t oldest_epoch(const struct cache *c)
{
    uint64_t oldest = UINT64_MAX;
    for (uint32_t n = 0; n < c->count; n++)
        if (line_at(c, n)->atomic && line_at(c, n)->epoch < oldest)
            oldest = line_at(c, n)->epoch;
    return oldest;
}

static bool may_leave(const struct line *line, uint64_t oldest)
{
    return line->dirty && (!line->atomic || line->epoch <= oldest);
}

/* The newest dirty line of a cache that may leave, or NULL. */
static struct line *newest_dirty(struct cache *c, uint32_t *dirty_count)
{
    struct line *newest = NULL;
    uint32_t count = 0;
    uint64_t oldest = oldest_epoch(c);
    for (uint32_t n = 0; n < c->count; n++) {
        struct line *line = line_at(c, n);
        if (!line->dirty)
            continue;
        count++;
        if (may_leave(line, oldest) && (!newest || line->order > newest->order))
            newest = line;
    }
    *dirty_count = count;
    c->dirty_lines = count;
    return newest;
}

/* A cache evicts at a scheduling point (DESIGN §3.3).  Seed 0: the newest
 * dirty line goes out (through every level) while an older one stays —
 * the order that shows a missing release (a flag written after its data
 * is seen first).  Other
 * seeds: each dirty line goes out or stays, as the seed decides. */
static void evict(struct vkmm_dispatch_levels *l, struct workgroup *w, struct cache *c, bool subgroup_level)
{
    if (!c->dirty_lines)
        return;
    if (l->seed == 0) {
        uint32_t dirty;
        struct line *newest = newest_dirty(c, &dirty);
        if (dirty < 2 || !newest || (subgroup_level && newest->scoped))
            return;
        if (subgroup_level) {
            /* Out through every level, while the older line waits in the
             * subgroup: another workgroup sees the newer store first. */
            vkmm_levels_push_to_workgroup(l, w, newest, ~0ull);
            struct line *outer = vkmm_level_find(&w->domain, newest->granule);
            if (outer)
                vkmm_levels_push_to_device(l, outer, ~0ull);
        } else {
            vkmm_levels_push_to_device(l, newest, ~0ull);
        }
        c->dirty_lines--;
        return;
    }
    uint64_t oldest = oldest_epoch(c);
    /* The oldest dirty line stays, on every seed, unless it holds only
     * atomic stores: a store buffer may drain early, so that readers see
     * a store while it is still new (IRIW inside a workgroup). */
    const struct line *first = NULL;
    for (uint32_t n = 0; n < c->count; n++)
        if (line_at(c, n)->dirty && (!first || line_at(c, n)->order < first->order))
            first = line_at(c, n);
    if (first && first->dirty == first->atomic)
        first = NULL;
    for (uint32_t n = 0; n < c->count; n++) {
        struct line *line = line_at(c, n);
        /* A subgroup's copy that its Subgroup-scope read-modify-writes
         * work on stays until the subgroup releases or ends: other
         * subgroups work on their own copies on every seed. */
        if (line == first || !may_leave(line, oldest) || (subgroup_level && line->scoped) || (next_random(l) & 1))
            continue;
        if (subgroup_level)
            vkmm_levels_push_to_workgroup(l, w, line, ~0ull);
        else
            vkmm_levels_push_to_device(l, line, ~0ull);
    }
    uint32_t dirty;
    newest_dirty(c, &dirty);
}

void vkmm_dispatch_levels_yield(struct vkmm_dispatch_levels *l, uint32_t workgroup_tag, uint32_t subgroup)
{
    struct workgroup *w = vkmm_levels_find_workgroup(l, workgroup_tag);
    if (!w || subgroup >= w->subgroup_count)
        return;
    struct cache *sg = &w->subgroups[subgroup];
    /* A subgroup that keeps stopping without storing anything is most
     * likely waiting for another agent: everything it holds goes out, so
     * that waits on its own stores finish (a cache does not keep a line
     * forever). */
    if (++sg->idle_yields >= IDLE_YIELDS_DRAIN) {
        vkmm_levels_push_subgroup(l, w, sg);
        vkmm_levels_push_workgroup(l, w);
        flush_retired(l);
        sg->idle_yields = 0;
        return;
    }
    evict(l, w, sg, true);
    evict(l, w, &w->domain, false);
}

/* How many rounds a finished subgroup's atomic stores wait before they are
 * performed: a store buffer does not empty when its invocations end, so a
 * later store of theirs may be seen while an earlier one is on its way.
 * Seed 0: two rounds; other seeds: zero to three. */
static uint64_t retire_delay(struct vkmm_dispatch_levels *l)
{
    return l->seed == 0 ? 2 : next_random(l) % 4;
}

void vkmm_dispatch_levels_subgroup_done(struct vkmm_dispatch_levels *l, uint32_t workgroup_tag, uint32_t subgroup)
{
    struct workgroup *w = vkmm_levels_find_workgroup(l, workgroup_tag);
    if (!w || subgroup >= w->subgroup_count)
        return;
    struct cache *sg = &w->subgroups[subgroup];
    vkmm_levels_drop_snapshots(sg);
    sg->retire_round = l->round + 1 + retire_delay(l);
}

void vkmm_levels_finish_workgroup(struct vkmm_dispatch_levels *l, struct workgroup *w)
{
    for (uint32_t g = 0; g < w->subgroup_count; g++) {
        vkmm_levels_push_subgroup(l, w, &w->subgroups[g]);
        vkmm_level_clear(&l->lines, &w->subgroups[g]);
    }
    vkmm_levels_push_workgroup(l, w);
    vkmm_level_clear(&l->lines, &w->domain);
    free(w->subgroups);
    *w = (struct workgroup){ 0 };
    l->used--;
}

void vkmm_dispatch_levels_workgroup_done(struct vkmm_dispatch_levels *l, uint32_t workgroup_tag)
{
    struct workgroup *w = vkmm_levels_find_workgroup(l, workgroup_tag);
    if (!w)
        return;
    w->done = true;
    vkmm_levels_drop_snapshots(&w->domain);
}

/* A finished subgroup's atomic stores are performed (they must be, for
 * waiting agents to progress); its other writes stay in its caches until
 * the dispatch ends or room is needed — writes nobody made available may
 * stay unseen that long (DESIGN §3.2 "the stalest result"). */
static void perform_atomic_stores(struct vkmm_dispatch_levels *l, struct workgroup *w, struct cache *sg)
{
    for (uint32_t n = 0; n < sg->count; n++)
        vkmm_levels_push_to_workgroup(l, w, line_at(sg, n), line_at(sg, n)->atomic);
}

static void perform_retired_atomics(struct vkmm_dispatch_levels *l, struct workgroup *w, struct cache *sg)
{
    perform_atomic_stores(l, w, sg);
    sg->retire_round = UINT64_MAX;
}

/* A subgroup waits at a control barrier: its atomic stores are performed
 * two rounds later, as a finished subgroup's are (a store buffer drains
 * while its invocations wait; another subgroup may spin, before it reaches
 * the barrier, on one of those stores).  No seeded draw: the seeds'
 * schedules stay as they were. */
void vkmm_dispatch_levels_wait_at_barrier(struct vkmm_dispatch_levels *l, uint32_t workgroup_tag,
                                          uint32_t subgroup)
{
    struct workgroup *w = vkmm_levels_find_workgroup(l, workgroup_tag);
    if (w && subgroup < w->subgroup_count && !w->subgroups[subgroup].barrier_round)
        w->subgroups[subgroup].barrier_round = l->round + 2;
}

void vkmm_dispatch_levels_barrier_open(struct vkmm_dispatch_levels *l, uint32_t workgroup_tag)
{
    struct workgroup *w = vkmm_levels_find_workgroup(l, workgroup_tag);
    for (uint32_t g = 0; w && g < w->subgroup_count; g++)
        w->subgroups[g].barrier_round = 0;
}

/* Every resident workgroup has stepped once: finished subgroups whose
 * time came perform their atomic stores. */
void vkmm_dispatch_levels_round(struct vkmm_dispatch_levels *l)
{
    l->round++;
    if (!l->used)
        return;
    for (uint32_t i = 0; i < MAX_WORKGROUPS; i++) {
        struct workgroup *w = &l->workgroups[i];
        for (uint32_t g = 0; w->tag && g < w->subgroup_count; g++) {
            struct cache *sg = &w->subgroups[g];
            if (sg->retire_round && sg->retire_round <= l->round)
                perform_retired_atomics(l, w, sg);
            if (sg->barrier_round && sg->barrier_round != UINT64_MAX && sg->barrier_round <= l->round) {
                perform_atomic_stores(l, w, sg);
                sg->barrier_round = UINT64_MAX;
            }
        }
    }
}

/* Every atomic store finished subgroups still hold is performed now (an
 * agent waits: it must eventually see them). */
static void flush_retired(struct vkmm_dispatch_levels *l)
{
    for (uint32_t i = 0; i < MAX_WORKGROUPS; i++) {
        struct workgroup *w = &l->workgroups[i];
        for (uint32_t g = 0; w->tag && g < w->subgroup_count; g++)
            if (w->subgroups[g].retire_round && w->subgroups[g].retire_round != UINT64_MAX)
                perform_retired_atomics(l, w, &w->subgroups[g]);
    }
}

