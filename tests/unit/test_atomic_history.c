/* Unit tests of runtime/strict/atomic_history.c: the coherence order of
 * atomic words and what each invocation may still read of it.  A load
 * never returns a value older than one the reader knows of (its own
 * reads and writes: 000 coherence; a write carried to it by an acquire:
 * 000 happens-before; anything current at its last barrier), and within
 * these bounds two readers may disagree on the order of stores to two
 * words (IRIW), which the levels alone never show. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "atomic_history.h"

enum { X = 0, Y = 64, LEVEL = 0 };

#define WRITER_X vkmm_atomic_agent(1, 0)
#define WRITER_Y vkmm_atomic_agent(2, 0)
#define READER_1 vkmm_atomic_agent(3, 0)
#define READER_2 vkmm_atomic_agent(4, 0)

static struct vkmm_atomic_history *start(uint64_t seed)
{
    struct vkmm_atomic_history *h = vkmm_atomic_history_create();
    assert_non_null(h);
    vkmm_atomic_history_begin(h, seed);
    return h;
}

/* Tracking starts with the dispatch's first atomic load. */
static void track(struct vkmm_atomic_history *h)
{
    assert_int_equal(vkmm_atomic_history_load(h, LEVEL, 4096, 0, vkmm_atomic_agent(9, 9)), 0);
    assert_true(vkmm_atomic_history_tracking(h));
}

static void test_read_modify_writes_alone_start_nothing(void **state)
{
    (void)state;
    struct vkmm_atomic_history *h = start(0);
    vkmm_atomic_history_rmw(h, LEVEL, X, 0, WRITER_X);
    assert_int_equal(vkmm_atomic_history_versions(h, LEVEL, X), 0);
    assert_false(vkmm_atomic_history_tracking(h));
    /* A landing store starts tracking; the value it lands on was first
     * seen then, and may be from before the dispatch: it stays first. */
    assert_false(vkmm_atomic_history_landed(h, LEVEL, X, 1, 2, WRITER_X));
    assert_true(vkmm_atomic_history_tracking(h));
    assert_int_equal(vkmm_atomic_history_versions(h, LEVEL, X), 2);
    vkmm_atomic_history_destroy(h);
}

/* Two writes no happens-before orders: the later one to land may take its
 * place before the other in the coherence order (2+2W), and then the
 * word keeps the other's value.  Not when its writer saw the newest
 * value, nor before a read-modify-write's value. */
static void test_an_unordered_write_may_come_before_the_newest(void **state)
{
    (void)state;
    struct vkmm_atomic_history *h = start(0);
    track(h);
    assert_false(vkmm_atomic_history_landed(h, LEVEL, X, 0, 1, WRITER_X));
    assert_true(vkmm_atomic_history_landed(h, LEVEL, X, 1, 2, WRITER_Y)); /* seed 0: whenever allowed */
    assert_int_equal(vkmm_atomic_history_versions(h, LEVEL, X), 3);
    /* Its writer knows its own write: it reads it or the newer 1. */
    uint32_t own = vkmm_atomic_history_load(h, LEVEL, X, 1, WRITER_Y);
    assert_true(own == 2 || own == 1);
    /* A writer that read the newest value comes after it. */
    assert_int_equal(vkmm_atomic_history_load(h, LEVEL, Y, 0, READER_1), 0);
    assert_false(vkmm_atomic_history_landed(h, LEVEL, Y, 0, 3, WRITER_X));
    while (vkmm_atomic_history_load(h, LEVEL, Y, 3, READER_1) != 3)
        ;
    assert_false(vkmm_atomic_history_landed(h, LEVEL, Y, 3, 4, READER_1));
    /* Never before a read-modify-write's value. */
    vkmm_atomic_history_rmw(h, LEVEL, Y, 4, WRITER_X); /* writes 5 */
    assert_false(vkmm_atomic_history_landed(h, LEVEL, Y, 5, 6, READER_2));
    vkmm_atomic_history_destroy(h);
}

