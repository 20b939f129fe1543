#include "workgroup_store_buffer.h"

#include <stdlib.h>
#include <string.h>

#include "shader_abi.h"

#define MAX_WAITING 1024u    /* stores a buffer holds before it empties (a lane's store is one) */
#define SEED0_PERFORM_AGE 3u /* seed 0: scheduling points a store waits before the first one goes */

struct waiting {
    uint32_t offset, size;
    uint32_t epoch; /* the subgroup's releases before it */
    uint32_t call;  /* the access that stored it: its lanes go out together on seed 0 */
    uint32_t token; /* for the landing hook, 0: none */
    uint32_t lane;  /* the storing invocation's lane */
};

struct buffer {
    uint8_t *shadow;  /* the stored bytes, at their offsets in shared memory (allocated on first use) */
    uint64_t *held;   /* a bit per byte of shared memory: a store of it waits here */
    struct waiting *waiting;
    uint32_t count;
    uint32_t epoch;
    uint32_t age;     /* scheduling points since the buffer last emptied */
};

struct vkmm_store_buffers {
    uint32_t subgroups, size;
    uint8_t *shared;
    uint64_t seed, random;
    uint32_t call;
    struct buffer *buffers;
    vkmm_store_landing landing;
    void *landing_user;
};

struct vkmm_store_buffers *vkmm_store_buffers_create(uint32_t subgroups, uint32_t shared_size)
{
    struct vkmm_store_buffers *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    s->subgroups = subgroups;
    s->size = shared_size;
    s->buffers = calloc(subgroups ? subgroups : 1, sizeof(*s->buffers));
    if (!s->buffers) {
        free(s);
        return NULL;
    }
    return s;
}

void vkmm_store_buffers_on_landing(struct vkmm_store_buffers *s, vkmm_store_landing landing, void *user)
{
    s->landing = landing;
    s->landing_user = user;
}

void vkmm_store_buffers_destroy(struct vkmm_store_buffers *s)
{
    if (!s)
        return;
    for (uint32_t g = 0; g < s->subgroups; g++) {
        free(s->buffers[g].shadow);
        free(s->buffers[g].held);
        free(s->buffers[g].waiting);
    }
    free(s->buffers);
    free(s);
}

void vkmm_store_buffers_begin(struct vkmm_store_buffers *s, uint8_t *shared, uint64_t seed)
{
    s->shared = shared;
    s->seed = seed;
    s->random = (seed + 1) * 0x9E3779B97F4A7C15ull;
    for (uint32_t g = 0; g < s->subgroups; g++) {
        struct buffer *b = &s->buffers[g];
        if (b->held && b->count)
            memset(b->held, 0, ((size_t)s->size + 63) / 64 * sizeof(uint64_t));
        b->count = 0;
        b->epoch = 0;
        b->age = 0;
    }
}

static uint64_t next_random(struct vkmm_store_buffers *s)
{
    s->random ^= s->random << 13;
    s->random ^= s->random >> 7;
    s->random ^= s->random << 17;
    return s->random;
}

static bool ready(struct vkmm_store_buffers *s, struct buffer *b)
{
    if (b->shadow)
        return true;
    b->shadow = malloc(s->size ? s->size : 1);
    b->held = calloc(((size_t)s->size + 63) / 64, sizeof(uint64_t));
    b->waiting = malloc(MAX_WAITING * sizeof(*b->waiting));
    if (b->shadow && b->held && b->waiting)
        return true;
    free(b->shadow);
    free(b->held);
    free(b->waiting);
    b->shadow = NULL;
    b->held = NULL;
    b->waiting = NULL;
    return false;
}

static bool is_held(const struct buffer *b, uint32_t offset, uint32_t size)
{
    for (uint32_t i = offset; i < offset + size; i++)
        if (b->held[i / 64] >> (i % 64) & 1)
            return true;
    return false;
}

/* The waiting store `n` is performed: its bytes reach shared memory, unless
 * the landing hook places it before the value there in the coherence order. */
static void perform(struct vkmm_store_buffers *s, struct buffer *b, uint32_t n)
{
    struct waiting w = b->waiting[n];
    uint8_t *bytes = b->shadow + w.offset;
    uint32_t subgroup = (uint32_t)(b - s->buffers);
    if (!s->landing || !s->landing(s->landing_user, subgroup, w.lane, w.token, w.offset, w.size, bytes))
        memcpy(s->shared + w.offset, bytes, w.size);
    for (uint32_t i = w.offset; i < w.offset + w.size; i++)
        b->held[i / 64] &= ~(1ull << (i % 64));
    b->waiting[n] = b->waiting[--b->count];
    if (!b->count)
        b->age = 0;
}

static uint32_t oldest_epoch(const struct buffer *b)
{
    uint32_t oldest = UINT32_MAX;
    for (uint32_t n = 0; n < b->count; n++)
        if (b->waiting[n].epoch < oldest)
            oldest = b->waiting[n].epoch;
    return oldest;
}

/* Every waiting store is performed, older release epochs first.  Stores
 * of one epoch overlap only when one access wrote them (its lanes hold
 * one value in the shadow), so their order within the epoch is free. */
