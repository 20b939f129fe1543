/* A dispatch's exact accesses (DESIGN §3 "Exact accesses"), read from the
 * device-memory monitor's owner states after the dispatch: every device
 * access of a strict-mode shader goes through the monitor's hook, which
 * records the kinds of access each byte saw in this dispatch, so the owner
 * map already says exactly which bytes were read and written.  (Before,
 * shaders also stored a byte per byte accessed into two mark maps that
 * were scanned and cleared after every dispatch: the same knowledge, paid
 * three times.) */
#include <string.h>

#include "device_monitor_state.h"

enum { WROTE = 1u, READ_AS_FOUND = 2u };

/* Which of the scan's kinds a byte's (or whole word's) state stands for.
 * A read counts only when the dispatch did not write the byte first: after
 * its own write it reads what it wrote, not the bytes the command found. */
static unsigned kinds_of(uint32_t state)
{
    unsigned kinds = (state & (PRIVATE_WRITE | SHARED_WRITE)) ? WROTE : 0;
    if ((state & (PRIVATE_READ | SHARED_READ)) && !(state & FIRST_WRITE))
        kinds |= READ_AS_FOUND;
    return kinds;
}

struct open_runs {
    vkmm_device_monitor_run read_run, write_run;
    void *user;
    unsigned kinds;           /* of the bytes before `at` */
    uint64_t read_start, write_start;
};

/* The bytes from `at` on have `kinds`: runs of the kinds that stop here
 * end, runs that start here open. */
static void kinds_from(struct open_runs *r, uint64_t at, unsigned kinds)
{
    unsigned changed = kinds ^ r->kinds;
    if (!changed)
        return;
    if (changed & READ_AS_FOUND) {
        if (kinds & READ_AS_FOUND)
            r->read_start = at;
        else if (r->read_run)
            r->read_run(r->user, r->read_start, at - r->read_start);
    }
    if (changed & WROTE) {
        if (kinds & WROTE)
            r->write_start = at;
        else if (r->write_run)
            r->write_run(r->user, r->write_start, at - r->write_start);
    }
    r->kinds = kinds;
}

/* Which monitor holds the dispatch's states of the chunk of `word`: `m`,
 * or after a dispatch in parts the one part that touched it
 * (device_monitor_parts.c merged chunks two touched into `m`); NULL when
 * none did. */
static const struct vkmm_device_monitor *holder(const struct vkmm_device_monitor *m, uint64_t word)
{
    uint64_t chunk = word / CHUNK_WORDS;
    if (m->chunk_generation[chunk] == m->generation)
        return m;
    for (uint32_t i = 0; i < m->partner_count; i++)
        if (m->partners[i]->chunk_generation[chunk] == m->partners[i]->generation)
            return m->partners[i];
    return NULL;
}

/* The state of the byte at `offset` of the address space in this dispatch. */
static uint32_t byte_state(const struct vkmm_device_monitor *m, uint64_t offset)
{
    uint64_t word = offset / WORD;
    const struct vkmm_device_monitor *h = holder(m, word);
    if (!h)
        return 0;
    uint32_t state = h->owner[word];
    return state == SPLIT ? h->bytes[offset] : state;
}

/* The first word at or after `word` (before `stop`) whose state is not
 * `state`: a streaming dispatch leaves long runs of one state (a subgroup's
 * span is one), compared two words at a time. */
static uint64_t same_state_end(const uint32_t *owner, uint64_t word, uint64_t stop, uint32_t state)
{
    uint64_t pair = (uint64_t)state << 32 | state;
    for (; word + 2 <= stop; word += 2) {
        uint64_t two;
        memcpy(&two, owner + word, sizeof(two));
        if (two != pair)
            break;
    }
    while (word < stop && owner[word] == state)
        word++;
    return word;
}

void vkmm_device_monitor_scan(const struct vkmm_device_monitor *m, const uint8_t *bytes, uint64_t size,
                              vkmm_device_monitor_run read_run, vkmm_device_monitor_run write_run, void *user)
{
    if (!m || bytes < m->base || (uint64_t)(bytes - m->base) > m->size || size > m->size - (uint64_t)(bytes - m->base))
        return;
    uint64_t origin = (uint64_t)(bytes - m->base), end = origin + size;
    struct open_runs r = { .read_run = read_run, .write_run = write_run, .user = user };
    for (uint64_t at = origin; at < end;) {
        uint64_t word = at / WORD;
        if (at % WORD || end - at < WORD) {
            /* A word the range covers in part: its bytes one by one. */
            kinds_from(&r, at - origin, kinds_of(byte_state(m, at)));
            at++;
            continue;
        }
        uint64_t chunk_end = (word / CHUNK_WORDS + 1) * CHUNK_WORDS, whole_end = end / WORD;
        uint64_t stop = chunk_end < whole_end ? chunk_end : whole_end;
        const struct vkmm_device_monitor *h = holder(m, word);
        if (!h) {
            kinds_from(&r, at - origin, 0);
            at = stop * WORD;
            continue;
        }
        uint32_t state = h->owner[word];
        if (state == SPLIT) {
            for (unsigned k = 0; k < WORD; k++)
                kinds_from(&r, at - origin + k, kinds_of(h->bytes[at + k]));
            at += WORD;
            continue;
        }
        kinds_from(&r, at - origin, kinds_of(state));
        at = same_state_end(h->owner, word + 1, stop, state) * WORD;
    }
    kinds_from(&r, size, 0);
}
