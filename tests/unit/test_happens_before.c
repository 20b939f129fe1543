/* Unit tests of runtime/strict/happens_before.c: happens-before between
 * the workgroups of one dispatch.  Two conflicting non-private accesses of
 * different workgroups race unless a release at Device scope, an atomic
 * write carrying it, an atomic read of that word and an acquire at Device
 * scope order them (000 "Synchronizes-With"), whichever ran first; relaxed
 * atomics, Workgroup-scope fences and accesses of one workgroup order or
 * judge nothing; the structure may add order (overflow), never remove it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "happens_before.h"

enum { DATA = 256, FLAG = 4096, SIZE = 1 << 16, SITE_WRITE = 1, SITE_READ = 2, SITE_OTHER = 3, SITE_ATOMIC = 4 };

static struct vkmm_happens_before *start(void)
{
    struct vkmm_happens_before *h = vkmm_happens_before_create(SIZE);
    assert_non_null(h);
    vkmm_happens_before_begin(h);
    return h;
}

static bool write_data(struct vkmm_happens_before *h, uint32_t tag, struct vkmm_unordered *u)
{
    return vkmm_happens_before_access(h, DATA, 16, true, tag, 5, SITE_WRITE, u);
}

static bool read_data(struct vkmm_happens_before *h, uint32_t tag, struct vkmm_unordered *u)
{
    return vkmm_happens_before_access(h, DATA, 16, false, tag, 7, SITE_READ, u);
}

/* Workgroup `from` hands the data to `to` through the flag with
 * release/acquire at scope `wide`; `release`/`acquire` false: relaxed. */
static void hand_over(struct vkmm_happens_before *h, uint32_t from, uint32_t to, bool release, bool acquire,
                      bool wide)
{
    if (release)
        vkmm_happens_before_release(h, from, wide);
    vkmm_happens_before_atomic(h, from, FLAG, false, true);
    vkmm_happens_before_atomic(h, to, FLAG, true, false);
    if (acquire)
        vkmm_happens_before_acquire(h, to, wide);
}

static void test_unsynchronized_workgroups_race_in_either_order(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    assert_false(write_data(h, 1, &u));
    assert_true(read_data(h, 2, &u));
    assert_int_equal(u.tag, 1);
    assert_int_equal(u.site, SITE_WRITE);
    assert_int_equal(u.invocation, 5);
    assert_true(u.write);
    assert_int_equal(u.why, VKMM_UNORDERED_NO_SYNC);
    /* The other order: the read first, then the write (write after read). */
    vkmm_happens_before_begin(h);
    assert_false(read_data(h, 2, &u));
    assert_true(write_data(h, 1, &u));
    assert_int_equal(u.tag, 2);
    assert_int_equal(u.site, SITE_READ);
    assert_false(u.write);
    /* Two writers (write after write). */
    vkmm_happens_before_begin(h);
    assert_false(write_data(h, 1, &u));
    assert_true(write_data(h, 3, &u));
    assert_true(u.write);
    vkmm_happens_before_destroy(h);
}

static void test_reads_and_one_workgroup_never_race(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    assert_false(read_data(h, 1, &u));
    assert_false(read_data(h, 2, &u));
    assert_false(read_data(h, 3, &u));
    /* One invocation's own accesses never race. */
    vkmm_happens_before_begin(h);
    assert_false(write_data(h, 4, &u));
    assert_false(vkmm_happens_before_access(h, DATA, 4, false, 4, 5, SITE_READ, &u));
    assert_false(write_data(h, 4, &u));
    /* A new dispatch forgets the last one's accesses. */
    vkmm_happens_before_begin(h);
    assert_false(write_data(h, 5, &u));
    vkmm_happens_before_destroy(h);
}

static void test_release_acquire_at_device_scope_orders(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    assert_false(write_data(h, 1, &u));
    hand_over(h, 1, 2, true, true, true);
    assert_false(read_data(h, 2, &u));
    /* The reader's later write is ordered after the writer's write too,
     * and after its own read. */
    assert_false(write_data(h, 2, &u));
    vkmm_happens_before_destroy(h);
}

static void test_a_write_after_the_release_is_not_ordered(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    hand_over(h, 1, 2, true, true, true);
    assert_false(write_data(h, 1, &u)); /* after the release: the hand-over does not cover it */
    assert_true(read_data(h, 2, &u));
    vkmm_happens_before_destroy(h);
}

static void test_relaxed_flags_order_nothing(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    assert_false(write_data(h, 1, &u));
    hand_over(h, 1, 2, false, true, true); /* no release */
    assert_true(read_data(h, 2, &u));
    assert_int_equal(u.why, VKMM_UNORDERED_RELAXED);
    vkmm_happens_before_begin(h);
    assert_false(write_data(h, 1, &u));
    hand_over(h, 1, 2, true, false, true); /* no acquire */
    assert_true(read_data(h, 2, &u));
    assert_int_equal(u.why, VKMM_UNORDERED_RELAXED);
    /* An acquire after the flag's load orders what the load returned
     * (a fence: 000 "Synchronizes-With"), however late. */
    vkmm_happens_before_begin(h);
    assert_false(write_data(h, 1, &u));
    hand_over(h, 1, 2, true, false, true);
    vkmm_happens_before_acquire(h, 2, true);
    assert_false(read_data(h, 2, &u));
    vkmm_happens_before_destroy(h);
}

