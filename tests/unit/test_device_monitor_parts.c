/* Unit tests of runtime/strict/device_monitor_parts.c: a dispatch run in
 * parts, each part's workgroups under a device monitor of its own.  A long
 * random run drives the same accesses into one monitor (the dispatch in
 * turns) and into three part monitors (each access to the part of its
 * workgroup), over a device of several map chunks: mostly inside each
 * part's own region, some reads of a region nobody writes, and on some
 * dispatches accesses anywhere.  Settling must fail exactly when a byte
 * one part wrote was touched by another (found by a byte reference here);
 * otherwise, once joined, the parts' scan of exact accesses must equal the
 * one monitor's over random windows, and clearing must reach every part.
 * A large range's scan in pieces hands out the plain scan's runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "device_monitor.h"
#include "shader_abi.h"

enum {
    DEVICE = 3 * 4096 + 768, /* four chunks of map, the last partial */
    PARTS = 3,
    WIDTH = 8,
    WORKGROUPS = 12, /* tag t belongs to part (t - 1) % PARTS */
    SHARED_READS = 3 * 4096, /* [SHARED_READS, DEVICE): read by every part, written by none */
    DISPATCHES = 60,
    STEPS = 300,
};

static void peek_before(void *user, uint64_t offset, uint64_t size, uint8_t *out)
{
    memcpy(out, (const uint8_t *)user + offset, size);
}

static uint64_t next(uint64_t *rng)
{
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    return *rng;
}

struct run {
    uint8_t one_memory[DEVICE], parts_memory[DEVICE], before[DEVICE];
    struct vkmm_device_monitor *one, *part[PARTS];
    struct vkmm_device_races one_races, part_races[PARTS];
    uint8_t touched[PARTS][DEVICE], wrote[PARTS][DEVICE];
};

static void begin(struct run *r)
{
    vkmm_device_monitor_begin(r->one, &r->one_races, peek_before, r->before, 0, WIDTH);
    memset(&r->one_races, 0, sizeof(r->one_races));
    for (int p = 0; p < PARTS; p++) {
        vkmm_device_monitor_begin(r->part[p], &r->part_races[p], peek_before, r->before, 0, WIDTH);
        memset(&r->part_races[p], 0, sizeof(r->part_races[p]));
    }
    memset(r->touched, 0, sizeof(r->touched));
    memset(r->wrote, 0, sizeof(r->wrote));
}

static const uint32_t sizes[] = { 1, 2, 4, 4, 4, 8, 16 };

/* One random access of workgroup `tag`: where (its part's region, the
 * shared reads, or anywhere when `foreign`), how many lanes, which kind. */
static void random_access(struct run *r, uint64_t *rng, bool foreign)
{
    uint32_t tag = 1 + (uint32_t)(next(rng) % WORKGROUPS), part = (tag - 1) % PARTS;
    uint32_t size = sizes[next(rng) % (sizeof(sizes) / sizeof(sizes[0]))];
    uint32_t lanes = next(rng) % 3 == 0 ? WIDTH : 1;
    uint32_t span = size * lanes, region = 3900; /* regions end inside chunks: edge chunks are shared */
    uint32_t flags;
    uint64_t at;
    uint32_t where = (uint32_t)(next(rng) % 16);
    if (where == 0) {
        at = SHARED_READS + next(rng) % (DEVICE - SHARED_READS - span);
        flags = VKMM_WORKGROUP_READ | VKMM_ACCESS_PRIVATE;
    } else {
        at = foreign ? next(rng) % (SHARED_READS - span) : part * region + next(rng) % (region - span);
        uint32_t kind = (uint32_t)(next(rng) % 4);
        flags = kind == 0   ? VKMM_WORKGROUP_READ | VKMM_ACCESS_PRIVATE
                : kind == 1 ? VKMM_WORKGROUP_WRITE | VKMM_ACCESS_PRIVATE
                : kind == 2 ? VKMM_WORKGROUP_READ
                            : VKMM_WORKGROUP_WRITE;
    }
    if (next(rng) % 2)
        at &= ~(uint64_t)(size - 1); /* aligned, mostly */
    uint32_t subgroup = (uint32_t)(next(rng) % 2);
    uint64_t one_addresses[WIDTH], part_addresses[WIDTH];
    for (uint32_t lane = 0; lane < WIDTH; lane++) {
        one_addresses[lane] = (uintptr_t)(r->one_memory + at + lane * size);
        part_addresses[lane] = (uintptr_t)(r->parts_memory + at + lane * size);
    }
    uint64_t mask = lanes == WIDTH ? 0xff : 1;
    uint64_t site = (uint64_t)(20 + next(rng) % 5) << 32;
    vkmm_device_monitor_access(r->one, one_addresses, mask, size | flags << 16, tag, site, "s", subgroup);
    vkmm_device_monitor_access(r->part[part], part_addresses, mask, size | flags << 16, tag, site, "s", subgroup);
    for (uint32_t b = 0; b < span; b++) {
        r->touched[part][at + b] = 1;
        r->wrote[part][at + b] |= (flags & VKMM_WORKGROUP_WRITE) != 0;
    }
}

