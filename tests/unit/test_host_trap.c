/* Unit tests of runtime/strict/host_trap.c: protected views record the first host
 * access per page and let it through; faults elsewhere reach the handler
 * installed before. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "host_trap.h"

static uint8_t *map_pages(size_t count)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    void *p = mmap(NULL, count * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(p != MAP_FAILED);
    return p;
}

static void test_trap_records_first_access_per_page(void **state)
{
    (void)state;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *view = map_pages(2);
    view[100] = 42;
    static int owner;
    assert_true(vkmm_host_trap_enabled());
    assert_true(vkmm_host_trap_protect(&owner, 7, view, 2 * page, 3, false));
    volatile uint8_t *v = view;
    assert_int_equal(v[100], 42); /* faults, is recorded, goes on */
    assert_int_equal(v[101], 0);  /* the page is open now: not recorded */
    v[page + 8] = 5;              /* the second page: a write */
    struct vkmm_host_access out[4];
    uint32_t count = vkmm_host_trap_release(&owner, out, 4);
    assert_int_equal(count, 2);
    assert_int_equal(out[0].memory_id, 7);
    assert_int_equal(out[0].offset, 100);
    assert_int_equal(out[0].sequence, 3);
    assert_false(out[0].write);
    assert_int_equal(out[1].offset, page + 8);
#if defined(__x86_64__)
    assert_true(out[1].write);
#endif
    assert_int_equal(view[page + 8], 5);
    /* Released: nothing is protected or recorded any more. */
    view[0] = 1;
    assert_int_equal(vkmm_host_trap_release(&owner, out, 4), 0);
    munmap(view, 2 * page);
}

static void test_trap_keeps_owners_apart(void **state)
{
    (void)state;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *a = map_pages(1), *b = map_pages(1);
    static int owner_a, owner_b;
    assert_true(vkmm_host_trap_protect(&owner_a, 1, a, page, 1, false));
    assert_true(vkmm_host_trap_protect(&owner_b, 2, b, page, 1, false));
    struct vkmm_host_access out[4];
    assert_int_equal(vkmm_host_trap_release(&owner_b, out, 4), 0); /* b opens, a stays */
    volatile uint8_t *va = a, *vb = b;
    (void)vb[10];
    (void)va[20];
    assert_int_equal(vkmm_host_trap_release(&owner_b, out, 4), 0);
    assert_int_equal(vkmm_host_trap_release(&owner_a, out, 4), 1);
    assert_int_equal(out[0].memory_id, 1);
    assert_int_equal(out[0].offset, 20);
    munmap(a, page);
    munmap(b, page);
}

static sigjmp_buf escape;
static volatile int earlier_handler_calls;

static void earlier_handler(int signal)
{
    (void)signal;
    earlier_handler_calls++;
    siglongjmp(escape, 1);
}

/* A fault outside every protected view is not the trap's: it reaches the
 * handler that was there before (a crash reporter, a test framework). */
static void test_trap_chains_other_faults(void **state)
{
    (void)state;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    struct sigaction mine = { .sa_handler = earlier_handler }, old;
    sigemptyset(&mine.sa_mask);
    assert_int_equal(sigaction(SIGSEGV, &mine, &old), 0);
    uint8_t *view = map_pages(1), *elsewhere = map_pages(1);
    static int owner;
    assert_true(vkmm_host_trap_protect(&owner, 9, view, page, 1, false)); /* goes in over `mine` */
    assert_int_equal(mprotect(elsewhere, page, PROT_NONE), 0);
    if (sigsetjmp(escape, 1) == 0) {
        volatile uint8_t *e = elsewhere;
        (void)e[0];
        fail_msg("the read of a PROT_NONE page went through");
    }
    assert_int_equal(earlier_handler_calls, 1);
    struct vkmm_host_access out[2];
    assert_int_equal(vkmm_host_trap_release(&owner, out, 2), 0);
    sigaction(SIGSEGV, &old, NULL);
    munmap(view, page);
    munmap(elsewhere, page);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trap_records_first_access_per_page),
        cmocka_unit_test(test_trap_keeps_owners_apart),
        cmocka_unit_test(test_trap_chains_other_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