static void test_workgroup_scope_orders_nothing_between_workgroups(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    assert_false(write_data(h, 1, &u));
    hand_over(h, 1, 2, true, true, false);
    assert_true(read_data(h, 2, &u));
    assert_int_equal(u.why, VKMM_UNORDERED_NARROW_SCOPE);
    vkmm_happens_before_destroy(h);
}

/* 000 "Happens-Before" is transitive: 1 -> 2 -> 3 orders 1's write
 * before 3's read, with another flag between 2 and 3. */
static void test_happens_before_is_transitive(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    assert_false(write_data(h, 1, &u));
    hand_over(h, 1, 2, true, true, true);
    vkmm_happens_before_release(h, 2, true);
    vkmm_happens_before_atomic(h, 2, FLAG + 4, false, true);
    vkmm_happens_before_atomic(h, 3, FLAG + 4, true, false);
    vkmm_happens_before_acquire(h, 3, true);
    assert_false(read_data(h, 3, &u));
    /* A workgroup the chain never reached still races. */
    assert_true(read_data(h, 4, &u));
    assert_int_equal(u.tag, 1);
    vkmm_happens_before_destroy(h);
}

/* A read another workgroup is not ordered after stays recorded beside a
 * later ordered one: the next write races with it. */
static void test_concurrent_reads_keep_the_unordered_one(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    assert_false(read_data(h, 1, &u));
    assert_false(read_data(h, 2, &u));
    assert_true(write_data(h, 2, &u)); /* races with 1's read */
    assert_int_equal(u.tag, 1);
    vkmm_happens_before_destroy(h);
}

/* Invocations of one workgroup: a control barrier orders them (000
 * "Synchronizes-With": control barriers); without one they race, whatever
 * their order.  A phase with a fence or an atomic's release/acquire is not
 * judged (synchronization through atomics inside a workgroup is not
 * followed). */
static void test_invocations_of_one_workgroup_need_a_barrier(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    assert_false(write_data(h, 4, &u)); /* invocation 5 */
    assert_true(vkmm_happens_before_access(h, DATA, 4, false, 4, 6, SITE_READ, &u));
    assert_int_equal(u.tag, 4);
    assert_int_equal(u.invocation, 5);
    assert_int_equal(u.why, VKMM_UNORDERED_NO_BARRIER);
    /* After a barrier: ordered, both ways. */
    vkmm_happens_before_begin(h);
    assert_false(write_data(h, 4, &u));
    vkmm_happens_before_barrier(h, 4);
    assert_false(vkmm_happens_before_access(h, DATA, 4, false, 4, 6, SITE_READ, &u));
    vkmm_happens_before_barrier(h, 4);
    assert_false(vkmm_happens_before_access(h, DATA, 4, true, 4, 7, SITE_OTHER, &u));
    /* Another workgroup's barrier orders nothing here. */
    vkmm_happens_before_barrier(h, 9);
    assert_true(vkmm_happens_before_access(h, DATA, 4, false, 4, 8, SITE_READ, &u));
    /* A fence in the phase: not judged. */
    vkmm_happens_before_begin(h);
    assert_false(write_data(h, 4, &u));
    vkmm_happens_before_release(h, 4, false);
    assert_false(vkmm_happens_before_access(h, DATA, 4, false, 4, 6, SITE_READ, &u));
    vkmm_happens_before_barrier(h, 4);
    assert_false(vkmm_happens_before_access(h, DATA, 4, true, 4, 7, SITE_OTHER, &u));
    assert_true(vkmm_happens_before_access(h, DATA, 4, false, 4, 8, SITE_READ, &u)); /* the next phase is */
    vkmm_happens_before_destroy(h);
}

/* A read without MakePointerVisible of bytes another invocation wrote,
 * ordered after the write by release/acquire: a race while the reader's
 * subgroup made nothing visible (000 "Location-Ordered"), none once it
 * did, none for the writer's own invocation, none for bytes no one wrote
 * in the dispatch. */
static void test_a_read_never_made_visible_races(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    assert_false(write_data(h, 1, &u)); /* invocation 5 of workgroup 1 */
    hand_over(h, 1, 2, true, true, true);
    assert_false(read_data(h, 2, &u));
    assert_true(vkmm_happens_before_unseen_write(h, DATA, 16, 2, 0, 7, &u));
    assert_int_equal(u.tag, 1);
    assert_int_equal(u.site, SITE_WRITE);
    assert_int_equal(u.invocation, 5);
    assert_true(u.write);
    assert_int_equal(u.why, VKMM_UNORDERED_NOT_VISIBLE);
    /* Another subgroup of workgroup 2 makes something visible: not this one. */
    vkmm_happens_before_visible(h, 2, 1);
    assert_true(vkmm_happens_before_unseen_write(h, DATA, 16, 2, 0, 7, &u));
    vkmm_happens_before_visible(h, 2, 0);
    assert_false(vkmm_happens_before_unseen_write(h, DATA, 16, 2, 0, 7, &u));
    /* The writer's own invocation sees its write; another one of its
     * workgroup does not; untouched bytes were written by no one. */
    assert_false(vkmm_happens_before_unseen_write(h, DATA, 16, 1, 0, 5, &u));
    assert_true(vkmm_happens_before_unseen_write(h, DATA, 16, 1, 0, 6, &u));
    assert_false(vkmm_happens_before_unseen_write(h, DATA + 64, 16, 1, 0, 6, &u));
    /* The subgroups per workgroup unknown: past the 64th, a subgroup counts
     * as having made everything visible. */
    assert_false(vkmm_happens_before_unseen_write(h, DATA, 16, 3, 64, 64 * 8, &u));
    /* A new dispatch forgets what was made visible. */
    vkmm_happens_before_begin(h);
    assert_false(write_data(h, 1, &u));
    assert_true(vkmm_happens_before_unseen_write(h, DATA, 16, 2, 0, 7, &u));
    vkmm_happens_before_destroy(h);
}

