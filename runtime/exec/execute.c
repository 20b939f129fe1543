/* The executor: one handle_<command>() per recorded command.  In fast mode
 * a queue runs its commands in order on one thread over coherent memory, so
 * barriers have nothing to do; in strict mode every access and dependency
 * goes to the memory engine through the strict bridge (strict/strict.h,
 * DESIGN §3.2). */
#include "execute.h"

#include <stdlib.h>
#include <string.h>

#include "buffer.h"
#include "command_buffer.h"
#include "command_graph.h"
#include "device.h"
#include "device_memory.h"
#include "dispatch.h"
#include "event.h"
#include "query_pool.h"
#include "queue.h"
#include "blit.h"
#include "scheduler.h"
#include "strict/strict.h"

static bool strict(const struct vkmm_execution *x)
{
    return x->device->strict != NULL;
}

void vkmm_execution_strict_command(const struct vkmm_execution *x, const struct vkmm_command *command,
                                   struct vkmm_strict_graph *graph, struct vkmm_strict_command *out)
{
    if (x->graph)
        vkmm_command_graph_strict_view(x->graph, graph);
    *out = (struct vkmm_strict_command){
        .agent = {
            .queue = vkmm_queue_id(x->queue),
            .position = x->position,
            .submission = x->submission->sequence,
            .command = command->index,
            .kind = vkmm_command_name(command),
            .where = x->where,
        },
        .graph = x->graph ? graph : NULL,
    };
}

/* The bridge's view of an access of `buffer` by `c`; false when strict
 * mode does not emulate the buffer's memory (its bytes are used as they
 * are), or no memory is bound (an image barrier on an unbound image:
 * invalid usage, made harmless). */
static bool strict_target(const struct vkmm_execution *x, const struct vkmm_command *c, const struct vkmm_buffer *buffer,
                          struct vkmm_strict_graph *graph, struct vkmm_strict_command *command)
{
    if (!buffer->memory || !buffer->memory->strict)
        return false;
    vkmm_execution_strict_command(x, c, graph, command);
    return true;
}

void vkmm_execution_strict_read(struct vkmm_execution *x, const struct vkmm_command *c, struct vkmm_buffer *buffer,
                                VkDeviceSize offset, VkDeviceSize size, VkPipelineStageFlags2 stage,
                                VkAccessFlags2 access, void *out)
{
    struct vkmm_strict_graph graph;
    struct vkmm_strict_command command;
    if (strict_target(x, c, buffer, &graph, &command))
        vkmm_strict_read(x->device->strict, &command, buffer->memory->strict, buffer->memory_offset + offset, size,
                         stage, access, out);
    else
        memcpy(out, vkmm_buffer_device_bytes(buffer, offset, size), size);
}

void vkmm_execution_strict_write(struct vkmm_execution *x, const struct vkmm_command *c, struct vkmm_buffer *buffer,
                                 VkDeviceSize offset, VkDeviceSize size, VkPipelineStageFlags2 stage,
                                 VkAccessFlags2 access, const void *data)
{
    struct vkmm_strict_graph graph;
    struct vkmm_strict_command command;
    if (strict_target(x, c, buffer, &graph, &command))
        vkmm_strict_write(x->device->strict, &command, buffer->memory->strict, buffer->memory_offset + offset, size,
                          stage, access, data);
    else
        memmove(vkmm_buffer_device_bytes(buffer, offset, size), data, size);
}

/* A buffer barrier's bytes in the bridge's terms; false for invalid usage
 * or memory strict mode does not emulate. */
static bool strict_buffer_barrier(const VkBufferMemoryBarrier2 *b, struct vkmm_strict_barrier *out)
{
    VKMM_FROM_HANDLE(vkmm_buffer, buffer, b->buffer);
    if (!buffer || !buffer->memory || !buffer->memory->strict || b->offset > buffer->size)
        return false;
    VkDeviceSize size = b->size == VK_WHOLE_SIZE || b->size > buffer->size - b->offset ? buffer->size - b->offset
                                                                                        : b->size;
    *out = (struct vkmm_strict_barrier){ b->srcStageMask, b->dstStageMask, b->srcAccessMask, b->dstAccessMask,
                                         buffer->memory->strict, buffer->memory_offset + b->offset, size };
    return true;
}

