/* Unit tests of runtime/strict/workgroup_monitor.c: races on Workgroup
 * storage by happens-before within a workgroup.  The monitor keeps one
 * state per aligned word while accesses cover words whole, and splits a
 * word into byte states when an access covers part of it; a long random
 * run checks it against the monitor with byte states only (the scalar
 * reference): the same races, the same bytes read, the same memory after
 * every step. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "shader_abi.h"
#include "workgroup_monitor.h"

enum { WIDTH = 4, INVOCATIONS = 16, SHARED = 62 };

static const uint32_t local_size[3] = { INVOCATIONS, 1, 1 };
static const uint32_t workgroup[3] = { 0, 0, 0 };

static uint64_t site(uint32_t word)
{
    return (uint64_t)word << 32;
}

/* One subgroup's access: `lanes` active, lane i at offsets[i]. */
static int64_t access(struct vkmm_workgroup_monitor *m, uint8_t *shared, uint32_t subgroup, uint64_t lanes,
                      const uint32_t offsets[WIDTH], uint32_t size, uint32_t flags, uint32_t word)
{
    uint64_t addresses[WIDTH];
    for (uint32_t lane = 0; lane < WIDTH; lane++)
        addresses[lane] = (uint64_t)(uintptr_t)(shared + offsets[lane]);
    return vkmm_workgroup_monitor_access(m, addresses, lanes, size | flags << 16, subgroup, site(word), "text");
}

/* A monitor at the start of workgroup (0,0,0) over `shared`. */
static struct vkmm_workgroup_monitor *started(struct vkmm_workgroup_races *races, uint8_t *shared)
{
    struct vkmm_workgroup_monitor *m = vkmm_workgroup_monitor_create(local_size, WIDTH, SHARED, races);
    assert_non_null(m);
    vkmm_workgroup_monitor_begin(m, shared, workgroup);
    return m;
}

static void store(uint8_t *shared, uint64_t lanes, const uint32_t offsets[WIDTH], uint32_t size, uint8_t value)
{
    for (uint32_t lane = 0; lane < WIDTH; lane++)
        if (lanes >> lane & 1 && offsets[lane] + size <= SHARED)
            memset(shared + offsets[lane], value + lane, size);
}

/* Two invocations of different subgroups store to one word with no
 * barrier between: one race of 4 bytes, and the later store is undone
 * when the interval ends. */
static void test_word_race_is_one_record_and_the_later_write_is_lost(void **state)
{
    (void)state;
    struct vkmm_workgroup_races races = { 0 };
    uint8_t shared[SHARED] = { 0 };
    struct vkmm_workgroup_monitor *m = started(&races, shared);
    const uint32_t at8[WIDTH] = { 8, 8, 8, 8 };
    access(m, shared, 0, 1, at8, 4, VKMM_WORKGROUP_WRITE, 10);
    store(shared, 1, at8, 4, 0x11);
    access(m, shared, 1, 1, at8, 4, VKMM_WORKGROUP_WRITE, 20);
    store(shared, 1, at8, 4, 0x22);
    assert_int_equal(races.count, 1);
    assert_int_equal(races.race[0].bytes, 4);
    assert_int_equal(races.race[0].offset, 8);
    assert_int_equal(races.race[0].earlier.word, 10);
    assert_int_equal(races.race[0].later.word, 20);
    assert_int_equal(races.race[0].later.invocation[0], 4); /* lane 0 of subgroup 1 */
    vkmm_workgroup_monitor_barrier_open(m);
    for (int i = 8; i < 12; i++)
        assert_int_equal(shared[i], 0x11);
    vkmm_workgroup_monitor_destroy(m);
}

/* Byte stores by different invocations into one word do not race (each
 * byte is its own memory location); a word read by a third invocation
 * races with both, as byte states. */
static void test_byte_stores_into_one_word_do_not_race(void **state)
{
    (void)state;
    struct vkmm_workgroup_races races = { 0 };
    uint8_t shared[SHARED] = { 0 };
    struct vkmm_workgroup_monitor *m = started(&races, shared);
    const uint32_t word[WIDTH] = { 0, 4, 8, 12 }, bytes[WIDTH] = { 16, 17, 18, 19 }, at16[WIDTH] = { 16, 16, 16, 16 };
    access(m, shared, 0, 0xf, word, 4, VKMM_WORKGROUP_WRITE, 10); /* word states */
    access(m, shared, 1, 0xf, bytes, 1, VKMM_WORKGROUP_WRITE, 20);
    store(shared, 0xf, bytes, 1, 0x40);
    assert_int_equal(races.count, 0);
    int64_t moved = access(m, shared, 2, 1, at16, 4, VKMM_WORKGROUP_READ, 30);
    assert_int_equal(races.count, 1);
    assert_int_equal(races.race[0].bytes, 4);
    /* The read comes after the writes in program order: it sees the
     * interval-start bytes. */
    assert_true(moved != 0);
    uint32_t seen;
    memcpy(&seen, shared + 16 + moved, 4);
    assert_int_equal(seen, 0);
    vkmm_workgroup_monitor_destroy(m);
}

/* --- Against the byte-state reference ------------------------------------------ */

static uint64_t next(uint64_t *rng)
{
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    return *rng >> 33;
}

