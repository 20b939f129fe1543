#include "happens_before.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "happens_before_state.h"
#include "touched_map.h"

struct vkmm_happens_before *vkmm_happens_before_create(uint64_t size)
{
    struct vkmm_happens_before *h = calloc(1, sizeof(*h));
    if (!h)
        return NULL;
    h->words = (size + WORD - 1) / WORD;
    h->records = vkmm_touched_map(h->words * 2 * sizeof(struct record));
    h->chunk_generation = vkmm_touched_map(vkmm_touched_chunks(h->words, CHUNK_WORDS) * sizeof(uint64_t));
    if (!h->records || !h->chunk_generation) {
        vkmm_happens_before_destroy(h);
        return NULL;
    }
    return h;
}

void vkmm_happens_before_destroy(struct vkmm_happens_before *h)
{
    if (!h)
        return;
    if (h->records)
        munmap(h->records, h->words * 2 * sizeof(struct record));
    if (h->chunk_generation)
        munmap(h->chunk_generation, vkmm_touched_chunks(h->words, CHUNK_WORDS) * sizeof(uint64_t));
    for (uint32_t i = 0; i < h->workgroup_count; i++)
        vkmm_workgroup_clocks_destroy(h->workgroups[i].clocks);
    for (uint32_t i = 0; i < h->spare_count; i++)
        vkmm_workgroup_clocks_destroy(h->spare[i]);
    free(h->workgroups);
    free(h->workgroup_index.slots);
    free(h->word_clocks);
    free(h->word_index.slots);
    free(h->states);
    free(h);
}

void vkmm_happens_before_begin(struct vkmm_happens_before *h)
{
    h->generation++; /* every data record of the last dispatch is stale now */
    for (uint32_t i = 0; i < h->workgroup_count; i++)
        vkmm_happens_before_spare_clocks(h, &h->workgroups[i]);
    if (h->workgroup_count)
        vkmm_key_index_clear(&h->workgroup_index);
    if (h->word_clock_count)
        vkmm_key_index_clear(&h->word_index);
    h->workgroup_count = 0;
    h->word_clock_count = 0;
    h->state_count = 0;
    h->state_subgroups = 0;
    h->gave_up = false;
    h->no_atomics = false;
    h->unseen_atomics = false;
}

void vkmm_happens_before_unseen_atomics(struct vkmm_happens_before *h)
{
    h->unseen_atomics = true;
}

void vkmm_happens_before_subgroups(struct vkmm_happens_before *h, uint32_t count)
{
    if (count == h->subgroups)
        return;
    /* The spares have rows for the old count. */
    while (h->spare_count)
        vkmm_workgroup_clocks_destroy(h->spare[--h->spare_count]);
    h->subgroups = count;
}

void vkmm_happens_before_no_atomics(struct vkmm_happens_before *h)
{
    h->no_atomics = true;
}

static uint64_t workgroup_key(const void *entries, uint32_t i)
{
    return ((const struct workgroup *)entries)[i].tag;
}

static uint64_t word_key(const void *entries, uint32_t i)
{
    return ((const struct word_clock *)entries)[i].word;
}

/* The entry of workgroup `tag`, or NULL.  A lane's access asks for its
 * workgroup several times in a row: the last one found is kept. */
struct workgroup *vkmm_happens_before_find_workgroup(struct vkmm_happens_before *h, uint32_t tag)
{
    if (!h->workgroup_count)
        return NULL;
    if (h->last_found && h->last_found <= h->workgroup_count && h->workgroups[h->last_found - 1].tag == tag)
        return &h->workgroups[h->last_found - 1];
    uint32_t at = h->workgroup_index.slots[vkmm_key_index_slot(&h->workgroup_index, tag, workgroup_key, h->workgroups)];
    if (at)
        h->last_found = at;
    return at ? &h->workgroups[at - 1] : NULL;
}

/* Gives up judging this dispatch (out of room or memory): NULL. */
void *vkmm_happens_before_give_up(struct vkmm_happens_before *h)
{
    h->gave_up = true;
    return NULL;
}

/* Makes room in an array of `size`-byte entries for one more. */
static bool reserve(void **array, uint32_t *room, uint32_t count, size_t size, uint32_t most)
{
    if (count < *room)
        return true;
    if (count >= most)
        return false;
    uint32_t grown = *room ? *room * 2 : 64;
    void *fresh = realloc(*array, (size_t)grown * size);
    if (!fresh)
        return false;
    *array = fresh;
    *room = grown;
    return true;
}

