/* The host domain and the host view (DESIGN §3.1, last two levels; §3.2 rows
 * vkQueueSubmit, vkFlushMappedMemoryRanges, vkInvalidateMappedMemoryRanges,
 * host-coherent memory).
 *
 * The application writes the view through the mapped pointer behind the
 * engine's back.  The engine finds those writes by comparing the view with
 * what it last placed there (view_base), and enters them into the coherent
 * view at the first engine call that looks at their bytes ("absorbs" them),
 * so a device access to the same bytes is ordered after them. */
#include <string.h>

#include "memmodel_internal.h"

struct vkmm_mm_agent vkmm_mm_host_agent(const struct vkmm_mm_engine *e, const char *kind)
{
    return (struct vkmm_mm_agent){ .queue = VKMM_MM_HOST_QUEUE, .submission = e->submits, .kind = kind };
}

/* Bytes compared at once before looking granule by granule: most bytes of
 * a large memory never change, and one memcmp per granule costs more than
 * the comparison.  A span of COMPARE_SPAN bytes is compared whole first
 * (spread over the engine's threads, bulk.c), then, where it differs, in
 * blocks of COMPARE_BLOCK. */
#define COMPARE_BLOCK 4096u
#define COMPARE_SPAN (4u << 20)

/* The start of the first granule at or after b's (clamped to b and end)
 * where x and y differ, or end.  A span is compared whole only from its
 * start: a caller that goes on after a difference scans the rest of that
 * span by blocks (each span is compared whole once). */
static uint64_t next_differing_granule(const struct vkmm_mm_engine *e, const uint8_t *x, const uint8_t *y,
                                       uint64_t b, uint64_t end)
{
    while (b < end) {
        uint64_t span_end = (b / COMPARE_SPAN + 1) * COMPARE_SPAN;
        span_end = span_end < end ? span_end : end;
        if (b % COMPARE_SPAN == 0 && vkmm_mm_same(e, x + b, y + b, span_end - b)) {
            b = span_end;
            continue;
        }
        while (b < span_end) {
            uint64_t block_end = (b / COMPARE_BLOCK + 1) * COMPARE_BLOCK;
            uint64_t stop = block_end < span_end ? block_end : span_end;
            if (!memcmp(x + b, y + b, stop - b)) {
                b = stop;
                continue;
            }
            for (;;) {
                uint64_t g_end = (b / VKMM_MM_GRANULE + 1) * VKMM_MM_GRANULE;
                uint64_t g_stop = g_end < stop ? g_end : stop;
                if (memcmp(x + b, y + b, g_stop - b))
                    return b;
                b = g_stop;
            }
        }
    }
    return end;
}

/* The first byte at or after b (before end) where x and y differ. */
static uint64_t next_difference(const struct vkmm_mm_engine *e, const uint8_t *x, const uint8_t *y, uint64_t b,
                                uint64_t end)
{
    for (b = next_differing_granule(e, x, y, b, end); b < end; b++)
        if (x[b] != y[b])
            return b;
    return end;
}

/* The first byte at or after b (before end) where x and y agree. */
static uint64_t next_agreement(const uint8_t *x, const uint8_t *y, uint64_t b, uint64_t end)
{
    while (b < end && x[b] != y[b])
        b++;
    return b;
}

/* The bytes of [at, stop) (inside one granule) where x and y differ, as a
 * mask from the granule's start (bit k: its byte k). */
static uint64_t differing_bytes(const uint8_t *x, const uint8_t *y, uint64_t at, uint64_t stop)
{
    uint64_t base = at / VKMM_MM_GRANULE * VKMM_MM_GRANULE, mask = 0;
    if (at == base && stop - at == VKMM_MM_GRANULE) {
        /* A whole granule eight bytes at a time: each byte's difference
         * folded into its low bit, the eight bits gathered by a multiply. */
        for (unsigned w = 0; w < VKMM_MM_GRANULE / 8; w++) {
            uint64_t a, c;
            memcpy(&a, x + at + 8 * w, 8);
            memcpy(&c, y + at + 8 * w, 8);
            uint64_t v = a ^ c;
            v |= v >> 4;
            v |= v >> 2;
            v |= v >> 1;
            v &= 0x0101010101010101ull;
            mask |= (v * 0x0102040810204080ull >> 56) << (8 * w);
        }
        return mask;
    }
    for (uint64_t b = at; b < stop; b++)
        mask |= (uint64_t)(x[b] != y[b]) << (b - base);
    return mask;
}