/* Did a byte one part wrote see another part's access? */
static bool parts_conflict(const struct run *r)
{
    for (uint32_t b = 0; b < DEVICE; b++)
        for (int p = 0; p < PARTS; p++)
            for (int q = 0; q < PARTS; q++)
                if (p != q && r->wrote[p][b] && r->touched[q][b])
                    return true;
    return false;
}

struct scanned {
    uint64_t origin;
    uint8_t kinds[DEVICE];
};

static void scanned_read(void *user, uint64_t offset, uint64_t length)
{
    struct scanned *s = user;
    for (uint64_t i = 0; i < length; i++)
        s->kinds[s->origin + offset + i] |= 1;
}

static void scanned_write(void *user, uint64_t offset, uint64_t length)
{
    struct scanned *s = user;
    for (uint64_t i = 0; i < length; i++)
        s->kinds[s->origin + offset + i] |= 2;
}

static void assert_same_scan(struct run *r, uint64_t begin, uint64_t size)
{
    static struct scanned one, parts;
    memset(&one, 0, sizeof(one));
    memset(&parts, 0, sizeof(parts));
    one.origin = parts.origin = begin;
    vkmm_device_monitor_scan(r->one, r->one_memory + begin, size, scanned_read, scanned_write, &one);
    vkmm_device_monitor_scan(r->part[0], r->parts_memory + begin, size, scanned_read, scanned_write, &parts);
    for (uint32_t b = 0; b < DEVICE; b++)
        if (one.kinds[b] != parts.kinds[b])
            fail_msg("byte %u: scanned %u in one monitor, %u in parts", b, one.kinds[b], parts.kinds[b]);
}

static void test_parts_settle_exactly_when_apart_and_scan_as_one(void **state)
{
    (void)state;
    struct run *r = calloc(1, sizeof(*r));
    assert_non_null(r);
    r->one = vkmm_device_monitor_create(r->one_memory, DEVICE);
    assert_non_null(r->one);
    for (int p = 0; p < PARTS; p++) {
        r->part[p] = vkmm_device_monitor_create(r->parts_memory, DEVICE);
        assert_non_null(r->part[p]);
    }
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    unsigned settled = 0, refused = 0;
    for (int d = 0; d < DISPATCHES; d++) {
        begin(r);
        bool foreign = d % 3 != 0;
        for (int s = 0; s < STEPS; s++)
            random_access(r, &rng, foreign && next(&rng) % 64 == 0);
        vkmm_device_monitor_end_dispatch(r->one);
        for (int p = 0; p < PARTS; p++)
            vkmm_device_monitor_end_dispatch(r->part[p]);
        bool conflict = parts_conflict(r);
        /* Two ranges, as a dispatch's bindings: the chunks are settled per range. */
        uint64_t cut = 1 + next(&rng) % (DEVICE - 1);
        bool ok = vkmm_device_monitor_settle(r->part[0], &r->part[1], PARTS - 1, r->parts_memory, cut) &&
                  vkmm_device_monitor_settle(r->part[0], &r->part[1], PARTS - 1, r->parts_memory + cut, DEVICE - cut);
        assert_int_equal(ok, !conflict);
        if (!ok) {
            refused++;
            continue;
        }
        settled++;
        vkmm_device_monitor_join(r->part[0], &r->part[1], PARTS - 1);
        assert_same_scan(r, 0, DEVICE);
        for (int w = 0; w < 8; w++) {
            uint64_t begin_at = next(&rng) % DEVICE;
            assert_same_scan(r, begin_at, 1 + next(&rng) % (DEVICE - begin_at));
        }
    }
    /* Both outcomes happened often. */
    assert_true(settled >= 10 && refused >= 10);
    for (int p = 0; p < PARTS; p++)
        vkmm_device_monitor_destroy(r->part[p]);
    vkmm_device_monitor_destroy(r->one);
    free(r);
}

