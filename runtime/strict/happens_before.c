#include "happens_before.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "shader_abi.h"
#include "key_index.h"
#include "touched_map.h"
#include "workgroup_clocks.h"

/* A vector clock: the epochs of the workgroups whose releases reached its
 * owner.  One that overflows its room is `full`: ordered after everything
 * (more order, never less: see the header). */
#define CLOCK_ROOM 8u
struct clock {
    uint32_t count;
    bool full;
    struct {
        uint32_t tag, epoch;
    } at[CLOCK_ROOM];
};

/* What a workgroup did that a report can name (enum vkmm_unordered_why). */
enum {
    DID_ATOMIC = 1,  /* atomics at Device scope */
    DID_NARROW = 2,  /* a release or acquire at Workgroup scope or narrower */
};

struct workgroup {
    uint32_t tag;
    uint32_t epoch; /* releases so far + 1: its accesses since the last release */
    uint32_t phase; /* control barriers it passed: its invocations' accesses since the last */
    uint32_t synchronized_phase; /* phase + 1 when a fence or an atomic's release/acquire ran in that phase */
    uint32_t did;
    uint32_t state; /* index + 1 of its subgroups' state (struct subgroup_state), 0: none yet */
    uint32_t device_available; /* availability operations at Device scope so far (saturating) */
    /* Releases and acquires naming device memory by its subgroups, against
     * its writes: `moment` grows at such an operation that follows a write
     * (`wrote`), each write record keeps it, and its subgroups' state says
     * when each subgroup last released and acquired. */
    uint32_t moment;
    bool wrote;
    /* Which release each acquire of its subgroups read from (device
     * memory): made at its first release or acquire; `clockless` when it
     * could not be (then the events alone judge, more leniently). */
    struct vkmm_workgroup_clocks *clocks;
    bool clockless;
    bool has_released;
    struct clock seen;     /* what its acquires joined */
    struct clock pending;  /* what its atomic reads returned since its last acquire */
    struct clock released; /* its clock at its last release: its atomic writes carry it */
};

struct word_clock {
    uint64_t word;
    struct clock clock;
};

/* Per workgroup, what each of its subgroups did (struct subgroup_state, at
 * `state - 1` times the dispatch's stride in `states`): whether it
 * performed a visibility operation (at Device scope), a bit each, and the
 * moment it last released and acquired (naming device memory, at Workgroup
 * scope or wider; 0: never).  Sized by the dispatch's subgroups per
 * workgroup, up to STATE_SUBGROUPS (1024 invocations of one lane each);
 * subgroup clocks only up to CLOCK_SUBGROUPS (their rows grow with the
 * count). */
#define STATE_SUBGROUPS 1024u
#define CLOCK_SUBGROUPS 64u
#define STATE_BYTES (256u << 20) /* all workgroups' states of a dispatch, at most */
struct subgroup_state {
    uint64_t *visible, *device_visible;
    uint16_t *released, *acquired;
};

/* A record of a data word's access: `id` holds the tag (19 bits), site (8),
 * invoker (16: local invocation index + 1, 0 unknown) and epoch (21), 0:
 * none; `phase` its workgroup's barrier phase; `kind` whether it was an
 * atomic of narrow scope (a read-modify-write? of Subgroup scope?) or an
 * atomic write of Device scope, its workgroup's availability operations at
 * Device scope (12 bits) and its moment (16 bits) when it ran.  Both counts saturate; a saturated one orders
 * everything (fewer races, never more). */
