#include "dispatch_levels.h"

#include <stdlib.h>
#include <string.h>

#include "atomic_history.h"
#include "dispatch_levels_state.h"
#include "shader_abi.h"

/* --- Lines ------------------------------------------------------------------------ */

/* The line for `granule`, added empty when absent; NULL (and the dispatch
 * marked failed) when out of memory. */
static struct line *get_line(struct vkmm_dispatch_levels *l, struct cache *c, uint64_t granule)
{
    struct line *line = vkmm_level_get(&l->lines, c, granule);
    if (!line)
        l->failed = true;
    return line;
}

static uint64_t byte_mask(uint32_t first, uint32_t count)
{
    return count >= 64 ? ~0ull << first : ((1ull << count) - 1) << first;
}

static void copy_bytes(uint8_t *to, const uint8_t *from, uint64_t mask)
{
    while (mask) {
        unsigned b = (unsigned)__builtin_ctzll(mask);
        to[b] = from[b];
        mask &= mask - 1;
    }
}

static uint8_t *granule_bytes(const struct vkmm_dispatch_levels *l, uint64_t granule)
{
    return l->base + granule * LINE_BYTES;
}

static void mark_dirty(struct vkmm_dispatch_levels *l, struct cache *c, struct line *line, uint64_t mask,
                       uint64_t atomic)
{
    if (!line->dirty && mask) {
        c->dirty_lines++;
        vkmm_level_add_holder(&l->lines, line);
    }
    /* The device bytes as the line first holds them (a later lost-update
     * check compares against them). */
    copy_bytes(line->base, granule_bytes(l, line->granule), mask & ~line->valid);
    line->dirty |= mask;
    line->atomic = (line->atomic & ~mask) | (atomic & mask);
    line->writer_tag = l->tag;
    line->writer_site = l->site;
    for (uint64_t bytes = mask; bytes; bytes &= bytes - 1)
        line->writer_invocation[__builtin_ctzll(bytes)] = (uint16_t)l->invocation;
    line->device &= ~mask;
    line->valid |= mask;
    line->order = ++l->clock;
    c->idle_yields = 0;
}

/* --- Agents ----------------------------------------------------------------------- */

struct workgroup *vkmm_levels_find_workgroup(struct vkmm_dispatch_levels *l, uint32_t tag)
{
    if (!l->used && tag)
        return NULL; /* the usual case outside shaders with non-private accesses */
    /* A subgroup runs from one scheduling point to the next: most accesses
     * in a row come from one workgroup. */
    if (tag && l->last_found && l->last_found->tag == tag)
        return l->last_found;
    for (uint32_t i = 0; i < MAX_WORKGROUPS; i++) {
        if (l->workgroups[i].tag == tag) {
            if (tag)
                l->last_found = &l->workgroups[i];
            return &l->workgroups[i];
        }
    }
    return NULL;
}


static struct workgroup *get_workgroup(struct vkmm_dispatch_levels *l, uint32_t tag)
{
    struct workgroup *w = vkmm_levels_find_workgroup(l, tag);
    if (w)
        return w;
    w = vkmm_levels_find_workgroup(l, 0);
    for (uint32_t i = 0; !w && i < MAX_WORKGROUPS; i++) {
        if (l->workgroups[i].done) {
            /* The table is full of retired workgroups: the first goes out
             * early (always allowed: it only makes writes visible sooner). */
            w = &l->workgroups[i];
            vkmm_levels_finish_workgroup(l, w);
        }
    }
    if (!w) {
        l->failed = true;
        return NULL;
    }
    w->tag = tag;
    w->domain.workgroup = (uint32_t)(w - l->workgroups);
    w->domain.subgroup = DOMAIN_CACHE;
    l->used++;
    return w;
}

static struct cache *get_subgroup(struct vkmm_dispatch_levels *l, struct workgroup *w, uint32_t subgroup)
{
    if (subgroup >= w->subgroup_count) {
        uint32_t count = subgroup + 1 > 2 * w->subgroup_count ? subgroup + 1 : 2 * w->subgroup_count;
        struct cache *grown = realloc(w->subgroups, count * sizeof(*grown));
        if (!grown) {
            l->failed = true;
            return NULL;
        }
        memset(grown + w->subgroup_count, 0, (count - w->subgroup_count) * sizeof(*grown));
        for (uint32_t g = w->subgroup_count; g < count; g++) {
            grown[g].workgroup = (uint32_t)(w - l->workgroups);
            grown[g].subgroup = g;
        }
        w->subgroups = grown;
        w->subgroup_count = count;
    }
    return &w->subgroups[subgroup];
}

/* --- Moving bytes between levels ---------------------------------------------- */

/* A read-modify-write of narrow scope worked on its agent's copy (a
 * workgroup-scope one on its workgroup's, a subgroup-scope one on its
 * subgroup's); when the copy goes out, bytes that another agent changed in
 * the next level (`outer`, the line's 64 bytes there) meanwhile lose that
 * change (DESIGN §3.2: lost updates are the correct misbehaviour of atomics
 * whose scopes do not hold each other).  Recorded once per instruction. */
