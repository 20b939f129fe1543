/* Strict mode's bridge (DESIGN §3): turns what the objects and the
 * executor tell it into calls of the memory engine (runtime/memmodel/), and
 * the engine's hazards into reports.  It knows no Vulkan object: callers
 * hand it plain descriptions — ranges, stage and access masks, scopes,
 * agents — and handles of its own registry (memories and buffers as it
 * knows them, with the names the application gave them).  Arrows run one
 * way: objects → execution → bridge → engine.
 *
 * A device has a bridge in strict mode only; in fast mode `device->strict`
 * is NULL and no call reaches here.  Every function takes the bridge's one
 * lock itself; none may be called with it held.
 *
 * Files: bridge.c (the bridge's life, its lock), names.c (the registry of
 * memories, buffers and names), host_access.c (mapped memory, the host
 * trap, submissions and waits), command_access.c (transfers, dependencies,
 * commands run out of submission order), dispatch_access.c (a dispatch's
 * exact accesses, races inside it), reports.c (hazards as reports). */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "memmodel/memmodel.h"

struct vkmm_address_space;
struct vkmm_device_monitor;
struct vkmm_dispatch_mirror;
struct vkmm_shader_invocation;
struct vkmm_strict;
struct vkmm_strict_buffer;
struct vkmm_strict_memory;
struct vkmm_workgroup_races;

/* --- The bridge's life (bridge.c) ----------------------------------------- */

/* How the bridge speaks to the application: a debug-utils message on the
 * device, and the loss of the device (the engine could not go on). */
struct vkmm_strict_hooks {
    void *user;
    void (*log)(void *user, VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT type,
                const char *id, const char *text);
    void (*lose)(void *user, const char *text);
    /* Calls fn(context, i) for every i in [0, count) on idle threads and
     * returns when all returned (NULL: the engine stays on one thread).
     * The engine's full-size copies and comparisons go through it. */
    void (*parallel)(void *user, uint64_t count, void (*fn)(void *context, uint64_t index), void *context);
};

/* `allocator`: the device's callbacks, kept for the bridge's life;
 * `own_callbacks`: the application gave them (the engine then allocates
 * through them too).  `space`: where device memory lives (the access marks
 * and monitors shadow it). */
VkResult vkmm_strict_create(const VkAllocationCallbacks *allocator, bool own_callbacks,
                            struct vkmm_address_space *space, const struct vkmm_strict_hooks *hooks,
                            struct vkmm_strict **out);
/* Reports what is pending, writes the summary and frees everything. */
void vkmm_strict_destroy(struct vkmm_strict *strict);
/* The device-memory monitor the executor runs dispatches under. */
struct vkmm_device_monitor *vkmm_strict_device_monitor(struct vkmm_strict *strict);

/* --- The registry (names.c) ------------------------------------------------ */

struct vkmm_strict_memory_info {
    uint64_t size;
    uint8_t *bytes; /* the device domain's copy, in the address space */
    bool host_visible, host_coherent;
    bool device_addressable; /* a buffer reference may reach it */
};
/* Why a memory is not emulated, or could not be: a message for the
 * application on the memory object. */
struct vkmm_strict_note {
    VkDebugUtilsMessageSeverityFlagBitsEXT severity; /* 0: nothing to say */
    VkDebugUtilsMessageTypeFlagsEXT type;
    const char *id;
    char text[256];
};
/* A new emulated memory.  VK_SUCCESS with *out NULL: not emulated
 * (VKMM_STRICT_MAX_BYTES), with a note. */
VkResult vkmm_strict_memory_create(struct vkmm_strict *strict, const struct vkmm_strict_memory_info *info,
                                   struct vkmm_strict_memory **out, struct vkmm_strict_note *note);
/* Checks what the host could still read through a mapping, then forgets
 * the memory; buffers still bound to it keep their records, unlinked. */
