/* Command buffers and the commands recorded into them. */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <vulkan/vulkan.h>

#include "arena.h"
#include "object.h"

struct vkmm_buffer;
struct vkmm_command_pool;
struct vkmm_descriptor_set;
struct vkmm_pipeline;
struct vkmm_event;
struct vkmm_image;
struct vkmm_query_pool;

/* A recorded memory dependency in synchronization2 form; legacy barriers
 * are converted at record time so the executor (and later the memory
 * engine) sees one shape.  pNext chains are not kept. */
/* Bytes an image layout transition from VK_IMAGE_LAYOUT_UNDEFINED
 * discards (one mip level's array layers of the barrier's range): strict
 * mode scrambles them where the transition happens, visible to the
 * barrier's second scope. */
struct vkmm_discard {
    const struct vkmm_buffer *bytes; /* the image's bytes (image.h) */
    VkDeviceSize offset, size;
    VkPipelineStageFlags2 dst_stages;
    VkAccessFlags2 dst_access;
};

struct vkmm_dependency {
    VkDependencyFlags flags;
    uint32_t memory_barrier_count;
    uint32_t buffer_barrier_count;
    uint32_t discard_count;
    VkMemoryBarrier2 *memory_barriers;
    VkBufferMemoryBarrier2 *buffer_barriers;
    struct vkmm_discard *discards;
};

#define VKMM_MAX_BOUND_SETS 8
#define VKMM_MAX_DYNAMIC_PER_SET 32
#define VKMM_PUSH_CONSTANT_BYTES 256

/* What a dispatch uses: bound at record time (vkCmdBind*, vkCmdPushConstants). */
struct vkmm_compute_bindings {
    struct vkmm_pipeline *pipeline;
    struct vkmm_descriptor_set *sets[VKMM_MAX_BOUND_SETS];
    uint32_t dynamic_offsets[VKMM_MAX_BOUND_SETS][VKMM_MAX_DYNAMIC_PER_SET];
    uint8_t push_constants[VKMM_PUSH_CONSTANT_BYTES];
};

struct vkmm_dispatch {
    struct vkmm_compute_bindings bindings; /* snapshot */
    uint32_t base[3];
    uint32_t count[3];
    struct vkmm_buffer *indirect; /* vkCmdDispatchIndirect: counts read when executed */
    VkDeviceSize indirect_offset;
};

enum vkmm_command_type {
    VKMM_COMMAND_COPY_BUFFER,
    VKMM_COMMAND_FILL_BUFFER,
    VKMM_COMMAND_UPDATE_BUFFER,
    VKMM_COMMAND_PIPELINE_BARRIER,
    VKMM_COMMAND_SET_EVENT,
    VKMM_COMMAND_RESET_EVENT,
    VKMM_COMMAND_WAIT_EVENTS,
    VKMM_COMMAND_WRITE_TIMESTAMP,
    VKMM_COMMAND_RESET_QUERY_POOL,
    VKMM_COMMAND_COPY_QUERY_POOL_RESULTS,
    VKMM_COMMAND_EXECUTE_COMMANDS,
    VKMM_COMMAND_BEGIN_LABEL,
    VKMM_COMMAND_END_LABEL,
    VKMM_COMMAND_INSERT_LABEL,
    VKMM_COMMAND_DISPATCH,
    VKMM_COMMAND_BLIT_IMAGE,
};

const char *vkmm_command_type_name(enum vkmm_command_type type);