static void assert_same_races(const struct vkmm_workgroup_races *a, const struct vkmm_workgroup_races *b)
{
    assert_int_equal(a->count, b->count);
    assert_int_equal(a->more, b->more);
    for (uint32_t i = 0; i < a->count; i++) {
        const struct vkmm_workgroup_race *x = &a->race[i], *y = &b->race[i];
        assert_int_equal(x->bytes, y->bytes);
        assert_int_equal(x->offset, y->offset);
        assert_int_equal(x->same_subgroup, y->same_subgroup);
        assert_int_equal(x->execution_barrier_only, y->execution_barrier_only);
        assert_int_equal(x->unreleased, y->unreleased);
        assert_int_equal(x->narrow_atomics, y->narrow_atomics);
        assert_int_equal(x->unacquired, y->unacquired);
        const struct vkmm_workgroup_race_access *sides[2][2] = { { &x->earlier, &y->earlier }, { &x->later, &y->later } };
        for (int s = 0; s < 2; s++) {
            assert_int_equal(sides[s][0]->word, sides[s][1]->word);
            assert_int_equal(sides[s][0]->write, sides[s][1]->write);
            assert_int_equal(sides[s][0]->atomic, sides[s][1]->atomic);
            assert_memory_equal(sides[s][0]->invocation, sides[s][1]->invocation, sizeof(sides[s][0]->invocation));
        }
    }
}

static void random_offsets(uint64_t *rng, uint32_t size, uint32_t offsets[WIDTH])
{
    uint32_t shape = (uint32_t)next(rng) % 4, base = (uint32_t)next(rng) % SHARED;
    for (uint32_t lane = 0; lane < WIDTH; lane++) {
        switch (shape) {
        case 0: offsets[lane] = base / size * size; break;                     /* broadcast */
        case 1: offsets[lane] = (base / size + lane) * size; break;            /* consecutive */
        case 2: offsets[lane] = (uint32_t)next(rng) % SHARED / size * size; break; /* aligned, scattered */
        default: offsets[lane] = (uint32_t)next(rng) % SHARED; break;          /* anywhere */
        }
    }
}

static void test_word_states_match_byte_states(void **state)
{
    (void)state;
    static const uint32_t sizes[] = { 1, 2, 4, 4, 4, 8, 16 };
    static const uint32_t kinds[] = { VKMM_WORKGROUP_READ, VKMM_WORKGROUP_WRITE, VKMM_WORKGROUP_READ,
                                      VKMM_WORKGROUP_WRITE, VKMM_WORKGROUP_READ | VKMM_WORKGROUP_WRITE | VKMM_WORKGROUP_ATOMIC,
                                      VKMM_WORKGROUP_READ | VKMM_WORKGROUP_ATOMIC, VKMM_WORKGROUP_WRITE | VKMM_WORKGROUP_ATOMIC };
    uint64_t rng = 12345;
    uint64_t steps = 0, races_seen = 0;
    for (int run = 0; run < 200; run++) {
        struct vkmm_workgroup_races races[2] = { { 0 }, { 0 } };
        uint8_t shared[2][SHARED];
        for (int i = 0; i < SHARED; i++)
            shared[0][i] = shared[1][i] = (uint8_t)next(&rng);
        struct vkmm_workgroup_monitor *m[2];
        for (int k = 0; k < 2; k++) {
            m[k] = vkmm_workgroup_monitor_create(local_size, WIDTH, SHARED, &races[k]);
            assert_non_null(m[k]);
            vkmm_workgroup_monitor_begin(m[k], shared[k], workgroup);
        }
        vkmm_workgroup_monitor_use_byte_cells(m[1]);
        for (int op = 0; op < 300; op++, steps++) {
            uint32_t choice = (uint32_t)next(&rng) % 16;
            if (choice == 0) {
                for (int k = 0; k < 2; k++)
                    vkmm_workgroup_monitor_barrier_open(m[k]);
            } else if (choice == 1 || choice == 2) {
                uint32_t subgroup = (uint32_t)next(&rng) % (INVOCATIONS / WIDTH), kind = (uint32_t)next(&rng) % 3;
                if (choice == 2) /* a fence or an atomic of a module whose atomics order Workgroup memory */
                    kind = VKMM_WORKGROUP_SYNC | ((uint32_t)next(&rng) % 32) << 4;
                for (int k = 0; k < 2; k++)
                    vkmm_workgroup_monitor_barrier(m[k], subgroup, kind);
            } else {
                uint32_t size = sizes[next(&rng) % (sizeof(sizes) / sizeof(*sizes))];
                uint32_t flags = kinds[next(&rng) % (sizeof(kinds) / sizeof(*kinds))] |
                                 (run % 2 ? VKMM_ACCESS_ATOMIC_SYNC : 0);
                if ((flags & VKMM_WORKGROUP_ATOMIC) && run % 3 == 0 && next(&rng) % 2)
                    flags |= VKMM_ACCESS_NARROW_ATOMIC; /* some atomics of Subgroup scope */
                uint32_t subgroup = (uint32_t)next(&rng) % (INVOCATIONS / WIDTH), word = 10 + (uint32_t)next(&rng) % 6;
                uint64_t lanes = next(&rng) % 16;
                uint32_t offsets[WIDTH];
                random_offsets(&rng, size, offsets);
                uint8_t value = (uint8_t)next(&rng);
                int64_t moved[2];
                for (int k = 0; k < 2; k++)
                    moved[k] = access(m[k], shared[k], subgroup, lanes, offsets, size, flags, word);
                for (uint32_t lane = 0; lane < WIDTH; lane++) {
                    if (!(lanes >> lane & 1) || offsets[lane] + size > SHARED)
                        continue;
                    assert_memory_equal(shared[0] + offsets[lane] + moved[0], shared[1] + offsets[lane] + moved[1],
                                        size);
                }
                if (flags & VKMM_WORKGROUP_WRITE)
                    for (int k = 0; k < 2; k++)
                        store(shared[k], lanes, offsets, size, value);
            }
            assert_memory_equal(shared[0], shared[1], SHARED);
            assert_same_races(&races[0], &races[1]);
        }
        races_seen += races[0].count;
        for (int k = 0; k < 2; k++)
            vkmm_workgroup_monitor_destroy(m[k]);
    }
    /* The run must have exercised races, not only ordered accesses. */
    assert_true(races_seen > 200);
    assert_int_equal(steps, 200 * 300);
}