void vkmm_strict_memory_destroy(struct vkmm_strict *strict, struct vkmm_strict_memory *memory);
void vkmm_strict_memory_name(struct vkmm_strict *strict, struct vkmm_strict_memory *memory, const char *name);

/* A buffer bound to [offset, offset + size) of an emulated memory: reports
 * name it over those bytes.  NULL when there is no host memory for the
 * record (reports then name the memory alone). */
struct vkmm_strict_buffer *vkmm_strict_buffer_bind(struct vkmm_strict *strict, struct vkmm_strict_memory *memory,
                                                   uint64_t offset, uint64_t size, const char *name);
void vkmm_strict_buffer_name(struct vkmm_strict *strict, struct vkmm_strict_buffer *buffer, const char *name);
void vkmm_strict_buffer_unbind(struct vkmm_strict *strict, struct vkmm_strict_buffer *buffer);

/* A copy of `text` kept for the bridge's life; NULL for NULL. */
const char *vkmm_strict_intern(struct vkmm_strict *strict, const char *text);
/* "command buffer 'a', label 'b', queue label 'c'" from the names the
 * application gave (any may be NULL), kept for the bridge's life; NULL
 * when it named nothing. */
const char *vkmm_strict_place(struct vkmm_strict *strict, const char *command_buffer, const char *label,
                              const char *queue_label);

/* --- The host (host_access.c) ---------------------------------------------- */

/* vkMapMemory: the host view (DESIGN §3.1: the host's own copy of the
 * bytes) of [offset, offset + size), which the bridge now watches. */
void *vkmm_strict_map(struct vkmm_strict *strict, struct vkmm_strict_memory *memory, uint64_t offset,
                      uint64_t size);
/* vkUnmapMemory: checks what the host could have read through it. */
void vkmm_strict_unmap(struct vkmm_strict *strict, struct vkmm_strict_memory *memory);
void vkmm_strict_flush(struct vkmm_strict *strict, struct vkmm_strict_memory *memory, uint64_t offset,
                       uint64_t size);
void vkmm_strict_invalidate(struct vkmm_strict *strict, struct vkmm_strict_memory *memory, uint64_t offset,
                            uint64_t size);

/* vkQueueSubmit, before its work is handed over, at the time of the call:
 * the memories that work may write or only read (`everything`: it may
 * write any memory) are marked with a new stamp, and the host→device
 * domain operation runs over them, under one lock so that no other
 * submission's marks come between.  Only their host views are read:
 * another host thread may be writing an unrelated mapped memory meanwhile,
 * which it owes this call no ordering for (issue #11: a data race); those
 * writes reach the device domain at the first submission that touches
 * their memory, before its work runs.  Returns the stamp.  After the
 * submission (its last one has device-wide sequence `sequence`), the
 * mapped host views of the marked memories are protected until the bridge
 * next works on memory, so host accesses in between are seen
 * (host_trap.h). */
struct vkmm_strict_touch {
    struct vkmm_strict_memory *memory;
    bool write;
};
uint64_t vkmm_strict_submit(struct vkmm_strict *strict, const struct vkmm_strict_touch *touched, uint32_t count,
                            bool everything);
void vkmm_strict_submitted(struct vkmm_strict *strict, uint64_t stamp, uint64_t sequence);
/* The host observed completion (a wait returned success). */
void vkmm_strict_host_wait(struct vkmm_strict *strict);
/* vkSignalSemaphore or vkSetEvent on the host: with
 * VKMM_HOST_WRITE=before-signal, host writes reach the device domain. */
void vkmm_strict_host_signal(struct vkmm_strict *strict);
/* No submission is pending any more: nothing can overtake anything. */
void vkmm_strict_idle(struct vkmm_strict *strict);

/* --- Commands (command_access.c) ------------------------------------------- */

/* The executor's command graph, as far as the bridge asks it: whether a
 * node reaches another (an execution dependency orders them), and whether a
 * command between two nodes that has not run yet may write a memory. */
