/* Where strict mode's hazard reports go (DESIGN §3.4): one JSON line per
 * hazard to VKMM_REPORT (a path, or "stderr"), a message to every
 * VK_EXT_debug_utils messenger, and a summary when the device is
 * destroyed.  Nothing in a report depends on addresses or timing, so the
 * same program and seed give the same report, byte for byte. */
#pragma once

#include <stdint.h>
#include <stdio.h>

struct vkmm_device;
struct vkmm_mm_hazard;

#define VKMM_HAZARD_KINDS 8

struct vkmm_hazard_report {
    FILE *file;        /* NULL: no VKMM_REPORT */
    int owns_file;
    uint64_t count;
    uint64_t per_kind[VKMM_HAZARD_KINDS];
};

void vkmm_hazard_report_open(struct vkmm_hazard_report *report);
/* Records one hazard (the memory engine's sink). */
void vkmm_hazard_report_add(struct vkmm_device *device, const struct vkmm_mm_hazard *hazard);
/* Writes the human summary and closes the file. */
void vkmm_hazard_report_close(struct vkmm_device *device);
