/* Availability and visibility below the line API memory dependencies cross
 * (DESIGN §3.1): command writes into write paths, FLUSH of write paths into
 * device memory, INVALIDATE of read paths, and command reads through them.
 *
 * Read paths are implicit.  A read path (stage, access) has, at byte b, the
 * visible seq
 *     max(submit_vis, seq of every global record that covers the path,
 *         seq at b of every buffer-barrier record of the memory that covers it)
 * where a record covers a path when its expanded dst stages and dst access
 * hold every bit the path's stage and access stand for.  This is exactly
 * "each read path keeps the seq of its last invalidation", per byte, without
 * knowing the paths in advance: a record is one INVALIDATE of every path it
 * covers. */
#include <string.h>

#include "memmodel_internal.h"

/* ---- visibility records ------------------------------------------------ */

/* The first range whose end is > b. */
static uint32_t range_find(const struct vkmm_mm_vis_record *r, uint64_t b)
{
    uint32_t lo = 0, hi = r->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (r->ranges[mid].end <= b)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static uint32_t ranges_merge(struct vkmm_mm_range *out, uint32_t n)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (k && out[k - 1].end == out[i].begin && out[k - 1].seq == out[i].seq)
            out[k - 1].end = out[i].end;
        else
            out[k++] = out[i];
    }
    return k;
}

/* [begin, end) gets `seq`, which is >= every seq already there. */
static void record_set(struct vkmm_mm_engine *e, struct vkmm_mm_vis_record *r, uint64_t begin, uint64_t end,
                       uint64_t seq)
{
    struct vkmm_mm_range *out = vkmm_mm_calloc(e, (uint64_t)r->count + 2, sizeof *out);
    if (!out)
        return;
    const struct vkmm_mm_range set = { begin, end, seq };
    uint32_t n = 0;
    bool placed = false;
    for (uint32_t i = 0; i < r->count; i++) {
        struct vkmm_mm_range rg = r->ranges[i];
        if (rg.end <= begin) {
            out[n++] = rg;
            continue;
        }
        if (!placed) {
            if (rg.begin < begin)
                out[n++] = (struct vkmm_mm_range){ rg.begin, begin, rg.seq };
            out[n++] = set;
            placed = true;
        }
        if (rg.begin >= end)
            out[n++] = rg;
        else if (rg.end > end)
            out[n++] = (struct vkmm_mm_range){ end, rg.end, rg.seq };
    }
    if (!placed)
        out[n++] = set;
    vkmm_mm_free(e, r->ranges);
    r->ranges = out;
    r->count = ranges_merge(out, n);
    r->capacity = r->count;
}

static bool record_covers(const struct vkmm_mm_vis_record *r, VkPipelineStageFlags2 stages, VkAccessFlags2 access)
{
    return stages && access && !(stages & ~r->stages) && !(access & ~r->access);
}

/* A global record makes older global records it covers redundant. */
static void global_visibility(struct vkmm_mm_engine *e, VkPipelineStageFlags2 stages, VkAccessFlags2 access)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < e->gvis_count; i++)
        if (!record_covers(&(struct vkmm_mm_vis_record){ .stages = stages, .access = access }, e->gvis[i].stages,
                           e->gvis[i].access))
            e->gvis[k++] = e->gvis[i];
    e->gvis_count = k;
    if (!vkmm_mm_reserve(e, (void **)&e->gvis, &e->gvis_capacity, (uint64_t)k + 1, sizeof *e->gvis))
        return;
    e->gvis[e->gvis_count++] = (struct vkmm_mm_vis_record){ .stages = stages, .access = access, .seq = e->seq };
}

/* 000 Availability, Visibility, and Domain Operations, 3rd bullet: "A
 * visibility operation with source scope of the device domain and
 * destination scope of the second access scope of the dependency."  It sees
 * every version available now, i.e. with seq <= e->seq.  m NULL: global;
 * else a buffer barrier on [begin, end) (004: "memIsSubset(mem, mem_2b)"). */