static void note_lost_update(struct vkmm_dispatch_levels *l, const struct line *line, uint64_t mask,
                             const uint8_t *outer, bool subgroup_scope)
{
    for (uint64_t bytes = mask & line->scoped; bytes; bytes &= bytes - 1) {
        unsigned b = (unsigned)__builtin_ctzll(bytes);
        if (outer[b] == line->base[b])
            continue;
        for (uint32_t i = 0; i < l->lost_count; i++)
            if (l->lost[i].writer_site == line->writer_site)
                return;
        if (l->lost_count < VKMM_LEVEL_MAX_LOST)
            l->lost[l->lost_count++] = (struct vkmm_level_lost){
                .offset = line->granule * LINE_BYTES + b,
                .writer_tag = line->writer_tag,
                .writer_site = line->writer_site,
                .writer_invocation = line->writer_invocation[b],
                .subgroup_scope = subgroup_scope,
            };
        return;
    }
}

/* Atomic stores of whole 32-bit words of `line` in `mask` reach `level`,
 * whose bytes were `before` (the line's 64): the words' coherence order
 * takes them (atomic_history.h).  Returns the bytes of those that take a
 * place before the level's newest value: the level keeps its bytes there.
 * Other changes of followed words are noticed at their next atomic access. */
static uint64_t note_landed(struct vkmm_dispatch_levels *l, const struct line *line, uint64_t mask, uint32_t level,
                            const uint8_t *before)
{
    uint64_t hidden = 0, left = 0;
    for (unsigned b = 0; b < LINE_BYTES; b += 4)
        if ((mask >> b & 0xf) == 0xf)
            left |= 0xfull << b;
    uint32_t tag = l->workgroups[line->workgroup].tag;
    /* One landing per writing invocation: its words are one write (a
     * 64-bit store's halves stay together). */
    while (left) {
        uint16_t writer = line->writer_invocation[__builtin_ctzll(left)];
        uint64_t offsets[VKMM_ATOMIC_LANDING_WORDS], words = 0;
        uint32_t old[VKMM_ATOMIC_LANDING_WORDS], new[VKMM_ATOMIC_LANDING_WORDS], count = 0;
        for (unsigned b = 0; b < LINE_BYTES; b += 4) {
            if (!(left >> b & 1) || line->writer_invocation[b] != writer)
                continue;
            offsets[count] = line->granule * LINE_BYTES + b;
            memcpy(&old[count], before + b, 4);
            memcpy(&new[count], line->bytes + b, 4);
            count++;
            words |= 0xfull << b;
        }
        left &= ~words;
        if (vkmm_atomic_history_landed_words(l->history, level, offsets, old, new, count,
                                             vkmm_atomic_agent(tag, writer)))
            hidden |= words;
    }
    return hidden;
}

void vkmm_levels_push_to_device(struct vkmm_dispatch_levels *l, struct line *line, uint64_t mask)
{
    mask &= line->dirty;
    if (line->scoped & mask) {
        note_lost_update(l, line, mask, granule_bytes(l, line->granule), false);
        line->scoped &= ~mask;
    }
    copy_bytes(line->base, line->bytes, mask);
    copy_bytes(granule_bytes(l, line->granule), line->bytes, mask);
    vkmm_level_clean(line, mask);
    line->atomic &= ~mask;
    line->device &= ~mask;
}

/* Subgroup domain -> workgroup domain. */
void vkmm_levels_push_to_workgroup(struct vkmm_dispatch_levels *l, struct workgroup *w, struct line *line, uint64_t mask)
{
    mask &= line->dirty;
    if (!mask)
        return;
    if (line->scoped & mask) {
        /* What the workgroup's level holds now: its copy, else the device bytes. */
        uint8_t now[LINE_BYTES];
        const struct line *held = vkmm_level_find(&w->domain, line->granule);
        memcpy(now, granule_bytes(l, line->granule), LINE_BYTES);
        if (held)
            copy_bytes(now, held->bytes, held->valid);
        note_lost_update(l, line, mask, now, true);
        line->scoped &= ~mask;
    }
    /* A device-scope atomic store leaves the store buffer for the shader
     * domain: it is performed there, and the workgroup's copy of its bytes
     * takes the new value (an older write held there is overwritten: it
     * came first). */
    uint64_t atomic = line->device & mask;
    uint64_t scoped_atomic = line->atomic & ~line->device & mask; /* workgroup-scope atomic stores */
    struct line *outer = atomic ? vkmm_level_find(&w->domain, line->granule) : NULL;
    uint64_t written = atomic & ~note_landed(l, line, atomic, 0, granule_bytes(l, line->granule));
    copy_bytes(granule_bytes(l, line->granule), line->bytes, written);
    if (outer) {
        copy_bytes(outer->bytes, line->bytes, written);
        copy_bytes(outer->base, line->bytes, written);
        outer->valid |= written;
        vkmm_level_clean(outer, written);
        outer->atomic &= ~written;
    }
    vkmm_level_clean(line, atomic);
    line->atomic &= ~atomic;
    line->device &= ~atomic;
    mask &= ~atomic;
    if (!mask)
        return;
    outer = get_line(l, &w->domain, line->granule);
    if (!outer)
        return; /* l->failed: the device is lost */
    uint64_t hidden = 0;
    if (scoped_atomic) {
        uint8_t before[LINE_BYTES];
        memcpy(before, granule_bytes(l, line->granule), LINE_BYTES);
        copy_bytes(before, outer->bytes, outer->valid);
        hidden = note_landed(l, line, scoped_atomic, w->tag, before);
    }
    uint64_t moved = mask & ~hidden;
    if (moved) {
        copy_bytes(outer->bytes, line->bytes, moved);
        mark_dirty(l, &w->domain, outer, moved, 0);
        outer->available |= line->available & moved; /* still waiting for a Device-scope release */
        outer->writer_tag = line->writer_tag;
        outer->writer_site = line->writer_site;
        for (uint64_t bytes = moved; bytes; bytes &= bytes - 1)
            outer->writer_invocation[__builtin_ctzll(bytes)] = line->writer_invocation[__builtin_ctzll(bytes)];
        outer->order = line->order;
        w->domain.idle_yields = 0;
    }
    vkmm_level_clean(line, mask);
    line->atomic &= ~mask;
}

