/* A dispatch's accesses (strict.h).  Before it runs, the device bytes of
 * its bound ranges are made to hold what its read paths see; the
 * device-memory monitor records what the shader really reads and writes
 * (device_monitor.h), and afterwards exactly those bytes become its
 * accesses (DESIGN §3 "Exact accesses").
 * Races between its invocations, found by the device-memory monitor
 * (device_monitor.h) and the workgroup monitors (workgroup_monitor.h), are
 * reported here in shader terms. */
#include <stdio.h>
#include <string.h>

#include "address_space.h"
#include "alloc.h"
#include "bridge.h"
#include "device_monitor.h"
#include "dispatch_levels.h"
#include "happens_before.h"
#include "shader_abi.h"
#include "vkmm/vkmm.h"
#include "workgroup_monitor.h"

/* One bound range of device memory a dispatch may touch. */
struct mirrored_range {
    struct vkmm_strict_memory *memory;
    uint64_t offset, size;
    VkAccessFlags2 read_access; /* the access its shader reads go through */
    bool storage;               /* may be written (read as SHADER_STORAGE_READ) */
    /* The granules where checking a read could report, as the peek found
     * them (vkmm_mm_peek_marking); they stand while the memory's changes
     * count does.  NULL: check every read byte. */
    uint64_t *suspect;
    uint64_t changes;
    bool peeked; /* the bytes were made what the read path sees (not for a range the shader never reads) */
    /* Its write runs, kept while its reads were taken (the writes are taken
     * after every range's reads); `unkept`: some did not fit, scan again. */
    uint64_t (*writes)[2];
    uint32_t write_count, write_capacity;
    bool unkept;
};

struct vkmm_dispatch_mirror {
    struct vkmm_strict *strict;
    struct vkmm_strict_command command;
    struct vkmm_strict_grid grid;
    struct vkmm_device_races races; /* the device-memory monitor's finds */
    enum vkmm_strict_atomics atomics; /* where the module's atomic instructions are */
    uint32_t count, capacity;
    struct mirrored_range ranges[];
};

/* --- Before the dispatch ------------------------------------------------------- */

/* The device-memory monitor asks what bytes held before the dispatch: what
 * the dispatch's read path gave (the engine is unchanged until finish). */
static void peek_before_dispatch(void *user, uint64_t offset, uint64_t size, uint8_t *out)
{
    struct vkmm_dispatch_mirror *mirror = user;
    struct vkmm_strict *strict = mirror->strict;
    const uint8_t *at = (const uint8_t *)strict->space->base + offset;
    memcpy(out, at, size); /* bytes outside every range: as they are */
    for (uint32_t i = 0; i < mirror->count; i++) {
        const struct mirrored_range *r = &mirror->ranges[i];
        const uint8_t *begin = r->memory->bytes + r->offset;
        if (at < begin || at + size > begin + r->size)
            continue;
        vkmm_strict_lock_device(strict);
        vkmm_strict_command_read(strict, &mirror->command, r->memory, r->offset + (uint64_t)(at - begin), size,
                                 VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, r->read_access, out, false);
        vkmm_strict_unlock(strict);
        return;
    }
}

static uint32_t count_addressable(struct vkmm_strict *strict)
{
    uint32_t count = 0;
    vkmm_strict_lock_device(strict);
    for (const struct vkmm_strict_memory *m = strict->addressable; m; m = m->addressable_next)
        count++;
    vkmm_strict_unlock(strict);
    return count;
}

/* Words of a range's suspect bitmap: one bit per granule it touches. */
static uint64_t suspect_words(uint64_t offset, uint64_t size)
{
    uint64_t granules = size ? (offset + size - 1) / VKMM_MM_GRANULE_BYTES - offset / VKMM_MM_GRANULE_BYTES + 1 : 0;
    return (granules + 63) / 64;
}

/* Do the bytes of [offset, offset + size) already hold what a peek through
 * `read_access` would place, with nothing to check?  A dispatch that only
 * reads a buffer the engine has not changed since the last one read it
 * (a streaming kernel's inputs, again and again) skips the copy and the
 * comparison. */
static bool already_mirrored(const struct vkmm_strict_memory *memory, uint64_t offset, uint64_t size,
                             VkAccessFlags2 read_access)
{
    return memory->mirror_end && memory->mirror_access == read_access && offset >= memory->mirror_begin &&
           offset + size <= memory->mirror_end && vkmm_mm_memory_changes(memory->mm) == memory->mirror_changes;
}

/* After the dispatch took its accesses: a storage range none of whose
 * bytes it wrote (through any binding: the scan goes by address), whose
 * peek left nothing to check, stays as the peek placed it until the engine
 * changes the memory (its changes count) or another peek rewrites it.  Not
 * after a race inside the dispatch (the levels and the monitor may have
 * moved bytes). */
static void note_mirrored(const struct vkmm_dispatch_mirror *mirror, const struct mirrored_range *r)
{
    if (!r->peeked || !r->storage || !r->suspect || r->write_count || r->unkept || mirror->races.count ||
        mirror->races.more)
        return; /* a uniform range's writes are not scanned: another binding may have written its bytes */
    for (uint64_t i = 0; i < suspect_words(r->offset, r->size); i++)
        if (r->suspect[i])
            return;
    struct vkmm_strict_memory *memory = r->memory;
    memory->mirror_changes = vkmm_mm_memory_changes(memory->mm);
    memory->mirror_begin = r->offset;
    memory->mirror_end = r->offset + r->size;
    memory->mirror_access = r->read_access;
}

/* Lock held.  Adds a range and materialises what its read path sees into
 * the device bytes the shader runs on.  Nothing is recorded or reported
 * yet. */