void vkmm_mm_visibility(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, VkPipelineStageFlags2 stages,
                        VkAccessFlags2 access, uint64_t begin, uint64_t end)
{
    if (!m) {
        global_visibility(e, stages, access);
        return;
    }
    for (uint32_t i = 0; i < m->vis_count; i++) {
        if (m->vis[i].stages == stages && m->vis[i].access == access) {
            record_set(e, &m->vis[i], begin, end, e->seq);
            return;
        }
    }
    if (!vkmm_mm_reserve(e, (void **)&m->vis, &m->vis_capacity, (uint64_t)m->vis_count + 1, sizeof *m->vis))
        return;
    struct vkmm_mm_vis_record *r = &m->vis[m->vis_count++];
    *r = (struct vkmm_mm_vis_record){ .stages = stages, .access = access };
    record_set(e, r, begin, end, e->seq);
}

/* m NULL: the global records. */
void vkmm_mm_visibility_clear(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m)
{
    if (!m) {
        e->gvis_count = 0;
        return;
    }
    for (uint32_t i = 0; i < m->vis_count; i++)
        vkmm_mm_free(e, m->vis[i].ranges);
    m->vis_count = 0;
}

/* Every visible seq any read path may have at a byte of [begin, end) (a
 * superset), into e->scratch. */
bool vkmm_mm_visible_set(struct vkmm_mm_engine *e, const struct vkmm_mm_memory *m, uint64_t begin, uint64_t end,
                         uint32_t *count)
{
    uint64_t need = 1 + (uint64_t)e->gvis_count;
    for (uint32_t i = 0; i < m->vis_count; i++)
        for (uint32_t k = range_find(&m->vis[i], begin); k < m->vis[i].count && m->vis[i].ranges[k].begin < end; k++)
            need++;
    if (!vkmm_mm_reserve(e, (void **)&e->scratch, &e->scratch_capacity, need, sizeof *e->scratch))
        return false;
    uint32_t n = 0;
    e->scratch[n++] = e->submit_vis;
    for (uint32_t i = 0; i < e->gvis_count; i++)
        e->scratch[n++] = e->gvis[i].seq;
    for (uint32_t i = 0; i < m->vis_count; i++)
        for (uint32_t k = range_find(&m->vis[i], begin); k < m->vis[i].count && m->vis[i].ranges[k].begin < end; k++)
            e->scratch[n++] = m->vis[i].ranges[k].seq;
    *count = n;
    return true;
}

/* The visible seq of read path (stage, access) for each byte of [begin, end). */
/* The same when it is one seq for the whole range: no buffer-barrier
 * record raises any byte of it above the global ones (the common case),
 * and *uniform gets it; false otherwise (the caller asks per byte). */
static bool uniform_visible_seq(const struct vkmm_mm_engine *e, const struct vkmm_mm_memory *m,
                                VkPipelineStageFlags2 stage, VkAccessFlags2 access, uint64_t begin, uint64_t end,
                                uint64_t *uniform)
{
    VkPipelineStageFlags2 s = vkmm_mm_expand_stages(e, stage);
    VkAccessFlags2 a = vkmm_mm_expand_access(e, access);
    uint64_t base = e->submit_vis;
    for (uint32_t i = 0; i < e->gvis_count; i++)
        if (record_covers(&e->gvis[i], s, a) && e->gvis[i].seq > base)
            base = e->gvis[i].seq;
    *uniform = base;
    for (uint32_t i = 0; i < m->vis_count; i++) {
        const struct vkmm_mm_vis_record *r = &m->vis[i];
        if (!record_covers(r, s, a))
            continue;
        for (uint32_t k = range_find(r, begin); k < r->count && r->ranges[k].begin < end; k++)
            if (r->ranges[k].seq > base)
                return false;
    }
    return true;
}

static void visible_seqs(const struct vkmm_mm_engine *e, const struct vkmm_mm_memory *m, VkPipelineStageFlags2 stage,
                         VkAccessFlags2 access, uint64_t begin, uint64_t end, uint64_t *vis)
{
    VkPipelineStageFlags2 s = vkmm_mm_expand_stages(e, stage);
    VkAccessFlags2 a = vkmm_mm_expand_access(e, access);
    uint64_t base = e->submit_vis;
    for (uint32_t i = 0; i < e->gvis_count; i++)
        if (record_covers(&e->gvis[i], s, a) && e->gvis[i].seq > base)
            base = e->gvis[i].seq;
    for (uint64_t b = begin; b < end; b++)
        vis[b - begin] = base;
    for (uint32_t i = 0; i < m->vis_count; i++) {
        const struct vkmm_mm_vis_record *r = &m->vis[i];
        if (!record_covers(r, s, a))
            continue;
        for (uint32_t k = range_find(r, begin); k < r->count && r->ranges[k].begin < end; k++) {
            uint64_t lo = r->ranges[k].begin > begin ? r->ranges[k].begin : begin;
            uint64_t hi = r->ranges[k].end < end ? r->ranges[k].end : end;
            for (uint64_t b = lo; b < hi; b++)
                if (r->ranges[k].seq > vis[b - begin])
                    vis[b - begin] = r->ranges[k].seq;
        }
    }
}