/* Fills the workgroup line's missing bytes from the device bytes. */
static void fill_workgroup_line(const struct vkmm_dispatch_levels *l, struct line *line)
{
    copy_bytes(line->bytes, granule_bytes(l, line->granule), ~line->valid);
    copy_bytes(line->base, granule_bytes(l, line->granule), ~line->valid);
    line->valid = ~0ull;
}

/* Fills the subgroup line's missing bytes from what the workgroup domain
 * holds, taking a workgroup snapshot of the line too (a cache that fills
 * on a miss: later reads in the workgroup see this snapshot until a
 * visibility operation — DESIGN §3.2 "the stalest result"). */
static void fill_subgroup_line(struct vkmm_dispatch_levels *l, struct workgroup *w, struct line *line)
{
    if (line->valid == ~0ull)
        return;
    struct line *outer = get_line(l, &w->domain, line->granule);
    if (!outer) {
        copy_bytes(line->bytes, granule_bytes(l, line->granule), ~line->valid);
    } else {
        fill_workgroup_line(l, outer);
        copy_bytes(line->bytes, outer->bytes, ~line->valid);
    }
    line->valid = ~0ull;
}

/* Availability of `mask` of one granule from the subgroup outward to
 * `scope`, dropping the subgroup's (and for device scope the workgroup's)
 * snapshots of those bytes, which are older than what the access does next. */
static void settle(struct vkmm_dispatch_levels *l, struct workgroup *w, struct cache *sg, uint64_t granule,
                   uint64_t mask, enum vkmm_access_scope scope)
{
    struct line *inner = sg ? vkmm_level_find(sg, granule) : NULL;
    if (inner) {
        vkmm_levels_push_to_workgroup(l, w, inner, mask);
        inner->valid &= ~(mask & ~inner->dirty);
    }
    if (scope < VKMM_SCOPE_DEVICE)
        return;
    struct line *outer = vkmm_level_find(&w->domain, granule);
    if (outer) {
        vkmm_levels_push_to_device(l, outer, mask);
        outer->valid &= ~(mask & ~outer->dirty);
    }
}

/* The workgroup line's dirty bytes a read made visible at Device scope
 * sees (000 "Availability and Visibility"): a visibility operation at
 * Device scope makes visible what is available in the device domain — the
 * writes made available at Device scope (marked `available`, on their way)
 * — and the reading invocation's own writes (program order).  A write made
 * available only to the workgroup (`workgroupcoherent`, a Workgroup-scope
 * barrier, a Workgroup-scope atomic store) is not, so the read may miss it
 * (Khronos `test16`): it races with it. */
static uint64_t device_visible(const struct vkmm_dispatch_levels *l, const struct line *outer, uint64_t mask)
{
    uint64_t seen = outer->dirty & mask & outer->available;
    for (uint64_t bytes = outer->dirty & mask & ~seen; bytes; bytes &= bytes - 1) {
        unsigned b = (unsigned)__builtin_ctzll(bytes);
        if (outer->writer_invocation[b] == l->invocation)
            seen |= 1ull << b;
    }
    return seen;
}

/* What a read of `mask` sees through the levels up to the shader domain:
 * the subgroup's dirty bytes, else the workgroup's dirty bytes (for a read
 * made visible at Device scope, those device_visible gives), else the
 * device bytes.  Returns false (nothing to merge) when no level holds a
 * dirty byte it sees. */
static bool merge_dirty(const struct vkmm_dispatch_levels *l, const struct workgroup *w, const struct cache *sg,
                        uint64_t granule, uint64_t mask, bool device_visibility, uint8_t *out)
{
    const struct line *inner = sg ? vkmm_level_find(sg, granule) : NULL;
    const struct line *outer = vkmm_level_find(&w->domain, granule);
    uint64_t from_inner = inner ? inner->dirty & mask : 0;
    uint64_t from_outer = !outer ? 0
                          : device_visibility ? device_visible(l, outer, mask & ~from_inner)
                                              : outer->dirty & mask & ~from_inner;
    if (!from_inner && !from_outer)
        return false;
    copy_bytes(out, granule_bytes(l, granule), mask & ~from_inner & ~from_outer);
    if (from_outer)
        copy_bytes(out, outer->bytes, from_outer);
    if (from_inner)
        copy_bytes(out, inner->bytes, from_inner);
    return true;
}

