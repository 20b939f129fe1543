/* Unit tests of runtime/strict/workgroup_store_buffer.c: atomic stores to
 * Workgroup storage wait in their subgroup's buffer.  Another subgroup does
 * not see them until they are performed; the storing subgroup sees its own
 * stores; a control barrier or the subgroup's end performs them; a release
 * keeps the stores after it waiting until those before it went out; and
 * coherence per location holds (a newer store of the same bytes never goes
 * out before an older one). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "shader_abi.h"
#include "workgroup_store_buffer.h"

enum { SUBGROUPS = 2, SHARED = 64 };

#define ATOMIC_STORE (VKMM_WORKGROUP_ATOMIC | VKMM_WORKGROUP_WRITE)
#define ATOMIC_LOAD (VKMM_WORKGROUP_ATOMIC | VKMM_WORKGROUP_READ)

/* One lane of `subgroup` stores `value` to the word at `offset` as the
 * generated code does: at its address moved by the hook's answer. */
static void store_word(struct vkmm_store_buffers *s, uint8_t *shared, uint32_t subgroup, uint32_t offset,
                       uint32_t value, uint32_t flags)
{
    int64_t delta = vkmm_store_buffers_access(s, subgroup, &offset, 1, 4, flags);
    memcpy(shared + offset + delta, &value, 4);
}

/* Buffers for a new workgroup on `shared` under `seed`. */
static struct vkmm_store_buffers *start(uint8_t *shared, uint64_t seed)
{
    struct vkmm_store_buffers *s = vkmm_store_buffers_create(SUBGROUPS, SHARED);
    assert_non_null(s);
    vkmm_store_buffers_begin(s, shared, seed);
    return s;
}

static uint32_t load_word(struct vkmm_store_buffers *s, uint8_t *shared, uint32_t subgroup, uint32_t offset)
{
    int64_t delta = vkmm_store_buffers_access(s, subgroup, &offset, 1, 4, ATOMIC_LOAD);
    uint32_t value;
    memcpy(&value, shared + offset + delta, 4);
    return value;
}

static void test_other_subgroups_do_not_see_a_waiting_store(void **state)
{
    (void)state;
    uint8_t shared[SHARED] = { 0 };
    struct vkmm_store_buffers *s = start(shared, 0);
    store_word(s, shared, 0, 8, 7, ATOMIC_STORE);
    assert_true(vkmm_store_buffers_holding(s, 0));
    assert_int_equal(load_word(s, shared, 1, 8), 0); /* store buffering: the other subgroup reads memory */
    assert_int_equal(load_word(s, shared, 0, 8), 7); /* the storing subgroup sees its own store */
    assert_false(vkmm_store_buffers_holding(s, 0));
    assert_int_equal(load_word(s, shared, 1, 8), 7);
    vkmm_store_buffers_destroy(s);
}

static void test_a_barrier_or_the_end_performs_the_stores(void **state)
{
    (void)state;
    uint8_t shared[SHARED] = { 0 };
    struct vkmm_store_buffers *s = start(shared, 0);
    store_word(s, shared, 0, 0, 1, ATOMIC_STORE);
    store_word(s, shared, 1, 4, 2, ATOMIC_STORE);
    assert_int_equal(load_word(s, shared, 1, 0), 0);
    assert_int_equal(load_word(s, shared, 0, 4), 0);
    vkmm_store_buffers_drain(s, 0); /* subgroup 0 at a control barrier */
    assert_int_equal(load_word(s, shared, 1, 0), 1);
    vkmm_store_buffers_drain(s, 1); /* subgroup 1 finished */
    assert_int_equal(load_word(s, shared, 0, 4), 2);
    vkmm_store_buffers_destroy(s);
}

/* Data stored before a flag, with a release between (Release semantics on
 * the flag's store, or a fence): on every seed and at every scheduling
 * point, whoever sees the flag sees the data, and scheduling points alone
 * empty the buffer (progress). */