/* A workgroup of 1,024 invocations has 128 subgroups of 8: each one's
 * visibility operations and its releases and acquires are followed, the
 * 100th's as the first's (until the twentieth session, subgroups past the
 * 64th were taken as having made everything visible and acquired
 * everything).  While the count is unknown, the first 64 are. */
static void test_subgroups_past_the_64th_are_judged(void **state)
{
    (void)state;
    enum { WIDTH = 8, WRITER = 90 * WIDTH + 1, READER = 120 * WIDTH + 3 };
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    vkmm_happens_before_subgroups(h, 128);
    assert_false(vkmm_happens_before_access(h, DATA, 16, true, 1, 5, SITE_WRITE, &u));
    hand_over(h, 1, 2, true, true, true);
    assert_false(vkmm_happens_before_access(h, DATA, 16, false, 2, READER, SITE_READ, &u));
    assert_true(vkmm_happens_before_unseen_write(h, DATA, 16, 2, 120, READER, &u));
    vkmm_happens_before_visible(h, 2, 100);
    assert_true(vkmm_happens_before_unseen_write(h, DATA, 16, 2, 120, READER, &u));
    vkmm_happens_before_visible(h, 2, 120);
    assert_false(vkmm_happens_before_unseen_write(h, DATA, 16, 2, 120, READER, &u));
    /* Inside one workgroup: subgroup 90 writes and releases, subgroup 120
     * reads with no acquire, then acquires. */
    vkmm_happens_before_begin(h);
    assert_false(vkmm_happens_before_access(h, DATA, 16, true, 4, WRITER, SITE_WRITE, &u));
    vkmm_happens_before_release(h, 4, false);
    vkmm_happens_before_device_release(h, 4, 90);
    assert_false(vkmm_happens_before_access(h, DATA, 16, false, 4, READER, SITE_READ, &u));
    assert_true(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 120, READER, WIDTH, &u));
    assert_int_equal(u.invocation, WRITER);
    assert_int_equal(u.why, VKMM_UNORDERED_NOT_ACQUIRED);
    vkmm_happens_before_device_acquire(h, 4, 120, false);
    assert_false(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 120, READER, WIDTH, &u));
    vkmm_happens_before_destroy(h);
}

/* Each dispatch sizes its subgroups' states: a dispatch of large
 * workgroups after one of small workgroups gets room for its larger
 * states (AddressSanitizer saw the CTS overrun the smaller room). */
static void test_states_grow_with_the_workgroups(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    vkmm_happens_before_subgroups(h, 2);
    for (uint32_t tag = 1; tag <= 200; tag++)
        vkmm_happens_before_visible(h, tag, 1);
    vkmm_happens_before_begin(h);
    vkmm_happens_before_subgroups(h, 1024);
    for (uint32_t tag = 1; tag <= 200; tag++)
        vkmm_happens_before_visible(h, tag, 1000);
    assert_false(write_data(h, 300, &u));
    hand_over(h, 300, 200, true, true, true);
    assert_false(vkmm_happens_before_unseen_write(h, DATA, 16, 200, 1000, 1000 * 8, &u));
    assert_true(vkmm_happens_before_unseen_write(h, DATA, 16, 200, 999, 999 * 8, &u));
    vkmm_happens_before_destroy(h);
}

/* Inside a workgroup, in a phase fences or atomics synchronized (taken
 * as ordered): a read of another subgroup's write races while the
 * reader's subgroup acquired nothing naming device memory (Khronos test1),
 * not once it did, not for its own subgroup's writes, not after a barrier,
 * nor in a phase nothing synchronized (judged as usual). */
static void test_a_read_with_no_acquire_naming_the_memory_races(void **state)
{
    (void)state;
    enum { WIDTH = 8 };
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    assert_false(write_data(h, 4, &u)); /* invocation 5: subgroup 0 */
    vkmm_happens_before_release(h, 4, false);
    vkmm_happens_before_device_release(h, 4, 0);
    assert_false(vkmm_happens_before_access(h, DATA, 16, false, 4, 9, SITE_READ, &u));
    assert_true(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 1, 9, WIDTH, &u));
    assert_int_equal(u.tag, 4);
    assert_int_equal(u.invocation, 5);
    assert_int_equal(u.why, VKMM_UNORDERED_NOT_ACQUIRED);
    assert_false(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 0, 6, WIDTH, &u)); /* same subgroup */
    vkmm_happens_before_device_acquire(h, 4, 1, false);
    assert_false(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 1, 9, WIDTH, &u));
    assert_true(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 2, 17, WIDTH, &u));
    vkmm_happens_before_barrier(h, 4);
    assert_false(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 2, 17, WIDTH, &u));
    /* A phase nothing synchronized: vkmm_happens_before_access judges it. */
    vkmm_happens_before_begin(h);
    vkmm_happens_before_no_atomics(h);
    assert_false(write_data(h, 4, &u));
    vkmm_happens_before_release(h, 4, false);
    assert_false(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 1, 9, WIDTH, &u));
    vkmm_happens_before_destroy(h);
}

