#include "queue.h"

#include <string.h>

#include "alloc.h"
#include "command_buffer.h"
#include "command_footprint.h"
#include "device.h"
#include "device_memory.h"
#include "fence.h"
#include "log.h"
#include "scheduler.h"
#include "semaphore.h"
#include "strict/strict.h"

static void free_list(struct vkmm_device *device, struct vkmm_submission *list)
{
    while (list) {
        struct vkmm_submission *next = list->next;
        vkmm_submission_destroy(device, list);
        list = next;
    }
}

/* Returns a command buffer of the list that may not be submitted, with the
 * reason in *why, or NULL.  Scheduler lock held: a worker thread changes
 * `pending` (and `state`, for ONE_TIME_SUBMIT) when a submission completes,
 * which for SIMULTANEOUS_USE buffers can happen during this very call. */
static struct vkmm_command_buffer *find_unsubmittable_locked(const struct vkmm_submission *list, const char **why)
{
    for (const struct vkmm_submission *s = list; s; s = s->next) {
        for (uint32_t i = 0; i < s->command_buffer_count; i++) {
            struct vkmm_command_buffer *cmd = s->command_buffers[i];
            *why = NULL;
            if (cmd->state != VKMM_COMMAND_BUFFER_EXECUTABLE)
                *why = "command buffer submitted while not executable";
            else if (cmd->level != VK_COMMAND_BUFFER_LEVEL_PRIMARY)
                *why = "secondary command buffer submitted to a queue";
            else if (cmd->pending && !(cmd->usage & VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT))
                *why = "command buffer is still pending and lacks SIMULTANEOUS_USE_BIT";
            if (*why)
                return cmd;
        }
    }
    return NULL;
}

/* Turns API semaphore values into payload targets and marks command buffers
 * pending: the part of a submission that must happen in submission order.
 * Scheduler lock held. */
static void prepare_locked(struct vkmm_submission *list)
{
    for (struct vkmm_submission *s = list; s; s = s->next) {
        for (uint32_t i = 0; i < s->wait_count; i++)
            s->waits[i].target = vkmm_semaphore_wait_target_locked(s->waits[i].semaphore, s->waits[i].target);
        for (uint32_t i = 0; i < s->signal_count; i++)
            s->signals[i].target =
                vkmm_semaphore_signal_target_locked(s->signals[i].semaphore, s->signals[i].target);
        for (uint32_t i = 0; i < s->command_buffer_count; i++)
            s->command_buffers[i]->pending++;
    }
}

/* Strict mode: what the submitted work may touch (command_footprint.h),
 * memory by memory, for the submission's domain operation and the host
 * trap (strict/strict.h).  Past the table's size: everything. */
#define TOUCHED_MEMORIES 64
struct touched {
    struct vkmm_strict_touch memories[TOUCHED_MEMORIES];
    uint32_t count;
    bool everything;
};

static void touch(struct touched *t, struct vkmm_strict_memory *memory, bool write)
{
    for (uint32_t i = 0; i < t->count; i++) {
        if (t->memories[i].memory == memory) {
            t->memories[i].write |= write;
            return;
        }
    }
    if (t->count == TOUCHED_MEMORIES)
        t->everything = true;
    else
        t->memories[t->count++] = (struct vkmm_strict_touch){ memory, write };
}

static void find_touched(const struct vkmm_submission *list, struct touched *t)
{
    for (const struct vkmm_submission *s = list; s && !t->everything; s = s->next) {
        for (uint32_t i = 0; i < s->command_buffer_count && !t->everything; i++) {
            for (const struct vkmm_command *c = s->command_buffers[i]->first; c && !t->everything; c = c->next) {
                struct vkmm_footprint f;
                vkmm_command_footprint(c, false, &f);
                t->everything |= f.everything;
                for (uint32_t m = 0; m < f.count && !t->everything; m++)
                    if (f.memories[m]->strict)
                        touch(t, f.memories[m]->strict, f.writes[m]);
            }
        }
    }
}

/* Strict mode's side of vkQueueSubmit at the time of the call: the
 * host->device domain operation over what the work may touch.  Returns the
 * stamp for vkmm_strict_submitted. */
static uint64_t strict_submit(struct vkmm_device *device, const struct vkmm_submission *list)
{
    struct touched t = { .count = 0 }; /* about 1 KiB: on the stack, no allocation per submission */
    find_touched(list, &t);
    return vkmm_strict_submit(device->strict, t.memories, t.count, t.everything);
}

