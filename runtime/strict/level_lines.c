#include "level_lines.h"

#include <stdlib.h>

static uint32_t hash_granule(uint64_t granule)
{
    return (uint32_t)((granule * 0x9E3779B97F4A7C15ull) >> 32);
}

struct line **vkmm_level_holders(struct vkmm_level_lines *ll, uint64_t granule)
{
    return &ll->holders[hash_granule(granule) & (HOLDER_SLOTS - 1)];
}

void vkmm_level_add_holder(struct vkmm_level_lines *ll, struct line *line)
{
    struct line **head = vkmm_level_holders(ll, line->granule);
    line->next_holder = *head;
    if (*head)
        (*head)->holder_link = &line->next_holder;
    line->holder_link = head;
    *head = line;
}

void vkmm_level_clean(struct line *line, uint64_t mask)
{
    if (!(line->dirty & mask))
        return;
    line->dirty &= ~mask;
    line->available &= ~mask;
    if (line->dirty)
        return;
    *line->holder_link = line->next_holder;
    if (line->next_holder)
        line->next_holder->holder_link = line->holder_link;
    line->next_holder = NULL;
    line->holder_link = NULL;
}

struct line *vkmm_level_find(const struct cache *c, uint64_t granule)
{
    if (!c->index_size)
        return NULL;
    for (uint32_t i = hash_granule(granule) & (c->index_size - 1);; i = (i + 1) & (c->index_size - 1)) {
        uint32_t n = c->index[i];
        if (!n)
            return NULL;
        if (line_at(c, n - 1)->granule == granule)
            return line_at(c, n - 1);
    }
}

static void index_line(struct cache *c, uint32_t n)
{
    uint32_t i = hash_granule(line_at(c, n)->granule) & (c->index_size - 1);
    while (c->index[i])
        i = (i + 1) & (c->index_size - 1);
    c->index[i] = n + 1;
}

/* Room for one more line: a block (a spare one when there is one), and a
 * larger index when the lines would fill half of it. */
static bool grow(struct vkmm_level_lines *ll, struct cache *c)
{
    if (c->count == c->capacity) {
        uint32_t blocks = c->capacity / LINES_PER_BLOCK;
        if (blocks == c->block_slots) {
            uint32_t slots = c->block_slots ? 2 * c->block_slots : 4;
            struct line **grown = realloc(c->blocks, slots * sizeof(*grown));
            if (!grown)
                return false;
            c->blocks = grown;
            c->block_slots = slots;
        }
        c->blocks[blocks] = ll->spare_count ? ll->spare[--ll->spare_count] : malloc(LINES_PER_BLOCK * sizeof(struct line));
        if (!c->blocks[blocks])
            return false;
        c->capacity += LINES_PER_BLOCK;
    }
    if (2 * (c->count + 1) <= c->index_size)
        return true;
    uint32_t size = c->index_size ? c->index_size * 2 : 2 * LINES_PER_BLOCK;
    uint32_t *index = calloc(size, sizeof(*index));
    if (!index)
        return false;
    free(c->index);
    c->index = index;
    c->index_size = size;
    for (uint32_t n = 0; n < c->count; n++)
        index_line(c, n);
    return true;
}

struct line *vkmm_level_get(struct vkmm_level_lines *ll, struct cache *c, uint64_t granule)
{
    struct line *line = vkmm_level_find(c, granule);
    if (line)
        return line;
    if (!grow(ll, c))
        return NULL;
    line = line_at(c, c->count);
    *line = (struct line){ .granule = granule, .workgroup = c->workgroup, .subgroup = c->subgroup };
    index_line(c, c->count++);
    return line;
}

void vkmm_level_clear(struct vkmm_level_lines *ll, struct cache *c)
{
    for (uint32_t n = 0; n < c->count; n++)
        vkmm_level_clean(line_at(c, n), ~0ull);
    for (uint32_t b = 0; b * LINES_PER_BLOCK < c->capacity; b++) {
        if (ll->spare_count < SPARE_BLOCKS)
            ll->spare[ll->spare_count++] = c->blocks[b];
        else
            free(c->blocks[b]);
    }
    free(c->blocks);
    free(c->index);
    *c = (struct cache){ 0 };
}

void vkmm_level_lines_free(struct vkmm_level_lines *ll)
{
    while (ll->spare_count)
        free(ll->spare[--ll->spare_count]);
}
