/* A dispatch's exact accesses (DESIGN §3 "Exact accesses"), read from the
 * device-memory monitor's owner states after the dispatch: every device
 * access of a strict-mode shader goes through the monitor's hook, which
 * records the kinds of access each byte saw in this dispatch, so the owner
 * map already says exactly which bytes were read and written.  (Before,
 * shaders also stored a byte per byte accessed into two mark maps that
 * were scanned and cleared after every dispatch: the same knowledge, paid
 * three times.) */
#include <stdlib.h>
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

/* The bytes [from, to) of the address space (whole words where `from` is
 * a word's first byte), their runs relative to `origin` going to `r`; runs
 * still open at `to` stay open. */
static void scan_span(const struct vkmm_device_monitor *m, uint64_t origin, uint64_t from, uint64_t to,
                      struct open_runs *r)
{
    for (uint64_t at = from; at < to;) {
        uint64_t word = at / WORD;
        if (at % WORD || to - at < WORD) {
            /* A word the range covers in part: its bytes one by one. */
            kinds_from(r, at - origin, kinds_of(byte_state(m, at)));
            at++;
            continue;
        }
        uint64_t chunk_end = (word / CHUNK_WORDS + 1) * CHUNK_WORDS, whole_end = to / WORD;
        uint64_t stop = chunk_end < whole_end ? chunk_end : whole_end;
        const struct vkmm_device_monitor *h = holder(m, word);
        if (!h) {
            kinds_from(r, at - origin, 0);
            at = stop * WORD;
            continue;
        }
        uint32_t state = h->owner[word];
        if (state == SPLIT) {
            for (unsigned k = 0; k < WORD; k++)
                kinds_from(r, at - origin + k, kinds_of(h->bytes[at + k]));
            at += WORD;
            continue;
        }
        kinds_from(r, at - origin, kinds_of(state));
        at = same_state_end(h->owner, word + 1, stop, state) * WORD;
    }
}

static bool range_inside(const struct vkmm_device_monitor *m, const uint8_t *bytes, uint64_t size)
{
    return m && bytes >= m->base && (uint64_t)(bytes - m->base) <= m->size &&
           size <= m->size - (uint64_t)(bytes - m->base);
}

void vkmm_device_monitor_scan(const struct vkmm_device_monitor *m, const uint8_t *bytes, uint64_t size,
                              vkmm_device_monitor_run read_run, vkmm_device_monitor_run write_run, void *user)
{
    if (!range_inside(m, bytes, size))
        return;
    uint64_t origin = (uint64_t)(bytes - m->base);
    struct open_runs r = { .read_run = read_run, .write_run = write_run, .user = user };
    scan_span(m, origin, origin, origin + size, &r);
    kinds_from(&r, size, 0);
}

/* --- A large range in pieces ------------------------------------------------------- */

/* Each piece of a large range is scanned on a thread of its own into a
 * list of runs; the lists are then handed out in order, runs that meet at
 * a piece's edge joined.  A piece whose runs outgrow its list (a scattered
 * access: every other word) is scanned again in order instead. */
#define PIECE_BYTES (1ull << 20) /* a multiple of CHUNK_WORDS * WORD */
#define PIECE_RUNS 16384u

struct found_run {
    uint64_t offset, length;
    unsigned kind; /* WROTE or READ_AS_FOUND */
};

struct piece {
    uint64_t from, to; /* address-space offsets */
    struct found_run *runs;
    uint32_t count;
    bool overflow;
};

struct spread {
    const struct vkmm_device_monitor *m;
    uint64_t origin;
    struct piece *pieces;
};

static void found(struct piece *p, unsigned kind, uint64_t offset, uint64_t length)
{
    if (p->overflow)
        return;
    if (!p->runs)
        p->runs = malloc(PIECE_RUNS * sizeof(*p->runs));
    if (!p->runs || p->count == PIECE_RUNS) {
        p->overflow = true;
        return;
    }
    p->runs[p->count++] = (struct found_run){ offset, length, kind };
}

