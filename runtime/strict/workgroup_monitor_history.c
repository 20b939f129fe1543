/* The workgroup monitor's coherence order of atomic words in Workgroup
 * storage (atomic_history.h), in modules whose atomic stores wait in store
 * buffers (workgroup_store_buffer.h).
 *
 * The store buffers alone keep shared memory one copy that every
 * invocation reads: once a store landed, everybody sees it, so two readers
 * always agree on the order of two stores to two words (IRIW), and a store
 * landing after another always wins (2+2W).  The Vulkan memory model is
 * weaker (000 "Coherence", "Location-Ordered"): an atomic load may read any
 * write of the location's coherence order not older than one the reader
 * already knows of, and two writes no happens-before orders may take
 * either place in it.  So a landing store may take its place just before
 * the value already there (shared memory keeps that one), and an atomic
 * load of an invocation (an agent) may read an older value of the word, as
 * its own view allows; release/acquire carry views (the acquire half of
 * an atomic joins what the write it read carried), and a fence, a subgroup
 * barrier or a control barrier makes everything current visible.
 *
 * Only 4-byte aligned atomics are followed; others are reads the history
 * did not follow (their agent's next acquire sees everything current). */
#include <string.h>

#include "atomic_history.h"
#include "shader_abi.h"
#include "workgroup_monitor_state.h"

#define HISTORY_LEVEL 1u /* one level: this workgroup's shared memory */

static uint64_t agent_of(const struct vkmm_workgroup_monitor *m, uint32_t subgroup, uint32_t lane)
{
    return vkmm_atomic_agent(0, subgroup * m->width + lane);
}

bool vkmm_workgroup_monitor_history_landing(struct vkmm_workgroup_monitor *m, uint32_t subgroup, uint32_t lane,
                                            uint32_t offset, uint32_t size, const uint8_t *bytes)
{
    if (offset % WORD || size % WORD || !size || size / WORD > VKMM_ATOMIC_LANDING_WORDS)
        return false;
    uint64_t offsets[VKMM_ATOMIC_LANDING_WORDS];
    uint32_t before[VKMM_ATOMIC_LANDING_WORDS], after[VKMM_ATOMIC_LANDING_WORDS], count = size / WORD;
    for (uint32_t i = 0; i < count; i++) {
        offsets[i] = offset + i * WORD;
        memcpy(&before[i], m->shared + offsets[i], WORD);
        memcpy(&after[i], bytes + i * WORD, WORD);
    }
    m->history_used = true;
    return vkmm_atomic_history_landed_words(m->history, HISTORY_LEVEL, offsets, before, after, count,
                                            agent_of(m, subgroup, lane));
}

/* An atomic load of aligned words: lanes that read one word read one value
 * together (one instruction's result), which may be older than the word's
 * (what each lane's view allows).  Returns the move to the view, or 0. */
static int64_t history_load(struct vkmm_workgroup_monitor *m, const uint64_t *addresses, uint64_t lanes,
                            uint32_t subgroup)
{
    bool moved = false;
    for (uint64_t left = lanes; left;) {
        uint32_t lane = (uint32_t)__builtin_ctzll(left);
        uint64_t at, together = 0;
        uint32_t count = 0;
        for (uint64_t l = left; l; l &= l - 1) {
            uint32_t other = (uint32_t)__builtin_ctzll(l);
            if (addresses[other] == addresses[lane]) {
                m->lane_agents[count++] = agent_of(m, subgroup, other);
                together |= 1ull << other;
            }
        }
        left &= ~together;
        if (!vkmm_lane_offset(addresses[lane], (uintptr_t)m->shared, m->size, WORD, &at))
            continue; /* outside: the generated code drops it */
        uint32_t current, value;
        memcpy(&current, m->shared + at, WORD);
        value = vkmm_atomic_history_load_together(m->history, HISTORY_LEVEL, at, current, m->lane_agents, count);
        if (value == current)
            continue;
        if (!moved)
            vkmm_workgroup_monitor_open_view(m, addresses, lanes, WORD);
        moved = true;
        memcpy(m->view + at, &value, WORD);
    }
    return moved ? (int64_t)((uintptr_t)m->view - (uintptr_t)m->shared) : 0;
}

/* A read-modify-write reads the newest value (atomicity). */
static void history_rmw(struct vkmm_workgroup_monitor *m, const uint64_t *addresses, uint64_t lanes,
                        uint32_t subgroup)
{
    for (uint64_t l = lanes; l; l &= l - 1) {
        uint32_t lane = (uint32_t)__builtin_ctzll(l), current;
        uint64_t at;
        if (!vkmm_lane_offset(addresses[lane], (uintptr_t)m->shared, m->size, WORD, &at))
            continue;
        memcpy(&current, m->shared + at, WORD);
        vkmm_atomic_history_rmw(m->history, HISTORY_LEVEL, at, current, agent_of(m, subgroup, lane));
    }
}

