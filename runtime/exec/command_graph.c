/* The execution-dependency graph of a submission (004; the spec's
 * "Execution and Memory Dependencies").  Commands are nodes in submission
 * order.  An action command (copy, fill, update, dispatch, query copy)
 * runs in a set of pipeline stages; a synchronization command (barrier,
 * event set / reset / wait, timestamp) has a first scope (the stages of
 * earlier commands it waits for) and a second scope (the stages of later
 * commands that wait for it).  Edges:
 *   earlier X -> sync S   when a stage X ends in is in S's first scope;
 *   sync S -> later Y     when a stage Y starts in is in S's second scope.
 * A barrier after a barrier chains through the stages they share (the
 * spec's "execution dependency chain").  Semaphore waits are syncs with
 * only a second scope, semaphore signals and fences syncs with only a first
 * scope.  Nothing else orders commands: submission order alone is no
 * execution dependency. */
#include "command_graph.h"

#include <string.h>

#include "alloc.h"
#include "command_buffer.h"
#include "command_footprint.h"
#include "device_memory.h"
#include "scheduler.h"
#include "strict/strict.h"

/* The stages vkmm's commands run in, as a small bit set. */
enum {
    EXEC_INDIRECT = 1u << 0, /* DRAW_INDIRECT: vkCmdDispatchIndirect's argument read */
    EXEC_COMPUTE = 1u << 1,  /* COMPUTE_SHADER */
    EXEC_COPY = 1u << 2,     /* COPY */
    EXEC_CLEAR = 1u << 3,    /* CLEAR: fill and update */
    EXEC_BLIT = 1u << 4,     /* BLIT */
    EXEC_STAGE_COUNT = 5,
    EXEC_ALL = (1u << EXEC_STAGE_COUNT) - 1,
};

/* A stage mask as the set of vkmm stages its scope covers.  The spec:
 * TOP_OF_PIPE is ALL_COMMANDS in a second scope and nothing in a first;
 * BOTTOM_OF_PIPE the reverse; a first scope includes logically earlier
 * stages and a second scope logically later ones (DRAW_INDIRECT comes
 * before COMPUTE_SHADER in the compute pipeline). */
static uint32_t exec_stages(VkPipelineStageFlags2 mask, bool second_scope)
{
    uint32_t s = 0;
    if ((mask & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT) ||
        (mask & (second_scope ? VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT)))
        return EXEC_ALL;
    if (mask & (VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT))
        s |= EXEC_INDIRECT;
    if (mask & VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT)
        s |= EXEC_COMPUTE;
    if (mask & (VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT))
        s |= EXEC_COPY;
    if (mask & (VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT))
        s |= EXEC_CLEAR;
    if (mask & (VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT))
        s |= EXEC_BLIT;
    if (!second_scope && (s & EXEC_COMPUTE))
        s |= EXEC_INDIRECT;
    if (second_scope && (s & EXEC_INDIRECT))
        s |= EXEC_COMPUTE;
    return s;
}

static void dependency_scopes(const struct vkmm_dependency *d, uint32_t *first, uint32_t *second)
{
    for (uint32_t i = 0; i < d->memory_barrier_count; i++) {
        *first |= exec_stages(d->memory_barriers[i].srcStageMask, false);
        *second |= exec_stages(d->memory_barriers[i].dstStageMask, true);
    }
    for (uint32_t i = 0; i < d->buffer_barrier_count; i++) {
        *first |= exec_stages(d->buffer_barriers[i].srcStageMask, false);
        *second |= exec_stages(d->buffer_barriers[i].dstStageMask, true);
    }
}

/* BOTTOM_OF_PIPE between syncs (seed 004's model of vkCmdPipelineBarrier:
 * a barrier's DST reaches a later sync's SRC in every stage of its
 * dstStageMask, BOTTOM_OF_PIPE included; sync2: NONE in a second scope is
 * BOTTOM_OF_PIPE).  So a barrier whose second scope is NONE or
 * BOTTOM_OF_PIPE is followed by a later sync whose first scope holds
 * BOTTOM_OF_PIPE or ALL_COMMANDS: the split barrier that makes writes
 * available with dstStageMask NONE and picks them up with srcStageMask
 * ALL_COMMANDS (CTS synchronization2.none_stage). */