/* Where x and y differ, piece by piece: a run [from, to) of bytes that all
 * differ (mask 0), or the differing bytes of one granule that holds some
 * that agree (`mask` from the granule's start at `from`).  A host write
 * that left a byte here and there with the value it had (a counter's high
 * bytes) changes granules only in part: their bytes are taken a granule at
 * a time, not one run of a byte or two at a time. */
struct differing_piece {
    uint64_t from, to, mask;
};

/* The next piece of [*b, end), *b moved past it; false when there is none. */
static bool next_differing_piece(const struct vkmm_mm_engine *e, const uint8_t *x, const uint8_t *y, uint64_t *b,
                                 uint64_t end, struct differing_piece *piece)
{
    const uint64_t G = VKMM_MM_GRANULE;
    uint64_t at = next_differing_granule(e, x, y, *b, end);
    if (at >= end)
        return false;
    uint64_t base = at / G * G, stop = base + G < end ? base + G : end;
    uint64_t mask = differing_bytes(x, y, at, stop);
    uint64_t every = (stop - at >= 64 ? ~0ull : (1ull << (stop - at)) - 1) << (at - base);
    if (mask == every)
        *piece = (struct differing_piece){ at, next_agreement(x, y, at, end), 0 };
    else
        *piece = (struct differing_piece){ base, stop, mask };
    *b = piece->to;
    return true;
}

/* What the coherent view has absorbed of the view. */
static const uint8_t *seen(const struct vkmm_mm_memory *m)
{
    return m->view_seen ? m->view_seen : m->view_base;
}

/* view_seen comes into being as a copy of view_base, before it gets ahead;
 * false when out of memory (e->status says so). */
bool vkmm_mm_view_seen_make(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m)
{
    if (m->view_seen)
        return true;
    m->view_seen = vkmm_mm_alloc(e, m->size);
    if (m->view_seen)
        vkmm_mm_copy(e, m->view_seen, m->view_base, m->size);
    return m->view_seen != NULL;
}

/* view_seen equals view_base everywhere again. */
static void seen_drop(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m)
{
    if (m->whole_levels)
        return;
    vkmm_mm_free(e, m->view_seen);
    m->view_seen = NULL;
}

/* The host writes in [begin, end) enter the coherent view, as one host
 * write event (*wts, made at the first of them) per engine call.
 * `flushing`: a flush of the same bytes follows at once, and view_base
 * gets them there (so a memory without view_seen keeps none). */
static void absorb_span(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end,
                        uint32_t *wts, bool flushing)
{
    struct differing_piece p;
    for (uint64_t b = begin; next_differing_piece(e, m->view, seen(m), &b, end, &p);) {
        if (!*wts) {
            struct vkmm_mm_agent host = vkmm_mm_host_agent(e, "host");
            *wts = vkmm_mm_event_add(e, &host, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_WRITE_BIT);
            if (!*wts)
                return;
        }
        if ((m->view_seen || !flushing) && !vkmm_mm_view_seen_make(e, m))
            return;
        if (p.mask) {
            uint64_t g = p.from / VKMM_MM_GRANULE;
            if (m->view_seen)
                vkmm_mm_copy_mask(m->view_seen + p.from, m->view + p.from, p.mask);
            vkmm_mm_meta_write_mask(e, &m->view_wts, g, p.mask, *wts);
            vkmm_mm_coherent_write_mask(m, g, p.mask, m->view + p.from, *wts);
            continue;
        }
        if (m->view_seen)
            memcpy(m->view_seen + p.from, m->view + p.from, p.to - p.from);
        vkmm_mm_meta_fill(e, &m->view_wts, p.from, p.to, *wts);
        vkmm_mm_coherent_write(m, p.from, p.to, m->view + p.from, *wts);
    }
}

void vkmm_mm_host_absorb(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end)
{
    if (!m->host_visible || m->view_quiet)
        return;
    uint32_t wts = 0;
    absorb_span(e, m, begin, end, &wts, false);
}

void vkmm_mm_take_host_writes(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t offset, uint64_t size)
{
    uint64_t begin, end;
    if (vkmm_mm_clamp(m, offset, size, &begin, &end))
        vkmm_mm_host_absorb(e, m, begin, end);
}

void vkmm_mm_host_view_quiet(struct vkmm_mm_memory *m)
{
    m->view_quiet = m->view_all_seen;
}