/* A plain store, then atomics: another invocation's atomic races with the
 * plain store even though the last write it sees is an atomic one. */
static void test_plain_store_then_atomics_races(void **state)
{
    (void)state;
    struct vkmm_workgroup_races races = { 0 };
    uint8_t shared[SHARED] = { 0 };
    struct vkmm_workgroup_monitor *m = started(&races, shared);
    const uint32_t at8[WIDTH] = { 8, 8, 8, 8 };
    const uint32_t rmw = VKMM_WORKGROUP_READ | VKMM_WORKGROUP_WRITE | VKMM_WORKGROUP_ATOMIC;
    access(m, shared, 0, 1, at8, 4, VKMM_WORKGROUP_WRITE, 10); /* total = 0 by invocation 0 */
    access(m, shared, 0, 1, at8, 4, rmw, 20);                  /* its own atomicAdd: ordered */
    assert_int_equal(races.count, 0);
    access(m, shared, 1, 1, at8, 4, rmw, 20); /* invocation 4's atomicAdd */
    assert_int_equal(races.count, 1);
    assert_int_equal(races.race[0].earlier.word, 10);
    assert_true(races.race[0].earlier.write && !races.race[0].earlier.atomic);
    assert_true(races.race[0].later.atomic);
    access(m, shared, 2, 1, at8, 4, rmw, 20); /* the same bug again: no new record */
    assert_int_equal(races.count, 1);
    vkmm_workgroup_monitor_destroy(m);
}

/* Atomic writes of Subgroup scope are mutually ordered only within one
 * subgroup (000 "Data Race"): another subgroup's atomicAdd on the same word
 * races, is reported once and loses its update at the barrier; at Workgroup
 * scope the same additions do not race. */
static void test_subgroup_scope_atomics_race_between_subgroups(void **state)
{
    (void)state;
    const uint32_t at8[WIDTH] = { 8, 8, 8, 8 };
    const uint32_t rmw = VKMM_WORKGROUP_READ | VKMM_WORKGROUP_WRITE | VKMM_WORKGROUP_ATOMIC;
    for (int narrow = 0; narrow < 2; narrow++) {
        struct vkmm_workgroup_races races = { 0 };
        uint8_t shared[SHARED] = { 0 };
        struct vkmm_workgroup_monitor *m = started(&races, shared);
        uint32_t flags = rmw | (narrow ? VKMM_ACCESS_NARROW_ATOMIC : 0);
        access(m, shared, 0, 0xf, at8, 4, flags, 20); /* subgroup 0 adds, lane by lane */
        shared[8] = 4;
        access(m, shared, 0, 0xf, at8, 4, flags, 20); /* and again: its own atomics are ordered */
        shared[8] = 8;
        assert_int_equal(races.count, 0);
        access(m, shared, 1, 0xf, at8, 4, flags, 20); /* subgroup 1 adds to the same word */
        shared[8] = 12;
        access(m, shared, 2, 0x1, at8, 4, flags, 20); /* a third one */
        shared[8] = 13;
        assert_int_equal(races.count, narrow ? 1 : 0);
        if (narrow) {
            assert_true(races.race[0].narrow_atomics);
            assert_true(races.race[0].earlier.atomic && races.race[0].later.atomic);
            assert_true(races.race[0].earlier.write && races.race[0].later.write);
        }
        vkmm_workgroup_monitor_barrier_open(m);
        /* Narrow: the other subgroups' additions are lost (subgroup 0's 8 stays). */
        assert_int_equal(shared[8], narrow ? 8 : 13);
        vkmm_workgroup_monitor_destroy(m);
    }
}

/* An atomic read of another subgroup's atomic write where either has
 * Subgroup scope is a race too (000 "Data Race"): kept aside, not among the
 * records (the data such a flag guards has the race that names the scope),
 * for a dispatch with no other record. */
static void test_subgroup_scope_flag_read_across_subgroups(void **state)
{
    (void)state;
    const uint32_t store = VKMM_WORKGROUP_WRITE | VKMM_WORKGROUP_ATOMIC;
    const uint32_t load = VKMM_WORKGROUP_READ | VKMM_WORKGROUP_ATOMIC;
    const uint32_t narrow = VKMM_ACCESS_NARROW_ATOMIC, at16[WIDTH] = { 16, 16, 16, 16 };
    const uint32_t cases[][3] = {
        /* store flags, load flags, noted? */
        { store | narrow, load | narrow, 1 },
        { store, load | narrow, 1 },
        { store | narrow, load, 1 },
        { store, load, 0 },
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        struct vkmm_workgroup_races races = { 0 };
        uint8_t shared[SHARED] = { 0 };
        struct vkmm_workgroup_monitor *m = started(&races, shared);
        access(m, shared, 0, 1, at16, 4, cases[i][0], 10);
        access(m, shared, 0, 2, at16, 4, cases[i][1], 11); /* its own subgroup: ordered */
        assert_false(races.has_narrow_read);
        access(m, shared, 1, 1, at16, 4, cases[i][1], 11);
        assert_int_equal(races.count, 0);
        assert_int_equal(races.has_narrow_read, cases[i][2]);
        if (cases[i][2]) {
            assert_true(races.narrow_read.narrow_atomics);
            assert_true(races.narrow_read.earlier.write && !races.narrow_read.later.write);
            assert_int_equal(races.narrow_read.earlier.word, 10);
            assert_int_equal(races.narrow_read.later.word, 11);
        }
        vkmm_workgroup_monitor_destroy(m);
    }
}

/* Workgroup memory starts with the seeded pattern (every word's high bit
 * set): a read of bytes no invocation wrote is one record per instruction;
 * a read of written bytes, or of bytes without the pattern (a zeroed
 * variable), is not; a read that races with a later write is that race's
 * record only. */