struct workgroup *vkmm_happens_before_workgroup(struct vkmm_happens_before *h, uint32_t tag)
{
    struct workgroup *w = vkmm_happens_before_find_workgroup(h, tag);
    if (w || h->gave_up)
        return w;
    if (!reserve((void **)&h->workgroups, &h->workgroup_room, h->workgroup_count, sizeof(*w), MAX_WORKGROUPS) ||
        !vkmm_key_index_grow(&h->workgroup_index, h->workgroup_count + 1, h->workgroup_count, workgroup_key,
                             h->workgroups))
        return vkmm_happens_before_give_up(h);
    w = &h->workgroups[h->workgroup_count];
    memset(w, 0, sizeof(*w));
    w->tag = tag;
    w->epoch = 1;
    w->wrote = true; /* its writes before it had an entry were recorded at moment 0 */
    h->workgroup_index.slots[vkmm_key_index_slot(&h->workgroup_index, tag, workgroup_key, h->workgroups)] =
        ++h->workgroup_count;
    return w;
}

static struct clock *word_clock(struct vkmm_happens_before *h, uint64_t word, bool add)
{
    if (h->word_clock_count) {
        uint32_t slot = vkmm_key_index_slot(&h->word_index, word, word_key, h->word_clocks);
        if (h->word_index.slots[slot])
            return &h->word_clocks[h->word_index.slots[slot] - 1].clock;
    }
    if (!add || h->gave_up)
        return NULL;
    if (!reserve((void **)&h->word_clocks, &h->word_clock_room, h->word_clock_count, sizeof(struct word_clock),
                 MAX_WORD_CLOCKS) ||
        !vkmm_key_index_grow(&h->word_index, h->word_clock_count + 1, h->word_clock_count, word_key, h->word_clocks))
        return vkmm_happens_before_give_up(h);
    struct word_clock *c = &h->word_clocks[h->word_clock_count];
    memset(c, 0, sizeof(*c));
    c->word = word;
    h->word_index.slots[vkmm_key_index_slot(&h->word_index, word, word_key, h->word_clocks)] = ++h->word_clock_count;
    return &c->clock;
}

/* clock[tag] = max(clock[tag], epoch). */
static void clock_raise(struct clock *c, uint32_t tag, uint32_t epoch)
{
    for (uint32_t i = 0; i < c->count; i++)
        if (c->at[i].tag == tag) {
            if (c->at[i].epoch < epoch)
                c->at[i].epoch = epoch;
            return;
        }
    if (c->count == CLOCK_ROOM) {
        c->full = true;
        return;
    }
    c->at[c->count].tag = tag;
    c->at[c->count++].epoch = epoch;
}

static void clock_join(struct clock *into, const struct clock *from)
{
    into->full |= from->full;
    for (uint32_t i = 0; i < from->count && !into->full; i++)
        clock_raise(into, from->at[i].tag, from->at[i].epoch);
}

/* Workgroup `tag` releases or acquires: its phase is not judged any more
 * (synchronization inside a workgroup is not followed), unless the module
 * has no atomic to synchronize through; NULL unless the scope reaches
 * other workgroups. */
static struct workgroup *synchronizing(struct vkmm_happens_before *h, uint32_t tag, bool wide)
{
    struct workgroup *w = vkmm_happens_before_workgroup(h, tag);
    if (!w)
        return NULL;
    if (!h->no_atomics)
        w->synchronized_phase = w->phase + 1;
    if (!wide)
        w->did |= DID_NARROW;
    return wide ? w : NULL;
}

void vkmm_happens_before_subgroup_sync(struct vkmm_happens_before *h, uint32_t tag)
{
    struct workgroup *w = vkmm_happens_before_workgroup(h, tag);
    if (w)
        w->synchronized_phase = w->phase + 1;
}

void vkmm_happens_before_release(struct vkmm_happens_before *h, uint32_t tag, bool wide)
{
    struct workgroup *w = synchronizing(h, tag, wide);
    if (!w)
        return;
    /* 000 "Release Sequence": what its atomic writes carry from now on. */
    w->released = w->seen;
    clock_raise(&w->released, tag, w->epoch);
    w->has_released = true;
    if (w->epoch < EPOCH_MAX)
        w->epoch++;
}

void vkmm_happens_before_acquire(struct vkmm_happens_before *h, uint32_t tag, bool wide)
{
    struct workgroup *w = synchronizing(h, tag, wide);
    if (!w)
        return;
    /* 000 "Synchronizes-With": the releases whose writes its atomic reads
     * returned. */
    clock_join(&w->seen, &w->pending);
    w->pending.count = 0;
    w->pending.full = false;
}

