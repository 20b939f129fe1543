/* Running a recorded dispatch: descriptor tables with dynamic offsets
 * applied, then the workgroups over the device's thread pool, each
 * workgroup's subgroups called in turn until all are done. */
#pragma once

struct vkmm_command;
struct vkmm_execution;

/* Runs a VKMM_COMMAND_DISPATCH. */
void vkmm_dispatch_execute(struct vkmm_execution *execution, const struct vkmm_command *command);