void vkmm_mm_host_view_open(struct vkmm_mm_memory *m)
{
    m->view_quiet = m->view_all_seen = false;
}

void vkmm_mm_host_changed_runs(const struct vkmm_mm_memory *m, uint64_t offset, uint64_t size,
                               void (*run)(void *user, uint64_t offset, uint64_t length), void *user)
{
    uint64_t begin, end;
    if (!m->host_visible || !vkmm_mm_clamp(m, offset, size, &begin, &end))
        return;
    for (uint64_t b = next_difference(m->engine, m->view, seen(m), begin, end); b < end;
         b = next_difference(m->engine, m->view, seen(m), b, end)) {
        uint64_t stop = next_agreement(m->view, seen(m), b, end);
        run(user, b, stop - b);
        b = stop;
    }
}

/* A host write the caller describes (vkmm_mm_write with the HOST stage):
 * the bytes go into the view as if written through the mapped pointer. */
void vkmm_mm_host_write(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end,
                        const struct vkmm_mm_agent *agent, const uint8_t *data)
{
    if (!m->host_visible)
        return;
    vkmm_mm_host_view_open(m);
    vkmm_mm_host_absorb(e, m, begin, end);
    uint32_t wts = vkmm_mm_event_add(e, agent, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_WRITE_BIT);
    if (!wts || !vkmm_mm_view_seen_make(e, m))
        return;
    memcpy(m->view + begin, data, end - begin);
    memcpy(m->view_seen + begin, data, end - begin);
    vkmm_mm_meta_fill(e, &m->view_wts, begin, end, wts);
    vkmm_mm_coherent_write(m, begin, end, data, wts);
}

/* The differing bytes of granule g in `mask` go to the host domain, each
 * with the host write that made it. */
static void flush_granule(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t g, uint64_t mask)
{
    uint64_t base = g * VKMM_MM_GRANULE;
    vkmm_mm_host_own(e, m, base, base + VKMM_MM_GRANULE < m->size ? base + VKMM_MM_GRANULE : m->size, false);
    vkmm_mm_copy_mask(m->host + base, m->view + base, mask);
    vkmm_mm_copy_mask(m->view_base + base, m->view + base, mask);
    vkmm_mm_meta_write_mask(e, &m->host_seq, g, mask, e->seq);
    while (mask) {
        uint64_t wts = vkmm_mm_meta_get(&m->view_wts, base + (uint64_t)__builtin_ctzll(mask));
        uint64_t same = vkmm_mm_meta_mask_of(&m->view_wts, g, mask, wts);
        vkmm_mm_meta_write_mask(e, &m->host_wts, g, same, wts);
        mask &= ~same;
    }
}

/* 000: "vkFlushMappedMemoryRanges performs an availability operation, with a
 * source scope of (agents,references) = (all host threads, all mapped memory
 * ranges passed to the command), and destination scope of the host domain."
 * DESIGN §3.2: "for the bytes the host changed in the range".  Uses e->seq. */
static void flush_span(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end)
{
    struct differing_piece p;
    for (uint64_t b = begin; next_differing_piece(e, m->view, m->view_base, &b, end, &p);) {
        m->host_ahead = true;
        if (p.mask) {
            flush_granule(e, m, p.from / VKMM_MM_GRANULE, p.mask);
            continue;
        }
        vkmm_mm_host_own(e, m, p.from, p.to, false);
        memcpy(m->host + p.from, m->view + p.from, p.to - p.from);
        memcpy(m->view_base + p.from, m->view + p.from, p.to - p.from);
        vkmm_mm_meta_fill(e, &m->host_seq, p.from, p.to, e->seq);
        for (uint64_t at = p.from; at < p.to;) {
            uint64_t run_end = vkmm_mm_meta_run_end(&m->view_wts, at, p.to);
            vkmm_mm_meta_fill(e, &m->host_wts, at, run_end, vkmm_mm_meta_get(&m->view_wts, at));
            at = run_end;
        }
    }
}

static void flush_range(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end)
{
    uint32_t wts = 0;
    if (m->view_seen) {
        absorb_span(e, m, begin, end, &wts, true);
        flush_span(e, m, begin, end);
    } else {
        /* view_base is view_seen: a granule whose view equals view_base
         * has nothing to absorb and nothing to flush (one pass, not two,
         * over a mapped memory the host did not touch). */
        for (uint64_t b = next_differing_granule(e, m->view, m->view_base, begin, end); b < end;
             b = next_differing_granule(e, m->view, m->view_base, b, end)) {
            uint64_t g_end = (b / VKMM_MM_GRANULE + 1) * VKMM_MM_GRANULE;
            uint64_t stop = g_end < end ? g_end : end;
            absorb_span(e, m, b, stop, &wts, true);
            flush_span(e, m, b, stop);
            b = stop;
        }
    }
    /* After a whole-memory flush view_base, view_seen and the view agree. */
    if (begin == 0 && end == m->size) {
        seen_drop(e, m);
        m->view_all_seen = true;
    }
}