struct vkmm_command {
    enum vkmm_command_type type;
    uint32_t index; /* position in its command buffer, for reports */
    struct vkmm_command *next;
    union {
        struct {
            struct vkmm_buffer *src, *dst;
            uint32_t region_count;
            VkBufferCopy2 *regions;
        } copy_buffer;
        struct {
            struct vkmm_buffer *dst;
            VkDeviceSize offset, size; /* size already resolved from VK_WHOLE_SIZE */
            uint32_t data;
        } fill_buffer;
        struct {
            struct vkmm_buffer *dst;
            VkDeviceSize offset, size;
            void *data;
        } update_buffer;
        struct {
            struct vkmm_dependency dependency;
        } pipeline_barrier;
        struct {
            struct vkmm_event *event;
            struct vkmm_dependency dependency;
        } set_event;
        struct {
            struct vkmm_event *event;
            VkPipelineStageFlags2 stages;
        } reset_event;
        struct {
            uint32_t event_count;
            struct vkmm_event **events;
            /* One per event (synchronization2) or one for all (legacy). */
            uint32_t dependency_count;
            struct vkmm_dependency *dependencies;
            bool legacy; /* vkCmdWaitEvents: the access masks are only here */
        } wait_events;
        struct {
            struct vkmm_query_pool *pool;
            uint32_t query;
            VkPipelineStageFlags2 stage;
        } write_timestamp;
        struct {
            struct vkmm_query_pool *pool;
            uint32_t first, count;
        } reset_query_pool;
        struct {
            struct vkmm_query_pool *pool;
            uint32_t first, count;
            struct vkmm_buffer *dst;
            VkDeviceSize offset, stride;
            VkQueryResultFlags flags;
        } copy_query_pool_results;
        struct {
            uint32_t count;
            struct vkmm_command_buffer **command_buffers;
        } execute_commands;
        struct {
            char *name;
            float color[4];
        } label;
        struct vkmm_dispatch *dispatch;
        struct {
            struct vkmm_image *src, *dst;
            VkFilter filter;
            uint32_t region_count;
            VkImageBlit2 *regions; /* checked at record time */
        } blit_image;
    } u;
};

/* The entry point that recorded `command`, for reports. */
const char *vkmm_command_name(const struct vkmm_command *command);

enum vkmm_command_buffer_state {
    VKMM_COMMAND_BUFFER_INITIAL,
    VKMM_COMMAND_BUFFER_RECORDING,
    VKMM_COMMAND_BUFFER_EXECUTABLE,
    VKMM_COMMAND_BUFFER_INVALID,
};

struct vkmm_command_buffer {
    struct vkmm_object base;
    struct vkmm_command_pool *pool;
    VkCommandBufferLevel level;
    enum vkmm_command_buffer_state state;
    VkCommandBufferUsageFlags usage;
    /* The first error of a vkCmd* call, returned by vkEndCommandBuffer. */
    VkResult record_result;
    struct vkmm_command *first, *last;
    uint32_t command_count;
    struct vkmm_arena arena;
    struct vkmm_compute_bindings compute; /* recording state */
    /* Submissions not yet completed; guarded by the scheduler lock. */
    uint32_t pending;
    struct vkmm_command_buffer *pool_prev, *pool_next;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_command_buffer, VkCommandBuffer, VK_OBJECT_TYPE_COMMAND_BUFFER)

/* Frees the recorded commands; the command buffer returns to INITIAL. */
void vkmm_command_buffer_reset(struct vkmm_command_buffer *cmd);
void vkmm_command_buffer_destroy(struct vkmm_command_buffer *cmd);
/* Whether a submission of `cmd` has not completed (takes the scheduler
 * lock). */
bool vkmm_command_buffer_is_pending(struct vkmm_command_buffer *cmd);
/* Freeing a pending command buffer is invalid (VUID `vuid`) and would free
 * commands a queue still runs: waits a bounded time for it to complete,
 * with an error message.  Returns false, with another message, if it is
 * still pending: the caller must then keep it (a leak, not a crash). */
bool vkmm_command_buffer_settle_before_free(struct vkmm_command_buffer *cmd, const char *vuid);
/* Scheduler lock held: one submission of `cmd` has executed. */
void vkmm_command_buffer_complete_locked(struct vkmm_command_buffer *cmd);

/* Appends a zeroed command of `type`; returns NULL (and records
 * VK_ERROR_OUT_OF_HOST_MEMORY for vkEndCommandBuffer) when out of memory. */
struct vkmm_command *vkmm_command_buffer_append(struct vkmm_command_buffer *cmd,
                                                enum vkmm_command_type type);
/* Invalid usage that vkmm makes harmless without dropping the command:
 * an error message with the spec's VUID. */
void vkmm_command_buffer_invalid(struct vkmm_command_buffer *cmd, const char *vuid, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/* Logs an invalid-usage message about a vkCmd* call whose command is then
 * dropped, so a bad argument never makes the executor touch memory outside
 * a buffer. */
void vkmm_command_buffer_reject(struct vkmm_command_buffer *cmd, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
/* Arena storage for a command's payload; NULL (error recorded) on failure.
 * `source` (may be NULL) is copied in. */
void *vkmm_command_buffer_store(struct vkmm_command_buffer *cmd, const void *source, size_t size);