/* A dependency's first synchronization scope: the running node's ancestors
 * (every earlier write when the submission runs in order). */
/* A transition from UNDEFINED scrambles the bytes it discards, after the
 * barrier's availability operations and visible to its second scope. */
static void strict_discard(struct vkmm_execution *x, const struct vkmm_command *c, const struct vkmm_discard *d)
{
    struct vkmm_strict_graph graph;
    struct vkmm_strict_command command;
    if (strict_target(x, c, d->bytes, &graph, &command))
        vkmm_strict_discard(x->device->strict, &command, d->bytes->memory->strict, d->bytes->memory_offset + d->offset,
                            d->size, d->dst_stages, d->dst_access);
}

static void strict_dependency(struct vkmm_execution *x, const struct vkmm_command *c,
                              const struct vkmm_dependency *dependency)
{
    struct vkmm_strict_graph graph;
    struct vkmm_strict_scope scope = { NULL, x->position, vkmm_queue_id(x->queue) };
    if (x->graph) {
        vkmm_command_graph_strict_view(x->graph, &graph);
        scope.graph = &graph;
    }
    const struct vkmm_strict_scope *in = x->graph ? &scope : NULL;
    for (uint32_t i = 0; i < dependency->memory_barrier_count; i++) {
        const VkMemoryBarrier2 *b = &dependency->memory_barriers[i];
        struct vkmm_strict_barrier barrier = { b->srcStageMask, b->dstStageMask, b->srcAccessMask, b->dstAccessMask,
                                               NULL, 0, 0 };
        vkmm_strict_barrier(x->device->strict, in, &barrier);
    }
    for (uint32_t i = 0; i < dependency->buffer_barrier_count; i++) {
        struct vkmm_strict_barrier barrier;
        if (strict_buffer_barrier(&dependency->buffer_barriers[i], &barrier))
            vkmm_strict_barrier(x->device->strict, in, &barrier);
    }
    for (uint32_t i = 0; i < dependency->discard_count; i++)
        strict_discard(x, c, &dependency->discards[i]);
}

/* Strict mode: a transfer reads through its read path into a scratch copy,
 * then writes through its write path (the spec: copies behave as if
 * through a temporary). */
static void strict_copy(struct vkmm_execution *x, const struct vkmm_command *c, const VkBufferCopy2 *r)
{
    uint8_t *scratch = malloc(r->size ? r->size : 1);
    if (!scratch)
        return;
    vkmm_execution_strict_read(x, c, c->u.copy_buffer.src, r->srcOffset, r->size, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_TRANSFER_READ_BIT, scratch);
    vkmm_execution_strict_write(x, c, c->u.copy_buffer.dst, r->dstOffset, r->size, VK_PIPELINE_STAGE_2_COPY_BIT,
                      VK_ACCESS_2_TRANSFER_WRITE_BIT, scratch);
    free(scratch);
}

static void handle_copy_buffer(struct vkmm_execution *x, const struct vkmm_command *c)
{
    for (uint32_t i = 0; i < c->u.copy_buffer.region_count; i++) {
        const VkBufferCopy2 *r = &c->u.copy_buffer.regions[i];
        if (strict(x)) {
            strict_copy(x, c, r);
            continue;
        }
        uint8_t *dst = vkmm_buffer_device_bytes(c->u.copy_buffer.dst, r->dstOffset, r->size);
        const uint8_t *src = vkmm_buffer_device_bytes(c->u.copy_buffer.src, r->srcOffset, r->size);
        memmove(dst, src, r->size);
    }
}