/* An atomic at Workgroup scope of workgroup `tag` on the data (a store,
 * a load or a read-modify-write). */
static bool scoped_atomic(struct vkmm_happens_before *h, uint32_t tag, bool read, bool write, uint32_t site,
                          struct vkmm_unordered *u)
{
    return vkmm_happens_before_scoped_atomic(h, DATA, 4, read, write, tag, 0, 3, site, u);
}

/* Atomics at Workgroup scope in two workgroups are not mutually ordered
 * (Khronos mpnotinscope1-6): message passing through a Device-scope flag
 * orders them, but the store must be made available at Device scope after
 * it and the load's subgroup must make it visible at Device scope; without
 * both the pair races (reported whichever the schedule), with both it does
 * not; with no release/acquire at all it races too. */
static void test_atomics_of_narrow_scope_race_between_workgroups(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    /* mpnotinscope2: release/acquire on the flag, nothing made available. */
    assert_false(scoped_atomic(h, 1, false, true, SITE_WRITE, &u));
    hand_over(h, 1, 2, true, true, true);
    vkmm_happens_before_device_visible(h, 2, 0);
    assert_true(scoped_atomic(h, 2, true, false, SITE_READ, &u));
    assert_int_equal(u.tag, 1);
    assert_int_equal(u.site, SITE_WRITE);
    assert_true(u.write);
    assert_true(u.atomic);
    assert_int_equal(u.why, VKMM_UNORDERED_SCOPED_ATOMIC);
    /* mpnotinscope1: made available at Device scope after the store and
     * visible at Device scope before the load. */
    vkmm_happens_before_begin(h);
    assert_false(scoped_atomic(h, 1, false, true, SITE_WRITE, &u));
    vkmm_happens_before_device_available(h, 1);
    hand_over(h, 1, 2, true, true, true);
    assert_true(scoped_atomic(h, 2, true, false, SITE_READ, &u)); /* not yet visible */
    vkmm_happens_before_begin(h);
    assert_false(scoped_atomic(h, 1, false, true, SITE_WRITE, &u));
    vkmm_happens_before_device_available(h, 1);
    hand_over(h, 1, 2, true, true, true);
    vkmm_happens_before_device_visible(h, 2, 0);
    assert_false(scoped_atomic(h, 2, true, false, SITE_READ, &u));
    /* Made available before the store (mpnotinscope5): not after it. */
    vkmm_happens_before_begin(h);
    vkmm_happens_before_device_available(h, 1);
    assert_false(scoped_atomic(h, 1, false, true, SITE_WRITE, &u));
    hand_over(h, 1, 2, true, true, true);
    vkmm_happens_before_device_visible(h, 2, 0);
    assert_true(scoped_atomic(h, 2, true, false, SITE_READ, &u));
    /* Nothing orders them: a race in either order, a load and a
     * non-atomic write too. */
    vkmm_happens_before_begin(h);
    assert_false(scoped_atomic(h, 2, true, false, SITE_READ, &u));
    assert_true(scoped_atomic(h, 1, false, true, SITE_WRITE, &u));
    assert_false(u.write);
    vkmm_happens_before_begin(h);
    assert_false(vkmm_happens_before_access(h, DATA, 4, true, 1, 5, SITE_WRITE, &u));
    assert_true(scoped_atomic(h, 2, true, false, SITE_READ, &u));
    assert_false(u.atomic);
    assert_int_equal(u.why, VKMM_UNORDERED_SCOPED_ATOMIC);
    /* A non-atomic read after an unordered scoped store names it. */
    vkmm_happens_before_begin(h);
    assert_false(scoped_atomic(h, 1, false, true, SITE_WRITE, &u));
    assert_true(read_data(h, 2, &u));
    assert_true(u.atomic);
    assert_int_equal(u.why, VKMM_UNORDERED_SCOPED_ATOMIC);
    vkmm_happens_before_destroy(h);
}

/* Inside one workgroup, atomics at Workgroup scope are mutually ordered:
 * no race; two read-modify-writes of different workgroups are left to the
 * levels' lost updates. */
static void test_scoped_atomics_inside_a_workgroup_and_counters(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    assert_false(vkmm_happens_before_scoped_atomic(h, DATA, 4, false, true, 4, 0, 1, SITE_WRITE, &u));
    assert_false(vkmm_happens_before_scoped_atomic(h, DATA, 4, true, false, 4, 1, 9, SITE_READ, &u));
    assert_false(vkmm_happens_before_scoped_atomic(h, DATA, 4, true, true, 4, 2, 17, SITE_OTHER, &u));
    vkmm_happens_before_begin(h);
    for (uint32_t tag = 1; tag <= 4; tag++)
        assert_false(scoped_atomic(h, tag, true, true, SITE_OTHER, &u));
    assert_true(scoped_atomic(h, 5, true, false, SITE_READ, &u));
    vkmm_happens_before_destroy(h);
}

/* Inside a workgroup, in a phase fences or atomics synchronized: a read of
 * another subgroup's write races unless the writer's subgroup released
 * (naming device memory) after the write and the reader's acquired after
 * it — a release or an acquire before the write does not count, nor
 * another subgroup's release. */
