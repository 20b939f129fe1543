/* The workgroup monitor's atomics: atomic stores waiting in store buffers
 * (their release's clock lands with them), the words an atomic matches
 * releases and acquires on (workgroup_clocks.h), the hand-off of every
 * atomic to the device monitor, and the spin on a Subgroup-scope flag that
 * can never end.  The entry the generated code calls for an access to
 * Workgroup storage is here: it runs them, then the cells judge, then the
 * coherence order of atomic words has its say (workgroup_monitor_history.c). */
#include <stdio.h>

#include "shader_abi.h"
#include "workgroup_clocks.h"
#include "workgroup_monitor_state.h"
#include "workgroup_store_buffer.h"

/* A held atomic store landed: its word now carries its release's clock. */
void vkmm_workgroup_monitor_store_landed(void *user, uint32_t token, uint32_t offset, uint32_t size)
{
    struct vkmm_workgroup_monitor *m = user;
    vkmm_workgroup_clocks_land(m->clocks, token, offset / WORD, (offset + size - 1) / WORD);
}

bool vkmm_workgroup_monitor_store_landing(void *user, uint32_t subgroup, uint32_t lane, uint32_t token,
                                          uint32_t offset, uint32_t size, const uint8_t *bytes)
{
    struct vkmm_workgroup_monitor *m = user;
    /* The release's clock reaches the word even when the store takes its
     * place before the value there: an acquire reading that value then
     * counts as synchronized with it (lenient: a race may go unreported,
     * a correct program is never reported). */
    if (token)
        vkmm_workgroup_monitor_store_landed(m, token, offset, size);
    return vkmm_workgroup_monitor_history_landing(m, subgroup, lane, offset, size, bytes);
}

/* A module whose atomics all work on Workgroup storage: its atomic stores
 * wait in store buffers. */
static int64_t store_buffer_access(struct vkmm_workgroup_monitor *m, const uint64_t *addresses, uint64_t lanes,
                                   uint32_t size, uint32_t flags, uint32_t subgroup)
{
    uint64_t inside = 0;
    for (uint32_t lane = 0; lane < m->width && lane < 64; lane++) {
        uint64_t at;
        if (lanes >> lane & 1 && vkmm_lane_offset(addresses[lane], (uintptr_t)m->shared, m->size, size, &at)) {
            m->lane_offsets[lane] = (uint32_t)at;
            inside |= 1ull << lane;
        }
    }
    if (inside != lanes) {
        /* A lane outside the workgroup's memory (the generated code's
         * bounds keep it from being written): the store is not held. */
        vkmm_store_buffers_drain(m->buffers, subgroup);
        return 0;
    }
    /* An atomic store's release reaches its word when the store lands,
     * not as it is issued (an acquire reading the older value meanwhile
     * does not synchronize with it). */
    bool store = (flags & (VKMM_WORKGROUP_ATOMIC | VKMM_WORKGROUP_READ | VKMM_WORKGROUP_WRITE)) ==
                 (VKMM_WORKGROUP_ATOMIC | VKMM_WORKGROUP_WRITE);
    m->deferred_lanes = 0;
    for (uint64_t l = store && (flags & VKMM_ACCESS_ATOMIC_SYNC) ? lanes : 0; l; l &= l - 1) {
        uint32_t lane = (uint32_t)__builtin_ctzll(l);
        m->lane_tokens[lane] = vkmm_workgroup_clocks_defer(m->clocks, subgroup);
        if (m->lane_tokens[lane])
            m->deferred_lanes |= 1ull << lane;
    }
    int64_t held = vkmm_store_buffers_access_tokens(m->buffers, subgroup, m->lane_offsets, lanes, size, flags,
                                                    m->deferred_lanes ? m->lane_tokens : NULL);
    for (uint64_t l = held ? 0 : m->deferred_lanes; l; l &= l - 1) {
        uint32_t lane = (uint32_t)__builtin_ctzll(l); /* not held: it landed now */
        vkmm_workgroup_monitor_store_landed(m, m->lane_tokens[lane], m->lane_offsets[lane], size);
    }
    return held;
}

