/* The execution dependencies between the commands of one submission (004,
 * DESIGN §3.3).  Strict mode runs a submission's commands in any order this
 * graph allows — the scheduler picks among the ready ones adversarially —
 * so two commands with no dependency chain between them really do run in
 * either order, as on a GPU. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

struct vkmm_command;
struct vkmm_submission;

struct vkmm_command_graph_node {
    const struct vkmm_command *command;
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
};

/* Builds the graph of every command of the submission's command buffers
 * (secondaries flattened; labels are not commands that run).  NULL when out
 * of host memory. */
struct vkmm_command_graph *vkmm_command_graph_create(const VkAllocationCallbacks *allocator,
                                                     const struct vkmm_submission *submission);
void vkmm_command_graph_destroy(struct vkmm_command_graph *graph);

/* Node i (one of graph->ready) ran: its successors wait for one
 * predecessor less, and join `ready` when none is left. */
void vkmm_command_graph_complete(struct vkmm_command_graph *graph, uint32_t node);
