/* Strict mode inside a dispatch: happens-before between its workgroups, for
 * the accesses that can be synchronized (DESIGN §3.2 "non-private", §3.4
 * "detect").
 *
 * Two conflicting accesses (same bytes, at least one a write) of different
 * workgroups are a data race unless one happens before the other (000
 * "Data Race", "Happens-Before").  Inside a command, the only way one
 * workgroup's accesses happen before another's is synchronizes-with: a
 * release at a scope holding both (Device, QueueFamily) — a release fence
 * or the release half of an atomic — followed in its workgroup by an
 * atomic write at Device scope, whose value (or a later one of its release
 * sequence) an atomic read at Device scope of the other workgroup returns,
 * followed there by an acquire at Device scope (000 "Synchronizes-With").
 * Release/acquire at Workgroup scope, relaxed atomics and barriers order
 * nothing between workgroups.
 *
 * Private accesses never communicate inside a command at all; the device
 * monitor judges them without this structure.  This one judges pairs of
 * non-private, non-atomic accesses (coherent, NonPrivatePointer), by
 * vector clocks (FastTrack's epochs), whatever order the seed ran the
 * workgroups in:
 *
 *   each workgroup   an epoch (its releases so far, + 1) and a vector clock
 *                    of the epochs of other workgroups it acquired
 *   each atomic word the clock its writes released (joined over its
 *                    writes: the release sequence, and more)
 *   each data word   the last write and the last read: (workgroup, epoch,
 *                    instruction, invocation)
 *
 * An access is ordered after a recorded one of workgroup w at epoch e when
 * the accessor's clock holds w at e or later.  Between workgroups a
 * workgroup is one agent: what one of its invocations released or
 * acquired counts for all of them.  Inside a workgroup, invocations are
 * agents ordered by control barriers (a barrier phase per workgroup: two
 * invocations' accesses in one phase race); a phase in which any fence or
 * atomic release/acquire ran is not judged here (vkmm_happens_before_
 * unacquired_write judges such a phase's reads by which release each
 * subgroup's acquires read).  That, an atomic read
 * joining the word's whole clock (not only the write it read), and clocks
 * that overflow their room (then ordered after everything) only add order:
 * this structure may miss a race, never report a pair the model orders.
 * (Whether a barrier's semantics also make the bytes available and visible
 * is the levels' question: dispatch_levels.h.)  Accesses that cover part of
 * a word are not judged.  Knows no Vulkan object. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

struct vkmm_happens_before;

/* Why two unordered accesses were not ordered, as far as the workgroups'
 * synchronization tells: the hint of a report. */
enum vkmm_unordered_why {
    VKMM_UNORDERED_NO_SYNC = 0,   /* neither workgroup released/acquired anything the other saw */
    VKMM_UNORDERED_RELAXED,       /* atomics at Device scope were read or written without release/acquire */
    VKMM_UNORDERED_NARROW_SCOPE,  /* releases or acquires at Workgroup scope (or narrower) */
    VKMM_UNORDERED_NO_BARRIER,    /* invocations of one workgroup with no control barrier between */
    VKMM_UNORDERED_NOT_VISIBLE,   /* ordered, but the read is not made visible to its invocation */
    VKMM_UNORDERED_NOT_ACQUIRED,  /* one workgroup, one phase: the reader acquired nothing naming the memory */
    VKMM_UNORDERED_SCOPED_ATOMIC, /* an atomic at Workgroup scope or narrower, and the other access in another
                                     workgroup: not mutually ordered, and not made available and visible at
                                     Device scope between them */
    VKMM_UNORDERED_NOT_RELEASED,  /* one workgroup, one phase: the writer released nothing naming the memory
                                     after the write */
    VKMM_UNORDERED_SUBGROUP_ATOMIC, /* an atomic at Subgroup scope, and the other access in another subgroup of
                                       its workgroup, with no barrier or Workgroup-scope release/acquire between */
    VKMM_UNORDERED_UNMATCHED,     /* one workgroup, one phase: the reader acquired after the write and the
                                     writer released after it, but the acquire read no value that release
                                     (or a later one of the writer's subgroup) wrote */
};