/* The view shows the host domain over [begin, end): granules where every
 * level already agrees are left alone (their pages stay untouched). */
static void view_place(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end)
{
    for (uint64_t b = begin; b < end;) {
        uint64_t g_end = (b / VKMM_MM_GRANULE + 1) * VKMM_MM_GRANULE;
        uint64_t stop = g_end < end ? g_end : end, n = stop - b;
        const uint8_t *host = vkmm_mm_host_bytes(m, b);
        if (memcmp(m->view + b, host, n) || memcmp(m->view_base + b, host, n) ||
            (m->view_seen && memcmp(m->view_seen + b, host, n))) {
            memcpy(m->view + b, host, n);
            memcpy(m->view_base + b, host, n);
            if (m->view_seen)
                memcpy(m->view_seen + b, host, n);
        }
        b = stop;
    }
    if (begin == 0 && end == m->size)
        seen_drop(e, m);
}

void vkmm_mm_flush(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t offset, uint64_t size)
{
    uint64_t begin, end;
    if (!m->host_visible || !vkmm_mm_clamp(m, offset, size, &begin, &end))
        return;
    vkmm_mm_host_view_open(m);
    e->seq++;
    flush_range(e, m, begin, end);
}

/* 000: "vkInvalidateMappedMemoryRanges performs a visibility operation, with
 * a source scope of the host domain and a destination scope of
 * (agents,references) = (all host threads, all mapped memory ranges passed
 * to the command)."  The view shows the host domain; for non-coherent memory
 * host writes there that were never flushed are lost (DESIGN §3.2).
 * Host-coherent memory flushes implicitly, so loses nothing. */
void vkmm_mm_invalidate(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t offset, uint64_t size)
{
    uint64_t begin, end;
    if (!m->host_visible || !vkmm_mm_clamp(m, offset, size, &begin, &end))
        return;
    vkmm_mm_host_view_open(m);
    if (m->host_coherent) {
        e->seq++;
        flush_range(e, m, begin, end);
    } else {
        vkmm_mm_host_absorb(e, m, begin, end);
    }
    struct vkmm_mm_agent host = vkmm_mm_host_agent(e, "vkInvalidateMappedMemoryRanges");
    struct vkmm_mm_run run;
    vkmm_mm_run_init(e, &run, VKMM_MM_HAZARD_UNFLUSHED_HOST_WRITE, m, &host, VK_PIPELINE_STAGE_2_HOST_BIT,
                     VK_ACCESS_2_HOST_READ_BIT);
    for (uint64_t b = next_difference(e, m->view, m->view_base, begin, end); b < end;
         b = next_difference(e, m->view, m->view_base, b + 1, end))
        vkmm_mm_run_add(e, &run, b, (uint32_t)vkmm_mm_meta_get(&m->view_wts, b), 0,
                        VKMM_MM_MISSING_FLUSH_BEFORE_INVALIDATE);
    view_place(e, m, begin, end);
    vkmm_mm_run_end(e, &run);
}

/* Is granule g, whole, newer in the host domain than in device memory by
 * one host write: both host metas uniform there, its seq above every
 * device byte's? */
static bool whole_granule_newer(const struct vkmm_mm_memory *m, uint64_t g, uint64_t wts)
{
    uint64_t seq = vkmm_mm_meta_cell(&m->host_seq, g);
    return !(seq & VKMM_MM_META_DETAIL) && vkmm_mm_meta_cell(&m->host_wts, g) == wts &&
           seq > vkmm_mm_meta_granule_max(&m->dev_seq, g);
}

/* The bytes of granule g in [b, g_end) that are newer in the host domain
 * than in device memory land, at once for each host write among them. */