static void test_a_write_with_no_release_after_it_races(void **state)
{
    (void)state;
    enum { WIDTH = 8 };
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    vkmm_happens_before_release(h, 4, false);
    vkmm_happens_before_device_release(h, 4, 0); /* before the write */
    vkmm_happens_before_device_acquire(h, 4, 1, false); /* before the write */
    assert_false(write_data(h, 4, &u));           /* subgroup 0 */
    assert_true(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 1, 9, WIDTH, &u));
    assert_int_equal(u.why, VKMM_UNORDERED_NOT_ACQUIRED);
    vkmm_happens_before_device_acquire(h, 4, 1, false); /* after it, but nothing released after it */
    assert_true(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 1, 9, WIDTH, &u));
    assert_int_equal(u.why, VKMM_UNORDERED_NOT_RELEASED);
    assert_int_equal(u.invocation, 5);
    vkmm_happens_before_device_release(h, 4, 2); /* another subgroup's release */
    assert_true(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 1, 9, WIDTH, &u));
    /* Released after the write: ordered (the acquire is not matched with
     * the release it read from: either order counts). */
    vkmm_happens_before_device_release(h, 4, 0);
    assert_false(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 1, 9, WIDTH, &u));
    /* Acquires repeated with no write between (a spin) make no new
     * moment: a write after them still needs a release and an acquire. */
    for (int i = 0; i < 100000; i++)
        vkmm_happens_before_device_acquire(h, 4, 1, false);
    assert_false(write_data(h, 4, &u));
    assert_true(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 1, 9, WIDTH, &u));
    /* An atomic write (Khronos test17: a release store read by an acquire
     * load) needs no release after it. */
    assert_false(vkmm_happens_before_scoped_atomic(h, DATA, 4, false, true, 4, 0, 1, SITE_WRITE, &u));
    vkmm_happens_before_device_acquire(h, 4, 1, false);
    assert_false(vkmm_happens_before_unacquired_write(h, DATA, 4, 4, 1, 9, WIDTH, &u));
    vkmm_happens_before_destroy(h);
}

/* An atomic of Device scope and a non-atomic access of another workgroup
 * are not mutually ordered: a flag stored plainly and loaded atomically, or
 * a counter written plainly and then updated atomically, race unless
 * happens-before orders them; an atomic write leaves a record a later plain
 * read is judged against (not a plain write: the counter reset). */
static void test_device_atomics_and_plain_accesses(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    assert_false(vkmm_happens_before_access(h, DATA, 4, true, 1, 5, SITE_WRITE, &u));
    assert_true(vkmm_happens_before_wide_atomic(h, DATA, 4, true, false, 2, 7, SITE_ATOMIC, &u));
    assert_int_equal(u.tag, 1);
    assert_true(u.write);
    assert_false(u.atomic);
    assert_int_equal(u.why, VKMM_UNORDERED_NO_SYNC);
    assert_true(vkmm_happens_before_wide_atomic(h, DATA, 4, true, true, 3, 7, SITE_ATOMIC, &u)); /* an update */
    assert_false(vkmm_happens_before_wide_atomic(h, DATA, 4, true, true, 1, 5, SITE_ATOMIC, &u)); /* its own write */
    /* Ordered by a hand-over: no race. */
    vkmm_happens_before_begin(h);
    assert_false(vkmm_happens_before_access(h, DATA, 4, true, 1, 5, SITE_WRITE, &u));
    hand_over(h, 1, 2, true, true, true);
    assert_false(vkmm_happens_before_wide_atomic(h, DATA, 4, true, false, 2, 7, SITE_ATOMIC, &u));
    /* A plain read, then another workgroup's atomic write: a race too. */
    vkmm_happens_before_begin(h);
    assert_false(vkmm_happens_before_access(h, DATA, 4, false, 1, 5, SITE_READ, &u));
    /* Reads do not conflict. */
    assert_false(vkmm_happens_before_wide_atomic(h, DATA, 4, true, false, 2, 7, SITE_ATOMIC, &u));
    assert_true(vkmm_happens_before_wide_atomic(h, DATA, 4, false, true, 2, 7, SITE_ATOMIC, &u));
    assert_false(u.write);
    /* A counter read plainly while another workgroup adds to it: a race,
     * naming the atomic; the plain reset after the atomics is left alone;
     * atomics do not race with each other. */
    vkmm_happens_before_begin(h);
    assert_false(vkmm_happens_before_wide_atomic(h, DATA, 4, true, true, 1, 5, SITE_ATOMIC, &u));
    assert_false(vkmm_happens_before_wide_atomic(h, DATA, 4, true, true, 3, 5, SITE_ATOMIC, &u));
    assert_true(vkmm_happens_before_access(h, DATA, 4, false, 2, 7, SITE_READ, &u));
    assert_int_equal(u.tag, 3);
    assert_int_equal(u.site, SITE_ATOMIC);
    assert_true(u.write && u.atomic);
    assert_false(vkmm_happens_before_access(h, DATA, 4, true, 2, 7, SITE_WRITE, &u));
    /* Ordered by a hand-over after the atomic: no race; an atomic after
     * the workgroup's release counts as before it (lenient). */
    vkmm_happens_before_begin(h);
    assert_false(vkmm_happens_before_wide_atomic(h, DATA, 4, true, true, 1, 5, SITE_ATOMIC, &u));
    hand_over(h, 1, 2, true, true, true);
    assert_false(vkmm_happens_before_access(h, DATA, 4, false, 2, 7, SITE_READ, &u));
    for (int acquire = 1; acquire >= 0; acquire--) { /* without the acquire: a race */
        vkmm_happens_before_begin(h);
        vkmm_happens_before_release(h, 1, true);
        assert_false(vkmm_happens_before_wide_atomic(h, DATA, 4, true, true, 1, 5, SITE_ATOMIC, &u));
        hand_over(h, 1, 2, false, acquire, true);
        assert_int_equal(vkmm_happens_before_access(h, DATA, 4, false, 2, 7, SITE_READ, &u), !acquire);
    }
    vkmm_happens_before_destroy(h);
}

