/* Unit tests of runtime/exec/command_graph.c: the execution-dependency graph of
 * a queue's submissions, built from hand-made commands and submissions (no
 * device).  A path in the graph is what the spec's dependencies promise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "alloc.h"
#include "command_buffer.h"
#include "command_graph.h"
#include "scheduler.h"

#define S_CLEAR VK_PIPELINE_STAGE_2_CLEAR_BIT
#define S_COPY VK_PIPELINE_STAGE_2_COPY_BIT
#define S_COMPUTE VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT
#define S_INDIRECT VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT
#define S_TOP VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT
#define S_BOTTOM VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT
#define S_ALL VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT

/* --- Fake inputs: every allocation, and the last graph built, are freed
 * after each test. */

static void *tracked[65536];
static size_t tracked_count;
static struct vkmm_command_graph *graph; /* the last one built */

static void *mem(size_t size)
{
    assert_true(tracked_count < sizeof(tracked) / sizeof(*tracked));
    void *p = calloc(1, size);
    assert_non_null(p);
    return tracked[tracked_count++] = p;
}

static int free_all(void **state)
{
    (void)state;
    vkmm_command_graph_destroy(graph);
    graph = NULL;
    while (tracked_count > 0)
        free(tracked[--tracked_count]);
    return 0;
}

#define cmdbuf() ((struct vkmm_command_buffer *)mem(sizeof(struct vkmm_command_buffer)))
#define fill(cb) append(cb, VKMM_COMMAND_FILL_BUFFER)
#define copy(cb) append(cb, VKMM_COMMAND_COPY_BUFFER)
#define event_handle(id) ((struct vkmm_event *)(uintptr_t)((id) * 0x100))

static struct vkmm_command *append(struct vkmm_command_buffer *cb, enum vkmm_command_type type)
{
    struct vkmm_command *c = mem(sizeof(*c));
    c->type = type;
    *(cb->last ? &cb->last->next : &cb->first) = c;
    return cb->last = c;
}

static struct vkmm_dependency dependency(VkPipelineStageFlags2 src, VkPipelineStageFlags2 dst)
{
    VkMemoryBarrier2 *m = mem(sizeof(*m));
    *m = (VkMemoryBarrier2){ .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, .srcStageMask = src, .dstStageMask = dst };
    return (struct vkmm_dependency){ .memory_barrier_count = 1, .memory_barriers = m };
}

static struct vkmm_command *dispatch(struct vkmm_command_buffer *cb, bool indirect)
{
    struct vkmm_command *c = append(cb, VKMM_COMMAND_DISPATCH);
    c->u.dispatch = mem(sizeof(*c->u.dispatch));
    c->u.dispatch->indirect = indirect ? (struct vkmm_buffer *)(uintptr_t)0x1000 : NULL;
    return c;
}

static struct vkmm_command *barrier(struct vkmm_command_buffer *cb, VkPipelineStageFlags2 src,
                                    VkPipelineStageFlags2 dst)
{
    struct vkmm_command *c = append(cb, VKMM_COMMAND_PIPELINE_BARRIER);
    c->u.pipeline_barrier.dependency = dependency(src, dst);
    return c;
}

static struct vkmm_command *set_event(struct vkmm_command_buffer *cb, struct vkmm_event *e,
                                      VkPipelineStageFlags2 src)
{
    struct vkmm_command *c = append(cb, VKMM_COMMAND_SET_EVENT);
    c->u.set_event.event = e;
    c->u.set_event.dependency = dependency(src, S_ALL);
    return c;
}

static struct vkmm_command *wait_event(struct vkmm_command_buffer *cb, struct vkmm_event *e,
                                       VkPipelineStageFlags2 dst)
{
    struct vkmm_command *c = append(cb, VKMM_COMMAND_WAIT_EVENTS);
    c->u.wait_events.event_count = c->u.wait_events.dependency_count = 1;
    c->u.wait_events.events = mem(sizeof(struct vkmm_event *));
    c->u.wait_events.events[0] = e;
    c->u.wait_events.dependencies = mem(sizeof(struct vkmm_dependency));
    c->u.wait_events.dependencies[0] = dependency(S_ALL, dst);
    return c;
}