struct record {
    uint64_t id;
    uint32_t phase, kind;
};
#define KIND_NARROW_ATOMIC 0x80000000u
#define KIND_RMW 0x40000000u
#define KIND_WIDE_ATOMIC 0x20000000u
#define KIND_SUBGROUP_SCOPE 0x10000000u
#define KIND_AVAILABLE_SHIFT 16u
#define AVAILABLE_MAX 0x0fffu
#define MOMENT_MAX 0xffffu
#define TAG_BITS 19u
#define TAG_MASK ((1u << TAG_BITS) - 1u)
#define SITE_SHIFT 19u
#define INVOKER_SHIFT 27u
#define EPOCH_SHIFT 43u
#define EPOCH_MAX ((1u << 21) - 1u)
#define WORD 4u
#define CHUNK_WORDS 1024u /* data words zeroed at a time (32 KiB of records) */
/* Past these, the dispatch is not judged any more (every access ordered). */
#define MAX_WORKGROUPS (1u << 20)
#define MAX_WORD_CLOCKS (1u << 20)
/* Subgroup clocks of workgroups at once (16 are resident: dispatch.c). */
#define MAX_LIVE_CLOCKS 64u

struct vkmm_happens_before {
    uint64_t words;
    struct record *records;     /* per data word: [0] the last write, [1] the last read; committed where touched */
    uint64_t *chunk_generation; /* per CHUNK_WORDS words: the dispatch whose records they hold */
    uint64_t generation;
    struct workgroup *workgroups;
    uint32_t workgroup_count, workgroup_room;
    uint32_t last_found; /* index + 1 of the entry find_workgroup found last, 0: none */
    struct vkmm_key_index workgroup_index;
    struct word_clock *word_clocks;
    uint32_t word_clock_count, word_clock_room;
    struct vkmm_key_index word_index;
    uint64_t *states;
    size_t state_room; /* words allocated (the layout may change between dispatches) */
    uint32_t state_count;
    uint32_t state_subgroups, state_words; /* the dispatch's layout, fixed at its first state */
    bool gave_up; /* out of room or memory in this dispatch: nothing is judged until the next */
    uint32_t subgroup_width; /* lanes per subgroup (0: unknown) */
    uint32_t subgroups;      /* subgroups per workgroup (0: unknown: no subgroup clocks) */
    bool no_atomics; /* the module has no atomic: fences synchronize nothing */
    bool unseen_atomics; /* the module has atomics this structure is not told of */
    /* Subgroup clocks of finished workgroups, for the next ones; `live`
     * counts those workgroups hold. */
    struct vkmm_workgroup_clocks *spare[MAX_LIVE_CLOCKS];
    uint32_t spare_count, live_clocks;
};

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

/* Workgroup `w` is done with its subgroup clocks: they wait, cleared, for
 * another one. */
static void spare_clocks(struct vkmm_happens_before *h, struct workgroup *w)
{
    if (!w->clocks)
        return;
    vkmm_workgroup_clocks_begin(w->clocks);
    h->spare[h->spare_count++] = w->clocks;
    h->live_clocks--;
    w->clocks = NULL;
}

