/* The device-memory monitor's map pages between dispatches.
 *
 * Every state in the maps belongs to the dispatch that wrote it (a chunk's
 * generation says which), so any page may go back to the system once that
 * dispatch ended.  Spans of up to 16 MiB of map are kept and zeroed in place
 * by the next dispatch that touches them.  Larger ones go back, but not at
 * once: a program that dispatches over the same large buffers again and
 * again (a stream, an iterative solver) would fault every page of them in
 * at every dispatch, a fifth of strict mode's time on a 64 MiB stream.  A
 * large span is kept until the end of a later dispatch, and then only the
 * chunks that dispatch did not touch go back: the memory held between
 * dispatches is what the last ones used. */
#include "device_monitor.h"

#include <sys/mman.h>
#include <unistd.h>

#include "device_monitor_state.h"

#define KEPT_MIN_MAP_BYTES (16u << 20)

static uintptr_t page_down(uintptr_t at)
{
    return at & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
}

static uintptr_t page_up(uintptr_t at)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    return (at + page - 1) & ~(page - 1);
}

static void drop(void *begin, void *end)
{
    uintptr_t from = page_down((uintptr_t)begin), to = page_up((uintptr_t)end);
    if (to > from)
        madvise((void *)from, to - from, MADV_DONTNEED);
}

/* Words [first, first + count) (chunk-aligned) forget their states: their
 * pages in the four maps go back (dropped pages read back as zero). */
static void drop_words(struct vkmm_device_monitor *m, uint64_t first, uint64_t count)
{
    if (count > m->words - first)
        count = m->words - first;
    drop(m->owner + first, m->owner + first + count);
    drop(m->bytes + first * WORD, m->bytes + (first + count) * WORD);
    drop(m->invoker + first, m->invoker + first + count);
    drop(m->invoker_bytes + first * WORD, m->invoker_bytes + (first + count) * WORD);
}

/* The chunks of a kept span that the dispatch ending now did not touch go
 * back, a run at a time. */
static void release_untouched(struct vkmm_device_monitor *m, const struct kept_span *span)
{
    uint64_t last = (span->first + span->count - 1) / CHUNK_WORDS;
    for (uint64_t chunk = span->first / CHUNK_WORDS; chunk <= last;) {
        if (m->chunk_generation[chunk] == m->generation) {
            chunk++;
            continue;
        }
        uint64_t stop = chunk;
        while (stop <= last && m->chunk_generation[stop] != m->generation)
            stop++;
        drop_words(m, chunk * CHUNK_WORDS, (stop - chunk) * CHUNK_WORDS);
        chunk = stop;
    }
}

/* Spans an earlier dispatch kept are settled by the one ending now. */
static void settle_kept(struct vkmm_device_monitor *m)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < m->kept_count; i++) {
        if (m->kept[i].generation == m->generation)
            m->kept[kept++] = m->kept[i];
        else
            release_untouched(m, &m->kept[i]);
    }
    m->kept_count = kept;
}

static void clear_one(struct vkmm_device_monitor *m, const uint8_t *bytes, uint64_t size)
{
    if (bytes < m->base || (uint64_t)(bytes - m->base) > m->size || size > m->size - (uint64_t)(bytes - m->base))
        return;
    settle_kept(m);
    uint64_t offset = (uint64_t)(bytes - m->base);
    uint64_t first = offset / WORD, count = (offset + size + WORD - 1) / WORD - first;
    if (!count || count * sizeof(*m->owner) <= KEPT_MIN_MAP_BYTES)
        return;
    if (m->kept_count == KEPT_SPANS) {
        drop_words(m, first, count);
        return;
    }
    m->kept[m->kept_count++] = (struct kept_span){ .first = first, .count = count, .generation = m->generation };
}

const void *vkmm_device_monitor_state_at(const struct vkmm_device_monitor *m, uint64_t offset)
{
    return m->owner + offset / WORD;
}

void vkmm_device_monitor_clear(struct vkmm_device_monitor *m, const uint8_t *bytes, uint64_t size)
{
    clear_one(m, bytes, size);
    /* A dispatch in parts: each part's monitor keeps or drops its own pages. */
    for (uint32_t i = 0; i < m->partner_count; i++)
        clear_one(m->partners[i], bytes, size);
}
