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

/* The application's names for the bytes of a hazard: the memory's debug
 * name and the buffers bound over them (numbered in bind order, each with
 * its debug name and the hazard's offset inside it). */
#define VKMM_HAZARD_MAX_BUFFERS 4
struct vkmm_hazard_buffer {
    uint64_t id;
    const char *name; /* NULL: unnamed */
    uint64_t offset;
};
struct vkmm_hazard_place {
    const char *memory_name; /* NULL: unnamed */
    uint32_t buffer_count;   /* listed, at most VKMM_HAZARD_MAX_BUFFERS */
    struct vkmm_hazard_buffer buffers[VKMM_HAZARD_MAX_BUFFERS];
};

void vkmm_hazard_report_open(struct vkmm_hazard_report *report);
/* Records one hazard (the memory engine's sink); `place` may be NULL. */
void vkmm_hazard_report_add(struct vkmm_device *device, const struct vkmm_mm_hazard *hazard,
                            const struct vkmm_hazard_place *place);
/* Writes the human summary and closes the file. */
void vkmm_hazard_report_close(struct vkmm_device *device);
