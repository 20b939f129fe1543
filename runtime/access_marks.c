#include "access_marks.h"

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

/* Whether the page at `page` of a map was ever written: mincore() says so
 * without faulting it in (an anonymous page never touched is not resident).
 * When mincore cannot answer, the page is scanned. */
static bool page_marked(const uint8_t *page)
{
    unsigned char resident = 1;
    if (mincore((void *)page, page_size(), &resident) != 0)
        return true;
    return resident & 1;
}

void vkmm_access_marks_scan(const struct vkmm_access_marks *marks, const struct vkmm_address_space *space,
                            enum vkmm_access_mark which, const uint8_t *bytes, uint64_t size,
                            void (*run)(void *user, uint64_t offset, uint64_t length), void *user)
{
    if (!marks->maps[which] || !size)
        return;
    const uint8_t *map = marks->maps[which] + (bytes - space->base);
    uint64_t page = page_size(), open = UINT64_MAX;
    uint64_t at = 0;
    while (at < size) {
        const uint8_t *page_start = (const uint8_t *)((uintptr_t)(map + at) & ~(uintptr_t)(page - 1));
        uint64_t page_end = (uint64_t)(page_start + page - map);
        uint64_t stop = page_end < size ? page_end : size;
        if (!page_marked(page_start)) {
            if (open != UINT64_MAX) {
                run(user, open, at - open);
                open = UINT64_MAX;
            }
            at = stop;
            continue;
        }
        for (; at < stop; at++) {
            if (map[at] && open == UINT64_MAX)
                open = at;
            else if (!map[at] && open != UINT64_MAX) {
                run(user, open, at - open);
                open = UINT64_MAX;
            }
        }
    }
    if (open != UINT64_MAX)
        run(user, open, size - open);
}

void vkmm_access_marks_clear(const struct vkmm_access_marks *marks, const struct vkmm_address_space *space,
                             const uint8_t *bytes, uint64_t size)
{
    if (!marks->maps[0] || !size)
        return;
    uint64_t page = page_size();
    uintptr_t offset = (uintptr_t)(bytes - space->base);
    uintptr_t first = offset & ~(uintptr_t)(page - 1);
    uintptr_t end = (offset + size + page - 1) & ~(uintptr_t)(page - 1);
    for (int i = 0; i < 2; i++)
        madvise(marks->maps[i] + first, end - first, MADV_DONTNEED);
}
