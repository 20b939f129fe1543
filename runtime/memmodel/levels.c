/* The levels of the strict machine (DESIGN §3.1): the engine and its
 * memories, device memory as a versioned store with a bounded undo log, the
 * stage/access write paths, the coherent view, and the write events that
 * name writers in reports. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "memmodel_internal.h"

/* ---- allocation ------------------------------------------------------- */

/* 64-byte aligned: the host view is what vkMapMemory returns, and
 * minMemoryMapAlignment is 64. */
static void *raw_alloc(const VkAllocationCallbacks *a, bool has, size_t size)
{
    size = (size ? size + 63 : 64) & ~(size_t)63;
    return has ? a->pfnAllocation(a->pUserData, size, 64, VK_SYSTEM_ALLOCATION_SCOPE_DEVICE) : aligned_alloc(64, size);
}

void *vkmm_mm_alloc(struct vkmm_mm_engine *e, size_t size)
{
    void *p = raw_alloc(&e->allocator, e->has_allocator, size);
    if (!p)
        e->status = VK_ERROR_OUT_OF_HOST_MEMORY;
    return p;
}

/* count * elem zeroed bytes.  Without application callbacks and with no
 * alignment asked for, calloc: large zeroed blocks come as fresh pages,
 * touched only where strict mode records something (most per-byte state
 * of a large buffer never is).  `aligned`: 64-byte aligned, which only
 * vkmm_mm_alloc gives. */