static void test_reads_of_unwritten_memory(void **state)
{
    (void)state;
    struct vkmm_workgroup_races races = { 0 };
    uint8_t shared[SHARED];
    for (int i = 0; i < SHARED; i++)
        shared[i] = (uint8_t)(0x80 | i);
    memset(shared + 16, 0, 8); /* a variable with an initializer */
    struct vkmm_workgroup_monitor *m = started(&races, shared);
    const uint32_t at0[WIDTH] = { 0, 0, 0, 0 }, at4[WIDTH] = { 4, 4, 4, 4 }, at16[WIDTH] = { 16, 16, 16, 16 };
    const uint32_t at32[WIDTH] = { 32, 32, 32, 32 };
    access(m, shared, 0, 1, at0, 4, VKMM_WORKGROUP_WRITE, 10);
    access(m, shared, 0, 1, at0, 4, VKMM_WORKGROUP_READ, 11);  /* written: fine */
    access(m, shared, 0, 1, at16, 4, VKMM_WORKGROUP_READ, 12); /* zeroed: fine */
    assert_int_equal(races.count, 0);
    access(m, shared, 0, 1, at4, 4, VKMM_WORKGROUP_READ | VKMM_WORKGROUP_WRITE | VKMM_WORKGROUP_ATOMIC, 13);
    assert_int_equal(races.count, 1);
    assert_true(races.race[0].uninitialized);
    assert_int_equal(races.race[0].later.word, 13);
    assert_int_equal(races.race[0].offset, 4);
    access(m, shared, 1, 1, at4, 4, VKMM_WORKGROUP_READ, 13); /* the same instruction: no new record */
    assert_int_equal(races.count, 1);
    /* A read before another invocation's write, with no barrier: the race. */
    access(m, shared, 1, 1, at32, 4, VKMM_WORKGROUP_READ, 14);
    assert_int_equal(races.count, 2);
    access(m, shared, 2, 1, at32, 4, VKMM_WORKGROUP_WRITE, 15);
    assert_int_equal(races.count, 2);
    bool race_kept = false;
    for (uint32_t i = 0; i < races.count; i++)
        race_kept |= !races.race[i].uninitialized && races.race[i].earlier.word == 14 && races.race[i].later.word == 15;
    assert_true(race_kept);
    vkmm_workgroup_monitor_destroy(m);
}

/* A fence, or an atomic of lane 0 of `subgroup` on the word at `offset`
 * with its access, in a module whose fences and atomics order Workgroup
 * memory (the generated code's two calls). */
static void sync_at(struct vkmm_workgroup_monitor *m, uint8_t *shared, uint32_t subgroup, uint32_t kind,
                    uint32_t offset)
{
    vkmm_workgroup_monitor_barrier(m, subgroup, VKMM_WORKGROUP_SYNC | kind);
    if (!(kind & (VKMM_SYNC_ATOMIC_READ | VKMM_SYNC_ATOMIC_WRITE)))
        return;
    const uint32_t at[WIDTH] = { offset, offset, offset, offset };
    uint32_t flags = VKMM_WORKGROUP_ATOMIC | VKMM_ACCESS_ATOMIC_SYNC |
                     (kind & VKMM_SYNC_ATOMIC_READ ? VKMM_WORKGROUP_READ : 0) |
                     (kind & VKMM_SYNC_ATOMIC_WRITE ? VKMM_WORKGROUP_WRITE : 0) |
                     (kind & VKMM_SYNC_NARROW ? VKMM_ACCESS_NARROW_ATOMIC : 0);
    access(m, shared, subgroup, 1, at, 4, flags, 30 + offset);
}

enum { DATA = 8, FLAG = 16, OTHER_FLAG = 20 };

static void sync_op(struct vkmm_workgroup_monitor *m, uint8_t *shared, uint32_t subgroup, uint32_t kind)
{
    sync_at(m, shared, subgroup, kind, FLAG);
}

static void write_data(struct vkmm_workgroup_monitor *m, uint8_t *shared, uint32_t subgroup, uint32_t word)
{
    const uint32_t at[WIDTH] = { DATA, DATA, DATA, DATA };
    access(m, shared, subgroup, 1, at, 4, VKMM_WORKGROUP_WRITE | VKMM_ACCESS_ATOMIC_SYNC, word);
}

static void read_data(struct vkmm_workgroup_monitor *m, uint8_t *shared, uint32_t subgroup, uint32_t word)
{
    const uint32_t at[WIDTH] = { DATA, DATA, DATA, DATA };
    access(m, shared, subgroup, 1, at, 4, VKMM_WORKGROUP_READ | VKMM_ACCESS_ATOMIC_SYNC, word);
}

/* In a module whose fences and atomics order Workgroup memory, a write and
 * another subgroup's read are ordered by a release after the write and an
 * acquire after it that reads the release's value (000 "Synchronizes-With"):
 * a release atomic, or a release fence and then an atomic write; an acquire
 * atomic, or an atomic read and then an acquire fence. */
static uint32_t handoff_races(const uint32_t *producer, uint32_t producer_count, const uint32_t *consumer,
                              uint32_t consumer_count, struct vkmm_workgroup_race *first)
{
    struct vkmm_workgroup_races races = { 0 };
    uint8_t shared[SHARED] = { 0 };
    struct vkmm_workgroup_monitor *m = started(&races, shared);
    write_data(m, shared, 0, 10);
    for (uint32_t i = 0; i < producer_count; i++)
        sync_op(m, shared, 0, producer[i]);
    for (uint32_t i = 0; i < consumer_count; i++)
        sync_op(m, shared, 1, consumer[i]);
    read_data(m, shared, 1, 20);
    if (races.count)
        *first = races.race[0];
    vkmm_workgroup_monitor_destroy(m);
    return races.count;
}