static void land_newer_bytes(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t g, uint64_t b,
                             uint64_t g_end, struct vkmm_mm_run *waw)
{
    uint64_t host[VKMM_MM_GRANULE], dev[VKMM_MM_GRANULE], base = g * VKMM_MM_GRANULE, newer = 0;
    vkmm_mm_meta_granule_values(&m->host_seq, g, host);
    vkmm_mm_meta_granule_values(&m->dev_seq, g, dev);
    for (uint64_t k = b - base; k < g_end - base; k++)
        newer |= (uint64_t)(host[k] > dev[k]) << k;
    while (newer) {
        uint64_t wts = vkmm_mm_meta_get(&m->host_wts, base + (uint64_t)__builtin_ctzll(newer));
        uint64_t same = vkmm_mm_meta_mask_of(&m->host_wts, g, newer, wts);
        vkmm_mm_device_land_mask(e, m, g, same, vkmm_mm_host_bytes(m, base), (uint32_t)wts, e->seq, waw);
        newer &= ~same;
    }
}

#define WHOLE_LANDING (1ull << 20)

/* The end of the run of whole granules from b (at a granule's start, before
 * `end`) that one host write made newer than device memory, within one
 * source of host bytes; b when there is none.  Such a run lands at once:
 * the host's upload of a large buffer is one landing, not one per
 * granule. */
static uint64_t whole_newer_granules(const struct vkmm_mm_memory *m, uint64_t b, uint64_t end)
{
    const uint64_t G = VKMM_MM_GRANULE;
    uint64_t wts = vkmm_mm_meta_cell(&m->host_wts, b / G);
    if (b % G || (wts & VKMM_MM_META_DETAIL) || end - b < G || !whole_granule_newer(m, b / G, wts))
        return b;
    /* At most WHOLE_LANDING bytes at once: the source's run is looked up
     * page by page. */
    uint64_t limit = end - b > WHOLE_LANDING ? b + WHOLE_LANDING : end;
    uint64_t stop = vkmm_mm_host_run_end(m, b, limit) / G * G; /* whole granules only (a short last one is not) */
    uint64_t at = b;
    while (at + G <= stop && whole_granule_newer(m, at / G, wts))
        at += G;
    return at;
}

/* 000: a memory domain operation from host to device makes the writes
 * available in the host domain available in the device domain.  Host-
 * coherent memory first flushes implicitly ("vkFlushMappedMemoryRanges ...
 * not needed to flush host writes to the device").  Uses e->seq. */
void vkmm_mm_host_to_device(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end)
{
    if (!m->host_visible)
        return;
    if (m->host_coherent)
        flush_range(e, m, begin, end);
    if (!m->host_ahead)
        return;
    bool dev_ahead = m->dev_ahead;
    struct vkmm_mm_run waw;
    vkmm_mm_run_init(e, &waw, VKMM_MM_HAZARD_WRITE_AFTER_WRITE, m, NULL, 0, 0);
    uint64_t last = (end + VKMM_MM_GRANULE - 1) / VKMM_MM_GRANULE;
    for (uint64_t b = begin; b < end;) {
        uint64_t g = b / VKMM_MM_GRANULE;
        uint64_t g_end = (g + 1) * VKMM_MM_GRANULE < end ? (g + 1) * VKMM_MM_GRANULE : end;
        uint64_t next = vkmm_mm_meta_first_above(&m->host_seq, &m->dev_seq, g, last);
        if (next > g) {
            b = next * VKMM_MM_GRANULE < end ? next * VKMM_MM_GRANULE : end;
            continue;
        }
        if (vkmm_mm_meta_granule_max(&m->host_seq, g) <= vkmm_mm_meta_granule_min(&m->dev_seq, g)) {
            b = g_end;
            continue;
        }
        uint64_t whole = whole_newer_granules(m, b, end);
        if (whole > b) {
            vkmm_mm_device_land(e, m, b, whole, vkmm_mm_host_bytes(m, b), (uint32_t)vkmm_mm_meta_cell(&m->host_wts, g),
                                e->seq, &waw);
            b = whole;
            continue;
        }
        land_newer_bytes(e, m, g, b, g_end, &waw);
        b = g_end;
    }
    vkmm_mm_run_end(e, &waw);
    if (begin != 0 || end != m->size)
        return;
    m->host_ahead = false;
    /* Bytes that came from the host domain leave device memory no newer
     * than it: if it was not ahead before, the two levels agree now. */
    m->dev_ahead = dev_ahead;
    if (!dev_ahead)
        vkmm_mm_host_share(m);
}