static void mirror_range(struct vkmm_dispatch_mirror *mirror, struct vkmm_strict_memory *memory, uint64_t offset,
                         uint64_t size, VkAccessFlags2 read_access, bool read)
{
    if (mirror->count == mirror->capacity)
        return;
    struct mirrored_range *r = &mirror->ranges[mirror->count++];
    *r = (struct mirrored_range){ .memory = memory, .offset = offset, .size = size, .read_access = read_access,
                                  .storage = read_access == VK_ACCESS_2_SHADER_STORAGE_READ_BIT };
    r->suspect = vkmm_zalloc(mirror->strict->allocator, NULL, suspect_words(offset, size) * sizeof(uint64_t),
                             VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    /* Host writes made since the submission (ordered before this dispatch
     * by a host signal, or racing with it) count as changes: taken first. */
    vkmm_mm_take_host_writes(mirror->strict->engine, memory->mm, offset, size);
    r->changes = vkmm_mm_memory_changes(memory->mm);
    if (!read && r->suspect)
        return; /* never read: only its writes are taken */
    r->peeked = true;
    if (r->suspect && already_mirrored(memory, offset, size, read_access))
        return; /* the bytes are what the peek would place, nothing to check */
    memory->mirror_end = 0; /* the peek rewrites bytes, perhaps with an older version */
    vkmm_strict_command_peek_marking(mirror->strict, &mirror->command, memory, offset, size,
                                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, read_access, memory->bytes + offset,
                                     r->suspect);
}

/* A monitor begins the dispatch: its races go to `races`, the bytes from
 * before it come from the mirror. */
static void begin_monitor(struct vkmm_dispatch_mirror *mirror, struct vkmm_device_monitor *monitor,
                          struct vkmm_device_races *races)
{
    const struct vkmm_strict_grid *grid = &mirror->grid;
    vkmm_device_monitor_begin(monitor, races, peek_before_dispatch, mirror, vkmm_seed(), grid->subgroup_width);
    uint64_t invocations = (uint64_t)grid->local_size[0] * grid->local_size[1] * grid->local_size[2];
    uint64_t width = grid->subgroup_width ? grid->subgroup_width : invocations;
    vkmm_device_monitor_subgroups(monitor, width ? (uint32_t)((invocations + width - 1) / width) : 0);
    if (mirror->atomics == VKMM_STRICT_NO_ATOMICS)
        vkmm_device_monitor_no_atomics(monitor);
    if (mirror->atomics == VKMM_STRICT_UNMONITORED_ATOMICS)
        vkmm_device_monitor_unmonitored_atomics(monitor);
}

struct vkmm_dispatch_mirror *vkmm_strict_dispatch_begin(struct vkmm_strict *strict,
                                                        const struct vkmm_strict_command *command,
                                                        const struct vkmm_strict_grid *grid, uint32_t ranges,
                                                        bool buffer_references, enum vkmm_strict_atomics atomics,
                                                        struct vkmm_shader_invocation *invocation)
{
    uint32_t addressable = buffer_references ? count_addressable(strict) : 0;
    uint32_t capacity = ranges + addressable;
    struct vkmm_dispatch_mirror *mirror = vkmm_zalloc(strict->allocator, NULL,
                                                      sizeof(*mirror) + capacity * sizeof(struct mirrored_range),
                                                      VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    if (!mirror)
        return NULL;
    mirror->strict = strict;
    mirror->command = *command;
    mirror->grid = *grid;
    mirror->capacity = capacity;
    mirror->atomics = atomics;
    invocation->device_monitor = strict->device_monitor;
    invocation->device_access = vkmm_device_monitor_access;
    invocation->device_fence = vkmm_device_monitor_fence;
    begin_monitor(mirror, strict->device_monitor, &mirror->races);
    return mirror;
}

/* --- A dispatch in parts ------------------------------------------------------- */

struct vkmm_device_monitor *vkmm_strict_dispatch_helper(struct vkmm_dispatch_mirror *mirror, uint32_t index,
                                                        struct vkmm_device_races *races)
{
    struct vkmm_strict *strict = mirror->strict;
    if (index >= VKMM_STRICT_MAX_HELPERS)
        return NULL;
    struct vkmm_device_monitor *helper = strict->helpers[index];
    if (!helper) {
        helper = vkmm_device_monitor_create(strict->space->base, strict->space->size);
        if (!helper)
            return NULL;
        vkmm_dispatch_levels_set_common_fences(
            vkmm_device_monitor_levels(helper),
            vkmm_dispatch_levels_common_fences(vkmm_device_monitor_levels(strict->device_monitor)));
        strict->helpers[index] = helper;
    }
    begin_monitor(mirror, helper, races);
    return helper;
}

bool vkmm_strict_dispatch_join(struct vkmm_dispatch_mirror *mirror, uint32_t helpers)
{
    struct vkmm_strict *strict = mirror->strict;
    if (mirror->races.count || mirror->races.more)
        return false;
    for (uint32_t i = 0; i < mirror->count; i++) {
        const struct mirrored_range *r = &mirror->ranges[i];
        if (!vkmm_device_monitor_settle(strict->device_monitor, strict->helpers, helpers, r->memory->bytes + r->offset,
                                        r->size))
            return false;
    }
    vkmm_device_monitor_join(strict->device_monitor, strict->helpers, helpers);
    return true;
}

struct undo {
    struct vkmm_dispatch_mirror *mirror;
    const struct mirrored_range *range;
};

/* A run of bytes a part wrote gets back what the read path gave. */
static void undo_run(void *user, uint64_t offset, uint64_t length)
{
    struct undo *u = user;
    const struct mirrored_range *r = u->range;
    vkmm_strict_command_read(u->mirror->strict, &u->mirror->command, r->memory, r->offset + offset, length,
                             VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, r->read_access,
                             r->memory->bytes + r->offset + offset, false);
}

void vkmm_strict_dispatch_restart(struct vkmm_dispatch_mirror *mirror, uint32_t helpers)
{
    struct vkmm_strict *strict = mirror->strict;
    vkmm_strict_lock_device(strict);
    for (uint32_t i = 0; i < mirror->count; i++) {
        struct undo u = { mirror, &mirror->ranges[i] };
        uint8_t *bytes = mirror->ranges[i].memory->bytes + mirror->ranges[i].offset;
        vkmm_device_monitor_scan(strict->device_monitor, bytes, mirror->ranges[i].size, NULL, undo_run, &u);
        for (uint32_t h = 0; h < helpers; h++) {
            vkmm_device_monitor_scan(strict->helpers[h], bytes, mirror->ranges[i].size, NULL, undo_run, &u);
            vkmm_device_monitor_clear(strict->helpers[h], bytes, mirror->ranges[i].size);
        }
    }
    vkmm_strict_unlock(strict);
    memset(&mirror->races, 0, sizeof(mirror->races));
    begin_monitor(mirror, strict->device_monitor, &mirror->races);
}

void vkmm_strict_dispatch_range(struct vkmm_dispatch_mirror *mirror, struct vkmm_strict_memory *memory,
                                uint64_t offset, uint64_t size, VkAccessFlags2 read_access, bool read)
{
    if (offset >= memory->size)
        return;
    size = size < memory->size - offset ? size : memory->size - offset;
    vkmm_strict_lock_device(mirror->strict);
    mirror_range(mirror, memory, offset, size, read_access, read);
    vkmm_strict_unlock(mirror->strict);
}

/* A buffer reference may reach any memory allocated for device addresses:
 * all of it is materialised, as storage. */
void vkmm_strict_dispatch_addressable(struct vkmm_dispatch_mirror *mirror)
{
    vkmm_strict_lock_device(mirror->strict);
    for (struct vkmm_strict_memory *m = mirror->strict->addressable; m; m = m->addressable_next)
        mirror_range(mirror, m, 0, m->size, VK_ACCESS_2_SHADER_STORAGE_READ_BIT, true);
    vkmm_strict_unlock(mirror->strict);
}

/* --- After the dispatch: its exact accesses ------------------------------------ */

/* The accessed runs of one range, taken as the dispatch's reads or writes.
 * Each run is one engine access (reads are checked against what the read
 * path gives, writes go into the shader-write path); the range gets one
 * access record for the span of its runs — a scattered access (every other
 * word) would otherwise record thousands, each checked against all others. */
struct accessed_runs {
    struct vkmm_strict *strict;
    struct mirrored_range *range;
    const struct vkmm_strict_command *command;
    bool write;
    /* Reads: the bytes a command later in submission order already wrote.
     * The shader saw that write (vkmm_strict_command_read, unchecked); the
     * race is reported once, with the span's record, not as a stale read
     * too. */
    struct vkmm_strict_race races[VKMM_STRICT_MAX_RACES];
    uint32_t race_count;
    uint8_t scratch[4096]; /* what a checked read returns: the shader already had it */
    uint64_t first, end;
};

/* Checks the read of [at, end) through the read path, in pieces. */
static void check_read_all(struct accessed_runs *w, uint64_t at, uint64_t end)
{
    const struct mirrored_range *r = w->range;
    VkAccessFlags2 access = r->read_access;
    while (at < end) {
        uint64_t n = end - at < sizeof(w->scratch) ? end - at : sizeof(w->scratch);
        vkmm_mm_read(w->strict->engine, r->memory->mm, at, n, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, access,
                     &w->command->agent, w->scratch);
        at += n;
    }
}

static bool suspect_granule(const struct mirrored_range *r, uint64_t g)
{
    uint64_t bit = g - r->offset / VKMM_MM_GRANULE_BYTES;
    return r->suspect[bit / 64] >> (bit % 64) & 1;
}

/* Checks the read of [at, end): only the granules the peek marked, when
 * nothing changed the memory since (the others would report nothing). */
static void check_read(struct accessed_runs *w, uint64_t at, uint64_t end)
{
    const struct mirrored_range *r = w->range;
    if (!r->suspect || vkmm_mm_memory_changes(r->memory->mm) != r->changes) {
        check_read_all(w, at, end);
        return;
    }
    const uint64_t G = VKMM_MM_GRANULE_BYTES;
    for (uint64_t g = at / G; g * G < end;) {
        if (!suspect_granule(r, g)) {
            g++;
            continue;
        }
        uint64_t first = g;
        while (g * G < end && suspect_granule(r, g))
            g++;
        uint64_t begin = first * G > at ? first * G : at, stop = g * G < end ? g * G : end;
        check_read_all(w, begin, stop);
    }
}

/* The read of [at, end) outside the races. */
static void check_read_outside_races(struct accessed_runs *w, uint64_t at, uint64_t end)
{
    for (uint32_t i = 0; i < w->race_count && at < end; i++) {
        const struct vkmm_strict_race *race = &w->races[i];
        if (race->end <= at || race->begin >= end)
            continue;
        if (race->begin > at)
            check_read(w, at, race->begin);
        at = race->end;
    }
    if (at < end)
        check_read(w, at, end);
}

static void take_run(void *user, uint64_t offset, uint64_t length)
{
    struct accessed_runs *w = user;
    const struct mirrored_range *r = w->range;
    uint64_t at = r->offset + offset;
    if (w->write) {
        vkmm_mm_write(w->strict->engine, r->memory->mm, at, length, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, &w->command->agent, r->memory->bytes + at);
    } else {
        check_read_outside_races(w, at, at + length);
    }
    w->first = w->first < at ? w->first : at;
    w->end = w->end > at + length ? w->end : at + length;
}

/* Write runs kept per range: past this many (a scattered write pattern),
 * the range's writes are found by a second scan instead. */
#define MAX_KEPT_WRITE_RUNS (1u << 20)

/* A write run found while the reads were scanned, kept for later. */
static void keep_write_run(void *user, uint64_t offset, uint64_t length)
{
    struct accessed_runs *w = user;
    struct mirrored_range *r = w->range;
    if (r->unkept)
        return;
    if (r->write_count == r->write_capacity) {
        uint32_t capacity = r->write_capacity ? r->write_capacity * 2 : 16;
        uint64_t(*grown)[2] = capacity > r->write_capacity && capacity <= MAX_KEPT_WRITE_RUNS
                                  ? vkmm_zalloc(w->strict->allocator, NULL, capacity * sizeof(*r->writes),
                                                VK_SYSTEM_ALLOCATION_SCOPE_COMMAND)
                                  : NULL;
        if (!grown) {
            r->unkept = true; /* the writes are scanned again */
            return;
        }
        if (r->write_count)
            memcpy(grown, r->writes, r->write_count * sizeof(*r->writes));
        vkmm_free(w->strict->allocator, NULL, r->writes);
        r->writes = grown;
        r->write_capacity = capacity;
    }
    r->writes[r->write_count][0] = offset;
    r->writes[r->write_count][1] = length;
    r->write_count++;
}

/* Lock held.  The range's reads (and, kept for the second call, its write
 * runs), or its writes. */
static void take_accesses(struct vkmm_dispatch_mirror *mirror, struct mirrored_range *r, bool write,
                          struct accessed_runs *w)
{
    struct vkmm_strict *strict = mirror->strict;
    const struct vkmm_strict_command *command = &mirror->command;
    *w = (struct accessed_runs){ .strict = strict, .range = r, .command = command, .write = write, .first = UINT64_MAX };
    VkAccessFlags2 read_access = r->read_access;
    const uint8_t *bytes = r->memory->bytes + r->offset;
    if (!write) {
        struct vkmm_strict_access whole = { r->memory->id, r->offset, r->size, false,
                                            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, read_access, command->agent, false };
        w->race_count = vkmm_strict_check_access(strict, &whole, w->races, false, command->graph);
        vkmm_device_monitor_scan_spread(strict->device_monitor, bytes, r->size, take_run,
                                        r->storage ? keep_write_run : NULL, w, strict->hooks.parallel,
                                        strict->hooks.user);
    } else if (r->unkept) {
        vkmm_device_monitor_scan_spread(strict->device_monitor, bytes, r->size, NULL, take_run, w,
                                        strict->hooks.parallel, strict->hooks.user);
    } else {
        for (uint32_t i = 0; i < r->write_count; i++)
            take_run(w, r->writes[i][0], r->writes[i][1]);
    }
    if (w->first == UINT64_MAX)
        return;
    VkAccessFlags2 access = write ? VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT : read_access;
    struct vkmm_strict_access span = { r->memory->id, w->first, w->end - w->first, write,
                                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, access, command->agent, false };
    vkmm_strict_check_access(strict, &span, NULL, true, command->graph);
}

/* --- Races between workgroups -------------------------------------------------- */

/* "`data` (OpLoad, line 14)" as the verb for a report. */
static const char *device_race_verb(const struct vkmm_device_race_access *side)
{
    if (side->atomic)
        return side->write ? "atomic write" : "atomic read";
    return side->write ? (side->private_ ? "write" : "coherent write") : (side->private_ ? "read" : "coherent read");
}

/* "invocation (3,0,0) of workgroup (1,0,0)" (gl_LocalInvocationID,
 * gl_WorkGroupID), or the workgroup alone when the monitor does not know
 * the invocation. */
static void device_race_workgroup(char *out, size_t size, const struct vkmm_strict_grid *grid,
                                  const struct vkmm_device_race_access *side)
{
    uint32_t index = side->workgroup;
    if (index == UINT32_MAX) {
        snprintf(out, size, "several workgroups");
        return;
    }
    char invocation[64] = "";
    uint32_t lx = grid->local_size[0], ly = grid->local_size[1];
    if (side->invocation != UINT32_MAX && lx && ly)
        snprintf(invocation, sizeof(invocation), "invocation (%u,%u,%u) of ", side->invocation % lx,
                 side->invocation / lx % ly, side->invocation / lx / ly);
    uint32_t cx = grid->count[0], cy = grid->count[1];
    if (!cx || !cy)
        snprintf(out, size, "%sworkgroup #%u", invocation, index);
    else
        snprintf(out, size, "%sworkgroup (%u,%u,%u)", invocation, grid->base[0] + index % cx,
                 grid->base[1] + index / cx % cy, grid->base[2] + index / cx / cy);
}

/* A read inside the dispatch returned bytes older than another
 * invocation's write (the subgroup and workgroup domains,
 * dispatch_levels.h): nothing made the write available and visible to the
 * reader, so the two are unsynchronized (DESIGN §3.4 "stale read"). */
static void describe_stale_read(const struct vkmm_strict_grid *grid, const struct vkmm_device_race *r,
                                struct vkmm_mm_hazard *hazard)
{
    hazard->id = VKMM_MM_HAZARD_DISPATCH_STALE_READ;
    if (r->made_available) {
        /* 000 "Synchronizes-With": a release and an acquire synchronize
         * only when each one's scope holds both invocations. */
        snprintf(hazard->missing, sizeof(hazard->missing),
                 "the read of %s missed the write of %s by another invocation: the write was made available at "
                 "Device scope, but no release after it orders it before the read (a relaxed flag, a "
                 "release/acquire at Workgroup scope across workgroups, or semantics without UniformMemory); "
                 "release with gl_StorageSemanticsBuffer at a scope holding both invocations after the write, "
                 "and acquire likewise before the read",
                 r->later.text, r->earlier.text);
    } else {
        snprintf(hazard->missing, sizeof(hazard->missing),
             "the read of %s missed the write of %s by another invocation%s: make the write available and the "
             "read visible at a scope holding both (Device across workgroups) - MakeAvailable/MakeVisible on the "
             "release/acquire, or devicecoherent - with semantics naming UniformMemory (barrier() covers only "
             "shared memory)",
             r->later.text, r->earlier.text,
             r->held ? " (still in the writer's cache)" : " (the reader used its stale copy)");
    }
    char writer[112], reader[112];
    device_race_workgroup(writer, sizeof(writer), grid, &r->earlier);
    device_race_workgroup(reader, sizeof(reader), grid, &r->later);
    snprintf(hazard->example, sizeof(hazard->example), "%s wrote, %s read first; %llu bytes read stale", writer,
             reader, (unsigned long long)r->bytes);
}

/* A workgroup-scope atomic read-modify-write updated its workgroup's copy
 * while another workgroup changed the bytes: atomics whose scope does not
 * hold both invocations are not ordered with each other (DESIGN §3.2), and
 * one update was lost. */
static void describe_lost_update(const struct vkmm_strict_grid *grid, const struct vkmm_device_race *r,
                                 struct vkmm_mm_hazard *hazard)
{
    hazard->id = VKMM_MM_HAZARD_DISPATCH_LOST_UPDATE;
    if (r->subgroup_scope)
        snprintf(hazard->missing, sizeof(hazard->missing),
                 "the atomic %s has Subgroup scope, but another subgroup of its workgroup changed the same bytes "
                 "(%s): atomics whose scope does not hold both invocations are not ordered, and one update was "
                 "lost; use gl_ScopeWorkgroup (or wider) for atomics shared by subgroups",
                 r->earlier.text, r->later.text);
    else
        snprintf(hazard->missing, sizeof(hazard->missing),
                 "the atomic %s has Workgroup scope, but another workgroup changed the same bytes (%s): atomics "
                 "whose scope does not hold both invocations are not ordered, and one update was lost; use Device "
                 "scope (gl_ScopeDevice / gl_ScopeQueueFamily) for atomics shared across workgroups",
                 r->earlier.text, r->later.text);
    char atomic[112], other[112];
    device_race_workgroup(atomic, sizeof(atomic), grid, &r->earlier);
    device_race_workgroup(other, sizeof(other), grid, &r->later);
    if (r->subgroup_scope)
        snprintf(hazard->example, sizeof(hazard->example), "the copy of %s's subgroup went out over another subgroup's "
                 "change", atomic);
    else
        snprintf(hazard->example, sizeof(hazard->example), "%s's copy went out over %s's change", atomic, other);
}

/* Private accesses of different agents (invocations of different
 * workgroups, or different invocations of one workgroup) to the same
 * bytes: nothing the shader does can order them (000 "Private vs.
 * Non-Private": only system-synchronizes-with, between commands, does). */
static void describe_private_race(const struct vkmm_strict_grid *grid, const struct vkmm_device_race *r,
                                  struct vkmm_mm_hazard *hazard)
{
    bool neither = r->earlier.private_ && r->later.private_;
    bool one_workgroup = r->earlier.workgroup != UINT32_MAX && r->earlier.workgroup == r->later.workgroup;
    const char *which = neither ? "both are" : r->earlier.private_ ? "the first is" : "the second is";
    if (r->in_place_update)
        snprintf(hazard->missing, sizeof(hazard->missing),
                 "an in-place update: each invocation makes the %s of %s before the %s of %s, but nothing orders "
                 "one invocation's read before another's write of the same bytes (%s), so a neighbour that runs "
                 "first overwrites the value before it is read; read from one buffer and write another, or, "
                 "inside one workgroup, put barrier() between the read and the write (with the buffer coherent "
                 "and memoryBarrierBuffer() before it)",
                 device_race_verb(&r->earlier), r->earlier.text, device_race_verb(&r->later), r->later.text,
                 one_workgroup ? "different invocations of one workgroup" : "different workgroups of one dispatch");
    else if (one_workgroup)
        snprintf(hazard->missing, sizeof(hazard->missing),
                 "the %s of %s and the %s of %s by different invocations of one workgroup cannot be synchronized: "
                 "%s private (not coherent, no NonPrivatePointer, not atomic), and barriers do not order private "
                 "accesses of two invocations; declare the buffer coherent and keep memoryBarrierBuffer(); "
                 "barrier() between them (or use atomics)",
                 device_race_verb(&r->earlier), r->earlier.text, device_race_verb(&r->later), r->later.text, which);
    else
        snprintf(hazard->missing, sizeof(hazard->missing),
                 "the %s of %s and the %s of %s by different workgroups of one dispatch cannot be synchronized: "
                 "%s private (not coherent, no NonPrivatePointer, not atomic), and private accesses never reach "
                 "another workgroup inside a command; declare the buffer coherent (or use atomics) and "
                 "synchronize with release/acquire, or split the work into two dispatches with a barrier between",
                 device_race_verb(&r->earlier), r->earlier.text, device_race_verb(&r->later), r->later.text, which);
    char first[112], second[112];
    device_race_workgroup(first, sizeof(first), grid, &r->earlier);
    device_race_workgroup(second, sizeof(second), grid, &r->later);
    snprintf(hazard->example, sizeof(hazard->example), "%s (%s) and %s (%s) first; %llu byte accesses raced", first,
             device_race_verb(&r->earlier), second, device_race_verb(&r->later), (unsigned long long)r->bytes);
}

/* Non-private accesses of two workgroups, at least one a write, that no
 * synchronizes-with orders (000 "Data Race"; happens_before.h).  The hint
 * says what the two workgroups did instead. */
static void describe_unordered_race(const struct vkmm_strict_grid *grid, const struct vkmm_device_race *r,
                                    struct vkmm_mm_hazard *hazard)
{
    static const char *const hints[] = {
        [VKMM_UNORDERED_NO_SYNC] =
            "nothing orders workgroups of one dispatch (barrier() and memoryBarrier*() work inside a workgroup "
            "only); hand the data over through an atomic flag with release/acquire at Device scope, or split the "
            "work into two dispatches with a pipeline barrier between",
        [VKMM_UNORDERED_RELAXED] =
            "the atomics between the workgroups do not order them (relaxed, or the acquire did not read what the "
            "release wrote); release after the write (gl_SemanticsRelease, or memoryBarrierBuffer() before the "
            "atomic store) and acquire before the read (gl_SemanticsAcquire, or memoryBarrierBuffer() after the "
            "atomic load), at Device scope",
        [VKMM_UNORDERED_NARROW_SCOPE] =
            "a release or acquire between them has Workgroup scope, but the two invocations are in different "
            "workgroups; use gl_ScopeDevice for the fences and atomics that hand data between workgroups",
        [VKMM_UNORDERED_NO_BARRIER] =
            "no barrier() between them (invocations of one workgroup, of one subgroup too, are ordered by a "
            "control barrier, with memoryBarrierBuffer() before it for buffers, or by release/acquire)",
        [VKMM_UNORDERED_NOT_VISIBLE] =
            "the read is never made visible to its invocation: no MakePointerVisible on it (declare the data "
            "`coherent`) and no visibility operation by its invocation in the dispatch (an acquire or barrier "
            "with gl_SemanticsMakeVisible); happens-before alone makes no non-private write visible",
        [VKMM_UNORDERED_NOT_ACQUIRED] =
            "no barrier() between them, and the reading invocation performed no acquire naming this memory (the "
            "semantics of its acquire must hold gl_StorageSemanticsBuffer or gl_StorageSemanticsImage, not only "
            "gl_StorageSemanticsShared)",
        [VKMM_UNORDERED_SCOPED_ATOMIC] =
            "the atomic's scope is Workgroup (or narrower) but the two invocations are in different workgroups, "
            "so the atomics are not ordered with each other; use gl_ScopeDevice (or make the write available "
            "and the read visible at Device scope)",
        [VKMM_UNORDERED_NOT_RELEASED] =
            "no barrier() between them, and the writing invocation performed no release naming this memory after "
            "the write (gl_SemanticsRelease with gl_StorageSemanticsBuffer on the flag's atomic store, or "
            "memoryBarrierBuffer() before it)",
        [VKMM_UNORDERED_SUBGROUP_ATOMIC] =
            "the atomic's scope is Subgroup (gl_ScopeSubgroup) but the two invocations are in different "
            "subgroups, so they are not ordered with each other and a release or acquire at that scope "
            "synchronizes nothing between them; use gl_ScopeWorkgroup (or wider)",
        [VKMM_UNORDERED_UNMATCHED] =
            "no barrier() between them, and the reading invocation's acquire read no value that a release of the "
            "writing invocation after the write produced: an acquire synchronizes only with the release whose "
            "value it reads (here it read another variable, or a value written before that release); acquire the "
            "flag the writer released (gl_SemanticsAcquire on its atomic load, or an acquire fence after it)",
    };
    const char *who = r->why == VKMM_UNORDERED_NO_BARRIER || r->why == VKMM_UNORDERED_NOT_ACQUIRED ||
                              r->why == VKMM_UNORDERED_NOT_RELEASED || r->why == VKMM_UNORDERED_SUBGROUP_ATOMIC ||
                              r->why == VKMM_UNORDERED_UNMATCHED
                          ? "by different invocations of one workgroup are not ordered"
                      : r->why == VKMM_UNORDERED_NOT_VISIBLE
                          ? "by different invocations are not location-ordered (000)"
                          : "by different workgroups are not ordered";
    snprintf(hazard->missing, sizeof(hazard->missing), "the %s of %s and the %s of %s %s: %s",
             device_race_verb(&r->earlier), r->earlier.text, device_race_verb(&r->later), r->later.text, who,
             hints[r->why <= VKMM_UNORDERED_UNMATCHED ? r->why : VKMM_UNORDERED_NO_SYNC]);
    char first[112], second[112];
    device_race_workgroup(first, sizeof(first), grid, &r->earlier);
    device_race_workgroup(second, sizeof(second), grid, &r->later);
    snprintf(hazard->example, sizeof(hazard->example), "%s (%s) and %s (%s) first; %llu byte accesses raced", first,
             device_race_verb(&r->earlier), second, device_race_verb(&r->later), (unsigned long long)r->bytes);
}

static const struct mirrored_range *range_holding(const struct vkmm_dispatch_mirror *mirror, const uint8_t *at)
{
    for (uint32_t j = 0; j < mirror->count; j++) {
        const uint8_t *begin = mirror->ranges[j].memory->bytes + mirror->ranges[j].offset;
        if (at >= begin && at < begin + mirror->ranges[j].size)
            return &mirror->ranges[j];
    }
    return NULL;
}

/* One report per bug (DESIGN §3.4): races of a read and a write whose
 * write is one instruction are one missing synchronization — a stencil's
 * loads against its store (`a[i] = a[i - 1] + a[i + 1]`), a reduction's
 * two loads against the store of its step.  The write's word, or 0 for two
 * writes (or two reads). */
static uint32_t write_of_pair(bool earlier_write, uint32_t earlier_word, bool later_write, uint32_t later_word)
{
    if (earlier_write == later_write)
        return 0;
    return earlier_write ? earlier_word : later_word;
}

/* Appends "; the same write races with the read of X too" to a report's
 * `missing` text (while it fits). */
static void add_other_read(char *missing, size_t size, const char *read_text)
{
    size_t used = strlen(missing);
    if (used + 64 + strlen(read_text) < size)
        snprintf(missing + used, size - used, "; the same write races with the read of %s too", read_text);
}

static uint32_t device_race_write(const struct vkmm_device_race *r)
{
    return write_of_pair(r->earlier.write, r->earlier.word, r->later.write, r->later.word);
}

/* Two read/write races of one kind with the same write: one bug. */
static bool same_device_bug(const struct vkmm_device_race *a, const struct vkmm_device_race *b)
{
    uint32_t write = device_race_write(a);
    return write && a->stale == b->stale && a->lost == b->lost && a->unordered == b->unordered &&
           device_race_write(b) == write;
}

/* Is device race `i` one of an earlier race's bug? */
static bool device_race_joins_earlier(const struct vkmm_device_races *races, uint32_t i)
{
    for (uint32_t j = 0; j < i; j++)
        if (same_device_bug(&races->race[j], &races->race[i]))
            return true;
    return false;
}

/* The reads of later races that join race `i`, named in its report. */
static void add_joined_device_reads(const struct vkmm_device_races *races, uint32_t i, char *missing, size_t size)
{
    for (uint32_t k = i + 1; k < races->count; k++) {
        const struct vkmm_device_race *o = &races->race[k];
        if (same_device_bug(&races->race[i], o))
            add_other_read(missing, size, (o->earlier.write ? o->later : o->earlier).text);
    }
}

/* Races between workgroups the device-memory monitor found: one report per
 * pair of instructions, with the bytes named as the application knows them.
 * Lock held. */
static void report_device_races(struct vkmm_dispatch_mirror *mirror)
{
    struct vkmm_strict *strict = mirror->strict;
    const struct vkmm_mm_agent *agent = &mirror->command.agent;
    for (uint32_t i = 0; i < mirror->races.count; i++) {
        const struct vkmm_device_race *r = &mirror->races.race[i];
        if (device_race_joins_earlier(&mirror->races, i))
            continue;
        const uint8_t *at = (const uint8_t *)strict->space->base + r->offset;
        const struct mirrored_range *range = range_holding(mirror, at);
        if (!range)
            continue;
        struct vkmm_mm_hazard hazard = {
            .id = VKMM_MM_HAZARD_DISPATCH_RACE,
            .memory_id = range->memory->id,
            .offset = (uint64_t)(at - range->memory->bytes),
            .size = 1, /* the first byte; r->bytes counts byte accesses, in the example */
            .reader_or_second = *agent,
            .writer_or_first = *agent,
        };
        if (r->stale)
            describe_stale_read(&mirror->grid, r, &hazard);
        else if (r->lost)
            describe_lost_update(&mirror->grid, r, &hazard);
        else if (r->unordered)
            describe_unordered_race(&mirror->grid, r, &hazard);
        else
            describe_private_race(&mirror->grid, r, &hazard);
        add_joined_device_reads(&mirror->races, i, hazard.missing, sizeof(hazard.missing));
        struct vkmm_hazard_place place;
        vkmm_strict_describe(strict, &hazard, &place);
        vkmm_hazard_report_add(strict, &hazard, &place);
        vkmm_strict_forget_uninitialized(strict, agent, range->memory->id);
    }
}

/* The dispatch's exact accesses: first every read (checked against the
 * coherent view before the dispatch's own writes change it), then every
 * write. */
void vkmm_strict_dispatch_finish(struct vkmm_dispatch_mirror *mirror)
{
    struct vkmm_strict *strict = mirror->strict;
    struct accessed_runs *walk = vkmm_zalloc(strict->allocator, NULL, sizeof(*walk), VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    if (!walk) {
        /* The dispatch's writes cannot be taken: its results would be lost
         * while waits report success.  The device is lost instead. */
        vkmm_strict_lose(strict, "no host memory to record a dispatch's accesses: the device is lost");
    }
    vkmm_strict_lock_device(strict);
    for (int write = 0; walk && write < 2; write++) {
        for (uint32_t i = 0; i < mirror->count; i++) {
            if (write && !mirror->ranges[i].storage)
                continue;
            take_accesses(mirror, &mirror->ranges[i], write, walk);
        }
    }
    for (uint32_t i = 0; i < mirror->count; i++) {
        const struct mirrored_range *r = &mirror->ranges[i];
        note_mirrored(mirror, r);
        vkmm_device_monitor_clear(strict->device_monitor, r->memory->bytes + r->offset, r->size);
    }
    report_device_races(mirror);
    vkmm_strict_unlock(strict);
    for (uint32_t i = 0; i < mirror->count; i++) {
        vkmm_free(strict->allocator, NULL, mirror->ranges[i].suspect);
        vkmm_free(strict->allocator, NULL, mirror->ranges[i].writes);
    }
    vkmm_free(strict->allocator, NULL, walk);
    vkmm_free(strict->allocator, NULL, mirror);
}

/* --- Races inside a workgroup -------------------------------------------------- */

static const char *race_verb(const struct vkmm_workgroup_race_access *side)
{
    return side->atomic ? (side->write ? "atomic write" : "atomic read") : side->write ? "write" : "read";
}

/* The fix, in GLSL and SPIR-V terms, naming the two instructions in program
 * order: the bug's identity, whichever of them ran first. */
static void workgroup_race_missing(const struct vkmm_workgroup_race *r, char *out, size_t size)
{
    if (r->narrow_atomics && !r->later.write) {
        snprintf(out, size,
                 "the atomic read %s and the atomic write %s are in different subgroups and one of them has "
                 "Subgroup scope (gl_ScopeSubgroup): atomics whose scope does not hold both invocations are not "
                 "ordered with each other (a data race: the read need never see the write); use "
                 "gl_ScopeWorkgroup for a variable shared by the workgroup's subgroups",
                 r->later.text, r->earlier.text);
        return;
    }
    if (r->narrow_atomics) {
        snprintf(out, size,
                 "the atomics %s and %s have Subgroup scope (gl_ScopeSubgroup), but the two invocations are in "
                 "different subgroups: atomics whose scope does not hold both invocations are not ordered with "
                 "each other, and one of the writes was lost; use gl_ScopeWorkgroup (or plain atomicAdd()) for "
                 "atomics shared by the workgroup",
                 r->earlier.text, r->later.text);
        return;
    }
    const char *why = "";
    if (r->execution_barrier_only)
        why = "; the barrier between them orders execution only (its semantics lack AcquireRelease with "
              "WorkgroupMemory)";
    else if (r->unreleased)
        why = "; nor did the first invocation's subgroup release Workgroup memory after its access at a scope "
              "holding the second (an atomic with Release and WorkgroupMemory semantics at gl_ScopeWorkgroup, or "
              "such a fence and then an atomic write)";
    else if (r->unacquired)
        why = "; nor did the second invocation's subgroup acquire Workgroup memory after the first access at a "
              "scope holding the first (an atomic with Acquire and WorkgroupMemory semantics at gl_ScopeWorkgroup, "
              "or an atomic read and then such a fence)";
    else if (r->unmatched)
        why = "; the second invocation's subgroup did acquire, but from no release that the first invocation's "
              "subgroup made after its access: an acquire synchronizes only with the release whose value it reads "
              "(here it read another variable, or a value written before that release)";
    else if (r->earlier.atomic != r->later.atomic)
        why = "; an atomic and a plain access do not order each other";
    else if (r->same_subgroup)
        why = "; both invocations are in one subgroup, so subgroupBarrier() would also do";
    snprintf(out, size,
             "barrier() (OpControlBarrier Workgroup Workgroup AcquireRelease|WorkgroupMemory) between the %s of %s "
             "and the %s of %s by different invocations of one workgroup%s",
             race_verb(&r->earlier), r->earlier.text, race_verb(&r->later), r->later.text, why);
}

/* A read of Workgroup memory no invocation of the workgroup wrote: the
 * variable's value is undefined (Vulkan: Workgroup variables without an
 * initializer start undefined in every workgroup). */
static void describe_uninitialized_workgroup_read(const struct vkmm_workgroup_race *r, struct vkmm_mm_hazard *hazard)
{
    hazard->id = VKMM_MM_HAZARD_UNINITIALIZED_READ;
    snprintf(hazard->missing, sizeof(hazard->missing),
             "an initialization: the %s of %s reads Workgroup memory that no invocation of its workgroup wrote, "
             "and Workgroup variables start undefined in every workgroup; write it first (then barrier()), or "
             "give the variable an initializer (shaderZeroInitializeWorkgroupMemory)",
             race_verb(&r->later), r->later.text);
    const uint32_t *b = r->later.invocation;
    snprintf(hazard->example, sizeof(hazard->example), "invocation (%u,%u,%u) of workgroup (%u,%u,%u) first", b[0],
             b[1], b[2], r->workgroup[0], r->workgroup[1], r->workgroup[2]);
}

static uint32_t workgroup_race_write(const struct vkmm_workgroup_race *r)
{
    return r->uninitialized ? 0 : write_of_pair(r->earlier.write, r->earlier.word, r->later.write, r->later.word);
}

/* Is the race's read the spin the dispatch was lost to (its report)? */
static bool reads_hopeless_spin(const struct vkmm_workgroup_races *races, const struct vkmm_workgroup_race *r)
{
    uint32_t spin = races->hopeless_read;
    return spin && ((r->earlier.word == spin && !r->earlier.write) || (r->later.word == spin && !r->later.write));
}

/* Is workgroup race `i` one of an earlier race's bug (its write)? */
static bool workgroup_race_joins_earlier(const struct vkmm_workgroup_races *races, uint32_t i)
{
    uint32_t write = workgroup_race_write(&races->race[i]);
    for (uint32_t j = 0; write && j < i; j++)
        if (workgroup_race_write(&races->race[j]) == write)
            return true;
    return false;
}

static void add_joined_workgroup_reads(const struct vkmm_workgroup_races *races, uint32_t i, char *missing,
                                       size_t size)
{
    uint32_t write = workgroup_race_write(&races->race[i]);
    for (uint32_t k = i + 1; write && k < races->count; k++) {
        const struct vkmm_workgroup_race *o = &races->race[k];
        if (workgroup_race_write(o) == write)
            add_other_read(missing, size, (o->earlier.write ? o->later : o->earlier).text);
    }
}

void vkmm_strict_report_workgroup_races(struct vkmm_strict *strict, const struct vkmm_strict_command *command,
                                        const struct vkmm_workgroup_races *races)
{
    vkmm_strict_lock_device(strict);
    /* A flag of Subgroup scope read across subgroups: reported when nothing
     * else was (vkmm_workgroup_races.narrow_read). */
    uint32_t count = races->count ? races->count : races->has_narrow_read;
    for (uint32_t i = 0; i < count; i++) {
        const struct vkmm_workgroup_race *r = races->count ? &races->race[i] : &races->narrow_read;
        if ((races->count && workgroup_race_joins_earlier(races, i)) || reads_hopeless_spin(races, r))
            continue;
        struct vkmm_mm_hazard hazard = {
            .id = VKMM_MM_HAZARD_WORKGROUP_RACE,
            .memory_id = VKMM_MM_WORKGROUP_MEMORY,
            .offset = r->offset,
            .size = 1, /* the first byte; r->bytes counts byte accesses, in the example */
            .reader_or_second = command->agent,
            .writer_or_first = command->agent,
        };
        const uint32_t *a = r->earlier.invocation, *b = r->later.invocation;
        if (r->uninitialized) {
            describe_uninitialized_workgroup_read(r, &hazard);
            vkmm_hazard_report_add(strict, &hazard, NULL);
            continue;
        }
        workgroup_race_missing(r, hazard.missing, sizeof(hazard.missing));
        if (races->count)
            add_joined_workgroup_reads(races, i, hazard.missing, sizeof(hazard.missing));
        snprintf(hazard.example, sizeof(hazard.example),
                 "invocation (%u,%u,%u) (%s) and invocation (%u,%u,%u) (%s) of workgroup (%u,%u,%u) first; %llu "
                 "byte accesses raced",
                 a[0], a[1], a[2], race_verb(&r->earlier), b[0], b[1], b[2], race_verb(&r->later), r->workgroup[0],
                 r->workgroup[1], r->workgroup[2], (unsigned long long)r->bytes);
        vkmm_hazard_report_add(strict, &hazard, NULL);
    }
    vkmm_strict_unlock(strict);
}

void vkmm_strict_report_lost_dispatch(struct vkmm_strict *strict, const struct vkmm_strict_command *command,
                                      const char *text)
{
    struct vkmm_mm_hazard hazard = {
        .id = VKMM_MM_HAZARD_DISPATCH_TIMEOUT,
        .memory_id = VKMM_MM_NO_MEMORY,
        .reader_or_second = command->agent,
        .writer_or_first = command->agent,
    };
    snprintf(hazard.missing, sizeof(hazard.missing), "%s", text);
    snprintf(hazard.example, sizeof(hazard.example), "the device is lost");
    vkmm_strict_lock_device(strict);
    vkmm_hazard_report_add(strict, &hazard, NULL);
    vkmm_strict_unlock(strict);
}