static void test_release_and_acquire_order_a_handoff(void **state)
{
    (void)state;
    struct vkmm_workgroup_race race;
    const uint32_t release_store[] = { VKMM_SYNC_RELEASE | VKMM_SYNC_ATOMIC_WRITE };
    const uint32_t acquire_load[] = { VKMM_SYNC_ACQUIRE | VKMM_SYNC_ATOMIC_READ };
    const uint32_t fence_then_store[] = { VKMM_SYNC_RELEASE, VKMM_SYNC_ATOMIC_WRITE };
    const uint32_t load_then_fence[] = { VKMM_SYNC_ATOMIC_READ, VKMM_SYNC_ACQUIRE };
    const uint32_t relaxed_store[] = { VKMM_SYNC_ATOMIC_WRITE };
    const uint32_t relaxed_load[] = { VKMM_SYNC_ATOMIC_READ };
    const uint32_t store_then_fence[] = { VKMM_SYNC_ATOMIC_WRITE, VKMM_SYNC_RELEASE };
    const uint32_t fence_then_load[] = { VKMM_SYNC_ACQUIRE, VKMM_SYNC_ATOMIC_READ };
    assert_int_equal(handoff_races(release_store, 1, acquire_load, 1, &race), 0);
    assert_int_equal(handoff_races(fence_then_store, 2, load_then_fence, 2, &race), 0);
    assert_int_equal(handoff_races(release_store, 1, load_then_fence, 2, &race), 0);
    assert_int_equal(handoff_races(relaxed_store, 1, acquire_load, 1, &race), 1);
    assert_true(race.unreleased);
    assert_int_equal(handoff_races(store_then_fence, 2, acquire_load, 1, &race), 1); /* the fence comes too late */
    assert_true(race.unreleased);
    assert_int_equal(handoff_races(release_store, 1, relaxed_load, 1, &race), 1);
    assert_true(!race.unreleased && race.unacquired);
    assert_int_equal(handoff_races(release_store, 1, fence_then_load, 2, &race), 1); /* the fence comes too early */
    assert_true(race.unacquired);
    /* At Subgroup scope a release/acquire pair orders nothing between
     * subgroups (000: the scope must hold both agents) ... */
    const uint32_t narrow_store[] = { VKMM_SYNC_RELEASE | VKMM_SYNC_ATOMIC_WRITE | VKMM_SYNC_NARROW };
    const uint32_t narrow_load[] = { VKMM_SYNC_ACQUIRE | VKMM_SYNC_ATOMIC_READ | VKMM_SYNC_NARROW };
    assert_int_equal(handoff_races(narrow_store, 1, acquire_load, 1, &race), 1);
    assert_true(race.unreleased);
    assert_int_equal(handoff_races(release_store, 1, narrow_load, 1, &race), 1);
    assert_true(race.unacquired);
    /* ... but does between lanes of one subgroup. */
    {
        struct vkmm_workgroup_races races = { 0 };
        uint8_t shared[SHARED] = { 0 };
        struct vkmm_workgroup_monitor *m = started(&races, shared);
        const uint32_t at8[WIDTH] = { 8, 8, 8, 8 };
        access(m, shared, 0, 1, at8, 4, VKMM_WORKGROUP_WRITE | VKMM_ACCESS_ATOMIC_SYNC, 10); /* lane 0 */
        sync_op(m, shared, 0, narrow_store[0]);
        sync_op(m, shared, 0, narrow_load[0]);
        access(m, shared, 0, 2, at8, 4, VKMM_WORKGROUP_READ | VKMM_ACCESS_ATOMIC_SYNC, 20); /* lane 1 */
        assert_int_equal(races.count, 0);
        vkmm_workgroup_monitor_destroy(m);
    }
    /* An acquire before the write orders nothing. */
    struct vkmm_workgroup_races races = { 0 };
    uint8_t shared[SHARED] = { 0 };
    struct vkmm_workgroup_monitor *m = started(&races, shared);
    sync_op(m, shared, 1, VKMM_SYNC_ACQUIRE | VKMM_SYNC_ATOMIC_READ);
    write_data(m, shared, 0, 10);
    sync_op(m, shared, 0, VKMM_SYNC_RELEASE | VKMM_SYNC_ATOMIC_WRITE);
    read_data(m, shared, 1, 20);
    assert_int_equal(races.count, 1);
    assert_true(races.race[0].unacquired);
    vkmm_workgroup_monitor_destroy(m);
}

/* Steps of three subgroups: the data write of subgroup 0 (word 10), fences
 * and atomics, and the read of `reader` (word 20); returns the races. */
struct step {
    uint32_t subgroup, kind, offset; /* kind 0: subgroup 0 writes the data again (word 11) */
};

static uint32_t chain_races(const struct step *steps, uint32_t count, uint32_t reader,
                            struct vkmm_workgroup_race *first)
{
    struct vkmm_workgroup_races races = { 0 };
    uint8_t shared[SHARED] = { 0 };
    struct vkmm_workgroup_monitor *m = started(&races, shared);
    write_data(m, shared, 0, 10);
    for (uint32_t i = 0; i < count; i++) {
        if (steps[i].kind)
            sync_at(m, shared, steps[i].subgroup, steps[i].kind, steps[i].offset);
        else
            write_data(m, shared, 0, 11);
    }
    read_data(m, shared, reader, 20);
    if (races.count)
        *first = races.race[0];
    vkmm_workgroup_monitor_destroy(m);
    return races.count;
}

/* An acquire synchronizes with the release whose value it read (000
 * "Synchronizes-With"), or a read-modify-write's later in that release's
 * sequence ("Release Sequence"); not with any release that merely ran
 * before it.  Happens-before is transitive through a chain of subgroups. */