/* --- The coherent view ------------------------------------------------------------ */

/* Compares what a read returned with the newest write of each byte: the
 * newest dirty copy in any cache (by the time its line was written), else
 * the device bytes.  Records the first difference in l->stale. */
/* Byte b of the granule was read stale; `holder` holds its newest write
 * (NULL: the device bytes do), in a cache whose agent has `finished`. */
static void note_stale(struct vkmm_dispatch_levels *l, uint64_t granule, unsigned b, const struct line *holder,
                       bool finished)
{
    l->stale = (struct vkmm_level_stale){
        .stale = true,
        .held = holder != NULL,
        .made_available = holder && ((holder->available >> b) & 1),
        .for_good = !holder || finished,
        .writer_tag = holder ? holder->writer_tag : 0,
        .writer_site = holder ? holder->writer_site : 0,
        .writer_invocation = holder ? holder->writer_invocation[b] : UINT32_MAX,
        .offset = granule * LINE_BYTES + b,
    };
}

static void check_stale(struct vkmm_dispatch_levels *l, uint64_t granule, uint64_t mask, const uint8_t *returned)
{
    struct line *holders = *vkmm_level_holders(&l->lines, granule);
    if (!holders) {
        /* No cache holds a dirty byte of it: the device bytes are the
         * newest. */
        const uint8_t *device = granule_bytes(l, granule);
        unsigned first = (unsigned)__builtin_ctzll(mask);
        for (uint64_t bytes = mask; bytes; bytes &= bytes - 1) {
            unsigned b = (unsigned)__builtin_ctzll(bytes);
            if (returned[b - first] != device[b]) {
                note_stale(l, granule, b, NULL, false);
                return;
            }
        }
        return;
    }
    uint8_t newest[LINE_BYTES];
    uint64_t order[LINE_BYTES] = { 0 };
    const struct line *holder[LINE_BYTES] = { 0 };
    bool finished[LINE_BYTES] = { false };
    copy_bytes(newest, granule_bytes(l, granule), mask);
    for (const struct line *line = holders; line; line = line->next_holder) {
        if (line->granule != granule)
            continue;
        const struct workgroup *w = &l->workgroups[line->workgroup];
        for (uint64_t bytes = line->dirty & mask; bytes; bytes &= bytes - 1) {
            unsigned b = (unsigned)__builtin_ctzll(bytes);
            if (line->order > order[b]) {
                order[b] = line->order;
                newest[b] = line->bytes[b];
                holder[b] = line;
                finished[b] = line->subgroup != DOMAIN_CACHE ? w->subgroups[line->subgroup].retire_round != 0
                                                            : w->done;
            }
        }
    }
    for (uint64_t bytes = mask; bytes; bytes &= bytes - 1) {
        unsigned b = (unsigned)__builtin_ctzll(bytes);
        if (returned[b - __builtin_ctzll(mask)] == newest[b])
            continue;
        note_stale(l, granule, b, holder[b], finished[b]);
        return;
    }
}

const struct vkmm_level_stale *vkmm_dispatch_levels_stale(const struct vkmm_dispatch_levels *l)
{
    return &l->stale;
}

const struct vkmm_level_lost *vkmm_dispatch_levels_lost(const struct vkmm_dispatch_levels *l, uint32_t *count)
{
    *count = l->lost_count;
    return l->lost;
}

/* --- Accesses --------------------------------------------------------------------- */

/* A lane whose bytes cross a line: every level gives its bytes of both
 * granules to the device bytes, and the access goes there. */
static uint8_t *access_across_lines(struct vkmm_dispatch_levels *l, struct workgroup *w, struct cache *sg,
                                    uint64_t offset, uint32_t size)
{
    for (uint64_t at = offset; at < offset + size;) {
        uint64_t granule = at / LINE_BYTES;
        uint32_t first = (uint32_t)(at % LINE_BYTES);
        uint32_t count = LINE_BYTES - first < offset + size - at ? LINE_BYTES - first : (uint32_t)(offset + size - at);
        settle(l, w, sg, granule, byte_mask(first, count), VKMM_SCOPE_DEVICE);
        at += count;
    }
    return l->base + offset;
}

/* A private access (000 "Private"): it never communicates with another
 * agent inside the command, but it must see the agent's own writes held in
 * its levels, and a private store must land after them. */