/* One command buffer; the waits' and signals' stages are set by the caller. */
static struct vkmm_submission *submission(struct vkmm_command_buffer *cb, uint32_t wait_count,
                                          uint32_t signal_count, bool fence)
{
    struct vkmm_submission *s = mem(sizeof(*s));
    *s = (struct vkmm_submission){ .wait_count = wait_count, .command_buffer_count = 1, .signal_count = signal_count,
                                   .waits = mem((wait_count + 1) * sizeof(*s->waits)),
                                   .command_buffers = mem(sizeof(*s->command_buffers)),
                                   .signals = mem((signal_count + 1) * sizeof(*s->signals)),
                                   .fence = fence ? (struct vkmm_fence *)(uintptr_t)0x2000 : NULL };
    s->command_buffers[0] = cb;
    return s;
}

/* --- Graph helpers */

/* Destroys the graph built before. */
static struct vkmm_command_graph *build(struct vkmm_submission *first, uint32_t count)
{
    vkmm_command_graph_destroy(graph);
    graph = vkmm_command_graph_create(&vkmm_default_allocator, first, count);
    assert_non_null(graph);
    return graph;
}

static struct vkmm_command_graph *build_one(struct vkmm_command_buffer *cb)
{
    return build(submission(cb, 0, 0, false), 1);
}

static uint32_t node_of(const struct vkmm_command_graph *g, const struct vkmm_command *c)
{
    for (uint32_t n = 0; n < g->node_count; n++)
        if (g->nodes[n].kind == VKMM_NODE_COMMAND && g->nodes[n].command == c)
            return n;
    fail_msg("command %p is no node of the graph", (const void *)c);
    return UINT32_MAX;
}

/* Is there a path from node a to node b (a != b)?  Breadth first. */
static bool path(const struct vkmm_command_graph *g, uint32_t a, uint32_t b)
{
    bool *seen = mem(g->node_count * sizeof(*seen));
    uint32_t *queue = mem(g->node_count * sizeof(*queue)), head = 0, tail = 0;
    queue[tail++] = a;
    seen[a] = true;
    while (head < tail) {
        const struct vkmm_command_graph_node *n = &g->nodes[queue[head++]];
        for (uint32_t i = 0; i < n->successor_count; i++) {
            uint32_t s = g->successors[n->first_successor + i];
            assert_true(s < g->node_count);
            if (s == b)
                return true;
            if (!seen[s]) {
                seen[s] = true;
                queue[tail++] = s;
            }
        }
    }
    return false;
}

static bool cpath(const struct vkmm_command_graph *g, const struct vkmm_command *a, const struct vkmm_command *b)
{
    return path(g, node_of(g, a), node_of(g, b));
}

static uint32_t edge_count(const struct vkmm_command_graph *g)
{
    uint32_t edges = 0;
    for (uint32_t n = 0; n < g->node_count; n++)
        edges += g->nodes[n].successor_count;
    return edges;
}

/* Runs the whole graph, always the latest ready node first; returns the
 * nodes in the order they ran.  Every node runs exactly once. */
static uint32_t *run_latest_first(struct vkmm_command_graph *g)
{
    uint32_t *order = mem(g->node_count * sizeof(*order)), steps = 0;
    while (g->ready_count > 0) {
        assert_true(steps < g->node_count);
        for (uint32_t i = 1; i < g->ready_count; i++)
            assert_true(g->ready[i - 1] < g->ready[i]); /* submission order */
        uint32_t node = g->ready[g->ready_count - 1];
        assert_false(g->nodes[node].done);
        assert_int_equal(g->nodes[node].waiting, 0);
        vkmm_command_graph_complete(g, node);
        order[steps++] = node;
    }
    assert_int_equal(steps, g->node_count);
    assert_int_equal(g->done_count, g->node_count);
    for (uint32_t n = 0; n < g->node_count; n++)
        assert_true(g->nodes[n].done);
    return order;
}