/* The words one agent's stores land together (a 64-bit store's halves)
 * take a place before the newest values all together or not at all: a
 * reader never sees half of a write. */
static void test_words_landing_together_are_hidden_together(void **state)
{
    (void)state;
    const uint64_t offsets[2] = { X, X + 4 };
    for (uint64_t seed = 0; seed < 10; seed++) {
        for (int rmw = 0; rmw < 2; rmw++) {
            struct vkmm_atomic_history *h = start(seed);
            track(h);
            uint32_t zero[2] = { 0, 0 }, one[2] = { 1, 1 }, five[2] = { 5, 5 };
            assert_false(vkmm_atomic_history_landed_words(h, LEVEL, offsets, zero, one, 2, WRITER_X));
            if (rmw) {
                /* The upper half's newest value is a read-modify-write's:
                 * nothing may come just before it, so neither half moves. */
                vkmm_atomic_history_rmw(h, LEVEL, X + 4, 1, WRITER_X);
                one[1] = 2;
            }
            bool hidden = vkmm_atomic_history_landed_words(h, LEVEL, offsets, one, five, 2, WRITER_Y);
            if (rmw)
                assert_false(hidden);
            else if (seed == 0)
                assert_true(hidden);
            vkmm_atomic_history_destroy(h);
        }
    }
}

/* Seed 0 reads the stalest value allowed; each stale read moves the
 * reader's bound one value on (a spin-wait sees the newest soon), and a
 * value once read is never followed by an older one (CoRR). */
static void test_stalest_first_then_never_older(void **state)
{
    (void)state;
    for (uint64_t seed = 0; seed < 10; seed++) {
        struct vkmm_atomic_history *h = start(seed);
        track(h);
        uint32_t value = 0;
        for (uint32_t v = 1; v <= 3; v++) {
            (void)vkmm_atomic_history_landed(h, LEVEL, X, value, v, WRITER_X);
            value = v;
        }
        uint32_t last = 0;
        for (int read = 0; read < 6; read++) {
            uint32_t got = vkmm_atomic_history_load(h, LEVEL, X, value, READER_1);
            if (seed == 0 && read == 0)
                assert_int_equal(got, 0);
            assert_true(got >= last);
            last = got;
        }
        assert_int_equal(last, 3); /* within VERSIONS reads: the newest */
        vkmm_atomic_history_destroy(h);
    }
}

/* A writer reads its own write or a newer one (CoWR). */
static void test_a_writer_sees_its_own_write(void **state)
{
    (void)state;
    for (uint64_t seed = 0; seed < 10; seed++) {
        struct vkmm_atomic_history *h = start(seed);
        track(h);
        (void)vkmm_atomic_history_landed(h, LEVEL, X, 0, 5, WRITER_X);
        assert_int_equal(vkmm_atomic_history_load(h, LEVEL, X, 5, WRITER_X), 5);
        vkmm_atomic_history_destroy(h);
    }
}

/* Message passing through an acquire: the writer stored x, then y; a
 * reader that reads the new y and acquires reads the new x, on every
 * seed; without the acquire it may read the old x. */
static void test_an_acquire_carries_the_writers_view(void **state)
{
    (void)state;
    bool old_x_without_acquire = false;
    for (uint64_t seed = 0; seed < 32; seed++) {
        for (int acquire = 0; acquire < 2; acquire++) {
            struct vkmm_atomic_history *h = start(seed);
            track(h);
            (void)vkmm_atomic_history_landed(h, LEVEL, X, 0, 1, WRITER_X);
            (void)vkmm_atomic_history_landed(h, LEVEL, Y, 0, 1, WRITER_X);
            uint32_t y = vkmm_atomic_history_load(h, LEVEL, Y, 1, READER_1);
            if (acquire)
                vkmm_atomic_history_acquire(h, READER_1, true);
            uint32_t x = vkmm_atomic_history_load(h, LEVEL, X, 1, READER_1);
            if (acquire && y == 1)
                assert_int_equal(x, 1);
            old_x_without_acquire |= !acquire && y == 1 && x == 0;
            vkmm_atomic_history_destroy(h);
        }
    }
    assert_true(old_x_without_acquire);
}

