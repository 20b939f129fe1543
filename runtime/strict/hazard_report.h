/* Where strict mode's hazard reports go (DESIGN §3.4).  Hazards are
 * aggregated into one report per bug: the same kind, the same two program
 * points (command name, its index in its command buffer, where it was
 * recorded) and the same missing operation make one report, however many
 * bytes, ranges, dispatches or submissions show it.  Each report is one JSON
 * line in VKMM_REPORT (a path, appended to, or "stderr") and one message to
 * every VK_EXT_debug_utils messenger, written when the engine call that found
 * it ends; vkDestroyDevice adds a summary with every report's totals.
 * Nothing in a report depends on addresses or timing, so the same program
 * and seed give the same report, byte for byte. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct vkmm_strict;
struct vkmm_mm_hazard;
struct report_entry;
struct report_suppression;

#define VKMM_HAZARD_KINDS 13
#define VKMM_REPORT_BUCKETS 256

struct vkmm_hazard_report {
    FILE *file; /* NULL: no VKMM_REPORT */
    bool owns_file;
    uint64_t hazards;      /* every hazard the engine found, before aggregation */
    uint64_t reports;      /* distinct reports */
    uint64_t left_out;     /* hazards of new reports past the limit */
    uint64_t suppressed;   /* hazards a suppression matched */
    uint64_t limit;        /* VKMM_REPORT_LIMIT: distinct reports per device */
    uint64_t per_kind[VKMM_HAZARD_KINDS]; /* reports per kind */
    struct report_entry *buckets[VKMM_REPORT_BUCKETS];
    struct report_entry *first, *last; /* every report, in the order found */
    struct report_entry *pending;      /* the first report not written yet */
    struct report_suppression *suppressions;
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

/* Reads VKMM_REPORT, VKMM_REPORT_LIMIT and VKMM_SUPPRESS. */
void vkmm_hazard_report_open(struct vkmm_strict *strict);
/* Records one hazard (the memory engine's sink); `place` may be NULL.  The
 * engine lock is held. */
void vkmm_hazard_report_add(struct vkmm_strict *strict, const struct vkmm_mm_hazard *hazard,
                            const struct vkmm_hazard_place *place);
/* Writes the reports found since the last flush.  The engine lock is held:
 * called where the bridge releases it, so a report is out before the
 * application can observe the bug. */
void vkmm_hazard_report_flush(struct vkmm_strict *strict);
/* Flushes, writes the summary, frees everything and closes the file. */
void vkmm_hazard_report_close(struct vkmm_strict *strict);