/* --- Tests */

static void test_graph_unsynchronized_fills_unordered(void **state)
{
    (void)state;
    struct vkmm_command_buffer *cb = cmdbuf();
    fill(cb); fill(cb);
    struct vkmm_command_graph *g = build_one(cb);
    assert_int_equal(g->node_count, 2);
    assert_false(path(g, 0, 1));
    assert_false(path(g, 1, 0));
    assert_true(g->ready_count == 2 && g->ready[0] == 0 && g->ready[1] == 1);
}

static void test_graph_barrier_stage_scopes(void **state)
{
    (void)state;
    struct vkmm_command_buffer *cb = cmdbuf();
    struct vkmm_command *f = fill(cb);
    barrier(cb, S_CLEAR, S_COPY);
    struct vkmm_command *c = copy(cb);
    fill(cb);
    struct vkmm_command_graph *g = build_one(cb);
    assert_true(cpath(g, f, c));
    assert_false(cpath(g, c, f));
    /* Ready: the fills, not the barrier or copy; a node joins in order. */
    assert_true(g->ready_count == 2 && g->ready[0] == 0 && g->ready[1] == 3);
    vkmm_command_graph_complete(g, 0);
    assert_true(g->ready_count == 2 && g->ready[0] == 1 && g->ready[1] == 3);
    vkmm_command_graph_complete(g, 1);
    assert_true(g->ready_count == 2 && g->ready[0] == 2 && g->ready[1] == 3);

    cb = cmdbuf();
    f = fill(cb);
    barrier(cb, S_COMPUTE, S_COPY); /* does not cover the fill's CLEAR */
    c = copy(cb);
    assert_false(cpath(build_one(cb), f, c));
}

static void test_graph_barrier_chains(void **state)
{
    (void)state;
    struct vkmm_command_buffer *cb = cmdbuf();
    struct vkmm_command *d = dispatch(cb, false);
    barrier(cb, S_COMPUTE, S_COPY); barrier(cb, S_COPY, S_CLEAR);
    struct vkmm_command *f = fill(cb);
    assert_true(cpath(build_one(cb), d, f));

    cb = cmdbuf();
    d = dispatch(cb, false);
    barrier(cb, S_COMPUTE, S_COPY); barrier(cb, S_CLEAR, S_CLEAR); /* no stage shared */
    f = fill(cb);
    assert_false(cpath(build_one(cb), d, f));
}

static void test_graph_top_bottom_all_commands(void **state)
{
    (void)state;
    struct vkmm_command_buffer *cb = cmdbuf();
    struct vkmm_command *f = fill(cb);
    barrier(cb, S_TOP, S_ALL); /* TOP_OF_PIPE in a first scope: nothing */
    struct vkmm_command *c = copy(cb);
    assert_false(cpath(build_one(cb), f, c));

    cb = cmdbuf();
    f = fill(cb);
    struct vkmm_command *d = dispatch(cb, true), *c0 = copy(cb);
    barrier(cb, S_BOTTOM, S_COPY); /* BOTTOM_OF_PIPE in a first scope: all */
    c = copy(cb);
    struct vkmm_command *d2 = dispatch(cb, false);
    struct vkmm_command_graph *g = build_one(cb);
    assert_true(cpath(g, f, c));
    assert_true(cpath(g, d, c));
    assert_true(cpath(g, c0, c));
    assert_false(cpath(g, f, d2)); /* second scope COPY only */

    cb = cmdbuf();
    f = fill(cb);
    d = dispatch(cb, true);
    barrier(cb, S_ALL, S_ALL);
    c = copy(cb);
    d2 = dispatch(cb, true);
    struct vkmm_command *f2 = fill(cb);
    g = build_one(cb);
    assert_true(cpath(g, f, c));
    assert_true(cpath(g, f, d2));
    assert_true(cpath(g, d, f2));
    assert_false(cpath(g, c, d2));

    cb = cmdbuf();
    f = fill(cb);
    barrier(cb, S_CLEAR, S_TOP); /* TOP_OF_PIPE in a second scope: all */
    d = dispatch(cb, false);
    assert_true(cpath(build_one(cb), f, d));
}

