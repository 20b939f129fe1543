/* A hash table from a 64-bit key to an index into an array the caller
 * keeps (open addressing; slot value = index + 1, 0 = empty): the caller
 * says each entry's key through key_of(entries, i).  Happens-before's
 * workgroups and word clocks, and the sparse subgroup clocks, find their
 * entries with it.  Knows no Vulkan object. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct vkmm_key_index {
    uint32_t *slots;
    uint32_t mask; /* slots - 1, a power of two minus one */
};

typedef uint64_t (*vkmm_key_of)(const void *entries, uint32_t i);

static inline uint32_t vkmm_key_hash(uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (uint32_t)key;
}

/* Every slot empty (the room stays). */
static inline void vkmm_key_index_clear(struct vkmm_key_index *index)
{
    if (index->slots)
        memset(index->slots, 0, ((size_t)index->mask + 1) * sizeof(uint32_t));
}

/* The slot of `key` (empty if absent). */
static inline uint32_t vkmm_key_index_slot(const struct vkmm_key_index *index, uint64_t key, vkmm_key_of key_of,
                                           const void *entries)
{
    uint32_t slot = vkmm_key_hash(key) & index->mask;
    while (index->slots[slot] && key_of(entries, index->slots[slot] - 1) != key)
        slot = (slot + 1) & index->mask;
    return slot;
}

/* Grows the table to hold `needed` entries at most half full, re-inserting
 * the `count` it holds; false when out of memory (the table is as it was). */
static inline bool vkmm_key_index_grow(struct vkmm_key_index *index, uint32_t needed, uint32_t count,
                                       vkmm_key_of key_of, const void *entries)
{
    uint32_t slots = 64;
    while (slots < needed * 2u)
        slots *= 2;
    if (index->slots && slots <= index->mask + 1u)
        return true;
    uint32_t *fresh = calloc(slots, sizeof(uint32_t));
    if (!fresh)
        return false;
    free(index->slots);
    index->slots = fresh;
    index->mask = slots - 1;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t slot = vkmm_key_hash(key_of(entries, i)) & index->mask;
        while (index->slots[slot])
            slot = (slot + 1) & index->mask;
        index->slots[slot] = i + 1;
    }
    return true;
}