static void *zeroed(struct vkmm_mm_engine *e, uint64_t count, size_t elem, bool aligned)
{
    if (count > SIZE_MAX / elem) {
        e->status = VK_ERROR_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    bool from_calloc = !e->has_allocator && !aligned;
    void *p = from_calloc ? calloc(count ? count : 1, elem) : vkmm_mm_alloc(e, (size_t)count * elem);
    if (!p)
        e->status = VK_ERROR_OUT_OF_HOST_MEMORY;
    else if (!from_calloc)
        memset(p, 0, (size_t)count * elem);
    return p;
}

void *vkmm_mm_calloc(struct vkmm_mm_engine *e, uint64_t count, size_t elem)
{
    return zeroed(e, count, elem, false);
}

/* The host view: minMemoryMapAlignment. */
void *vkmm_mm_calloc_aligned(struct vkmm_mm_engine *e, uint64_t count, size_t elem)
{
    return zeroed(e, count, elem, true);
}

void vkmm_mm_free(struct vkmm_mm_engine *e, void *p)
{
    if (!p)
        return;
    if (e->has_allocator)
        e->allocator.pfnFree(e->allocator.pUserData, p);
    else
        free(p);
}

bool vkmm_mm_reserve_grow(struct vkmm_mm_engine *e, void **array, uint32_t *capacity, uint64_t need, size_t elem)
{
    uint64_t cap = *capacity ? *capacity : 4;
    while (cap < need)
        cap *= 2;
    if (cap > UINT32_MAX || cap > SIZE_MAX / elem) {
        e->status = VK_ERROR_OUT_OF_HOST_MEMORY;
        return false;
    }
    size_t bytes = (size_t)cap * elem;
    void *p = e->has_allocator ? e->allocator.pfnReallocation(e->allocator.pUserData, *array, bytes, 16,
                                                               VK_SYSTEM_ALLOCATION_SCOPE_DEVICE)
                               : realloc(*array, bytes);
    if (!p) {
        e->status = VK_ERROR_OUT_OF_HOST_MEMORY;
        return false;
    }
    *array = p;
    *capacity = (uint32_t)cap;
    return true;
}

/* ---- determinism helpers ---------------------------------------------- */

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Every seeded choice hashes values only: never pointers or time. */
uint64_t vkmm_mm_hash(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    return mix64(a ^ mix64(b ^ mix64(c ^ mix64(d + 0x9e3779b97f4a7c15ull))));
}

/* DESIGN §3.2 "allocation": "new memory starts with a deterministic non-zero
 * pattern, so 'forgot to initialize' shows".  The top byte of every aligned
 * 32-bit word has its high bit set, whatever the seed: read as a count or
 * an index the word is at least 2^31 (a stale indirect dispatch is beyond
 * every limit, a stale index out of range), as a float it is negative — so
 * a stale read of never-written bytes is a wrong answer on every seed, not
 * on most. */
void vkmm_mm_pattern(uint64_t seed, uint64_t id, uint64_t offset, uint8_t *out, uint64_t size)
{
    uint64_t h = 0;
    for (uint64_t i = 0; i < size; i++) {
        uint64_t b = offset + i;
        if (i == 0 || (b & 7) == 0)
            h = vkmm_mm_hash(seed, id, b >> 3, 0x5041545445524eull);
        uint8_t v = (uint8_t)(h >> ((b & 7) * 8));
        if ((b & 3) == 3)
            v |= 0x80;
        out[i] = v ? v : 0xa5;
    }
}

const char *vkmm_mm_intern(struct vkmm_mm_engine *e, const char *kind)
{
    if (!kind)
        return NULL;
    for (uint32_t i = 0; i < e->kind_count; i++)
        if (!strcmp(e->kinds[i], kind))
            return e->kinds[i];
    /* A name that cannot be kept is "unknown" in reports: nothing else
     * depends on it, so the failure leaves the engine's status alone. */
    VkResult status = e->status;
    size_t n = strlen(kind) + 1;
    char *copy = NULL;
    if (vkmm_mm_reserve(e, (void **)&e->kinds, &e->kind_capacity, e->kind_count + 1, sizeof *e->kinds))
        copy = vkmm_mm_alloc(e, n);
    if (!copy) {
        e->status = status;
        return "unknown";
    }
    memcpy(copy, kind, n);
    e->kinds[e->kind_count++] = copy;
    return copy;
}

/* The same command: also the same node (position).  Command buffers of one
 * batch each have a command 0, and a barrier's first scope holds one of
 * them and not the others: merging their writes into one event put every
 * write out of scope but the first run's (the CTS's implicit tests: four
 * readback command buffers in one batch read stale bytes). */
static bool same_event(const struct vkmm_mm_event *a, const struct vkmm_mm_event *b)
{
    return a->agent.queue == b->agent.queue && a->agent.submission == b->agent.submission &&
           a->agent.position == b->agent.position && a->agent.command == b->agent.command &&
           a->agent.kind == b->agent.kind && a->agent.where == b->agent.where && a->stage == b->stage &&
           a->access == b->access && a->discards == b->discards;
}

/* One write in coherent order.  Consecutive writes of one command through
 * one path share an event. */
uint32_t vkmm_mm_event_add(struct vkmm_mm_engine *e, const struct vkmm_mm_agent *agent, VkPipelineStageFlags2 stage,
                           VkAccessFlags2 access)
{
    struct vkmm_mm_event ev = { .stage = stage, .access = access };
    if (agent)
        ev.agent = *agent;
    ev.agent.kind = vkmm_mm_intern(e, ev.agent.kind ? ev.agent.kind : "unknown");
    if (e->event_count > 1 && same_event(&e->events[e->event_count - 1], &ev))
        return e->event_count - 1;
    /* Events are narrow metas' values (shadow.c). */
    if (e->event_count >= VKMM_MM_META_NARROW_MAX ||
        !vkmm_mm_reserve(e, (void **)&e->events, &e->event_capacity, e->event_count + 1, sizeof *e->events)) {
        e->status = VK_ERROR_OUT_OF_HOST_MEMORY;
        return 0;
    }
    e->events[e->event_count] = ev;
    return e->event_count++;
}

/* ---- engine ----------------------------------------------------------- */

struct vkmm_mm_engine *vkmm_mm_engine_create2(vkmm_mm_sink sink, void *user, uint64_t seed,
                                              const VkAllocationCallbacks *allocator)
{
    struct vkmm_mm_engine *e =
        raw_alloc(allocator, allocator != NULL, sizeof *e);
    if (!e)
        return NULL;
    *e = (struct vkmm_mm_engine){ .sink = sink, .user = user, .seed = seed, .status = VK_SUCCESS };
    if (allocator) {
        e->allocator = *allocator;
        e->has_allocator = true;
    }
    vkmm_mm_masks_init(e);
    if (!vkmm_mm_reserve(e, (void **)&e->events, &e->event_capacity, 16, sizeof *e->events)) {
        vkmm_mm_engine_destroy(e);
        return NULL;
    }
    /* Event 0 writes the allocation pattern. */
    e->events[0] = (struct vkmm_mm_event){ .agent = { .kind = "vkAllocateMemory" } };
    e->event_count = 1;
    return e;
}

struct vkmm_mm_engine *vkmm_mm_engine_create(vkmm_mm_sink sink, void *user, uint64_t seed)
{
    return vkmm_mm_engine_create2(sink, user, seed, NULL);
}

void vkmm_mm_engine_destroy(struct vkmm_mm_engine *e)
{
    if (!e)
        return;
    while (e->memory_count)
        vkmm_mm_memory_destroy(e->memories[e->memory_count - 1]);
    vkmm_mm_free(e, e->memories);
    vkmm_mm_free(e, e->gvis);
    vkmm_mm_free(e, e->events);
    for (uint32_t i = 0; i < e->kind_count; i++)
        vkmm_mm_free(e, e->kinds[i]);
    vkmm_mm_free(e, e->kinds);
    vkmm_mm_free(e, e->scratch);
    vkmm_mm_free(e, e);
}

VkResult vkmm_mm_engine_status(const struct vkmm_mm_engine *e)
{
    return e->status;
}

VkResult vkmm_mm_engine_take_status(struct vkmm_mm_engine *e)
{
    VkResult status = e->status;
    e->status = VK_SUCCESS;
    return status;
}

uint64_t vkmm_mm_hazard_count(const struct vkmm_mm_engine *e)
{
    return e->hazards;
}

/* ---- memories --------------------------------------------------------- */

static struct vkmm_mm_meta *memory_metas(struct vkmm_mm_memory *m, unsigned i)
{
    struct vkmm_mm_meta *metas[] = { &m->dev_seq, &m->dev_wts, &m->coh_wts, &m->host_seq, &m->host_wts, &m->view_wts };
    return i < sizeof metas / sizeof metas[0] ? metas[i] : NULL;
}

/* Write events fit narrow cells (vkmm_mm_event_add); seqs do not. */
static bool memory_meta_narrow(struct vkmm_mm_memory *m, unsigned i)
{
    return memory_metas(m, i) != &m->dev_seq && memory_metas(m, i) != &m->host_seq;
}

static void memory_finish(struct vkmm_mm_memory *m)
{
    struct vkmm_mm_engine *e = m->engine;
    for (uint32_t i = 0; i < m->path_count; i++) {
        vkmm_mm_free(e, m->paths[i].value);
        vkmm_mm_meta_finish(e, &m->paths[i].wts);
    }
    vkmm_mm_free(e, m->paths);
    vkmm_mm_visibility_clear(e, m);
    vkmm_mm_free(e, m->vis);
    if (m->view_span)
        munmap(m->view, m->view_span);
    else
        vkmm_mm_free(e, m->view);
    for (unsigned i = 0; memory_metas(m, i); i++)
        vkmm_mm_meta_finish(e, memory_metas(m, i));
    if (m->host_own)
        vkmm_mm_host_level_finish(e, m);
    void *arrays[] = { m->dev, m->dev_hist,  m->versions,  m->version_seqs,
                       m->hist_granules, m->coh, m->view_base, m->view_seen };
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        vkmm_mm_free(e, arrays[i]);
    vkmm_mm_free(e, m);
}

#define VIEW_HUGE_PAGE ((size_t)2 << 20)

/* The host view: what vkMapMemory returns (minMemoryMapAlignment: 64).
 * Without application callbacks it gets pages of its own, so that strict
 * mode can protect it while work is pending (host_trap.c); *span is then
 * their size. */
static uint8_t *view_alloc(struct vkmm_mm_engine *e, uint64_t n, size_t *span)
{
    *span = 0;
    if (e->has_allocator)
        return vkmm_mm_calloc_aligned(e, n, 1);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (n > SIZE_MAX - page) {
        e->status = VK_ERROR_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    size_t bytes = ((size_t)(n ? n : 1) + page - 1) & ~(page - 1);
    /* Views of 2 MiB and more sit on huge-page boundaries, as transparent
     * huge pages where the system has them: protecting and opening them at
     * every submission (host_trap.c) then changes one entry per 2 MiB, not
     * 512 — on virtual machines with shadow page tables each changed entry
     * costs several microseconds at its next touch (measured: 6.8 ms per
     * 4 MiB view opened after PROT_NONE, 0.2 ms with huge pages). */
    size_t slack = bytes >= VIEW_HUGE_PAGE && bytes <= SIZE_MAX - VIEW_HUGE_PAGE ? VIEW_HUGE_PAGE : 0;
    uint8_t *p = mmap(NULL, bytes + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        e->status = VK_ERROR_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    uint8_t *view = p;
    if (slack) {
        view = (uint8_t *)(((uintptr_t)p + slack - 1) & ~(uintptr_t)(slack - 1));
        if (view > p)
            munmap(p, (size_t)(view - p));
        if (p + slack > view)
            munmap(view + bytes, (size_t)(p + slack - view));
        madvise(view, bytes, MADV_HUGEPAGE); /* a hint: refused where huge pages are off */
    }
    *span = bytes;
    return view;
}

/* Values: one byte per byte and level.  Metadata: per granule (shadow.c). */
static bool memory_alloc_levels(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m)
{
    uint64_t n = m->size;
    uint64_t granules = (n + VKMM_MM_GRANULE - 1) / VKMM_MM_GRANULE;
    m->dev = vkmm_mm_calloc(e, n, 1);
    m->dev_hist = vkmm_mm_calloc(e, granules, sizeof *m->dev_hist);
    m->coh = vkmm_mm_calloc(e, n, 1);
    bool ok = m->dev && m->dev_hist && m->coh;
    for (unsigned i = 0; ok && i < (m->host_visible ? 6u : 3u); i++)
        ok = vkmm_mm_meta_init(e, memory_metas(m, i), n, memory_meta_narrow(m, i));
    if (!ok || !m->host_visible)
        return ok;
    m->view = view_alloc(e, n, &m->view_span);
    m->view_base = vkmm_mm_calloc(e, n, 1);
    return vkmm_mm_host_level_init(e, m) && m->view && m->view_base;
}

/* Every level starts with the pattern, as version seq 0 of event 0: eight
 * bytes per hash, then copies. */
static void memory_fill_pattern(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m)
{
    vkmm_mm_pattern(e->seed, m->id, 0, m->dev, m->size);
    memcpy(m->coh, m->dev, m->size);
    if (!m->host_visible)
        return;
    uint8_t *levels[] = { m->view, m->view_base }; /* the host level reads dev */
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        memcpy(levels[i], m->dev, m->size);
    m->whole_levels = e->whole_levels;
    if (m->whole_levels)
        vkmm_mm_host_keep_whole(e, m);
}

void vkmm_mm_set_whole_levels(struct vkmm_mm_engine *e, bool whole)
{
    e->whole_levels = whole;
}

struct vkmm_mm_memory *vkmm_mm_memory_create(struct vkmm_mm_engine *e, uint64_t id, uint64_t size, bool host_visible,
                                             bool host_coherent)
{
    struct vkmm_mm_memory *m = vkmm_mm_calloc(e, 1, sizeof *m);
    if (!m)
        return NULL;
    m->engine = e;
    m->id = id;
    m->size = size;
    m->host_visible = host_visible;
    m->host_coherent = host_visible && host_coherent;
    if (!memory_alloc_levels(e, m) ||
        !vkmm_mm_reserve(e, (void **)&e->memories, &e->memory_capacity, e->memory_count + 1, sizeof *e->memories)) {
        memory_finish(m);
        return NULL;
    }
    memory_fill_pattern(e, m);
    e->memories[e->memory_count++] = m;
    return m;
}

void vkmm_mm_memory_destroy(struct vkmm_mm_memory *m)
{
    if (!m)
        return;
    struct vkmm_mm_engine *e = m->engine;
    for (uint32_t i = 0; i < e->memory_count; i++) {
        if (e->memories[i] != m)
            continue;
        memmove(&e->memories[i], &e->memories[i + 1], (e->memory_count - i - 1) * sizeof *e->memories);
        e->memory_count--;
        break;
    }
    memory_finish(m);
}

uint8_t *vkmm_mm_host_view(struct vkmm_mm_memory *m)
{
    return m->host_visible ? m->view : NULL;
}

size_t vkmm_mm_host_view_span(const struct vkmm_mm_memory *m)
{
    return m->host_visible ? m->view_span : 0;
}

uint64_t vkmm_mm_memory_changes(const struct vkmm_mm_memory *m)
{
    return m->changes;
}

uint64_t vkmm_mm_memory_history(const struct vkmm_mm_memory *m)
{
    return m->version_live;
}

uint64_t vkmm_mm_memory_state_bytes(const struct vkmm_mm_memory *m)
{
    /* value arrays: dev, coh (view, base, seen while it is ahead, and the
     * host level's own pages) */
    uint64_t levels = m->host_visible ? 4 + (m->view_seen != NULL) : 2;
    uint64_t bytes = levels * m->size + (m->size + VKMM_MM_GRANULE - 1) / VKMM_MM_GRANULE * sizeof *m->dev_hist;
    if (m->host_visible)
        bytes += m->host_own_pages * VKMM_MM_HOST_PAGE;
    for (unsigned i = 0; i < (m->host_visible ? 6u : 3u); i++)
        bytes += vkmm_mm_meta_bytes(memory_metas((struct vkmm_mm_memory *)m, i));
    for (uint32_t i = 0; i < m->path_count; i++)
        bytes += m->size + vkmm_mm_meta_bytes(&m->paths[i].wts);
    /* The history's room, used or not: the process holds it. */
    bytes += (uint64_t)m->version_capacity * sizeof *m->versions;
    bytes += (uint64_t)m->version_seqs_capacity * sizeof *m->version_seqs;
    return bytes;
}

/* [offset, offset + size) clipped to the memory; size may be VK_WHOLE_SIZE.
 * False when empty. */
bool vkmm_mm_clamp(const struct vkmm_mm_memory *m, uint64_t offset, uint64_t size, uint64_t *begin, uint64_t *end)
{
    if (offset >= m->size)
        return false;
    *begin = offset;
    *end = size > m->size - offset ? m->size : offset + size;
    return *end > *begin;
}

/* ---- device memory: the versioned store -------------------------------- */

static uint64_t version_seq_at(const struct vkmm_mm_memory *m, const struct vkmm_mm_version *v, unsigned k)
{
    return v->seqs ? m->version_seqs[v->seqs][k] : v->seq;
}

/* DESIGN §3.1: "a read returns the newest version it is allowed to see and
 * otherwise falls back to the version it saw last". */
uint8_t vkmm_mm_device_value_at(const struct vkmm_mm_memory *m, uint64_t b, uint64_t visible)
{
    if (vkmm_mm_meta_get(&m->dev_seq, b) <= visible)
        return m->dev[b];
    unsigned k = b % VKMM_MM_GRANULE;
    uint8_t oldest = m->dev[b];
    for (uint32_t i = m->dev_hist[b / VKMM_MM_GRANULE]; i; i = m->versions[i].next) {
        if (version_seq_at(m, &m->versions[i], k) <= visible)
            return m->versions[i].value[k];
        oldest = m->versions[i].value[k];
    }
    /* Pruning keeps every version some read path can still see. */
    assert(!"memmodel: a visible version was pruned");
    return oldest;
}

static uint32_t version_alloc(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m)
{
    if (m->version_free) {
        uint32_t i = m->version_free;
        m->version_free = m->versions[i].next;
        m->version_live++;
        return i;
    }
    uint32_t first = m->version_count ? m->version_count : 1; /* index 0 means "none" */
    if (first == UINT32_MAX ||
        !vkmm_mm_reserve(e, (void **)&m->versions, &m->version_capacity, (uint64_t)first + 1, sizeof *m->versions))
        return 0;
    m->version_count = first + 1;
    m->version_live++;
    return first;
}

static uint32_t version_seqs_alloc(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m)
{
    if (m->version_seqs_free) {
        uint32_t i = m->version_seqs_free;
        m->version_seqs_free = (uint32_t)m->version_seqs[i][0];
        return i;
    }
    uint32_t first = m->version_seqs_count ? m->version_seqs_count : 1;
    if (first == UINT32_MAX || !vkmm_mm_reserve(e, (void **)&m->version_seqs, &m->version_seqs_capacity,
                                                (uint64_t)first + 1, sizeof *m->version_seqs))
        return 0;
    m->version_seqs_count = first + 1;
    return first;
}

static void version_release(struct vkmm_mm_memory *m, uint32_t i)
{
    struct vkmm_mm_version *v = &m->versions[i];
    if (v->seqs) {
        m->version_seqs[v->seqs][0] = m->version_seqs_free;
        m->version_seqs_free = v->seqs;
    }
    v->next = m->version_free;
    m->version_free = i;
    m->version_live--;
}

/* Version v takes granule g's bytes and seq cell as they are now, ahead of
 * its history (the per-byte seqs of a granule that has them are the
 * caller's to place). */
static uint64_t version_take(const struct vkmm_mm_memory *m, struct vkmm_mm_version *v, uint64_t g)
{
    uint64_t base = g * VKMM_MM_GRANULE;
    uint64_t n = m->size - base < VKMM_MM_GRANULE ? m->size - base : VKMM_MM_GRANULE;
    uint64_t seq = vkmm_mm_meta_cell(&m->dev_seq, g);
    *v = (struct vkmm_mm_version){ .seq = seq, .next = m->dev_hist[g] };
    memcpy(v->value, m->dev + base, n);
    return seq;
}

/* Granule g as it is now becomes its newest overwritten version. */
static void granule_snapshot(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t g)
{
    uint32_t i = version_alloc(e, m);
    if (!i)
        return;
    struct vkmm_mm_version *v = &m->versions[i];
    if (version_take(m, v, g) & VKMM_MM_META_DETAIL) {
        v->seqs = version_seqs_alloc(e, m);
        if (!v->seqs) {
            version_release(m, i);
            return;
        }
        vkmm_mm_meta_granule_values(&m->dev_seq, g, m->version_seqs[v->seqs]);
    }
    if (!m->dev_hist[g]) {
        if (vkmm_mm_reserve(e, (void **)&m->hist_granules, &m->hist_capacity, (uint64_t)m->hist_count + 1,
                            sizeof *m->hist_granules))
            m->hist_granules[m->hist_count++] = g;
        else
            m->hist_overflow = true;
    }
    m->dev_hist[g] = i;
}

/* Does some visible seq V fall in [seq, newer)? */
static bool version_needed(const uint64_t *vs, uint32_t n, uint64_t seq, uint64_t newer)
{
    for (uint32_t i = 0; seq < newer && i < n; i++)
        if (vs[i] >= seq && vs[i] < newer)
            return true;
    return false;
}

/* Is version v of a granule of `bytes` bytes, whose next newer version
 * has byte seqs `newer`, still the one some read path gets at some byte? */
static bool granule_version_needed(const struct vkmm_mm_memory *m, const struct vkmm_mm_version *v,
                                   const uint64_t *newer, unsigned bytes, const uint64_t *vs, uint32_t n)
{
    for (unsigned k = 0; k < bytes; k++)
        if (version_needed(vs, n, version_seq_at(m, v, k), newer[k]))
            return true;
    return false;
}

/* A granule's history this short is left as it is: keeping a version no
 * read path can get is harmless (a read takes the newest one at or below
 * its visible seq), and pruning cost a pass over the visible seqs at every
 * landing. */
#define HISTORY_KEPT 4u

static bool history_short(const struct vkmm_mm_memory *m, uint64_t g)
{
    uint32_t length = 0;
    for (uint32_t i = m->dev_hist[g]; i; i = m->versions[i].next)
        if (++length > HISTORY_KEPT)
            return false;
    return true;
}

/* ---- the snapshots of a large landing, on the engine's threads ---------- */

/* A landing of this many granules or more (1 MiB) takes its snapshots on
 * the engine's threads (bulk.c), in pieces of SNAPSHOT_PIECE granules. */
#define SNAPSHOT_PIECE 4096u
#define SNAPSHOT_MIN (4u * SNAPSHOT_PIECE)

/* Per piece: first what it needs (versions, per-byte seqs, new history
 * granules, granules whose history is long afterwards), then where its
 * own versions, seqs and history entries start. */
struct snapshot_piece {
    uint32_t versions, seqs, granules, long_histories;
};

struct snapshots {
    struct vkmm_mm_memory *m;
    uint64_t first, last, seq;
    struct snapshot_piece *need, *at;
};

static bool snapshot_wanted(const struct vkmm_mm_memory *m, uint64_t g, uint64_t seq)
{
    return vkmm_mm_meta_granule_max(&m->dev_seq, g) < seq;
}

static void snapshot_piece_range(const struct snapshots *k, uint64_t index, uint64_t *from, uint64_t *to)
{
    *from = k->first + index * SNAPSHOT_PIECE;
    *to = k->last + 1 - *from < SNAPSHOT_PIECE ? k->last + 1 : *from + SNAPSHOT_PIECE;
}

static void count_snapshots(void *context, uint64_t index)
{
    struct snapshots *k = context;
    struct snapshot_piece need = { 0 };
    uint64_t from, to;
    snapshot_piece_range(k, index, &from, &to);
    for (uint64_t g = from; g < to; g++) {
        if (!snapshot_wanted(k->m, g, k->seq))
            continue;
        need.versions++;
        need.seqs += (vkmm_mm_meta_cell(&k->m->dev_seq, g) & VKMM_MM_META_DETAIL) != 0;
        need.granules += !k->m->dev_hist[g];
    }
    k->need[index] = need;
}

/* Each piece fills the versions, seqs and history entries reserved for it,
 * in granule order, as granule_snapshot would; the indices depend on the
 * pieces only, not on the threads. */
static void take_snapshots(void *context, uint64_t index)
{
    struct snapshots *k = context;
    struct vkmm_mm_memory *m = k->m;
    struct snapshot_piece at = k->at[index];
    uint64_t from, to;
    snapshot_piece_range(k, index, &from, &to);
    for (uint64_t g = from; g < to; g++) {
        if (snapshot_wanted(m, g, k->seq)) {
            uint32_t i = at.versions++;
            struct vkmm_mm_version *v = &m->versions[i];
            if (version_take(m, v, g) & VKMM_MM_META_DETAIL) {
                v->seqs = at.seqs++;
                vkmm_mm_meta_granule_values(&m->dev_seq, g, m->version_seqs[v->seqs]);
            }
            if (!m->dev_hist[g])
                m->hist_granules[at.granules++] = g;
            m->dev_hist[g] = i;
        }
        k->need[index].long_histories += !history_short(m, g);
    }
}

/* The snapshots of granules [first, last] on the engine's threads, with
 * fresh indices reserved at once; false (nothing done) when the room
 * cannot be had, and the caller takes them one by one. */
static bool parallel_snapshots(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t first, uint64_t last,
                               uint64_t seq, bool *long_histories)
{
    uint64_t count = (last - first) / SNAPSHOT_PIECE + 1;
    struct snapshots k = { .m = m, .first = first, .last = last, .seq = seq };
    k.need = vkmm_mm_calloc(e, count * 2, sizeof *k.need);
    if (!k.need)
        return false;
    k.at = k.need + count;
    e->parallel(e->parallel_user, count, count_snapshots, &k);
    uint64_t first_version = m->version_count ? m->version_count : 1; /* index 0 means "none" */
    uint64_t versions = first_version, seqs = m->version_seqs_count ? m->version_seqs_count : 1;
    uint64_t granules = m->hist_count;
    for (uint64_t p = 0; p < count; p++) {
        k.at[p] = (struct snapshot_piece){ (uint32_t)versions, (uint32_t)seqs, (uint32_t)granules, 0 };
        versions += k.need[p].versions;
        seqs += k.need[p].seqs;
        granules += k.need[p].granules;
    }
    bool room = versions < UINT32_MAX && seqs < UINT32_MAX && granules < UINT32_MAX &&
                vkmm_mm_reserve(e, (void **)&m->versions, &m->version_capacity, versions, sizeof *m->versions) &&
                vkmm_mm_reserve(e, (void **)&m->version_seqs, &m->version_seqs_capacity, seqs,
                                sizeof *m->version_seqs) &&
                vkmm_mm_reserve(e, (void **)&m->hist_granules, &m->hist_capacity, granules, sizeof *m->hist_granules);
    if (room) {
        e->parallel(e->parallel_user, count, take_snapshots, &k); /* need[].long_histories: 0 from the count */
        m->version_live += (uint32_t)(versions - first_version);
        m->version_count = (uint32_t)versions;
        m->version_seqs_count = (uint32_t)seqs;
        m->hist_count = (uint32_t)granules;
        *long_histories = false;
        for (uint64_t p = 0; p < count; p++)
            *long_histories |= k.need[p].long_histories != 0;
    }
    vkmm_mm_free(e, k.need);
    return room;
}

/* Bound the history: a byte's version is returned to a read path whose
 * visible seq V falls in [its seq, the byte's next newer seq); a version of
 * granule g is kept only while some byte of it has such a V among the
 * visible seqs of read paths there.  There are at most as many such V as
 * visibility records, so a granule keeps at most max(HISTORY_KEPT,
 * records + 1) versions. */
static void history_prune(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t g)
{
    uint32_t n;
    uint64_t base = g * VKMM_MM_GRANULE;
    if (history_short(m, g) || !vkmm_mm_visible_set(e, m, base, base + VKMM_MM_GRANULE, &n))
        return;
    unsigned bytes = m->size - base < VKMM_MM_GRANULE ? (unsigned)(m->size - base) : VKMM_MM_GRANULE;
    uint64_t newer[VKMM_MM_GRANULE];
    /* Versions of whole-granule writes have one seq for every byte: one
     * question per version instead of one per byte. */
    uint64_t cell = vkmm_mm_meta_cell(&m->dev_seq, g);
    bool uniform = !(cell & VKMM_MM_META_DETAIL);
    if (!uniform)
        vkmm_mm_meta_granule_values(&m->dev_seq, g, newer); /* the seqs of its bytes now */
    else
        newer[0] = cell;
    uint32_t *link = &m->dev_hist[g];
    while (*link) {
        uint32_t i = *link;
        const struct vkmm_mm_version *v = &m->versions[i];
        bool needed;
        if (uniform && !v->seqs) {
            needed = version_needed(e->scratch, n, v->seq, newer[0]);
            newer[0] = v->seq;
        } else {
            if (uniform)
                for (unsigned k = 1; k < bytes; k++)
                    newer[k] = newer[0];
            uniform = false;
            needed = granule_version_needed(m, v, newer, bytes, e->scratch, n);
            /* Pruned or not, the next older version's bytes are returned
             * below these seqs only. */
            for (unsigned k = 0; k < bytes; k++)
                newer[k] = version_seq_at(m, v, k);
        }
        if (needed) {
            link = &m->versions[i].next;
        } else {
            *link = m->versions[i].next;
            version_release(m, i);
        }
    }
}

/* Write-after-write: an older write landing over a newer one is a lost
 * update (004). */
static void check_lost_update(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end,
                              uint32_t wts, struct vkmm_mm_run *waw)
{
    for (uint64_t b = begin; b < end;) {
        uint64_t run_end = vkmm_mm_meta_run_end(&m->dev_wts, b, end);
        uint32_t newer = (uint32_t)vkmm_mm_meta_get(&m->dev_wts, b);
        for (; newer > wts && b < run_end; b++)
            vkmm_mm_run_add(e, waw, b, wts, newer, VKMM_MM_MISSING_WAW_BARRIER);
        b = run_end;
    }
}

/* Bytes [begin, end) of one write become available in device memory with
 * `seq` (000 Availability and Visibility: "makes (W,L) available to the
 * memory domains in its destination scope").  The version of each granule
 * they replace goes to its history — once per operation: a granule that
 * already holds bytes of this seq was saved before the first of them
 * landed — and read paths whose last visibility operation came earlier
 * still see it. */
void vkmm_mm_device_land(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end,
                         const uint8_t *values, uint32_t wts, uint64_t seq, struct vkmm_mm_run *waw)
{
    if (waw)
        check_lost_update(e, m, begin, end, wts, waw);
    m->changes++;
    m->dev_ahead = true;
    if (begin >= end)
        return;
    uint64_t first = begin / VKMM_MM_GRANULE, last = (end - 1) / VKMM_MM_GRANULE;
    /* Each granule's version goes to its history before any byte lands;
     * then the bytes and their seqs land at once. */
    bool prune = !e->landing_without_history;
    if (prune && !(e->parallel && last - first >= SNAPSHOT_MIN && parallel_snapshots(e, m, first, last, seq, &prune)))
        for (uint64_t g = first; g <= last; g++)
            if (snapshot_wanted(m, g, seq))
                granule_snapshot(e, m, g);
    /* The host domain keeps what device memory held until a device->host
     * domain operation moves the new bytes. */
    if (m->host_visible)
        vkmm_mm_host_own(e, m, begin, end, true);
    vkmm_mm_copy(e, m->dev + begin, values, end - begin);
    vkmm_mm_meta_fill(e, &m->dev_seq, begin, end, seq);
    vkmm_mm_meta_fill(e, &m->dev_wts, begin, end, wts);
    /* Histories of HISTORY_KEPT versions or fewer are left as they are. */
    for (uint64_t g = first; g <= last && prune; g++)
        history_prune(e, m, g);
}

/* vkmm_mm_device_land for the bytes of granule g in `mask` (bit k: its
 * byte k), `values` at the granule's start: the bytes one host write
 * changed here and there in a granule land at once, not run by run. */
void vkmm_mm_device_land_mask(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t g, uint64_t mask,
                              const uint8_t *values, uint32_t wts, uint64_t seq, struct vkmm_mm_run *waw)
{
    uint64_t base = g * VKMM_MM_GRANULE;
    for (uint64_t rest = waw ? mask : 0; rest; rest &= rest - 1) {
        uint64_t b = base + (uint64_t)__builtin_ctzll(rest);
        uint32_t newer = (uint32_t)vkmm_mm_meta_get(&m->dev_wts, b);
        if (newer > wts)
            vkmm_mm_run_add(e, waw, b, wts, newer, VKMM_MM_MISSING_WAW_BARRIER); /* 004, as check_lost_update */
    }
    m->changes++;
    m->dev_ahead = true;
    if (!mask)
        return;
    bool prune = !e->landing_without_history;
    if (prune && snapshot_wanted(m, g, seq))
        granule_snapshot(e, m, g);
    uint64_t stop = base + VKMM_MM_GRANULE < m->size ? base + VKMM_MM_GRANULE : m->size;
    if (m->host_visible)
        vkmm_mm_host_own(e, m, base, stop, true);
    vkmm_mm_copy_mask(m->dev + base, values, mask);
    vkmm_mm_meta_write_mask(e, &m->dev_seq, g, mask, seq);
    vkmm_mm_meta_write_mask(e, &m->dev_wts, g, mask, wts);
    if (prune)
        history_prune(e, m, g);
}

/* A memory whose history stayed empty since the last clear gives its
 * arrays back: a buffer the host filled once keeps no room for a version
 * of each of its granules for ever after. */
static void history_release(struct vkmm_mm_memory *m)
{
    struct vkmm_mm_engine *e = m->engine;
    vkmm_mm_free(e, m->versions);
    vkmm_mm_free(e, m->version_seqs);
    vkmm_mm_free(e, m->hist_granules);
    m->versions = NULL;
    m->version_seqs = NULL;
    m->hist_granules = NULL;
    m->version_capacity = m->version_seqs_capacity = m->hist_capacity = 0;
}

/* After a visibility operation to every device read path (vkQueueSubmit)
 * no path can see an overwritten version. */
void vkmm_mm_history_clear(struct vkmm_mm_memory *m)
{
    if (!m->version_count) {
        if (m->version_capacity)
            history_release(m);
        return;
    }
    uint64_t granules = (m->size + VKMM_MM_GRANULE - 1) / VKMM_MM_GRANULE;
    /* Past one granule in eight, clearing them all is the cheaper pass (a
     * landing over the whole memory lists every granule). */
    if (m->hist_overflow || m->hist_count > granules / 8)
        memset(m->dev_hist, 0, granules * sizeof *m->dev_hist);
    else
        for (uint32_t i = 0; i < m->hist_count; i++)
            m->dev_hist[m->hist_granules[i]] = 0;
    m->hist_count = 0;
    m->hist_overflow = false;
    m->version_count = 0;
    m->version_free = 0;
    m->version_live = 0;
    m->version_seqs_count = 0;
    m->version_seqs_free = 0;
}

/* ---- write paths and the coherent view --------------------------------- */

struct vkmm_mm_write_path *vkmm_mm_write_path(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m,
                                              VkPipelineStageFlags2 stage, VkAccessFlags2 access)
{
    for (uint32_t i = 0; i < m->path_count; i++)
        if (m->paths[i].stage == stage && m->paths[i].access == access)
            return &m->paths[i];
    if (!vkmm_mm_reserve(e, (void **)&m->paths, &m->path_capacity, m->path_count + 1, sizeof *m->paths))
        return NULL;
    struct vkmm_mm_write_path p = {
        .stage = stage,
        .access = access,
        .value = vkmm_mm_calloc(e, m->size, 1),
        .lo = UINT64_MAX,
    };
    if (!p.value || !vkmm_mm_meta_init(e, &p.wts, m->size, true)) {
        vkmm_mm_free(e, p.value);
        vkmm_mm_meta_finish(e, &p.wts);
        return NULL;
    }
    m->paths[m->path_count] = p;
    return &m->paths[m->path_count++];
}

/* Is write event `wts` still waiting in a write path at byte b? */
bool vkmm_mm_pending_in_path(const struct vkmm_mm_memory *m, uint64_t b, uint32_t wts)
{
    for (uint32_t i = 0; i < m->path_count; i++)
        if (vkmm_mm_meta_get(&m->paths[i].wts, b) == wts)
            return true;
    return false;
}

void vkmm_mm_coherent_write(struct vkmm_mm_memory *m, uint64_t begin, uint64_t end, const uint8_t *values,
                            uint32_t wts)
{
    m->changes++;
    vkmm_mm_copy(m->engine, m->coh + begin, values, end - begin);
    vkmm_mm_meta_fill(m->engine, &m->coh_wts, begin, end, wts);
}

/* vkmm_mm_coherent_write for the bytes of granule g in `mask`, `values` at
 * the granule's start. */
void vkmm_mm_coherent_write_mask(struct vkmm_mm_memory *m, uint64_t g, uint64_t mask, const uint8_t *values,
                                 uint32_t wts)
{
    m->changes++;
    vkmm_mm_copy_mask(m->coh + g * VKMM_MM_GRANULE, values, mask);
    vkmm_mm_meta_write_mask(m->engine, &m->coh_wts, g, mask, wts);
}

void vkmm_mm_coherent_read(struct vkmm_mm_memory *m, uint64_t offset, uint64_t size, void *out)
{
    uint64_t begin, end;
    if (!vkmm_mm_clamp(m, offset, size, &begin, &end))
        return;
    vkmm_mm_host_absorb(m->engine, m, begin, end);
    memcpy(out, m->coh + begin, end - begin);
}