static void test_acquire_matches_the_release_it_read(void **state)
{
    (void)state;
    struct vkmm_workgroup_race race;
    const uint32_t release = VKMM_SYNC_RELEASE | VKMM_SYNC_ATOMIC_WRITE;
    const uint32_t acquire = VKMM_SYNC_ACQUIRE | VKMM_SYNC_ATOMIC_READ;
    const uint32_t relaxed_store = VKMM_SYNC_ATOMIC_WRITE;
    const uint32_t relaxed_add = VKMM_SYNC_ATOMIC_READ | VKMM_SYNC_ATOMIC_WRITE;
    /* The acquire reads another flag: no order, whatever ran before. */
    const struct step other_flag[] = { { 0, release, FLAG }, { 1, acquire, OTHER_FLAG } };
    assert_int_equal(chain_races(other_flag, 2, 1, &race), 1);
    assert_true(race.unmatched && !race.unreleased && !race.unacquired);
    /* ... even when a third subgroup released that other flag. */
    const struct step third[] = { { 0, release, FLAG }, { 2, release, OTHER_FLAG }, { 1, acquire, OTHER_FLAG } };
    assert_int_equal(chain_races(third, 3, 1, &race), 1);
    assert_true(race.unmatched);
    /* A chain: 0 releases FLAG, 1 acquires it and releases OTHER_FLAG, 2
     * acquires that: 0's write happens before 2's read. */
    const struct step chain[] = { { 0, release, FLAG }, { 1, acquire, FLAG }, { 1, release, OTHER_FLAG },
                                  { 2, acquire, OTHER_FLAG } };
    assert_int_equal(chain_races(chain, 4, 2, &race), 0);
    /* A relaxed read-modify-write continues the release sequence ... */
    const struct step sequence[] = { { 0, release, FLAG }, { 1, relaxed_add, FLAG }, { 2, acquire, FLAG } };
    assert_int_equal(chain_races(sequence, 3, 2, &race), 0);
    /* ... a relaxed store ends it. */
    const struct step broken[] = { { 0, release, FLAG }, { 1, relaxed_store, FLAG }, { 2, acquire, FLAG } };
    assert_int_equal(chain_races(broken, 3, 2, &race), 1);
    assert_true(race.unmatched);
    /* The acquire read a value released before the data's second write. */
    const struct step older[] = { { 0, release, FLAG }, { 0, 0, 0 }, { 0, release, OTHER_FLAG }, { 1, acquire, FLAG } };
    assert_int_equal(chain_races(older, 4, 1, &race), 1);
    assert_int_equal(race.earlier.word, 11);
    /* A relaxed read of the flag, then an acquire fence: synchronized. */
    const struct step fence[] = { { 0, release, FLAG },
                                  { 1, VKMM_SYNC_ATOMIC_READ, FLAG },
                                  { 1, VKMM_SYNC_ACQUIRE, 0 } };
    assert_int_equal(chain_races(fence, 3, 1, &race), 0);
    /* ... but not when the relaxed read was of another flag. */
    const struct step fence_other[] = { { 0, release, FLAG },
                                        { 1, VKMM_SYNC_ATOMIC_READ, OTHER_FLAG },
                                        { 1, VKMM_SYNC_ACQUIRE, 0 } };
    assert_int_equal(chain_races(fence_other, 3, 1, &race), 1);
    assert_true(race.unmatched);
}

/* An atomic on other storage (a buffer) that releases or acquires Workgroup
 * memory names no word here: its acquire synchronizes with every release
 * before it (lenient: never a report on a correct program). */
static void test_atomics_on_other_storage_are_lenient(void **state)
{
    (void)state;
    struct vkmm_workgroup_races races = { 0 };
    uint8_t shared[SHARED] = { 0 };
    struct vkmm_workgroup_monitor *m = started(&races, shared);
    write_data(m, shared, 0, 10);
    vkmm_workgroup_monitor_barrier(m, 0, VKMM_WORKGROUP_SYNC | VKMM_SYNC_RELEASE | VKMM_SYNC_ATOMIC_WRITE);
    vkmm_workgroup_monitor_barrier(m, 1, VKMM_WORKGROUP_SYNC | VKMM_SYNC_ACQUIRE | VKMM_SYNC_ATOMIC_READ);
    read_data(m, shared, 1, 20);
    assert_int_equal(races.count, 0);
    /* A release made after the acquire is not acquired (after a barrier,
     * which orders everything before it). */
    vkmm_workgroup_monitor_barrier_open(m);
    write_data(m, shared, 2, 12);
    vkmm_workgroup_monitor_barrier(m, 3, VKMM_WORKGROUP_SYNC | VKMM_SYNC_ACQUIRE | VKMM_SYNC_ATOMIC_READ);
    vkmm_workgroup_monitor_barrier(m, 2, VKMM_WORKGROUP_SYNC | VKMM_SYNC_RELEASE | VKMM_SYNC_ATOMIC_WRITE);
    read_data(m, shared, 3, 21);
    assert_int_equal(races.count, 1);
    vkmm_workgroup_monitor_destroy(m);
}

/* The accesses of a module whose atomic stores wait in store buffers. */
static void buffered(struct vkmm_workgroup_monitor *m, uint8_t *shared, uint32_t subgroup, uint32_t offset,
                     uint32_t flags, uint32_t word)
{
    const uint32_t at[WIDTH] = { offset, offset, offset, offset };
    access(m, shared, subgroup, 1, at, 4, flags | VKMM_ACCESS_ATOMIC_SYNC | VKMM_ACCESS_STORE_BUFFER, word);
}

/* A release store that waits in its subgroup's store buffer gives its
 * clock to the flag when it lands: an acquire load that reads the older
 * value meanwhile does not synchronize with it (000 "Synchronizes-With":
 * the acquire must read the release's value); one after it landed does. */