static void handle_fill_buffer(struct vkmm_execution *x, const struct vkmm_command *c)
{
    VkDeviceSize size = c->u.fill_buffer.size;
    uint8_t *dst = strict(x) ? malloc(size ? size : 1)
                             : vkmm_buffer_device_bytes(c->u.fill_buffer.dst, c->u.fill_buffer.offset, size);
    if (!dst)
        return;
    for (VkDeviceSize i = 0; i < size; i += 4)
        memcpy(dst + i, &c->u.fill_buffer.data, 4);
    if (strict(x)) {
        /* Fill and update are "clear commands" (the CLEAR stage in synchronization2). */
        vkmm_execution_strict_write(x, c, c->u.fill_buffer.dst, c->u.fill_buffer.offset, size, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                          VK_ACCESS_2_TRANSFER_WRITE_BIT, dst);
        free(dst);
    }
}

static void handle_update_buffer(struct vkmm_execution *x, const struct vkmm_command *c)
{
    if (strict(x)) {
        vkmm_execution_strict_write(x, c, c->u.update_buffer.dst, c->u.update_buffer.offset, c->u.update_buffer.size,
                          VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, c->u.update_buffer.data);
        return;
    }
    uint8_t *dst = vkmm_buffer_device_bytes(c->u.update_buffer.dst, c->u.update_buffer.offset,
                                            c->u.update_buffer.size);
    memcpy(dst, c->u.update_buffer.data, c->u.update_buffer.size);
}

/* The halves of a dependency, for events: synchronization2 events carry
 * the same dependency at set and wait, so the set makes the first scope's
 * writes available and the wait makes them visible to the second scope. */
static void apply_half(struct vkmm_execution *x, const struct vkmm_command *c, const struct vkmm_dependency *dependency,
                       bool source_half)
{
    VkMemoryBarrier2 memory[dependency->memory_barrier_count ? dependency->memory_barrier_count : 1];
    VkBufferMemoryBarrier2 buffers[dependency->buffer_barrier_count ? dependency->buffer_barrier_count : 1];
    struct vkmm_dependency half = *dependency;
    if (source_half)
        half.discard_count = 0; /* a transition happens where the dependency completes */
    half.memory_barriers = memory;
    half.buffer_barriers = buffers;
    for (uint32_t i = 0; i < dependency->memory_barrier_count; i++) {
        memory[i] = dependency->memory_barriers[i];
        if (source_half)
            memory[i].dstStageMask = 0, memory[i].dstAccessMask = 0;
        else
            memory[i].srcStageMask = 0, memory[i].srcAccessMask = 0;
    }
    for (uint32_t i = 0; i < dependency->buffer_barrier_count; i++) {
        buffers[i] = dependency->buffer_barriers[i];
        if (source_half)
            buffers[i].dstStageMask = 0, buffers[i].dstAccessMask = 0;
        else
            buffers[i].srcStageMask = 0, buffers[i].srcAccessMask = 0;
    }
    strict_dependency(x, c, &half);
}

static void set_event(struct vkmm_execution *x, struct vkmm_event *event, bool set)
{
    vkmm_scheduler_lock(x->scheduler);
    event->set = set;
    vkmm_scheduler_notify_locked(x->scheduler);
    vkmm_scheduler_unlock(x->scheduler);
}

static bool events_set(void *arg)
{
    const struct vkmm_command *c = arg;
    for (uint32_t i = 0; i < c->u.wait_events.event_count; i++) {
        if (!c->u.wait_events.events[i]->set)
            return false;
    }
    return true;
}

/* False when the events are not set and the command may not block. */
static bool handle_wait_events(struct vkmm_execution *x, const struct vkmm_command *c)
{
    vkmm_scheduler_lock(x->scheduler);
    bool set = events_set((void *)c);
    if (!set && x->may_block)
        set = vkmm_scheduler_wait_locked(x->scheduler, events_set, (void *)c, UINT64_MAX) == VK_SUCCESS;
    vkmm_scheduler_unlock(x->scheduler);
    if (!set || !strict(x))
        return set;
    /* Synchronization2: one dependency per event, whose source half the set
     * applied.  Legacy: one dependency for all, and vkCmdSetEvent had only a
     * stage mask, so the whole dependency applies here. */
    for (uint32_t i = 0; i < c->u.wait_events.dependency_count; i++) {
        if (c->u.wait_events.legacy)
            strict_dependency(x, c, &c->u.wait_events.dependencies[i]);
        else
            apply_half(x, c, &c->u.wait_events.dependencies[i], false);
    }
    return true;
}