/* A barrier (an acquire this structure cannot follow) leaves only what is
 * current. */
static void test_a_barrier_leaves_only_current_values(void **state)
{
    (void)state;
    for (uint64_t seed = 0; seed < 10; seed++) {
        struct vkmm_atomic_history *h = start(seed);
        track(h);
        (void)vkmm_atomic_history_landed(h, LEVEL, X, 0, 1, WRITER_X);
        vkmm_atomic_history_acquire(h, READER_1, false);
        assert_int_equal(vkmm_atomic_history_load(h, LEVEL, X, 1, READER_1), 1);
        vkmm_atomic_history_destroy(h);
    }
}

/* IRIW with acquire loads: two readers disagree on the order of the
 * writes to x and y on some seed (allowed: neither writer saw the other's
 * write), and a reader never reads an older value than its view allows. */
static void test_two_readers_may_disagree_on_the_order_of_two_writes(void **state)
{
    (void)state;
    bool disagree = false;
    for (uint64_t seed = 0; seed < 64; seed++) {
        struct vkmm_atomic_history *h = start(seed);
        track(h);
        (void)vkmm_atomic_history_landed(h, LEVEL, X, 0, 1, WRITER_X);
        (void)vkmm_atomic_history_landed(h, LEVEL, Y, 0, 1, WRITER_Y);
        uint32_t r1x = vkmm_atomic_history_load(h, LEVEL, X, 1, READER_1);
        vkmm_atomic_history_acquire(h, READER_1, true);
        uint32_t r1y = vkmm_atomic_history_load(h, LEVEL, Y, 1, READER_1);
        uint32_t r2y = vkmm_atomic_history_load(h, LEVEL, Y, 1, READER_2);
        vkmm_atomic_history_acquire(h, READER_2, true);
        uint32_t r2x = vkmm_atomic_history_load(h, LEVEL, X, 1, READER_2);
        disagree |= r1x == 1 && r1y == 0 && r2y == 1 && r2x == 0;
        vkmm_atomic_history_destroy(h);
    }
    assert_true(disagree);
}

/* Lanes of one instruction that read one word read one value: one every
 * agent among them may read (the writer knows its own write, so seed 0's
 * stalest is that write for both), and every one's view moves past it. */
static void test_agents_reading_together_read_one_value(void **state)
{
    (void)state;
    struct vkmm_atomic_history *h = start(0);
    track(h);
    (void)vkmm_atomic_history_landed(h, LEVEL, X, 0, 1, WRITER_X);
    assert_int_equal(vkmm_atomic_history_load(h, LEVEL, Y, 0, READER_1), 0); /* READER_1 knows nothing of X */
    const uint64_t together[2] = { READER_1, WRITER_X };
    assert_int_equal(vkmm_atomic_history_load_together(h, LEVEL, X, 1, together, 2), 1);
    assert_int_equal(vkmm_atomic_history_load(h, LEVEL, X, 1, READER_1), 1);
    /* Alone, a reader that knows nothing reads the stalest. */
    assert_int_equal(vkmm_atomic_history_load(h, LEVEL, X, 1, READER_2), 0);
    vkmm_atomic_history_destroy(h);
}

/* A read-modify-write reads the newest value; its result becomes a value
 * of the order at its own time, seen when the word is next looked at. */
