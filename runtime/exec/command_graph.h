/* The execution dependencies between the commands of a queue's pending
 * submissions (004, DESIGN §3.3).  Strict mode runs them in any order this
 * graph allows — the scheduler picks among the ready ones adversarially —
 * so two commands with no dependency chain between them really do run in
 * either order, as on a GPU, also across submissions of one queue. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

struct vkmm_command;
struct vkmm_command_buffer;
struct vkmm_submission;

enum vkmm_graph_node_kind {
    VKMM_NODE_COMMAND,
    /* A vkCmdDispatchIndirect's argument read (DRAW_INDIRECT stage): a node
     * of its own, before the dispatch's COMMAND node, so that barriers see
     * the two stages apart.  Runs nothing itself. */
    VKMM_NODE_INDIRECT_ARGS,
    VKMM_NODE_SEMAPHORE_WAIT,   /* the submission's wait operation `operation` */
    VKMM_NODE_SEMAPHORE_SIGNAL, /* its signal operation `operation` */
    VKMM_NODE_FENCE_SIGNAL,
};

struct vkmm_command_graph_node {
    enum vkmm_graph_node_kind kind;
    const struct vkmm_command *command; /* VKMM_NODE_COMMAND, VKMM_NODE_INDIRECT_ARGS */
    const struct vkmm_command_buffer *command_buffer; /* that recorded it (a secondary: the secondary) */
    const char *label; /* innermost debug-utils label open there, or NULL */
    struct vkmm_submission *submission;
    uint32_t operation;
    uint32_t first_successor, successor_count; /* into graph->successors */
    uint32_t waiting;                          /* predecessors not yet run */
    bool done;
};

struct vkmm_command_graph {
    const VkAllocationCallbacks *allocator;
    uint32_t node_count, done_count;
    struct vkmm_command_graph_node *nodes; /* in submission order */
    uint32_t *successors;
    /* The nodes whose predecessors all ran and that did not run yet, in
     * submission order. */
    uint32_t *ready;
    uint32_t ready_count;
    uint32_t *runnable; /* room for the scheduler's pick among `ready` */
    uint64_t first_sequence; /* the device-wide sequence of its first submission */
    uint32_t *visited, visit_stamp, *stack; /* vkmm_command_graph_reaches */
};

/* Builds the graph of `count` submissions of one queue, linked by ->next
 * in submission order: their semaphore waits, every command of their
 * command buffers (secondaries flattened; labels are not commands that
 * run), their semaphore signals and fence.  Sets each submission's
 * nodes_left.  NULL when out of host memory. */
struct vkmm_command_graph *vkmm_command_graph_create(const VkAllocationCallbacks *allocator,
                                                     struct vkmm_submission *first, uint32_t count);
void vkmm_command_graph_destroy(struct vkmm_command_graph *graph);

/* Node i (one of graph->ready) ran: its successors wait for one
 * predecessor less, and join `ready` when none is left. */
void vkmm_command_graph_complete(struct vkmm_command_graph *graph, uint32_t node);

/* Whether a chain of execution dependencies leads from node `from` to node
 * `to`. */
bool vkmm_command_graph_reaches(struct vkmm_command_graph *graph, uint32_t from, uint32_t to);
/* Strict mode: the graph as the bridge may ask it (strict/strict.h). */
struct vkmm_strict_graph;
void vkmm_command_graph_strict_view(struct vkmm_command_graph *graph, struct vkmm_strict_graph *out);
