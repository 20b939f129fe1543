#include "address_space.h"

#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>

#include "alloc.h"

#define GRANULE (64ull << 10)

struct vkmm_address_range {
    uint64_t offset, size;
};

static uint64_t round_up(uint64_t value)
{
    return (value + GRANULE - 1) / GRANULE * GRANULE;
}

VkResult vkmm_address_space_init(struct vkmm_address_space *space, uint64_t size,
                                 const VkAllocationCallbacks *allocator)
{
    memset(space, 0, sizeof(*space));
    space->allocator = allocator;
    pthread_mutex_init(&space->lock, NULL);
    size = round_up(size);
    void *base = MAP_FAILED;
    while (size >= GRANULE) {
        base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (base != MAP_FAILED)
            break;
        size = round_up(size / 2);
    }
    if (base == MAP_FAILED)
        return VK_ERROR_INITIALIZATION_FAILED;
    space->free_ranges = vkmm_zalloc(allocator, NULL, 16 * sizeof(*space->free_ranges),
                                     VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
    if (!space->free_ranges) {
        munmap(base, size);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    space->base = base;
    space->size = size;
    space->free_capacity = 16;
    space->free_count = 1;
    space->free_ranges[0] = (struct vkmm_address_range){ 0, size };
    return VK_SUCCESS;
}

void vkmm_address_space_finish(struct vkmm_address_space *space)
{
    if (space->base)
        munmap(space->base, space->size);
    vkmm_free(space->allocator, NULL, space->free_ranges);
    pthread_mutex_destroy(&space->lock);
    memset(space, 0, sizeof(*space));
}

uint8_t *vkmm_address_space_alloc(struct vkmm_address_space *space, uint64_t size)
{
    size = round_up(size ? size : 1);
    uint8_t *result = NULL;
    pthread_mutex_lock(&space->lock);
    for (uint32_t i = 0; i < space->free_count; i++) {
        struct vkmm_address_range *r = &space->free_ranges[i];
        if (r->size < size)
            continue;
        result = space->base + r->offset;
        r->offset += size;
        r->size -= size;
        if (r->size == 0) {
            memmove(r, r + 1, (space->free_count - i - 1) * sizeof(*r));
            space->free_count--;
        }
        break;
    }
    pthread_mutex_unlock(&space->lock);
    return result;
}

/* Makes room for one more range; false when out of memory. */
static bool reserve_range(struct vkmm_address_space *space)
{
    if (space->free_count < space->free_capacity)
        return true;
    uint32_t capacity = space->free_capacity * 2;
    struct vkmm_address_range *ranges =
        vkmm_zalloc(space->allocator, NULL, capacity * sizeof(*ranges), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
    if (!ranges)
        return false;
    memcpy(ranges, space->free_ranges, space->free_count * sizeof(*ranges));
    vkmm_free(space->allocator, NULL, space->free_ranges);
    space->free_ranges = ranges;
    space->free_capacity = capacity;
    return true;
}

void vkmm_address_space_free(struct vkmm_address_space *space, uint8_t *bytes, uint64_t size)
{
    size = round_up(size ? size : 1);
    /* The pages go back to the system and read as zero when reused. */
    madvise(bytes, size, MADV_DONTNEED);
    uint64_t offset = (uint64_t)(bytes - space->base);
    pthread_mutex_lock(&space->lock);
    uint32_t at = 0;
    while (at < space->free_count && space->free_ranges[at].offset < offset)
        at++;
    struct vkmm_address_range *ranges = space->free_ranges;
    bool joins_previous = at > 0 && ranges[at - 1].offset + ranges[at - 1].size == offset;
    bool joins_next = at < space->free_count && offset + size == ranges[at].offset;
    if (joins_previous && joins_next) {
        ranges[at - 1].size += size + ranges[at].size;
        memmove(&ranges[at], &ranges[at + 1], (space->free_count - at - 1) * sizeof(*ranges));
        space->free_count--;
    } else if (joins_previous) {
        ranges[at - 1].size += size;
    } else if (joins_next) {
        ranges[at].offset = offset;
        ranges[at].size += size;
    } else if (reserve_range(space)) {
        ranges = space->free_ranges;
        memmove(&ranges[at + 1], &ranges[at], (space->free_count - at) * sizeof(*ranges));
        ranges[at] = (struct vkmm_address_range){ offset, size };
        space->free_count++;
    }
    /* else: out of host memory to track the range; the address space is
     * lost, its pages were released above. */
    pthread_mutex_unlock(&space->lock);
}
