/* Scheduler policy of this stage: each queue's submissions run in order on
 * a worker thread of that queue; queues run concurrently, linked only by
 * semaphores.  Waits sleep on one condition variable that every state change
 * broadcasts. */
#include "scheduler.h"

#include <errno.h>
#include <stdatomic.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "command_buffer.h"
#include "command_footprint.h"
#include "command_graph.h"
#include "device.h"
#include "execute.h"
#include "fence.h"
#include "log.h"
#include "queue.h"
#include "semaphore.h"
#include "strict/strict.h"
#include "vkmm/vkmm.h"

struct queue_state {
    struct vkmm_scheduler *scheduler;
    struct vkmm_queue *queue;
    pthread_t thread;
    bool thread_started;
    struct vkmm_submission *head, *tail;
    uint64_t submitted; /* serial of the last submission enqueued */
    uint64_t completed; /* serial of the last submission finished */
    /* Strict mode: the graph of the first `graph_submissions` submissions
     * from head, and whether it stopped with nothing runnable when the
     * scheduler's change count was `blocked_at`. */
    struct vkmm_command_graph *graph;
    uint32_t graph_submissions;
    /* Per node of `graph`, what it may touch (computed when first needed);
     * NULL when seeds do not reorder this graph (vkmm_scheduler_choose). */
    struct vkmm_footprint *footprints;
    bool blocked;
    uint64_t blocked_at;
};

struct vkmm_scheduler {
    struct vkmm_device *device;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    atomic_uint_fast64_t changes; /* bumped by every notify: what spinning waiters poll */
    bool shutting_down;
    /* Strict mode (DESIGN §3.3): no worker threads; device work runs inside
     * host calls that observe it, one submission at a time, in an order
     * that depends only on the API call sequence and the seed. */
    bool deterministic;
    bool executing;        /* a host thread is running device work */
    uint64_t seed;
    uint64_t steps;        /* decisions taken, for the seeded choice */
    uint64_t next_sequence; /* global submission order across queues */
    uint32_t queue_count;
    struct queue_state queues[VKMM_QUEUE_FAMILY_COUNT * VKMM_MAX_QUEUES_PER_FAMILY];
};

struct vkmm_submission *vkmm_submission_create(struct vkmm_device *device, uint32_t wait_count,
                                               uint32_t command_buffer_count, uint32_t signal_count)
{
    size_t size = sizeof(struct vkmm_submission) +
                  (wait_count + signal_count) * sizeof(struct vkmm_semaphore_op) +
                  command_buffer_count * sizeof(struct vkmm_command_buffer *);
    struct vkmm_submission *s = vkmm_zalloc(&device->allocator, NULL, size, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    if (!s)
        return NULL;
    s->waits = (struct vkmm_semaphore_op *)(s + 1);
    s->signals = s->waits + wait_count;
    s->command_buffers = (struct vkmm_command_buffer **)(s->signals + signal_count);
    s->wait_count = wait_count;
    s->signal_count = signal_count;
    s->command_buffer_count = command_buffer_count;
    return s;
}

void vkmm_submission_destroy(struct vkmm_device *device, struct vkmm_submission *submission)
{
    vkmm_free(&device->allocator, NULL, submission);
}

void vkmm_scheduler_lock(struct vkmm_scheduler *scheduler)
{
    pthread_mutex_lock(&scheduler->lock);
}

void vkmm_scheduler_unlock(struct vkmm_scheduler *scheduler)
{
    pthread_mutex_unlock(&scheduler->lock);
}

void vkmm_scheduler_notify_locked(struct vkmm_scheduler *scheduler)
{
    atomic_fetch_add_explicit(&scheduler->changes, 1, memory_order_release);
    pthread_cond_broadcast(&scheduler->changed);
}

static struct queue_state *state_of(struct vkmm_scheduler *scheduler, struct vkmm_queue *queue)
{
    for (uint32_t i = 0; i < scheduler->queue_count; i++) {
        if (scheduler->queues[i].queue == queue)
            return &scheduler->queues[i];
    }
    assert(!"queue unknown to the scheduler");
    return NULL;
}

static struct timespec deadline_after(uint64_t timeout_ns)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t ns = (uint64_t)now.tv_nsec + timeout_ns % 1000000000ull;
    now.tv_sec += (time_t)(timeout_ns / 1000000000ull + ns / 1000000000ull);
    now.tv_nsec = (long)(ns % 1000000000ull);
    return now;
}

