/* The workgroup monitor's state (workgroup_monitor.c), shared with its
 * records of races and undefined reads (workgroup_monitor_records.c) and
 * its atomics: store buffers, matched releases, the hand-off to the device
 * monitor and the hopeless narrow spin (workgroup_monitor_atomics.c).
 * Nothing outside the monitor includes it. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "workgroup_monitor.h"

#define NOBODY 0
#define MANY 0xffffu
#define WORD 4u
#define LOST_WORD 0x80000000u /* in the lost list: the entry is a whole word */
/* Lane reads of a Subgroup-scope flag another subgroup wrote, with no
 * write to Workgroup memory between, after which a spin is hopeless. */
#define HOPELESS_NARROW_READS (1u << 16)

/* What the workgroup did to one cell of shared memory since the last
 * barrier that synchronized Workgroup memory (the interval).  A cell is an
 * aligned 4-byte word while every access in the interval covers it whole
 * (the common case: 32-bit and wider shared data), or one byte: a word that
 * an access covers in part is split into four byte cells for the rest of
 * the interval, since races are between bytes (each byte is a memory
 * location).  A word whose interval is not the current one was not touched
 * since: lazily reset. */
struct cell {
    uint32_t interval;        /* words only */
    uint16_t writer;          /* local invocation index + 1 of the last write, or NOBODY */
    uint16_t writer_epoch;    /* the writer's subgroup-barrier count at the write */
    uint16_t reader;          /* local index + 1 of the reader, MANY, or NOBODY */
    uint16_t reader_subgroup; /* subgroup + 1 of every reader, MANY if several */
    uint16_t reader_epoch;    /* the last reader's subgroup-barrier count */
    bool writer_atomic, plain_read, lost;
    bool writer_narrow;       /* the last write was an atomic of Subgroup scope (VKMM_ACCESS_NARROW_ATOMIC) */
    bool writer_early;        /* the last write went before a load ahead of it (VKMM_ACCESS_EARLY_STORE) */
    bool split;               /* words only: the state is in the four byte cells */
    bool reader_updates;      /* the last plain read was of an in-place update (VKMM_ACCESS_UPDATED_AFTER) */
    uint32_t old;             /* the value at the start of the interval (its low byte for a byte cell) */
    uint32_t kept;            /* of two racing writes, the first's value */
    uint32_t writer_word, reader_word;
    uint32_t writer_call; /* the monitor call of the last write (lanes of one store share it) */
    const char *writer_text, *reader_text;
    /* The last non-atomic write while atomic writes came after it: an
     * atomic of another invocation races with it all the same (the atomics
     * between order nothing), e.g. a plain clear before atomicAdd. */
    uint16_t plain_writer, plain_writer_epoch;
    uint32_t plain_writer_word;
    const char *plain_writer_text;
    /* The workgroup's sync moment at the last write, the last read and the
     * plain write (modules whose atomics or fences order Workgroup memory). */
    uint32_t writer_moment, reader_moment, plain_writer_moment;
    /* The last read's invocation + 1 (MANY: several lanes of one access),
     * and the latest moment of a read by any other invocation. */
    uint16_t last_reader;
    uint32_t others_read_moment;
};

/* A subgroup's releases and acquires of Workgroup memory, as sync moments
 * (0: none): its last release, its last acquire, its last release fence
 * (it releases through the next atomic write) and its last atomic read (an
 * acquire fence acquires from it). */
struct sync_state {
    uint32_t released, acquired, fence_released, atomic_read;
};