/* The end of the run from b (before end) over which the device seq, its
 * writer and the host seq each keep b's value.  The three are walked
 * together, whole uniform granules at a time, and the walk stops in the
 * first granule where one of them changes: each granule is looked at once
 * however the runs interleave (one meta's run followed alone to its end
 * before the others cut it made a memory whose host seqs alternate
 * quadratic). */
static uint64_t joint_run_end(const struct vkmm_mm_memory *m, uint64_t b, uint64_t end)
{
    const struct vkmm_mm_meta *metas[3] = { &m->dev_seq, &m->dev_wts, &m->host_seq };
    uint64_t value[3];
    for (int i = 0; i < 3; i++)
        value[i] = vkmm_mm_meta_get(metas[i], b);
    uint64_t last = (end + VKMM_MM_GRANULE - 1) / VKMM_MM_GRANULE;
    for (uint64_t at = b; at < end;) {
        uint64_t g = at / VKMM_MM_GRANULE;
        uint64_t g_end = (g + 1) * VKMM_MM_GRANULE < end ? (g + 1) * VKMM_MM_GRANULE : end;
        /* Whole granules of the three values, eight cells at a time, 256
         * granules a step (so that one meta's long run costs no more than
         * the others' short ones). */
        uint64_t next = g + 256 < last ? g + 256 : last;
        for (int i = 0; i < 3 && next > g; i++)
            next = vkmm_mm_meta_uniform_end(metas[i], g, next, value[i]);
        if (next > g) {
            at = next * VKMM_MM_GRANULE;
            continue;
        }
        for (; at < g_end; at++)
            for (int i = 0; i < 3; i++)
                if (vkmm_mm_meta_get(metas[i], at) != value[i])
                    return at;
    }
    return end;
}

/* The bytes of granule g in [b, g_end) that are newer in device memory
 * than in the host domain move there (`copy`: their values too), one
 * masked write per device seq and writer among them: a granule whose host
 * seqs differ byte by byte (a host rewrite that changed some bytes) is one
 * step, not one per run of a byte or two. */
static void device_to_host_granule(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t g, uint64_t b,
                                   uint64_t g_end, bool copy)
{
    uint64_t dev[VKMM_MM_GRANULE], host[VKMM_MM_GRANULE], wts[VKMM_MM_GRANULE];
    uint64_t base = g * VKMM_MM_GRANULE, newer = 0;
    vkmm_mm_meta_granule_values(&m->dev_seq, g, dev);
    vkmm_mm_meta_granule_values(&m->host_seq, g, host);
    vkmm_mm_meta_granule_values(&m->dev_wts, g, wts);
    for (uint64_t k = b - base; k < g_end - base; k++)
        newer |= (uint64_t)(dev[k] > host[k]) << k;
    if (!newer)
        return;
    m->host_from_device = true;
    if (copy) {
        vkmm_mm_host_own(e, m, base, g_end, false);
        vkmm_mm_copy_mask(m->host + base, m->dev + base, newer);
    }
    while (newer) {
        unsigned first = (unsigned)__builtin_ctzll(newer);
        uint64_t same = 0;
        for (unsigned k = first; k < VKMM_MM_GRANULE; k++)
            same |= (uint64_t)((newer >> k & 1) && dev[k] == dev[first] && wts[k] == wts[first]) << k;
        vkmm_mm_meta_write_mask(e, &m->host_seq, g, same, dev[first]);
        vkmm_mm_meta_write_mask(e, &m->host_wts, g, same, wts[first]);
        newer &= ~same;
    }
}

/* 000: a memory domain operation from device to host: what is available in
 * device memory becomes available in the host domain, unless the host
 * domain holds a newer version (a flushed host write not yet moved). */
void vkmm_mm_device_to_host(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end)
{
    if (!m->host_visible || !m->dev_ahead)
        return;
    /* Over the whole memory with no host byte ahead, the host level equals
     * device memory afterwards: it shares device memory's bytes instead of
     * copying them. */
    bool meets = begin == 0 && end == m->size && !m->host_ahead && !m->whole_levels;
    /* Runs over which the device seq, its writer and the host seq are each
     * one value (a whole written buffer is one run). */
    for (uint64_t b = begin; b < end;) {
        uint64_t seq = vkmm_mm_meta_get(&m->dev_seq, b), host_seq = vkmm_mm_meta_get(&m->host_seq, b);
        uint64_t stop = joint_run_end(m, b, end);
        uint64_t g_end = (b / VKMM_MM_GRANULE + 1) * VKMM_MM_GRANULE;
        if (stop < g_end && stop < end) {
            /* Runs shorter than the rest of the granule: it goes whole. */
            g_end = g_end < end ? g_end : end;
            device_to_host_granule(e, m, b / VKMM_MM_GRANULE, b, g_end, !meets);
            b = g_end;
            continue;
        }
        if (seq > host_seq) {
            m->host_from_device = true;
            if (!meets) {
                vkmm_mm_host_own(e, m, b, stop, false);
                vkmm_mm_copy(e, m->host + b, m->dev + b, stop - b);
            }
            vkmm_mm_meta_fill(e, &m->host_seq, b, stop, seq);
            vkmm_mm_meta_fill(e, &m->host_wts, b, stop, vkmm_mm_meta_get(&m->dev_wts, b));
        }
        b = stop;
    }
    if (begin == 0 && end == m->size)
        m->dev_ahead = false;
    if (meets)
        vkmm_mm_host_share(m);
}