/* The earlier of two unordered accesses. */
struct vkmm_unordered {
    uint32_t tag;        /* its workgroup's tag */
    uint32_t site;       /* its instruction, as the caller numbered it */
    uint32_t invocation; /* local invocation index, UINT32_MAX: unknown */
    bool write;
    bool atomic; /* an atomic (at Workgroup scope or narrower, or an atomic write at Device scope) */
    enum vkmm_unordered_why why;
};

/* For the device address space [0, size); NULL when out of memory. */
struct vkmm_happens_before *vkmm_happens_before_create(uint64_t size);
void vkmm_happens_before_destroy(struct vkmm_happens_before *h);
/* A dispatch begins: nothing recorded, every workgroup at epoch 1. */
void vkmm_happens_before_begin(struct vkmm_happens_before *h);

/* The dispatch's module has no atomic instruction: a fence alone
 * synchronizes nothing (000 "Synchronizes-With": fences synchronize
 * through an atomic write and the atomic read of it), so fences leave its
 * phases judged (until the next begin). */
void vkmm_happens_before_no_atomics(struct vkmm_happens_before *h);

/* A fence or control barrier at Subgroup scope in workgroup `tag`: its
 * phase is not judged, atomics or not (the CTS and Mesa read
 * subgroupMemoryBarrier*() as ordering the lanes of a subgroup, which run
 * together; a subgroup control barrier does by the model). */
void vkmm_happens_before_subgroup_sync(struct vkmm_happens_before *h, uint32_t tag);

/* Workgroup `tag` (nonzero) releases, or acquires, at `wide` scope (Device
 * or wider: false for Workgroup and narrower, which synchronize nothing
 * here but name the mistake in a report). */
void vkmm_happens_before_release(struct vkmm_happens_before *h, uint32_t tag, bool wide);
void vkmm_happens_before_acquire(struct vkmm_happens_before *h, uint32_t tag, bool wide);
/* Workgroup `tag`'s control barrier opened: its invocations' accesses
 * before it happen before their accesses after it. */
void vkmm_happens_before_barrier(struct vkmm_happens_before *h, uint32_t tag);
/* An atomic of workgroup `tag` at Device scope (or wider) on the word at
 * `offset`: a read collects the clock the word's writes released (an
 * acquire later joins it), a write carries the workgroup's last release. */
void vkmm_happens_before_atomic(struct vkmm_happens_before *h, uint32_t tag, uint64_t offset, bool read, bool write);

/* Subgroup `subgroup` of workgroup `tag` performed a visibility operation
 * (MakeVisible semantics, or a read with MakePointerVisible). */
void vkmm_happens_before_visible(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup);
/* A non-private read without MakePointerVisible of [offset, offset + size)
 * by invocation `invocation` (of subgroup `subgroup`) of workgroup `tag`,
 * recorded already: true with *earlier filled when the bytes' last write
 * in this dispatch is another invocation's and the reader's subgroup
 * performed no visibility operation in the dispatch.  000: a write and a
 * read of two agents are location-ordered only through a visibility
 * operation by the reader's agent ("Location-Ordered"), so the pair is a
 * data race however happens-before orders it (Khronos
 * mp3transitivefail2).  A subgroup stands for its invocations (one that
 * made something visible counts for all: less race, never more); a
 * subgroup past the 64th counts as having made everything visible. */
bool vkmm_happens_before_unseen_write(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, uint32_t tag,
                                      uint32_t subgroup, uint32_t invocation, struct vkmm_unordered *earlier);
/* Subgroup `subgroup` of workgroup `tag` performed an acquire (a release)
 * naming device memory at Workgroup scope or wider (a fence, a barrier's
 * or an atomic's acquire (release) with storage semantics of buffers or
 * images). */
