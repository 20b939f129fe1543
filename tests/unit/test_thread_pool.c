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
    uint64_t workers_used = 0;
    for (unsigned round = 0; round < 3000; round++) {
        uint64_t count = 1 + (round * 7 + round / 13) % MAX_PIECES;
        memset(&job, 0, sizeof(job));
        vkmm_thread_pool_run(pool, count, piece, &job);
        for (uint64_t i = 0; i < MAX_PIECES; i++)
            assert_int_equal(atomic_load(&job.runs[i]), i < count ? 1 : 0);
        unsigned total = 0;
        for (unsigned t = 0; t < THREADS; t++) {
            total += atomic_load(&job.by_thread[t]);
            workers_used += t > 0 && atomic_load(&job.by_thread[t]) > 0;
        }
        assert_int_equal(total, count);
    }
    assert_true(workers_used > 0); /* the workers did take part */
    vkmm_thread_pool_destroy(pool);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_piece_runs_once_whatever_the_job_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
