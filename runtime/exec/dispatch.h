/* Running a recorded dispatch: descriptor tables with dynamic offsets
 * applied, then the workgroups over the device's thread pool, each
 * workgroup's subgroups called in turn until all are done. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

struct vkmm_command;
struct vkmm_execution;

/* Runs a VKMM_COMMAND_DISPATCH. */
void vkmm_dispatch_execute(struct vkmm_execution *execution, const struct vkmm_command *command);
/* VKMM_DISPATCH_TIMEOUT_MS in nanoseconds (0: no limit), for a new device. */
uint64_t vkmm_dispatch_timeout_ns(void);
/* VKMM_STRICT_PARTS: false when it is 0 (strict mode runs every dispatch in
 * turns on one thread). */
bool vkmm_dispatch_parts_allowed(void);
