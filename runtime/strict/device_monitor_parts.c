/* A dispatch run in parts (device_monitor.h, settle and join): each part's
 * workgroups ran under a monitor of its own, on a thread of its own.  The
 * parts stand only if no byte one part wrote was touched by another: in a
 * module without atomics nothing orders two workgroups (000
 * "Happens-Before": only atomics synchronize across workgroups), so such a
 * pair of accesses is a race, and a race has to run in the one seeded
 * schedule to manifest the same way every time.  Where the parts are apart,
 * the map of the part that touched a chunk is the dispatch's; the chunks
 * two parts touched (at the edges of their ranges) are merged here. */
#include "device_monitor.h"

#include "device_monitor_state.h"
#include "touched_map.h"

#define WRITES (PRIVATE_WRITE | SHARED_WRITE)
#define KINDS (PRIVATE_WRITE | SHARED_WRITE | PRIVATE_READ | SHARED_READ)

static bool chunk_current(const struct vkmm_device_monitor *m, uint64_t chunk)
{
    return m->chunk_generation[chunk] == m->generation;
}

/* Byte (or whole-word) states of two parts: a conflict when both touched
 * the byte and one of them wrote it. */
static bool states_conflict(uint32_t a, uint32_t b)
{
    return (a & TAG_MASK) && (b & TAG_MASK) && ((a | b) & WRITES);
}

/* Both parts only read the byte: several workgroups read it, none wrote. */
static uint32_t merged_state(uint32_t a, uint32_t b)
{
    if (!(a & TAG_MASK))
        return b;
    if (!(b & TAG_MASK))
        return a;
    return SEVERAL | (a & (SITE_MASK << SITE_SHIFT)) | ((a | b) & KINDS);
}

static uint16_t merged_invoker(uint32_t a, uint16_t a_invoker, uint32_t b, uint16_t b_invoker)
{
    if (!(a & TAG_MASK))
        return b_invoker;
    return (b & TAG_MASK) ? SEVERAL_INVOKERS : a_invoker;
}

/* A word either part keeps per byte: merged byte by byte. */
static bool merge_split_word(struct vkmm_device_monitor *m, const struct vkmm_device_monitor *p, uint64_t word)
{
    uint32_t states[WORD];
    uint16_t invokers[WORD];
    for (uint32_t k = 0; k < WORD; k++) {
        uint64_t at = word * WORD + k;
        uint32_t a = m->owner[word] == SPLIT ? m->bytes[at] : m->owner[word];
        uint16_t ai = m->owner[word] == SPLIT ? m->invoker_bytes[at] : m->invoker[word];
        uint32_t b = p->owner[word] == SPLIT ? p->bytes[at] : p->owner[word];
        uint16_t bi = p->owner[word] == SPLIT ? p->invoker_bytes[at] : p->invoker[word];
        if (states_conflict(a, b))
            return false;
        states[k] = merged_state(a, b);
        invokers[k] = merged_invoker(a, ai, b, bi);
    }
    for (uint32_t k = 0; k < WORD; k++) {
        m->bytes[word * WORD + k] = states[k];
        m->invoker_bytes[word * WORD + k] = invokers[k];
    }
    m->owner[word] = SPLIT;
    return true;
}

/* The states of `p`'s chunk go into `m`'s (current, perhaps just zeroed). */
static bool merge_chunk(struct vkmm_device_monitor *m, const struct vkmm_device_monitor *p, uint64_t chunk)
{
    uint64_t first = chunk * CHUNK_WORDS;
    uint64_t end = first + CHUNK_WORDS < m->words ? first + CHUNK_WORDS : m->words;
    for (uint64_t w = first; w < end; w++) {
        uint32_t a = m->owner[w], b = p->owner[w];
        if (!b)
            continue;
        if (a == SPLIT || b == SPLIT) {
            if (!merge_split_word(m, p, w))
                return false;
            continue;
        }
        if (states_conflict(a, b))
            return false;
        m->invoker[w] = merged_invoker(a, m->invoker[w], b, p->invoker[w]);
        m->owner[w] = merged_state(a, b);
    }
    return true;
}

bool vkmm_device_monitor_settle(struct vkmm_device_monitor *m, struct vkmm_device_monitor *const *partners,
                                uint32_t count, const uint8_t *bytes, uint64_t size)
{
    if (!size || bytes < m->base || (uint64_t)(bytes - m->base) > m->size ||
        size > m->size - (uint64_t)(bytes - m->base))
        return true;
    uint64_t offset = (uint64_t)(bytes - m->base);
    uint64_t last_chunk = (offset + size - 1) / WORD / CHUNK_WORDS;
    for (uint64_t chunk = offset / WORD / CHUNK_WORDS; chunk <= last_chunk; chunk++) {
        uint32_t holders = chunk_current(m, chunk);
        for (uint32_t i = 0; i < count; i++)
            holders += chunk_current(partners[i], chunk);
        if (holders < 2)
            continue;
        vkmm_touched_refresh(m->owner, sizeof(uint32_t), m->words, CHUNK_WORDS, m->chunk_generation, m->generation,
                             chunk * CHUNK_WORDS, chunk * CHUNK_WORDS);
        for (uint32_t i = 0; i < count; i++) {
            struct vkmm_device_monitor *p = partners[i];
            if (!chunk_current(p, chunk))
                continue;
            if (!merge_chunk(m, p, chunk))
                return false;
            p->chunk_generation[chunk] = 0; /* its states are m's now */
        }
    }
    return true;
}

void vkmm_device_monitor_join(struct vkmm_device_monitor *m, struct vkmm_device_monitor *const *partners,
                              uint32_t count)
{
    m->partner_count = count < VKMM_DEVICE_MAX_PARTNERS ? count : VKMM_DEVICE_MAX_PARTNERS;
    for (uint32_t i = 0; i < m->partner_count; i++)
        m->partners[i] = partners[i];
}

bool vkmm_device_monitor_eventful(const struct vkmm_device_monitor *m)
{
    return (m->races && (m->races->count || m->races->more)) || vkmm_device_monitor_lost(m) ||
           vkmm_device_monitor_hopeless(m);
}
