#include "command_footprint.h"

#include <string.h>

#include "buffer.h"
#include "command_buffer.h"
#include "descriptor_set.h"
#include "descriptor_set_layout.h"
#include "image.h"
#include "pipeline.h"

static void add(struct vkmm_footprint *f, const struct vkmm_device_memory *memory, bool write)
{
    if (!memory || f->everything)
        return;
    for (uint32_t i = 0; i < f->count; i++) {
        if (f->memories[i] == memory) {
            f->writes[i] |= write;
            return;
        }
    }
    if (f->count == VKMM_FOOTPRINT_MEMORIES) {
        f->everything = true; /* too many to list: may touch anything */
        return;
    }
    f->memories[f->count] = memory;
    f->writes[f->count++] = write;
}

static void add_buffer(struct vkmm_footprint *f, const struct vkmm_buffer *buffer, bool write)
{
    if (buffer)
        add(f, buffer->memory, write);
}

/* Storage descriptors may be written, uniform ones only read. */
static void add_dispatch(struct vkmm_footprint *f, const struct vkmm_dispatch *d)
{
    const struct vkmm_pipeline *pipeline = d->bindings.pipeline;
    if (!pipeline || pipeline->shader.uses_buffer_references) {
        f->everything = true;
        return;
    }
    add_buffer(f, d->indirect, false);
    for (uint32_t s = 0; s < VKMM_MAX_BOUND_SETS; s++) {
        const struct vkmm_descriptor_set *set = d->bindings.sets[s];
        for (uint32_t b = 0; set && b < set->layout->binding_count; b++) {
            /* memory_bindings: storage images and texel buffers count as storage. */
            const struct vkmm_set_layout_binding *binding = &set->layout->memory_bindings[b];
            bool storage = binding->type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
                           binding->type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
            for (uint32_t e = 0; e < binding->count && binding->first + e < set->descriptor_count; e++)
                add(f, set->descriptors[binding->first + e].memory, storage);
        }
    }
}

static void add_command(struct vkmm_footprint *f, const struct vkmm_command *c)
{
    switch (c->type) {
    case VKMM_COMMAND_COPY_BUFFER:
        add_buffer(f, c->u.copy_buffer.src, false);
        add_buffer(f, c->u.copy_buffer.dst, true);
        break;
    case VKMM_COMMAND_FILL_BUFFER:
        add_buffer(f, c->u.fill_buffer.dst, true);
        break;
    case VKMM_COMMAND_UPDATE_BUFFER:
        add_buffer(f, c->u.update_buffer.dst, true);
        break;
    case VKMM_COMMAND_COPY_QUERY_POOL_RESULTS:
        add_buffer(f, c->u.copy_query_pool_results.dst, true);
        break;
    case VKMM_COMMAND_BLIT_IMAGE:
        add_buffer(f, &c->u.blit_image.src->bytes, false);
        add_buffer(f, &c->u.blit_image.dst->bytes, true);
        break;
    case VKMM_COMMAND_DISPATCH:
        add_dispatch(f, c->u.dispatch);
        break;
    case VKMM_COMMAND_EXECUTE_COMMANDS:
        for (uint32_t i = 0; i < c->u.execute_commands.count; i++)
            for (const struct vkmm_command *n = c->u.execute_commands.command_buffers[i]->first; n; n = n->next)
                add_command(f, n);
        break;
    default:
        break; /* barriers, events, labels, timestamps: no buffer memory */
    }
}

void vkmm_command_footprint(const struct vkmm_command *command, bool indirect_only, struct vkmm_footprint *out)
{
    memset(out, 0, sizeof(*out));
    out->known = true;
    if (!command)
        return;
    if (indirect_only && command->type == VKMM_COMMAND_DISPATCH)
        add_buffer(out, command->u.dispatch->indirect, false);
    else
        add_command(out, command);
}

bool vkmm_footprints_conflict(const struct vkmm_footprint *a, const struct vkmm_footprint *b)
{
    if ((a->everything && (b->everything || b->count)) || (b->everything && a->count))
        return true;
    for (uint32_t i = 0; i < a->count; i++)
        for (uint32_t j = 0; j < b->count; j++)
            if (a->memories[i] == b->memories[j] && (a->writes[i] || b->writes[j]))
                return true;
    return false;
}
