/* What a command may touch, memory by memory: the scheduler's over-
 * approximation of a command's accesses, known before it runs.  Strict mode
 * uses it so that a seed never picks the benign order of two commands that
 * may conflict (DESIGN §3 "Manifest": seeds choose which wrong result,
 * never none). */
#pragma once

#include <stdbool.h>
#include <stdint.h>

struct vkmm_command;
struct vkmm_device_memory;

#define VKMM_FOOTPRINT_MEMORIES 8

struct vkmm_footprint {
    bool known;      /* computed */
    bool everything; /* buffer references, or more memories than listed */
    uint32_t count;
    const struct vkmm_device_memory *memories[VKMM_FOOTPRINT_MEMORIES];
    bool writes[VKMM_FOOTPRINT_MEMORIES];
};

/* The footprint of `command` (NULL: a node that touches no memory).
 * `indirect_only`: the argument read of an indirect dispatch alone. */
void vkmm_command_footprint(const struct vkmm_command *command, bool indirect_only, struct vkmm_footprint *out);

/* Whether two commands may touch one memory, at least one of them writing. */
bool vkmm_footprints_conflict(const struct vkmm_footprint *a, const struct vkmm_footprint *b);
