#pragma once

#include <pthread.h>
#include <stdatomic.h>
#include <vulkan/vulkan.h>

#include "access_marks.h"

struct vkmm_device_monitor;
#include "address_space.h"
#include "hazard_report.h"
#include "object.h"
#include "physical_device.h"
#include "private_data.h"

struct vkmm_mm_engine;
struct vkmm_strict_access;
struct vkmm_queue;
struct vkmm_scheduler;
struct vkmm_thread_pool;

struct vkmm_device {
    struct vkmm_object base;
    VkAllocationCallbacks allocator;
    struct vkmm_physical_device *physical_device;

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

    /* Strict mode's memory engine (NULL in fast mode) and its reports;
     * engine_lock serialises every call into it. */
    struct vkmm_mm_engine *engine;
    pthread_mutex_t engine_lock;
    struct vkmm_hazard_report report;
    struct vkmm_access_marks access_marks;         /* strict mode: what dispatches touched (access_marks.h) */
    struct vkmm_device_monitor *device_monitor;   /* strict mode: workgroups' accesses in a dispatch (device_monitor.h) */
    uint64_t memory_serial;
    uint64_t buffer_serial;                        /* strict mode: buffers bound so far */
    struct vkmm_device_memory *strict_memories;    /* strict mode: emulated memories (engine lock) */
    bool host_trap_armed;                          /* strict mode: mapped views are protected (host_trap.h) */
    bool host_signal_writes;                       /* strict mode: VKMM_HOST_WRITE=before-signal */
    atomic_uint_fast64_t submit_calls;             /* strict mode: vkQueueSubmit calls, to mark memories */
    struct vkmm_strict_access *accesses; /* strict_memory.c: command accesses since idle */
    struct vkmm_strict_uninitialized *uninitialized; /* strict_memory.c: reads of never-written bytes, until idle */
    uint32_t uninitialized_count;
    struct vkmm_device_memory *addressable; /* strict mode: memories a buffer reference may reach */
    uint32_t access_count, access_capacity;
    uint64_t access_latest_submission, access_latest_position; /* the latest recorded, in submission order */
    uint32_t access_overtaken;                                  /* recorded writes of overtaken commands */

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
