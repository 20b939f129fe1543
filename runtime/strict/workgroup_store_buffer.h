/* Strict mode inside a dispatch: store buffers for atomic stores to
 * Workgroup (`shared`) storage, one per subgroup (DESIGN §3.3 "store
 * buffers for relaxed atomic stores").
 *
 * An atomic store of a subgroup waits in its buffer (a shadow of the
 * workgroup's shared memory holding the stored bytes) and is performed
 * later — at a scheduling point, as the seed decides; when the subgroup
 * reaches a control barrier or finishes; or when it accesses the same
 * bytes again (an agent sees its own stores).  Other subgroups read shared
 * memory meanwhile, so store buffering (SB) and message passing with
 * relaxed atomics (MP) show their weak outcomes.  A release (an atomic
 * store's Release semantics, or a fence's) starts a new epoch: stores of an
 * older epoch are performed before any of a newer one (000 "release
 * sequence"/"synchronizes-with": what happens before a release is visible
 * to whoever acquires what follows it).  Coherence per location holds: a
 * subgroup's store to bytes it already holds in its buffer empties the
 * buffer first.
 *
 * The caller uses it only in modules whose atomics all work on Workgroup
 * storage: a release naming Workgroup memory may be carried to another
 * invocation by an atomic on device memory, whose own store buffer
 * (dispatch_levels.c) knows nothing of this one.  Knows no Vulkan
 * object. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

struct vkmm_store_buffers;

/* Buffers for `subgroups` subgroups over `shared_size` bytes; NULL when
 * out of memory. */
struct vkmm_store_buffers *vkmm_store_buffers_create(uint32_t subgroups, uint32_t shared_size);
void vkmm_store_buffers_destroy(struct vkmm_store_buffers *buffers);
/* A new workgroup starts on `shared`, under `seed` (0: the stalest
 * schedule): every buffer is empty. */
void vkmm_store_buffers_begin(struct vkmm_store_buffers *buffers, uint8_t *shared, uint64_t seed);

/* An access of subgroup `subgroup` to the bytes [offset, offset + size) of
 * each active lane (`offsets[lane]`, lanes as bits; flags as the generated
 * code passes them: VKMM_WORKGROUP_READ/WRITE/ATOMIC, VKMM_ACCESS_RELEASE).
 * Returns how far the lanes' addresses move: for an atomic store, into the
 * subgroup's shadow (the store waits there); else 0, after the subgroup's
 * own waiting stores of those bytes (all of them for a read-modify-write)
 * were performed. */
int64_t vkmm_store_buffers_access(struct vkmm_store_buffers *buffers, uint32_t subgroup, const uint32_t *offsets,
                                  uint64_t lanes, uint32_t size, uint32_t flags);
/* The same, an atomic store's lanes carrying `tokens` (per lane, 0: none)
 * for the landing hook. */
int64_t vkmm_store_buffers_access_tokens(struct vkmm_store_buffers *buffers, uint32_t subgroup,
                                         const uint32_t *offsets, uint64_t lanes, uint32_t size, uint32_t flags,
                                         const uint32_t *tokens);
/* A lane's waiting store is performed (not when the buffer is emptied by
 * begin: that workgroup is over): the hook gets the storing subgroup and
 * lane, the store's token, its bytes' place and the `bytes` it stores.
 * Returning true keeps shared memory's bytes: the store took a place before
 * them in the coherence order (the caller keeps its value). */
typedef bool (*vkmm_store_landing)(void *user, uint32_t subgroup, uint32_t lane, uint32_t token, uint32_t offset,
                                   uint32_t size, const uint8_t *bytes);
void vkmm_store_buffers_on_landing(struct vkmm_store_buffers *buffers, vkmm_store_landing landing, void *user);
/* A release by the subgroup (a fence naming Workgroup memory): the stores
 * before it are performed before those after. */
void vkmm_store_buffers_release(struct vkmm_store_buffers *buffers, uint32_t subgroup);
/* Every store the subgroup holds is performed (a control barrier, the
 * subgroup finished). */
void vkmm_store_buffers_drain(struct vkmm_store_buffers *buffers, uint32_t subgroup);
/* The subgroup stopped at a scheduling point: some of its stores may be
 * performed, as the seed decides. */
void vkmm_store_buffers_yield(struct vkmm_store_buffers *buffers, uint32_t subgroup);
/* Does the subgroup hold a store? */
bool vkmm_store_buffers_holding(const struct vkmm_store_buffers *buffers, uint32_t subgroup);
