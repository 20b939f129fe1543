/* Strict mode inside a dispatch: accesses of different agents to the same
 * bytes of device memory.  Inside one command, private accesses (000
 * "Private": not atomic, not through a Coherent/Volatile variable, no
 * NonPrivatePointer) never communicate with another invocation (DESIGN
 * §3.2); so two accesses of different invocations (of different
 * workgroups, or of one workgroup: barriers do not order private
 * accesses) to one byte, at least one a write and at least one private,
 * are a race whatever the shader does between them — found without
 * modelling the synchronization, whatever order the invocations ran in.
 * Pairs of non-private accesses of different workgroups are judged by
 * happens-before (happens_before.h).
 *
 * Per byte of device memory an owner state (kept per aligned 4-byte word
 * while accesses cover words whole, per byte where one covers part of a
 * word; maps as large as the device's address space, committed only where
 * touched, forgotten when the next dispatch begins): the last workgroup
 * to access it (or "several") and which of its invocations (or
 * "several"), the last instruction, and which kinds of access it saw.
 * A private read of bytes another invocation wrote is made to show: it
 * reads the bytes as they were before the dispatch.  One record per bug:
 * the pair of instructions.  The monitor knows no Vulkan object. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

struct vkmm_device_race_access {
    const char *text; /* "`data` (OpLoad, line 14)" */
    uint32_t word;
    uint32_t workgroup;  /* linear index */
    uint32_t invocation; /* local invocation index, UINT32_MAX: unknown */
    bool write, private_;
    bool atomic; /* an atomic at Workgroup scope or narrower */
};

struct vkmm_device_race {
    struct vkmm_device_race_access earlier, later; /* in program order */
    uint64_t offset;                               /* first byte, from the device's address-space base */
    uint64_t bytes;
    /* A stale read through the dispatch's levels (dispatch_levels.h):
     * `later` is the read, `earlier` the write it did not see (held: still
     * in the writer's cache). */
    bool stale, held;
    bool made_available; /* stale: the write was made available at Device scope, but no release after
                            it carried it to the reader */
    /* A lost update: `earlier` is a workgroup-scope atomic whose workgroup's
     * copy went out over `later`'s change (DESIGN §3.2). */
    bool lost;
    bool subgroup_scope; /* lost: the atomic had Subgroup scope, `later` is another subgroup's */
    /* Non-private accesses of two workgroups that nothing orders
     * (happens_before.h); `why` is an enum vkmm_unordered_why. */
    bool unordered;
    uint8_t why;
    /* `earlier` is the read of an in-place update (its invocation stores
     * to the variable after it, VKMM_ACCESS_UPDATED_AFTER) and `later` a
     * write: the report says so. */
    bool in_place_update;
};

#define VKMM_DEVICE_MAX_RACES 32
#define VKMM_DEVICE_MAX_SITES 255

struct vkmm_device_races {
    uint32_t count;
    uint64_t more; /* bytes of races past VKMM_DEVICE_MAX_RACES */
    struct vkmm_device_race race[VKMM_DEVICE_MAX_RACES];
};

/* What the bytes [offset, offset + size) of the device address space held
 * before the dispatch (the strict bridge reads them from the engine). */
typedef void (*vkmm_device_monitor_peek)(void *user, uint64_t offset, uint64_t size, uint8_t *out);

struct vkmm_device_monitor;

/* A monitor for the device address space [base, base + size); NULL when
 * out of memory. */
struct vkmm_device_monitor *vkmm_device_monitor_create(uint8_t *base, uint64_t size);
void vkmm_device_monitor_destroy(struct vkmm_device_monitor *monitor);
/* A dispatch starts, with nothing recorded: its races go to `races`. */
void vkmm_device_monitor_begin(struct vkmm_device_monitor *monitor, struct vkmm_device_races *races,
                               vkmm_device_monitor_peek peek, void *peek_user, uint64_t seed,
                               uint32_t subgroup_width);
/* The dispatch's exact accesses (DESIGN §3 "Exact accesses"): among the
 * device bytes [bytes, bytes + size), in order, each run of bytes the
 * dispatch read as it found them goes to read_run (a byte it wrote before
 * reading is left out: it read its own write) and each run it wrote to
 * write_run, with offsets relative to `bytes`; either callback may be NULL.
 * Only chunks of the map the dispatch touched are read. */
typedef void (*vkmm_device_monitor_run)(void *user, uint64_t offset, uint64_t length);
void vkmm_device_monitor_scan(const struct vkmm_device_monitor *monitor, const uint8_t *bytes, uint64_t size,
                              vkmm_device_monitor_run read_run, vkmm_device_monitor_run write_run, void *user);
/* The same scan, a large range in pieces on the threads `parallel` runs
 * (each piece's runs found at once, then handed out in order, joined where
 * they meet); callbacks are called on the caller's thread only. */
typedef void (*vkmm_device_monitor_parallel)(void *user, uint64_t count, void (*fn)(void *context, uint64_t index),
                                             void *context);
void vkmm_device_monitor_scan_spread(const struct vkmm_device_monitor *monitor, const uint8_t *bytes, uint64_t size,
                                     vkmm_device_monitor_run read_run, vkmm_device_monitor_run write_run, void *user,
                                     vkmm_device_monitor_parallel parallel, void *parallel_user);