/* ---- availability ------------------------------------------------------ */

struct pending {
    uint32_t wts;
    uint32_t path;
};

/* Oldest write last, under every seed: when two paths hold unordered
 * writes to one byte, the one earlier in coherent order lands over the later
 * one, which is the lost update a real cache flush can give.  The other
 * order is the program's expectation, and DESIGN §3 "Manifest" forbids a
 * seed to pick it: seeds choose which wrong result, never none. */
static void order_pending(struct pending *p, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        struct pending x = p[i];
        uint32_t j = i;
        while (j && p[j - 1].wts < x.wts) {
            p[j] = p[j - 1];
            j--;
        }
        p[j] = x;
    }
}

static void path_clean(struct vkmm_mm_engine *e, struct vkmm_mm_write_path *p, uint64_t begin, uint64_t end)
{
    vkmm_mm_meta_fill(e, &p->wts, begin, end, 0);
    p->dirty -= end - begin;
    if (p->dirty == 0) {
        p->lo = UINT64_MAX;
        p->hi = 0;
    }
}

/* 004: "(FLUSH, b, srcStage, srcAccess, mem)" for every write path in the
 * first access scope: its dirty bytes in [begin, end) become available in
 * device memory (000 Availability, Visibility, and Domain Operations, 2nd
 * bullet) with the seq of this operation. */
/* Whether write event `wts` is in the dependency's first synchronization
 * scope; the answer for the last event asked is kept, since dirty bytes
 * come in runs of one writer. */
struct writer_scope {
    const struct vkmm_mm_dependency *dependency;
    uint32_t last_wts;
    bool last_in;
};

static bool writer_in_scope(const struct vkmm_mm_engine *e, struct writer_scope *w, uint32_t wts)
{
    if (!w->dependency || !w->dependency->writers)
        return true;
    if (wts != w->last_wts) {
        w->last_wts = wts;
        w->last_in = w->dependency->writers(w->dependency->writers_user, &e->events[wts].agent);
    }
    return w->last_in;
}

/* The end of the segment from b on which every path in `in_scope` holds
 * one write event (or none). */
static uint64_t segment_end(const struct vkmm_mm_memory *m, const uint32_t *in_scope, uint32_t n, uint64_t b,
                            uint64_t hi)
{
    uint64_t end = hi;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t e = vkmm_mm_meta_run_end(&m->paths[in_scope[i]].wts, b, end);
        end = e < end ? e : end;
    }
    return end;
}

void vkmm_mm_availability(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, VkPipelineStageFlags2 stages,
                          VkAccessFlags2 access, uint64_t begin, uint64_t end, const struct vkmm_mm_dependency *dep)
{
    struct writer_scope writers = { dep, 0, true };
    if (!m->path_count)
        return;
    uint32_t *in_scope = vkmm_mm_calloc(e, m->path_count, sizeof *in_scope);
    struct pending *p = vkmm_mm_calloc(e, m->path_count, sizeof *p);
    uint32_t n = 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t i = 0; in_scope && p && i < m->path_count; i++) {
        const struct vkmm_mm_write_path *w = &m->paths[i];
        if (!w->dirty || w->hi <= begin || w->lo >= end ||
            !vkmm_mm_in_scope(e, stages, access, w->stage, w->access))
            continue;
        in_scope[n++] = i;
        uint64_t path_lo = w->lo > begin ? w->lo : begin;
        uint64_t path_hi = w->hi < end ? w->hi : end;
        lo = path_lo < lo ? path_lo : lo;
        hi = path_hi > hi ? path_hi : hi;
    }
    struct vkmm_mm_run waw;
    vkmm_mm_run_init(e, &waw, VKMM_MM_HAZARD_WRITE_AFTER_WRITE, m, NULL, 0, 0);
    for (uint64_t b = lo; n && b < hi;) {
        uint64_t stop = segment_end(m, in_scope, n, b, hi);
        uint32_t k = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t wts = (uint32_t)vkmm_mm_meta_get(&m->paths[in_scope[i]].wts, b);
            if (wts && writer_in_scope(e, &writers, wts))
                p[k++] = (struct pending){ .wts = wts, .path = in_scope[i] };
        }
        order_pending(p, k);
        for (uint32_t i = 0; i < k; i++) {
            vkmm_mm_device_land(e, m, b, stop, m->paths[p[i].path].value + b, p[i].wts, e->seq, &waw);
            path_clean(e, &m->paths[p[i].path], b, stop);
        }
        b = stop;
    }
    vkmm_mm_run_end(e, &waw);
    vkmm_mm_free(e, in_scope);
    vkmm_mm_free(e, p);
}

