/* The host domain's bytes (DESIGN §3.1, the host level), kept only where
 * they differ from device memory.
 *
 * The host domain and device memory hold the same versions except between a
 * flush and the next host->device domain operation (host writes not landed)
 * and between a landing and the next device->host domain operation (device
 * writes not moved): a buffer the device only reads, or one the host only
 * reads back after each wait, has no byte of its own most of the time.  So
 * a page of the host level is "own" only from the moment the two may part —
 * a host write flushed into it, or a landing about to change device memory
 * under it — until a domain operation over the whole memory leaves nothing
 * ahead on either side; the other pages read device memory.  A page the
 * host's writes made own goes back to the system when they meet again; one
 * a landing made own is kept for the next landing (a buffer the device
 * rewrites every submission would fault its pages in every time). */
#include <string.h>
#include <sys/mman.h>

#include "memmodel_internal.h"

#define PAGE VKMM_MM_HOST_PAGE
#define BITS 64u

static bool page_own(const struct vkmm_mm_memory *m, uint64_t page)
{
    return m->host_own[page / BITS] >> (page % BITS) & 1;
}

bool vkmm_mm_host_level_init(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m)
{
    uint64_t pages = (m->size + PAGE - 1) / PAGE;
    m->host_own = vkmm_mm_calloc(e, (pages + BITS - 1) / BITS, sizeof *m->host_own);
    if (!m->host_own)
        return false;
    /* Pages of its own, so that they can go back (madvise); with the
     * application's callbacks, their memory. */
    if (!e->has_allocator) {
        size_t span = (size_t)pages * PAGE;
        void *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p != MAP_FAILED) {
            m->host = p;
            m->host_span = span;
            return true;
        }
    }
    m->host = vkmm_mm_calloc(e, m->size, 1);
    return m->host != NULL;
}

void vkmm_mm_host_level_finish(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m)
{
    if (m->host_span)
        munmap(m->host, m->host_span);
    else
        vkmm_mm_free(e, m->host);
    vkmm_mm_free(e, m->host_own);
    m->host = NULL;
    m->host_own = NULL;
}

const uint8_t *vkmm_mm_host_bytes(const struct vkmm_mm_memory *m, uint64_t b)
{
    return page_own(m, b / PAGE) ? m->host + b : m->dev + b;
}

uint64_t vkmm_mm_host_run_end(const struct vkmm_mm_memory *m, uint64_t b, uint64_t end)
{
    if (!m->host_own_pages)
        return end;
    bool own = page_own(m, b / PAGE);
    uint64_t page = b / PAGE + 1;
    while (page * PAGE < end && page_own(m, page) == own)
        page++;
    return page * PAGE < end ? page * PAGE : end;
}

void vkmm_mm_host_own(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t begin, uint64_t end,
                      bool landing)
{
    if (begin >= end)
        return;
    uint64_t last = (end - 1) / PAGE;
    for (uint64_t page = begin / PAGE; page <= last;) {
        if (page_own(m, page)) {
            page++;
            continue;
        }
        /* A run of pages that read device memory copy it at once. */
        uint64_t stop = page;
        for (; stop <= last && !page_own(m, stop); stop++) {
            m->host_own[stop / BITS] |= 1ull << (stop % BITS);
            m->host_own_pages++;
        }
        uint64_t at = page * PAGE, to = stop * PAGE < m->size ? stop * PAGE : m->size;
        vkmm_mm_copy(e, m->host + at, m->dev + at, to - at);
        m->host_landed |= landing;
        page = stop;
    }
}

void vkmm_mm_host_share(struct vkmm_mm_memory *m)
{
    if (!m->host_own_pages || m->whole_levels)
        return;
    uint64_t pages = (m->size + PAGE - 1) / PAGE;
    if (m->host_span && !m->host_landed)
        madvise(m->host, m->host_span, MADV_DONTNEED);
    memset(m->host_own, 0, (pages + BITS - 1) / BITS * sizeof *m->host_own);
    m->host_own_pages = 0;
    m->host_landed = false;
}

void vkmm_mm_host_keep_whole(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m)
{
    vkmm_mm_host_own(e, m, 0, m->size, false);
    vkmm_mm_view_seen_make(e, m);
}