struct query_range {
    struct vkmm_query_pool *pool;
    uint32_t first, count;
};

static bool range_available(void *arg)
{
    const struct query_range *r = arg;
    for (uint32_t q = r->first; q < r->first + r->count; q++) {
        if (!r->pool->available[q])
            return false;
    }
    return true;
}

static void handle_copy_query_pool_results(struct vkmm_execution *x, const struct vkmm_command *c)
{
    const __typeof__(c->u.copy_query_pool_results) *q = &c->u.copy_query_pool_results;
    /* Strict mode runs work in order inside host calls: nothing could make
     * a missing query available while this runs, so it does not wait. */
    if ((q->flags & VK_QUERY_RESULT_WAIT_BIT) && x->may_block) {
        struct query_range range = { q->pool, q->first, q->count };
        vkmm_scheduler_lock(x->scheduler);
        vkmm_scheduler_wait_locked(x->scheduler, range_available, &range, UINT64_MAX);
        vkmm_scheduler_unlock(x->scheduler);
    }
    VkDeviceSize value_size;
    VkDeviceSize span = vkmm_query_result_span(q->count, q->stride, q->flags, &value_size);
    if (!strict(x)) {
        uint8_t *dst = vkmm_buffer_device_bytes(q->dst, q->offset, span);
        vkmm_query_pool_copy_results(x->device, q->pool, q->first, q->count, dst, q->stride, q->flags);
        return;
    }
    /* Unwritten results keep the buffer's bytes (the spec), so only the
     * bytes the copy writes become writes: the ones that come out the same
     * over two different backgrounds. */
    uint8_t *zeros = calloc(1, span ? span : 1), *ones = malloc(span ? span : 1);
    if (zeros && ones) {
        memset(ones, 0xff, span);
        vkmm_query_pool_copy_results(x->device, q->pool, q->first, q->count, zeros, q->stride, q->flags);
        vkmm_query_pool_copy_results(x->device, q->pool, q->first, q->count, ones, q->stride, q->flags);
        for (VkDeviceSize at = 0; at < span;) {
            if (zeros[at] != ones[at]) {
                at++;
                continue;
            }
            VkDeviceSize start = at;
            while (at < span && zeros[at] == ones[at])
                at++;
            vkmm_execution_strict_write(x, c, q->dst, q->offset + start, at - start, VK_PIPELINE_STAGE_2_COPY_BIT,
                              VK_ACCESS_2_TRANSFER_WRITE_BIT, zeros + start);
        }
    }
    free(zeros);
    free(ones);
}

static void execute_nested(struct vkmm_execution *x, const struct vkmm_command_buffer *cmd);