/* Waiting briefly by polling beats sleeping: a condition-variable wake-up
 * costs ~20 µs, and device work (or the host's next submission) is often
 * only microseconds away.  Polls for up to SPIN_NS with the lock released
 * between polls. */
#define SPIN_NS 30000ull

static uint64_t monotonic_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Polls the change counter without the lock, and checks `ready` (under
 * the lock) only when something changed. */
static bool spin_until(struct vkmm_scheduler *scheduler, bool (*ready)(void *arg), void *arg, uint64_t limit_ns)
{
    uint64_t end = monotonic_ns() + limit_ns;
    while (!ready(arg)) {
        uint64_t seen = atomic_load_explicit(&scheduler->changes, memory_order_acquire);
        pthread_mutex_unlock(&scheduler->lock);
        bool changed = false;
        while (!changed && monotonic_ns() < end) {
            for (int i = 0; i < 32; i++)
                cpu_relax();
            changed = atomic_load_explicit(&scheduler->changes, memory_order_acquire) != seen;
        }
        pthread_mutex_lock(&scheduler->lock);
        if (!changed)
            return ready(arg);
    }
    return true;
}

static bool advance_locked(struct vkmm_scheduler *scheduler, bool (*ready)(void *arg), void *arg,
                           uint64_t slice_end_ns);

/* Strict mode runs device work inside host calls, one node at a time, so a
 * wait can stop between nodes when its time is up (the order of the work
 * does not depend on where it stops).  A status query (timeout 0) runs at
 * most this long, and at least one node: polling loops progress without
 * blocking. */
#define STATUS_SLICE_NS (2ull * 1000 * 1000)

static uint64_t slice_end_after(uint64_t timeout_ns)
{
    if (timeout_ns >= (1ull << 62))
        return 0; /* forever */
    return monotonic_ns() + (timeout_ns ? timeout_ns : STATUS_SLICE_NS);
}

static bool slice_over(uint64_t slice_end_ns)
{
    return slice_end_ns && monotonic_ns() >= slice_end_ns;
}

VkResult vkmm_scheduler_wait_locked(struct vkmm_scheduler *scheduler, bool (*ready)(void *arg), void *arg,
                                    uint64_t timeout_ns)
{
    /* Strict mode: the waiting thread runs the work it waits for.  What is
     * left can only be unblocked by another host thread (a host signal,
     * vkSetEvent), so the wait below then sleeps as usual. */
    uint64_t slice_end = slice_end_after(timeout_ns);
    if (scheduler->deterministic && advance_locked(scheduler, ready, arg, slice_end))
        return VK_SUCCESS;
    if (timeout_ns && spin_until(scheduler, ready, arg, timeout_ns < SPIN_NS ? timeout_ns : SPIN_NS))
        return VK_SUCCESS;
    /* Beyond ~146 years a timeout is the same as forever, and adding it to
     * the clock would overflow. */
    bool forever = timeout_ns >= (1ull << 62);
    struct timespec deadline = forever ? (struct timespec){ 0 } : deadline_after(timeout_ns);
    while (!ready(arg)) {
        if (timeout_ns == 0)
            return VK_TIMEOUT;
        if (forever) {
            pthread_cond_wait(&scheduler->changed, &scheduler->lock);
        } else if (pthread_cond_timedwait(&scheduler->changed, &scheduler->lock, &deadline) == ETIMEDOUT) {
            return ready(arg) ? VK_SUCCESS : VK_TIMEOUT;
        }
        if (scheduler->deterministic && advance_locked(scheduler, ready, arg, slice_end))
            return VK_SUCCESS;
    }
    return VK_SUCCESS;
}