void vkmm_happens_before_begin(struct vkmm_happens_before *h)
{
    h->generation++; /* every data record of the last dispatch is stale now */
    for (uint32_t i = 0; i < h->workgroup_count; i++)
        spare_clocks(h, &h->workgroups[i]);
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
static struct workgroup *find_workgroup(struct vkmm_happens_before *h, uint32_t tag)
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
static void *give_up(struct vkmm_happens_before *h)
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

/* How many subgroups of a workgroup the states follow: the dispatch's (64
 * while unknown); a subgroup past them is not judged against its
 * workgroup's others (fewer reports, never more). */
static uint32_t state_capacity(const struct vkmm_happens_before *h)
{
    uint32_t subgroups = h->state_subgroups ? h->state_subgroups : h->subgroups ? h->subgroups : 64u;
    return subgroups < STATE_SUBGROUPS ? subgroups : STATE_SUBGROUPS;
}

/* The parts of the state at `at`. */
static void state_at(const struct vkmm_happens_before *h, uint32_t at, struct subgroup_state *state)
{
    uint32_t mask_words = (h->state_subgroups + 63) / 64;
    uint64_t *base = &h->states[(size_t)at * h->state_words];
    state->visible = base;
    state->device_visible = base + mask_words;
    state->released = (uint16_t *)(base + 2 * mask_words);
    state->acquired = state->released + h->state_subgroups;
}

/* Workgroup `w`'s state, if it has one. */
static bool found_state(const struct vkmm_happens_before *h, const struct workgroup *w, struct subgroup_state *state)
{
    if (!w || !w->state)
        return false;
    state_at(h, w->state - 1, state);
    return true;
}

/* Room for one more state of the dispatch's layout, counted in words: a
 * dispatch's states may be larger than the last one's. */
static bool reserve_state(struct vkmm_happens_before *h)
{
    size_t need = ((size_t)h->state_count + 1) * h->state_words;
    if (need <= h->state_room)
        return true;
    size_t grown = h->state_room ? h->state_room : 64 * (size_t)h->state_words;
    while (grown < need)
        grown *= 2;
    if (grown > STATE_BYTES / 8)
        grown = STATE_BYTES / 8;
    if (grown < need)
        return false;
    uint64_t *fresh = realloc(h->states, grown * 8);
    if (!fresh)
        return false;
    h->states = fresh;
    h->state_room = grown;
    return true;
}

/* Workgroup `w`'s state, made on first use (the dispatch's layout is fixed
 * by its first); false when out of room (then nothing is judged). */
static bool state_of(struct vkmm_happens_before *h, struct workgroup *w, struct subgroup_state *state)
{
    if (!w)
        return false;
    if (w->state)
        return found_state(h, w, state);
    if (!h->state_count) {
        h->state_subgroups = state_capacity(h);
        h->state_words = 2 * ((h->state_subgroups + 63) / 64) + (2 * h->state_subgroups * 2 + 7) / 8;
    }
    if (!reserve_state(h)) {
        give_up(h);
        return false;
    }
    memset(&h->states[(size_t)h->state_count * h->state_words], 0, (size_t)h->state_words * 8);
    w->state = ++h->state_count;
    return found_state(h, w, state);
}

static struct workgroup *workgroup(struct vkmm_happens_before *h, uint32_t tag)
{
    struct workgroup *w = find_workgroup(h, tag);
    if (w || h->gave_up)
        return w;
    if (!reserve((void **)&h->workgroups, &h->workgroup_room, h->workgroup_count, sizeof(*w), MAX_WORKGROUPS) ||
        !vkmm_key_index_grow(&h->workgroup_index, h->workgroup_count + 1, h->workgroup_count, workgroup_key,
                             h->workgroups))
        return give_up(h);
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
        return give_up(h);
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
    struct workgroup *w = workgroup(h, tag);
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
    struct workgroup *w = workgroup(h, tag);
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
    struct workgroup *w = workgroup(h, tag);
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
    struct workgroup *w = workgroup(h, tag);
    if (w)
        w->phase++;
}

static uint32_t record_tag(uint64_t record)
{
    return (uint32_t)(record & TAG_MASK);
}

static uint32_t record_epoch(uint64_t record)
{
    return (uint32_t)(record >> EPOCH_SHIFT);
}

static uint32_t record_invoker(uint64_t record)
{
    return (uint32_t)(record >> INVOKER_SHIFT & 0xffffu);
}

/* Does the recorded access happen before an access of invocation `invoker`
 * (local index + 1, 0 unknown) of workgroup `tag` (whose entry is `w`,
 * NULL: it never synchronized nor passed a barrier)? */
static bool ordered_before(const struct record *record, uint32_t tag, uint32_t invoker, const struct workgroup *w)
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

static void describe(struct vkmm_happens_before *h, const struct record *record, bool write, uint32_t tag,
                     const struct workgroup *w, struct vkmm_unordered *earlier)
{
    uint32_t invoker = record_invoker(record->id);
    earlier->tag = record_tag(record->id);
    earlier->site = (uint32_t)(record->id >> SITE_SHIFT & 0xffu);
    earlier->invocation = invoker ? invoker - 1u : UINT32_MAX;
    earlier->write = write;
    earlier->atomic = (record->kind & (KIND_NARROW_ATOMIC | KIND_WIDE_ATOMIC)) != 0;
    earlier->why = earlier->tag == tag                      ? VKMM_UNORDERED_NO_BARRIER
                   : (record->kind & KIND_NARROW_ATOMIC) != 0 ? VKMM_UNORDERED_SCOPED_ATOMIC
                                                               : why_unordered(w, find_workgroup(h, earlier->tag));
}

/* The record of an access by invocation `invoker` (local index + 1, 0
 * unknown) of workgroup `tag` (entry `w`, or NULL) at `site`; a write
 * marks its workgroup as having written since its last moment. */
static struct record self_record(uint32_t tag, struct workgroup *w, uint32_t invoker, uint32_t site, uint32_t kind,
                                 bool write)
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
    struct record self = self_record(tag, w, invoker, site, KIND_WIDE_ATOMIC, false);
    uint64_t epoch = self.id >> EPOCH_SHIFT;
    if (w && w->has_released && epoch > 1)
        self.id = (self.id & ((1ull << EPOCH_SHIFT) - 1)) | (epoch - 1) << EPOCH_SHIFT;
    return self;
}

