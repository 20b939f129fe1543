/* The executor: what each recorded command does when the scheduler runs
 * it.  One handle_<command>() per command type. */
#pragma once

struct vkmm_command_buffer;
struct vkmm_device;
struct vkmm_queue;
struct vkmm_scheduler;
struct vkmm_submission;

struct vkmm_execution {
    struct vkmm_device *device;
    struct vkmm_scheduler *scheduler;
    struct vkmm_queue *queue;
    struct vkmm_submission *submission;
};

void vkmm_execute_command_buffer(struct vkmm_execution *execution, struct vkmm_command_buffer *cmd);