static bool reaches_bottom(VkPipelineStageFlags2 dst)
{
    return !dst || (dst & (VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT | VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT));
}

static bool waits_for_bottom(VkPipelineStageFlags2 src)
{
    return (src & (VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT | VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)) != 0;
}

static void dependency_bottom(const struct vkmm_dependency *d, bool *waits, bool *reaches)
{
    for (uint32_t i = 0; i < d->memory_barrier_count; i++) {
        *waits |= waits_for_bottom(d->memory_barriers[i].srcStageMask);
        *reaches |= reaches_bottom(d->memory_barriers[i].dstStageMask);
    }
    for (uint32_t i = 0; i < d->buffer_barrier_count; i++) {
        *waits |= waits_for_bottom(d->buffer_barriers[i].srcStageMask);
        *reaches |= reaches_bottom(d->buffer_barriers[i].dstStageMask);
    }
}

/* --- Building ---------------------------------------------------------------- */

struct list {
    uint32_t *items;
    uint32_t count, capacity;
    /* Unordered lists: items[0, gathered) all precede node gatherer - 1,
     * the last sync that gathered the list (0: none). */
    uint32_t gatherer, gathered;
};

struct event_chain {
    const struct vkmm_event *event;
    uint32_t node; /* its last set, reset or wait so far */
};

struct builder {
    const VkAllocationCallbacks *allocator;
    struct vkmm_command_graph *graph;
    bool failed;
    /* Per stage: nodes whose completion in that stage a later first scope
     * must wait for (actions, and syncs whose second scope has the stage)
     * — less those a later sync in that stage already waits for. */
    struct list unordered[EXEC_STAGE_COUNT];
    /* Per stage: sync nodes whose second scope holds the stage, less those
     * a later such sync already follows. */
    struct list ordering[EXEC_STAGE_COUNT];
    struct list edges; /* pairs (from, to) */
    /* Syncs whose second scope reaches BOTTOM_OF_PIPE (dependency_bottom),
     * less those a later such sync already follows. */
    struct list bottom;
    uint32_t *seen;    /* seen[n] == to + 1: n is already a predecessor of `to` */
    /* Commands on one event or on queries keep their submission order (the
     * spec orders them: event state and query state change in that order). */
    struct event_chain *events;
    uint32_t event_count, event_capacity;
    uint32_t last_query;
    uint32_t last_fence;
    uint32_t last_after_every_command;
};