void vkmm_happens_before_device_acquire(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup,
                                        bool after_atomic);
void vkmm_happens_before_device_release(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup);
/* An atomic at Workgroup scope or wider of subgroup `subgroup` of
 * workgroup `tag` reads and/or writes the word at `offset` of device
 * memory: its read is what the subgroup's next acquire synchronizes with,
 * its write carries the subgroup's last release naming device memory
 * (workgroup_clocks.h).  Call it between the atomic's release and its
 * acquire half; `after_atomic` of vkmm_happens_before_device_acquire says
 * an acquire is such a half. */
void vkmm_happens_before_atomic_word(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup,
                                     uint64_t offset, bool read, bool write);
/* The same for an atomic at Workgroup scope or wider on the 4-byte `word`
 * of the workgroup's Workgroup storage (a `shared` flag whose release and
 * acquire name device memory): without it, vkmm_happens_before_unseen_
 * atomics must be said. */
void vkmm_happens_before_shared_atomic_word(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup,
                                            uint32_t word, bool read, bool write);
/* Before the lanes of an atomic instruction of that subgroup name their
 * words: its acquire half (`after_atomic`) synchronizes with what they
 * read, not with the subgroup's earlier relaxed reads. */
void vkmm_happens_before_atomic_begins(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup);
/* Subgroups per workgroup of the dispatches from now on (0: unknown). */
void vkmm_happens_before_subgroups(struct vkmm_happens_before *h, uint32_t count);
/* The dispatch's module has atomics on storage this structure is not told
 * of (private storage): an acquire that is not an atomic's own half may
 * have read one, so it synchronizes with every release made so far in its
 * workgroup (until the next begin). */
void vkmm_happens_before_unseen_atomics(struct vkmm_happens_before *h);
/* Workgroup `tag` finished: its subgroup clocks serve another. */
void vkmm_happens_before_workgroup_done(struct vkmm_happens_before *h, uint32_t tag);
/* A non-private read of [offset, offset + size) by invocation `invocation`
 * (of subgroup `subgroup`, `width` lanes a subgroup) of workgroup `tag`,
 * recorded already, in a barrier phase that fences or atomics synchronized
 * (the phases do not follow them, so vkmm_happens_before_access takes the
 * pair as ordered): true with *earlier filled when the bytes' last write is
 * another subgroup's of the same workgroup in the same phase, and the
 * writer's subgroup performed no release naming device memory after the
 * write, or the reader's subgroup no acquire naming device memory after it
 * (VKMM_UNORDERED_NOT_RELEASED, _NOT_ACQUIRED).  Then nothing orders the
 * write before the read (000 "Synchronizes-With": only a release after the
 * write and an acquire before the read whose storage semantics hold the
 * memory, or a control barrier, would): a race (Khronos test1, an acquire
 * naming only Workgroup memory; a flag stored without release) — or
 * when both happened but the acquire read no value that release (or a
 * later one of the writer's subgroup, through others too) wrote
 * (VKMM_UNORDERED_UNMATCHED: vector clocks of the subgroups,
 * workgroup_clocks.h; an acquire of another variable, or of a value
 * written before the release).  A workgroup whose clocks could not be
 * made, and an atomic's write counted as its own release, are judged by
 * the events alone (more order, never less); a subgroup past the 64th
 * counts as having done both. */
bool vkmm_happens_before_unacquired_write(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, uint32_t tag,
                                          uint32_t subgroup, uint32_t invocation, uint32_t width,
                                          struct vkmm_unordered *earlier);
/* Workgroup `tag` performed an availability operation at Device scope
 * (MakeAvailable at Device scope: a fence's, a barrier's or an atomic's
 * release half), or subgroup `subgroup` of it a visibility operation at
 * Device scope: what a pair with an atomic of narrower scope needs between
 * workgroups (vkmm_happens_before_scoped_atomic). */