/* 000: "vkQueueSubmit performs a memory domain operation from host to
 * device, and a visibility operation with source scope of the device domain
 * and destination scope of all agents and references on the device."  After
 * it no read path can see an overwritten version: the visibility records
 * and the undo logs start afresh. */
void vkmm_mm_submit(struct vkmm_mm_engine *e)
{
    vkmm_mm_submit_memories(e, e->memories, e->memory_count);
}

void vkmm_mm_submit_memories(struct vkmm_mm_engine *e, struct vkmm_mm_memory *const *memories, uint32_t count)
{
    e->seq++;
    /* The history cleared below would hold what these landings replace. */
    e->landing_without_history = true;
    for (uint32_t i = 0; i < count; i++) {
        vkmm_mm_host_view_open(memories[i]);
        vkmm_mm_host_to_device(e, memories[i], 0, memories[i]->size);
    }
    e->landing_without_history = false;
    e->submit_vis = e->seq;
    vkmm_mm_visibility_clear(e, NULL);
    for (uint32_t i = 0; i < e->memory_count; i++) {
        vkmm_mm_visibility_clear(e, e->memories[i]);
        vkmm_mm_history_clear(e->memories[i]);
    }
    e->submits++;
}

/* DESIGN §3.2 "host-coherent memory: flush/invalidate are implicit, but the
 * device→host domain operation still requires a HOST_READ dependency".  The
 * implicit invalidate happens when the host observes completion. */
void vkmm_mm_host_signal(struct vkmm_mm_engine *e)
{
    e->seq++;
    for (uint32_t i = 0; i < e->memory_count; i++) {
        vkmm_mm_host_view_open(e->memories[i]);
        vkmm_mm_host_to_device(e, e->memories[i], 0, e->memories[i]->size);
    }
}

void vkmm_mm_set_host_wait_reads(struct vkmm_mm_engine *e, bool enabled)
{
    e->host_wait_reads = enabled;
}

/* view_place right after flush_range: the view then equals view_base and
 * view_seen everywhere (the flush took every host write in), so one
 * comparison per granule finds where the host domain moved. */
static void view_place_flushed_run(const struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin,
                                   uint64_t end, const uint8_t *host)
{
    /* Runs of differing granules are copied at once; granules that agree
     * are not written (another host thread may be writing bytes of this
     * memory the device did not touch). */
    for (uint64_t b = next_differing_granule(e, m->view, host, begin, end); b < end;
         b = next_differing_granule(e, m->view, host, b, end)) {
        uint64_t stop = b;
        while (stop < end) {
            uint64_t g_end = (stop / VKMM_MM_GRANULE + 1) * VKMM_MM_GRANULE;
            uint64_t g_stop = g_end < end ? g_end : end;
            if (stop > b && !memcmp(m->view + stop, host + stop, g_stop - stop))
                break;
            stop = g_stop;
        }
        vkmm_mm_copy(e, m->view + b, host + b, stop - b);
        vkmm_mm_copy(e, m->view_base + b, host + b, stop - b);
        if (m->view_seen)
            vkmm_mm_copy(e, m->view_seen + b, host + b, stop - b);
        b = stop;
    }
}

/* Each run of own or shared pages from its own source. */
static void view_place_flushed(const struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin,
                               uint64_t end)
{
    for (uint64_t b = begin; b < end;) {
        uint64_t stop = vkmm_mm_host_run_end(m, b, end);
        view_place_flushed_run(e, m, b, stop, vkmm_mm_host_bytes(m, b) - b);
        b = stop;
    }
}