static VkResult submit_list(struct vkmm_queue *queue, struct vkmm_submission *list, struct vkmm_fence *fence)
{
    struct vkmm_device *device = queue->base.device;
    if (fence) {
        /* The fence signals after all batches: attach it to the last one, or
         * to an empty batch when there are none ("fence ... signaled once all
         * previously submitted work ... has completed"). */
        struct vkmm_submission *last = list;
        while (last && last->next)
            last = last->next;
        if (!last) {
            last = list = vkmm_submission_create(device, 0, 0, 0);
            if (!last)
                return vkmm_errorf(queue, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a fence-only submission");
        }
        last->fence = fence;
    }
    if (!list)
        return VK_SUCCESS;
    /* Strict mode: the host->device domain operation of vkQueueSubmit
     * happens now, at the call, whenever the work itself runs. */
    uint64_t stamp = device->strict ? strict_submit(device, list) : 0;
    if (atomic_load(&device->lost)) {
        /* Strict mode could not keep its state (out of host memory). */
        free_list(device, list);
        return VK_ERROR_DEVICE_LOST;
    }
    /* Queue labels are externally synchronized with the queue: read now,
     * kept for reports however late the work runs. */
    const char *queue_label =
        device->strict && queue->labels ? vkmm_strict_intern(device->strict, queue->labels->name) : NULL;
    for (struct vkmm_submission *s = list; s; s = s->next)
        s->queue_label = queue_label;
    vkmm_scheduler_lock(device->scheduler);
    const char *why = NULL;
    struct vkmm_command_buffer *bad = find_unsubmittable_locked(list, &why);
    uint64_t sequence = 0;
    if (!bad) {
        prepare_locked(list);
        struct vkmm_submission *last = list;
        while (last->next)
            last = last->next;
        vkmm_scheduler_submit_locked(device->scheduler, queue, list);
        sequence = last->sequence; /* read before the lock goes: the work may run and end then */
    }
    vkmm_scheduler_unlock(device->scheduler);
    if (!bad) {
        if (device->strict)
            vkmm_strict_submitted(device->strict, stamp, sequence);
        return VK_SUCCESS;
    }
    /* Logged outside the lock: the message goes to application callbacks. */
    free_list(device, list);
    return vkmm_errorf(bad, VK_ERROR_UNKNOWN, "%s", why);
}

static const VkTimelineSemaphoreSubmitInfo *find_timeline_info(const VkSubmitInfo *info)
{
    for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO)
            return (const VkTimelineSemaphoreSubmitInfo *)s;
    }
    return NULL;
}

static struct vkmm_submission *convert_submit(struct vkmm_device *device, const void *batch)
{
    const VkSubmitInfo *info = batch;
    struct vkmm_submission *s = vkmm_submission_create(device, info->waitSemaphoreCount,
                                                       info->commandBufferCount, info->signalSemaphoreCount);
    if (!s)
        return NULL;
    const VkTimelineSemaphoreSubmitInfo *timeline = find_timeline_info(info);
    for (uint32_t i = 0; i < info->waitSemaphoreCount; i++) {
        s->waits[i].semaphore = vkmm_semaphore_from_handle(info->pWaitSemaphores[i]);
        s->waits[i].stages = info->pWaitDstStageMask[i];
        if (timeline && timeline->pWaitSemaphoreValues && i < timeline->waitSemaphoreValueCount)
            s->waits[i].target = timeline->pWaitSemaphoreValues[i];
    }
    for (uint32_t i = 0; i < info->commandBufferCount; i++)
        s->command_buffers[i] = vkmm_command_buffer_from_handle(info->pCommandBuffers[i]);
    for (uint32_t i = 0; i < info->signalSemaphoreCount; i++) {
        s->signals[i].semaphore = vkmm_semaphore_from_handle(info->pSignalSemaphores[i]);
        s->signals[i].stages = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        if (timeline && timeline->pSignalSemaphoreValues && i < timeline->signalSemaphoreValueCount)
            s->signals[i].target = timeline->pSignalSemaphoreValues[i];
    }
    return s;
}