static uint32_t record_available(const struct record *record)
{
    return record->kind >> KIND_AVAILABLE_SHIFT & AVAILABLE_MAX;
}

static uint32_t record_moment(const struct record *record)
{
    return record->kind & MOMENT_MAX;
}

static uint32_t invoker_of(uint32_t invocation)
{
    return invocation < 0xfffeu ? invocation + 1u : 0;
}

/* The data words [*first, *last] of an access, their records refreshed;
 * false when the access is not judged (see the header). */
static bool judged_words(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, uint64_t *first,
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
static void keep_record(struct record *record, const struct record *self, bool write, bool read_ordered)
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

bool vkmm_happens_before_access(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, bool write,
                                uint32_t tag, uint32_t invocation, uint32_t site, struct vkmm_unordered *earlier)
{
    uint64_t first, last;
    if (!judged_words(h, offset, size, &first, &last))
        return false;
    struct workgroup *w = find_workgroup(h, tag);
    uint32_t invoker = invoker_of(invocation);
    struct record self = self_record(tag, w, invoker, site, 0, write);
    bool found = false;
    for (uint64_t word = first; word <= last; word++) {
        struct record *record = h->records + word * 2;
        /* A write after Device-scope atomics is not judged against them:
         * whether the relaxed atomics before a reset (`if (atomicAdd(count,
         * 1) == n - 1) count = 0;`) are ordered before it is left alone. */
        bool write_ordered = (write && (record[0].kind & KIND_WIDE_ATOMIC)) ||
                             ordered_before(&record[0], tag, invoker, w);
        bool read_ordered = ordered_before(&record[1], tag, invoker, w);
        /* 000 "Data Race": a read conflicts with an earlier write, a write
         * with both. */
        if (!found && !write_ordered) {
            describe(h, &record[0], true, tag, w, earlier);
            found = true;
        } else if (!found && write && !read_ordered) {
            describe(h, &record[1], false, tag, w, earlier);
            found = true;
        }
        keep_record(record, &self, write, read_ordered);
    }
    return found;
}

/* Subgroup `subgroup` of workgroup `tag` made something visible, or
 * (`acquired`) performed an acquire naming device memory. */
void vkmm_happens_before_visible(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup)
{
    struct subgroup_state state;
    if (state_of(h, subgroup < state_capacity(h) ? workgroup(h, tag) : NULL, &state))
        state.visible[subgroup / 64] |= 1ull << subgroup % 64;
}

bool vkmm_happens_before_unseen_write(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, uint32_t tag,
                                      uint32_t subgroup, uint32_t invocation, struct vkmm_unordered *earlier)
{
    const struct workgroup *w = find_workgroup(h, tag);
    struct subgroup_state state;
    uint64_t first, last;
    if (subgroup >= state_capacity(h) || invocation >= 0xfffeu ||
        (found_state(h, w, &state) && (state.visible[subgroup / 64] >> subgroup % 64 & 1)) ||
        !judged_words(h, offset, size, &first, &last))
        return false;
    uint32_t self = tag & TAG_MASK;
    for (uint64_t word = first; word <= last; word++) {
        const struct record *write = &h->records[word * 2];
        uint32_t writer = record_invoker(write->id);
        if (!record_tag(write->id) || (record_tag(write->id) == self && (!writer || writer == invocation + 1u)) ||
            (write->kind & KIND_WIDE_ATOMIC))
            continue; /* no write in this dispatch, the reader's own (program order), or an atomic's */
        describe(h, write, true, tag, w, earlier);
        earlier->why = VKMM_UNORDERED_NOT_VISIBLE;
        return true;
    }
    return false;
}


/* The subgroup clocks of workgroup `w` (device memory), made (or taken
 * from the spares) at its first release or acquire; NULL when it has none:
 * one subgroup or more than CLOCK_SUBGROUPS, too many workgroups at once,
 * or out of memory.  Then the events alone judge it. */
static struct vkmm_workgroup_clocks *clocks_of(struct vkmm_happens_before *h, struct workgroup *w)
{
    if (w->clocks || w->clockless)
        return w->clocks;
    if (h->subgroups >= 2 && h->subgroups <= CLOCK_SUBGROUPS) {
        if (h->spare_count)
            w->clocks = h->spare[--h->spare_count];
        else if (h->live_clocks < MAX_LIVE_CLOCKS)
            w->clocks = vkmm_workgroup_clocks_create_sparse(h->subgroups);
    }
    if (w->clocks)
        h->live_clocks++;
    else
        w->clockless = true;
    return w->clocks;
}

/* What a release or acquire naming device memory is, for the clocks. */
enum event {
    EVENT_RELEASE,
    EVENT_ACQUIRE_FENCE,  /* synchronizes with what the subgroup's atomic reads before it read */
    EVENT_ACQUIRE_ATOMIC, /* an atomic's acquire half: with what that atomic read */
    EVENT_ACQUIRE_UNSEEN, /* perhaps after an atomic this structure is not told of: with every release so far */
};

/* Subgroup `subgroup` of workgroup `tag` released or acquired naming
 * device memory: a new moment when its workgroup wrote since the last
 * one. */
static void note_event(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup, enum event event)
{
    bool acquired = event != EVENT_RELEASE;
    struct workgroup *w = subgroup < state_capacity(h) ? workgroup(h, tag) : NULL;
    struct subgroup_state state;
    if (!state_of(h, w, &state))
        return;
    if (w->wrote && w->moment < MOMENT_MAX)
        w->moment++;
    w->wrote = false;
    (acquired ? state.acquired : state.released)[subgroup] = (uint16_t)w->moment;
    struct vkmm_workgroup_clocks *clocks = clocks_of(h, w);
    if (!clocks)
        return;
    switch (event) {
    case EVENT_RELEASE:
        vkmm_workgroup_clocks_sync(clocks, subgroup, VKMM_SYNC_RELEASE, w->moment);
        break;
    case EVENT_ACQUIRE_FENCE:
        vkmm_workgroup_clocks_sync(clocks, subgroup, VKMM_SYNC_ACQUIRE, w->moment);
        break;
    case EVENT_ACQUIRE_ATOMIC:
        vkmm_workgroup_clocks_acquire_last(clocks, subgroup);
        break;
    case EVENT_ACQUIRE_UNSEEN:
        vkmm_workgroup_clocks_sync(clocks, subgroup, VKMM_SYNC_ATOMIC_READ | VKMM_SYNC_ACQUIRE, w->moment);
        vkmm_workgroup_clocks_settle(clocks, subgroup); /* it named no word: every release so far */
        break;
    }
}

void vkmm_happens_before_device_acquire(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup,
                                        bool after_atomic)
{
    note_event(h, tag, subgroup,
               after_atomic ? EVENT_ACQUIRE_ATOMIC : h->unseen_atomics ? EVENT_ACQUIRE_UNSEEN : EVENT_ACQUIRE_FENCE);
}

void vkmm_happens_before_device_release(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup)
{
    note_event(h, tag, subgroup, EVENT_RELEASE);
}

void vkmm_happens_before_atomic_begins(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup)
{
    struct workgroup *w = find_workgroup(h, tag);
    if (w && w->clocks)
        vkmm_workgroup_clocks_atomic_begins(w->clocks, subgroup);
}

/* Words of Workgroup storage have their own numbers among the clocks'. */
#define SHARED_WORD (1ull << 63)

/* An atomic of the subgroup on the clocks' word `key`. */
static void atomic_key(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup, uint64_t key, bool read,
                       bool write)
{
    /* No clocks yet: no release was made in the workgroup, so the write
     * carries nothing and the read finds nothing to acquire. */
    struct workgroup *w = find_workgroup(h, tag);
    if (!w || !w->clocks || (!read && !write))
        return;
    uint32_t kind = (read ? VKMM_SYNC_ATOMIC_READ : 0) | (write ? VKMM_SYNC_ATOMIC_WRITE : 0);
    vkmm_workgroup_clocks_sync(w->clocks, subgroup, kind, w->moment);
    vkmm_workgroup_clocks_atomic_word(w->clocks, subgroup, key);
    vkmm_workgroup_clocks_settle(w->clocks, subgroup);
}

void vkmm_happens_before_atomic_word(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup,
                                     uint64_t offset, bool read, bool write)
{
    atomic_key(h, tag, subgroup, offset / WORD, read, write);
}

void vkmm_happens_before_shared_atomic_word(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup,
                                            uint32_t word, bool read, bool write)
{
    atomic_key(h, tag, subgroup, SHARED_WORD | word, read, write);
}

void vkmm_happens_before_workgroup_done(struct vkmm_happens_before *h, uint32_t tag)
{
    struct workgroup *w = find_workgroup(h, tag);
    if (!w)
        return;
    spare_clocks(h, w);
    w->clockless = true; /* none of its accesses is judged against another of its own any more */
}

/* Is the write `record` by subgroup `writer` of workgroup `w` ordered
 * before a read by its subgroup `reader` through synchronization: the
 * writer released after it (or it is an atomic) and the reader acquired
 * after it (both naming device memory)?  Otherwise *why says which side is
 * missing. */
static bool synchronized_after(const struct vkmm_happens_before *h, const struct workgroup *w,
                               const struct record *record, uint32_t writer, uint32_t reader, bool own_release,
                               enum vkmm_unordered_why *why)
{
    uint32_t moment = record_moment(record);
    if (writer >= state_capacity(h) || moment == MOMENT_MAX)
        return true;
    struct subgroup_state state;
    bool events = found_state(h, w, &state);
    /* An atomic write may be its own release (000 "Synchronizes-With":
     * the release is the atomic); not told apart: counted as one. */
    bool atomic = (record->kind & KIND_NARROW_ATOMIC) != 0;
    bool released = (own_release && atomic) || (events && state.released[writer] > moment);
    bool acquired = events && state.acquired[reader] > moment;
    *why = acquired ? VKMM_UNORDERED_NOT_RELEASED : VKMM_UNORDERED_NOT_ACQUIRED;
    if (!released || !acquired)
        return false;
    /* Both happened, but did the acquire read what that release (or a
     * later one) wrote?  (An atomic write, its own release, is left to the
     * events.) */
    if (!w->clocks || atomic || vkmm_workgroup_clocks_ordered(w->clocks, reader, writer, moment))
        return true;
    *why = VKMM_UNORDERED_UNMATCHED;
    return false;
}

bool vkmm_happens_before_unacquired_write(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, uint32_t tag,
                                          uint32_t subgroup, uint32_t invocation, uint32_t width,
                                          struct vkmm_unordered *earlier)
{
    /* A phase judged by vkmm_happens_before_access: nothing more to find. */
    const struct workgroup *w = find_workgroup(h, tag);
    uint64_t first, last;
    if (subgroup >= state_capacity(h) || !width || !w || w->synchronized_phase != w->phase + 1 ||
        !judged_words(h, offset, size, &first, &last))
        return false;
    uint32_t self = tag & TAG_MASK;
    for (uint64_t word = first; word <= last; word++) {
        const struct record *write = &h->records[word * 2];
        uint32_t writer = record_invoker(write->id);
        enum vkmm_unordered_why why;
        if (record_tag(write->id) != self || !writer || write->phase != w->phase ||
            (writer - 1u) / width == subgroup || writer == invocation + 1u || (write->kind & KIND_WIDE_ATOMIC))
            continue; /* no plain write of another subgroup of this workgroup in this phase */
        if (synchronized_after(h, w, write, (writer - 1u) / width, subgroup, true, &why))
            continue;
        describe(h, write, true, tag, w, earlier);
        earlier->why = why;
        return true;
    }
    return false;
}

void vkmm_happens_before_device_available(struct vkmm_happens_before *h, uint32_t tag)
{
    struct workgroup *w = workgroup(h, tag);
    if (w && w->device_available < AVAILABLE_MAX)
        w->device_available++;
}

void vkmm_happens_before_device_visible(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup)
{
    struct subgroup_state state;
    if (state_of(h, subgroup < state_capacity(h) ? workgroup(h, tag) : NULL, &state))
        state.device_visible[subgroup / 64] |= 1ull << subgroup % 64;
}

/* Is the write `record` of another workgroup, which happens before a read
 * by subgroup `subgroup` of `reader`, also visible to it at Device scope:
 * made available at Device scope by its workgroup after it, and a
 * visibility operation at Device scope by the reader's subgroup?  (000
 * "Location-Ordered", through a visibility chain.) */
static bool visible_at_device(struct vkmm_happens_before *h, const struct record *record,
                              const struct workgroup *reader, uint32_t subgroup)
{
    const struct workgroup *writer = find_workgroup(h, record_tag(record->id));
    bool available = writer && (writer->device_available == AVAILABLE_MAX ||
                                writer->device_available > record_available(record));
    struct subgroup_state state;
    bool visible = subgroup >= state_capacity(h) ||
                   (found_state(h, reader, &state) && (state.device_visible[subgroup / 64] >> subgroup % 64 & 1));
    return available && visible;
}

/* Is the record `record` one a scoped atomic of workgroup `tag` (`rmw`: a
 * read-modify-write) is judged against: another workgroup's access, not a
 * read-modify-write of narrow scope when this one is one too, not an
 * atomic write of Device scope (lenient)? */
static bool judged_against(const struct record *record, uint32_t tag, bool rmw)
{
    uint32_t other = record_tag(record->id);
    bool both_rmw = rmw && (record->kind & KIND_NARROW_ATOMIC) && (record->kind & KIND_RMW);
    return other && other != (tag & TAG_MASK) && !both_rmw && !(record->kind & KIND_WIDE_ATOMIC);
}

/* Does `record`, of the same workgroup as an access of `subgroup` at
 * Subgroup scope (`subgroup_scope`), race with it: an access of another
 * subgroup in the same barrier phase (one of them at Subgroup scope), with
 * no release after it and acquire after it at Workgroup scope or wider
 * between?  Two read-modify-writes are left to the levels' lost updates. */
static bool races_in_workgroup(const struct vkmm_happens_before *h, const struct record *record,
                               const struct workgroup *w, uint32_t subgroup, bool rmw, bool subgroup_scope)
{
    uint32_t invoker = record_invoker(record->id);
    bool narrow = subgroup_scope || (record->kind & KIND_SUBGROUP_SCOPE);
    if (!h->subgroup_width || !invoker || !narrow || record->phase != (w ? w->phase : 0) ||
        (record->kind & KIND_WIDE_ATOMIC) || (rmw && (record->kind & KIND_RMW)))
        return false;
    uint32_t writer = (invoker - 1u) / h->subgroup_width;
    enum vkmm_unordered_why why;
    return writer != subgroup && !(w && synchronized_after(h, w, record, writer, subgroup, false, &why));
}

/* The body of vkmm_happens_before_scoped_atomic and _subgroup_atomic. */
static bool narrow_atomic(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, bool read, bool write,
                          uint32_t tag, uint32_t subgroup, uint32_t invocation, uint32_t site, bool subgroup_scope,
                          struct vkmm_unordered *earlier)
{
    uint64_t first, last;
    if ((!read && !write) || !judged_words(h, offset, size, &first, &last))
        return false;
    struct workgroup *w = find_workgroup(h, tag);
    uint32_t invoker = invoker_of(invocation);
    bool rmw = read && write;
    uint32_t kind = KIND_NARROW_ATOMIC | (rmw ? KIND_RMW : 0) | (subgroup_scope ? KIND_SUBGROUP_SCOPE : 0);
    struct record self = self_record(tag, w, invoker, site, kind, write);
    bool found = false;
    for (uint64_t word = first; word <= last; word++) {
        struct record *record = h->records + word * 2;
        bool write_ordered = ordered_before(&record[0], tag, invoker, w);
        bool read_ordered = ordered_before(&record[1], tag, invoker, w);
        /* 000 "Data Race": not mutually ordered atomics, so a read needs
         * the write location-ordered before it; a write needs both earlier
         * accesses ordered before it. */
        bool write_races = judged_against(&record[0], tag, rmw) &&
                           (!write_ordered || (read && !visible_at_device(h, &record[0], w, subgroup)));
        bool read_races = write && judged_against(&record[1], tag, rmw) && !read_ordered;
        bool in_workgroup = false;
        if (!write_races && !read_races && record_tag(record[0].id) == (tag & TAG_MASK)) {
            write_races = races_in_workgroup(h, &record[0], w, subgroup, rmw, subgroup_scope);
            read_races = !write_races && write && record_tag(record[1].id) == (tag & TAG_MASK) &&
                         races_in_workgroup(h, &record[1], w, subgroup, rmw, subgroup_scope);
            in_workgroup = write_races || read_races;
        }
        if (!found && (write_races || read_races)) {
            describe(h, &record[write_races ? 0 : 1], write_races, tag, w, earlier);
            earlier->why = in_workgroup ? VKMM_UNORDERED_SUBGROUP_ATOMIC : VKMM_UNORDERED_SCOPED_ATOMIC;
            found = true;
        }
        keep_record(record, &self, write, read_ordered);
    }
    return found;
}

bool vkmm_happens_before_scoped_atomic(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, bool read,
                                       bool write, uint32_t tag, uint32_t subgroup, uint32_t invocation,
                                       uint32_t site, struct vkmm_unordered *earlier)
{
    return narrow_atomic(h, offset, size, read, write, tag, subgroup, invocation, site, false, earlier);
}

bool vkmm_happens_before_subgroup_atomic(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, bool read,
                                         bool write, uint32_t tag, uint32_t subgroup, uint32_t invocation,
                                         uint32_t site, struct vkmm_unordered *earlier)
{
    return narrow_atomic(h, offset, size, read, write, tag, subgroup, invocation, site, true, earlier);
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
    if ((!read && !write) || !judged_words(h, offset, size, &first, &last))
        return false;
    struct workgroup *w = find_workgroup(h, tag);
    uint32_t invoker = invoker_of(invocation);
    struct record self = wide_atomic_record(tag, w, invoker, site);
    bool found = false;
    for (uint64_t word = first; word <= last; word++) {
        struct record *record = h->records + word * 2;
        /* 000 "Data Race": a read conflicts with the last write, a write
         * with both; atomics of Device scope are mutually ordered. */
        bool write_races = !(record[0].kind & KIND_WIDE_ATOMIC) && !ordered_before(&record[0], tag, invoker, w);
        bool read_races = write && !ordered_before(&record[1], tag, invoker, w);
        if (!found && (write_races || read_races)) {
            describe(h, &record[write_races ? 0 : 1], write_races, tag, w, earlier);
            found = true;
        }
        if (write)
            keep_record(record, &self, true, true);
    }
    return found;
}
