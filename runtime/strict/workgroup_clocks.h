/* Release and acquire between the subgroups of one workgroup, matched by
 * what each acquire read (000 "Synchronizes-With"): an atomic with Acquire
 * semantics, or an atomic read followed by an acquire fence, synchronizes
 * with a release only when it reads the value that release wrote, or one
 * that a read-modify-write later in the release's sequence wrote (000
 * "Release Sequence").  An acquire that read another variable, or a value
 * written before the release, orders nothing.
 *
 * Vector clocks over the workgroup's subgroups, whose entries are moments
 * (the workgroup monitor's count of fences and atomics): entry t of
 * subgroup s's clock is the latest release of subgroup t that s acquired,
 * directly or through others, so an access t made at an earlier moment
 * happens before what s does now.  A word of Workgroup storage that an
 * atomic wrote carries the clock of that write's release (a release atomic,
 * or a release fence and then an atomic write); an atomic read joins the
 * clock of the word it read.
 *
 * Atomics on other storage (a buffer) that release or acquire Workgroup
 * memory have no word here: such an acquire joins every clock any write
 * carried so far (lenient: never a report on a correct program).  So does
 * every acquire once a word's clock could not be kept (out of memory).
 * Only releases and acquires at Workgroup scope or wider order two
 * subgroups; the monitor keeps the order of one subgroup's lanes apart.
 * The clocks know no Vulkan object. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

struct vkmm_workgroup_clocks;

/* Clocks for `subgroups` subgroups over `words` 4-byte words of Workgroup
 * storage; the room is taken when a fence or an atomic first needs it.
 * NULL when out of memory. */
struct vkmm_workgroup_clocks *vkmm_workgroup_clocks_create(uint32_t subgroups, uint32_t words);
/* Clocks for `subgroups` subgroups over the words of device memory (any
 * 64-bit word number, found by hashing).  There an atomic load may read an
 * older value than the newest (atomic_history.h), so an atomic store joins
 * its word's clock rather than replacing it; and a release fence counts
 * among the releases an acquire reading no known word joins, since its
 * atomic write may be on storage these clocks never see (both lenient).
 * Past 16,384 words with a clock, every acquire counts every release (a
 * scatter of atomics over a large buffer keeps its memory bounded). */
struct vkmm_workgroup_clocks *vkmm_workgroup_clocks_create_sparse(uint32_t subgroups);
void vkmm_workgroup_clocks_destroy(struct vkmm_workgroup_clocks *clocks);
/* A new workgroup: no release, no acquire, no word with a clock. */
void vkmm_workgroup_clocks_begin(struct vkmm_workgroup_clocks *clocks);
/* A fence or an atomic of `subgroup` (VKMM_SYNC_* bits of `kind`) at
 * `moment`, before its access: a fence takes effect now; an atomic when
 * its words are named (vkmm_workgroup_clocks_atomic_word), or as an atomic
 * on other storage at the subgroup's next call. */
void vkmm_workgroup_clocks_sync(struct vkmm_workgroup_clocks *clocks, uint32_t subgroup, uint32_t kind,
                                uint32_t moment);
/* The subgroup's atomic announced by vkmm_workgroup_clocks_sync reads
 * and/or writes the 4-byte `word` of Workgroup storage (once per lane and
 * word it covers), ... */
void vkmm_workgroup_clocks_atomic_word(struct vkmm_workgroup_clocks *clocks, uint32_t subgroup, uint64_t word);
/* ... and is done.  Called with no atomic announced, or when the atomic
 * named no word (it worked on other storage, or every lane was out of
 * bounds), it settles that atomic as one on other storage. */
void vkmm_workgroup_clocks_settle(struct vkmm_workgroup_clocks *clocks, uint32_t subgroup);
/* Device memory, where an atomic's acquire half comes after its access
 * (an atomic's words are named through vkmm_workgroup_clocks_sync with a
 * relaxed kind, lane by lane): the subgroup's atomic instruction begins
 * (what its lanes read is gathered from now on), and its acquire half
 * synchronizes with what they read, not with the subgroup's earlier
 * relaxed reads (an acquire fence, VKMM_SYNC_ACQUIRE, would). */
void vkmm_workgroup_clocks_atomic_begins(struct vkmm_workgroup_clocks *clocks, uint32_t subgroup);
void vkmm_workgroup_clocks_acquire_last(struct vkmm_workgroup_clocks *clocks, uint32_t subgroup);
/* The subgroup's announced atomic store waits, lane by lane, in a store
 * buffer (workgroup_store_buffer.h): each lane's clock is kept aside under
 * a token (0: none kept — not a plain atomic store, sparse clocks, or out
 * of memory: then name its words now) and given to its words [first,
 * last] when that lane's store lands.  An acquire that reads the older
 * value meanwhile does not synchronize with the waiting release.  A landed
 * store's clock joins its word's (a later load may still read an older
 * value of the word: workgroup_monitor_history.c), as on device memory. */
uint32_t vkmm_workgroup_clocks_defer(struct vkmm_workgroup_clocks *clocks, uint32_t subgroup);
void vkmm_workgroup_clocks_land(struct vkmm_workgroup_clocks *clocks, uint32_t token, uint32_t first,
                                uint32_t last);
/* Does an access `earlier` (another subgroup) made at `moment` happen
 * before what `later` does now, through releases and acquires? */
bool vkmm_workgroup_clocks_ordered(const struct vkmm_workgroup_clocks *clocks, uint32_t later, uint32_t earlier,
                                   uint32_t moment);
