/* The workgroup monitor's records: races between two accesses, kept by the
 * pair of instructions (one report per bug), a Subgroup-scope flag read
 * across subgroups, and reads of Workgroup bytes no invocation wrote. */
#include <string.h>

#include "shader_abi.h"
#include "workgroup_monitor_state.h"

static void local_id(const struct vkmm_workgroup_monitor *m, uint32_t index, uint32_t out[3])
{
    out[0] = index % m->local_size[0];
    out[1] = index / m->local_size[0] % m->local_size[1];
    out[2] = index / m->local_size[0] / m->local_size[1];
}

static struct vkmm_workgroup_race_access race_side(const struct vkmm_workgroup_monitor *m, const struct access *a)
{
    struct vkmm_workgroup_race_access side = { .text = a->text, .word = a->word, .write = a->write,
                                               .atomic = a->atomic };
    local_id(m, a->invocation, side.invocation);
    return side;
}

/* The sync states that can order `first` before `second`. */
static const struct sync_state *sync_of(const struct vkmm_workgroup_monitor *m, const struct access *first,
                                        const struct access *second)
{
    return first->subgroup == second->subgroup ? m->local : m->wide;
}

static void forget_uninitialized(struct vkmm_workgroup_races *races, const struct access *read)
{
    for (uint32_t i = 0; !read->write && i < races->count; i++) {
        if (races->race[i].uninitialized && races->race[i].later.word == read->word) {
            races->race[i] = races->race[--races->count];
            return;
        }
    }
}

static bool same_invocation(const struct vkmm_workgroup_monitor *m, const uint32_t id[3], const struct access *a)
{
    uint32_t local[3];
    local_id(m, a->invocation, local);
    return memcmp(id, local, sizeof(local)) == 0;
}

/* One statement's load and store (`total = total + sum`) race with another
 * invocation's store as two pairs of instructions, one bug: a race of the
 * first occurrence's two invocations (same workgroup) that shares an
 * instruction with a record joins it (its second pair).  Not by bytes: a
 * word and its four bytes must judge alike. */
static bool same_bug(const struct vkmm_workgroup_monitor *m, const struct vkmm_workgroup_race *r,
                     const struct access *first, const struct access *second)
{
    if (r->uninitialized || r->also_high || memcmp(r->workgroup, m->workgroup, sizeof(r->workgroup)) != 0)
        return false;
    bool shared_instruction = r->earlier.word == first->word || r->earlier.word == second->word ||
                              r->later.word == first->word || r->later.word == second->word;
    bool same_pair = (same_invocation(m, r->earlier.invocation, first) &&
                      same_invocation(m, r->later.invocation, second)) ||
                     (same_invocation(m, r->earlier.invocation, second) &&
                      same_invocation(m, r->later.invocation, first));
    return shared_instruction && same_pair;
}

/* A race between an earlier access `first` (of another invocation) and
 * `second`, the access being made: aggregated by the pair of instructions. */
void vkmm_workgroup_monitor_record(struct vkmm_workgroup_monitor *m, uint32_t offset, uint32_t bytes,
                                   const struct access *first, const struct access *second)
{
    struct vkmm_workgroup_races *races = m->races;
    /* A read that races with a write came before that write: what it read
     * undefined is this race's consequence (one report per bug). */
    forget_uninitialized(races, first);
    forget_uninitialized(races, second);
    uint32_t low = first->word < second->word ? first->word : second->word;
    uint32_t high = first->word < second->word ? second->word : first->word;
    /* A known pair of instructions first, then a record of the same bug. */
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < races->count; i++) {
            struct vkmm_workgroup_race *r = &races->race[i];
            bool known = (r->earlier.word == low && r->later.word == high && (r->earlier.write || r->later.write)) ||
                         (r->also_high && r->also_low == low && r->also_high == high);
            if (pass == 0 ? !known : !same_bug(m, r, first, second))
                continue;
            if (pass == 1) {
                r->also_low = low;
                r->also_high = high;
            }
            r->bytes += bytes;
            r->same_subgroup &= first->subgroup == second->subgroup;
            return;
        }
    }
    if (races->count == VKMM_WORKGROUP_MAX_RACES) {
        races->more += bytes;
        return;
    }
    struct vkmm_workgroup_race *r = &races->race[races->count++];
    bool in_order = first->word <= second->word;
    const struct sync_state *sync = sync_of(m, first, second);
    bool unreleased = second->atomic_sync && sync[first->subgroup].released <= first->moment;
    bool unacquired = second->atomic_sync && sync[second->subgroup].acquired <= first->moment;
    *r = (struct vkmm_workgroup_race){
        .earlier = race_side(m, in_order ? first : second),
        .later = race_side(m, in_order ? second : first),
        .same_subgroup = first->subgroup == second->subgroup,
        .execution_barrier_only = m->execution_barrier_passed,
        .narrow_atomics = first->atomic && second->atomic && (first->narrow || second->narrow),
        /* Where fences and atomics may order Workgroup memory: which half
         * of a release/acquire pair is missing (synchronized_after). */
        .unreleased = unreleased,
        .unacquired = unacquired,
        /* Both halves ran, but the acquire read no value of that release
         * (workgroup_clocks.h). */
        .unmatched = second->atomic_sync && !unreleased && !unacquired && first->subgroup != second->subgroup,
        .offset = offset,
        .bytes = bytes,
    };
    memcpy(r->workgroup, m->workgroup, sizeof(r->workgroup));
}