/* A barrier with dstStageMask NONE (BOTTOM_OF_PIPE in a second scope)
 * reaches a later barrier whose srcStageMask holds ALL_COMMANDS or
 * BOTTOM_OF_PIPE, and only such a one (CTS synchronization2.none_stage). */
static void test_graph_none_second_scope_reaches_all_commands(void **state)
{
    (void)state;
    struct vkmm_command_buffer *cb = cmdbuf();
    copy(cb);
    struct vkmm_command *split = barrier(cb, S_COPY, 0);
    struct vkmm_command *pick = barrier(cb, S_ALL, S_COPY);
    struct vkmm_command *c = copy(cb);
    struct vkmm_command_graph *g = build_one(cb);
    assert_true(cpath(g, split, pick));
    assert_true(cpath(g, split, c));

    cb = cmdbuf();
    copy(cb);
    split = barrier(cb, S_COPY, S_BOTTOM);
    pick = barrier(cb, S_BOTTOM, S_COPY);
    assert_true(cpath(build_one(cb), split, pick));

    cb = cmdbuf();
    copy(cb);
    split = barrier(cb, S_COPY, 0);
    pick = barrier(cb, S_COPY, S_COPY); /* COPY only: no BOTTOM_OF_PIPE */
    assert_false(cpath(build_one(cb), split, pick));
}

static void test_graph_indirect_stage_order(void **state)
{
    (void)state;
    struct vkmm_command_buffer *cb = cmdbuf();
    struct vkmm_command *f = fill(cb);
    barrier(cb, S_CLEAR, S_INDIRECT); /* covers the later COMPUTE_SHADER */
    struct vkmm_command *d = dispatch(cb, false), *c = copy(cb);
    struct vkmm_command_graph *g = build_one(cb);
    assert_true(cpath(g, f, d));
    assert_false(cpath(g, f, c));

    /* A second scope of COMPUTE_SHADER alone misses an indirect dispatch's
     * argument read (the classic missing DRAW_INDIRECT). */
    cb = cmdbuf();
    f = fill(cb);
    barrier(cb, S_CLEAR, S_COMPUTE);
    struct vkmm_command *late = dispatch(cb, true);
    g = build_one(cb);
    assert_true(cpath(g, f, late));
    assert_false(path(g, node_of(g, f), node_of(g, late) - 1));

    /* DRAW_INDIRECT in a first scope covers an indirect dispatch's argument
     * read but neither its shader nor a plain dispatch (COMPUTE_SHADER);
     * COMPUTE_SHADER covers both. */
    cb = cmdbuf();
    struct vkmm_command *di0 = dispatch(cb, true);
    d = dispatch(cb, false);
    barrier(cb, S_INDIRECT, S_CLEAR);
    f = fill(cb);
    struct vkmm_command *di = dispatch(cb, true);
    barrier(cb, S_COMPUTE, S_COPY);
    c = copy(cb);
    g = build_one(cb);
    assert_false(cpath(g, d, f));
    assert_false(cpath(g, di0, f));
    assert_int_equal(g->nodes[node_of(g, di0) - 1].kind, VKMM_NODE_INDIRECT_ARGS);
    assert_true(path(g, node_of(g, di0) - 1, node_of(g, f)));
    assert_true(cpath(g, di, c));
    assert_true(cpath(g, d, c));
}

