/* Unit tests of runtime/strict/access_marks.c: the runs a scan finds are exactly
 * the marked bytes (checked against a plain byte-by-byte reference), runs
 * cross page boundaries, pages never marked are skipped, and a clear
 * leaves nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "access_marks.h"
#include "address_space.h"

enum { SPACE = 1 << 20 };

struct runs {
    uint64_t offset[4096], length[4096];
    unsigned count;
};

static void collect(void *user, uint64_t offset, uint64_t length)
{
    struct runs *r = user;
    assert_true(r->count < 4096);
    r->offset[r->count] = offset;
    r->length[r->count++] = length;
}

/* The reference: runs of nonzero bytes, one byte at a time. */
static void reference_runs(const uint8_t *bytes, uint64_t size, struct runs *r)
{
    r->count = 0;
    for (uint64_t at = 0; at < size;) {
        if (!bytes[at]) {
            at++;
            continue;
        }
        uint64_t start = at;
        while (at < size && bytes[at])
            at++;
        collect(r, start, at - start);
    }
}

struct fixture {
    struct vkmm_address_space space;
    struct vkmm_access_marks marks;
};

static int setup(void **state)
{
    static struct fixture f;
    memset(&f, 0, sizeof(f));
    f.space.base = mmap(NULL, SPACE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(f.space.base != MAP_FAILED);
    f.space.size = SPACE;
    assert_int_equal(vkmm_access_marks_init(&f.marks, &f.space), VK_SUCCESS);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    vkmm_access_marks_finish(&f->marks);
    munmap(f->space.base, SPACE);
    return 0;
}

static uint8_t *mark_at(struct fixture *f, enum vkmm_access_mark which, uint64_t offset)
{
    return f->space.base + offset + vkmm_access_marks_delta(&f->marks, &f->space, which);
}

static void test_access_marks_scan_matches_the_reference(void **state)
{
    struct fixture *f = *state;
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    /* Scattered single bytes, a run across a page boundary, a long run. */
    uint64_t singles[] = { 3, 100, 4095, 70000, 300001 };
    for (unsigned i = 0; i < 5; i++)
        *mark_at(f, VKMM_MARK_WRITE, singles[i]) = 1;
    memset(mark_at(f, VKMM_MARK_WRITE, 2 * page - 5), 1, 10);
    memset(mark_at(f, VKMM_MARK_WRITE, 500000), 1, 3 * page + 17);
    /* A subrange that starts and ends inside pages. */
    uint64_t begin = 50, size = 600000;
    struct runs got = { .count = 0 }, want;
    vkmm_access_marks_scan(&f->marks, &f->space, VKMM_MARK_WRITE, f->space.base + begin, size, collect, &got);
    reference_runs(mark_at(f, VKMM_MARK_WRITE, begin), size, &want);
    assert_int_equal(got.count, want.count);
    assert_memory_equal(got.offset, want.offset, want.count * sizeof(uint64_t));
    assert_memory_equal(got.length, want.length, want.count * sizeof(uint64_t));
    assert_int_equal(want.count, 6); /* 100, 4095, the boundary run, 70000, 300001, the long run */
    /* The read map is separate. */
    got.count = 0;
    vkmm_access_marks_scan(&f->marks, &f->space, VKMM_MARK_READ, f->space.base, SPACE, collect, &got);
    assert_int_equal(got.count, 0);
}

static void test_access_marks_clear_leaves_nothing(void **state)
{
    struct fixture *f = *state;
    memset(mark_at(f, VKMM_MARK_READ, 8192), 1, 100);
    memset(mark_at(f, VKMM_MARK_WRITE, 8192), 1, 100);
    vkmm_access_marks_clear(&f->marks, &f->space, f->space.base + 8192, 100);
    struct runs got = { .count = 0 };
    vkmm_access_marks_scan(&f->marks, &f->space, VKMM_MARK_READ, f->space.base, SPACE, collect, &got);
    vkmm_access_marks_scan(&f->marks, &f->space, VKMM_MARK_WRITE, f->space.base + 8192, 100, collect, &got);
    assert_int_equal(got.count, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_access_marks_scan_matches_the_reference, setup, teardown),
        cmocka_unit_test_setup_teardown(test_access_marks_clear_leaves_nothing, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
