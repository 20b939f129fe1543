#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "object.h"

/* Both semaphore types keep a monotonically increasing payload, guarded by
 * the scheduler lock.  A binary semaphore's payload counts completed signal
 * operations; the n-th wait submitted on it waits for payload >= n.  This is
 * exact for valid usage because the spec requires a binary semaphore's signal
 * to be submitted before any wait on it ("wait-before-signal" is only allowed
 * for timeline semaphores). */
struct vkmm_semaphore {
    struct vkmm_object base;
    VkSemaphoreType type;
    uint64_t payload;
    uint64_t binary_waits_submitted;
    uint64_t binary_signals_submitted;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_semaphore, VkSemaphore, VK_OBJECT_TYPE_SEMAPHORE)

/* The payload value a wait operation submitted now must reach; for timeline
 * semaphores that is `value`.  Scheduler lock held. */
uint64_t vkmm_semaphore_wait_target_locked(struct vkmm_semaphore *semaphore, uint64_t value);
/* The payload a signal operation submitted now will set. Scheduler lock held. */
uint64_t vkmm_semaphore_signal_target_locked(struct vkmm_semaphore *semaphore, uint64_t value);
/* Executes a signal operation. Scheduler lock held. */
void vkmm_semaphore_signal_locked(struct vkmm_semaphore *semaphore, uint64_t target);
bool vkmm_semaphore_reached_locked(const struct vkmm_semaphore *semaphore, uint64_t target);