static void test_graph_events(void **state)
{
    (void)state;
    struct vkmm_event *e = event_handle(1), *other = event_handle(2);
    struct vkmm_command_buffer *cb = cmdbuf();
    struct vkmm_command *f = fill(cb), *d = dispatch(cb, false);
    struct vkmm_command *set = set_event(cb, e, S_CLEAR);
    struct vkmm_command *f_after = fill(cb);
    struct vkmm_command *wait = wait_event(cb, e, S_COPY);
    struct vkmm_command *c = copy(cb), *d_after = dispatch(cb, false);
    wait_event(cb, other, S_ALL); /* another event: no first scope */
    struct vkmm_command *c2 = copy(cb);
    struct vkmm_command_graph *g = build_one(cb);
    assert_true(cpath(g, set, wait));
    assert_true(cpath(g, f, c));
    assert_false(cpath(g, d, c));       /* not in the set's first scope */
    assert_false(cpath(g, f_after, c)); /* recorded after the set */
    assert_false(cpath(g, f, d_after)); /* not in the wait's second scope */
    assert_false(cpath(g, f_after, c2));
}

static void test_graph_submissions_semaphores_fence(void **state)
{
    (void)state;
    struct vkmm_command_buffer *cb1 = cmdbuf(), *cb2 = cmdbuf();
    fill(cb1); dispatch(cb1, false);
    dispatch(cb2, false); copy(cb2);
    struct vkmm_submission *s1 = submission(cb1, 1, 1, false), *s2 = submission(cb2, 1, 0, true);
    s1->waits[0].stages = S_COPY;
    s1->signals[0].stages = S_CLEAR;
    s2->waits[0].stages = S_COMPUTE;
    s1->next = s2;
    struct vkmm_command_graph *g = build(s1, 2);
    /* s1: wait 0, fill 1, dispatch 2, signal 3; s2: wait 4, dispatch 5,
     * copy 6, fence 7. */
    static const enum vkmm_graph_node_kind kinds[] = {
        VKMM_NODE_SEMAPHORE_WAIT, VKMM_NODE_COMMAND, VKMM_NODE_COMMAND, VKMM_NODE_SEMAPHORE_SIGNAL,
        VKMM_NODE_SEMAPHORE_WAIT, VKMM_NODE_COMMAND, VKMM_NODE_COMMAND, VKMM_NODE_FENCE_SIGNAL,
    };
    assert_int_equal(g->node_count, 8);
    for (uint32_t n = 0; n < 8; n++) {
        assert_int_equal(g->nodes[n].kind, kinds[n]);
        assert_ptr_equal(g->nodes[n].submission, n < 4 ? s1 : s2);
    }
    assert_true(s1->nodes_left == 4 && s2->nodes_left == 4);
    assert_true(path(g, 0, 3));  /* a signal follows its submission's waits */
    assert_true(path(g, 1, 3));  /* and its first scope (CLEAR) */
    assert_false(path(g, 2, 3)); /* but not the dispatch */
    assert_true(path(g, 4, 5));  /* wait COMPUTE_SHADER -> dispatch */
    assert_false(path(g, 4, 6)); /* but not the copy */
    assert_false(path(g, 1, 6)); /* submission order is no dependency, */
    assert_false(path(g, 1, 5)); /* a wait has no first scope on its queue */
    for (uint32_t n = 0; n < 7; n++)
        assert_true(path(g, n, 7));
    assert_true(g->nodes[7].waiting == 7 && g->nodes[7].successor_count == 0);
}

/* A semaphore signal at ALL_COMMANDS follows every earlier command, also
 * the event commands that no stage list holds (fuzz_api: the host saw the
 * signal while a set-event of the command buffer had not run, so the
 * command buffer was still pending); a narrower signal does not. */