void vkmm_workgroup_monitor_yield(struct vkmm_workgroup_monitor *m, uint32_t subgroup)
{
    if (m)
        vkmm_store_buffers_yield(m->buffers, subgroup);
}

void vkmm_workgroup_monitor_subgroup_done(struct vkmm_workgroup_monitor *m, uint32_t subgroup)
{
    if (m)
        vkmm_store_buffers_drain(m->buffers, subgroup);
}

void vkmm_workgroup_monitor_forward_atomics(struct vkmm_workgroup_monitor *m, vkmm_shared_atomic_forward forward,
                                            void *user, uint32_t workgroup_tag)
{
    if (!m)
        return;
    m->forward = forward;
    m->forward_user = user;
    m->forward_tag = workgroup_tag;
}

/* An atomic's lanes and words, handed on. */
static void forward_atomic(struct vkmm_workgroup_monitor *m, const uint64_t *addresses, uint64_t lanes, uint32_t size,
                           uint32_t flags, uint32_t subgroup)
{
    uint64_t inside = 0;
    for (uint32_t lane = 0; lane < m->width && lane < 64; lane++) {
        uint64_t at;
        if (lanes >> lane & 1 && vkmm_lane_offset(addresses[lane], (uintptr_t)m->shared, m->size, size, &at)) {
            m->lane_words[lane] = (uint32_t)(at / WORD);
            inside |= 1ull << lane;
        }
    }
    m->forward(m->forward_user, m->forward_tag, subgroup, m->lane_words, inside, flags);
}

/* The words an atomic of a module whose atomics order Workgroup memory
 * reads or writes: what its acquire read from, and which clock its write
 * leaves (workgroup_clocks.h).  Any other access first settles an atomic
 * that named no word here (one on a buffer). */
static void match_atomic(struct vkmm_workgroup_monitor *m, const uint64_t *addresses, uint64_t lanes, uint32_t size,
                         uint32_t flags, uint32_t subgroup)
{
    for (uint32_t lane = 0; (flags & VKMM_WORKGROUP_ATOMIC) && lane < m->width && lane < 64; lane++) {
        uint64_t at;
        if (!(lanes >> lane & 1) || (m->deferred_lanes >> lane & 1) ||
            !vkmm_lane_offset(addresses[lane], (uintptr_t)m->shared, m->size, size, &at))
            continue; /* inactive, outside, or its clock waits with its store */
        for (uint64_t word = at / WORD; word <= (at + size - 1) / WORD; word++)
            vkmm_workgroup_clocks_atomic_word(m->clocks, subgroup, (uint32_t)word);
    }
    vkmm_workgroup_clocks_settle(m->clocks, subgroup);
}

/* An access judged by the cells, after what it does to the clocks. */
static int64_t judge(struct vkmm_workgroup_monitor *m, const uint64_t *addresses, uint64_t lanes, uint32_t size,
                     uint32_t flags, uint32_t subgroup, uint64_t site, const char *text)
{
    if (flags & VKMM_WORKGROUP_WRITE)
        m->narrow_reads = m->spin_reads = 0; /* something changes: the spinners may yet see it */
    if (flags & VKMM_ACCESS_ATOMIC_SYNC)
        match_atomic(m, addresses, lanes, size, flags, subgroup);
    return vkmm_workgroup_monitor_judge(m, addresses, lanes, size, flags, subgroup, site, text);
}

/* Has the coherence order of atomic words a part in this access: an atomic,
 * or an access after an atomic's acquire that waits (the common case, a
 * plain access, skips the call). */
static inline bool history_involved(const struct vkmm_workgroup_monitor *m, uint32_t flags, uint32_t subgroup)
{
    return (flags & VKMM_WORKGROUP_ATOMIC) || (subgroup < m->subgroups && m->acquire_pending[subgroup]);
}