static bool waits_satisfied(void *arg)
{
    const struct vkmm_submission *s = arg;
    for (uint32_t i = 0; i < s->wait_count; i++) {
        if (!vkmm_semaphore_reached_locked(s->waits[i].semaphore, s->waits[i].target))
            return false;
    }
    return true;
}

struct worker_wake {
    struct vkmm_scheduler *scheduler;
    struct queue_state *state;
};

static bool work_or_shutdown(void *arg)
{
    struct worker_wake *w = arg;
    return w->state->head != NULL || w->scheduler->shutting_down;
}

static bool all_idle_locked(const struct vkmm_scheduler *scheduler)
{
    for (uint32_t i = 0; i < scheduler->queue_count; i++) {
        if (scheduler->queues[i].completed != scheduler->queues[i].submitted)
            return false;
    }
    return true;
}

/* A submission's signal operations, once all its commands ran (fast mode,
 * and strict mode's in-order fallback). */
static void signal_locked(struct vkmm_scheduler *scheduler, struct vkmm_submission *s)
{
    /* Strict mode: the memory side of the signal operations (000: a
     * semaphore signal's first access scope; a fence's is every access). */
    struct vkmm_strict *strict = scheduler->device->strict;
    if (strict) {
        for (uint32_t i = 0; i < s->signal_count; i++)
            vkmm_strict_signal(strict, NULL, s->signals[i].stages);
        if (s->fence)
            vkmm_strict_signal(strict, NULL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    }
    for (uint32_t i = 0; i < s->signal_count; i++)
        vkmm_semaphore_signal_locked(s->signals[i].semaphore, s->signals[i].target);
    if (s->fence)
        vkmm_fence_signal_locked(s->fence);
}

/* Every command of the submission ran: its command buffers are no longer
 * pending (once). */
static void complete_command_buffers_locked(struct vkmm_submission *s)
{
    if (s->command_buffers_completed)
        return;
    s->command_buffers_completed = true;
    for (uint32_t i = 0; i < s->command_buffer_count; i++)
        vkmm_command_buffer_complete_locked(s->command_buffers[i]);
}

/* The queue's first submission finished: its command buffers are no longer
 * pending, and it leaves the queue. */
static void retire_locked(struct vkmm_scheduler *scheduler, struct queue_state *state)
{
    struct vkmm_submission *s = state->head;
    state->head = s->next;
    if (!state->head)
        state->tail = NULL;
    complete_command_buffers_locked(s);
    state->completed = s->serial;
    vkmm_submission_destroy(scheduler->device, s);
    vkmm_scheduler_notify_locked(scheduler);
    if (scheduler->device->strict && all_idle_locked(scheduler))
        vkmm_strict_idle(scheduler->device->strict);
}

static enum vkmm_execution_result execute_unlocked(struct vkmm_scheduler *scheduler, struct vkmm_submission *s,
                                                   bool may_block)
{
    struct vkmm_execution execution = {
        .device = scheduler->device,
        .scheduler = scheduler,
        .queue = s->queue,
        .submission = s,
        .may_block = may_block,
    };
    vkmm_scheduler_unlock(scheduler);
    enum vkmm_execution_result result = vkmm_execute_submission(&execution, &s->cursor);
    vkmm_scheduler_lock(scheduler);
    return result;
}

static void *queue_worker(void *arg)
{
    struct queue_state *state = arg;
    struct vkmm_scheduler *scheduler = state->scheduler;
    struct worker_wake wake = { scheduler, state };
    vkmm_scheduler_lock(scheduler);
    for (;;) {
        vkmm_scheduler_wait_locked(scheduler, work_or_shutdown, &wake, UINT64_MAX);
        if (!state->head)
            break; /* shutting down with nothing left */
        struct vkmm_submission *s = state->head;
        vkmm_scheduler_wait_locked(scheduler, waits_satisfied, s, UINT64_MAX);
        execute_unlocked(scheduler, s, true);
        signal_locked(scheduler, s);
        retire_locked(scheduler, state);
    }
    vkmm_scheduler_unlock(scheduler);
    return NULL;
}

/* --- The deterministic policy ----------------------------------------------- */

static uint64_t mix(uint64_t x)
{
    /* splitmix64: a fixed, well-spread function of (seed, step). */
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* A queue may run when it has work and, if it stopped with nothing
 * runnable, something changed since. */
static bool runnable_locked(const struct vkmm_scheduler *scheduler, const struct queue_state *state)
{
    if (!state->head)
        return false;
    return !state->blocked || state->blocked_at != atomic_load(&scheduler->changes);
}

/* Latest first with seed 0: whatever nothing orders before the work
 * submitted earlier overtakes it, every time — the order that turns a
 * missing dependency into a wrong answer.  Other seeds pick among
 * `count` choices that the caller found equally adversarial. */
uint32_t vkmm_scheduler_choose(struct vkmm_scheduler *scheduler, uint32_t count)
{
    uint64_t step = scheduler->steps++;
    if (scheduler->seed == 0)
        return count - 1;
    return (uint32_t)(mix(scheduler->seed ^ mix(step)) % count);
}

/* Graphs larger than this run latest first under every seed: finding the
 * reorderable nodes costs nodes² footprint comparisons. */
#define MAX_REORDERED_NODES 256

static const struct vkmm_footprint *footprint_of(struct queue_state *state, uint32_t node)
{
    struct vkmm_footprint *f = &state->footprints[node];
    if (!f->known) {
        const struct vkmm_command_graph_node *n = &state->graph->nodes[node];
        bool command = n->kind == VKMM_NODE_COMMAND || n->kind == VKMM_NODE_INDIRECT_ARGS;
        vkmm_command_footprint(command ? n->command : NULL, n->kind == VKMM_NODE_INDIRECT_ARGS, f);
    }
    return f;
}

/* Whether a node later in submission order that may touch what `node`
 * touches has run (`ran`) or has not run yet. */
static bool conflicting_later_node(struct queue_state *state, uint32_t node, bool ran)
{
    const struct vkmm_command_graph *g = state->graph;
    const struct vkmm_footprint *mine = footprint_of(state, node);
    if (!mine->everything && !mine->count)
        return false;
    for (uint32_t later = node + 1; later < g->node_count; later++)
        if (g->nodes[later].done == ran && vkmm_footprints_conflict(mine, footprint_of(state, later)))
            return true;
    return false;
}

/* Whether running `node` now could be the benign order of a race: a node
 * later in submission order that has not run may touch what it touches.
 * (If that node depends on this one the order is forced anyway; running it
 * now is then no choice of the seed's.) */
static bool may_be_overtaken(struct queue_state *state, uint32_t node)
{
    return conflicting_later_node(state, node, false);
}

/* Whether a conflicting node later in submission order already ran:
 * `node` was overtaken. */
static bool overtaken(struct queue_state *state, uint32_t node)
{
    return conflicting_later_node(state, node, true);
}

/* A command that touches no memory: a barrier, an event operation. */
static bool is_synchronization(struct queue_state *state, uint32_t node)
{
    const struct vkmm_footprint *f = footprint_of(state, node);
    return state->graph->nodes[node].kind == VKMM_NODE_COMMAND && !f->everything && !f->count;
}

/* The node to run among the graph's runnable ones (DESIGN §3 "Manifest").
 * First a node that a conflicting later one overtook: its effect then
 * lands after the later one's and before whatever waits for the later one
 * (a fill overtaken by the dispatch that writes over it lands before the
 * copy that reads the dispatch's result, not after).  Otherwise seed 0: the
 * latest.  Other seeds: any runnable node that no later node may overtake —
 * two commands that may conflict always run latest first, so a missing
 * dependency between them is a wrong answer on every seed, and the seed
 * only reorders commands that cannot race. */
static uint32_t choose_node_locked(struct vkmm_scheduler *scheduler, struct queue_state *state, uint32_t count)
{
    struct vkmm_command_graph *g = state->graph;
    for (uint32_t i = 0; state->footprints && i < count; i++) {
        if (!overtaken(state, g->runnable[i]))
            continue;
        /* Barriers and events first: the overtaking command's writes become
         * available before the overtaken one's land over them. */
        for (uint32_t k = 0; k < count; k++)
            if (is_synchronization(state, g->runnable[k]))
                return g->runnable[k];
        return g->runnable[i];
    }
    if (scheduler->seed == 0 || !state->footprints)
        return g->runnable[vkmm_scheduler_choose(scheduler, count)];
    uint32_t safe = 0;
    for (uint32_t i = 0; i < count; i++)
        if (i == count - 1 || !may_be_overtaken(state, g->runnable[i]))
            g->runnable[safe++] = g->runnable[i];
    return g->runnable[vkmm_scheduler_choose(scheduler, safe)];
}

/* --- Strict mode: a queue's command graph ------------------------------------ */

static bool node_runnable_locked(const struct vkmm_command_graph_node *n)
{
    if (n->kind == VKMM_NODE_SEMAPHORE_WAIT) {
        const struct vkmm_semaphore_op *wait = &n->submission->waits[n->operation];
        return vkmm_semaphore_reached_locked(wait->semaphore, wait->target);
    }
    return n->kind != VKMM_NODE_COMMAND || vkmm_command_runnable_locked(n->command);
}

/* One node, lock held around but not during device work. */
static void run_node_locked(struct vkmm_scheduler *scheduler, struct queue_state *state, uint32_t index)
{
    const struct vkmm_command_graph_node *n = &state->graph->nodes[index];
    struct vkmm_device *device = scheduler->device;
    struct vkmm_submission *s = n->submission;
    struct vkmm_strict *strict = device->strict;
    /* A signal's first synchronization scope: the node's ancestors. */
    struct vkmm_strict_graph graph;
    vkmm_command_graph_strict_view(state->graph, &graph);
    struct vkmm_strict_scope scope = { &graph, index, vkmm_queue_id(state->queue) };
    /* An overtaken command's writes are evicted as soon as it ends: they
     * land over the overtaking command's, as a cache writing back early
     * may make them (a missing write-after-write dependency shows). */
    bool evict = n->kind == VKMM_NODE_COMMAND && state->footprints && overtaken(state, index);
    vkmm_scheduler_unlock(scheduler);
    switch (n->kind) {
    case VKMM_NODE_COMMAND: {
        struct vkmm_execution x = {
            .device = device,
            .scheduler = scheduler,
            .queue = state->queue,
            .submission = s,
            .position = index,
            .graph = state->graph,
            .where = strict ? vkmm_strict_place(strict, n->command_buffer->base.debug_name, n->label, s->queue_label)
                            : NULL,
        };
        vkmm_execute_command(&x, n->command);
        if (evict && strict)
            vkmm_strict_evict(strict, &scope);
        break;
    }
    case VKMM_NODE_INDIRECT_ARGS:
        break; /* the dispatch reads its arguments when it runs */
    case VKMM_NODE_SEMAPHORE_WAIT:
        /* The second access scope of the wait. */
        if (strict)
            vkmm_strict_wait(strict, s->waits[n->operation].stages);
        break;
    case VKMM_NODE_SEMAPHORE_SIGNAL:
        /* 000: the signal's first access scope becomes available. */
        if (strict)
            vkmm_strict_signal(strict, &scope, s->signals[n->operation].stages);
        break;
    case VKMM_NODE_FENCE_SIGNAL:
        if (strict)
            vkmm_strict_signal(strict, &scope, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
        break;
    }
    vkmm_scheduler_lock(scheduler);
    if (n->kind == VKMM_NODE_SEMAPHORE_SIGNAL)
        vkmm_semaphore_signal_locked(s->signals[n->operation].semaphore, s->signals[n->operation].target);
    else if (n->kind == VKMM_NODE_FENCE_SIGNAL)
        vkmm_fence_signal_locked(s->fence);
    s->nodes_left--;
    if ((n->kind == VKMM_NODE_COMMAND || n->kind == VKMM_NODE_INDIRECT_ARGS) && --s->command_nodes_left == 0)
        complete_command_buffers_locked(s);
    vkmm_command_graph_complete(state->graph, index);
    vkmm_scheduler_notify_locked(scheduler);
}

/* Submissions leave the queue in order, once all their nodes ran. */
static void retire_finished_locked(struct vkmm_scheduler *scheduler, struct queue_state *state)
{
    while (state->graph_submissions && state->head->nodes_left == 0) {
        state->graph_submissions--;
        retire_locked(scheduler, state);
    }
}

/* Runs the queue's graph until it is done or nothing in it can run; each
 * step's node among the runnable ones is vkmm_scheduler_choose's pick. */
static enum vkmm_execution_result run_graph_locked(struct vkmm_scheduler *scheduler, struct queue_state *state,
                                                   bool *progressed, uint64_t slice_end)
{
    struct vkmm_command_graph *g = state->graph;
    *progressed = false;
    while (g->done_count < g->node_count) {
        if (*progressed && slice_over(slice_end))
            return VKMM_EXECUTION_PAUSED;
        uint32_t count = 0;
        for (uint32_t i = 0; i < g->ready_count; i++) {
            if (node_runnable_locked(&g->nodes[g->ready[i]]))
                g->runnable[count++] = g->ready[i];
        }
        if (count == 0)
            return VKMM_EXECUTION_BLOCKED;
        run_node_locked(scheduler, state, choose_node_locked(scheduler, state, count));
        retire_finished_locked(scheduler, state);
        *progressed = true;
    }
    retire_finished_locked(scheduler, state);
    vkmm_command_graph_destroy(g);
    state->graph = NULL;
    vkmm_free(&scheduler->device->allocator, NULL, state->footprints);
    state->footprints = NULL;
    return VKMM_EXECUTION_DONE;
}

/* Out of host memory for a graph: the first submission in submission
 * order, which is one of the orders the graph would allow. */
static enum vkmm_execution_result run_in_order_locked(struct vkmm_scheduler *scheduler, struct queue_state *state,
                                                      bool *progressed)
{
    struct vkmm_submission *s = state->head;
    *progressed = false;
    if (s->cursor.buffer == 0 && !s->cursor.buffer_started) {
        if (!waits_satisfied(s))
            return VKMM_EXECUTION_BLOCKED;
        *progressed = true;
        for (uint32_t i = 0; i < s->wait_count && scheduler->device->strict; i++)
            vkmm_strict_wait(scheduler->device->strict, s->waits[i].stages);
    }
    if (execute_unlocked(scheduler, s, false) == VKMM_EXECUTION_BLOCKED)
        return VKMM_EXECUTION_BLOCKED;
    signal_locked(scheduler, s);
    retire_locked(scheduler, state);
    return VKMM_EXECUTION_DONE;
}

/* The graph of every submission the queue holds now (later ones wait for
 * the next graph). */
static void build_graph_locked(struct vkmm_scheduler *scheduler, struct queue_state *state)
{
    uint32_t count = 0;
    for (struct vkmm_submission *s = state->head; s; s = s->next)
        count++;
    state->graph = vkmm_command_graph_create(&scheduler->device->allocator, state->head, count);
    state->graph_submissions = state->graph ? count : 0;
    /* Command buffers with no command have nothing to run: they complete
     * now, not when an earlier submission that may wait for long retires
     * (the host may see this submission's signal before then). */
    for (struct vkmm_submission *s = state->head; state->graph && s; s = s->next) {
        if (s->command_nodes_left == 0)
            complete_command_buffers_locked(s);
    }
    /* Without room for footprints the graph runs latest first: still
     * adversarial, only less varied across seeds, and an overtaken command
     * may land after the readers of the one that overtook it. */
    if (state->graph && state->graph->node_count <= MAX_REORDERED_NODES)
        state->footprints = vkmm_zalloc(&scheduler->device->allocator, NULL,
                                        state->graph->node_count * sizeof(*state->footprints),
                                        VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
    if (!state->graph)
        vkmm_log(&state->queue->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
                 VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, "VKMM-STRICT-IN-ORDER",
                 "out of host memory for the queue's command graph: its next submission runs in submission order");
}

/* Runs one queue's work (to its end or until nothing in it can run).
 * Returns false when no queue can run.  The candidates are the runnable
 * queues by their first submission's place in submission order;
 * vkmm_scheduler_choose picks one. */
static bool run_step_locked(struct vkmm_scheduler *scheduler, uint64_t slice_end)
{
    struct queue_state *candidates[VKMM_QUEUE_FAMILY_COUNT * VKMM_MAX_QUEUES_PER_FAMILY];
    uint32_t count = 0;
    for (uint32_t i = 0; i < scheduler->queue_count; i++) {
        struct queue_state *state = &scheduler->queues[i];
        if (!runnable_locked(scheduler, state))
            continue;
        uint32_t at = count++;
        while (at > 0 && candidates[at - 1]->head->sequence > state->head->sequence) {
            candidates[at] = candidates[at - 1];
            at--;
        }
        candidates[at] = state;
    }
    if (count == 0)
        return false;
    /* Latest first under every seed: queues race for whole graphs, and the
     * benign order of two queues' conflicting work must never be a seed's
     * pick (seeds reorder inside a graph, choose_node_locked). */
    struct queue_state *chosen = candidates[count - 1];
    if (!chosen->graph)
        build_graph_locked(scheduler, chosen);
    scheduler->executing = true;
    bool progressed;
    enum vkmm_execution_result result = chosen->graph ? run_graph_locked(scheduler, chosen, &progressed, slice_end)
                                                      : run_in_order_locked(scheduler, chosen, &progressed);
    scheduler->executing = false;
    /* Waiters and other queues look again only when something ran (it
     * may have set events or queries); a queue that could not move at all
     * must not wake the others, or two blocked queues would take turns
     * forever. */
    if (progressed)
        vkmm_scheduler_notify_locked(scheduler);
    else
        pthread_cond_broadcast(&scheduler->changed); /* threads waiting for `executing` to end */
    chosen->blocked = result == VKMM_EXECUTION_BLOCKED;
    chosen->blocked_at = atomic_load(&scheduler->changes);
    return true;
}

/* Runs device work until `ready` holds or nothing can run; another thread
 * already running work is waited for. */
static bool advance_locked(struct vkmm_scheduler *scheduler, bool (*ready)(void *arg), void *arg,
                           uint64_t slice_end)
{
    while (!ready(arg)) {
        if (scheduler->executing) {
            pthread_cond_wait(&scheduler->changed, &scheduler->lock);
            continue;
        }
        if (!run_step_locked(scheduler, slice_end) || slice_over(slice_end))
            return ready(arg);
    }
    return true;
}

static bool never(void *arg)
{
    (void)arg;
    return false;
}

void vkmm_scheduler_settle_locked(struct vkmm_scheduler *scheduler)
{
    if (scheduler->deterministic)
        advance_locked(scheduler, never, NULL, slice_end_after(0));
}

/* Everything that can run, however long it takes (device destruction). */
static void settle_all_locked(struct vkmm_scheduler *scheduler)
{
    if (scheduler->deterministic)
        advance_locked(scheduler, never, NULL, 0);
}

VkResult vkmm_scheduler_create(struct vkmm_device *device, struct vkmm_scheduler **out)
{
    struct vkmm_scheduler *scheduler =
        vkmm_zalloc(&device->allocator, NULL, sizeof(*scheduler), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
    if (!scheduler)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    scheduler->device = device;
    scheduler->deterministic = vkmm_mode() == VKMM_MODE_STRICT;
    scheduler->seed = vkmm_seed();
    pthread_mutex_init(&scheduler->lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&scheduler->changed, &attr);
    pthread_condattr_destroy(&attr);

    for (uint32_t f = 0; f < VKMM_QUEUE_FAMILY_COUNT; f++) {
        for (uint32_t q = 0; q < device->queue_counts[f]; q++) {
            struct queue_state *state = &scheduler->queues[scheduler->queue_count++];
            state->scheduler = scheduler;
            state->queue = device->queues[f][q];
        }
    }
    for (uint32_t i = 0; i < scheduler->queue_count && !scheduler->deterministic; i++) {
        struct queue_state *state = &scheduler->queues[i];
        if (pthread_create(&state->thread, NULL, queue_worker, state) != 0) {
            vkmm_scheduler_destroy(scheduler);
            return VK_ERROR_INITIALIZATION_FAILED;
        }
        state->thread_started = true;
    }
    *out = scheduler;
    return VK_SUCCESS;
}

void vkmm_scheduler_destroy(struct vkmm_scheduler *scheduler)
{
    if (!scheduler)
        return;
    vkmm_scheduler_lock(scheduler);
    scheduler->shutting_down = true;
    vkmm_scheduler_notify_locked(scheduler);
    vkmm_scheduler_unlock(scheduler);
    for (uint32_t i = 0; i < scheduler->queue_count; i++) {
        if (scheduler->queues[i].thread_started)
            pthread_join(scheduler->queues[i].thread, NULL);
    }
    /* Strict mode runs work only when observed: what nobody waited for runs
     * now, as a device would finish it before being destroyed (the spec
     * requires the application to wait, so this only matters for
     * incorrect programs). */
    if (scheduler->deterministic) {
        vkmm_scheduler_lock(scheduler);
        settle_all_locked(scheduler);
        for (uint32_t i = 0; i < scheduler->queue_count; i++) {
            vkmm_command_graph_destroy(scheduler->queues[i].graph);
            vkmm_free(&scheduler->device->allocator, NULL, scheduler->queues[i].footprints);
            while (scheduler->queues[i].head) {
                struct vkmm_submission *s = scheduler->queues[i].head;
                scheduler->queues[i].head = s->next;
                vkmm_submission_destroy(scheduler->device, s);
            }
        }
        vkmm_scheduler_unlock(scheduler);
    }
    pthread_cond_destroy(&scheduler->changed);
    pthread_mutex_destroy(&scheduler->lock);
    vkmm_free(&scheduler->device->allocator, NULL, scheduler);
}

void vkmm_scheduler_submit_locked(struct vkmm_scheduler *scheduler, struct vkmm_queue *queue,
                                  struct vkmm_submission *first)
{
    struct queue_state *state = state_of(scheduler, queue);
    for (struct vkmm_submission *s = first; s;) {
        struct vkmm_submission *next = s->next;
        s->next = NULL;
        s->queue = queue;
        s->serial = ++state->submitted;
        s->sequence = ++scheduler->next_sequence;
        if (state->tail)
            state->tail->next = s;
        else
            state->head = s;
        state->tail = s;
        s = next;
    }
    vkmm_scheduler_notify_locked(scheduler);
}

static bool queues_idle(void *arg)
{
    struct vkmm_scheduler *scheduler = ((struct worker_wake *)arg)->scheduler;
    struct queue_state *only = ((struct worker_wake *)arg)->state;
    for (uint32_t i = 0; i < scheduler->queue_count; i++) {
        struct queue_state *state = &scheduler->queues[i];
        if ((!only || only == state) && state->completed != state->submitted)
            return false;
    }
    return true;
}

VkResult vkmm_scheduler_wait_idle_locked(struct vkmm_scheduler *scheduler, struct vkmm_queue *queue)
{
    struct worker_wake which = { scheduler, queue ? state_of(scheduler, queue) : NULL };
    return vkmm_scheduler_wait_locked(scheduler, queues_idle, &which, UINT64_MAX);
}
