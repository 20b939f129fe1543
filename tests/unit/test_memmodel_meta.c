/* Unit tests of runtime/memmodel/shadow.c: the per-byte metadata of a
 * level (a seq or a write event per byte), kept as one value per granule
 * unless the granule's bytes differ.  A long random run of fills (short,
 * long, granule-aligned or not, over the memory's short last granule) and
 * single-byte sets is checked after every step against a scalar reference
 * holding one value per byte: every byte's value, every granule's largest
 * and smallest value, runs of equal values, that a granule filled whole
 * holds no per-byte block any more, and that a granule of two values is a
 * pair (16 bytes), not a block (512). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "memmodel/memmodel_internal.h"

enum { SIZE = VKMM_MM_GRANULE * 37 + 13 }; /* the last granule holds 13 bytes */

static uint64_t next(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state >> 33;
}

/* One value: no pair or block; two: a pair; more: a block.  The granule's
 * values read back whole. */
static void assert_granule_form(const struct vkmm_mm_meta *meta, const uint64_t *ref, uint64_t g)
{
    uint64_t begin = g * VKMM_MM_GRANULE, end = begin + VKMM_MM_GRANULE < SIZE ? begin + VKMM_MM_GRANULE : SIZE;
    uint64_t second = ref[begin];
    unsigned distinct = 1;
    for (uint64_t b = begin + 1; b < end && distinct < 3; b++) {
        if (ref[b] == ref[begin] || (distinct == 2 && ref[b] == second))
            continue;
        second = ref[b];
        distinct++;
    }
    uint64_t cell = vkmm_mm_meta_cell(meta, g);
    if (distinct == 1)
        assert_false(cell & VKMM_MM_META_DETAIL);
    else if (distinct == 2)
        assert_true((cell & VKMM_MM_META_DETAIL) && (cell & VKMM_MM_META_PAIR));
    else
        assert_true((cell & VKMM_MM_META_DETAIL) && !(cell & VKMM_MM_META_PAIR));
    uint64_t values[VKMM_MM_GRANULE];
    vkmm_mm_meta_granule_values(meta, g, values);
    for (uint64_t b = begin; b < end; b++)
        assert_int_equal(values[b - begin], ref[b]);
}

static void assert_matches(const struct vkmm_mm_meta *meta, const uint64_t *ref)
{
    for (uint64_t b = 0; b < SIZE; b++)
        assert_int_equal(vkmm_mm_meta_get(meta, b), ref[b]);
    for (uint64_t g = 0; g * VKMM_MM_GRANULE < SIZE; g++) {
        uint64_t max = 0, min = UINT64_MAX;
        for (uint64_t b = g * VKMM_MM_GRANULE; b < (g + 1) * VKMM_MM_GRANULE && b < SIZE; b++) {
            max = ref[b] > max ? ref[b] : max;
            min = ref[b] < min ? ref[b] : min;
        }
        assert_int_equal(vkmm_mm_meta_granule_max(meta, g), max);
        assert_int_equal(vkmm_mm_meta_granule_min(meta, g), min);
        assert_granule_form(meta, ref, g);
    }
}

static void assert_run_ends(const struct vkmm_mm_meta *meta, const uint64_t *ref, uint64_t *rng)
{
    for (int k = 0; k < 16; k++) {
        uint64_t b = next(rng) % SIZE, end = b + 1 + next(rng) % (SIZE - b);
        uint64_t expected = b;
        while (expected < end && ref[expected] == ref[b])
            expected++;
        assert_int_equal(vkmm_mm_meta_run_end(meta, b, end), expected);
    }
}

/* Wide metas get values past 32 bits, narrow ones values just below their
 * tag bit. */
