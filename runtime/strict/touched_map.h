/* Maps as large as the device's address space, committed only where
 * touched, whose contents belong to one dispatch: each chunk carries the
 * generation (dispatch) of what it holds, and is zeroed when a dispatch
 * first touches it, instead of a pass over the map after every dispatch.
 * The device monitor's owner states and happens-before's records use it. */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

/* `bytes` of zeroed virtual memory, committed where touched; NULL when the
 * address space has no room. */
static inline void *vkmm_touched_map(uint64_t bytes)
{
    void *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return map == MAP_FAILED ? NULL : map;
}

static inline uint64_t vkmm_touched_chunks(uint64_t elements, uint64_t per_chunk)
{
    return (elements + per_chunk - 1) / per_chunk;
}

/* Elements [first, last] of `map` (`count` of `element_size` bytes, in
 * chunks of `per_chunk`) as dispatch `generation` left them: chunks it has
 * not touched yet hold an earlier dispatch's, zeroed now. */
static inline void vkmm_touched_refresh(void *map, size_t element_size, uint64_t count, uint64_t per_chunk,
                                        uint64_t *chunk_generation, uint64_t generation, uint64_t first,
                                        uint64_t last)
{
    for (uint64_t chunk = first / per_chunk; chunk <= last / per_chunk; chunk++) {
        if (chunk_generation[chunk] == generation)
            continue;
        uint64_t elements = count - chunk * per_chunk < per_chunk ? count - chunk * per_chunk : per_chunk;
        memset((uint8_t *)map + chunk * per_chunk * element_size, 0, elements * element_size);
        chunk_generation[chunk] = generation;
    }
}