static void drain(struct vkmm_store_buffers *s, struct buffer *b)
{
    while (b->count) {
        uint32_t epoch = oldest_epoch(b);
        for (uint32_t n = b->count; n-- > 0;)
            if (n < b->count && b->waiting[n].epoch == epoch)
                perform(s, b, n);
    }
}

void vkmm_store_buffers_drain(struct vkmm_store_buffers *s, uint32_t subgroup)
{
    if (s && subgroup < s->subgroups && s->buffers[subgroup].count)
        drain(s, &s->buffers[subgroup]);
}

void vkmm_store_buffers_release(struct vkmm_store_buffers *s, uint32_t subgroup)
{
    if (s && subgroup < s->subgroups)
        s->buffers[subgroup].epoch++;
}

bool vkmm_store_buffers_holding(const struct vkmm_store_buffers *s, uint32_t subgroup)
{
    return s && subgroup < s->subgroups && s->buffers[subgroup].count != 0;
}

/* An atomic store waits in the buffer.  Returns false when it cannot (out
 * of memory): then it goes to shared memory at once. */
static bool hold_store(struct vkmm_store_buffers *s, struct buffer *b, const uint32_t *offsets, uint64_t lanes,
                       uint32_t size, uint32_t flags, const uint32_t *tokens)
{
    if (!ready(s, b)) {
        drain(s, b);
        return false;
    }
    /* Coherence: a store to bytes the subgroup still holds comes after
     * them, so those go out first; a full buffer empties. */
    bool drain_first = b->count + (uint32_t)__builtin_popcountll(lanes) > MAX_WAITING;
    for (uint64_t l = lanes; l && !drain_first; l &= l - 1)
        drain_first = is_held(b, offsets[__builtin_ctzll(l)], size);
    if (drain_first)
        drain(s, b);
    if (flags & VKMM_ACCESS_RELEASE)
        b->epoch++; /* the stores before it go out before it */
    s->call++;
    for (uint64_t l = lanes; l; l &= l - 1) {
        uint32_t lane = (uint32_t)__builtin_ctzll(l), offset = offsets[lane];
        b->waiting[b->count++] = (struct waiting){ offset, size, b->epoch, s->call, tokens ? tokens[lane] : 0, lane };
        for (uint32_t i = offset; i < offset + size; i++)
            b->held[i / 64] |= 1ull << (i % 64);
    }
    return true;
}

int64_t vkmm_store_buffers_access(struct vkmm_store_buffers *s, uint32_t subgroup, const uint32_t *offsets,
                                  uint64_t lanes, uint32_t size, uint32_t flags)
{
    return vkmm_store_buffers_access_tokens(s, subgroup, offsets, lanes, size, flags, NULL);
}

int64_t vkmm_store_buffers_access_tokens(struct vkmm_store_buffers *s, uint32_t subgroup, const uint32_t *offsets,
                                         uint64_t lanes, uint32_t size, uint32_t flags, const uint32_t *tokens)
{
    if (!s || subgroup >= s->subgroups || !lanes)
        return 0;
    struct buffer *b = &s->buffers[subgroup];
    bool atomic = flags & VKMM_WORKGROUP_ATOMIC, read = flags & VKMM_WORKGROUP_READ,
         write = flags & VKMM_WORKGROUP_WRITE;
    if (atomic && write && !read)
        return hold_store(s, b, offsets, lanes, size, flags, tokens)
                   ? (int64_t)((uintptr_t)b->shadow - (uintptr_t)s->shared)
                   : 0;
    if (!b->count)
        return 0;
    /* A read-modify-write is performed at once, after every store before
     * it (it may release them); any other access sees the subgroup's own
     * stores of its bytes (000: an agent's accesses are in program order). */
    bool drain_now = atomic && read && write;
    for (uint64_t l = lanes; l && !drain_now; l &= l - 1)
        drain_now = is_held(b, offsets[__builtin_ctzll(l)], size);
    if (drain_now)
        drain(s, b);
    return 0;
}

/* DESIGN §3.3: seed 0 keeps stores waiting for a few scheduling points
 * (the stalest result: another subgroup reads before them, SB), then lets
 * the newest store of the oldest epoch go first, one access at a time (a
 * flag stored after its data is seen first, MP); other seeds perform each
 * store of the oldest epoch or keep it, a coin each. */
void vkmm_store_buffers_yield(struct vkmm_store_buffers *s, uint32_t subgroup)
{
    if (!s || subgroup >= s->subgroups || !s->buffers[subgroup].count)
        return;
    struct buffer *b = &s->buffers[subgroup];
    b->age++;
    uint32_t epoch = oldest_epoch(b);
    if (s->seed == 0) {
        if (b->age < SEED0_PERFORM_AGE)
            return;
        uint32_t newest = 0;
        for (uint32_t n = 0; n < b->count; n++)
            if (b->waiting[n].epoch == epoch && b->waiting[n].call > newest)
                newest = b->waiting[n].call;
        for (uint32_t n = b->count; n-- > 0;)
            if (n < b->count && b->waiting[n].epoch == epoch && b->waiting[n].call == newest)
                perform(s, b, n);
        return;
    }
    for (uint32_t n = b->count; n-- > 0;)
        if (n < b->count && b->waiting[n].epoch == epoch && (next_random(s) & 1))
            perform(s, b, n);
}