static void meta_matches_a_byte_reference(bool narrow)
{
    const uint64_t base = narrow ? VKMM_MM_META_NARROW_MAX - 8 : 1ull << 40;
    struct vkmm_mm_engine *e = vkmm_mm_engine_create(NULL, NULL, 0);
    assert_non_null(e);
    struct vkmm_mm_meta meta;
    assert_true(vkmm_mm_meta_init(e, &meta, SIZE, narrow));
    uint64_t *ref = calloc(SIZE, sizeof(*ref));
    assert_non_null(ref);
    vkmm_mm_meta_fill(e, &meta, 0, SIZE, base);
    for (uint64_t b = 0; b < SIZE; b++)
        ref[b] = base;
    uint64_t rng = 11, whole_fills = 0, long_fills = 0, steps_with_pairs = 0, steps_with_blocks = 0, masked_writes = 0;
    for (int step = 0; step < 4000; step++) {
        uint64_t value = base + next(&rng) % 4; /* few values: runs and collapses happen */
        switch (next(&rng) % 5) {
        case 4: { /* some bytes of one granule (a host write that left others as they were) */
            uint64_t g = next(&rng) % ((SIZE + VKMM_MM_GRANULE - 1) / VKMM_MM_GRANULE);
            uint64_t mask = next(&rng) & next(&rng), expected_same = 0, within = 0;
            for (unsigned k = 0; k < VKMM_MM_GRANULE && g * VKMM_MM_GRANULE + k < SIZE; k++) {
                within |= 1ull << k;
                expected_same |= (uint64_t)(ref[g * VKMM_MM_GRANULE + k] == value) << k;
            }
            assert_int_equal(vkmm_mm_meta_mask_of(&meta, g, mask, value), mask & within & expected_same);
            vkmm_mm_meta_write_mask(e, &meta, g, mask, value);
            for (unsigned k = 0; k < VKMM_MM_GRANULE && g * VKMM_MM_GRANULE + k < SIZE; k++)
                if (mask >> k & 1)
                    ref[g * VKMM_MM_GRANULE + k] = value;
            masked_writes++;
            break;
        }
        case 0: { /* one byte */
            uint64_t b = next(&rng) % SIZE;
            vkmm_mm_meta_set(e, &meta, b, value);
            ref[b] = value;
            break;
        }
        case 1: { /* a short fill anywhere */
            uint64_t begin = next(&rng) % SIZE, end = begin + 1 + next(&rng) % 100;
            end = end < SIZE ? end : SIZE;
            vkmm_mm_meta_fill(e, &meta, begin, end, value);
            for (uint64_t b = begin; b < end; b++)
                ref[b] = value;
            break;
        }
        default: { /* a long fill, from a granule's start half the time, often to the end */
            uint64_t begin = next(&rng) % SIZE;
            if (next(&rng) % 2)
                begin -= begin % VKMM_MM_GRANULE;
            uint64_t end = next(&rng) % 3 ? SIZE : begin + (SIZE - begin) / 2 + 1;
            vkmm_mm_meta_fill(e, &meta, begin, end, value);
            for (uint64_t b = begin; b < end; b++)
                ref[b] = value;
            long_fills++;
            /* Granules inside the fill hold one value, without a block. */
            for (uint64_t g = (begin + VKMM_MM_GRANULE - 1) / VKMM_MM_GRANULE; (g + 1) * VKMM_MM_GRANULE <= end; g++) {
                assert_false(vkmm_mm_meta_cell(&meta, g) & VKMM_MM_META_DETAIL);
                whole_fills++;
            }
            break;
        }
        }
        assert_matches(&meta, ref);
        assert_run_ends(&meta, ref, &rng);
        steps_with_pairs += meta.pair_live > 0;
        steps_with_blocks += meta.block_live > 0;
    }
    assert_true(steps_with_pairs > 1000);
    assert_true(steps_with_blocks > 1000);
    assert_true(long_fills > 600);
    assert_true(masked_writes > 400);
    assert_true(whole_fills > 10000);
    free(ref);
    vkmm_mm_meta_finish(e, &meta);
    vkmm_mm_engine_destroy(e);
}

static void test_meta_matches_a_byte_reference(void **state)
{
    (void)state;
    meta_matches_a_byte_reference(false);
}

static void test_narrow_meta_matches_a_byte_reference(void **state)
{
    (void)state;
    meta_matches_a_byte_reference(true);
}

/* Runs the pieces last first (a pool may run them in any order). */
static void reversed(void *user, uint64_t count, vkmm_mm_parallel_fn fn, void *context)
{
    (void)user;
    for (uint64_t i = count; i-- > 0;)
        fn(context, i);
}

/* A long fill spread over threads (vkmm_mm_set_parallel) leaves exactly
 * the cells, pairs, blocks and free lists that one thread leaves: pieces
 * with pairs or blocks in them go after, in order, on the calling thread. */
static void parallel_fill_matches_one_thread(bool narrow)
{
    const uint64_t size = (9u << 20) + 7, base = narrow ? VKMM_MM_META_NARROW_MAX - 8 : 1ull << 40;
    struct vkmm_mm_engine *one = vkmm_mm_engine_create(NULL, NULL, 0), *many = vkmm_mm_engine_create(NULL, NULL, 0);
    assert_non_null(one);
    assert_non_null(many);
    vkmm_mm_set_parallel(many, reversed, NULL);
    struct vkmm_mm_meta a, b;
    assert_true(vkmm_mm_meta_init(one, &a, size, narrow));
    assert_true(vkmm_mm_meta_init(many, &b, size, narrow));
    uint64_t rng = 5;
    for (int step = 0; step < 60; step++) {
        uint64_t value = base + next(&rng) % 5;
        if (step % 3 == 2) { /* a long fill, most of the memory */
            uint64_t begin = next(&rng) % (size / 8), end = size - next(&rng) % (size / 8);
            vkmm_mm_meta_fill(one, &a, begin, end, value);
            vkmm_mm_meta_fill(many, &b, begin, end, value);
        } else { /* pairs and blocks here and there */
            for (int k = 0; k < 200; k++) {
                uint64_t at = next(&rng) % size, n = 1 + next(&rng) % 40;
                n = at + n < size ? n : size - at;
                vkmm_mm_meta_fill(one, &a, at, at + n, value + (uint64_t)k % 3);
                vkmm_mm_meta_fill(many, &b, at, at + n, value + (uint64_t)k % 3);
            }
        }
        assert_memory_equal(a.cells, b.cells, a.granules * (narrow ? 4 : 8));
        assert_int_equal(a.pair_free, b.pair_free);
        assert_int_equal(a.block_free, b.block_free);
        assert_int_equal(a.pair_live, b.pair_live);
        assert_int_equal(a.block_live, b.block_live);
    }
    for (uint64_t byte = 0; byte < size; byte += 997)
        assert_int_equal(vkmm_mm_meta_get(&a, byte), vkmm_mm_meta_get(&b, byte));
    vkmm_mm_meta_finish(one, &a);
    vkmm_mm_meta_finish(many, &b);
    vkmm_mm_engine_destroy(one);
    vkmm_mm_engine_destroy(many);
}

static void test_parallel_fill_matches_one_thread(void **state)
{
    (void)state;
    parallel_fill_matches_one_thread(false);
    parallel_fill_matches_one_thread(true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_meta_matches_a_byte_reference),
        cmocka_unit_test(test_narrow_meta_matches_a_byte_reference),
        cmocka_unit_test(test_parallel_fill_matches_one_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