static struct vkmm_submission *convert_submit2(struct vkmm_device *device, const void *batch)
{
    const VkSubmitInfo2 *info = batch;
    struct vkmm_submission *s = vkmm_submission_create(device, info->waitSemaphoreInfoCount,
                                                       info->commandBufferInfoCount, info->signalSemaphoreInfoCount);
    if (!s)
        return NULL;
    for (uint32_t i = 0; i < info->waitSemaphoreInfoCount; i++) {
        const VkSemaphoreSubmitInfo *w = &info->pWaitSemaphoreInfos[i];
        s->waits[i] = (struct vkmm_semaphore_op){ vkmm_semaphore_from_handle(w->semaphore), w->value, w->stageMask };
    }
    for (uint32_t i = 0; i < info->commandBufferInfoCount; i++)
        s->command_buffers[i] = vkmm_command_buffer_from_handle(info->pCommandBufferInfos[i].commandBuffer);
    for (uint32_t i = 0; i < info->signalSemaphoreInfoCount; i++) {
        const VkSemaphoreSubmitInfo *g = &info->pSignalSemaphoreInfos[i];
        s->signals[i] = (struct vkmm_semaphore_op){ vkmm_semaphore_from_handle(g->semaphore), g->value, g->stageMask };
    }
    return s;
}

typedef struct vkmm_submission *(*convert_fn)(struct vkmm_device *device, const void *info);

/* Converts `count` batches of `stride` bytes each, keeping their order. */
static VkResult build_list(struct vkmm_queue *queue, uint32_t count, const void *infos, size_t stride,
                           convert_fn convert, struct vkmm_submission **out)
{
    struct vkmm_submission *list = NULL, **tail = &list;
    for (uint32_t b = 0; b < count; b++) {
        *tail = convert(queue->base.device, (const char *)infos + b * stride);
        if (!*tail) {
            free_list(queue->base.device, list);
            return vkmm_errorf(queue, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a submission");
        }
        tail = &(*tail)->next;
    }
    *out = list;
    return VK_SUCCESS;
}

/* A lost device takes no more work: the submission is not made, so
 * nothing it names changes (the spec's rule for a failed vkQueueSubmit). */
static VkResult submit_or_lost(struct vkmm_queue *queue, struct vkmm_submission *list, VkFence fence)
{
    if (atomic_load(&queue->base.device->lost)) {
        free_list(queue->base.device, list);
        return VK_ERROR_DEVICE_LOST;
    }
    return submit_list(queue, list, vkmm_fence_from_handle(fence));
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_QueueSubmit(VkQueue _queue, uint32_t submitCount, const VkSubmitInfo *pSubmits,
                                                 VkFence fence)
{
    VKMM_FROM_HANDLE(vkmm_queue, queue, _queue);
    struct vkmm_submission *list = NULL;
    VkResult result = build_list(queue, submitCount, pSubmits, sizeof(*pSubmits), convert_submit, &list);
    if (result != VK_SUCCESS)
        return result;
    return submit_or_lost(queue, list, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_QueueSubmit2(VkQueue _queue, uint32_t submitCount,
                                                  const VkSubmitInfo2 *pSubmits, VkFence fence)
{
    VKMM_FROM_HANDLE(vkmm_queue, queue, _queue);
    struct vkmm_submission *list = NULL;
    VkResult result = build_list(queue, submitCount, pSubmits, sizeof(*pSubmits), convert_submit2, &list);
    if (result != VK_SUCCESS)
        return result;
    return submit_or_lost(queue, list, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_QueueWaitIdle(VkQueue _queue)
{
    VKMM_FROM_HANDLE(vkmm_queue, queue, _queue);
    struct vkmm_scheduler *scheduler = queue->base.device->scheduler;
    vkmm_scheduler_lock(scheduler);
    VkResult result = vkmm_scheduler_wait_idle_locked(scheduler, queue);
    vkmm_scheduler_unlock(scheduler);
    if (result == VK_SUCCESS)
        if (queue->base.device->strict)
            vkmm_strict_wait_idle(queue->base.device->strict, vkmm_queue_id(queue));
    return vkmm_device_check_lost(queue->base.device, result);
}

/* No queue family has VK_QUEUE_SPARSE_BINDING_BIT and no sparse feature is
 * supported (VUID-vkQueueBindSparse-queuetype): nothing is bound, nothing
 * is signalled. */
VKAPI_ATTR VkResult VKAPI_CALL vkmm_QueueBindSparse(VkQueue _queue, uint32_t bindInfoCount,
                                                     const VkBindSparseInfo *pBindInfo, VkFence fence)
{
    (void)bindInfoCount, (void)pBindInfo, (void)fence;
    VKMM_FROM_HANDLE(vkmm_queue, queue, _queue);
    return vkmm_errorf(queue, VK_ERROR_UNKNOWN,
                       "vkQueueBindSparse: no queue family of vkmm's supports sparse binding "
                       "(VUID-vkQueueBindSparse-queuetype)");
}
