/* Full-size copies and comparisons of the engine's levels (a landing, a
 * read path's run, the host domain and views), spread over the threads the
 * engine was given (vkmm_mm_set_parallel).  Strict mode runs on one thread
 * and the device's workers sit idle meanwhile; the bytes each piece moves
 * or compares are fixed, so the result does not depend on the threads. */
#include <stdatomic.h>
#include <string.h>

#include "memmodel_internal.h"

/* Below this, a copy or comparison stays on the calling thread (waking the
 * workers costs more); above, pieces of BULK_PIECE bytes. */
#define BULK_MIN (1u << 20)
#define BULK_PIECE (256u << 10)

void vkmm_mm_set_parallel(struct vkmm_mm_engine *e, vkmm_mm_parallel parallel, void *user)
{
    e->parallel = parallel;
    e->parallel_user = user;
}

struct bulk {
    uint8_t *dst;
    const uint8_t *a, *b;
    uint64_t size;
    atomic_bool differ;
};

static uint64_t piece_size(const struct bulk *k, uint64_t index)
{
    uint64_t at = index * BULK_PIECE;
    return k->size - at < BULK_PIECE ? k->size - at : BULK_PIECE;
}

static void copy_piece(void *context, uint64_t index)
{
    struct bulk *k = context;
    memcpy(k->dst + index * BULK_PIECE, k->a + index * BULK_PIECE, piece_size(k, index));
}

static void compare_piece(void *context, uint64_t index)
{
    struct bulk *k = context;
    if (atomic_load_explicit(&k->differ, memory_order_relaxed))
        return; /* the answer is known */
    if (memcmp(k->a + index * BULK_PIECE, k->b + index * BULK_PIECE, piece_size(k, index)))
        atomic_store_explicit(&k->differ, true, memory_order_relaxed);
}

static uint64_t pieces(uint64_t size)
{
    return (size + BULK_PIECE - 1) / BULK_PIECE;
}

void vkmm_mm_copy(const struct vkmm_mm_engine *e, void *dst, const void *src, uint64_t size)
{
    if (!e->parallel || size < BULK_MIN) {
        memcpy(dst, src, size);
        return;
    }
    struct bulk k = { .dst = dst, .a = src, .size = size };
    e->parallel(e->parallel_user, pieces(size), copy_piece, &k);
}

bool vkmm_mm_same(const struct vkmm_mm_engine *e, const void *a, const void *b, uint64_t size)
{
    if (!e->parallel || size < BULK_MIN)
        return !memcmp(a, b, size);
    struct bulk k = { .a = a, .b = b, .size = size };
    atomic_init(&k.differ, false);
    e->parallel(e->parallel_user, pieces(size), compare_piece, &k);
    return !atomic_load(&k.differ);
}