static uint8_t *access_private(struct vkmm_dispatch_levels *l, struct workgroup *w, struct cache *sg,
                               uint64_t granule, uint64_t mask, uint32_t flags, uint8_t *view)
{
    uint32_t first = (uint32_t)__builtin_ctzll(mask);
    if (flags & VKMM_WORKGROUP_WRITE) {
        struct line *line = sg ? vkmm_level_find(sg, granule) : NULL;
        struct cache *holder = sg;
        if (!line) {
            line = vkmm_level_find(&w->domain, granule);
            holder = &w->domain;
        }
        if (!line)
            return granule_bytes(l, granule) + first;
        mark_dirty(l, holder, line, mask, 0);
        return line->bytes + first;
    }
    uint8_t merged[LINE_BYTES];
    if (!merge_dirty(l, w, sg, granule, mask, false, merged))
        return granule_bytes(l, granule) + first;
    memcpy(view, merged + first, (size_t)__builtin_popcountll(mask));
    return view;
}

/* A store with MakePointerAvailable at device scope: delayed
 * availability.  The write stays in the subgroup's line, marked made
 * available; the subgroup's next release naming device memory (at
 * Workgroup scope or wider: a fence, an atomic's or a control barrier's
 * semantics) takes it to the workgroup's line, still marked, and a release
 * at Device scope by any subgroup of the workgroup takes the workgroup's
 * marked bytes to the device bytes (vkmm_dispatch_levels_fence).  000: a
 * write made available to the device domain is visible to a read of
 * another invocation only through a happens-before chain from it, which
 * leaves the writing invocation through a release of its own after the
 * write whose semantics name the write's storage class, and leaves the
 * workgroup through a release at Device scope; so a race-free program sees
 * the write as before, while a read racing with it misses it: fences at
 * Workgroup scope between workgroups (Khronos `fencefencebroken`), or a
 * release whose semantics name only Workgroup memory (`test0`), as on a GPU
 * whose caches write back out of order. */
static uint8_t *store_available_later(struct vkmm_dispatch_levels *l, struct cache *sg, uint64_t granule,
                                      uint64_t mask)
{
    struct line *line = get_line(l, sg, granule);
    if (!line)
        return granule_bytes(l, granule) + __builtin_ctzll(mask);
    mark_dirty(l, sg, line, mask, 0);
    line->available |= mask;
    return line->bytes + __builtin_ctzll(mask);
}

/* A non-atomic, non-private access: NonPrivatePointer, with the scope of
 * its MakePointerAvailable / MakePointerVisible (NONE without), or a
 * legacy Coherent/Volatile one (device scope). */
static uint8_t *access_shared(struct vkmm_dispatch_levels *l, struct workgroup *w, struct cache *sg,
                              uint64_t granule, uint64_t mask, uint32_t flags, enum vkmm_access_scope scope,
                              uint8_t *view)
{
    uint32_t first = (uint32_t)__builtin_ctzll(mask);
    bool write = (flags & VKMM_WORKGROUP_WRITE) != 0;
    if (scope <= VKMM_SCOPE_SUBGROUP) {
        /* Into (or out of) the subgroup's own cache. */
        struct line *line = get_line(l, sg, granule);
        if (!line)
            return granule_bytes(l, granule) + first;
        if (write)
            mark_dirty(l, sg, line, mask, 0);
        else
            fill_subgroup_line(l, w, line);
        return line->bytes + first;
    }
    if (scope == VKMM_SCOPE_WORKGROUP) {
        struct line *inner = vkmm_level_find(sg, granule);
        if (!write && inner && (inner->dirty & mask)) {
            uint8_t merged[LINE_BYTES];
            struct line *outer = get_line(l, &w->domain, granule);
            if (outer)
                fill_workgroup_line(l, outer);
            copy_bytes(merged, outer ? outer->bytes : granule_bytes(l, granule), mask);
            copy_bytes(merged, inner->bytes, inner->dirty & mask);
            memcpy(view, merged + first, (size_t)__builtin_popcountll(mask));
            return view;
        }
        if (inner) {
            vkmm_levels_push_to_workgroup(l, w, inner, mask);
            inner->valid &= ~(mask & ~inner->dirty);
        }
        struct line *outer = get_line(l, &w->domain, granule);
        if (!outer)
            return granule_bytes(l, granule) + first;
        if (write)
            mark_dirty(l, &w->domain, outer, mask, 0);
        else
            fill_workgroup_line(l, outer);
        return outer->bytes + first;
    }
    if (write && (flags & VKMM_ACCESS_MADE_AVAILABLE))
        return store_available_later(l, sg, granule, mask);
    if (write) {
        settle(l, w, sg, granule, mask, VKMM_SCOPE_DEVICE);
        return granule_bytes(l, granule) + first;
    }
    uint8_t merged[LINE_BYTES];
    bool moved = merge_dirty(l, w, sg, granule, mask, true, merged);
    struct line *inner = vkmm_level_find(sg, granule), *outer = vkmm_level_find(&w->domain, granule);
    if (inner)
        inner->valid &= ~(mask & ~inner->dirty);
    if (outer)
        outer->valid &= ~(mask & ~outer->dirty);
    if (!moved)
        return granule_bytes(l, granule) + first;
    memcpy(view, merged + first, (size_t)__builtin_popcountll(mask));
    return view;
}