/* After the dispatch, over [bytes, bytes + size): what it recorded is
 * forgotten at the next begin anyway; a large range's memory goes back to
 * the system once a later dispatch ends without touching it. */
void vkmm_device_monitor_clear(struct vkmm_device_monitor *monitor, const uint8_t *bytes, uint64_t size);
/* Where the state of the byte at `offset` lives (tests look at which of the
 * map's pages are committed). */
const void *vkmm_device_monitor_state_at(const struct vkmm_device_monitor *monitor, uint64_t offset);

/* The hook the generated code calls (shader_abi.h, device_access). */
int64_t vkmm_device_monitor_access(void *monitor, uint64_t *addresses, uint64_t lanes, uint32_t size_flags,
                                   uint32_t workgroup_tag, uint64_t site, const char *text, uint32_t subgroup);
/* The hook for fences (shader_abi.h, device_fence): the dispatch's levels. */
uint32_t vkmm_device_monitor_fence(void *monitor, uint32_t workgroup_tag, uint32_t subgroup, uint32_t kind);
/* The subgroup and workgroup domains of the running dispatch (dispatch.c
 * tells them about scheduling). */
struct vkmm_dispatch_levels *vkmm_device_monitor_levels(struct vkmm_device_monitor *m);
/* The dispatch's module has no atomic instruction (happens_before.h). */
void vkmm_device_monitor_no_atomics(struct vkmm_device_monitor *m);
/* Some of its atomics are on private storage, which no monitor sees
 * (happens_before.h, vkmm_happens_before_unseen_atomics). */
void vkmm_device_monitor_unmonitored_atomics(struct vkmm_device_monitor *m);
/* Subgroups per workgroup (after begin; 0: unknown). */
void vkmm_device_monitor_subgroups(struct vkmm_device_monitor *m, uint32_t count);
/* An atomic of `subgroup` of a workgroup on its Workgroup storage, lane l
 * (bit l of `lanes`) on the 4-byte word words[l] (flags as the generated
 * code passes them): the workgroup monitor hands it on
 * (vkmm_workgroup_monitor_forward_atomics), since its release or acquire
 * may name device memory (happens_before.h). */
void vkmm_device_monitor_shared_atomic(void *monitor, uint32_t workgroup_tag, uint32_t subgroup,
                                       const uint32_t *words, uint64_t lanes, uint32_t flags);
/* A workgroup finished (dispatch.c): what ordered its subgroups is let go. */
void vkmm_device_monitor_workgroup_done(struct vkmm_device_monitor *m, uint32_t workgroup_tag);
/* A control barrier of the workgroup opened (dispatch.c): its invocations'
 * accesses before it happen before their accesses after it. */
void vkmm_device_monitor_barrier_open(struct vkmm_device_monitor *m, uint32_t workgroup_tag);
/* The dispatch's workgroups all finished (or it was aborted): the levels
 * empty into the device bytes and their lost updates are recorded. */
void vkmm_device_monitor_end_dispatch(struct vkmm_device_monitor *m);
/* A dispatch run in parts (DESIGN §3.3, docs/memory-model.md "A
 * dispatch in parts"): the workgroups of a module without device-memory atomics split
 * among monitors, one per part, each begun as this one was.  Over the
 * device bytes [bytes, bytes + size): false when a byte one part wrote was
 * accessed by another (the parts must not stand: a race between their
 * workgroups); else every chunk of map two of them touched is merged into
 * `m`.  Called for each range the dispatch may touch, then join. */
#define VKMM_DEVICE_MAX_PARTNERS 63
bool vkmm_device_monitor_settle(struct vkmm_device_monitor *m, struct vkmm_device_monitor *const *partners,
                                uint32_t count, const uint8_t *bytes, uint64_t size);
/* From now until the next begin, `m`'s scan and clear cover the partners'
 * states too (at most VKMM_DEVICE_MAX_PARTNERS). */
void vkmm_device_monitor_join(struct vkmm_device_monitor *m, struct vkmm_device_monitor *const *partners,
                              uint32_t count);
/* Did the part's dispatch record anything (a race, a stale read, a lost
 * update), run out of memory, or find itself hopeless? */
bool vkmm_device_monitor_eventful(const struct vkmm_device_monitor *m);

/* Write accesses since the dispatch began. */
uint64_t vkmm_device_monitor_writes(const struct vkmm_device_monitor *m);
/* Why the dispatch can never finish (every running invocation spins on a
 * value it can never see), or NULL. */
const char *vkmm_device_monitor_hopeless(const struct vkmm_device_monitor *m);
/* Did the levels run out of memory in this dispatch (a store may be lost)? */
bool vkmm_device_monitor_lost(const struct vkmm_device_monitor *m);
/* Anti-dependencies in the dispatch so far: a private read of an in-place
 * update (`a[i] = a[i + 1] + 1`) racing with another invocation's write
 * that comes later in the module.  *read_first: such a read ran before
 * the write and read the old value (the one its author meant);
 * *seen_newer: such a read ran after the write and saw it (the race
 * manifested). */
void vkmm_device_monitor_anti_dependency(const struct vkmm_device_monitor *m, bool *read_first, bool *seen_newer);