/* A new dispatch with subgroups of 4 lanes. */
static void restart_with_width_4(struct vkmm_happens_before *h)
{
    vkmm_happens_before_begin(h);
    vkmm_happens_before_subgroup_width(h, 4);
}

/* Atomics of Subgroup scope are mutually ordered only inside their
 * subgroup: another subgroup's access in the same barrier phase races with
 * them (a flag handed between subgroups at Subgroup scope), unless a
 * barrier or a release and acquire at Workgroup scope came between; two
 * read-modify-writes are left to the levels' lost updates. */
static void test_subgroup_scope_atomics_between_subgroups(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    restart_with_width_4(h);
    assert_false(vkmm_happens_before_subgroup_atomic(h, FLAG, 4, false, true, 1, 0, 0, SITE_WRITE, &u));
    assert_false(vkmm_happens_before_subgroup_atomic(h, FLAG, 4, true, false, 1, 0, 1, SITE_READ, &u));
    assert_true(vkmm_happens_before_subgroup_atomic(h, FLAG, 4, true, false, 1, 1, 4, SITE_READ, &u));
    assert_int_equal(u.why, VKMM_UNORDERED_SUBGROUP_ATOMIC);
    assert_int_equal(u.site, SITE_WRITE);
    assert_true(u.write);
    /* Workgroup scope on the reading side does not help: the store's does not hold it. */
    restart_with_width_4(h);
    assert_false(vkmm_happens_before_subgroup_atomic(h, FLAG, 4, false, true, 1, 0, 0, SITE_WRITE, &u));
    assert_true(vkmm_happens_before_scoped_atomic(h, FLAG, 4, true, false, 1, 1, 4, SITE_READ, &u));
    /* A barrier between: ordered. */
    restart_with_width_4(h);
    assert_false(vkmm_happens_before_subgroup_atomic(h, FLAG, 4, false, true, 1, 0, 0, SITE_WRITE, &u));
    vkmm_happens_before_barrier(h, 1);
    assert_false(vkmm_happens_before_subgroup_atomic(h, FLAG, 4, true, false, 1, 1, 4, SITE_READ, &u));
    /* A release after it and an acquire at Workgroup scope: ordered. */
    restart_with_width_4(h);
    assert_false(vkmm_happens_before_subgroup_atomic(h, FLAG, 4, false, true, 1, 0, 0, SITE_WRITE, &u));
    vkmm_happens_before_device_release(h, 1, 0);
    vkmm_happens_before_device_acquire(h, 1, 1, false);
    assert_false(vkmm_happens_before_subgroup_atomic(h, FLAG, 4, true, false, 1, 1, 4, SITE_READ, &u));
    /* Two read-modify-writes: the levels' lost update, not a race here. */
    restart_with_width_4(h);
    assert_false(vkmm_happens_before_subgroup_atomic(h, FLAG, 4, true, true, 1, 0, 0, SITE_WRITE, &u));
    assert_false(vkmm_happens_before_subgroup_atomic(h, FLAG, 4, true, true, 1, 1, 4, SITE_WRITE, &u));
    vkmm_happens_before_destroy(h);
}

/* A module without atomics: its fences synchronize nothing, so a phase
 * with a fence is judged all the same (memoryBarrierBuffer() where
 * barrier() belongs); a new dispatch forgets it. */
static void test_fences_without_atomics_order_nothing(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    vkmm_happens_before_no_atomics(h);
    assert_false(write_data(h, 4, &u));
    vkmm_happens_before_release(h, 4, true);
    vkmm_happens_before_acquire(h, 4, true);
    assert_true(vkmm_happens_before_access(h, DATA, 4, false, 4, 6, SITE_READ, &u));
    assert_int_equal(u.why, VKMM_UNORDERED_NO_BARRIER);
    /* A subgroup fence or barrier still counts (as the CTS reads it). */
    vkmm_happens_before_barrier(h, 4);
    assert_false(write_data(h, 4, &u));
    vkmm_happens_before_subgroup_sync(h, 4);
    assert_false(vkmm_happens_before_access(h, DATA, 4, false, 4, 6, SITE_READ, &u));
    vkmm_happens_before_begin(h);
    assert_false(write_data(h, 4, &u));
    vkmm_happens_before_release(h, 4, true);
    assert_false(vkmm_happens_before_access(h, DATA, 4, false, 4, 6, SITE_READ, &u));
    vkmm_happens_before_destroy(h);
}

/* More workgroups in a clock than it has room for: ordered after
 * everything (a race may be missed, never invented). */
static void test_a_full_clock_orders_everything(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    for (uint32_t from = 10; from < 30; from++)
        hand_over(h, from, 2, true, true, true);
    assert_false(write_data(h, 77, &u));
    assert_false(read_data(h, 2, &u));
    vkmm_happens_before_destroy(h);
}