struct vkmm_workgroup_monitor {
    uint32_t local_size[3];
    uint32_t width, subgroups, size;
    uint8_t *shared;
    uint8_t *view;                 /* what a racing read sees instead (size bytes) */
    struct cell *words;            /* one per aligned word (the last may be partial) */
    struct cell *bytes;            /* one per byte, valid where its word is split */
    bool byte_cells;               /* every access splits its words: the reference of the unit tests */
    uint16_t *epoch;               /* per subgroup: subgroup barriers passed */
    /* Releases and acquires of Workgroup memory by fences and atomics
     * (VKMM_WORKGROUP_SYNC_*): a moment counts them all; per subgroup, the
     * moment of its last release and of its last acquire. */
    uint32_t moment, last_release;
    struct sync_state *wide;  /* per subgroup, releases and acquires at Workgroup scope or wider (reports) */
    struct vkmm_workgroup_clocks *clocks; /* what orders two subgroups: releases matched with acquires */
    struct sync_state *local; /* per subgroup, those of any scope: what orders lanes of one subgroup */
    uint32_t interval;
    bool arrivals_synchronize;     /* every subgroup at the pending barrier synchronizes memory */
    bool execution_barrier_passed; /* in this interval, a barrier without memory semantics */
    uint32_t *lost, lost_count;    /* cells with a lost write, restored when the interval ends */
    uint32_t call;                 /* monitor calls so far: one per access instruction of a subgroup */
    uint32_t workgroup[3];
    struct vkmm_workgroup_races *races;
    uint64_t seed; /* 0: every racing read stale (the stalest result) */
    struct vkmm_store_buffers *buffers; /* modules whose atomics all work on Workgroup storage */
    /* Workgroup variables start undefined: the bytes as the workgroup
     * started (the seeded pattern) and, a bit per byte, whether an
     * invocation of the workgroup wrote it since. */
    uint8_t *initial, *written;
    uint32_t unwritten; /* bytes whose written bit is still clear: 0 makes the checks free */
    uint32_t *lane_offsets;             /* per lane, for the store buffers */
    uint32_t *lane_tokens;              /* per lane, a held store's clock (workgroup_clocks.h) */
    uint64_t deferred_lanes;            /* lanes of the current access whose store's clock waits with it */
    /* Atomic loads of another subgroup's atomic write, one of them of
     * Subgroup scope, since the last write: they read the value from
     * before it, so a spin on one ends only in `hopeless`. */
    uint32_t narrow_reads;
    /* A spin on a plain variable another invocation wrote in this interval
     * (no barrier between): the read's instruction and byte, and how many
     * times in a row it read the interval-start value with no write between. */
    uint32_t spin_word, spin_offset, spin_reads;
    char hopeless[384];
    /* Atomics handed on (vkmm_workgroup_monitor_forward_atomics). */
    vkmm_shared_atomic_forward forward;
    void *forward_user;
    uint32_t forward_tag;
    uint32_t *lane_words;
    /* The coherence order of atomic words and what each invocation may
     * still read of them (atomic_history.h), in modules whose atomic stores
     * wait in store buffers: IRIW's readers disagree on the order of two
     * stores, 2+2W's stores land before values already there. */
    struct vkmm_atomic_history *history;
    bool history_used;       /* since the last forget */
    uint32_t history_round;  /* forgets so far: the seed of each round differs */
    uint8_t *acquire_pending; /* per subgroup: an atomic's acquire waits for its access */
    uint64_t *lane_agents;    /* per lane, for a load read together */
};

struct access {
    uint32_t invocation, subgroup, word;
    const char *text;
    bool write, atomic, early;
    bool updated_after; /* a load its invocation follows with a store to the variable (VKMM_ACCESS_UPDATED_AFTER) */
    bool narrow;      /* an atomic of Subgroup scope */
    bool atomic_sync; /* the module's fences or atomics may order Workgroup memory (VKMM_ACCESS_ATOMIC_SYNC) */
    uint32_t moment;  /* an earlier access: the sync moment it was made at */
};

/* workgroup_monitor.c: races by control barriers (the cells), for one
 * subgroup's access: how far to move the lanes' addresses (to the view,
 * where a racing read sees stale bytes) or 0. */
int64_t vkmm_workgroup_monitor_judge(struct vkmm_workgroup_monitor *m, const uint64_t *addresses, uint64_t lanes,
                                     uint32_t size, uint32_t flags, uint32_t subgroup, uint64_t site,
                                     const char *text);

/* workgroup_monitor.c: the view (where a read goes that must see other
 * bytes than shared memory's) starts as the bytes every active lane reads. */
void vkmm_workgroup_monitor_open_view(struct vkmm_workgroup_monitor *m, const uint64_t *addresses, uint64_t lanes,
                                      uint32_t size);

/* workgroup_monitor_records.c */
void vkmm_workgroup_monitor_record(struct vkmm_workgroup_monitor *m, uint32_t offset, uint32_t bytes,
                                   const struct access *first, const struct access *second);
void vkmm_workgroup_monitor_note_narrow_read(struct vkmm_workgroup_monitor *m, uint32_t offset, uint32_t bytes,
                                             const struct access *writer, const struct access *reader);
void vkmm_workgroup_monitor_note_initialized(struct vkmm_workgroup_monitor *m, uint32_t at, uint32_t size,
                                             uint32_t flags, const struct access *a);

/* workgroup_monitor_atomics.c */
void vkmm_workgroup_monitor_store_landed(void *monitor, uint32_t token, uint32_t offset, uint32_t size);
bool vkmm_workgroup_monitor_store_landing(void *monitor, uint32_t subgroup, uint32_t lane, uint32_t token,
                                          uint32_t offset, uint32_t size, const uint8_t *bytes);
void vkmm_workgroup_monitor_note_hopeless_read(struct vkmm_workgroup_monitor *m, const char *text, uint32_t word);
void vkmm_workgroup_monitor_note_stale_spin(struct vkmm_workgroup_monitor *m, const char *text, uint32_t word,
                                            uint32_t offset);

/* workgroup_monitor_history.c: the history's part of an access (after the
 * cells judged it, `judged` their move), of a store landing, of a barrier
 * or sync, and the end of everything it follows (a control barrier). */
int64_t vkmm_workgroup_monitor_history_access(struct vkmm_workgroup_monitor *m, const uint64_t *addresses,
                                              uint64_t lanes, uint32_t size, uint32_t flags, uint32_t subgroup,
                                              int64_t judged);
bool vkmm_workgroup_monitor_history_landing(struct vkmm_workgroup_monitor *m, uint32_t subgroup, uint32_t lane,
                                            uint32_t offset, uint32_t size, const uint8_t *bytes);
void vkmm_workgroup_monitor_history_barrier(struct vkmm_workgroup_monitor *m, uint32_t subgroup, uint32_t kind);
void vkmm_workgroup_monitor_history_forget(struct vkmm_workgroup_monitor *m);
