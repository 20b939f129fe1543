/* The command scheduler: the one object that decides when and where
 * recorded commands run (DESIGN §3.3).  Everything that waits for device
 * work, or changes state device work waits for, goes through it, so the
 * policy can change (in-order worker threads now; the deterministic
 * adversarial scheduler of strict mode later) without touching callers. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "execute.h"

struct vkmm_command_buffer;
struct vkmm_command_graph;
struct vkmm_device;
struct vkmm_fence;
struct vkmm_queue;
struct vkmm_scheduler;
struct vkmm_semaphore;

struct vkmm_semaphore_op {
    struct vkmm_semaphore *semaphore;
    uint64_t target; /* payload to wait for / to set (see semaphore.h) */
    VkPipelineStageFlags2 stages;
};

/* One batch of a vkQueueSubmit(2): waits, command buffers, signals, and the
 * call's fence on its last batch. */
struct vkmm_submission {
    struct vkmm_queue *queue;
    uint32_t wait_count;
    uint32_t command_buffer_count;
    uint32_t signal_count;
    struct vkmm_semaphore_op *waits;
    struct vkmm_command_buffer **command_buffers;
    struct vkmm_semaphore_op *signals;
    struct vkmm_fence *fence;
    uint64_t serial;   /* position in the queue's submission order */
    uint64_t sequence; /* position in the device's submission order (all queues) */
    struct vkmm_execution_cursor cursor; /* fast mode: how far it ran */
    uint32_t nodes_left; /* strict mode: its nodes in the queue's graph not yet run */
    /* Strict mode: its command nodes not yet run.  At 0 its command buffers
     * leave the pending state, whether or not earlier submissions retired
     * ("once execution of all submissions of a command buffer complete"). */
    uint32_t command_nodes_left;
    bool command_buffers_completed;
    const char *queue_label; /* strict mode: the queue's innermost debug-utils label at submission */
    struct vkmm_submission *next;
};

VkResult vkmm_scheduler_create(struct vkmm_device *device, struct vkmm_scheduler **out);
/* Waits for all work, then stops the workers. */
void vkmm_scheduler_destroy(struct vkmm_scheduler *scheduler);

/* Allocates a submission with room for the given counts (one allocation). */
struct vkmm_submission *vkmm_submission_create(struct vkmm_device *device, uint32_t wait_count,
                                               uint32_t command_buffer_count, uint32_t signal_count);
void vkmm_submission_destroy(struct vkmm_device *device, struct vkmm_submission *submission);

/* The lock guarding every fence, semaphore, event and query state. */
void vkmm_scheduler_lock(struct vkmm_scheduler *scheduler);
/* Strict mode, by the thread running device work: which of `count`
 * runnable candidates (in submission order) runs next — the latest with
 * seed 0, a function of (seed, step) otherwise. */
uint32_t vkmm_scheduler_choose(struct vkmm_scheduler *scheduler, uint32_t count);
void vkmm_scheduler_unlock(struct vkmm_scheduler *scheduler);
/* After the host changed such state (lock held): wakes whatever waits. */
void vkmm_scheduler_notify_locked(struct vkmm_scheduler *scheduler);

/* Hands a list of submissions of one queue to the scheduler, which owns them
 * from now on.  Lock held (so that semaphore targets computed by the caller
 * and the enqueue are one step). */
void vkmm_scheduler_submit_locked(struct vkmm_scheduler *scheduler, struct vkmm_queue *queue,
                                  struct vkmm_submission *first);

/* Blocks (lock held; it is released while waiting) until ready(arg) holds or
 * `timeout_ns` passes (UINT64_MAX: forever).  Returns VK_SUCCESS or
 * VK_TIMEOUT. */
VkResult vkmm_scheduler_wait_locked(struct vkmm_scheduler *scheduler, bool (*ready)(void *arg), void *arg,
                                    uint64_t timeout_ns);

/* A host call that observes device state without waiting (status and
 * counter queries): in strict mode, runs what can run first.  Lock held. */
void vkmm_scheduler_settle_locked(struct vkmm_scheduler *scheduler);

/* vkQueueWaitIdle / vkDeviceWaitIdle (queue NULL). Lock held. */
VkResult vkmm_scheduler_wait_idle_locked(struct vkmm_scheduler *scheduler, struct vkmm_queue *queue);