static void test_graph_all_commands_signal_follows_event_commands(void **state)
{
    (void)state;
    struct vkmm_event *e = event_handle(1);
    struct vkmm_command_buffer *cb = cmdbuf();
    dispatch(cb, false);
    struct vkmm_command *set = set_event(cb, e, S_COMPUTE);
    struct vkmm_command *wait = wait_event(cb, e, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT);
    struct vkmm_submission *s = submission(cb, 0, 2, false);
    s->signals[0].stages = S_ALL;
    s->signals[1].stages = S_COMPUTE;
    struct vkmm_command_graph *g = build(s, 1);
    /* dispatch 0, set 1, wait 2, signal ALL 3, signal COMPUTE 4. */
    assert_int_equal(g->node_count, 5);
    assert_true(path(g, node_of(g, set), 3));
    assert_true(path(g, node_of(g, wait), 3));
    assert_true(path(g, 0, 4));
    assert_false(path(g, node_of(g, wait), 4));
}

static void test_graph_secondaries_flattened_labels_skipped(void **state)
{
    (void)state;
    struct vkmm_command_buffer *secondary = cmdbuf(), *primary = cmdbuf();
    struct vkmm_command *f = fill(secondary);
    append(secondary, VKMM_COMMAND_INSERT_LABEL); barrier(secondary, S_CLEAR, S_COPY);
    struct vkmm_command *c = copy(secondary);
    append(primary, VKMM_COMMAND_BEGIN_LABEL);
    struct vkmm_command *exec = append(primary, VKMM_COMMAND_EXECUTE_COMMANDS);
    exec->u.execute_commands.count = 1;
    exec->u.execute_commands.command_buffers = mem(sizeof(struct vkmm_command_buffer *));
    exec->u.execute_commands.command_buffers[0] = secondary;
    append(primary, VKMM_COMMAND_END_LABEL);
    struct vkmm_command_graph *g = build_one(primary);
    assert_int_equal(g->node_count, 3);
    assert_true(g->nodes[0].kind == VKMM_NODE_COMMAND && g->nodes[0].command == f);
    assert_true(g->nodes[1].kind == VKMM_NODE_COMMAND && g->nodes[1].command->type == VKMM_COMMAND_PIPELINE_BARRIER);
    assert_true(g->nodes[2].kind == VKMM_NODE_COMMAND && g->nodes[2].command == c);
    assert_true(path(g, 0, 2));
}

static void test_graph_runs_in_a_topological_order(void **state)
{
    (void)state;
    struct vkmm_event *e = event_handle(3);
    struct vkmm_command_buffer *cb1 = cmdbuf(), *cb2 = cmdbuf();
    /* A recorded sequence per line. */
    fill(cb1); dispatch(cb1, true); barrier(cb1, S_COMPUTE, S_CLEAR); fill(cb1);
    set_event(cb1, e, S_CLEAR); copy(cb1); wait_event(cb1, e, S_COMPUTE); dispatch(cb1, false);
    append(cb1, VKMM_COMMAND_WRITE_TIMESTAMP)->u.write_timestamp.stage = S_BOTTOM;
    append(cb1, VKMM_COMMAND_RESET_QUERY_POOL);
    append(cb1, VKMM_COMMAND_COPY_QUERY_POOL_RESULTS);
    copy(cb2); barrier(cb2, S_ALL, S_ALL); fill(cb2);
    struct vkmm_submission *s1 = submission(cb1, 1, 1, true), *s2 = submission(cb2, 1, 0, true);
    s1->waits[0].stages = S_TOP;
    s1->signals[0].stages = S_ALL;
    s2->waits[0].stages = S_COPY;
    s1->next = s2;
    struct vkmm_command_graph *g = build(s1, 2);
    uint32_t *order = run_latest_first(g), *position = mem(g->node_count * sizeof(*position));
    for (uint32_t i = 0; i < g->node_count; i++)
        position[order[i]] = i + 1;
    assert_true(edge_count(g) > 10);
    for (uint32_t n = 0; n < g->node_count; n++) {
        for (uint32_t i = 0; i < g->nodes[n].successor_count; i++)
            assert_true(position[n] < position[g->successors[g->nodes[n].first_successor + i]]);
    }
    /* The indirect dispatch is two nodes (argument read 2, shader 3).  The
     * BOTTOM_OF_PIPE timestamp 10 follows dispatch 9; queries keep
     * submission order: timestamp 10, reset 11, copy results 12. */
    assert_int_equal(g->node_count, 20);
    assert_int_equal(g->nodes[2].kind, VKMM_NODE_INDIRECT_ARGS);
    assert_int_equal(g->nodes[10].command->type, VKMM_COMMAND_WRITE_TIMESTAMP);
    assert_true(path(g, 2, 3) && path(g, 9, 10) && path(g, 10, 11) && path(g, 11, 12));
}

