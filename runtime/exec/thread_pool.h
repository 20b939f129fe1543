/* A pool of worker threads for the workgroups of a dispatch (fast mode).
 * The calling thread takes part as thread 0. */
#pragma once

#include <stdint.h>
#include <vulkan/vulkan.h>

struct vkmm_thread_pool;

typedef void (*vkmm_parallel_fn)(void *context, unsigned thread, uint64_t index);

/* `threads` counts the caller; 1 means no workers. */
VkResult vkmm_thread_pool_create(const VkAllocationCallbacks *allocator, unsigned threads,
                                 struct vkmm_thread_pool **out);
void vkmm_thread_pool_destroy(struct vkmm_thread_pool *pool);
unsigned vkmm_thread_pool_size(const struct vkmm_thread_pool *pool);
/* Calls fn(context, thread, i) for every i in [0, count), spread over the
 * threads; returns when all calls returned.  Calls from several threads
 * are serialised. */
void vkmm_thread_pool_run(struct vkmm_thread_pool *pool, uint64_t count, vkmm_parallel_fn fn, void *context);
/* VKMM_THREADS, or the number of online CPUs. */
unsigned vkmm_thread_pool_default_size(void);