/* An atomic read of another subgroup's atomic write, one of them of
 * Subgroup scope: kept aside (vkmm_workgroup_races.narrow_read). */
void vkmm_workgroup_monitor_note_narrow_read(struct vkmm_workgroup_monitor *m, uint32_t offset, uint32_t bytes,
                                             const struct access *writer, const struct access *reader)
{
    struct vkmm_workgroup_races *races = m->races;
    if (races->has_narrow_read) {
        races->narrow_read.bytes += bytes;
        return;
    }
    races->has_narrow_read = true;
    races->narrow_read = (struct vkmm_workgroup_race){
        .earlier = race_side(m, writer),
        .later = race_side(m, reader),
        .narrow_atomics = true,
        .offset = offset,
        .bytes = bytes,
    };
    memcpy(races->narrow_read.workgroup, m->workgroup, sizeof(races->narrow_read.workgroup));
}

/* A read of bytes no invocation of the workgroup wrote: one record per
 * instruction. */
static void record_uninitialized(struct vkmm_workgroup_monitor *m, uint32_t offset, const struct access *a)
{
    struct vkmm_workgroup_races *races = m->races;
    for (uint32_t i = 0; i < races->count; i++) {
        struct vkmm_workgroup_race *r = &races->race[i];
        if (r->uninitialized && r->later.word == a->word)
            return; /* one record per instruction: its first occurrence */
        bool raced = (!r->earlier.write && r->earlier.word == a->word) || (!r->later.write && r->later.word == a->word);
        if (!r->uninitialized && raced)
            return; /* the read races with a write: that report says it */
    }
    if (races->count == VKMM_WORKGROUP_MAX_RACES) {
        races->more++;
        return;
    }
    struct vkmm_workgroup_race *r = &races->race[races->count++];
    *r = (struct vkmm_workgroup_race){ .earlier = race_side(m, a), .later = race_side(m, a), .uninitialized = true,
                                       .offset = offset, .bytes = 1 };
    memcpy(r->workgroup, m->workgroup, sizeof(r->workgroup));
}

/* Was the byte at `offset` never written by an invocation of the
 * workgroup, and does its word still hold the seeded pattern it started
 * with?  The runtime's pattern sets the high bit of every 32-bit word
 * (runtime/exec/dispatch.c): a word without it (a variable with an
 * initializer, cleared directly; memory not filled with the pattern) is
 * never taken as undefined. */
static bool undefined_byte(const struct vkmm_workgroup_monitor *m, uint32_t offset)
{
    uint32_t word = offset / WORD * WORD, now, initial;
    if ((m->written[offset / 8] >> (offset % 8) & 1) || word + WORD > m->size)
        return false;
    memcpy(&now, m->shared + word, WORD);
    memcpy(&initial, m->initial + word, WORD);
    return now == initial && (initial & 0x80000000u);
}

/* Does every byte of [at, at + size) have its written bit?  With `mark`,
 * sets them.  A byte of the map at a time: one step for an aligned word. */
static bool written_bits(struct vkmm_workgroup_monitor *m, uint32_t at, uint32_t size, bool mark)
{
    bool all = true;
    for (uint32_t offset = at, end = at + size; offset < end;) {
        uint32_t bit = offset % 8, n = end - offset < 8 - bit ? end - offset : 8 - bit;
        uint8_t mask = (uint8_t)(((1u << n) - 1u) << bit);
        uint8_t missing = mask & (uint8_t)~m->written[offset / 8];
        all &= missing == 0;
        if (mark && missing) {
            m->written[offset / 8] |= mask;
            for (; missing; missing &= (uint8_t)(missing - 1)) /* no popcnt instruction assumed */
                m->unwritten--;
        }
        offset += n;
    }
    return all;
}

/* Workgroup variables start undefined (their words hold the seeded
 * pattern, DESIGN §3 "manifest"): a read of bytes no invocation of the
 * workgroup wrote reads garbage on a GPU, and is recorded.  Then the
 * access's writes mark their bytes (a read-modify-write reads first). */
void vkmm_workgroup_monitor_note_initialized(struct vkmm_workgroup_monitor *m, uint32_t at, uint32_t size,
                                             uint32_t flags, const struct access *a)
{
    if ((flags & VKMM_WORKGROUP_READ) && !written_bits(m, at, size, false)) {
        for (uint32_t offset = at; offset < at + size; offset++) {
            if (undefined_byte(m, offset)) {
                record_uninitialized(m, offset, a);
                break;
            }
        }
    }
    if (flags & VKMM_WORKGROUP_WRITE)
        written_bits(m, at, size, true);
}