static void test_graph_long_chain_edges_linear(void **state)
{
    (void)state;
    enum { PAIRS = 2000 };
    struct vkmm_command_buffer *cb = cmdbuf();
    struct vkmm_command *first = NULL, *last = NULL;
    for (uint32_t i = 0; i < PAIRS; i++) {
        last = dispatch(cb, false);
        first = first ? first : last;
        barrier(cb, S_COMPUTE, S_COMPUTE);
    }
    struct vkmm_command_graph *g = build_one(cb);
    assert_int_equal(g->node_count, 2 * PAIRS);
    assert_true(edge_count(g) < 4 * g->node_count);
    assert_true(cpath(g, first, last));
    assert_false(cpath(g, last, first));
    assert_int_equal(g->ready_count, 1);
    uint32_t *order = run_latest_first(g);
    for (uint32_t i = 0; i < g->node_count; i++)
        assert_int_equal(order[i], i); /* a chain runs in submission order */
}

/* Streams whose syncs never empty a stage's list (indirect dispatches,
 * a timestamp or an event set after every dispatch, a fence per
 * submission) must still build in linear edges. */
static void test_graph_streams_stay_linear(void **state)
{
    (void)state;
    enum { PAIRS = 2000 };
    struct vkmm_event *e = event_handle(4);
    for (int pattern = 0; pattern < 3; pattern++) {
        struct vkmm_command_buffer *cb = cmdbuf();
        for (uint32_t i = 0; i < PAIRS; i++) {
            dispatch(cb, pattern == 0);
            if (pattern == 0)
                barrier(cb, S_COMPUTE, S_COMPUTE);
            else if (pattern == 1)
                append(cb, VKMM_COMMAND_WRITE_TIMESTAMP)->u.write_timestamp.stage = S_BOTTOM;
            else
                set_event(cb, e, S_ALL);
        }
        struct vkmm_command_graph *g = build_one(cb);
        assert_true(edge_count(g) < 4 * g->node_count);
        assert_true(path(g, 0, g->node_count - 1));
    }
    struct vkmm_submission *first = NULL, *previous = NULL;
    for (uint32_t i = 0; i < 200; i++) {
        struct vkmm_command_buffer *cb = cmdbuf();
        for (int f = 0; f < 9; f++)
            fill(cb);
        struct vkmm_submission *s = submission(cb, 0, 0, true);
        if (previous)
            previous->next = s;
        first = first ? first : s;
        previous = s;
    }
    struct vkmm_command_graph *g = build(first, 200);
    assert_int_equal(g->node_count, 2000);
    assert_true(edge_count(g) < 4 * g->node_count);
    assert_true(path(g, 0, g->node_count - 1));
}

#define TEST(f) cmocka_unit_test_teardown(f, free_all)

int main(void)
{
    const struct CMUnitTest tests[] = {
        TEST(test_graph_unsynchronized_fills_unordered),
        TEST(test_graph_barrier_stage_scopes),
        TEST(test_graph_barrier_chains),
        TEST(test_graph_top_bottom_all_commands),
        TEST(test_graph_none_second_scope_reaches_all_commands),
        TEST(test_graph_indirect_stage_order),
        TEST(test_graph_events),
        TEST(test_graph_submissions_semaphores_fence),
        TEST(test_graph_all_commands_signal_follows_event_commands),
    TEST(test_graph_secondaries_flattened_labels_skipped),
        TEST(test_graph_runs_in_a_topological_order),
        TEST(test_graph_long_chain_edges_linear),
        TEST(test_graph_streams_stay_linear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
