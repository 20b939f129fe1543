#include "access_marks.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "address_space.h"

VkResult vkmm_access_marks_init(struct vkmm_access_marks *marks, const struct vkmm_address_space *space)
{
    memset(marks, 0, sizeof(*marks));
    for (int i = 0; i < 2; i++) {
        void *map = mmap(NULL, space->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (map == MAP_FAILED) {
            vkmm_access_marks_finish(marks);
            return VK_ERROR_OUT_OF_HOST_MEMORY;
        }
        marks->maps[i] = map;
    }
    marks->size = space->size;
    return VK_SUCCESS;
}

void vkmm_access_marks_finish(struct vkmm_access_marks *marks)
{
    for (int i = 0; i < 2; i++)
        if (marks->maps[i])
            munmap(marks->maps[i], marks->size);
    memset(marks, 0, sizeof(*marks));
}

int64_t vkmm_access_marks_delta(const struct vkmm_access_marks *marks, const struct vkmm_address_space *space,
                                enum vkmm_access_mark which)
{
    return (int64_t)((intptr_t)marks->maps[which] - (intptr_t)space->base);
}

static uint64_t page_size(void)
{
    static uint64_t size;
    if (!size)
        size = (uint64_t)sysconf(_SC_PAGESIZE);
    return size;
}

/* Which pages of [first, first + count pages) of a map were ever written:
 * mincore() says so without faulting them in (an anonymous page never
 * touched is not resident), one call for the range.  When it cannot
 * answer (or there is no memory for the vector), every page counts as
 * written and is scanned. */
static unsigned char *resident_pages(const uint8_t *first, uint64_t count, unsigned char *small, size_t small_size)
{
    unsigned char *vector = count <= small_size ? small : malloc(count);
    if (!vector)
        return NULL;
    if (mincore((void *)first, count * page_size(), vector) != 0)
        memset(vector, 1, count);
    return vector;
}

/* Whether a word of marks has a zero byte (the classic bit trick: a byte
 * that borrows in the subtraction and had its high bit clear). */
static bool has_zero_byte(uint64_t word)
{
    return ((word - 0x0101010101010101ull) & ~word & 0x8080808080808080ull) != 0;
}

/* The first index in [at, stop) whose mark is set (`marked`) or clear, or
 * `stop`.  Marks are mostly long runs (a dispatch streams its buffers):
 * eight at a time. */
static uint64_t find_mark(const uint8_t *map, uint64_t at, uint64_t stop, bool marked)
{
    for (; at < stop && ((uintptr_t)(map + at) & 7); at++)
        if ((map[at] != 0) == marked)
            return at;
    for (; at + 8 <= stop; at += 8) {
        uint64_t word;
        memcpy(&word, map + at, 8);
        if (marked ? word != 0 : has_zero_byte(word))
            break;
    }
    for (; at < stop; at++)
        if ((map[at] != 0) == marked)
            return at;
    return stop;
}

void vkmm_access_marks_scan(const struct vkmm_access_marks *marks, const struct vkmm_address_space *space,
                            enum vkmm_access_mark which, const uint8_t *bytes, uint64_t size,
                            void (*run)(void *user, uint64_t offset, uint64_t length), void *user)
{
    if (!marks->maps[which] || !size)
        return;
    const uint8_t *map = marks->maps[which] + (bytes - space->base);
    uint64_t page = page_size();
    const uint8_t *first_page = (const uint8_t *)((uintptr_t)map & ~(uintptr_t)(page - 1));
    uint64_t pages = ((uint64_t)(map + size - first_page) + page - 1) / page;
    unsigned char small[256];
    unsigned char *resident = resident_pages(first_page, pages, small, sizeof(small));
    uint64_t open = UINT64_MAX, at = 0;
    while (at < size) {
        uint64_t index = (uint64_t)(map + at - first_page) / page;
        uint64_t page_end = (index + 1) * page - (uint64_t)(map - first_page);
        uint64_t stop = page_end < size ? page_end : size;
        if (resident && !(resident[index] & 1)) {
            if (open != UINT64_MAX) {
                run(user, open, at - open);
                open = UINT64_MAX;
            }
            at = stop;
            continue;
        }
        while (at < stop) {
            if (open == UINT64_MAX) {
                at = find_mark(map, at, stop, true);
                open = at < stop ? at : UINT64_MAX;
            } else {
                at = find_mark(map, at, stop, false);
                if (at < stop) {
                    run(user, open, at - open);
                    open = UINT64_MAX;
                }
            }
        }
    }
    if (open != UINT64_MAX)
        run(user, open, size - open);
    if (resident != small)
        free(resident);
}

/* Bytes of map up to which clearing writes zeros rather than dropping
 * pages: the pages stay committed for the next dispatch. */
#define SMALL_CLEAR (16u << 20)

void vkmm_access_marks_clear(const struct vkmm_access_marks *marks, const struct vkmm_address_space *space,
                             const uint8_t *bytes, uint64_t size)
{
    if (!marks->maps[0] || !size)
        return;
    uint64_t page = page_size();
    uintptr_t offset = (uintptr_t)(bytes - space->base);
    uintptr_t first = offset & ~(uintptr_t)(page - 1);
    uintptr_t end = (offset + size + page - 1) & ~(uintptr_t)(page - 1);
    /* Spans up to 16 MiB of map are zeroed in place: dropping their pages
     * would fault them in again at the next dispatch (tiny dispatches paid
     * 10 us for it, streaming a third of its time); larger ones go back to
     * the system. */
    for (int i = 0; i < 2; i++) {
        if (end - first <= SMALL_CLEAR)
            memset(marks->maps[i] + first, 0, end - first);
        else
            madvise(marks->maps[i] + first, end - first, MADV_DONTNEED);
    }
}
