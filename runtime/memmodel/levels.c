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

bool vkmm_mm_reserve(struct vkmm_mm_engine *e, void **array, uint32_t *capacity, uint64_t need, size_t elem)
{
    if (need <= *capacity)
        return true;
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
static uint8_t pattern(uint64_t seed, uint64_t id, uint64_t offset)
{
    uint8_t v = (uint8_t)(vkmm_mm_hash(seed, id, offset >> 3, 0x5041545445524eull) >> ((offset & 7) * 8));
    if ((offset & 3) == 3)
        v |= 0x80;
    return v ? v : 0xa5;
}

const char *vkmm_mm_intern(struct vkmm_mm_engine *e, const char *kind)
{
    if (!kind)
        return NULL;
    for (uint32_t i = 0; i < e->kind_count; i++)
        if (!strcmp(e->kinds[i], kind))
            return e->kinds[i];
    if (!vkmm_mm_reserve(e, (void **)&e->kinds, &e->kind_capacity, e->kind_count + 1, sizeof *e->kinds))
        return "unknown";
    size_t n = strlen(kind) + 1;
    char *copy = vkmm_mm_alloc(e, n);
    if (!copy)
        return "unknown";
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
           a->access == b->access;
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
    if (e->event_count == UINT32_MAX ||
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

uint64_t vkmm_mm_hazard_count(const struct vkmm_mm_engine *e)
{
    return e->hazards;
}

/* ---- memories --------------------------------------------------------- */

static void memory_finish(struct vkmm_mm_memory *m)
{
    struct vkmm_mm_engine *e = m->engine;
    for (uint32_t i = 0; i < m->path_count; i++) {
        vkmm_mm_free(e, m->paths[i].value);
        vkmm_mm_free(e, m->paths[i].wts);
    }
    vkmm_mm_free(e, m->paths);
    vkmm_mm_visibility_clear(e, m);
    vkmm_mm_free(e, m->vis);
    if (m->view_span)
        munmap(m->view, m->view_span);
    else
        vkmm_mm_free(e, m->view);
    void *arrays[] = { m->dev,  m->dev_seq,  m->dev_wts, m->dev_hist, m->undo,      m->coh,       m->coh_wts,
                       m->host, m->host_seq, m->host_wts, m->view_base, m->view_seen, m->view_wts };
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        vkmm_mm_free(e, arrays[i]);
    vkmm_mm_free(e, m);
}

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
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        e->status = VK_ERROR_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    *span = bytes;
    return p;
}

static bool memory_alloc_levels(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m)
{
    uint64_t n = m->size;
    m->dev = vkmm_mm_calloc(e, n, 1);
    m->dev_seq = vkmm_mm_calloc(e, n, sizeof *m->dev_seq);
    m->dev_wts = vkmm_mm_calloc(e, n, sizeof *m->dev_wts);
    m->dev_hist = vkmm_mm_calloc(e, n, sizeof *m->dev_hist);
    m->coh = vkmm_mm_calloc(e, n, 1);
    m->coh_wts = vkmm_mm_calloc(e, n, sizeof *m->coh_wts);
    bool ok = m->dev && m->dev_seq && m->dev_wts && m->dev_hist && m->coh && m->coh_wts;
    if (!m->host_visible)
        return ok;
    m->host = vkmm_mm_calloc(e, n, 1);
    m->host_seq = vkmm_mm_calloc(e, n, sizeof *m->host_seq);
    m->host_wts = vkmm_mm_calloc(e, n, sizeof *m->host_wts);
    m->view = view_alloc(e, n, &m->view_span);
    m->view_base = vkmm_mm_calloc(e, n, 1);
    m->view_seen = vkmm_mm_calloc(e, n, 1);
    m->view_wts = vkmm_mm_calloc(e, n, sizeof *m->view_wts);
    return ok && m->host && m->host_seq && m->host_wts && m->view && m->view_base && m->view_seen && m->view_wts;
}

/* Every level starts with the pattern, as version seq 0 of event 0. */
static void memory_fill_pattern(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m)
{
    for (uint64_t b = 0; b < m->size; b++) {
        uint8_t v = pattern(e->seed, m->id, b);
        m->dev[b] = v;
        m->coh[b] = v;
        if (m->host_visible) {
            m->host[b] = v;
            m->view[b] = v;
            m->view_base[b] = v;
            m->view_seen[b] = v;
        }
    }
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

uint64_t vkmm_mm_memory_history(const struct vkmm_mm_memory *m)
{
    return m->undo_live;
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

/* DESIGN §3.1: "a read returns the newest version it is allowed to see and
 * otherwise falls back to the version it saw last". */
uint8_t vkmm_mm_device_value_at(const struct vkmm_mm_memory *m, uint64_t b, uint64_t visible)
{
    if (m->dev_seq[b] <= visible)
        return m->dev[b];
    uint8_t oldest = m->dev[b];
    for (uint32_t i = m->dev_hist[b]; i; i = m->undo[i].next) {
        if (m->undo[i].seq <= visible)
            return m->undo[i].value;
        oldest = m->undo[i].value;
    }
    /* Pruning keeps every version some read path can still see. */
    assert(!"memmodel: a visible version was pruned");
    return oldest;
}

static uint32_t undo_alloc(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m)
{
    if (m->undo_free) {
        uint32_t i = m->undo_free;
        m->undo_free = m->undo[i].next;
        m->undo_live++;
        return i;
    }
    uint32_t first = m->undo_count ? m->undo_count : 1; /* index 0 means "none" */
    if (first == UINT32_MAX ||
        !vkmm_mm_reserve(e, (void **)&m->undo, &m->undo_capacity, (uint64_t)first + 1, sizeof *m->undo))
        return 0;
    m->undo_count = first + 1;
    m->undo_live++;
    return first;
}

static void undo_release(struct vkmm_mm_memory *m, uint32_t i)
{
    m->undo[i].next = m->undo_free;
    m->undo_free = i;
    m->undo_live--;
}

static bool version_needed(const uint64_t *vs, uint32_t n, uint64_t seq, uint64_t newer)
{
    for (uint32_t i = 0; i < n; i++)
        if (vs[i] >= seq && vs[i] < newer)
            return true;
    return false;
}

/* Bound the undo log: an old version of b is kept only while some read
 * path's visible seq V falls in [its seq, the next newer version's seq).
 * There are at most as many such V per byte as visibility records, so the
 * log holds at most (records + 1) versions a byte. */
static void history_prune(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t b)
{
    uint32_t n;
    if (!m->dev_hist[b] || !vkmm_mm_visible_set(e, m, b, &n))
        return;
    uint64_t newer = m->dev_seq[b];
    uint32_t *link = &m->dev_hist[b];
    while (*link) {
        uint32_t i = *link;
        uint64_t seq = m->undo[i].seq;
        if (version_needed(e->scratch, n, seq, newer)) {
            link = &m->undo[i].next;
        } else {
            *link = m->undo[i].next;
            undo_release(m, i);
        }
        newer = seq;
    }
}

/* One byte of a write becomes available in device memory with `seq`
 * (000 Availability and Visibility: "makes (W,L) available to the memory
 * domains in its destination scope").  The version it replaces goes to the
 * undo log: read paths whose last visibility operation came earlier still
 * see it. */
void vkmm_mm_device_land(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t b, uint8_t value, uint32_t wts,
                         uint64_t seq, struct vkmm_mm_run *waw)
{
    /* 004 write-after-write: an older write landing over a newer one is a
     * lost update. */
    if (waw && m->dev_wts[b] > wts)
        vkmm_mm_run_add(e, waw, b, wts, m->dev_wts[b], VKMM_MM_MISSING_WAW_BARRIER);
    uint32_t i = undo_alloc(e, m);
    if (i) {
        m->undo[i] = (struct vkmm_mm_undo){
            .seq = m->dev_seq[b], .wts = m->dev_wts[b], .next = m->dev_hist[b], .value = m->dev[b]
        };
        m->dev_hist[b] = i;
    }
    m->dev[b] = value;
    m->dev_seq[b] = seq;
    m->dev_wts[b] = wts;
    history_prune(e, m, b);
}

/* After a visibility operation to every device read path (vkQueueSubmit)
 * no path can see an overwritten version. */
void vkmm_mm_history_clear(struct vkmm_mm_memory *m)
{
    if (!m->undo_count)
        return;
    memset(m->dev_hist, 0, m->size * sizeof *m->dev_hist);
    m->undo_count = 0;
    m->undo_free = 0;
    m->undo_live = 0;
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
        .wts = vkmm_mm_calloc(e, m->size, sizeof *p.wts),
        .lo = UINT64_MAX,
    };
    if (!p.value || !p.wts) {
        vkmm_mm_free(e, p.value);
        vkmm_mm_free(e, p.wts);
        return NULL;
    }
    m->paths[m->path_count] = p;
    return &m->paths[m->path_count++];
}

/* Is write event `wts` still waiting in a write path at byte b? */
bool vkmm_mm_pending_in_path(const struct vkmm_mm_memory *m, uint64_t b, uint32_t wts)
{
    for (uint32_t i = 0; i < m->path_count; i++)
        if (m->paths[i].wts[b] == wts)
            return true;
    return false;
}

void vkmm_mm_coherent_write(struct vkmm_mm_memory *m, uint64_t b, uint8_t value, uint32_t wts)
{
    m->coh[b] = value;
    m->coh_wts[b] = wts;
}

void vkmm_mm_coherent_read(struct vkmm_mm_memory *m, uint64_t offset, uint64_t size, void *out)
{
    uint64_t begin, end;
    if (!vkmm_mm_clamp(m, offset, size, &begin, &end))
        return;
    vkmm_mm_host_absorb(m->engine, m, begin, end);
    memcpy(out, m->coh + begin, end - begin);
}
