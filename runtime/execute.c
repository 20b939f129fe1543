/* The executor: one handle_<command>() per recorded command.  In this
 * scheduler policy a queue runs its commands in order on one thread over
 * coherent memory, so barriers have nothing to do here; the strict memory
 * engine gives them their effect (DESIGN §3.2). */
#include "execute.h"

#include <string.h>

#include "buffer.h"
#include "command_buffer.h"
#include "device.h"
#include "dispatch.h"
#include "event.h"
#include "query_pool.h"
#include "scheduler.h"

static void handle_copy_buffer(struct vkmm_execution *x, const struct vkmm_command *c)
{
    (void)x;
    for (uint32_t i = 0; i < c->u.copy_buffer.region_count; i++) {
        const VkBufferCopy2 *r = &c->u.copy_buffer.regions[i];
        uint8_t *dst = vkmm_buffer_device_bytes(c->u.copy_buffer.dst, r->dstOffset, r->size);
        const uint8_t *src = vkmm_buffer_device_bytes(c->u.copy_buffer.src, r->srcOffset, r->size);
        memmove(dst, src, r->size);
    }
}

static void handle_fill_buffer(struct vkmm_execution *x, const struct vkmm_command *c)
{
    (void)x;
    uint8_t *dst = vkmm_buffer_device_bytes(c->u.fill_buffer.dst, c->u.fill_buffer.offset, c->u.fill_buffer.size);
    for (VkDeviceSize i = 0; i < c->u.fill_buffer.size; i += 4)
        memcpy(dst + i, &c->u.fill_buffer.data, 4);
}

static void handle_update_buffer(struct vkmm_execution *x, const struct vkmm_command *c)
{
    (void)x;
    uint8_t *dst = vkmm_buffer_device_bytes(c->u.update_buffer.dst, c->u.update_buffer.offset,
                                            c->u.update_buffer.size);
    memcpy(dst, c->u.update_buffer.data, c->u.update_buffer.size);
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

static void handle_wait_events(struct vkmm_execution *x, const struct vkmm_command *c)
{
    vkmm_scheduler_lock(x->scheduler);
    vkmm_scheduler_wait_locked(x->scheduler, events_set, (void *)c, UINT64_MAX);
    vkmm_scheduler_unlock(x->scheduler);
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
    if (q->flags & VK_QUERY_RESULT_WAIT_BIT) {
        struct query_range range = { q->pool, q->first, q->count };
        vkmm_scheduler_lock(x->scheduler);
        vkmm_scheduler_wait_locked(x->scheduler, range_available, &range, UINT64_MAX);
        vkmm_scheduler_unlock(x->scheduler);
    }
    VkDeviceSize value_size;
    VkDeviceSize span = vkmm_query_result_span(q->count, q->stride, q->flags, &value_size);
    uint8_t *dst = vkmm_buffer_device_bytes(q->dst, q->offset, span);
    vkmm_query_pool_copy_results(x->device, q->pool, q->first, q->count, dst, q->stride, q->flags);
}

static void execute_commands(struct vkmm_execution *x, const struct vkmm_command_buffer *cmd);

static void handle_command(struct vkmm_execution *x, const struct vkmm_command *c)
{
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
        break; /* in-order, coherent: already satisfied */
    case VKMM_COMMAND_SET_EVENT:
        set_event(x, c->u.set_event.event, true);
        break;
    case VKMM_COMMAND_RESET_EVENT:
        set_event(x, c->u.reset_event.event, false);
        break;
    case VKMM_COMMAND_WAIT_EVENTS:
        handle_wait_events(x, c);
        break;
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
        for (uint32_t i = 0; i < c->u.execute_commands.count; i++)
            execute_commands(x, c->u.execute_commands.command_buffers[i]);
        break;
    case VKMM_COMMAND_DISPATCH:
        vkmm_dispatch_execute(x, c->u.dispatch);
        break;
    case VKMM_COMMAND_BEGIN_LABEL:
    case VKMM_COMMAND_END_LABEL:
    case VKMM_COMMAND_INSERT_LABEL:
        break; /* labels only name work in reports */
    }
}

static void execute_commands(struct vkmm_execution *x, const struct vkmm_command_buffer *cmd)
{
    for (const struct vkmm_command *c = cmd->first; c; c = c->next)
        handle_command(x, c);
}

void vkmm_execute_command_buffer(struct vkmm_execution *execution, struct vkmm_command_buffer *cmd)
{
    execute_commands(execution, cmd);
}