static void check_release_orders_the_data(bool fence)
{
    for (uint64_t seed = 0; seed < 10; seed++) {
        uint8_t shared[SHARED] = { 0 };
        struct vkmm_store_buffers *s = start(shared, seed);
        store_word(s, shared, 0, 0, 5, ATOMIC_STORE);
        store_word(s, shared, 0, 4, 6, ATOMIC_STORE);
        if (fence)
            vkmm_store_buffers_release(s, 0);
        store_word(s, shared, 0, 32, 1, ATOMIC_STORE | (fence ? 0 : VKMM_ACCESS_RELEASE));
        for (int step = 0; step < 20 && vkmm_store_buffers_holding(s, 0); step++) {
            if (load_word(s, shared, 1, 32) == 1) {
                assert_int_equal(load_word(s, shared, 1, 0), 5);
                assert_int_equal(load_word(s, shared, 1, 4), 6);
            }
            vkmm_store_buffers_yield(s, 0);
        }
        assert_false(vkmm_store_buffers_holding(s, 0));
        assert_int_equal(load_word(s, shared, 1, 32), 1);
        vkmm_store_buffers_destroy(s);
    }
}

static void test_a_release_store_orders_the_stores_before_it(void **state)
{
    (void)state;
    check_release_orders_the_data(false);
}

static void test_a_fence_release_orders_the_stores_before_it(void **state)
{
    (void)state;
    check_release_orders_the_data(true);
}

/* Without a release, some seed performs the flag's store before the
 * data's (message passing with relaxed atomics: allowed). */
static void test_relaxed_stores_may_go_out_of_order(void **state)
{
    (void)state;
    bool flag_first = false;
    for (uint64_t seed = 0; seed < 10; seed++) {
        uint8_t shared[SHARED] = { 0 };
        struct vkmm_store_buffers *s = start(shared, seed);
        store_word(s, shared, 0, 0, 5, ATOMIC_STORE);
        store_word(s, shared, 0, 16, 1, ATOMIC_STORE);
        for (int step = 0; step < 20 && vkmm_store_buffers_holding(s, 0); step++) {
            if (load_word(s, shared, 1, 16) == 1 && load_word(s, shared, 1, 0) == 0)
                flag_first = true;
            vkmm_store_buffers_yield(s, 0);
        }
        vkmm_store_buffers_drain(s, 0);
        assert_int_equal(load_word(s, shared, 1, 0), 5);
        vkmm_store_buffers_destroy(s);
    }
    assert_true(flag_first);
}

/* Coherence per location: a second store of the same bytes performs the
 * first, so another subgroup sees 0, 1, 2 in that order and never 2
 * before 1 is gone, on every seed. */
static void test_stores_of_one_location_go_out_in_order(void **state)
{
    (void)state;
    for (uint64_t seed = 0; seed < 10; seed++) {
        uint8_t shared[SHARED] = { 0 };
        struct vkmm_store_buffers *s = start(shared, seed);
        store_word(s, shared, 0, 16, 1, ATOMIC_STORE);
        assert_int_equal(load_word(s, shared, 1, 16), 0);
        store_word(s, shared, 0, 16, 2, ATOMIC_STORE);
        assert_int_equal(load_word(s, shared, 1, 16), 1); /* the first went out before the second waits */
        uint32_t last = 1;
        for (int step = 0; step < 20; step++) {
            uint32_t value = load_word(s, shared, 1, 16);
            assert_true(value >= last);
            last = value;
            vkmm_store_buffers_yield(s, 0);
        }
        vkmm_store_buffers_drain(s, 0);
        assert_int_equal(load_word(s, shared, 1, 16), 2);
        vkmm_store_buffers_destroy(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_other_subgroups_do_not_see_a_waiting_store),
        cmocka_unit_test(test_a_barrier_or_the_end_performs_the_stores),
        cmocka_unit_test(test_a_release_store_orders_the_stores_before_it),
        cmocka_unit_test(test_a_fence_release_orders_the_stores_before_it),
        cmocka_unit_test(test_relaxed_stores_may_go_out_of_order),
        cmocka_unit_test(test_stores_of_one_location_go_out_in_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