int64_t vkmm_workgroup_monitor_access(void *monitor, const uint64_t *addresses, uint64_t lanes, uint32_t size_flags,
                                      uint32_t subgroup, uint64_t site, const char *text)
{
    struct vkmm_workgroup_monitor *m = monitor;
    if (!m)
        return 0;
    uint32_t size = size_flags & 0xffff, flags = size_flags >> 16;
    if (m->forward && (flags & VKMM_WORKGROUP_ATOMIC))
        forward_atomic(m, addresses, lanes, size, flags, subgroup);
    if (flags & VKMM_ACCESS_STORE_BUFFER) {
        /* The buffer first: a load of bytes the subgroup holds empties it
         * (program order), so the judgement below sees shared memory as the
         * subgroup left it; a held store is judged as it is issued. */
        int64_t held = store_buffer_access(m, addresses, lanes, size, flags, subgroup);
        int64_t judged = judge(m, addresses, lanes, size, flags, subgroup, site, text);
        m->deferred_lanes = 0;
        if (history_involved(m, flags, subgroup))
            judged = vkmm_workgroup_monitor_history_access(m, addresses, lanes, size, flags, subgroup, judged);
        return held ? held : judged;
    }
    int64_t judged = judge(m, addresses, lanes, size, flags, subgroup, site, text);
    if (!history_involved(m, flags, subgroup))
        return judged;
    return vkmm_workgroup_monitor_history_access(m, addresses, lanes, size, flags, subgroup, judged);
}

/* Every subgroup still running spins on the read `text` (instruction
 * `word`), which `why` says can never see its value: the dispatch is
 * hopeless, and the read's race goes unreported (the device-lost report
 * names the spin: one report per bug). */
static void give_up(struct vkmm_workgroup_monitor *m, uint32_t word, const char *text, const char *why)
{
    m->races->hopeless_read = word;
    snprintf(m->hopeless, sizeof(m->hopeless), "every invocation still running spins on %s, %s", text, why);
}

/* A lane read the value from before another subgroup's write of a
 * Subgroup-scope atomic (or its own Subgroup-scope load of one): when such
 * reads pile up with no write between, every subgroup still running spins
 * on what it need never see. */
void vkmm_workgroup_monitor_note_hopeless_read(struct vkmm_workgroup_monitor *m, const char *text, uint32_t word)
{
    if (++m->narrow_reads != HOPELESS_NARROW_READS)
        return;
    give_up(m, word, text,
            "an atomic of Subgroup scope whose value another subgroup of its workgroup writes: atomics whose scope "
            "does not hold both invocations need never see each other's writes (use gl_ScopeWorkgroup)");
}

/* A plain read returned the value from before another invocation's write
 * of this interval (no barrier() between them), and will until the next
 * barrier: when one instruction reads one byte so HOPELESS_NARROW_READS
 * times in a row with no write between, the spin can never end (DESIGN
 * §3.3 "no hangs"). */
void vkmm_workgroup_monitor_note_stale_spin(struct vkmm_workgroup_monitor *m, const char *text, uint32_t word,
                                            uint32_t offset)
{
    if (!m->spin_reads || m->spin_word != word || m->spin_offset != offset) {
        m->spin_word = word;
        m->spin_offset = offset;
        m->spin_reads = 1;
        return;
    }
    if (++m->spin_reads != HOPELESS_NARROW_READS)
        return;
    give_up(m, word, text,
            "a plain read of Workgroup memory that another invocation wrote with no barrier() between: until a "
            "barrier the read need never see the write; use barrier(), or atomics with release/acquire semantics");
}

const char *vkmm_workgroup_monitor_hopeless(const struct vkmm_workgroup_monitor *m)
{
    return m && m->hopeless[0] ? m->hopeless : NULL;
}
