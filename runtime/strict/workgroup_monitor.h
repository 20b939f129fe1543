/* Strict mode inside a dispatch: the workgroup domain of DESIGN §3.1 for
 * Workgroup storage.  Every access of an invocation to its workgroup's
 * shared memory is checked against the last accesses of the other
 * invocations, by happens-before within the workgroup (Vulkan memory model,
 * "data race": two conflicting accesses by different invocations, not both
 * atomic, with neither ordered before the other).  Within a workgroup, order
 * between invocations comes only from control barriers that synchronize
 * Workgroup memory (a workgroup barrier orders every invocation; a subgroup
 * barrier the invocations of one subgroup).
 *
 * Races are found whatever order the subgroups ran in, and made to show:
 * a racing read that comes after the write in program order sees the value
 * the bytes had at the last barrier (stale; on seeds other than 0 perhaps
 * the newer bytes where the shader reads the variable again later), and of
 * two racing writes the
 * later is lost at the next barrier.  One record per bug: (kind, the two
 * instructions).  The monitor knows no Vulkan object; the strict bridge
 * turns its records into reports. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/* One side of a race. */
struct vkmm_workgroup_race_access {
    const char *text;        /* "`tile` (OpStore, line 17)" */
    uint32_t word;           /* the instruction's word offset */
    uint32_t invocation[3];  /* LocalInvocationId of the first occurrence */
    bool write, atomic;
};

/* One bug: the two instructions in program order (the bug's identity,
 * whichever ran first), its first occurrence, and how many bytes showed it. */
struct vkmm_workgroup_race {
    struct vkmm_workgroup_race_access earlier, later;
    bool same_subgroup;          /* in every occurrence, both invocations were in one subgroup */
    bool execution_barrier_only; /* a barrier without Workgroup-memory semantics came between */
    bool narrow_atomics;         /* two atomics, one of Subgroup scope, by invocations of different subgroups */
    bool uninitialized;          /* `later` read bytes no invocation of the workgroup wrote (`earlier` = `later`) */
    bool unreleased, unacquired; /* fences or atomics may order Workgroup memory here, but the first access's
                                    subgroup made no release after it / the second's no acquire after it */
    bool unmatched;              /* both were made, but the acquire read from no release of the first's subgroup
                                    after its access (another variable, or an older value) */
    uint32_t offset;             /* first byte, in the workgroup's shared memory */
    uint32_t workgroup[3];
    uint64_t bytes;
    uint32_t also_low, also_high; /* another pair of instructions of the same bug (words; 0: none) */
};

#define VKMM_WORKGROUP_MAX_RACES 32

/* The races of one dispatch, over all its workgroups. */
struct vkmm_workgroup_races {
    uint32_t count;
    uint64_t more; /* bytes of bugs past VKMM_WORKGROUP_MAX_RACES */
    struct vkmm_workgroup_race race[VKMM_WORKGROUP_MAX_RACES];
    /* The first atomic read of another subgroup's atomic write where either
     * has Subgroup scope (000 "Data Race": not mutually ordered).  Such a
     * flag mostly guards data, whose race's record names the scope: this
     * one is reported only when the dispatch has no other record (one
     * report per bug). */
    bool has_narrow_read;
    struct vkmm_workgroup_race narrow_read;
    /* Anti-dependencies (an in-place update's read racing with another
     * invocation's write that comes later in the module): one whose read
     * ran first and read the old value, and one whose read saw the newer
     * bytes (the race manifested).  With the first and not the second, the
     * dispatch runs again writers first (runtime/exec/dispatch.c). */
    bool updates_read_first, updates_seen_newer;
    /* The word of a spin's read that can never see its value (0: none): the
     * device-lost report names it, so its races are not reported. */
    uint32_t hopeless_read;
};

struct vkmm_workgroup_monitor;

/* A monitor for workgroups of `local_size` invocations in subgroups of
 * `width`, with `shared_size` bytes of Workgroup storage; NULL when out of
 * memory. */
struct vkmm_workgroup_monitor *vkmm_workgroup_monitor_create(const uint32_t local_size[3], uint32_t width,
                                                             uint32_t shared_size,
                                                             struct vkmm_workgroup_races *races);
void vkmm_workgroup_monitor_destroy(struct vkmm_workgroup_monitor *monitor);
/* The dispatch's seed (0 until set): which racing reads that the shader
 * repeats later see the newer bytes. */
void vkmm_workgroup_monitor_set_seed(struct vkmm_workgroup_monitor *monitor, uint64_t seed);
/* Keeps every byte's state apart (no word cells): the scalar reference the
 * unit tests compare the word cells with. */
void vkmm_workgroup_monitor_use_byte_cells(struct vkmm_workgroup_monitor *monitor);
/* A new workgroup starts on `shared` (its Workgroup storage). */
void vkmm_workgroup_monitor_begin(struct vkmm_workgroup_monitor *monitor, uint8_t *shared,
                                  const uint32_t workgroup[3]);
/* Scheduling (dispatch.c): the subgroup stopped at a scheduling point, or
 * finished (store buffers, workgroup_store_buffer.h). */
void vkmm_workgroup_monitor_yield(struct vkmm_workgroup_monitor *monitor, uint32_t subgroup);
/* Every atomic of the workgroup `workgroup_tag` (until the next begin) is
 * also handed to `forward(user, workgroup_tag, subgroup, words, lanes,
 * flags)`, lane l on the 4-byte word words[l] of Workgroup storage: its
 * release or acquire may name device memory, which another monitor judges
 * (device_monitor.h, vkmm_device_monitor_shared_atomic). */
typedef void (*vkmm_shared_atomic_forward)(void *user, uint32_t workgroup_tag, uint32_t subgroup,
                                           const uint32_t *words, uint64_t lanes, uint32_t flags);
void vkmm_workgroup_monitor_forward_atomics(struct vkmm_workgroup_monitor *monitor, vkmm_shared_atomic_forward forward,
                                            void *user, uint32_t workgroup_tag);
/* Why the workgroup can never finish — its running subgroups spin on a
 * Subgroup-scope atomic of Workgroup storage another subgroup wrote, whose
 * loads read the value from before that write — or NULL (also for NULL). */
const char *vkmm_workgroup_monitor_hopeless(const struct vkmm_workgroup_monitor *monitor);
void vkmm_workgroup_monitor_subgroup_done(struct vkmm_workgroup_monitor *monitor, uint32_t subgroup);
/* Every unfinished subgroup waits at a control barrier: it opens now. */
void vkmm_workgroup_monitor_barrier_open(struct vkmm_workgroup_monitor *monitor);

/* The hooks the generated code calls (shader_abi.h). */
int64_t vkmm_workgroup_monitor_access(void *monitor, const uint64_t *addresses, uint64_t lanes, uint32_t size_flags,
                                      uint32_t subgroup, uint64_t site, const char *text);
void vkmm_workgroup_monitor_barrier(void *monitor, uint32_t subgroup, uint32_t kind);
