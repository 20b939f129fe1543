/* Strict mode's side of the memory engine (runtime/memmodel/): turns Vulkan
 * objects and recorded commands into the engine's plain descriptions.  The
 * engine itself knows no Vulkan object.  All of it is a no-op in fast mode
 * (device->engine is NULL). */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

struct vkmm_buffer;
struct vkmm_command;
struct vkmm_dependency;
struct vkmm_device;
struct vkmm_device_memory;
struct vkmm_dispatch_mirror;
struct vkmm_execution;
struct vkmm_shader_invocation;

VkResult vkmm_strict_device_init(struct vkmm_device *device);
void vkmm_strict_device_finish(struct vkmm_device *device);

VkResult vkmm_strict_memory_init(struct vkmm_device *device, struct vkmm_device_memory *memory);
void vkmm_strict_memory_finish(struct vkmm_device *device, struct vkmm_device_memory *memory);
/* Strict mode: "command buffer 'a', label 'b', queue label 'c'" from the
 * names the application gave (any may be NULL), kept for the device's
 * life; NULL when it named nothing (or in fast mode). */
const char *vkmm_strict_place(struct vkmm_device *device, const char *command_buffer, const char *label,
                              const char *queue_label);
/* Strict mode: a copy of `text` kept for the device's life; NULL for NULL
 * (and in fast mode). */
const char *vkmm_strict_intern(struct vkmm_device *device, const char *text);
/* A buffer was bound to / is destroyed while bound to emulated memory:
 * reports name the buffers over the bytes of a hazard. */
struct vkmm_buffer;
void vkmm_strict_buffer_bound(struct vkmm_device *device, struct vkmm_buffer *buffer);
void vkmm_strict_buffer_destroyed(struct vkmm_device *device, struct vkmm_buffer *buffer);
/* Checks what the host could have read through a mapping it lets go of. */
void vkmm_strict_check_host_view(struct vkmm_device *device, struct vkmm_device_memory *memory);
/* The host view (what vkMapMemory returns) at `offset`. */
void *vkmm_strict_map(struct vkmm_device_memory *memory, VkDeviceSize offset);
void vkmm_strict_flush(struct vkmm_device *device, struct vkmm_device_memory *memory, VkDeviceSize offset,
                       VkDeviceSize size);
void vkmm_strict_invalidate(struct vkmm_device *device, struct vkmm_device_memory *memory, VkDeviceSize offset,
                            VkDeviceSize size);

/* vkQueueSubmit, before its work is handed over, at the time of the call:
 * marks the memories that work may touch (transfer sources and
 * destinations, the buffers of its dispatches) and performs the
 * host->device domain operation over them.  Returns the mark for
 * vkmm_strict_submitted (0: nothing to protect). */
struct vkmm_submission;
uint64_t vkmm_strict_submit(struct vkmm_device *device, const struct vkmm_submission *list);
/* vkQueueSubmit returned (its last submission has device-wide sequence
 * `sequence`): the mapped host views of the memories marked `mark` are
 * protected until vkmm next works on memory, so host accesses in between
 * are seen (host_trap.h). */
void vkmm_strict_submitted(struct vkmm_device *device, uint64_t mark, uint64_t sequence);
/* vkMapMemory/vkUnmapMemory: sets the memory's mapping (pointer NULL:
 * unmapped), under the engine lock for emulated memory. */
void vkmm_strict_set_mapping(struct vkmm_device *device, struct vkmm_device_memory *memory, void *pointer,
                             VkDeviceSize offset, VkDeviceSize size);
/* No submission is pending any more: nothing can overtake anything. */
void vkmm_strict_idle(struct vkmm_device *device);
/* The host observed completion (a wait returned success). */
void vkmm_strict_host_wait(struct vkmm_device *device);
/* vkQueueWaitIdle (queue) or vkDeviceWaitIdle (NULL) returned: the spec
 * makes them a fence on every submission, so the queues' writes become
 * available, then the host observed completion. */
struct vkmm_queue;
void vkmm_strict_wait_idle(struct vkmm_device *device, const struct vkmm_queue *queue);

/* Command accesses of the executor: whole-command reads and writes of a
 * buffer range through the command's (stage, access) path. */
void vkmm_strict_read(struct vkmm_execution *x, const struct vkmm_command *command, struct vkmm_buffer *buffer,
                      VkDeviceSize offset, VkDeviceSize size, VkPipelineStageFlags2 stage, VkAccessFlags2 access,
                      void *out);
void vkmm_strict_write(struct vkmm_execution *x, const struct vkmm_command *command, struct vkmm_buffer *buffer,
                       VkDeviceSize offset, VkDeviceSize size, VkPipelineStageFlags2 stage, VkAccessFlags2 access,
                       const void *data);
/* The first synchronization scope of a dependency, for its availability
 * operation: the writes of queue `queue`'s commands in earlier graphs and,
 * in `graph`, of the ancestors of `node`.  graph NULL: every write of the
 * queue; queue VKMM_STRICT_ANY_QUEUE: every write.  A NULL scope pointer is
 * the same as any queue. */
struct vkmm_command_graph;
struct vkmm_strict_scope {
    struct vkmm_command_graph *graph;
    uint32_t node;
    uint32_t queue;
};
#define VKMM_STRICT_ANY_QUEUE UINT32_MAX

/* The writes of the scope's command become available now, as a cache may
 * write back at any time (the scheduler's adversarial eviction of a
 * command that a conflicting later one overtook). */
void vkmm_strict_evict(struct vkmm_device *device, const struct vkmm_strict_scope *scope);

/* A recorded dependency (barrier, the halves of an event). */
void vkmm_strict_dependency(struct vkmm_device *device, const struct vkmm_strict_scope *scope,
                            const struct vkmm_dependency *dependency);
/* The memory half of a semaphore signal / fence signal (src scope) or of a
 * semaphore wait (dst scope). */
void vkmm_strict_signal(struct vkmm_device *device, const struct vkmm_strict_scope *scope,
                        VkPipelineStageFlags2 stages);
void vkmm_strict_wait(struct vkmm_device *device, VkPipelineStageFlags2 stages);

/* vkSignalSemaphore or vkSetEvent on the host: with
 * VKMM_HOST_WRITE=before-signal, host writes reach the device domain. */
void vkmm_strict_host_signal(struct vkmm_device *device);

/* Dispatches: the shader runs on device bytes that hold what its read
 * paths see (prepare, which also gives `invocation` the access marks'
 * deltas); afterwards the bytes it marked as read are checked as its reads
 * and those it marked as written become its writes (finish). */
struct vkmm_pipeline_layout;
struct vkmm_dispatch_mirror *vkmm_strict_dispatch_prepare(struct vkmm_execution *x, const struct vkmm_command *command,
                                                          struct vkmm_shader_invocation *invocation,
                                                          const struct vkmm_pipeline_layout *layout,
                                                          bool buffer_references);
void vkmm_strict_dispatch_finish(struct vkmm_execution *x, const struct vkmm_command *command,
                                 struct vkmm_dispatch_mirror *mirror);
/* Races between invocations in Workgroup memory that the dispatch's
 * workgroup monitors found: one report per bug. */
struct vkmm_workgroup_races;
void vkmm_strict_report_workgroup_races(struct vkmm_execution *x, const struct vkmm_command *command,
                                        const struct vkmm_workgroup_races *races);
/* A dispatch the watchdog ended (the device is lost): one report, `text`
 * naming the loop. */
void vkmm_strict_report_lost_dispatch(struct vkmm_execution *x, const struct vkmm_command *command, const char *text);
