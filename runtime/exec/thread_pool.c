#include "thread_pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "alloc.h"

/* Workers spin this many rounds for a new job before sleeping: a
 * condition-variable wake-up costs ~20 µs, a spin hand-off ~0.1 µs, and
 * dispatches often come in quick succession. */
#define SPIN_ROUNDS 2000

struct vkmm_thread_pool {
    const VkAllocationCallbacks *allocator;
    unsigned threads; /* including the caller */
    pthread_t *workers;
    pthread_mutex_t run_lock; /* one job at a time */
    pthread_mutex_t lock;
    pthread_cond_t wake, finished;
    /* The current job. */
    atomic_uint_fast64_t generation;
    atomic_uint_fast64_t next_index;
    atomic_uint busy_workers;
    uint64_t count;
    vkmm_parallel_fn fn;
    void *context;
    bool stopping;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

struct worker_start {
    struct vkmm_thread_pool *pool;
    unsigned index;
};

static void work(struct vkmm_thread_pool *pool, unsigned thread)
{
    for (;;) {
        uint64_t i = atomic_fetch_add(&pool->next_index, 1);
        if (i >= pool->count)
            return;
        pool->fn(pool->context, thread, i);
    }
}

static void *worker_main(void *arg)
{
    struct vkmm_thread_pool *pool = ((struct worker_start *)arg)->pool;
    unsigned thread = ((struct worker_start *)arg)->index;
    free(arg);
    uint64_t seen = 0;
    for (;;) {
        unsigned spins = 0;
        while (atomic_load(&pool->generation) == seen && spins < SPIN_ROUNDS) {
            spins++;
            for (int i = 0; i < 16; i++)
                cpu_relax();
        }
        pthread_mutex_lock(&pool->lock);
        while (atomic_load(&pool->generation) == seen && !pool->stopping)
            pthread_cond_wait(&pool->wake, &pool->lock);
        bool stop = pool->stopping;
        pthread_mutex_unlock(&pool->lock);
        if (stop)
            return NULL;
        seen = atomic_load(&pool->generation);
        work(pool, thread);
        if (atomic_fetch_sub(&pool->busy_workers, 1) == 1) {
            pthread_mutex_lock(&pool->lock);
            pthread_cond_signal(&pool->finished);
            pthread_mutex_unlock(&pool->lock);
        }
    }
}

unsigned vkmm_thread_pool_default_size(void)
{
    const char *text = getenv("VKMM_THREADS");
    long n = text ? strtol(text, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    if (n > 256)
        n = 256;
    return (unsigned)n;
}

VkResult vkmm_thread_pool_create(const VkAllocationCallbacks *allocator, unsigned threads,
                                 struct vkmm_thread_pool **out)
{
    struct vkmm_thread_pool *pool =
        vkmm_zalloc(allocator, NULL, sizeof(*pool), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
    if (!pool)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    pool->allocator = allocator;
    pool->threads = threads ? threads : 1;
    pthread_mutex_init(&pool->run_lock, NULL);
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->finished, NULL);
    pool->workers = vkmm_zalloc(allocator, NULL, pool->threads * sizeof(pthread_t), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
    if (!pool->workers) {
        pool->threads = 1;
        vkmm_thread_pool_destroy(pool);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (unsigned i = 1; i < pool->threads; i++) {
        struct worker_start *start = malloc(sizeof(*start));
        if (start) {
            start->pool = pool;
            start->index = i;
        }
        if (!start || pthread_create(&pool->workers[i], NULL, worker_main, start) != 0) {
            free(start);
            pool->threads = i; /* only the ones started */
            break;
        }
    }
    *out = pool;
    return VK_SUCCESS;
}

void vkmm_thread_pool_destroy(struct vkmm_thread_pool *pool)
{
    if (!pool)
        return;
    pthread_mutex_lock(&pool->lock);
    pool->stopping = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (unsigned i = 1; i < pool->threads; i++)
        pthread_join(pool->workers[i], NULL);
    pthread_cond_destroy(&pool->wake);
    pthread_cond_destroy(&pool->finished);
    pthread_mutex_destroy(&pool->lock);
    pthread_mutex_destroy(&pool->run_lock);
    vkmm_free(pool->allocator, NULL, pool->workers);
    vkmm_free(pool->allocator, NULL, pool);
}

unsigned vkmm_thread_pool_size(const struct vkmm_thread_pool *pool)
{
    return pool->threads;
}

void vkmm_thread_pool_run(struct vkmm_thread_pool *pool, uint64_t count, vkmm_parallel_fn fn, void *context)
{
    if (count == 0)
        return;
    if (pool->threads == 1 || count == 1) {
        /* Not worth waking anyone. */
        for (uint64_t i = 0; i < count; i++)
            fn(context, 0, i);
        return;
    }
    pthread_mutex_lock(&pool->run_lock);
    pool->count = count;
    pool->fn = fn;
    pool->context = context;
    atomic_store(&pool->next_index, 0);
    atomic_store(&pool->busy_workers, pool->threads - 1);
    pthread_mutex_lock(&pool->lock);
    atomic_fetch_add(&pool->generation, 1);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    work(pool, 0);
    /* Wait for the workers to leave this job before the next may start. */
    unsigned spins = 0;
    while (atomic_load(&pool->busy_workers) != 0 && spins++ < SPIN_ROUNDS)
        ;
    pthread_mutex_lock(&pool->lock);
    while (atomic_load(&pool->busy_workers) != 0)
        pthread_cond_wait(&pool->finished, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
    pthread_mutex_unlock(&pool->run_lock);
}
