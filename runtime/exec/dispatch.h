/* Running a recorded dispatch: descriptor tables with dynamic offsets
 * applied, then the workgroups over the device's thread pool, each
 * workgroup's subgroups called in turn until all are done. */
#pragma once

#include <stdint.h>

struct vkmm_command;
struct vkmm_execution;

/* Runs a VKMM_COMMAND_DISPATCH. */
void vkmm_dispatch_execute(struct vkmm_execution *execution, const struct vkmm_command *command);
/* VKMM_DISPATCH_TIMEOUT_MS in nanoseconds (0: no limit), for a new device. */
uint64_t vkmm_dispatch_timeout_ns(void);