struct vkmm_strict_graph {
    void *graph;
    uint64_t first_sequence; /* the first submission the graph holds */
    bool (*reaches)(void *graph, uint32_t from, uint32_t to);
    bool (*pending_writer_between)(void *graph, uint32_t after, uint32_t before,
                                   const struct vkmm_strict_memory *memory);
};

/* The command that accesses memory: its agent (agent.submission is the
 * device-wide sequence, agent.position its node in `graph`) and its queue's
 * graph (NULL: none). */
struct vkmm_strict_command {
    struct vkmm_mm_agent agent;
    const struct vkmm_strict_graph *graph;
};

/* Whole-command reads and writes through the command's (stage, access)
 * path. */
void vkmm_strict_read(struct vkmm_strict *strict, const struct vkmm_strict_command *command,
                      struct vkmm_strict_memory *memory, uint64_t offset, uint64_t size, VkPipelineStageFlags2 stage,
                      VkAccessFlags2 access, void *out);
void vkmm_strict_write(struct vkmm_strict *strict, const struct vkmm_strict_command *command,
                       struct vkmm_strict_memory *memory, uint64_t offset, uint64_t size, VkPipelineStageFlags2 stage,
                       VkAccessFlags2 access, const void *data);
/* An image layout transition from UNDEFINED by `command` (the barrier):
 * the bytes' contents are discarded — scrambled with a seeded pattern,
 * visible to the barrier's second scope — and a read before the next
 * write is reported (DESIGN §3.2). */
void vkmm_strict_discard(struct vkmm_strict *strict, const struct vkmm_strict_command *command,
                         struct vkmm_strict_memory *memory, uint64_t offset, uint64_t size,
                         VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access);

/* The first synchronization scope of a dependency, for its availability
 * operation: the writes of queue `queue`'s commands in earlier graphs and,
 * in `graph`, of the ancestors of `node`.  graph NULL: every write of the
 * queue; queue VKMM_STRICT_ANY_QUEUE: every write.  A NULL scope pointer is
 * the same as any queue. */
struct vkmm_strict_scope {
    const struct vkmm_strict_graph *graph;
    uint32_t node;
    uint32_t queue;
};
#define VKMM_STRICT_ANY_QUEUE UINT32_MAX

/* One memory or buffer barrier of a recorded dependency (a pipeline
 * barrier, the halves of an event); memory NULL: a global barrier. */
struct vkmm_strict_barrier {
    VkPipelineStageFlags2 src_stages, dst_stages;
    VkAccessFlags2 src_access, dst_access;
    struct vkmm_strict_memory *memory;
    uint64_t offset, size;
};
void vkmm_strict_barrier(struct vkmm_strict *strict, const struct vkmm_strict_scope *scope,
                         const struct vkmm_strict_barrier *barrier);
/* The writes of the scope's command become available now, as a cache may
 * write back at any time (the scheduler's adversarial eviction of a
 * command that a conflicting later one overtook). */
void vkmm_strict_evict(struct vkmm_strict *strict, const struct vkmm_strict_scope *scope);
/* The memory half of a semaphore or fence signal (first scope) and of a
 * semaphore wait (second scope). */
void vkmm_strict_signal(struct vkmm_strict *strict, const struct vkmm_strict_scope *scope,
                        VkPipelineStageFlags2 stages);
void vkmm_strict_wait(struct vkmm_strict *strict, VkPipelineStageFlags2 stages);
/* vkQueueWaitIdle (queue) or vkDeviceWaitIdle (VKMM_STRICT_ANY_QUEUE)
 * returned: the spec makes them a fence on every submission, so the
 * queues' writes become available, then the host observed completion. */
void vkmm_strict_wait_idle(struct vkmm_strict *strict, uint32_t queue);

/* --- Dispatches (dispatch_access.c) ---------------------------------------- */

/* A dispatch's grid (its base and its group counts), to name workgroups
 * in reports. */