/* An atomic at its scope's level (DESIGN §3.2 "atomics"): a device-scope
 * one on the device bytes, a workgroup-scope one on its workgroup's copy (so
 * workgroup-scope atomics of two workgroups may lose each other's updates),
 * a subgroup-scope one in the subgroup's cache.  An atomic store waits in
 * the subgroup's store buffer (its cache) like any store: coherence per
 * location holds because the agent's own later atomics push it out first. */
static uint8_t *access_atomic(struct vkmm_dispatch_levels *l, struct workgroup *w, struct cache *sg,
                              uint64_t granule, uint64_t mask, uint32_t flags, enum vkmm_access_scope scope)
{
    uint32_t first = (uint32_t)__builtin_ctzll(mask);
    bool store_only = !(flags & VKMM_WORKGROUP_READ);
    if (store_only && scope >= VKMM_SCOPE_WORKGROUP) {
        /* The store buffer: performed later (in the scope's domain), after
         * the subgroup's atomic stores of earlier release epochs. */
        struct line *line = get_line(l, sg, granule);
        if (!line)
            return granule_bytes(l, granule) + first;
        mark_dirty(l, sg, line, mask, mask);
        if (scope == VKMM_SCOPE_DEVICE)
            line->device |= mask;
        line->epoch = sg->epoch;
        return line->bytes + first;
    }
    if (scope <= VKMM_SCOPE_SUBGROUP) {
        struct line *line = get_line(l, sg, granule);
        if (!line)
            return granule_bytes(l, granule) + first;
        if (!store_only) {
            /* The subgroup's copy must hold the latest value it may see. */
            settle(l, w, sg, granule, mask, VKMM_SCOPE_WORKGROUP);
            struct line *outer = vkmm_level_find(&w->domain, granule);
            copy_bytes(line->bytes, outer && (outer->valid & mask) == mask ? outer->bytes : granule_bytes(l, granule),
                       mask & ~line->valid);
            line->valid |= mask;
        }
        if (!store_only && (flags & VKMM_WORKGROUP_WRITE)) {
            /* A read-modify-write on the subgroup's copy: what the copy held
             * before its first one, for the lost-update check when it goes
             * out (push_to_workgroup). */
            copy_bytes(line->base, line->bytes, mask & ~line->scoped);
            line->scoped |= mask;
        }
        if (flags & VKMM_WORKGROUP_WRITE)
            mark_dirty(l, sg, line, mask, 0);
        return line->bytes + first;
    }
    settle(l, w, sg, granule, mask, scope);
    if (scope == VKMM_SCOPE_DEVICE)
        return granule_bytes(l, granule) + first;
    struct line *outer = get_line(l, &w->domain, granule);
    if (!outer)
        return granule_bytes(l, granule) + first;
    copy_bytes(outer->bytes, granule_bytes(l, granule), mask & ~outer->valid);
    copy_bytes(outer->base, granule_bytes(l, granule), mask & ~outer->valid);
    outer->valid |= mask;
    if (flags & VKMM_WORKGROUP_WRITE) {
        mark_dirty(l, &w->domain, outer, mask, 0);
        outer->scoped |= mask;
    }
    return outer->bytes + first;
}

/* The level whose coherence order an atomic of `scope` follows (its
 * scope's domain: the device bytes, or the workgroup's copy), UINT32_MAX
 * for none (subgroup scope: the subgroup's own cache). */
static uint32_t history_level(enum vkmm_access_scope scope, uint32_t workgroup_tag)
{
    if (scope == VKMM_SCOPE_DEVICE)
        return 0;
    return scope == VKMM_SCOPE_WORKGROUP ? workgroup_tag : UINT32_MAX;
}

/* An atomic read of `bytes` (what the level holds now) by the access's
 * invocation: a read-modify-write reads them (atomicity); a load may read
 * an older value of the word's coherence order, written into `view`
 * (atomic_history.h: IRIW's readers disagree on the order of two stores). */
static uint8_t *atomic_read(struct vkmm_dispatch_levels *l, uint8_t *bytes, uint64_t offset, uint32_t size,
                            uint32_t flags, enum vkmm_access_scope scope, uint8_t *view)
{
    uint64_t agent = vkmm_atomic_agent(l->tag, l->invocation);
    uint32_t level = history_level(scope, l->tag);
    if (size != 4 || offset % 4 || level == UINT32_MAX) {
        vkmm_atomic_history_untracked_read(l->history, agent);
        return bytes;
    }
    uint32_t current;
    memcpy(&current, bytes, 4);
    if (flags & VKMM_WORKGROUP_WRITE) {
        vkmm_atomic_history_rmw(l->history, level, offset, current, agent);
        return bytes;
    }
    uint32_t value = vkmm_atomic_history_load(l->history, level, offset, current, agent);
    if (value == current)
        return bytes;
    memcpy(view, &value, 4);
    return view;
}

bool vkmm_dispatch_levels_busy(const struct vkmm_dispatch_levels *l, uint32_t workgroup_tag)
{
    if (!l->used)
        return false;
    for (uint32_t i = 0; i < MAX_WORKGROUPS; i++)
        if (l->workgroups[i].tag == workgroup_tag)
            return true;
    return false;
}

