#pragma once

#include <pthread.h>
#include <stdatomic.h>
#include <vulkan/vulkan.h>

#include "address_space.h"
#include "object.h"
#include "physical_device.h"
#include "private_data.h"

struct vkmm_strict;
struct vkmm_queue;
struct vkmm_scheduler;
struct vkmm_thread_pool;

struct vkmm_device {
    struct vkmm_object base;
    VkAllocationCallbacks allocator;
    struct vkmm_physical_device *physical_device;
    uint64_t enabled_extensions; /* bit e: vkmm_device_extensions[e] */

    struct vkmm_queue *queues[VKMM_QUEUE_FAMILY_COUNT][VKMM_MAX_QUEUES_PER_FAMILY];
    uint32_t queue_counts[VKMM_QUEUE_FAMILY_COUNT];

    /* Decides when and where recorded commands run; the only object that
     * does.  It also owns the lock that guards fence, semaphore, event and
     * query state. */
    struct vkmm_scheduler *scheduler;

    /* Device-memory bookkeeping (device_memory.c). */
    pthread_mutex_t memory_lock;
    uint32_t memory_allocation_count;
    uint64_t heap_used;
    struct vkmm_address_space address_space; /* where device memory lives */

    struct vkmm_private_data_store private_data;

    /* Device loss (a dispatch the watchdog ended): from then on commands do
     * nothing and waits, submits and status queries return
     * VK_ERROR_DEVICE_LOST. */
    atomic_bool lost;
    /* VKMM_DISPATCH_TIMEOUT_MS, read when the device is created (dispatch.c). */
    uint64_t dispatch_timeout_ns;
    /* Strict mode may run dispatches in parts (VKMM_STRICT_PARTS, read when
     * the device is created; dispatch.c). */
    bool strict_parts;

    /* Strict mode's bridge to the memory engine (strict/strict.h); NULL in
     * fast mode. */
    struct vkmm_strict *strict;

    /* Workers for dispatches, created by the first dispatch. */
    pthread_mutex_t thread_pool_lock;
    struct vkmm_thread_pool *thread_pool;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_device, VkDevice, VK_OBJECT_TYPE_DEVICE)

/* The device's thread pool, created on first use; NULL if it cannot be
 * (dispatches then run on the queue's thread). */
struct vkmm_thread_pool *vkmm_device_thread_pool(struct vkmm_device *device);
/* VK_ERROR_DEVICE_LOST once the device is lost, else `result`. */
VkResult vkmm_device_check_lost(struct vkmm_device *device, VkResult result);
/* Loses the device, with a VKMM-DEVICE-LOST error message saying why
 * (printf-style). */
void vkmm_device_lose(struct vkmm_device *device, const char *format, ...) __attribute__((format(printf, 2, 3)));