static void test_partial_words_are_not_judged(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    assert_false(vkmm_happens_before_access(h, DATA + 1, 1, true, 1, 0, SITE_WRITE, &u));
    assert_false(vkmm_happens_before_access(h, DATA + 1, 1, true, 2, 0, SITE_OTHER, &u));
    assert_false(vkmm_happens_before_access(h, DATA, 2, false, 3, 0, SITE_READ, &u));
    /* Outside the address space: nothing. */
    assert_false(vkmm_happens_before_access(h, SIZE - 4, 8, true, 1, 0, SITE_WRITE, &u));
    vkmm_happens_before_destroy(h);
}

/* Many workgroups and flags: the tables grow; every hand-over still
 * orders, and an unsynchronized pair still races. */
static void test_many_workgroups_and_flags(void **state)
{
    (void)state;
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    for (uint32_t tag = 1; tag <= 3000; tag++) {
        uint64_t data = 8192 + (uint64_t)tag * 4, flag = 32768 + (uint64_t)tag * 4;
        assert_false(vkmm_happens_before_access(h, data, 4, true, tag, 0, SITE_WRITE, &u));
        vkmm_happens_before_release(h, tag, true);
        vkmm_happens_before_atomic(h, tag, flag, false, true);
        vkmm_happens_before_atomic(h, tag + 5000, flag, true, false);
        vkmm_happens_before_acquire(h, tag + 5000, true);
        assert_false(vkmm_happens_before_access(h, data, 4, false, tag + 5000, 0, SITE_READ, &u));
        assert_true(vkmm_happens_before_access(h, data, 4, false, tag + 9000, 0, SITE_OTHER, &u));
    }
    vkmm_happens_before_destroy(h);
}

/* Subgroup `subgroup` of workgroup 4 makes an atomic access of the word at
 * `offset` (a load, a store or a read-modify-write), then, `acquire`, the
 * atomic's acquire half. */
static void subgroup_atomic(struct vkmm_happens_before *h, uint32_t subgroup, uint32_t offset, bool read, bool write,
                            bool acquire)
{
    vkmm_happens_before_atomic_begins(h, 4, subgroup);
    vkmm_happens_before_atomic_word(h, 4, subgroup, offset, read, write);
    if (acquire)
        vkmm_happens_before_device_acquire(h, 4, subgroup, true);
}

/* A new dispatch of 8 subgroups of 8 lanes whose workgroup 4 synchronizes
 * through atomics: subgroup 0 wrote the data (invocation 5) and released
 * through a store of the flag. */
static void restart_with_data_released(struct vkmm_happens_before *h)
{
    struct vkmm_unordered u;
    vkmm_happens_before_begin(h);
    vkmm_happens_before_subgroup_width(h, 8);
    vkmm_happens_before_subgroups(h, 8);
    vkmm_happens_before_release(h, 4, false);
    assert_false(write_data(h, 4, &u));
    vkmm_happens_before_device_release(h, 4, 0);
    subgroup_atomic(h, 0, FLAG, false, true, false);
}

/* Inside a workgroup, on device memory: an acquire synchronizes only with
 * the release whose value it read (000 "Synchronizes-With"), through the
 * release sequence (a read-modify-write continues it) and chains of
 * subgroups; an acquire fence with what the subgroup's atomic reads before
 * it read; an acquire after an atomic the structure is not told of (one on
 * Workgroup storage) with every release so far. */
static void test_an_acquire_matches_the_release_it_read(void **state)
{
    (void)state;
    enum { WIDTH = 8, OTHER = FLAG + 64 };
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    /* The acquire of another variable: no order, and the report says so. */
    restart_with_data_released(h);
    subgroup_atomic(h, 1, OTHER, true, false, true);
    assert_true(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 1, 9, WIDTH, &u));
    assert_int_equal(u.why, VKMM_UNORDERED_UNMATCHED);
    assert_int_equal(u.invocation, 5);
    /* A relaxed read of the flag, then the acquire load of another
     * variable: still none (only a fence acquires what earlier loads read). */
    subgroup_atomic(h, 1, FLAG, true, false, false);
    subgroup_atomic(h, 1, OTHER, true, false, true);
    assert_true(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 1, 9, WIDTH, &u));
    vkmm_happens_before_device_acquire(h, 4, 1, false); /* the fence */
    assert_false(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 1, 9, WIDTH, &u));
    /* The acquire load of the flag itself: ordered. */
    restart_with_data_released(h);
    subgroup_atomic(h, 2, FLAG, true, false, true);
    assert_false(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 2, 17, WIDTH, &u));
    /* A relaxed read-modify-write of another subgroup continues the
     * sequence; a chain through a third subgroup's release orders too. */
    restart_with_data_released(h);
    subgroup_atomic(h, 3, FLAG, true, true, false);
    subgroup_atomic(h, 2, FLAG, true, false, true);
    assert_false(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 2, 17, WIDTH, &u));
    vkmm_happens_before_device_release(h, 4, 2);
    subgroup_atomic(h, 2, OTHER, false, true, false);
    subgroup_atomic(h, 5, OTHER, true, false, true);
    assert_false(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 5, 41, WIDTH, &u));
    /* A flag value released before the data's write: no order. */
    vkmm_happens_before_begin(h);
    vkmm_happens_before_subgroups(h, 8);
    vkmm_happens_before_release(h, 4, false);
    vkmm_happens_before_device_release(h, 4, 0);
    subgroup_atomic(h, 0, FLAG, false, true, false);
    assert_false(write_data(h, 4, &u));
    vkmm_happens_before_device_release(h, 4, 0); /* released, but never stored to the flag */
    subgroup_atomic(h, 1, FLAG, true, false, true);
    assert_true(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 1, 9, WIDTH, &u));
    assert_int_equal(u.why, VKMM_UNORDERED_UNMATCHED);
    /* An acquire fence in a module with atomics the structure is not told
     * of: every release so far (lenient). */
    restart_with_data_released(h);
    vkmm_happens_before_unseen_atomics(h);
    vkmm_happens_before_device_acquire(h, 4, 1, false);
    assert_false(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 1, 9, WIDTH, &u));
    vkmm_happens_before_destroy(h);
}