uint8_t *vkmm_dispatch_levels_access(struct vkmm_dispatch_levels *l, uint32_t workgroup_tag, uint32_t subgroup,
                                     uint64_t offset, uint32_t size, uint32_t flags, uint8_t *view, uint32_t site,
                                     uint32_t invocation)
{
    uint8_t *address = l->base + offset;
    l->stale.stale = false;
    l->site = site;
    l->invocation = invocation;
    l->tag = workgroup_tag;
    bool private_ = (flags & VKMM_ACCESS_PRIVATE) && !(flags & VKMM_WORKGROUP_ATOMIC);
    enum vkmm_access_scope scope = (enum vkmm_access_scope)(flags >> VKMM_ACCESS_SCOPE_SHIFT & 3u);
    bool stores_in_line = (flags & VKMM_WORKGROUP_ATOMIC) && !(flags & VKMM_WORKGROUP_READ);
    bool available_later = (flags & VKMM_ACCESS_MADE_AVAILABLE) && (flags & VKMM_WORKGROUP_WRITE);
    bool at_device = private_ || (scope == VKMM_SCOPE_DEVICE && !stores_in_line && !available_later);
    if (at_device && !vkmm_levels_find_workgroup(l, workgroup_tag)) {
        /* The workgroup holds nothing: the access is the device bytes'
         * (a read may still miss a newer write another workgroup holds). */
        if (!private_ && !(flags & (VKMM_WORKGROUP_ATOMIC | VKMM_WORKGROUP_WRITE)) && l->used &&
            offset % LINE_BYTES + size <= LINE_BYTES && size)
            check_stale(l, offset / LINE_BYTES, byte_mask((uint32_t)(offset % LINE_BYTES), size), address);
        if ((flags & VKMM_WORKGROUP_ATOMIC) && (flags & VKMM_WORKGROUP_READ))
            return atomic_read(l, address, offset, size, flags, scope, view);
        return address;
    }
    struct workgroup *w = get_workgroup(l, workgroup_tag);
    struct cache *sg = w ? get_subgroup(l, w, subgroup) : NULL;
    if (!sg)
        return NULL;
    uint64_t granule = offset / LINE_BYTES;
    uint32_t first = (uint32_t)(offset % LINE_BYTES);
    if (size == 0 || first + size > LINE_BYTES)
        return access_across_lines(l, w, sg, offset, size);
    uint64_t mask = byte_mask(first, size);
    uint8_t *result;
    if (flags & VKMM_WORKGROUP_ATOMIC)
        result = access_atomic(l, w, sg, granule, mask, flags, scope);
    else if (private_)
        result = access_private(l, w, sg, granule, mask, flags, view);
    else
        result = access_shared(l, w, sg, granule, mask, flags, scope, view);
    if (result && !private_ && !(flags & (VKMM_WORKGROUP_ATOMIC | VKMM_WORKGROUP_WRITE)))
        check_stale(l, granule, mask, result);
    if (result && (flags & VKMM_WORKGROUP_ATOMIC) && (flags & VKMM_WORKGROUP_READ))
        result = atomic_read(l, result, offset, size, flags, scope, view);
    return l->failed ? NULL : result;
}

/* --- Fences ------------------------------------------------------------------------ */

void vkmm_levels_push_subgroup(struct vkmm_dispatch_levels *l, struct workgroup *w, struct cache *sg)
{
    for (uint32_t n = 0; n < sg->count; n++)
        vkmm_levels_push_to_workgroup(l, w, line_at(sg, n), ~0ull);
    sg->dirty_lines = 0;
}

void vkmm_levels_push_workgroup(struct vkmm_dispatch_levels *l, struct workgroup *w)
{
    for (uint32_t n = 0; n < w->domain.count; n++)
        vkmm_levels_push_to_device(l, line_at(&w->domain, n), ~0ull);
    w->domain.dirty_lines = 0;
}

/* The subgroup's writes made available at device scope reach its
 * workgroup's domain: its release may start a happens-before chain to
 * another invocation (store_available_later). */
static void push_subgroup_made_available(struct vkmm_dispatch_levels *l, struct workgroup *w, struct cache *sg)
{
    for (uint32_t n = 0; n < sg->count; n++) {
        struct line *line = line_at(sg, n);
        if (line->available)
            vkmm_levels_push_to_workgroup(l, w, line, line->available);
    }
}

/* The workgroup's writes made available at device scope reach the device
 * bytes: a device-scope release by any of its invocations may start a
 * happens-before chain to another workgroup (store_available_later). */
static void push_made_available(struct vkmm_dispatch_levels *l, struct workgroup *w)
{
    for (uint32_t n = 0; n < w->domain.count; n++) {
        struct line *line = line_at(&w->domain, n);
        if (line->available)
            vkmm_levels_push_to_device(l, line, line->available);
    }
}

void vkmm_levels_drop_snapshots(struct cache *c)
{
    for (uint32_t n = 0; n < c->count; n++)
        line_at(c, n)->valid = line_at(c, n)->dirty;
}

