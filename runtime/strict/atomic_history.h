/* Strict mode inside a dispatch: the coherence order of each atomic word
 * and what each invocation may still read of it (DESIGN §3.2 "atomics",
 * §3.3 "the stalest result").
 *
 * The levels (dispatch_levels.c) keep one value per word and level, so a
 * load there always returns the newest value: memory is multi-copy atomic,
 * and two readers can never disagree about the order of two stores to two
 * words (IRIW).  The Vulkan memory model is weaker: an atomic load may read
 * any write of the location's coherence order that is not older than one
 * the reader already knows of — through its own earlier accesses
 * (000 "coherence": CoRR, CoWR) or through a happens-before chain from a
 * later write (000 "Synchronizes-With", "Happens-Before").  This structure
 * keeps, for each 32-bit atomic word of a level, its last few values in
 * coherence order with the time each became current, and for each
 * invocation (an agent of the model) what bounds its reads:
 *
 *   view   per word, the oldest write the agent may still read (its own
 *          reads and writes, and the views carried by the writes it
 *          acquired)
 *   floor  a time: every write that happens before the agent's last
 *          barrier (or acquire this structure cannot follow) was current
 *          before it, so a read sees a value still current at or after it
 *
 * A write carries its writer's view and floor when it lands (release
 * semantics: 000 "Release Sequence"; carrying them for relaxed writes too
 * only adds synchronization, never removes it); an acquire joins the views
 * of the writes the agent read since its last one.  A load picks, as the
 * seed decides, among the values these bounds leave (seed 0: the oldest),
 * and then the agent's view moves past the value read, so a spin-wait
 * sees the newest value within a few reads.  Whenever a bound overflows
 * this structure's room, the agent's floor moves to now, which allows only
 * the newest value: the fall-back is always the strong machine, never a
 * weaker one.  Knows no Vulkan object. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

struct vkmm_atomic_history;

struct vkmm_atomic_history *vkmm_atomic_history_create(void);
void vkmm_atomic_history_destroy(struct vkmm_atomic_history *h);

/* A dispatch starts: nothing is tracked until its first atomic load or
 * landing store (read-modify-writes alone need no history: each reads the
 * newest value). */
void vkmm_atomic_history_begin(struct vkmm_atomic_history *h, uint64_t seed);
bool vkmm_atomic_history_tracking(const struct vkmm_atomic_history *h);

/* Agents are invocations: (workgroup tag, local invocation index).
 * Levels: 0 for the shader (device) domain, a workgroup's tag for its
 * workgroup domain.  Words are 4-byte aligned offsets. */
static inline uint64_t vkmm_atomic_agent(uint32_t workgroup_tag, uint32_t invocation)
{
    return (uint64_t)workgroup_tag << 32 | invocation;
}

/* An atomic store of `agent` reaches `level`, where the word holds
 * `before`.  Returns false when `after` is the word's newest value now
 * (the caller writes it); true when the write takes its place before the
 * newest value in the coherence order (the caller keeps `before`: nobody
 * who saw the newest value reads it). */
bool vkmm_atomic_history_landed(struct vkmm_atomic_history *h, uint32_t level, uint64_t offset, uint32_t before,
                                uint32_t after, uint64_t agent);

/* The same for the `count` words (at most VKMM_ATOMIC_LANDING_WORDS) that
 * one agent's atomic stores land together (a 64-bit store's two halves):
 * they take a place before the newest values all together, or none of
 * them does. */
#define VKMM_ATOMIC_LANDING_WORDS 16
bool vkmm_atomic_history_landed_words(struct vkmm_atomic_history *h, uint32_t level, const uint64_t *offsets,
                                      const uint32_t *before, const uint32_t *after, uint32_t count, uint64_t agent);

/* A read-modify-write of `agent` on the word, which holds `current`; the
 * caller writes the new value right after (it becomes current now). */
void vkmm_atomic_history_rmw(struct vkmm_atomic_history *h, uint32_t level, uint64_t offset, uint32_t current,
                             uint64_t agent);

/* An atomic load of `agent` on the word, which holds `current`: returns
 * the value it reads (current, or an older one the model allows). */
uint32_t vkmm_atomic_history_load(struct vkmm_atomic_history *h, uint32_t level, uint64_t offset, uint32_t current,
                                  uint64_t agent);

/* The same load by `count` agents that read one value together (the lanes
 * of one instruction reading one word see one result): a value each of
 * them may read, and every one's view moves past it. */
uint32_t vkmm_atomic_history_load_together(struct vkmm_atomic_history *h, uint32_t level, uint64_t offset,
                                           uint32_t current, const uint64_t *agents, uint32_t count);

/* An atomic read this structure did not follow (another size, a scope it
 * does not keep): the agent's next acquire cannot know what it carried. */
void vkmm_atomic_history_untracked_read(struct vkmm_atomic_history *h, uint64_t agent);

/* An acquire of `agent`.  `precise`: the acquire half of a device-memory
 * atomic (the write it read carried its view); otherwise (a fence, a
 * barrier, an atomic on memory not followed here) the agent sees
 * everything current now. */
void vkmm_atomic_history_acquire(struct vkmm_atomic_history *h, uint64_t agent, bool precise);

/* For tests: how many values of the word are kept. */
uint32_t vkmm_atomic_history_versions(const struct vkmm_atomic_history *h, uint32_t level, uint64_t offset);
