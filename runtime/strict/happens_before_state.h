/* The state of happens-before inside a dispatch (happens_before.c:
 * workgroups, vector clocks, data-word records, the judging of accesses
 * between workgroups), shared with its per-subgroup part
 * (happens_before_subgroups.c: each subgroup's visibility, releases and
 * acquires against device memory, the subgroup clocks, and atomics of
 * narrow scope).  Nothing outside the two includes it. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "happens_before.h"
#include "key_index.h"
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

static inline uint32_t record_tag(uint64_t record)
{
    return (uint32_t)(record & TAG_MASK);
}

static inline uint32_t record_epoch(uint64_t record)
{
    return (uint32_t)(record >> EPOCH_SHIFT);
}

static inline uint32_t record_invoker(uint64_t record)
{
    return (uint32_t)(record >> INVOKER_SHIFT & 0xffffu);
}

static inline uint32_t record_available(const struct record *record)
{
    return record->kind >> KIND_AVAILABLE_SHIFT & AVAILABLE_MAX;
}

static inline uint32_t record_moment(const struct record *record)
{
    return record->kind & MOMENT_MAX;
}

static inline uint32_t invoker_of(uint32_t invocation)
{
    return invocation < 0xfffeu ? invocation + 1u : 0;
}

/* happens_before.c */
struct workgroup *vkmm_happens_before_find_workgroup(struct vkmm_happens_before *h, uint32_t tag);
struct workgroup *vkmm_happens_before_workgroup(struct vkmm_happens_before *h, uint32_t tag);
void *vkmm_happens_before_give_up(struct vkmm_happens_before *h);
bool vkmm_happens_before_judged_words(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, uint64_t *first,
                                      uint64_t *last);
bool vkmm_happens_before_ordered_before(const struct record *record, uint32_t tag, uint32_t invoker,
                                        const struct workgroup *w);
void vkmm_happens_before_describe(struct vkmm_happens_before *h, const struct record *record, bool write, uint32_t tag,
                                  const struct workgroup *w, struct vkmm_unordered *earlier);
struct record vkmm_happens_before_self_record(uint32_t tag, struct workgroup *w, uint32_t invoker, uint32_t site,
                                              uint32_t kind, bool write);
void vkmm_happens_before_keep_record(struct record *record, const struct record *self, bool write, bool read_ordered);

/* happens_before_subgroups.c */
void vkmm_happens_before_spare_clocks(struct vkmm_happens_before *h, struct workgroup *w);