static void test_a_waiting_release_store_orders_nothing_yet(void **state)
{
    (void)state;
    struct vkmm_workgroup_races races = { 0 };
    uint8_t shared[SHARED] = { 0 };
    struct vkmm_workgroup_monitor *m = started(&races, shared);
    buffered(m, shared, 0, DATA, VKMM_WORKGROUP_WRITE, 10);
    vkmm_workgroup_monitor_barrier(m, 0, VKMM_WORKGROUP_SYNC | VKMM_SYNC_RELEASE | VKMM_SYNC_ATOMIC_WRITE);
    buffered(m, shared, 0, FLAG, VKMM_WORKGROUP_ATOMIC | VKMM_WORKGROUP_WRITE | VKMM_ACCESS_RELEASE, 30);
    vkmm_workgroup_monitor_barrier(m, 1, VKMM_WORKGROUP_SYNC | VKMM_SYNC_ACQUIRE | VKMM_SYNC_ATOMIC_READ);
    buffered(m, shared, 1, FLAG, VKMM_WORKGROUP_ATOMIC | VKMM_WORKGROUP_READ, 31);
    buffered(m, shared, 1, DATA, VKMM_WORKGROUP_READ, 20);
    assert_int_equal(races.count, 1);
    assert_true(races.race[0].unmatched);
    vkmm_workgroup_monitor_subgroup_done(m, 0); /* the store lands */
    vkmm_workgroup_monitor_barrier(m, 2, VKMM_WORKGROUP_SYNC | VKMM_SYNC_ACQUIRE | VKMM_SYNC_ATOMIC_READ);
    buffered(m, shared, 2, FLAG, VKMM_WORKGROUP_ATOMIC | VKMM_WORKGROUP_READ, 31);
    buffered(m, shared, 2, DATA, VKMM_WORKGROUP_READ, 21);
    assert_int_equal(races.count, 1);
    vkmm_workgroup_monitor_destroy(m);
}

/* --- The coherence order of atomic words (workgroup_monitor_history.c) ------------ */

enum { X = 32, Y = 40 };

static struct vkmm_workgroup_monitor *seeded(struct vkmm_workgroup_races *races, uint8_t *shared, uint64_t seed)
{
    struct vkmm_workgroup_monitor *m = vkmm_workgroup_monitor_create(local_size, WIDTH, SHARED, races);
    assert_non_null(m);
    vkmm_workgroup_monitor_set_seed(m, seed);
    vkmm_workgroup_monitor_begin(m, shared, workgroup);
    return m;
}

/* Lane 0 of `subgroup`: an atomic store of `value` to the word at `at`, in
 * a module whose atomic stores wait in store buffers (the generated code
 * stores where the monitor moved the address). */
static void atomic_store(struct vkmm_workgroup_monitor *m, uint8_t *shared, uint32_t subgroup, uint32_t at,
                         uint32_t value, uint32_t extra)
{
    const uint32_t offsets[WIDTH] = { at, at, at, at };
    int64_t moved = access(m, shared, subgroup, 1, offsets, 4,
                           VKMM_WORKGROUP_ATOMIC | VKMM_WORKGROUP_WRITE | VKMM_ACCESS_STORE_BUFFER | extra, 50);
    memcpy(shared + at + moved, &value, 4);
}

/* Lane 0 of `subgroup`: an atomic load of the word at `at`; the value it
 * reads (where the monitor moved the address). */
static uint32_t atomic_load(struct vkmm_workgroup_monitor *m, uint8_t *shared, uint32_t subgroup, uint32_t at,
                            uint32_t extra)
{
    const uint32_t offsets[WIDTH] = { at, at, at, at };
    int64_t moved = access(m, shared, subgroup, 1, offsets, 4,
                           VKMM_WORKGROUP_ATOMIC | VKMM_WORKGROUP_READ | VKMM_ACCESS_STORE_BUFFER | extra, 60);
    uint32_t value;
    memcpy(&value, shared + at + moved, 4);
    return value;
}

/* IRIW: two stores to two words land, and two readers read them in
 * opposite orders.  Each may see one store and not the other (000: an
 * atomic load reads any write of the coherence order not older than one
 * it knows of): some seed shows it, which one copy of shared memory never
 * could.  A reader never goes back (CoRR) on any seed. */
static void test_readers_of_shared_atomics_may_disagree(void **state)
{
    (void)state;
    bool disagree = false;
    for (uint64_t seed = 0; seed < 32; seed++) {
        struct vkmm_workgroup_races races = { 0 };
        uint8_t shared[SHARED] = { 0 };
        struct vkmm_workgroup_monitor *m = seeded(&races, shared, seed);
        atomic_store(m, shared, 0, X, 1, 0);
        atomic_store(m, shared, 1, Y, 1, 0);
        vkmm_workgroup_monitor_subgroup_done(m, 0);
        vkmm_workgroup_monitor_subgroup_done(m, 1);
        uint32_t x2 = atomic_load(m, shared, 2, X, 0), y2 = atomic_load(m, shared, 2, Y, 0);
        uint32_t y3 = atomic_load(m, shared, 3, Y, 0), x3 = atomic_load(m, shared, 3, X, 0);
        disagree |= x2 == 1 && y2 == 0 && y3 == 1 && x3 == 0;
        if (x2 == 1)
            assert_int_equal(atomic_load(m, shared, 2, X, 0), 1);
        if (y3 == 1)
            assert_int_equal(atomic_load(m, shared, 3, Y, 0), 1);
        assert_int_equal(races.count, 0);
        vkmm_workgroup_monitor_destroy(m);
    }
    assert_true(disagree);
}

/* 2+2W's half: two stores to one word that no happens-before orders land
 * one after the other; the later to land may take its place before the
 * first in the coherence order (seed 0 always lets it: the stalest), and
 * shared memory keeps the first.  A control barrier then shows every
 * reader the word's last value. */
