/* The executor: what each recorded command does when the scheduler runs
 * it.  One handle_<command>() per command type. */
#pragma once

struct vkmm_command_buffer;
struct vkmm_command_graph;
struct vkmm_device;
struct vkmm_queue;
struct vkmm_scheduler;
struct vkmm_submission;

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

struct vkmm_command;

struct vkmm_execution {
    struct vkmm_device *device;
    struct vkmm_scheduler *scheduler;
    struct vkmm_queue *queue;
    struct vkmm_submission *submission;
    /* Whether a command may block its thread (vkCmdWaitEvents on an unset
     * event): yes on a queue's own worker; no when the scheduler runs work
     * inside a host call, where the submission stops instead and resumes
     * later. */
    bool may_block;
    /* Strict mode: the running command's place in its queue's command
     * graph (submission order), for the order checks. */
    uint32_t position;
    struct vkmm_command_graph *graph; /* strict mode: the queue's graph; NULL when run in order */
    const char *where; /* strict mode: the command's place as the application named it, or NULL */
};

/* Where a submission's execution stands, so that it can stop at a
 * vkCmdWaitEvents and resume there.  Zero-initialised = not started. */
struct vkmm_execution_cursor {
    uint32_t buffer;                  /* index into the submission's command buffers */
    bool buffer_started;
    const struct vkmm_command *next;  /* next command of that buffer */
    uint32_t secondary;               /* inside vkCmdExecuteCommands: index of the secondary */
    bool secondary_started;
    const struct vkmm_command *next_inner;
};

enum vkmm_execution_result {
    VKMM_EXECUTION_DONE,
    VKMM_EXECUTION_BLOCKED, /* stopped at a vkCmdWaitEvents whose events are not all set */
    VKMM_EXECUTION_PAUSED,  /* strict mode: the waiting host call's time was up (more can run) */
};

/* Strict mode's command graph runs one command at a time. */
void vkmm_execute_command(struct vkmm_execution *execution, const struct vkmm_command *command);
/* Scheduler lock held: whether `command` can run now (a vkCmdWaitEvents
 * only once its events are set). */
bool vkmm_command_runnable_locked(const struct vkmm_command *command);

/* Strict mode: the running command as the bridge knows it (strict/strict.h):
 * its agent and its queue's graph, viewed through `graph` (which must live
 * as long as `out` is used). */
struct vkmm_strict_command;
struct vkmm_strict_graph;
void vkmm_execution_strict_command(const struct vkmm_execution *execution, const struct vkmm_command *command,
                                   struct vkmm_strict_graph *graph, struct vkmm_strict_command *out);
/* Strict mode: a command's read of [offset, offset + size) of a buffer
 * through its (stage, access) path, or its write; memory strict mode does
 * not emulate is read and written as it is. */
struct vkmm_buffer;
void vkmm_execution_strict_read(struct vkmm_execution *execution, const struct vkmm_command *command,
                                struct vkmm_buffer *buffer, VkDeviceSize offset, VkDeviceSize size,
                                VkPipelineStageFlags2 stage, VkAccessFlags2 access, void *out);
void vkmm_execution_strict_write(struct vkmm_execution *execution, const struct vkmm_command *command,
                                 struct vkmm_buffer *buffer, VkDeviceSize offset, VkDeviceSize size,
                                 VkPipelineStageFlags2 stage, VkAccessFlags2 access, const void *data);

/* Runs the submission's command buffers from `cursor` on. */
enum vkmm_execution_result vkmm_execute_submission(struct vkmm_execution *execution,
                                                   struct vkmm_execution_cursor *cursor);