void vkmm_happens_before_atomic(struct vkmm_happens_before *h, uint32_t tag, uint64_t offset, bool read, bool write)
{
    struct workgroup *w = vkmm_happens_before_workgroup(h, tag);
    if (!w)
        return;
    w->did |= DID_ATOMIC;
    uint64_t word = offset / WORD;
    if (read) {
        const struct clock *c = word_clock(h, word, false);
        if (c)
            clock_join(&w->pending, c);
    }
    if (write && w->has_released) {
        struct clock *c = word_clock(h, word, true);
        if (c)
            clock_join(c, &w->released);
    }
}

void vkmm_happens_before_barrier(struct vkmm_happens_before *h, uint32_t tag)
{
    struct workgroup *w = vkmm_happens_before_workgroup(h, tag);
    if (w)
        w->phase++;
}

/* Does the recorded access happen before an access of invocation `invoker`
 * (local index + 1, 0 unknown) of workgroup `tag` (whose entry is `w`,
 * NULL: it never synchronized nor passed a barrier)? */
bool vkmm_happens_before_ordered_before(const struct record *record, uint32_t tag, uint32_t invoker,
                                        const struct workgroup *w)
{
    uint32_t earlier = record_tag(record->id);
    if (!earlier)
        return true;
    if (earlier == tag) {
        /* One workgroup: the same invocation, a control barrier between
         * (000 "Synchronizes-With": control barriers), or a fence or
         * atomic release/acquire in the phase, which is not followed. */
        uint32_t earlier_invoker = record_invoker(record->id);
        uint32_t phase = w ? w->phase : 0;
        return !earlier_invoker || !invoker || earlier_invoker == invoker || record->phase != phase ||
               (w && w->synchronized_phase == phase + 1);
    }
    if (!w)
        return false;
    if (w->seen.full)
        return true;
    for (uint32_t i = 0; i < w->seen.count; i++)
        if (w->seen.at[i].tag == earlier)
            return record_epoch(record->id) <= w->seen.at[i].epoch;
    return false;
}

static enum vkmm_unordered_why why_unordered(const struct workgroup *a, const struct workgroup *b)
{
    uint32_t did = (a ? a->did : 0) | (b ? b->did : 0);
    if (!(did & DID_ATOMIC))
        return VKMM_UNORDERED_NO_SYNC;
    return did & DID_NARROW ? VKMM_UNORDERED_NARROW_SCOPE : VKMM_UNORDERED_RELAXED;
}

void vkmm_happens_before_describe(struct vkmm_happens_before *h, const struct record *record, bool write, uint32_t tag,
                                  const struct workgroup *w, struct vkmm_unordered *earlier)
{
    uint32_t invoker = record_invoker(record->id);
    earlier->tag = record_tag(record->id);
    earlier->site = (uint32_t)(record->id >> SITE_SHIFT & 0xffu);
    earlier->invocation = invoker ? invoker - 1u : UINT32_MAX;
    earlier->write = write;
    earlier->atomic = (record->kind & (KIND_NARROW_ATOMIC | KIND_WIDE_ATOMIC)) != 0;
    if (earlier->tag == tag)
        earlier->why = VKMM_UNORDERED_NO_BARRIER;
    else if (record->kind & KIND_NARROW_ATOMIC)
        earlier->why = VKMM_UNORDERED_SCOPED_ATOMIC;
    else
        earlier->why = why_unordered(w, vkmm_happens_before_find_workgroup(h, earlier->tag));
}

/* The record of an access by invocation `invoker` (local index + 1, 0
 * unknown) of workgroup `tag` (entry `w`, or NULL) at `site`; a write
 * marks its workgroup as having written since its last moment. */
struct record vkmm_happens_before_self_record(uint32_t tag, struct workgroup *w, uint32_t invoker, uint32_t site,
                                              uint32_t kind, bool write)
{
    uint64_t epoch = w ? w->epoch : 1;
    uint64_t id = (tag & TAG_MASK) | (uint64_t)(site & 0xffu) << SITE_SHIFT | (uint64_t)invoker << INVOKER_SHIFT |
                  epoch << EPOCH_SHIFT;
    if (w && write)
        w->wrote = true;
    return (struct record){ .id = id, .phase = w ? w->phase : 0,
                            .kind = kind | (w ? w->device_available << KIND_AVAILABLE_SHIFT | w->moment : 0) };
}

/* The record of a Device-scope atomic write: as the workgroup's last
 * release, if it made one (lenient: an atomic after a release fence, or
 * with release semantics, counts as ordered by that release, which 000
 * says only of the latter), else as its current epoch. */