static void found_read(void *user, uint64_t offset, uint64_t length)
{
    found(user, READ_AS_FOUND, offset, length);
}

static void found_write(void *user, uint64_t offset, uint64_t length)
{
    found(user, WROTE, offset, length);
}

static void scan_piece(void *context, uint64_t index)
{
    struct spread *s = context;
    struct piece *p = &s->pieces[index];
    struct open_runs r = { .read_run = found_read, .write_run = found_write, .user = p };
    scan_span(s->m, s->origin, p->from, p->to, &r);
    kinds_from(&r, p->to - s->origin, 0);
}

/* The runs handed out, each held until the next of its kind shows whether
 * they meet. */
struct joined_runs {
    vkmm_device_monitor_run read_run, write_run;
    void *user;
    uint64_t start[2], end[2]; /* [0] reads, [1] writes */
    bool held[2];
};

static void hand_out(struct joined_runs *j, unsigned which)
{
    vkmm_device_monitor_run run = which ? j->write_run : j->read_run;
    if (j->held[which] && run)
        run(j->user, j->start[which], j->end[which] - j->start[which]);
    j->held[which] = false;
}

static void join_run(struct joined_runs *j, unsigned kind, uint64_t offset, uint64_t length)
{
    unsigned which = kind == WROTE;
    if (j->held[which] && j->end[which] == offset) {
        j->end[which] += length;
        return;
    }
    hand_out(j, which);
    j->held[which] = true;
    j->start[which] = offset;
    j->end[which] = offset + length;
}

static void joined_read(void *user, uint64_t offset, uint64_t length)
{
    join_run(user, READ_AS_FOUND, offset, length);
}

static void joined_write(void *user, uint64_t offset, uint64_t length)
{
    join_run(user, WROTE, offset, length);
}

void vkmm_device_monitor_scan_spread(const struct vkmm_device_monitor *m, const uint8_t *bytes, uint64_t size,
                                     vkmm_device_monitor_run read_run, vkmm_device_monitor_run write_run, void *user,
                                     vkmm_device_monitor_parallel parallel, void *parallel_user)
{
    if (!range_inside(m, bytes, size))
        return;
    uint64_t origin = (uint64_t)(bytes - m->base), end = origin + size;
    /* Pieces start at multiples of PIECE_BYTES of the address space: whole
     * words, whole chunks. */
    uint64_t first = origin / PIECE_BYTES, last = (end - 1) / PIECE_BYTES;
    struct piece *pieces = size >= 2 * PIECE_BYTES && parallel ? calloc(last - first + 1, sizeof(*pieces)) : NULL;
    if (!pieces) {
        vkmm_device_monitor_scan(m, bytes, size, read_run, write_run, user);
        return;
    }
    uint64_t count = last - first + 1;
    for (uint64_t i = 0; i < count; i++) {
        pieces[i].from = i ? (first + i) * PIECE_BYTES : origin;
        pieces[i].to = i + 1 < count ? (first + i + 1) * PIECE_BYTES : end;
    }
    struct spread s = { m, origin, pieces };
    parallel(parallel_user, count, scan_piece, &s);
    struct joined_runs j = { .read_run = read_run, .write_run = write_run, .user = user };
    for (uint64_t i = 0; i < count; i++) {
        struct piece *p = &pieces[i];
        if (p->overflow) {
            struct open_runs r = { .read_run = joined_read, .write_run = joined_write, .user = &j };
            scan_span(m, origin, p->from, p->to, &r);
            kinds_from(&r, p->to - origin, 0);
        } else {
            for (uint32_t k = 0; k < p->count; k++)
                join_run(&j, p->runs[k].kind, p->runs[k].offset, p->runs[k].length);
        }
        free(p->runs);
    }
    hand_out(&j, 0);
    hand_out(&j, 1);
    free(pieces);
}