/* Bytes of one word, two parts: one writes bytes 0-1, the other reads
 * bytes 2-3 — apart (each byte is a memory location); then the other
 * reads byte 1 too — a conflict. */
static void test_parts_are_apart_byte_by_byte(void **state)
{
    (void)state;
    static uint8_t memory[4096], before[4096];
    struct vkmm_device_races races[2] = { 0 };
    struct vkmm_device_monitor *m[2];
    for (int trial = 0; trial < 2; trial++) {
        for (int p = 0; p < 2; p++) {
            m[p] = vkmm_device_monitor_create(memory, sizeof(memory));
            assert_non_null(m[p]);
            vkmm_device_monitor_begin(m[p], &races[p], peek_before, before, 0, WIDTH);
        }
        uint64_t address[WIDTH] = { (uintptr_t)(memory + 64) };
        vkmm_device_monitor_access(m[0], address, 1, 2 | (VKMM_WORKGROUP_WRITE | VKMM_ACCESS_PRIVATE) << 16, 1,
                                   20ull << 32, "w", 0);
        address[0] = (uintptr_t)(memory + (trial ? 65 : 66));
        vkmm_device_monitor_access(m[1], address, 1, (trial ? 3 : 2) | (VKMM_WORKGROUP_READ | VKMM_ACCESS_PRIVATE) << 16,
                                   2, 21ull << 32, "r", 0);
        bool ok = vkmm_device_monitor_settle(m[0], &m[1], 1, memory, sizeof(memory));
        assert_int_equal(ok, trial == 0);
        if (ok) {
            vkmm_device_monitor_join(m[0], &m[1], 1);
            struct scanned s = { 0 };
            vkmm_device_monitor_scan(m[0], memory, sizeof(memory), scanned_read, scanned_write, &s);
            assert_int_equal(s.kinds[64], 2);
            assert_int_equal(s.kinds[65], 2);
            assert_int_equal(s.kinds[66], 1);
            assert_int_equal(s.kinds[67], 1);
        }
        for (int p = 0; p < 2; p++)
            vkmm_device_monitor_destroy(m[p]);
    }
}

/* --- A large range's scan in pieces ------------------------------------------ */

enum { BIG = 20u << 20, MAX_RUNS = 1u << 20 };

struct run_list {
    uint64_t (*runs)[2];
    uint32_t count;
};

struct run_lists {
    struct run_list kind[2];
};

static void listed(struct run_list *l, uint64_t offset, uint64_t length)
{
    assert_true(l->count < MAX_RUNS);
    l->runs[l->count][0] = offset;
    l->runs[l->count][1] = length;
    l->count++;
}

static void listed_read(void *user, uint64_t offset, uint64_t length)
{
    listed(&((struct run_lists *)user)->kind[0], offset, length);
}

static void listed_write(void *user, uint64_t offset, uint64_t length)
{
    listed(&((struct run_lists *)user)->kind[1], offset, length);
}

/* The pieces one after the other, last first: any order must do. */
static void backwards(void *user, uint64_t count, void (*fn)(void *context, uint64_t index), void *context)
{
    (void)user;
    for (uint64_t i = count; i-- > 0;)
        fn(context, i);
}

static void lists_make(struct run_lists *l)
{
    for (int k = 0; k < 2; k++) {
        l->kind[k].runs = calloc(MAX_RUNS, sizeof(*l->kind[k].runs));
        assert_non_null(l->kind[k].runs);
        l->kind[k].count = 0;
    }
}