static void test_read_modify_write_values_join_the_order(void **state)
{
    (void)state;
    struct vkmm_atomic_history *h = start(0);
    track(h);
    (void)vkmm_atomic_history_landed(h, LEVEL, X, 0, 1, WRITER_X);
    vkmm_atomic_history_rmw(h, LEVEL, X, 1, WRITER_Y); /* the caller adds 1: 2 */
    assert_int_equal(vkmm_atomic_history_versions(h, LEVEL, X), 2);
    /* Seed 0: the stalest of 0, 1, 2 for a reader that knows nothing. */
    assert_int_equal(vkmm_atomic_history_load(h, LEVEL, X, 2, READER_1), 0);
    assert_int_equal(vkmm_atomic_history_versions(h, LEVEL, X), 3);
    /* The read-modify-write's agent knows its own write. */
    assert_int_equal(vkmm_atomic_history_load(h, LEVEL, X, 2, WRITER_Y), 2);
    vkmm_atomic_history_destroy(h);
}

/* A change nobody followed (a non-atomic store to the word) forgets the
 * older values: nothing older than the current one may be read. */
static void test_an_unfollowed_change_forgets_older_values(void **state)
{
    (void)state;
    struct vkmm_atomic_history *h = start(0);
    track(h);
    (void)vkmm_atomic_history_landed(h, LEVEL, X, 0, 1, WRITER_X);
    assert_int_equal(vkmm_atomic_history_versions(h, LEVEL, X), 2);
    assert_int_equal(vkmm_atomic_history_load(h, LEVEL, X, 7, READER_1), 7);
    assert_int_equal(vkmm_atomic_history_versions(h, LEVEL, X), 1);
    vkmm_atomic_history_destroy(h);
}

/* A reader whose view has no room left falls back to now: only current
 * values (never an older one than its bounds allowed). */
static void test_a_full_view_falls_back_to_current_values(void **state)
{
    (void)state;
    struct vkmm_atomic_history *h = start(0);
    track(h);
    for (uint64_t word = 0; word < 40; word++)
        (void)vkmm_atomic_history_landed(h, LEVEL, 256 + word * 4, 0, 1, WRITER_X);
    (void)vkmm_atomic_history_landed(h, LEVEL, X, 0, 1, WRITER_Y);
    /* The reader's own loads fill its view: some of them read stale, and
     * the view moves to a floor of now. */
    for (uint64_t word = 0; word < 40; word++)
        vkmm_atomic_history_load(h, LEVEL, 256 + word * 4, 1, READER_1);
    assert_int_equal(vkmm_atomic_history_load(h, LEVEL, X, 1, READER_1), 1);
    vkmm_atomic_history_destroy(h);
}

/* Levels are separate orders: a workgroup's copy of a word is not the
 * device's. */
static void test_levels_are_separate(void **state)
{
    (void)state;
    struct vkmm_atomic_history *h = start(0);
    track(h);
    (void)vkmm_atomic_history_landed(h, 5, X, 0, 1, WRITER_X);
    assert_int_equal(vkmm_atomic_history_versions(h, 5, X), 2);
    assert_int_equal(vkmm_atomic_history_versions(h, LEVEL, X), 0);
    vkmm_atomic_history_begin(h, 0);
    assert_int_equal(vkmm_atomic_history_versions(h, 5, X), 0);
    vkmm_atomic_history_destroy(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_modify_writes_alone_start_nothing),
        cmocka_unit_test(test_an_unordered_write_may_come_before_the_newest),
        cmocka_unit_test(test_words_landing_together_are_hidden_together),
        cmocka_unit_test(test_stalest_first_then_never_older),
        cmocka_unit_test(test_a_writer_sees_its_own_write),
        cmocka_unit_test(test_an_acquire_carries_the_writers_view),
        cmocka_unit_test(test_a_barrier_leaves_only_current_values),
        cmocka_unit_test(test_two_readers_may_disagree_on_the_order_of_two_writes),
        cmocka_unit_test(test_agents_reading_together_read_one_value),
        cmocka_unit_test(test_read_modify_write_values_join_the_order),
        cmocka_unit_test(test_an_unfollowed_change_forgets_older_values),
        cmocka_unit_test(test_a_full_view_falls_back_to_current_values),
        cmocka_unit_test(test_levels_are_separate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