static void test_a_landing_store_may_come_before_the_value_there(void **state)
{
    (void)state;
    struct vkmm_workgroup_races races = { 0 };
    uint8_t shared[SHARED] = { 0 };
    struct vkmm_workgroup_monitor *m = seeded(&races, shared, 0);
    atomic_store(m, shared, 0, X, 1, 0);
    atomic_store(m, shared, 1, X, 2, 0);
    vkmm_workgroup_monitor_subgroup_done(m, 0);
    vkmm_workgroup_monitor_subgroup_done(m, 1);
    uint32_t kept;
    memcpy(&kept, shared + X, 4);
    assert_int_equal(kept, 1);
    /* Seed 0: a reader that knows nothing reads the stalest value. */
    assert_int_equal(atomic_load(m, shared, 2, X, 0), 0);
    vkmm_workgroup_monitor_barrier_open(m);
    assert_int_equal(atomic_load(m, shared, 3, X, 0), 1);
    assert_int_equal(atomic_load(m, shared, 2, X, 0), 1);
    vkmm_workgroup_monitor_destroy(m);
}

/* Message passing with atomics: the acquire half of the flag's load
 * carries the writer's view, so once it read the release store's value the
 * data's older value is out of reach on every seed; a relaxed load of the
 * flag carries nothing, and some seed reads the old data after it. */
static void test_an_acquire_load_carries_the_writers_view(void **state)
{
    (void)state;
    bool stale_after_relaxed = false;
    for (uint64_t seed = 0; seed < 32; seed++) {
        for (int acquiring = 0; acquiring < 2; acquiring++) {
            struct vkmm_workgroup_races races = { 0 };
            uint8_t shared[SHARED] = { 0 };
            struct vkmm_workgroup_monitor *m = seeded(&races, shared, seed);
            atomic_store(m, shared, 0, X, 1, 0);
            vkmm_workgroup_monitor_barrier(m, 0, VKMM_WORKGROUP_SYNC | VKMM_SYNC_RELEASE | VKMM_SYNC_ATOMIC_WRITE);
            atomic_store(m, shared, 0, Y, 1, VKMM_ACCESS_RELEASE);
            vkmm_workgroup_monitor_subgroup_done(m, 0);
            if (acquiring)
                vkmm_workgroup_monitor_barrier(m, 1,
                                               VKMM_WORKGROUP_SYNC | VKMM_SYNC_ACQUIRE | VKMM_SYNC_ATOMIC_READ);
            uint32_t flag = atomic_load(m, shared, 1, Y, 0), data = atomic_load(m, shared, 1, X, 0);
            if (flag == 1 && acquiring)
                assert_int_equal(data, 1);
            stale_after_relaxed |= flag == 1 && !acquiring && data == 0;
            vkmm_workgroup_monitor_destroy(m);
        }
    }
    assert_true(stale_after_relaxed);
}

/* A flag released by one subgroup, then stored relaxed by another: an
 * acquire load may still read the released value (the word's coherence
 * order), and then it synchronizes with that release (000 "Synchronizes-
 * With"): the data written before the release is no race, on any seed. */
static void test_an_acquire_reading_an_older_release_is_synchronized(void **state)
{
    (void)state;
    bool read_older = false;
    for (uint64_t seed = 0; seed < 32; seed++) {
        struct vkmm_workgroup_races races = { 0 };
        uint8_t shared[SHARED] = { 0 };
        struct vkmm_workgroup_monitor *m = seeded(&races, shared, seed);
        buffered(m, shared, 0, DATA, VKMM_WORKGROUP_WRITE, 10);
        vkmm_workgroup_monitor_barrier(m, 0, VKMM_WORKGROUP_SYNC | VKMM_SYNC_RELEASE | VKMM_SYNC_ATOMIC_WRITE);
        atomic_store(m, shared, 0, FLAG, 1, VKMM_ACCESS_RELEASE | VKMM_ACCESS_ATOMIC_SYNC);
        vkmm_workgroup_monitor_subgroup_done(m, 0);
        vkmm_workgroup_monitor_barrier(m, 1, VKMM_WORKGROUP_SYNC | VKMM_SYNC_ATOMIC_WRITE);
        atomic_store(m, shared, 1, FLAG, 2, VKMM_ACCESS_ATOMIC_SYNC);
        vkmm_workgroup_monitor_subgroup_done(m, 1);
        vkmm_workgroup_monitor_barrier(m, 2, VKMM_WORKGROUP_SYNC | VKMM_SYNC_ACQUIRE | VKMM_SYNC_ATOMIC_READ);
        if (atomic_load(m, shared, 2, FLAG, VKMM_ACCESS_ATOMIC_SYNC) == 1) {
            read_older = true;
            buffered(m, shared, 2, DATA, VKMM_WORKGROUP_READ, 20);
            assert_int_equal(races.count, 0);
        }
        vkmm_workgroup_monitor_destroy(m);
    }
    assert_true(read_older);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_word_race_is_one_record_and_the_later_write_is_lost),
        cmocka_unit_test(test_byte_stores_into_one_word_do_not_race),
        cmocka_unit_test(test_word_states_match_byte_states),
        cmocka_unit_test(test_plain_store_then_atomics_races),
        cmocka_unit_test(test_release_and_acquire_order_a_handoff),
        cmocka_unit_test(test_acquire_matches_the_release_it_read),
        cmocka_unit_test(test_atomics_on_other_storage_are_lenient),
        cmocka_unit_test(test_a_waiting_release_store_orders_nothing_yet),
        cmocka_unit_test(test_subgroup_scope_atomics_race_between_subgroups),
        cmocka_unit_test(test_subgroup_scope_flag_read_across_subgroups),
        cmocka_unit_test(test_reads_of_unwritten_memory),
        cmocka_unit_test(test_readers_of_shared_atomics_may_disagree),
        cmocka_unit_test(test_a_landing_store_may_come_before_the_value_there),
        cmocka_unit_test(test_an_acquire_load_carries_the_writers_view),
        cmocka_unit_test(test_an_acquire_reading_an_older_release_is_synchronized),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
