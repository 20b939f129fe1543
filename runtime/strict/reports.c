/* The engine's hazards as reports (hazard_report.h writes them): named as
 * the application knows the bytes (names.c), one report per bug. */
#include <string.h>

#include "alloc.h"
#include "bridge.h"

/* A read of never-written bytes, held until the device is idle: if the
 * reader overtook a write earlier in submission order (it ran first), the
 * race report names that mistake and the uninitialised read is its
 * consequence, not a second bug (one report per bug). */
struct vkmm_strict_uninitialized {
    struct vkmm_mm_hazard hazard;
    struct vkmm_hazard_place place;
};
#define MAX_PENDING_UNINITIALIZED 256

/* Holds an uninitialised read; false when there is no room (it is then
 * reported at once). */
static bool hold_uninitialized(struct vkmm_strict *strict, const struct vkmm_mm_hazard *hazard,
                               const struct vkmm_hazard_place *place)
{
    if (strict->uninitialized_count == MAX_PENDING_UNINITIALIZED)
        return false;
    if (!strict->uninitialized)
        strict->uninitialized = vkmm_zalloc(strict->allocator, NULL,
                                            MAX_PENDING_UNINITIALIZED * sizeof(*strict->uninitialized),
                                            VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
    if (!strict->uninitialized)
        return false;
    strict->uninitialized[strict->uninitialized_count++] = (struct vkmm_strict_uninitialized){ *hazard, *place };
    return true;
}

void vkmm_strict_report(struct vkmm_strict *strict, const struct vkmm_mm_hazard *hazard)
{
    struct vkmm_hazard_place place;
    vkmm_strict_describe(strict, hazard, &place);
    bool uninitialized = strcmp(hazard->id, VKMM_MM_HAZARD_UNINITIALIZED_READ) == 0;
    if (uninitialized && !hazard->discarded && hold_uninitialized(strict, hazard, &place))
        return;
    vkmm_hazard_report_add(strict, hazard, &place);
}

void vkmm_strict_report_uninitialized(struct vkmm_strict *strict)
{
    for (uint32_t i = 0; i < strict->uninitialized_count; i++) {
        const struct vkmm_strict_uninitialized *u = &strict->uninitialized[i];
        if (!vkmm_strict_overtaken_writer(strict, &u->hazard))
            vkmm_hazard_report_add(strict, &u->hazard, &u->place);
    }
    strict->uninitialized_count = 0;
}

void vkmm_strict_forget_uninitialized(struct vkmm_strict *strict, const struct vkmm_mm_agent *reader,
                                      uint64_t memory_id)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < strict->uninitialized_count; i++) {
        const struct vkmm_mm_hazard *h = &strict->uninitialized[i].hazard;
        bool same = h->memory_id == memory_id && h->reader_or_second.queue == reader->queue &&
                    h->reader_or_second.submission == reader->submission &&
                    h->reader_or_second.command == reader->command;
        if (!same)
            strict->uninitialized[kept++] = strict->uninitialized[i];
    }
    strict->uninitialized_count = kept;
}