/* ---- command accesses --------------------------------------------------- */

/* DESIGN §3.2 "end of a command": "its remaining dirty bytes move to its
 * stage/access write paths — not to device memory".  A whole-command write
 * lands there directly.  000 Availability and Visibility: "(W,L) is
 * initially not available to any memory domain and only visible to
 * (A,R,L)". */
/* A device write of [begin, end) through the path (stage, access) as event
 * `wts`: pending in the path until an availability operation. */
static void path_write(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end,
                       VkPipelineStageFlags2 stage, VkAccessFlags2 access, uint32_t wts, const void *data)
{
    struct vkmm_mm_write_path *w = vkmm_mm_write_path(e, m, stage, access);
    if (!w || !wts)
        return;
    for (uint64_t b = begin; b < end;) {
        uint64_t stop = vkmm_mm_meta_run_end(&w->wts, b, end);
        if (!vkmm_mm_meta_get(&w->wts, b))
            w->dirty += stop - b;
        b = stop;
    }
    vkmm_mm_meta_fill(e, &w->wts, begin, end, wts);
    vkmm_mm_copy(e, w->value + begin, data, end - begin);
    vkmm_mm_coherent_write(m, begin, end, data, wts);
    w->lo = begin < w->lo ? begin : w->lo;
    w->hi = end > w->hi ? end : w->hi;
}

void vkmm_mm_write(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t offset, uint64_t size,
                   VkPipelineStageFlags2 stage, VkAccessFlags2 access, const struct vkmm_mm_agent *agent,
                   const void *data)
{
    uint64_t begin, end;
    if (!vkmm_mm_clamp(m, offset, size, &begin, &end))
        return;
    if (vkmm_mm_is_host_access(stage, access)) {
        vkmm_mm_host_write(e, m, begin, end, agent, data);
        return;
    }
    vkmm_mm_host_absorb(e, m, begin, end);
    path_write(e, m, begin, end, stage, access, vkmm_mm_event_add(e, agent, stage, access), data);
}

/* The transition is a write of the pattern (a fresh one each time, so
 * contents from before never come back) through the copy path, made
 * available and visible to the barrier's second scope at once: the spec
 * orders layout transitions after the first scope's availability
 * operations and before the second scope's visibility operations. */