/* Clocks of a workgroup whose releases reach more device words than the
 * clocks keep (a scatter of atomics) turn lenient, never wrong: an acquire
 * of another variable then counts every release. */
static void test_clocks_past_their_room_are_lenient(void **state)
{
    (void)state;
    enum { WIDTH = 8, WORDS = 20000 };
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = vkmm_happens_before_create((uint64_t)FLAG + 4 * WORDS + 64);
    assert_non_null(h);
    restart_with_data_released(h);
    subgroup_atomic(h, 1, FLAG + 4, true, false, true);
    assert_true(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 1, 9, WIDTH, &u));
    for (uint32_t i = 2; i < WORDS; i++)
        subgroup_atomic(h, 0, FLAG + 4 * i, false, true, false);
    subgroup_atomic(h, 1, FLAG + 4, true, false, true);
    assert_false(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 1, 9, WIDTH, &u));
    vkmm_happens_before_destroy(h);
}

/* A finished workgroup's clocks serve the next one, cleared: what the
 * first released does not order the second's accesses. */
static void test_clocks_of_a_finished_workgroup_start_clean(void **state)
{
    (void)state;
    enum { WIDTH = 8 };
    struct vkmm_unordered u;
    struct vkmm_happens_before *h = start();
    restart_with_data_released(h);
    for (int i = 0; i < 5; i++) { /* moments well past workgroup 6's */
        assert_false(write_data(h, 4, &u));
        vkmm_happens_before_device_release(h, 4, 0);
        subgroup_atomic(h, 0, FLAG, false, true, false);
    }
    subgroup_atomic(h, 1, FLAG, true, false, true);
    assert_false(vkmm_happens_before_unacquired_write(h, DATA, 16, 4, 1, 9, WIDTH, &u));
    vkmm_happens_before_workgroup_done(h, 4);
    /* Workgroup 6 takes the clocks: its subgroup 1 acquires a flag its
     * subgroup 0 stored without a release after its write. */
    vkmm_happens_before_release(h, 6, false);
    vkmm_happens_before_device_release(h, 6, 3);
    assert_false(vkmm_happens_before_access(h, DATA, 16, true, 6, 5, SITE_WRITE, &u) && u.tag != 4);
    vkmm_happens_before_device_release(h, 6, 0);
    vkmm_happens_before_device_acquire(h, 6, 1, false);
    assert_true(vkmm_happens_before_unacquired_write(h, DATA, 16, 6, 1, 9, WIDTH, &u));
    assert_int_equal(u.why, VKMM_UNORDERED_UNMATCHED);
    vkmm_happens_before_destroy(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unsynchronized_workgroups_race_in_either_order),
        cmocka_unit_test(test_reads_and_one_workgroup_never_race),
        cmocka_unit_test(test_release_acquire_at_device_scope_orders),
        cmocka_unit_test(test_a_write_after_the_release_is_not_ordered),
        cmocka_unit_test(test_relaxed_flags_order_nothing),
        cmocka_unit_test(test_workgroup_scope_orders_nothing_between_workgroups),
        cmocka_unit_test(test_happens_before_is_transitive),
        cmocka_unit_test(test_concurrent_reads_keep_the_unordered_one),
        cmocka_unit_test(test_invocations_of_one_workgroup_need_a_barrier),
        cmocka_unit_test(test_fences_without_atomics_order_nothing),
        cmocka_unit_test(test_a_full_clock_orders_everything),
        cmocka_unit_test(test_partial_words_are_not_judged),
        cmocka_unit_test(test_many_workgroups_and_flags),
        cmocka_unit_test(test_a_read_never_made_visible_races),
        cmocka_unit_test(test_subgroups_past_the_64th_are_judged),
        cmocka_unit_test(test_states_grow_with_the_workgroups),
        cmocka_unit_test(test_a_read_with_no_acquire_naming_the_memory_races),
        cmocka_unit_test(test_atomics_of_narrow_scope_race_between_workgroups),
        cmocka_unit_test(test_a_write_with_no_release_after_it_races),
        cmocka_unit_test(test_device_atomics_and_plain_accesses),
        cmocka_unit_test(test_subgroup_scope_atomics_between_subgroups),
        cmocka_unit_test(test_scoped_atomics_inside_a_workgroup_and_counters),
        cmocka_unit_test(test_an_acquire_matches_the_release_it_read),
        cmocka_unit_test(test_clocks_of_a_finished_workgroup_start_clean),
        cmocka_unit_test(test_clocks_past_their_room_are_lenient),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