void vkmm_happens_before_device_available(struct vkmm_happens_before *h, uint32_t tag);
void vkmm_happens_before_device_visible(struct vkmm_happens_before *h, uint32_t tag, uint32_t subgroup);
/* An atomic at Workgroup scope or narrower (`read`, `write`: a
 * read-modify-write is both) of [offset, offset + size) by invocation
 * `invocation` (of subgroup `subgroup`) of workgroup `tag` at instruction
 * `site`: records it as a non-private access, and returns true with
 * *earlier filled when it conflicts with an access of another workgroup
 * that is not location-ordered before it.  Its scope instance does not
 * hold the other workgroup, so the two are not mutually ordered atomics
 * (000 "Data Race"): they race unless one happens before the other and,
 * for a write and a read, the write was made available at Device scope by
 * its workgroup and the reader's subgroup performed a visibility operation
 * at Device scope (000 "Location-Ordered": the atomic's own availability
 * and visibility have its scope only; Khronos mpnotinscope1-6).  Two
 * read-modify-writes are left to the levels' lost updates (one report per
 * bug); pairs inside one workgroup are ordered here.  The workgroup stands
 * for the writing invocation and the subgroup for the reading one, and any
 * such operation in the dispatch counts (fewer races, never more). */
bool vkmm_happens_before_scoped_atomic(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, bool read,
                                       bool write, uint32_t tag, uint32_t subgroup, uint32_t invocation,
                                       uint32_t site, struct vkmm_unordered *earlier);
/* The same for an atomic of Subgroup (or Invocation) scope: besides other
 * workgroups' accesses, those of other subgroups of its own workgroup in
 * the same barrier phase race with it unless a release after the earlier
 * one and an acquire after it, both at Workgroup scope or wider and naming
 * device memory, came between (000 "Data Race": its scope instance holds
 * only its subgroup).  Needs the subgroup width
 * (vkmm_happens_before_subgroup_width). */
bool vkmm_happens_before_subgroup_atomic(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, bool read,
                                         bool write, uint32_t tag, uint32_t subgroup, uint32_t invocation,
                                         uint32_t site, struct vkmm_unordered *earlier);
/* Lanes per subgroup of the dispatch (local invocation index = subgroup *
 * width + lane); 0 until set: atomics of Subgroup scope are then judged like
 * Workgroup-scope ones. */
void vkmm_happens_before_subgroup_width(struct vkmm_happens_before *h, uint32_t width);
/* An atomic at Device scope (or wider) of [offset, offset + size) by
 * invocation `invocation` of workgroup `tag` at instruction `site` (`read`,
 * `write`: a read-modify-write is both): true with *earlier filled when a
 * non-private, non-atomic access (or an atomic of narrower scope) of
 * another invocation conflicts with it and is not ordered before it.
 * Atomics are mutually ordered only with atomics (000 "Data Race"): a flag
 * stored with a plain store and spun on with an atomic load, or a counter
 * initialized with a plain store another workgroup's atomics then update,
 * race unless happens-before orders them.  A write is recorded: a later
 * non-private, non-atomic read of another invocation is judged against it
 * (a counter read plainly while other workgroups still add to it), as if
 * the atomic came before its workgroup's last release; a later plain write
 * is not (the counter reset after relaxed atomics is left alone), nor are
 * later atomics. */
bool vkmm_happens_before_wide_atomic(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, bool read,
                                     bool write, uint32_t tag, uint32_t invocation, uint32_t site,
                                     struct vkmm_unordered *earlier);
/* A non-private, non-atomic access of [offset, offset + size) by
 * invocation `invocation` of workgroup `tag` at instruction `site` (8
 * bits): records it, and returns true with *earlier filled when an access
 * of another workgroup to those bytes conflicts with it and is not ordered
 * before it.  Accesses that do not cover whole aligned words are not
 * judged. */
bool vkmm_happens_before_access(struct vkmm_happens_before *h, uint64_t offset, uint32_t size, bool write,
                                uint32_t tag, uint32_t invocation, uint32_t site, struct vkmm_unordered *earlier);