/* Runs one command; false if it is a wait that cannot complete now. */
static bool handle_command(struct vkmm_execution *x, const struct vkmm_command *c)
{
    /* A lost device runs nothing more; its queues drain so that waits end. */
    if (atomic_load(&x->device->lost))
        return true;
    switch (c->type) {
    case VKMM_COMMAND_COPY_BUFFER:
        handle_copy_buffer(x, c);
        break;
    case VKMM_COMMAND_FILL_BUFFER:
        handle_fill_buffer(x, c);
        break;
    case VKMM_COMMAND_UPDATE_BUFFER:
        handle_update_buffer(x, c);
        break;
    case VKMM_COMMAND_PIPELINE_BARRIER:
        /* Fast mode: in order and coherent, already satisfied. */
        if (strict(x))
            strict_dependency(x, c, &c->u.pipeline_barrier.dependency);
        break;
    case VKMM_COMMAND_SET_EVENT:
        if (strict(x))
            apply_half(x, c, &c->u.set_event.dependency, true);
        set_event(x, c->u.set_event.event, true);
        break;
    case VKMM_COMMAND_RESET_EVENT:
        set_event(x, c->u.reset_event.event, false);
        break;
    case VKMM_COMMAND_WAIT_EVENTS:
        return handle_wait_events(x, c);
    case VKMM_COMMAND_WRITE_TIMESTAMP:
        vkmm_query_pool_write_timestamp(x->device, c->u.write_timestamp.pool, c->u.write_timestamp.query);
        break;
    case VKMM_COMMAND_RESET_QUERY_POOL:
        vkmm_query_pool_reset_range(x->device, c->u.reset_query_pool.pool, c->u.reset_query_pool.first,
                                    c->u.reset_query_pool.count);
        break;
    case VKMM_COMMAND_COPY_QUERY_POOL_RESULTS:
        handle_copy_query_pool_results(x, c);
        break;
    case VKMM_COMMAND_EXECUTE_COMMANDS:
        /* Reached only from a secondary (nested command buffers); primaries
         * step through their secondaries in vkmm_execute_submission. */
        for (uint32_t i = 0; i < c->u.execute_commands.count; i++)
            execute_nested(x, c->u.execute_commands.command_buffers[i]);
        break;
    case VKMM_COMMAND_DISPATCH:
        vkmm_dispatch_execute(x, c);
        break;
    case VKMM_COMMAND_BLIT_IMAGE:
        vkmm_blit_execute(x, c);
        break;
    case VKMM_COMMAND_BEGIN_LABEL:
    case VKMM_COMMAND_END_LABEL:
    case VKMM_COMMAND_INSERT_LABEL:
        break; /* labels only name work in reports */
    }
    return true;
}

static void execute_nested(struct vkmm_execution *x, const struct vkmm_command_buffer *cmd)
{
    struct vkmm_execution blocking = *x;
    blocking.may_block = true;
    for (const struct vkmm_command *c = cmd->first; c; c = c->next)
        handle_command(&blocking, c);
}

/* The secondaries of a vkCmdExecuteCommands, from the cursor on. */
static bool run_secondaries(struct vkmm_execution *x, const struct vkmm_command *c,
                            struct vkmm_execution_cursor *cursor)
{
    while (cursor->secondary < c->u.execute_commands.count) {
        const struct vkmm_command_buffer *secondary = c->u.execute_commands.command_buffers[cursor->secondary];
        if (!cursor->secondary_started) {
            cursor->next_inner = secondary->first;
            cursor->secondary_started = true;
        }
        while (cursor->next_inner) {
            if (!handle_command(x, cursor->next_inner))
                return false;
            cursor->next_inner = cursor->next_inner->next;
        }
        cursor->secondary++;
        cursor->secondary_started = false;
    }
    cursor->secondary = 0;
    return true;
}

void vkmm_execute_command(struct vkmm_execution *x, const struct vkmm_command *command)
{
    handle_command(x, command);
}

bool vkmm_command_runnable_locked(const struct vkmm_command *command)
{
    return command->type != VKMM_COMMAND_WAIT_EVENTS || events_set((void *)command);
}

enum vkmm_execution_result vkmm_execute_submission(struct vkmm_execution *x, struct vkmm_execution_cursor *cursor)
{
    const struct vkmm_submission *s = x->submission;
    while (cursor->buffer < s->command_buffer_count) {
        if (!cursor->buffer_started) {
            cursor->next = s->command_buffers[cursor->buffer]->first;
            cursor->buffer_started = true;
        }
        while (cursor->next) {
            const struct vkmm_command *c = cursor->next;
            bool completed = c->type == VKMM_COMMAND_EXECUTE_COMMANDS ? run_secondaries(x, c, cursor)
                                                                      : handle_command(x, c);
            if (!completed)
                return VKMM_EXECUTION_BLOCKED;
            cursor->next = c->next;
        }
        cursor->buffer++;
        cursor->buffer_started = false;
    }
    return VKMM_EXECUTION_DONE;
}