/* An acquire by the subgroup's invocations (all of its lanes: one that
 * did not take part only gains synchronization): atomic_history.h. */
static void history_acquire(struct vkmm_dispatch_levels *l, uint32_t workgroup_tag, uint32_t subgroup, uint32_t kind)
{
    if (!vkmm_atomic_history_tracking(l->history) ||
        !(kind & (VKMM_FENCE_VISIBLE | VKMM_FENCE_ACQUIRE | VKMM_FENCE_SYNC)))
        return;
    for (uint32_t lane = 0; lane < l->subgroup_width; lane++)
        vkmm_atomic_history_acquire(l->history, vkmm_atomic_agent(workgroup_tag, subgroup * l->subgroup_width + lane),
                                    (kind & VKMM_FENCE_ATOMIC) != 0);
}

void vkmm_dispatch_levels_fence(struct vkmm_dispatch_levels *l, uint32_t workgroup_tag, uint32_t subgroup,
                                uint32_t kind)
{
    history_acquire(l, workgroup_tag, subgroup, kind);
    if (!(kind & (VKMM_FENCE_AVAILABLE | VKMM_FENCE_VISIBLE | VKMM_FENCE_RELEASE | VKMM_FENCE_ACQUIRE)))
        return; /* VKMM_FENCE_SYNC alone: nothing moves between levels */
    enum vkmm_access_scope scope = (enum vkmm_access_scope)(kind & 3u);
    if (scope < VKMM_SCOPE_WORKGROUP)
        return; /* the subgroup's cache is its subgroup domain */
    if (l->common_fences) {
        /* The common reading: release and acquire on device memory make
         * available and visible, as in legacy modules. */
        kind |= (kind & VKMM_FENCE_RELEASE ? VKMM_FENCE_AVAILABLE : 0) |
                (kind & VKMM_FENCE_ACQUIRE ? VKMM_FENCE_VISIBLE : 0);
    }
    struct workgroup *w = vkmm_levels_find_workgroup(l, workgroup_tag);
    if (!w)
        return; /* nothing held */
    struct cache *sg = subgroup < w->subgroup_count ? &w->subgroups[subgroup] : NULL;
    /* Availability first, then visibility (000: a barrier's implicit
     * availability operation comes before it, the visibility after). */
    if (kind & VKMM_FENCE_AVAILABLE) {
        if (sg)
            vkmm_levels_push_subgroup(l, w, sg);
        if (scope == VKMM_SCOPE_DEVICE)
            vkmm_levels_push_workgroup(l, w);
    } else if (kind & VKMM_FENCE_RELEASE) {
        /* A release without availability orders the atomic stores before
         * it before those after it (the store buffer drains in epochs). */
        if (sg) {
            sg->epoch++;
            push_subgroup_made_available(l, w, sg);
        }
        if (scope == VKMM_SCOPE_DEVICE)
            push_made_available(l, w);
    }
    if (kind & VKMM_FENCE_VISIBLE) {
        if (sg)
            vkmm_levels_drop_snapshots(sg);
        if (scope == VKMM_SCOPE_DEVICE)
            vkmm_levels_drop_snapshots(&w->domain);
    }
}

/* --- Life -------------------------------------------------------------------------- */

struct vkmm_dispatch_levels *vkmm_dispatch_levels_create(uint8_t *base, uint64_t size)
{
    struct vkmm_dispatch_levels *l = calloc(1, sizeof(*l));
    if (!l)
        return NULL;
    l->base = base;
    l->size = size;
    l->history = vkmm_atomic_history_create();
    if (!l->history) {
        free(l);
        return NULL;
    }
    return l;
}

void vkmm_dispatch_levels_end(struct vkmm_dispatch_levels *l)
{
    for (uint32_t i = 0; i < MAX_WORKGROUPS; i++)
        if (l->workgroups[i].tag)
            vkmm_levels_finish_workgroup(l, &l->workgroups[i]);
}

void vkmm_dispatch_levels_destroy(struct vkmm_dispatch_levels *l)
{
    if (!l)
        return;
    vkmm_dispatch_levels_end(l);
    vkmm_level_lines_free(&l->lines);
    vkmm_atomic_history_destroy(l->history);
    free(l);
}

void vkmm_dispatch_levels_begin(struct vkmm_dispatch_levels *l, uint64_t seed, uint32_t subgroup_width)
{
    vkmm_dispatch_levels_end(l);
    vkmm_atomic_history_begin(l->history, seed);
    l->subgroup_width = subgroup_width;
    l->seed = seed;
    l->random = seed * 0x9E3779B97F4A7C15ull | 1;
    l->clock = 0;
    l->round = 0;
    l->failed = false;
    l->lost_count = 0;
}

void vkmm_dispatch_levels_set_common_fences(struct vkmm_dispatch_levels *l, bool common)
{
    l->common_fences = common;
}

bool vkmm_dispatch_levels_common_fences(const struct vkmm_dispatch_levels *l)
{
    return l->common_fences;
}

bool vkmm_dispatch_levels_failed(const struct vkmm_dispatch_levels *l)
{
    return l->failed;
}
