/* Unit tests of runtime/exec/thread_pool.c: every piece of a job runs once,
 * on a thread the pool names, whatever the job's size against the pool's
 * (fewer pieces than threads, as many, more), job after job, with workers
 * busy or asleep when the next job starts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "exec/thread_pool.h"

enum { THREADS = 8, MAX_PIECES = 40 };

struct job {
    atomic_uint runs[MAX_PIECES];
    atomic_uint by_thread[THREADS];
};

static void piece(void *context, unsigned thread, uint64_t index)
{
    struct job *job = context;
    atomic_fetch_add(&job->runs[index], 1);
    atomic_fetch_add(&job->by_thread[thread], 1);
    /* Some pieces take a while, so that workers are busy when the next
     * job starts or are still asleep when it ends. */
    for (volatile unsigned spin = 0; spin < (index % 3 == 0 ? 2000u : 10u); spin++)
        ;
}

static void test_every_piece_runs_once_whatever_the_job_size(void **state)
{
    (void)state;
    struct vkmm_thread_pool *pool = NULL;
    assert_int_equal(vkmm_thread_pool_create(NULL, THREADS, &pool), VK_SUCCESS);
    assert_int_equal(vkmm_thread_pool_size(pool), THREADS);
    static struct job job;
    for (unsigned round = 0; round < 3000; round++) {
        uint64_t count = 1 + (round * 7 + round / 13) % MAX_PIECES;
        memset(&job, 0, sizeof(job));
        vkmm_thread_pool_run(pool, count, piece, &job);
        for (uint64_t i = 0; i < MAX_PIECES; i++)
            assert_int_equal(atomic_load(&job.runs[i]), i < count ? 1 : 0);
        unsigned total = 0;
        for (unsigned t = 0; t < THREADS; t++)
            total += atomic_load(&job.by_thread[t]);
        assert_int_equal(total, count);
    }
    vkmm_thread_pool_destroy(pool);
}

/* The calling thread's pieces wait (a bounded while) until a worker ran
 * one: on a loaded machine the caller may otherwise finish whole jobs
 * before a worker wakes, which is no failure of the pool. */
static void wait_for_a_worker(void *context, unsigned thread, uint64_t index)
{
    (void)index;
    atomic_uint *by_workers = context;
    if (thread != 0) {
        atomic_fetch_add(by_workers, 1);
        return;
    }
    const struct timespec millisecond = { 0, 1000000 };
    for (unsigned waited = 0; waited < 30000 && atomic_load(by_workers) == 0; waited++)
        nanosleep(&millisecond, NULL);
}

static void test_workers_take_part(void **state)
{
    (void)state;
    struct vkmm_thread_pool *pool = NULL;
    assert_int_equal(vkmm_thread_pool_create(NULL, THREADS, &pool), VK_SUCCESS);
    atomic_uint by_workers = 0;
    vkmm_thread_pool_run(pool, 2 * THREADS, wait_for_a_worker, &by_workers);
    assert_true(atomic_load(&by_workers) > 0);
    vkmm_thread_pool_destroy(pool);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_piece_runs_once_whatever_the_job_size),
        cmocka_unit_test(test_workers_take_part),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