void vkmm_mm_discard(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t offset, uint64_t size,
                     const struct vkmm_mm_agent *agent, VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access)
{
    uint64_t begin, end;
    if (!vkmm_mm_clamp(m, offset, size, &begin, &end))
        return;
    uint8_t *garbage = vkmm_mm_calloc(e, end - begin, 1);
    if (!garbage)
        return; /* e->status says so; the old contents are one of the results the spec allows */
    vkmm_mm_pattern(e->seed, vkmm_mm_hash(m->id, ++e->discards, 0, 0), begin, garbage, end - begin);
    vkmm_mm_host_absorb(e, m, begin, end);
    uint32_t wts = vkmm_mm_event_add(e, agent, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    if (wts) {
        e->events[wts].discards = true;
        e->last_discard_event = wts;
    }
    path_write(e, m, begin, end, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, wts, garbage);
    vkmm_mm_free(e, garbage);
    struct vkmm_mm_dependency made_visible = {
        .src_stages = VK_PIPELINE_STAGE_2_COPY_BIT,
        .src_access = VK_ACCESS_2_TRANSFER_WRITE_BIT,
        .dst_stages = dst_stages,
        .dst_access = dst_access,
        .memory = m,
        .offset = begin,
        .size = end - begin,
    };
    vkmm_mm_dependency(e, &made_visible);
}

/* Why byte b, read by a device path, differs from the coherent view. */
static enum vkmm_mm_missing classify_device_read(const struct vkmm_mm_engine *e, const struct vkmm_mm_memory *m,
                                                 uint64_t b)
{
    uint64_t w = vkmm_mm_meta_get(&m->coh_wts, b);
    uint64_t dev_wts = vkmm_mm_meta_get(&m->dev_wts, b);
    if (e->events[w].stage == VK_PIPELINE_STAGE_2_HOST_BIT) {
        if (m->host_visible && vkmm_mm_meta_get(&m->host_wts, b) != w && dev_wts != w && !m->host_coherent)
            return VKMM_MM_MISSING_HOST_FLUSH;
        return dev_wts == w ? VKMM_MM_MISSING_VISIBILITY : VKMM_MM_MISSING_HOST_TO_DEVICE;
    }
    if (vkmm_mm_pending_in_path(m, b, (uint32_t)w))
        return VKMM_MM_MISSING_BARRIER;
    return dev_wts == w ? VKMM_MM_MISSING_VISIBILITY : VKMM_MM_MISSING_OVERWRITTEN;
}

/* 002: "making it 'visible' means invalidating a cache so that subsequent
 * reads will be satisfied from that same level": a read path returns, per
 * byte, the newest version with seq <= its visible seq — never its own
 * stage's pending writes (a read path and a write path are different
 * caches).  Under every seed: a cache miss that returned the newer version
 * would be the program's expected answer, which DESIGN §3 "Manifest"
 * forbids a seed to pick. */
struct device_read {
    struct vkmm_mm_run stale, uninitialized;
    bool report;
    uint64_t *suspect;       /* unreported reads: the granules a report could come from */
    uint64_t suspect_origin; /* the granule of bit 0 */
};

static void device_read(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t offset, uint64_t size,
                        VkPipelineStageFlags2 stage, VkAccessFlags2 access, const struct vkmm_mm_agent *agent,
                        void *out, struct device_read *r);

void vkmm_mm_read(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t offset, uint64_t size,
                  VkPipelineStageFlags2 stage, VkAccessFlags2 access, const struct vkmm_mm_agent *agent, void *out)
{
    struct device_read r = { .report = true };
    device_read(e, m, offset, size, stage, access, agent, out, &r);
}

void vkmm_mm_peek(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t offset, uint64_t size,
                  VkPipelineStageFlags2 stage, VkAccessFlags2 access, void *out)
{
    struct device_read r = { .report = false };
    device_read(e, m, offset, size, stage, access, NULL, out, &r);
}

void vkmm_mm_peek_marking(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t offset, uint64_t size,
                          VkPipelineStageFlags2 stage, VkAccessFlags2 access, void *out, uint64_t *suspect,
                          uint64_t suspect_offset)
{
    struct device_read r = { .report = false, .suspect = suspect, .suspect_origin = suspect_offset / VKMM_MM_GRANULE };
    device_read(e, m, offset, size, stage, access, NULL, out, &r);
}

static void mark_suspect(struct device_read *r, uint64_t g)
{
    if (!r->suspect)
        return;
    uint64_t bit = g - r->suspect_origin;
    r->suspect[bit / 64] |= 1ull << (bit % 64);
}

/* A stale granule read with one visible seq V for all its bytes, from a
 * history of whole-granule versions: the newest version older than V, at
 * once.  False when a version has per-byte seqs (the caller goes byte by
 * byte). */
static bool read_older_version(const struct vkmm_mm_memory *m, uint64_t g, uint64_t b, uint64_t n,
                               const uint64_t *vis, uint64_t least, uint8_t *out)
{
    for (uint64_t i = 1; vis && i < n; i++)
        if (vis[i] != least)
            return false;
    for (uint32_t i = m->dev_hist[g]; i; i = m->versions[i].next) {
        const struct vkmm_mm_version *v = &m->versions[i];
        if (v->seqs)
            return false;
        if (v->seq <= least) {
            memcpy(out, v->value + b % VKMM_MM_GRANULE, n);
            return true;
        }
    }
    return false;
}

/* Bytes [b, stop) of one granule, each with its visible seq vis[i] (vis
 * NULL: `uniform` for all). */
static void read_granule(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t b, uint64_t stop,
                         const uint64_t *vis, uint64_t uniform, uint8_t *out, struct device_read *r)
{
    uint64_t g = b / VKMM_MM_GRANULE, n = stop - b;
    uint64_t least = vis ? vis[0] : uniform;
    for (uint64_t i = 1; vis && i < n; i++)
        least = vis[i] < least ? vis[i] : least;
    /* The common granule: its newest version is visible to the path, equal
     * to the coherent view, and written since the allocation and since the
     * last discard (events grow: every write newer than it). */
    if (vkmm_mm_meta_granule_max(&m->dev_seq, g) <= least) {
        memcpy(out, m->dev + b, n);
        if (!r->report && !r->suspect)
            return;
        /* Event 0, the allocation, is never a discard; on host-visible
         * memory it is no uninitialised read either (below). */
        uint64_t oldest = vkmm_mm_meta_granule_min(&m->coh_wts, g);
        bool written = oldest != 0 || m->host_visible, after_discards = oldest > e->last_discard_event ||
                                                                         e->last_discard_event == 0;
        if (!memcmp(out, m->coh + b, n) && written && after_discards)
            return;
        if (!r->report) {
            mark_suspect(r, g);
            return;
        }
    } else if (!r->report && read_older_version(m, g, b, n, vis, least, out)) {
        mark_suspect(r, g);
        return;
    }
    mark_suspect(r, g);
    for (uint64_t i = 0; i < n; i++, b++) {
        out[i] = vkmm_mm_device_value_at(m, b, vis ? vis[i] : uniform);
        if (!r->report)
            continue;
        /* DESIGN §3.4: "Whenever a read returns something else [than the
         * coherent view] ... it records a hazard". */
        uint32_t coh_wts = (uint32_t)vkmm_mm_meta_get(&m->coh_wts, b);
        if (out[i] != m->coh[b])
            vkmm_mm_run_add(e, &r->stale, b, coh_wts, 0, classify_device_read(e, m, b));
        /* Event 0 is the allocation pattern: no write at all reached b.
         * Not for host-visible memory: the engine finds host writes by the
         * bytes they changed, and a host write of the pattern's own value
         * changes none. */
        else if (coh_wts == 0 && !m->host_visible)
            vkmm_mm_run_add(e, &r->uninitialized, b, 0, 0, VKMM_MM_MISSING_INITIALIZATION);
        else if (e->events[coh_wts].discards)
            vkmm_mm_run_add(e, &r->uninitialized, b, coh_wts, 0, VKMM_MM_MISSING_WRITE_AFTER_DISCARD);
    }
}

/* Reads go a chunk at a time: the visible seqs of one chunk at once. */
#define READ_CHUNK 16384u

/* Is whole granule g read_granule's common case for a read path that sees
 * `visible`: its newest version visible, and (when the read is checked)
 * written since the allocation and the last discard? */
static bool common_granule(const struct vkmm_mm_engine *e, const struct vkmm_mm_memory *m, uint64_t g,
                           uint64_t visible, bool checked)
{
    if (vkmm_mm_meta_granule_max(&m->dev_seq, g) > visible)
        return false;
    if (!checked)
        return true;
    uint64_t oldest = vkmm_mm_meta_granule_min(&m->coh_wts, g);
    return (oldest != 0 || m->host_visible) && (oldest > e->last_discard_event || e->last_discard_event == 0);
}

/* Do device memory and the coherent view hold granule g's bytes from one
 * write event each, the same one?  Then they hold the same bytes: every
 * level copies an event's bytes unchanged (allocation, path writes and
 * their landing, host writes absorbed, flushed and landed). */
static bool same_write(const struct vkmm_mm_memory *m, uint64_t g)
{
    uint64_t dev = vkmm_mm_meta_cell(&m->dev_wts, g);
    return !(dev & VKMM_MM_META_DETAIL) && dev == vkmm_mm_meta_cell(&m->coh_wts, g);
}

/* The whole granules from b (granule-aligned) before `end` that are the
 * common case, as read_granule would read them: one copy for the run (a
 * streaming read's granules nearly all are), and a comparison with the
 * coherent view only for granules whose two levels may hold different
 * writes.  Returns where the run ends: b when granule b needs
 * read_granule, which the caller calls for it (linear: a run ends at its
 * first granule that differs from the coherent view). */
static uint64_t read_common_run(const struct vkmm_mm_engine *e, const struct vkmm_mm_memory *m, uint64_t b,
                                uint64_t end, uint64_t visible, uint8_t *out, const struct device_read *r)
{
    bool checked = r->report || r->suspect;
    uint64_t g = b / VKMM_MM_GRANULE, last = end / VKMM_MM_GRANULE, stop = g;
    while (stop < last && common_granule(e, m, stop, visible, checked))
        stop++;
    vkmm_mm_copy(e, out, m->dev + b, (stop - g) * VKMM_MM_GRANULE);
    for (uint64_t k = g; checked && k < stop; k++) {
        uint64_t at = (k - g) * VKMM_MM_GRANULE;
        if (!same_write(m, k) && memcmp(out + at, m->coh + b + at, VKMM_MM_GRANULE))
            return b + at;
    }
    return b + (stop - g) * VKMM_MM_GRANULE;
}

static void device_read(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t offset, uint64_t size,
                        VkPipelineStageFlags2 stage, VkAccessFlags2 access, const struct vkmm_mm_agent *agent,
                        void *out, struct device_read *r)
{
    uint64_t begin, end;
    if (!vkmm_mm_clamp(m, offset, size, &begin, &end))
        return;
    if (vkmm_mm_is_host_access(stage, access)) {
        vkmm_mm_host_read(e, m, begin, end, agent, out);
        return;
    }
    vkmm_mm_host_absorb(e, m, begin, end);
    /* One visible seq for the whole range (no buffer barrier raised part
     * of it): one chunk, no per-byte seqs, runs as long as the range. */
    uint64_t whole_seq;
    bool whole = uniform_visible_seq(e, m, stage, access, begin, end, &whole_seq);
    uint64_t chunk = whole || end - begin < READ_CHUNK ? end - begin : READ_CHUNK;
    uint64_t *vis = whole ? NULL : vkmm_mm_calloc(e, chunk, sizeof *vis);
    if (!whole && !vis) {
        /* Out of host memory (e->status says so): the coherent bytes, fresher
         * than strict as the engine promises, rather than whatever `out`
         * held — a dispatch would run on garbage. */
        memcpy(out, m->coh + begin, end - begin);
        for (uint64_t g = begin / VKMM_MM_GRANULE; g <= (end - 1) / VKMM_MM_GRANULE; g++)
            mark_suspect(r, g);
        return;
    }
    uint8_t *o = out;
    struct vkmm_mm_agent reader = agent ? *agent : (struct vkmm_mm_agent){ .kind = NULL };
    vkmm_mm_run_init(e, &r->stale, VKMM_MM_HAZARD_STALE_READ, m, &reader, stage, access);
    vkmm_mm_run_init(e, &r->uninitialized, VKMM_MM_HAZARD_UNINITIALIZED_READ, m, &reader, stage, access);
    for (uint64_t at = begin; at < end; at += chunk) {
        uint64_t chunk_end = end - at < chunk ? end : at + chunk;
        uint64_t uniform;
        bool one_seq = uniform_visible_seq(e, m, stage, access, at, chunk_end, &uniform);
        if (!one_seq)
            visible_seqs(e, m, stage, access, at, chunk_end, vis);
        for (uint64_t b = at; b < chunk_end;) {
            if (one_seq && b % VKMM_MM_GRANULE == 0) {
                uint64_t run_end = read_common_run(e, m, b, chunk_end, uniform, o + (b - begin), r);
                if (run_end > b) {
                    b = run_end;
                    continue;
                }
            }
            uint64_t g_end = (b / VKMM_MM_GRANULE + 1) * VKMM_MM_GRANULE;
            uint64_t stop = g_end < chunk_end ? g_end : chunk_end;
            read_granule(e, m, b, stop, one_seq ? NULL : vis + (b - at), uniform, o + (b - begin), r);
            b = stop;
        }
    }
    vkmm_mm_run_end(e, &r->stale);
    vkmm_mm_run_end(e, &r->uninitialized);
    vkmm_mm_free(e, vis);
}

void vkmm_mm_read_racing(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t offset, uint64_t size, void *out)
{
    uint64_t begin, end;
    if (!vkmm_mm_clamp(m, offset, size, &begin, &end))
        return;
    vkmm_mm_host_absorb(e, m, begin, end);
    memcpy(out, m->coh + begin, end - begin);
}