static void access_at(struct vkmm_device_monitor *m, uint8_t *memory, uint64_t at, uint32_t size, uint32_t flags,
                      uint32_t tag)
{
    uint64_t address[WIDTH] = { (uintptr_t)(memory + at) };
    vkmm_device_monitor_access(m, address, 1, size | flags << 16, tag, 20ull << 32, "s", 0);
}

/* Runs across the 1 MiB pieces' edges, a scattered stretch that outgrows
 * a piece's list (every other word of a whole piece), split words; the
 * spread scan of random ranges (and of the whole) hands out exactly the
 * plain scan's runs, in order per kind. */
static void test_spread_scan_hands_out_the_plain_scans_runs(void **state)
{
    (void)state;
    uint8_t *memory = calloc(1, BIG), *before = calloc(1, BIG);
    assert_non_null(memory);
    assert_non_null(before);
    struct vkmm_device_monitor *m = vkmm_device_monitor_create(memory, BIG);
    assert_non_null(m);
    struct vkmm_device_races races = { 0 };
    vkmm_device_monitor_begin(m, &races, peek_before, before, 0, WIDTH);
    const uint32_t read = VKMM_WORKGROUP_READ | VKMM_ACCESS_PRIVATE, write = VKMM_WORKGROUP_WRITE | VKMM_ACCESS_PRIVATE;
    /* Long runs over piece edges: reads, read-then-write, writes. */
    for (uint64_t at = (4u << 20) - 4096; at < (4u << 20) + 4096; at += 64)
        access_at(m, memory, at, 64, read, 1);
    for (uint64_t at = (4u << 20) - 2048; at < (4u << 20) + 2048; at += 64)
        access_at(m, memory, at, 64, write, 1);
    for (uint64_t at = (16u << 20) - 8192; at < (16u << 20) + 8192; at += 64)
        access_at(m, memory, at, 64, write, 1);
    /* Scattered: every other word of the piece [8, 12) MiB. */
    for (uint64_t at = 8u << 20; at < 12u << 20; at += 8)
        access_at(m, memory, at, 4, (at >> 3) % 3 ? read : write, 2);
    /* Random accesses elsewhere, some of part of a word. */
    uint64_t rng = 12345;
    for (int i = 0; i < 20000; i++) {
        uint32_t size = 1u << (next(&rng) % 5);
        uint64_t at = (12u << 20) + next(&rng) % ((8u << 20) - 64);
        access_at(m, memory, at, size, next(&rng) % 2 ? read : write, 3 + (uint32_t)(next(&rng) % 4));
    }
    struct run_lists plain, spread;
    lists_make(&plain);
    lists_make(&spread);
    for (int trial = 0; trial < 12; trial++) {
        uint64_t begin = trial ? next(&rng) % (BIG / 2) : 0;
        uint64_t size = trial ? (8u << 20) + next(&rng) % (BIG - begin - (8u << 20)) : BIG;
        plain.kind[0].count = plain.kind[1].count = spread.kind[0].count = spread.kind[1].count = 0;
        vkmm_device_monitor_scan(m, memory + begin, size, listed_read, listed_write, &plain);
        vkmm_device_monitor_scan_spread(m, memory + begin, size, listed_read, listed_write, &spread, backwards, NULL);
        for (int k = 0; k < 2; k++) {
            assert_true(plain.kind[k].count > 0);
            assert_int_equal(plain.kind[k].count, spread.kind[k].count);
            assert_memory_equal(plain.kind[k].runs, spread.kind[k].runs,
                                plain.kind[k].count * sizeof(plain.kind[k].runs[0]));
        }
    }
    for (int k = 0; k < 2; k++) {
        free(plain.kind[k].runs);
        free(spread.kind[k].runs);
    }
    vkmm_device_monitor_destroy(m);
    free(memory);
    free(before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parts_settle_exactly_when_apart_and_scan_as_one),
        cmocka_unit_test(test_parts_are_apart_byte_by_byte),
        cmocka_unit_test(test_spread_scan_hands_out_the_plain_scans_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