void vkmm_mm_host_wait(struct vkmm_mm_engine *e)
{
    e->seq++;
    for (uint32_t i = 0; i < e->memory_count; i++) {
        struct vkmm_mm_memory *m = e->memories[i];
        /* Quiet: the host could not touch the view since a whole-memory
         * flush took it all in (the caller vouched for it), so the flush
         * below would find nothing. */
        bool quiet = m->view_quiet;
        vkmm_mm_host_view_open(m);
        if (e->host_wait_reads)
            vkmm_mm_device_to_host(e, m, 0, m->size);
        /* No device bytes to show: the view is left alone, unread (another
         * thread may be writing it; its writes are absorbed by the next
         * engine call that concerns this memory). */
        if (!m->host_coherent || !m->host_from_device)
            continue;
        m->host_from_device = false;
        if (!quiet)
            flush_range(e, m, 0, m->size);
        view_place_flushed(e, m, 0, m->size);
    }
}

/* Why byte b of the view differs from the coherent view. */
static enum vkmm_mm_missing classify_host_read(const struct vkmm_mm_engine *e, const struct vkmm_mm_memory *m,
                                               uint64_t b)
{
    uint64_t w = vkmm_mm_meta_get(&m->coh_wts, b);
    uint64_t host_wts = vkmm_mm_meta_get(&m->host_wts, b);
    if (e->events[w].stage == VK_PIPELINE_STAGE_2_HOST_BIT)
        return host_wts == w ? VKMM_MM_MISSING_HOST_VISIBILITY : VKMM_MM_MISSING_FLUSH_BEFORE_INVALIDATE;
    if (vkmm_mm_pending_in_path(m, b, (uint32_t)w))
        return VKMM_MM_MISSING_BARRIER;
    if (host_wts == w)
        return VKMM_MM_MISSING_HOST_VISIBILITY;
    return vkmm_mm_meta_get(&m->dev_wts, b) == w ? VKMM_MM_MISSING_DEVICE_TO_HOST : VKMM_MM_MISSING_OVERWRITTEN;
}

/* 000 Location-Ordered, last bullet, write->read: a device write X reaches a
 * host read Y only via AV(device) -> DOM(device, host) -> VIS(host). */
static bool check_view(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end,
                       const struct vkmm_mm_agent *reader)
{
    vkmm_mm_host_absorb(e, m, begin, end);
    struct vkmm_mm_run run, no_dependency;
    vkmm_mm_run_init(e, &run, VKMM_MM_HAZARD_HOST_STALE_READ, m, reader, VK_PIPELINE_STAGE_2_HOST_BIT,
                     VK_ACCESS_2_HOST_READ_BIT);
    vkmm_mm_run_init(e, &no_dependency, VKMM_MM_HAZARD_HOST_READ_NO_DEPENDENCY, m, reader,
                     VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    bool ok = true;
    for (uint64_t b = next_difference(e, m->view, m->coh, begin, end); b < end;
         b = next_difference(e, m->view, m->coh, b + 1, end)) {
        ok = false;
        enum vkmm_mm_missing missing = classify_host_read(e, m, b);
        vkmm_mm_run_add(e, missing == VKMM_MM_MISSING_DEVICE_TO_HOST ? &no_dependency : &run, b,
                        (uint32_t)vkmm_mm_meta_get(&m->coh_wts, b), 0, missing);
    }
    vkmm_mm_run_end(e, &run);
    vkmm_mm_run_end(e, &no_dependency);
    return ok;
}

bool vkmm_mm_check_host_read(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t offset, uint64_t size)
{
    uint64_t begin, end;
    if (!m->host_visible || !vkmm_mm_clamp(m, offset, size, &begin, &end))
        return true;
    vkmm_mm_host_view_open(m);
    struct vkmm_mm_agent host = vkmm_mm_host_agent(e, "host");
    return check_view(e, m, begin, end, &host);
}

/* A host read the caller describes (vkmm_mm_read with the HOST stage): the
 * view's bytes, checked against the coherent view. */
void vkmm_mm_host_read(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end,
                       const struct vkmm_mm_agent *agent, uint8_t *out)
{
    if (!m->host_visible)
        return;
    vkmm_mm_host_view_open(m);
    vkmm_mm_host_absorb(e, m, begin, end);
    memcpy(out, m->view + begin, end - begin);
    struct vkmm_mm_agent reader = agent ? *agent : vkmm_mm_host_agent(e, "host");
    check_view(e, m, begin, end, &reader);
}