struct vkmm_strict_grid {
    uint32_t base[3];
    uint32_t count[3];
    uint32_t local_size[3]; /* for reports: local invocation ids */
    uint32_t subgroup_width;
};
/* Before a dispatch runs: the shader will run on device bytes that hold
 * what its read paths see.  begin gives `invocation` the monitor's hooks and
 * the access marks' deltas; each bound buffer range is then added (and
 * materialised), and with buffer references every memory with device
 * addresses (addressable, last).  `ranges`: how many ranges will be added
 * at most.  `atomics`: where the module's atomic instructions are.  The
 * graph `command` points to must outlive the mirror.  NULL: out of host
 * memory. */
enum vkmm_strict_atomics {
    VKMM_STRICT_NO_ATOMICS,          /* none: the module's fences synchronize nothing */
    VKMM_STRICT_MONITORED_ATOMICS,   /* all on buffers, images and Workgroup storage, which the monitors see */
    VKMM_STRICT_UNMONITORED_ATOMICS, /* some on private storage */
};
struct vkmm_dispatch_mirror *vkmm_strict_dispatch_begin(struct vkmm_strict *strict,
                                                        const struct vkmm_strict_command *command,
                                                        const struct vkmm_strict_grid *grid, uint32_t ranges,
                                                        bool buffer_references, enum vkmm_strict_atomics atomics,
                                                        struct vkmm_shader_invocation *invocation);
/* `read_access`: what the shader's reads of the range are (UNIFORM_READ,
 * SHADER_SAMPLED_READ, or SHADER_STORAGE_READ for ranges it may write);
 * `read`: false when the shader never reads it (a `writeonly` binding: its
 * bytes need not show what the read path sees). */
void vkmm_strict_dispatch_range(struct vkmm_dispatch_mirror *mirror, struct vkmm_strict_memory *memory,
                                uint64_t offset, uint64_t size, VkAccessFlags2 read_access, bool read);
void vkmm_strict_dispatch_addressable(struct vkmm_dispatch_mirror *mirror);
/* A dispatch in parts (dispatch.c; docs/memory-model.md "A
 * dispatch in parts"): the workgroups of a module without device-memory atomics may run
 * as parts on the device's threads, part 0 under the device monitor the
 * mirror began, part i + 1 under helper monitor i, begun here as that one
 * was, its races going to `races`.  NULL: out of memory (no parts).
 * Helpers are made once per device, at most VKMM_STRICT_MAX_HELPERS. */
#define VKMM_STRICT_MAX_HELPERS 63
struct vkmm_device_races;
struct vkmm_device_monitor *vkmm_strict_dispatch_helper(struct vkmm_dispatch_mirror *mirror, uint32_t index,
                                                        struct vkmm_device_races *races);
/* After the parts ran (each one's levels ended), with nothing recorded by
 * any: true when no part touched bytes another wrote — then the dispatch's
 * accesses are the union of theirs, and finish takes them.  On false,
 * restart must follow. */
bool vkmm_strict_dispatch_join(struct vkmm_dispatch_mirror *mirror, uint32_t helpers);
/* The parts do not stand: every byte any of them wrote is made again what
 * the dispatch's read path gave, and the device monitor begins again, for
 * the dispatch's run in turns on one thread. */
void vkmm_strict_dispatch_restart(struct vkmm_dispatch_mirror *mirror, uint32_t helpers);
/* After it ran: the bytes it marked as read are checked as its reads and
 * those it marked as written become its writes; races between its
 * workgroups are reported.  Frees the mirror. */
void vkmm_strict_dispatch_finish(struct vkmm_dispatch_mirror *mirror);
/* Races between invocations in Workgroup memory that the dispatch's
 * workgroup monitors found: one report per bug. */
void vkmm_strict_report_workgroup_races(struct vkmm_strict *strict, const struct vkmm_strict_command *command,
                                        const struct vkmm_workgroup_races *races);
/* A dispatch the watchdog ended (the device is lost): one report, `text`
 * naming the loop. */
void vkmm_strict_report_lost_dispatch(struct vkmm_strict *strict, const struct vkmm_strict_command *command,
                                      const char *text);