static void untracked_reads(struct vkmm_workgroup_monitor *m, uint64_t lanes, uint32_t subgroup)
{
    for (uint64_t l = lanes; l; l &= l - 1)
        vkmm_atomic_history_untracked_read(m->history, agent_of(m, subgroup, (uint32_t)__builtin_ctzll(l)));
}

/* An acquire by `lanes` of the subgroup: `precise`, the acquire half of an
 * atomic (it synchronizes with the writes it read); otherwise everything
 * current now becomes visible to them. */
static void acquire(struct vkmm_workgroup_monitor *m, uint32_t subgroup, uint64_t lanes, bool precise)
{
    for (uint64_t l = lanes; l; l &= l - 1)
        vkmm_atomic_history_acquire(m->history, agent_of(m, subgroup, (uint32_t)__builtin_ctzll(l)), precise);
}

static uint64_t every_lane(const struct vkmm_workgroup_monitor *m)
{
    return m->width >= 64 ? ~0ull : (1ull << m->width) - 1;
}

/* An atomic's acquire that waited for an access which was not the atomic's
 * own (it worked on other storage): everything current becomes visible. */
static void settle_acquire(struct vkmm_workgroup_monitor *m, uint32_t subgroup)
{
    if (!m->acquire_pending[subgroup])
        return;
    m->acquire_pending[subgroup] = 0;
    acquire(m, subgroup, every_lane(m), false);
}

int64_t vkmm_workgroup_monitor_history_access(struct vkmm_workgroup_monitor *m, const uint64_t *addresses,
                                              uint64_t lanes, uint32_t size, uint32_t flags, uint32_t subgroup,
                                              int64_t judged)
{
    uint32_t kind = flags & (VKMM_WORKGROUP_ATOMIC | VKMM_WORKGROUP_READ | VKMM_WORKGROUP_WRITE);
    bool atomic_read = (kind & VKMM_WORKGROUP_ATOMIC) && (kind & VKMM_WORKGROUP_READ);
    if (!atomic_read || !(flags & VKMM_ACCESS_STORE_BUFFER) || subgroup >= m->subgroups || !lanes) {
        if (subgroup < m->subgroups)
            settle_acquire(m, subgroup);
        return judged;
    }
    m->history_used = true;
    if (size != WORD || judged) {
        /* Another size, or the cells made a racing read stale: what these
         * lanes read is not in the history. */
        untracked_reads(m, lanes, subgroup);
    } else if (kind & VKMM_WORKGROUP_WRITE) {
        history_rmw(m, addresses, lanes, subgroup);
    } else {
        judged = history_load(m, addresses, lanes, subgroup);
    }
    if (m->acquire_pending[subgroup]) {
        m->acquire_pending[subgroup] = 0;
        acquire(m, subgroup, lanes, true);
    }
    return judged;
}

void vkmm_workgroup_monitor_history_barrier(struct vkmm_workgroup_monitor *m, uint32_t subgroup, uint32_t kind)
{
    if (subgroup >= m->subgroups)
        return;
    settle_acquire(m, subgroup);
    if ((kind & 15u) == VKMM_WORKGROUP_SYNC && (kind & VKMM_SYNC_ACQUIRE)) {
        if (kind & VKMM_SYNC_ATOMIC_READ)
            m->acquire_pending[subgroup] = 1; /* acquires what its access reads */
        else
            acquire(m, subgroup, every_lane(m), false);
    } else if ((kind & ~VKMM_BARRIER_STORE_BUFFER) == VKMM_SUBGROUP_BARRIER_MEMORY) {
        acquire(m, subgroup, every_lane(m), false);
    }
}

/* A control barrier ordering Workgroup memory, or a new workgroup: every
 * invocation sees every value current now, so nothing older is kept. */
void vkmm_workgroup_monitor_history_forget(struct vkmm_workgroup_monitor *m)
{
    memset(m->acquire_pending, 0, m->subgroups ? m->subgroups : 1);
    if (!m->history_used)
        return;
    m->history_used = false;
    m->history_round++;
    uint64_t seed = m->seed ? (m->seed + m->history_round) * 0x9E3779B97F4A7C15ull : 0;
    vkmm_atomic_history_begin(m->history, m->seed && !seed ? 1 : seed);
}