/* Makes room for one more element in *items (count used of *capacity). */
static bool grow(struct builder *b, void **items, uint32_t count, uint32_t *capacity, size_t element)
{
    if (count < *capacity)
        return true;
    uint32_t larger = *capacity ? *capacity * 2 : 8;
    void *grown = vkmm_zalloc(b->allocator, NULL, larger * element, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    if (!grown) {
        b->failed = true;
        return false;
    }
    if (count)
        memcpy(grown, *items, count * element);
    vkmm_free(b->allocator, NULL, *items);
    *items = grown;
    *capacity = larger;
    return true;
}

static bool list_push(struct builder *b, struct list *l, uint32_t value)
{
    if (!grow(b, (void **)&l->items, l->count, &l->capacity, sizeof(*l->items)))
        return false;
    l->items[l->count++] = value;
    return true;
}

static void add_edge(struct builder *b, uint32_t from, uint32_t to)
{
    if (from == UINT32_MAX || b->seen[from] == to + 1)
        return;
    b->seen[from] = to + 1;
    if (list_push(b, &b->edges, from))
        list_push(b, &b->edges, to);
}

static void add_edges_from(struct builder *b, struct list *lists, uint32_t stages, uint32_t to)
{
    for (uint32_t s = 0; s < EXEC_STAGE_COUNT; s++) {
        if (!(stages & (1u << s)))
            continue;
        for (uint32_t i = 0; i < lists[s].count; i++)
            add_edge(b, lists[s].items[i], to);
    }
}

/* An action node running in `stages`. */
static void add_action(struct builder *b, uint32_t node, uint32_t stages)
{
    add_edges_from(b, b->ordering, stages, node);
    for (uint32_t s = 0; s < EXEC_STAGE_COUNT; s++) {
        if (stages & (1u << s))
            list_push(b, &b->unordered[s], node);
    }
}

/* A sync node's first scope: the nodes in the unordered lists of its
 * stages.  `chained` is a node it already follows (the previous command
 * on its event or on queries, or UINT32_MAX): what that node gathered last
 * need not be gathered again — so a timestamp after every dispatch costs
 * one edge each, not one per earlier dispatch.  DRAW_INDIRECT's list is
 * skipped when COMPUTE_SHADER's is gathered: each argument read leads to
 * its dispatch, and a sync in that list is in COMPUTE_SHADER's too (a
 * second scope with DRAW_INDIRECT holds COMPUTE_SHADER). */
static void gather_first_scope(struct builder *b, uint32_t node, uint32_t first, uint32_t chained)
{
    if (first & EXEC_COMPUTE)
        first &= ~(uint32_t)EXEC_INDIRECT;
    for (uint32_t s = 0; s < EXEC_STAGE_COUNT; s++) {
        if (!(first & (1u << s)))
            continue;
        struct list *l = &b->unordered[s];
        uint32_t from = chained != UINT32_MAX && l->gatherer == chained + 1 ? l->gathered : 0;
        for (uint32_t i = from; i < l->count; i++)
            add_edge(b, l->items[i], node);
        l->gatherer = node + 1;
        l->gathered = l->count;
    }
}

/* A sync node with scopes (first, second). */
static void add_sync(struct builder *b, uint32_t node, uint32_t first, uint32_t second, uint32_t chained)
{
    gather_first_scope(b, node, first, chained);
    for (uint32_t s = 0; s < EXEC_STAGE_COUNT; s++) {
        if (!(second & (1u << s)))
            continue;
        /* What this node waits for in a stage it also orders, later first
         * scopes in that stage reach through it. */
        if (first & (1u << s)) {
            b->unordered[s].count = 0;
            b->unordered[s].gathered = 0;
        }
        list_push(b, &b->unordered[s], node);
        /* Syncs this one follows need no edge of their own to later nodes. */
        struct list *o = &b->ordering[s];
        uint32_t kept = 0;
        for (uint32_t i = 0; i < o->count; i++) {
            if (b->seen[o->items[i]] != node + 1)
                o->items[kept++] = o->items[i];
        }
        o->count = kept;
        list_push(b, o, node);
    }
}

/* A barrier, with its BOTTOM_OF_PIPE links (dependency_bottom). */
static void add_bottom_sync(struct builder *b, uint32_t node, const struct vkmm_dependency *d, uint32_t first,
                            uint32_t second)
{
    bool waits = false, reaches = false;
    dependency_bottom(d, &waits, &reaches);
    if (waits) {
        for (uint32_t i = 0; i < b->bottom.count; i++)
            add_edge(b, b->bottom.items[i], node);
        /* Later syncs reach the gathered ones through this node: in the
         * bottom list, or in every stage's list. */
        if (reaches || second == EXEC_ALL)
            b->bottom.count = 0;
    }
    add_sync(b, node, first, second, UINT32_MAX);
    if (reaches)
        list_push(b, &b->bottom, node);
}

/* Set, reset and wait of one event stay in submission order.  Returns the
 * event's previous node (UINT32_MAX: none). */
static uint32_t chain_event(struct builder *b, const struct vkmm_event *event, uint32_t node)
{
    for (uint32_t i = 0; i < b->event_count; i++) {
        if (b->events[i].event == event) {
            uint32_t previous = b->events[i].node;
            add_edge(b, previous, node);
            b->events[i].node = node;
            return previous;
        }
    }
    if (grow(b, (void **)&b->events, b->event_count, &b->event_capacity, sizeof(*b->events)))
        b->events[b->event_count++] = (struct event_chain){ event, node };
    return UINT32_MAX;
}

static uint32_t chain_query(struct builder *b, uint32_t node)
{
    uint32_t previous = b->last_query;
    add_edge(b, previous, node);
    b->last_query = node;
    return previous;
}

/* A signal or fence of a submission also follows the submission's own
 * waits (a batch signals after it waited). */
static void after_waits(struct builder *b, uint32_t node, uint32_t first_wait, uint32_t wait_count)
{
    for (uint32_t i = 0; i < wait_count; i++)
        add_edge(b, first_wait + i, node);
}

static void add_command(struct builder *b, uint32_t node)
{
    const struct vkmm_command *c = b->graph->nodes[node].command;
    uint32_t first = 0, second = 0;
    switch (c->type) {
    case VKMM_COMMAND_COPY_BUFFER:
        add_action(b, node, EXEC_COPY);
        break;
    case VKMM_COMMAND_FILL_BUFFER:
    case VKMM_COMMAND_UPDATE_BUFFER:
        add_action(b, node, EXEC_CLEAR);
        break;
    case VKMM_COMMAND_BLIT_IMAGE:
        add_action(b, node, EXEC_BLIT);
        break;
    case VKMM_COMMAND_DISPATCH:
        if (c->u.dispatch->indirect)
            add_edge(b, node - 1, node); /* its argument read comes first */
        add_action(b, node, EXEC_COMPUTE);
        break;
    case VKMM_COMMAND_COPY_QUERY_POOL_RESULTS:
        chain_query(b, node);
        add_action(b, node, EXEC_COPY);
        break;
    case VKMM_COMMAND_PIPELINE_BARRIER:
        dependency_scopes(&c->u.pipeline_barrier.dependency, &first, &second);
        add_bottom_sync(b, node, &c->u.pipeline_barrier.dependency, first, second);
        break;
    case VKMM_COMMAND_SET_EVENT:
        /* The set is the first half of the dependency: its first scope. */
        dependency_scopes(&c->u.set_event.dependency, &first, &second);
        add_sync(b, node, first, 0, chain_event(b, c->u.set_event.event, node));
        break;
    case VKMM_COMMAND_RESET_EVENT:
        add_sync(b, node, exec_stages(c->u.reset_event.stages, false), 0, chain_event(b, c->u.reset_event.event, node));
        break;
    case VKMM_COMMAND_WAIT_EVENTS:
        /* The wait's first scope is the sets' (reached through the event
         * chain); its second scope is its own. */
        for (uint32_t i = 0; i < c->u.wait_events.dependency_count; i++)
            dependency_scopes(&c->u.wait_events.dependencies[i], &first, &second);
        for (uint32_t i = 0; i < c->u.wait_events.event_count; i++)
            chain_event(b, c->u.wait_events.events[i], node);
        add_sync(b, node, 0, second, UINT32_MAX);
        break;
    case VKMM_COMMAND_WRITE_TIMESTAMP:
        /* The spec: written once all earlier commands completed `stage`. */
        add_sync(b, node, exec_stages(c->u.write_timestamp.stage, false), 0, chain_query(b, node));
        break;
    case VKMM_COMMAND_RESET_QUERY_POOL:
        chain_query(b, node);
        break;
    case VKMM_COMMAND_EXECUTE_COMMANDS:
    case VKMM_COMMAND_BEGIN_LABEL:
    case VKMM_COMMAND_END_LABEL:
    case VKMM_COMMAND_INSERT_LABEL:
        break; /* not nodes (flattened or skipped) */
    }
}

/* The first scope of a fence signal: every command earlier in submission
 * order, whatever its stage (also those in no stage, like a query reset);
 * the previous fence already follows those before it. */
static void add_fence(struct builder *b, uint32_t node)
{
    uint32_t n = b->last_fence == UINT32_MAX ? 0 : b->last_fence;
    for (; n < node; n++)
        add_edge(b, n, node);
    b->last_fence = node;
}

/* A semaphore signal whose first scope is ALL_COMMANDS (or BOTTOM_OF_PIPE)
 * follows every command earlier in submission order, also those in no
 * stage of vkmm's lists (event and query commands): once the host saw the
 * signal, the command buffers before it have completed and may be reset
 * or resubmitted (fuzz_api found a set-event still to run).  The previous
 * such node already follows those before it. */
static void add_after_every_command(struct builder *b, uint32_t node)
{
    uint32_t n = 0;
    if (b->last_after_every_command != UINT32_MAX) {
        add_edge(b, b->last_after_every_command, node);
        n = b->last_after_every_command + 1;
    }
    for (; n < node; n++) {
        enum vkmm_graph_node_kind kind = b->graph->nodes[n].kind;
        if (kind == VKMM_NODE_COMMAND || kind == VKMM_NODE_INDIRECT_ARGS)
            add_edge(b, n, node);
    }
    b->last_after_every_command = node;
}

/* The debug-utils labels open where a command was recorded, for reports:
 * the innermost one names the command's place. */
#define LABEL_DEPTH 16
struct labels {
    const char *names[LABEL_DEPTH];
    uint32_t depth; /* may exceed LABEL_DEPTH: deeper names are not kept */
};

static void track_label(struct labels *labels, const struct vkmm_command *c)
{
    if (c->type == VKMM_COMMAND_BEGIN_LABEL) {
        if (labels->depth < LABEL_DEPTH)
            labels->names[labels->depth] = c->u.label.name;
        labels->depth++;
    } else if (c->type == VKMM_COMMAND_END_LABEL && labels->depth) {
        labels->depth--;
    }
}

static const char *innermost(const struct labels *labels)
{
    if (!labels->depth)
        return NULL;
    return labels->depth <= LABEL_DEPTH ? labels->names[labels->depth - 1] : labels->names[LABEL_DEPTH - 1];
}

/* Visits the commands of `cmd` that run, secondaries flattened (inside the
 * labels open at their vkCmdExecuteCommands); counts them when `nodes` is
 * NULL. */
static uint32_t flatten(const struct vkmm_command_buffer *cmd, struct labels labels,
                        struct vkmm_command_graph_node *nodes, uint32_t at)
{
    for (const struct vkmm_command *c = cmd->first; c; c = c->next) {
        switch (c->type) {
        case VKMM_COMMAND_EXECUTE_COMMANDS:
            for (uint32_t i = 0; i < c->u.execute_commands.count; i++)
                at = flatten(c->u.execute_commands.command_buffers[i], labels, nodes, at);
            break;
        case VKMM_COMMAND_BEGIN_LABEL:
        case VKMM_COMMAND_END_LABEL:
        case VKMM_COMMAND_INSERT_LABEL:
            track_label(&labels, c);
            break;
        default: {
            struct vkmm_command_graph_node node = { .kind = VKMM_NODE_COMMAND, .command = c, .command_buffer = cmd,
                                                    .label = innermost(&labels) };
            if (c->type == VKMM_COMMAND_DISPATCH && c->u.dispatch->indirect) {
                if (nodes) {
                    nodes[at] = node;
                    nodes[at].kind = VKMM_NODE_INDIRECT_ARGS;
                }
                at++;
            }
            if (nodes)
                nodes[at] = node;
            at++;
        }
        }
    }
    return at;
}

/* Edge pairs to per-node successor lists. */
static bool link(struct builder *b)
{
    struct vkmm_command_graph *g = b->graph;
    uint32_t edge_count = b->edges.count / 2;
    g->successors = vkmm_zalloc(b->allocator, NULL, (edge_count ? edge_count : 1) * sizeof(uint32_t),
                                VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    if (!g->successors)
        return false;
    for (uint32_t e = 0; e < edge_count; e++) {
        g->nodes[b->edges.items[2 * e]].successor_count++;
        g->nodes[b->edges.items[2 * e + 1]].waiting++;
    }
    uint32_t start = 0;
    for (uint32_t n = 0; n < g->node_count; n++) {
        g->nodes[n].first_successor = start;
        start += g->nodes[n].successor_count;
        g->nodes[n].successor_count = 0;
    }
    for (uint32_t e = 0; e < edge_count; e++) {
        struct vkmm_command_graph_node *from = &g->nodes[b->edges.items[2 * e]];
        g->successors[from->first_successor + from->successor_count++] = b->edges.items[2 * e + 1];
    }
    return true;
}

static void builder_finish(struct builder *b)
{
    for (uint32_t s = 0; s < EXEC_STAGE_COUNT; s++) {
        vkmm_free(b->allocator, NULL, b->unordered[s].items);
        vkmm_free(b->allocator, NULL, b->ordering[s].items);
    }
    vkmm_free(b->allocator, NULL, b->edges.items);
    vkmm_free(b->allocator, NULL, b->bottom.items);
    vkmm_free(b->allocator, NULL, b->events);
    vkmm_free(b->allocator, NULL, b->seen);
}

/* The nodes of one submission from `at` on, in submission order: waits,
 * commands, signals, fence.  Counts them when `nodes` is NULL. */
static uint32_t submission_nodes(struct vkmm_submission *s, struct vkmm_command_graph_node *nodes, uint32_t at)
{
    uint32_t start = at;
    for (uint32_t i = 0; i < s->wait_count; i++, at++) {
        if (nodes)
            nodes[at] = (struct vkmm_command_graph_node){ .kind = VKMM_NODE_SEMAPHORE_WAIT, .operation = i };
    }
    for (uint32_t i = 0; i < s->command_buffer_count; i++)
        at = flatten(s->command_buffers[i], (struct labels){ .depth = 0 }, nodes, at);
    for (uint32_t i = 0; i < s->signal_count; i++, at++) {
        if (nodes)
            nodes[at] = (struct vkmm_command_graph_node){ .kind = VKMM_NODE_SEMAPHORE_SIGNAL, .operation = i };
    }
    if (s->fence) {
        if (nodes)
            nodes[at] = (struct vkmm_command_graph_node){ .kind = VKMM_NODE_FENCE_SIGNAL };
        at++;
    }
    s->command_nodes_left = 0;
    for (uint32_t n = start; nodes && n < at; n++) {
        nodes[n].submission = s;
        s->command_nodes_left += nodes[n].kind == VKMM_NODE_COMMAND || nodes[n].kind == VKMM_NODE_INDIRECT_ARGS;
    }
    s->nodes_left = at - start;
    return at;
}

static void add_submission(struct builder *b, struct vkmm_submission *s, uint32_t first_node)
{
    for (uint32_t i = 0; i < s->wait_count; i++)
        add_sync(b, first_node + i, 0, exec_stages(s->waits[i].stages, true), UINT32_MAX);
    uint32_t node = first_node + s->wait_count;
    for (; node < first_node + s->nodes_left; node++) {
        struct vkmm_command_graph_node *n = &b->graph->nodes[node];
        if (n->kind == VKMM_NODE_COMMAND) {
            add_command(b, node);
        } else if (n->kind == VKMM_NODE_INDIRECT_ARGS) {
            add_action(b, node, EXEC_INDIRECT);
        } else if (n->kind == VKMM_NODE_SEMAPHORE_SIGNAL) {
            VkPipelineStageFlags2 stages = s->signals[n->operation].stages;
            after_waits(b, node, first_node, s->wait_count);
            if (stages & (VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT))
                add_after_every_command(b, node);
            add_sync(b, node, exec_stages(stages, false), 0, UINT32_MAX);
        } else {
            add_fence(b, node);
        }
    }
}

struct vkmm_command_graph *vkmm_command_graph_create(const VkAllocationCallbacks *allocator,
                                                     struct vkmm_submission *first, uint32_t count)
{
    struct vkmm_command_graph *g =
        vkmm_zalloc(allocator, NULL, sizeof(*g), VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    if (!g)
        return NULL;
    g->allocator = allocator;
    uint32_t total = 0;
    struct vkmm_submission *s = first;
    for (uint32_t i = 0; i < count; i++, s = s->next)
        total = submission_nodes(s, NULL, total);
    g->node_count = total;
    size_t slots = total ? total : 1;
    struct builder b = { .allocator = allocator, .graph = g, .last_query = UINT32_MAX, .last_fence = UINT32_MAX,
                         .last_after_every_command = UINT32_MAX };
    g->nodes = vkmm_zalloc(allocator, NULL, slots * sizeof(*g->nodes), VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    b.seen = vkmm_zalloc(allocator, NULL, slots * sizeof(*b.seen), VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    g->ready = vkmm_zalloc(allocator, NULL, slots * sizeof(*g->ready), VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    g->runnable = vkmm_zalloc(allocator, NULL, slots * sizeof(*g->runnable), VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    g->visited = vkmm_zalloc(allocator, NULL, slots * sizeof(*g->visited), VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    g->stack = vkmm_zalloc(allocator, NULL, slots * sizeof(*g->stack), VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    g->first_sequence = count ? first->sequence : 0;
    bool ok = g->nodes && b.seen && g->ready && g->runnable && g->visited && g->stack;
    uint32_t at = 0;
    s = first;
    for (uint32_t i = 0; ok && i < count && !b.failed; i++, s = s->next) {
        uint32_t start = at;
        at = submission_nodes(s, g->nodes, at);
        add_submission(&b, s, start);
    }
    ok = ok && !b.failed && link(&b);
    for (uint32_t n = 0; ok && n < g->node_count; n++) {
        if (g->nodes[n].waiting == 0)
            g->ready[g->ready_count++] = n;
    }
    builder_finish(&b);
    if (!ok) {
        vkmm_command_graph_destroy(g);
        return NULL;
    }
    return g;
}

void vkmm_command_graph_destroy(struct vkmm_command_graph *graph)
{
    if (!graph)
        return;
    vkmm_free(graph->allocator, NULL, graph->nodes);
    vkmm_free(graph->allocator, NULL, graph->successors);
    vkmm_free(graph->allocator, NULL, graph->ready);
    vkmm_free(graph->allocator, NULL, graph->runnable);
    vkmm_free(graph->allocator, NULL, graph->visited);
    vkmm_free(graph->allocator, NULL, graph->stack);
    vkmm_free(graph->allocator, NULL, graph);
}

/* Inserts `node` into the ready list, which stays in submission order. */
static void ready_insert(struct vkmm_command_graph *graph, uint32_t node)
{
    uint32_t at = graph->ready_count;
    while (at > 0 && graph->ready[at - 1] > node)
        at--;
    memmove(&graph->ready[at + 1], &graph->ready[at], (graph->ready_count - at) * sizeof(*graph->ready));
    graph->ready[at] = node;
    graph->ready_count++;
}

void vkmm_command_graph_complete(struct vkmm_command_graph *graph, uint32_t node)
{
    for (uint32_t i = 0; i < graph->ready_count; i++) {
        if (graph->ready[i] == node) {
            memmove(&graph->ready[i], &graph->ready[i + 1], (graph->ready_count - i - 1) * sizeof(*graph->ready));
            graph->ready_count--;
            break;
        }
    }
    struct vkmm_command_graph_node *n = &graph->nodes[node];
    n->done = true;
    graph->done_count++;
    for (uint32_t i = 0; i < n->successor_count; i++) {
        uint32_t successor = graph->successors[n->first_successor + i];
        if (--graph->nodes[successor].waiting == 0)
            ready_insert(graph, successor);
    }
}

/* Depth first along successors; edges only go forward in submission
 * order, so nodes past `to` cannot lead to it. */
bool vkmm_command_graph_reaches(struct vkmm_command_graph *graph, uint32_t from, uint32_t to)
{
    if (from >= graph->node_count || to >= graph->node_count || from > to)
        return false;
    if (++graph->visit_stamp == 0) {
        memset(graph->visited, 0, graph->node_count * sizeof(*graph->visited));
        graph->visit_stamp = 1;
    }
    uint32_t depth = 0;
    graph->stack[depth++] = from;
    graph->visited[from] = graph->visit_stamp;
    while (depth) {
        uint32_t n = graph->stack[--depth];
        if (n == to)
            return true;
        const struct vkmm_command_graph_node *node = &graph->nodes[n];
        for (uint32_t i = 0; i < node->successor_count; i++) {
            uint32_t next = graph->successors[node->first_successor + i];
            if (next > to || graph->visited[next] == graph->visit_stamp)
                continue;
            graph->visited[next] = graph->visit_stamp;
            graph->stack[depth++] = next;
        }
    }
    return false;
}

/* --- The graph as strict mode's bridge asks it (strict/strict.h) ------------ */

static bool strict_reaches(void *graph, uint32_t from, uint32_t to)
{
    return vkmm_command_graph_reaches(graph, from, to);
}

/* Whether a command after `after` and before `before` in submission order,
 * ordered after `after` and not run yet, may write `memory`. */
static bool strict_pending_writer_between(void *g, uint32_t after, uint32_t before,
                                          const struct vkmm_strict_memory *memory)
{
    struct vkmm_command_graph *graph = g;
    for (uint32_t d = after + 1; d < before && d < graph->node_count; d++) {
        const struct vkmm_command_graph_node *n = &graph->nodes[d];
        if (n->done || n->kind != VKMM_NODE_COMMAND || !vkmm_command_graph_reaches(graph, after, d))
            continue;
        struct vkmm_footprint f;
        vkmm_command_footprint(n->command, false, &f);
        if (f.everything)
            return true;
        for (uint32_t i = 0; i < f.count; i++)
            if (f.memories[i]->strict == memory && f.writes[i])
                return true;
    }
    return false;
}

void vkmm_command_graph_strict_view(struct vkmm_command_graph *graph, struct vkmm_strict_graph *out)
{
    *out = (struct vkmm_strict_graph){ graph, graph->first_sequence, strict_reaches, strict_pending_writer_between };
}