static struct record wide_atomic_record(uint32_t tag, struct workgroup *w, uint32_t invoker, uint32_t site)
{
    struct record self = vkmm_happens_before_self_record(tag, w, invoker, site, KIND_WIDE_ATOMIC, false);
    uint64_t epoch = self.id >> EPOCH_SHIFT;
    if (w && w->has_released && epoch > 1)
        self.id = (self.id & ((1ull << EPOCH_SHIFT) - 1)) | (epoch - 1) << EPOCH_SHIFT;
    return self;
}

/* The data words [*first, *last] of an access, their records refreshed;
 * false when the access is not judged (see the header). */
bool vkmm_happens_before_judged_words(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, uint64_t *first,
                                      uint64_t *last)
{
    if (h->gave_up || !size || offset % WORD || size % WORD || offset / WORD + size / WORD > h->words)
        return false;
    *first = offset / WORD;
    *last = *first + size / WORD - 1;
    /* A data word's two records are one element of the map. */
    vkmm_touched_refresh(h->records, 2 * sizeof(struct record), h->words, CHUNK_WORDS, h->chunk_generation,
                         h->generation, *first, *last);
    return true;
}

/* The word's records after an access `self`. */
void vkmm_happens_before_keep_record(struct record *record, const struct record *self, bool write, bool read_ordered)
{
    if (write) {
        record[0] = *self;
        record[1] = (struct record){ 0 };
    } else if (read_ordered) {
        /* Reads of other workgroups that this one is not ordered after
         * stay: a later write must still be judged against them. */
        record[1] = *self;
    }
}

bool vkmm_happens_before_access(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, bool write, uint32_t tag,
                                uint32_t invocation, uint32_t site, struct vkmm_unordered *earlier)
{
    uint64_t first, last;
    if (!vkmm_happens_before_judged_words(h, offset, size, &first, &last))
        return false;
    struct workgroup *w = vkmm_happens_before_find_workgroup(h, tag);
    uint32_t invoker = invoker_of(invocation);
    struct record self = vkmm_happens_before_self_record(tag, w, invoker, site, 0, write);
    bool found = false;
    for (uint64_t word = first; word <= last; word++) {
        struct record *record = h->records + word * 2;
        /* A write after Device-scope atomics is not judged against them:
         * whether the relaxed atomics before a reset (`if (atomicAdd(count,
         * 1) == n - 1) count = 0;`) are ordered before it is left alone. */
        bool write_ordered = (write && (record[0].kind & KIND_WIDE_ATOMIC)) ||
                             vkmm_happens_before_ordered_before(&record[0], tag, invoker, w);
        bool read_ordered = vkmm_happens_before_ordered_before(&record[1], tag, invoker, w);
        /* 000 "Data Race": a read conflicts with an earlier write, a write
         * with both. */
        if (!found && !write_ordered) {
            vkmm_happens_before_describe(h, &record[0], true, tag, w, earlier);
            found = true;
        } else if (!found && write && !read_ordered) {
            vkmm_happens_before_describe(h, &record[1], false, tag, w, earlier);
            found = true;
        }
        vkmm_happens_before_keep_record(record, &self, write, read_ordered);
    }
    return found;
}

void vkmm_happens_before_subgroup_width(struct vkmm_happens_before *h, uint32_t width)
{
    h->subgroup_width = width;
}

bool vkmm_happens_before_wide_atomic(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, bool read,
                                     bool write, uint32_t tag, uint32_t invocation, uint32_t site,
                                     struct vkmm_unordered *earlier)
{
    uint64_t first, last;
    if ((!read && !write) || !vkmm_happens_before_judged_words(h, offset, size, &first, &last))
        return false;
    struct workgroup *w = vkmm_happens_before_find_workgroup(h, tag);
    uint32_t invoker = invoker_of(invocation);
    struct record self = wide_atomic_record(tag, w, invoker, site);
    bool found = false;
    for (uint64_t word = first; word <= last; word++) {
        struct record *record = h->records + word * 2;
        /* 000 "Data Race": a read conflicts with the last write, a write
         * with both; atomics of Device scope are mutually ordered. */
        bool write_races =
            !(record[0].kind & KIND_WIDE_ATOMIC) && !vkmm_happens_before_ordered_before(&record[0], tag, invoker, w);
        bool read_races = write && !vkmm_happens_before_ordered_before(&record[1], tag, invoker, w);
        if (!found && (write_races || read_races)) {
            vkmm_happens_before_describe(h, &record[write_races ? 0 : 1], write_races, tag, w, earlier);
            found = true;
        }
        if (write)
            vkmm_happens_before_keep_record(record, &self, true, true);
    }
    return found;
}
