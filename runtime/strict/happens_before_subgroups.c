#include "happens_before.h"

#include <stdlib.h>
#include <string.h>

#include "happens_before_state.h"
#include "shader_abi.h"

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

/* The entry of workgroup `tag`, made if need be, when the states follow
 * its subgroup `subgroup`; NULL otherwise. */
static struct workgroup *followed(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup)
{
    return subgroup < state_capacity(h) ? vkmm_happens_before_workgroup(h, tag) : NULL;
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
        vkmm_happens_before_give_up(h);
        return false;
    }
    memset(&h->states[(size_t)h->state_count * h->state_words], 0, (size_t)h->state_words * 8);
    w->state = ++h->state_count;
    return found_state(h, w, state);
}

/* Workgroup `w` is done with its subgroup clocks: they wait, cleared, for
 * another one. */
void vkmm_happens_before_spare_clocks(struct vkmm_happens_before *h, struct workgroup *w)
{
    if (!w->clocks)
        return;
    vkmm_workgroup_clocks_begin(w->clocks);
    h->spare[h->spare_count++] = w->clocks;
    h->live_clocks--;
    w->clocks = NULL;
}

/* Subgroup `subgroup` of workgroup `tag` made something visible, or
 * (`acquired`) performed an acquire naming device memory. */
void vkmm_happens_before_visible(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup)
{
    struct subgroup_state state;
    if (state_of(h, followed(h, tag, subgroup), &state))
        state.visible[subgroup / 64] |= 1ull << subgroup % 64;
}

bool vkmm_happens_before_unseen_write(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, uint32_t tag,
                                      uint32_t subgroup, uint32_t invocation, struct vkmm_unordered *earlier)
{
    const struct workgroup *w = vkmm_happens_before_find_workgroup(h, tag);
    struct subgroup_state state;
    uint64_t first, last;
    if (subgroup >= state_capacity(h) || invocation >= 0xfffeu ||
        (found_state(h, w, &state) && (state.visible[subgroup / 64] >> subgroup % 64 & 1)) ||
        !vkmm_happens_before_judged_words(h, offset, size, &first, &last))
        return false;
    uint32_t self = tag & TAG_MASK;
    for (uint64_t word = first; word <= last; word++) {
        const struct record *write = &h->records[word * 2];
        uint32_t writer = record_invoker(write->id);
        if (!record_tag(write->id) || (record_tag(write->id) == self && (!writer || writer == invocation + 1u)) ||
            (write->kind & KIND_WIDE_ATOMIC))
            continue; /* no write in this dispatch, the reader's own (program order), or an atomic's */
        vkmm_happens_before_describe(h, write, true, tag, w, earlier);
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
    struct workgroup *w = followed(h, tag, subgroup);
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
    struct workgroup *w = vkmm_happens_before_find_workgroup(h, tag);
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
    struct workgroup *w = vkmm_happens_before_find_workgroup(h, tag);
    if (!w || !w->clocks || (!read && !write))
        return;
    uint32_t kind = (read ? VKMM_SYNC_ATOMIC_READ : 0) | (write ? VKMM_SYNC_ATOMIC_WRITE : 0);
    vkmm_workgroup_clocks_sync(w->clocks, subgroup, kind, w->moment);
    vkmm_workgroup_clocks_atomic_word(w->clocks, subgroup, key);
    vkmm_workgroup_clocks_settle(w->clocks, subgroup);
}

void vkmm_happens_before_atomic_word(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup, uint64_t offset,
                                     bool read, bool write)
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
    struct workgroup *w = vkmm_happens_before_find_workgroup(h, tag);
    if (!w)
        return;
    vkmm_happens_before_spare_clocks(h, w);
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
    const struct workgroup *w = vkmm_happens_before_find_workgroup(h, tag);
    uint64_t first, last;
    if (subgroup >= state_capacity(h) || !width || !w || w->synchronized_phase != w->phase + 1 ||
        !vkmm_happens_before_judged_words(h, offset, size, &first, &last))
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
        vkmm_happens_before_describe(h, write, true, tag, w, earlier);
        earlier->why = why;
        return true;
    }
    return false;
}

void vkmm_happens_before_device_available(struct vkmm_happens_before *h, uint32_t tag)
{
    struct workgroup *w = vkmm_happens_before_workgroup(h, tag);
    if (w && w->device_available < AVAILABLE_MAX)
        w->device_available++;
}

void vkmm_happens_before_device_visible(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup)
{
    struct subgroup_state state;
    if (state_of(h, followed(h, tag, subgroup), &state))
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
    const struct workgroup *writer = vkmm_happens_before_find_workgroup(h, record_tag(record->id));
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
    if ((!read && !write) || !vkmm_happens_before_judged_words(h, offset, size, &first, &last))
        return false;
    struct workgroup *w = vkmm_happens_before_find_workgroup(h, tag);
    uint32_t invoker = invoker_of(invocation);
    bool rmw = read && write;
    uint32_t kind = KIND_NARROW_ATOMIC | (rmw ? KIND_RMW : 0) | (subgroup_scope ? KIND_SUBGROUP_SCOPE : 0);
    struct record self = vkmm_happens_before_self_record(tag, w, invoker, site, kind, write);
    bool found = false;
    for (uint64_t word = first; word <= last; word++) {
        struct record *record = h->records + word * 2;
        bool write_ordered = vkmm_happens_before_ordered_before(&record[0], tag, invoker, w);
        bool read_ordered = vkmm_happens_before_ordered_before(&record[1], tag, invoker, w);
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
            vkmm_happens_before_describe(h, &record[write_races ? 0 : 1], write_races, tag, w, earlier);
            earlier->why = in_workgroup ? VKMM_UNORDERED_SUBGROUP_ATOMIC : VKMM_UNORDERED_SCOPED_ATOMIC;
            found = true;
        }
        vkmm_happens_before_keep_record(record, &self, write, read_ordered);
    }
    return found;
}

bool vkmm_happens_before_scoped_atomic(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, bool read,
                                       bool write, uint32_t tag, uint32_t subgroup, uint32_t invocation, uint32_t site,
                                       struct vkmm_unordered *earlier)
{
    return narrow_atomic(h, offset, size, read, write, tag, subgroup, invocation, site, false, earlier);
}

bool vkmm_happens_before_subgroup_atomic(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, bool read,
                                         bool write, uint32_t tag, uint32_t subgroup, uint32_t invocation,
                                         uint32_t site, struct vkmm_unordered *earlier)
{
    return narrow_atomic(h, offset, size, read, write, tag, subgroup, invocation, site, true, earlier);
}
