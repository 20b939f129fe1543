#include "strict_memory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "buffer.h"
#include "command_buffer.h"
#include "command_footprint.h"
#include "command_graph.h"
#include "compiler.h"
#include "descriptor_set.h"
#include "descriptor_set_layout.h"
#include "device.h"
#include "device_memory.h"
#include "execute.h"
#include "hazard_report.h"
#include "host_trap.h"
#include "log.h"
#include "device_monitor.h"
#include "dispatch_levels.h"
#include "workgroup_monitor.h"
#include "memmodel/memmodel.h"
#include "pipeline.h"
#include "pipeline_layout.h"
#include "queue.h"
#include "scheduler.h"
#include "vkmm/vkmm.h"

/* --- Device and memory ------------------------------------------------------- */

/* Engine lock held: the emulated memory numbered `id`, or NULL. */
static const struct vkmm_device_memory *memory_with_id(struct vkmm_device *device, uint64_t id)
{
    struct vkmm_device_memory *memory = device->strict_memories;
    while (memory && memory->id != id)
        memory = memory->strict_next;
    return memory;
}

/* Engine lock held.  The application's names for the hazard's bytes. */
static void describe(struct vkmm_device *device, const struct vkmm_mm_hazard *hazard, struct vkmm_hazard_place *place)
{
    memset(place, 0, sizeof(*place));
    const struct vkmm_device_memory *memory = memory_with_id(device, hazard->memory_id);
    if (!memory)
        return;
    place->memory_name = memory->base.debug_name;
    /* The list is newest first: walk it to its end so buffers come in
     * bind order. */
    struct vkmm_buffer *b = memory->bound_buffers;
    while (b && b->bound_next)
        b = b->bound_next;
    for (; b && place->buffer_count < VKMM_HAZARD_MAX_BUFFERS; b = b->bound_prev) {
        if (b->memory_offset >= hazard->offset + hazard->size || hazard->offset >= b->memory_offset + b->size)
            continue;
        uint64_t offset = hazard->offset > b->memory_offset ? hazard->offset - b->memory_offset : 0;
        place->buffers[place->buffer_count++] = (struct vkmm_hazard_buffer){ b->id, b->base.debug_name, offset };
    }
}

/* A read of never-written bytes, held until the device is idle: if the
 * reader overtook a write earlier in submission order (it ran first), the
 * race report names that mistake and the uninitialised read is its
 * consequence, not a second bug (one report per bug). */
struct vkmm_strict_uninitialized {
    struct vkmm_mm_hazard hazard;
    struct vkmm_hazard_place place;
};
#define MAX_PENDING_UNINITIALIZED 256

static void report(struct vkmm_device *device, const struct vkmm_mm_hazard *hazard)
{
    struct vkmm_hazard_place place;
    describe(device, hazard, &place);
    bool uninitialized = strcmp(hazard->id, VKMM_MM_HAZARD_UNINITIALIZED_READ) == 0;
    if (uninitialized && device->uninitialized_count < MAX_PENDING_UNINITIALIZED) {
        if (!device->uninitialized)
            device->uninitialized = vkmm_zalloc(&device->allocator, NULL,
                                                MAX_PENDING_UNINITIALIZED * sizeof(*device->uninitialized),
                                                VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
        if (device->uninitialized) {
            device->uninitialized[device->uninitialized_count++] = (struct vkmm_strict_uninitialized){ *hazard, place };
            return;
        }
    }
    vkmm_hazard_report_add(device, hazard, &place);
}

static void sink(void *user, const struct vkmm_mm_hazard *hazard)
{
    report(user, hazard);
}

static void report_uninitialized(struct vkmm_device *device);

VkResult vkmm_strict_device_init(struct vkmm_device *device)
{
    if (vkmm_mode() != VKMM_MODE_STRICT)
        return VK_SUCCESS;
    pthread_mutex_init(&device->engine_lock, NULL);
    vkmm_hazard_report_open(device);
    /* The application's callbacks, if it gave any; without, the engine
     * takes large zeroed blocks from calloc (untouched pages) and host views
     * from pages of their own (host_trap.h). */
    bool own_callbacks = device->allocator.pfnAllocation != vkmm_default_allocator.pfnAllocation;
    device->engine = vkmm_mm_engine_create2(sink, device, vkmm_seed(), own_callbacks ? &device->allocator : NULL);
    if (!device->engine)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    /* VKMM_HOST_READ=after-wait: the common reading of host waits (memmodel.h). */
    const char *host_read = getenv("VKMM_HOST_READ");
    vkmm_mm_set_host_wait_reads(device->engine, host_read && strcmp(host_read, "after-wait") == 0);
    /* VKMM_HOST_WRITE=before-signal: the common reading of host signals. */
    const char *host_write = getenv("VKMM_HOST_WRITE");
    device->host_signal_writes = host_write && strcmp(host_write, "before-signal") == 0;
    device->device_monitor = vkmm_device_monitor_create(device->address_space.base, device->address_space.size);
    if (!device->device_monitor)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    /* VKMM_SHADER_FENCES=common: release/acquire imply availability and
     * visibility in Vulkan-memory-model modules too (dispatch_levels.h). */
    const char *fences = getenv("VKMM_SHADER_FENCES");
    vkmm_dispatch_levels_set_common_fences(vkmm_device_monitor_levels(device->device_monitor),
                                           fences && strcmp(fences, "common") == 0);
    return vkmm_access_marks_init(&device->access_marks, &device->address_space);
}

void vkmm_strict_device_finish(struct vkmm_device *device)
{
    if (vkmm_mode() != VKMM_MODE_STRICT)
        return;
    if (device->engine) {
        report_uninitialized(device);
        vkmm_hazard_report_close(device);
        vkmm_free(&device->allocator, NULL, device->uninitialized);
        vkmm_access_marks_finish(&device->access_marks);
        vkmm_device_monitor_destroy(device->device_monitor);
        device->device_monitor = NULL;
        vkmm_mm_engine_destroy(device->engine);
        device->engine = NULL;
        vkmm_free(&device->allocator, NULL, device->accesses);
    }
    pthread_mutex_destroy(&device->engine_lock);
}

static void disarm_host_trap_locked(struct vkmm_device *device);

/* Taking the engine lock is where vkmm's own work on memory begins: the
 * host views protected since the last vkQueueSubmit open first. */
static void lock(struct vkmm_device *device)
{
    pthread_mutex_lock(&device->engine_lock);
    if (device->host_trap_armed)
        disarm_host_trap_locked(device);
}

/* The engine ran out of host memory inside a call that returns nothing:
 * its state may no longer be the strict machine's, so results could be
 * wrong without a report.  A GPU driver that cannot go on loses the device;
 * so does vkmm (waits and submits return VK_ERROR_DEVICE_LOST). */
static void lose_device_if_engine_failed(struct vkmm_device *device)
{
    if (vkmm_mm_engine_take_status(device->engine) == VK_SUCCESS || atomic_load(&device->lost))
        return;
    vkmm_device_lose(device, "strict mode ran out of host memory for its shadow state: the device is lost");
}

static void unlock(struct vkmm_device *device)
{
    lose_device_if_engine_failed(device);
    vkmm_hazard_report_flush(device);
    pthread_mutex_unlock(&device->engine_lock);
}

/* VKMM_STRICT_MAX_BYTES: an opt-out for programs with allocations too
 * large to shadow on this machine: larger ones are not emulated and
 * behave as in fast mode, with a warning.  Unset: every allocation is
 * emulated. */
static uint64_t strict_limit(void)
{
    const char *text = getenv("VKMM_STRICT_MAX_BYTES");
    return text ? strtoull(text, NULL, 0) : UINT64_MAX;
}

/* What the engine commits when it creates a memory: the allocation
 * pattern in the value arrays of each level (device memory and the
 * coherent view; the host domain, the view and its two change-detection
 * copies for host-visible memory).  The rest — metadata, write paths,
 * history — is committed where commands write, within the heap's shadow
 * factor (physical_device.c). */
static uint64_t shadow_bytes(uint64_t size, bool host_visible)
{
    uint64_t per_byte = host_visible ? 6 : 2;
    return size > UINT64_MAX / per_byte ? UINT64_MAX : size * per_byte;
}

/* Host memory the system can still give (MemAvailable), or UINT64_MAX
 * when unknown. */
static uint64_t available_host_bytes(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return UINT64_MAX;
    char line[256];
    unsigned long long kib = 0;
    bool found = false;
    while (!found && fgets(line, sizeof(line), f))
        found = sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    fclose(f);
    return found ? (uint64_t)kib * 1024 : UINT64_MAX;
}

VkResult vkmm_strict_memory_init(struct vkmm_device *device, struct vkmm_device_memory *memory)
{
    if (!device->engine)
        return VK_SUCCESS;
    if (memory->size > strict_limit()) {
        vkmm_log(&memory->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
                 VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT, "VKMM-WARNING-STRICT-SIZE",
                 "%llu bytes exceed VKMM_STRICT_MAX_BYTES (%llu): this memory is not emulated by strict mode",
                 (unsigned long long)memory->size, (unsigned long long)strict_limit());
        return VK_SUCCESS;
    }
    bool visible = memory->properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
    bool coherent = memory->properties & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    /* Refused up front rather than met by the kernel's OOM killer halfway
     * through a dispatch: the shadow pages are committed as they are used. */
    uint64_t need = shadow_bytes(memory->size, visible), available = available_host_bytes();
    if (need > available) {
        vkmm_log(&memory->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                 VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, "VK_ERROR_OUT_OF_HOST_MEMORY",
                 "strict mode needs %llu bytes of host memory to shadow these %llu bytes, and %llu are "
                 "available (VKMM_STRICT_MAX_BYTES leaves larger allocations unemulated)",
                 (unsigned long long)need, (unsigned long long)memory->size, (unsigned long long)available);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    lock(device);
    /* Ids count allocations, so reports do not depend on addresses. */
    memory->id = ++device->memory_serial;
    memory->mm = vkmm_mm_memory_create(device->engine, memory->id, memory->size, visible, coherent);
    /* A failed creation is vkAllocateMemory's VK_ERROR_OUT_OF_HOST_MEMORY,
     * not a loss of the device. */
    vkmm_mm_engine_take_status(device->engine);
    if (memory->mm) {
        memory->strict_next = device->strict_memories;
        if (device->strict_memories)
            device->strict_memories->strict_prev = memory;
        device->strict_memories = memory;
    }
    if (memory->mm && memory->device_addressable) {
        memory->addressable_next = device->addressable;
        if (device->addressable)
            device->addressable->addressable_prev = memory;
        device->addressable = memory;
    }
    unlock(device);
    return memory->mm ? VK_SUCCESS : VK_ERROR_OUT_OF_HOST_MEMORY;
}

/* vkmm cannot see a read through the mapped pointer; when the host lets go
 * of a mapping (unmap, free) the bytes it could have read are checked
 * against the coherent view (000 Location-Ordered, last bullet: a host read
 * sees a device write only after AV, a HOST_READ domain operation and VIS). */
void vkmm_strict_check_host_view(struct vkmm_device *device, struct vkmm_device_memory *memory)
{
    if (!memory->mm || !memory->map_pointer)
        return;
    lock(device);
    vkmm_mm_check_host_read(device->engine, memory->mm, memory->map_offset, memory->map_size);
    unlock(device);
}

void vkmm_strict_memory_finish(struct vkmm_device *device, struct vkmm_device_memory *memory)
{
    if (!memory->mm)
        return;
    vkmm_strict_check_host_view(device, memory);
    lock(device);
    if (memory->device_addressable) {
        if (memory->addressable_prev)
            memory->addressable_prev->addressable_next = memory->addressable_next;
        else
            device->addressable = memory->addressable_next;
        if (memory->addressable_next)
            memory->addressable_next->addressable_prev = memory->addressable_prev;
    }
    if (memory->strict_prev)
        memory->strict_prev->strict_next = memory->strict_next;
    else
        device->strict_memories = memory->strict_next;
    if (memory->strict_next)
        memory->strict_next->strict_prev = memory->strict_prev;
    /* Buffers may outlive their memory (they are then unusable). */
    for (struct vkmm_buffer *b = memory->bound_buffers, *next; b; b = next) {
        next = b->bound_next;
        b->bound_prev = b->bound_next = NULL;
        b->id = 0;
    }
    memory->bound_buffers = NULL;
    vkmm_mm_memory_destroy(memory->mm);
    unlock(device);
    memory->mm = NULL;
}

const char *vkmm_strict_intern(struct vkmm_device *device, const char *text)
{
    if (!device->engine || !text)
        return NULL;
    lock(device);
    const char *kept = vkmm_mm_intern(device->engine, text);
    unlock(device);
    return kept;
}

const char *vkmm_strict_place(struct vkmm_device *device, const char *command_buffer, const char *label,
                              const char *queue_label)
{
    if (!device->engine || (!command_buffer && !label && !queue_label))
        return NULL;
    char text[512];
    int at = 0;
    const char *what[3] = { "command buffer", "label", "queue label" };
    const char *names[3] = { command_buffer, label, queue_label };
    for (int i = 0; i < 3 && at < (int)sizeof(text); i++) {
        if (names[i])
            at += snprintf(text + at, sizeof(text) - (size_t)at, "%s%s '%s'", at ? ", " : "", what[i], names[i]);
    }
    return vkmm_strict_intern(device, text);
}

void vkmm_strict_buffer_bound(struct vkmm_device *device, struct vkmm_buffer *buffer)
{
    struct vkmm_device_memory *memory = buffer->memory;
    if (!memory || !memory->mm)
        return;
    lock(device);
    buffer->id = ++device->buffer_serial;
    buffer->bound_prev = NULL;
    buffer->bound_next = memory->bound_buffers;
    if (memory->bound_buffers)
        memory->bound_buffers->bound_prev = buffer;
    memory->bound_buffers = buffer;
    unlock(device);
}

void vkmm_strict_buffer_destroyed(struct vkmm_device *device, struct vkmm_buffer *buffer)
{
    if (!device->engine || !buffer->id)
        return;
    lock(device);
    if (buffer->id) { /* not unlinked by its memory's free meanwhile */
        if (buffer->bound_prev)
            buffer->bound_prev->bound_next = buffer->bound_next;
        else
            buffer->memory->bound_buffers = buffer->bound_next;
        if (buffer->bound_next)
            buffer->bound_next->bound_prev = buffer->bound_prev;
    }
    unlock(device);
}

void *vkmm_strict_map(struct vkmm_device_memory *memory, VkDeviceSize offset)
{
    return vkmm_mm_host_view(memory->mm) + offset;
}

void vkmm_strict_flush(struct vkmm_device *device, struct vkmm_device_memory *memory, VkDeviceSize offset,
                       VkDeviceSize size)
{
    if (!memory->mm)
        return;
    lock(device);
    vkmm_mm_flush(device->engine, memory->mm, offset, size);
    unlock(device);
}

void vkmm_strict_invalidate(struct vkmm_device *device, struct vkmm_device_memory *memory, VkDeviceSize offset,
                            VkDeviceSize size)
{
    if (!memory->mm)
        return;
    lock(device);
    vkmm_mm_invalidate(device->engine, memory->mm, offset, size);
    unlock(device);
}

void vkmm_strict_host_signal(struct vkmm_device *device)
{
    if (!device->engine || !device->host_signal_writes)
        return;
    lock(device);
    vkmm_mm_host_signal(device->engine);
    unlock(device);
}

void vkmm_strict_host_wait(struct vkmm_device *device)
{
    if (!device->engine)
        return;
    lock(device);
    vkmm_mm_host_wait(device->engine);
    unlock(device);
}

/* --- Reordering -------------------------------------------------------------- */

/* Strict mode runs commands out of submission order when nothing orders
 * them: submissions of different queues, and commands of one submission
 * (command_graph.c).  The coherent view follows execution order, so a
 * consumer that overtook its producer reads "fresh" bytes as far as the
 * engine can tell; these records catch it: every command access since the
 * device was last idle, checked against later accesses of commands that
 * come earlier in submission order but ran later (004: with no dependency
 * chain between them the application must not let them touch the same
 * bytes unless both read). */
struct vkmm_strict_access {
    uint64_t memory_id;
    uint64_t offset, size;
    bool write;
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
    /* agent.submission is the device-wide sequence, agent.position the
     * command's node in its queue's graph (submission order). */
    struct vkmm_mm_agent agent;
    /* A command later in submission order that touches these bytes ran
     * first (reported with it). */
    bool overtaken;
};

static bool later_in_submission_order(const struct vkmm_strict_access *a, const struct vkmm_strict_access *b)
{
    if (a->agent.submission != b->agent.submission)
        return a->agent.submission > b->agent.submission;
    return a->agent.position > b->agent.position;
}

/* The host touched mapped bytes (host_trap.h) that a submission it had not
 * waited for writes (or reads, for a host write). */
static void report_host_overtaken(struct vkmm_device *device, const struct vkmm_strict_access *host,
                                  const struct vkmm_strict_access *command, struct vkmm_mm_hazard *hazard)
{
    unsigned long long submission = (unsigned long long)command->agent.submission;
    if (!host->write) {
        hazard->id = VKMM_MM_HAZARD_HOST_STALE_READ;
        vkmm_print_cut(hazard->missing, sizeof(hazard->missing),
                  "a wait for submission %llu (vkWaitForFences, vkQueueWaitIdle or a semaphore wait) before the host "
                  "read the mapped memory, then a HOST_READ dependency (and vkInvalidateMappedMemoryRanges for "
                  "non-coherent memory): the host read it while %s had not run",
                  submission, command->agent.kind);
    } else {
        hazard->id = command->write ? VKMM_MM_HAZARD_WRITE_AFTER_WRITE : VKMM_MM_HAZARD_WRITE_AFTER_READ;
        vkmm_print_cut(hazard->missing, sizeof(hazard->missing),
                  "a wait for submission %llu (vkWaitForFences, vkQueueWaitIdle or a semaphore wait) before the host "
                  "wrote the mapped memory that %s %s: the host wrote it while the work was pending",
                  submission, command->agent.kind, command->write ? "writes" : "reads");
    }
    report(device, hazard);
}

static void report_overtaken(struct vkmm_device *device, const struct vkmm_strict_access *earlier_run,
                             const struct vkmm_strict_access *now)
{
    uint64_t begin = earlier_run->offset > now->offset ? earlier_run->offset : now->offset;
    uint64_t end_a = earlier_run->offset + earlier_run->size, end_b = now->offset + now->size;
    struct vkmm_mm_hazard hazard = {
        .memory_id = now->memory_id,
        .offset = begin,
        .size = (end_a < end_b ? end_a : end_b) - begin,
        .writer_or_first = now->agent,
        .reader_or_second = earlier_run->agent,
    };
    if (now->write && !earlier_run->write)
        hazard.id = VKMM_MM_HAZARD_STALE_READ;
    else if (!now->write)
        hazard.id = VKMM_MM_HAZARD_WRITE_AFTER_READ;
    else
        hazard.id = VKMM_MM_HAZARD_WRITE_AFTER_WRITE;
    if (earlier_run->agent.queue == VKMM_MM_HOST_QUEUE) {
        report_host_overtaken(device, earlier_run, now, &hazard);
        return;
    }
    /* The dependency that was missing: from the command first in
     * submission order to the later one; a write-after-read needs only its
     * execution half (no access masks). */
    char src_stage[128], src_access[128], dst_stage[128], dst_access[128];
    vkmm_mm_stage_names(src_stage, sizeof(src_stage), now->stage);
    vkmm_mm_stage_names(dst_stage, sizeof(dst_stage), earlier_run->stage);
    vkmm_mm_access_names(src_access, sizeof(src_access), now->write ? now->access : 0);
    vkmm_mm_access_names(dst_access, sizeof(dst_access), now->write ? earlier_run->access : 0);
    const char *first = now->agent.kind, *second = earlier_run->agent.kind;
    if (now->agent.queue == earlier_run->agent.queue) {
        /* A barrier's first scope reaches into earlier submissions of its
         * queue, so a barrier (or event) is the fix across submissions too. */
        vkmm_print_cut(hazard.missing, sizeof(hazard.missing),
                 "a barrier with srcStageMask ⊇ %s, srcAccessMask ⊇ %s, dstStageMask ⊇ %s, dstAccessMask ⊇ %s "
                 "(or an event) ordering %s before the later %s: none did, and the later one ran first",
                 src_stage, src_access, dst_stage, dst_access, first, second);
    } else {
        vkmm_print_cut(hazard.missing, sizeof(hazard.missing),
                 "a semaphore signalled after %s (queue %u, signal stageMask ⊇ %s) and waited for before %s "
                 "(queue %u, wait stageMask ⊇ %s): none did, and the later one ran first",
                 first, now->agent.queue, src_stage, second, earlier_run->agent.queue, dst_stage);
    }
    report(device, &hazard);
}

/* Parts of a read that a command later in submission order already
 * overwrote. */
struct race {
    uint64_t begin, end;
};
#define MAX_RACES 16

static uint32_t add_race(struct race *races, uint32_t count, uint64_t begin, uint64_t end)
{
    if (count == MAX_RACES) {
        /* Out of room: the hull, which can only show more racing bytes. */
        races[count - 1].begin = begin < races[count - 1].begin ? begin : races[count - 1].begin;
        races[count - 1].end = end > races[count - 1].end ? end : races[count - 1].end;
        return count;
    }
    races[count] = (struct race){ begin, end };
    return count + 1;
}

/* Engine lock held.  Reports the accesses `now` was overtaken by and
 * records it (unless `record` is false: then it only finds races); for a
 * read, returns in `races` (sorted by begin) the bytes it races with. */
/* A write of a command that a conflicting later one overtook, and that
 * nothing orders before `reader` (of the same queue's graph): a read of its
 * bytes races with it.  The program expected the overtaking command's
 * bytes; strict mode shows the overtaken one's (DESIGN §3 "Manifest"),
 * without a second report — the overtaking is the mistake, reported once. */
static bool racing_overtaken_write(const struct vkmm_strict_access *w, const struct vkmm_strict_access *reader,
                                   struct vkmm_command_graph *graph)
{
    if (!w->overtaken || !w->write || !graph || w->agent.queue != reader->agent.queue ||
        w->agent.submission < graph->first_sequence || reader->agent.submission < graph->first_sequence)
        return false;
    return !vkmm_command_graph_reaches(graph, w->agent.position, reader->agent.position);
}

/* Whether a command between `earlier` and the overtaking access `r` in
 * submission order, ordered after `earlier` and not run yet, may write
 * r's memory: then r overtakes that command too, and its report — naming
 * the dependency that orders both before r — is the one for this
 * mistake (one report per bug). */
static bool overtaken_again_later(struct vkmm_command_graph *graph, const struct vkmm_strict_access *earlier,
                                  const struct vkmm_strict_access *r, const struct vkmm_device_memory *memory)
{
    if (!graph || earlier->agent.submission < graph->first_sequence || r->agent.submission < graph->first_sequence ||
        r->agent.queue != earlier->agent.queue || !memory)
        return false;
    for (uint32_t d = earlier->agent.position + 1; d < r->agent.position && d < graph->node_count; d++) {
        const struct vkmm_command_graph_node *n = &graph->nodes[d];
        if (n->done || n->kind != VKMM_NODE_COMMAND || !vkmm_command_graph_reaches(graph, earlier->agent.position, d))
            continue;
        struct vkmm_footprint f;
        vkmm_command_footprint(n->command, false, &f);
        if (f.everything)
            return true;
        for (uint32_t i = 0; i < f.count; i++)
            if (f.memories[i] == memory && f.writes[i])
                return true;
    }
    return false;
}

static uint32_t check_access(struct vkmm_device *device, const struct vkmm_strict_access *access, struct race *races,
                             bool record, struct vkmm_command_graph *graph)
{
    struct vkmm_strict_access now = *access;
    uint64_t offset = now.offset, size = now.size;
    uint32_t race_count = 0;
    /* In-order execution, the common case: no recorded access comes later
     * in submission order than this one, so none was overtaken. */
    struct vkmm_strict_access latest = { .agent = { .submission = device->access_latest_submission,
                                                    .position = (uint32_t)device->access_latest_position } };
    bool any_overtaken = device->access_overtaken && !now.write && races;
    uint32_t scan = later_in_submission_order(&latest, &now) || any_overtaken ? device->access_count : 0;
    for (uint32_t i = 0; i < scan; i++) {
        const struct vkmm_strict_access *r = &device->accesses[i];
        if (r->memory_id != now.memory_id || (!r->write && !now.write))
            continue;
        if (r->offset >= offset + size || offset >= r->offset + r->size)
            continue;
        bool overtook = later_in_submission_order(r, &now);
        if (!overtook && !(any_overtaken && racing_overtaken_write(r, &now, graph)))
            continue;
        now.overtaken |= overtook;
        if (record && overtook && !overtaken_again_later(graph, &now, r, memory_with_id(device, now.memory_id)))
            report_overtaken(device, r, &now);
        if (!now.write && races) {
            uint64_t begin = r->offset > offset ? r->offset : offset;
            uint64_t end = r->offset + r->size < offset + size ? r->offset + r->size : offset + size;
            race_count = add_race(races, race_count, begin, end);
        }
    }
    for (uint32_t i = 1; i < race_count; i++) {
        struct race x = races[i];
        uint32_t j = i;
        for (; j > 0 && races[j - 1].begin > x.begin; j--)
            races[j] = races[j - 1];
        races[j] = x;
    }
    if (!record)
        return race_count;
    if (device->access_count == device->access_capacity) {
        uint32_t capacity = device->access_capacity ? device->access_capacity * 2 : 64;
        struct vkmm_strict_access *grown = vkmm_zalloc(&device->allocator, NULL, capacity * sizeof(*grown),
                                                       VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
        if (!grown)
            return race_count; /* out of memory: fewer reports, never a wrong result */
        if (device->access_count)
            memcpy(grown, device->accesses, device->access_count * sizeof(*grown));
        vkmm_free(&device->allocator, NULL, device->accesses);
        device->accesses = grown;
        device->access_capacity = capacity;
    }
    device->accesses[device->access_count++] = now;
    device->access_overtaken += now.overtaken && now.write;
    if (device->access_count == 1 || later_in_submission_order(&now, &latest)) {
        device->access_latest_submission = now.agent.submission;
        device->access_latest_position = now.agent.position;
    }
    return race_count;
}

static uint32_t record_access(struct vkmm_device *device, const struct vkmm_strict_access *access,
                              struct race *races, struct vkmm_command_graph *graph)
{
    return check_access(device, access, races, true, graph);
}

/* Engine lock held.  A command's read of [offset, offset + size) into
 * `out`: the bytes a later command already overwrote show that write (the
 * adversarial value of a write-after-read race; the race is reported), the
 * others come through the read path. */
static void read_or_peek(struct vkmm_execution *x, struct vkmm_device_memory *memory, uint64_t offset, uint64_t size,
                         VkPipelineStageFlags2 stage, VkAccessFlags2 access, const struct vkmm_mm_agent *agent,
                         uint8_t *out, bool checked)
{
    struct race races[MAX_RACES];
    struct vkmm_strict_access read = { memory->id, offset, size, false, stage, access, *agent, false };
    uint32_t count = check_access(x->device, &read, races, checked, x->graph);
    uint64_t at = offset, end = offset + size;
    for (uint32_t i = 0; i <= count && at < end; i++) {
        uint64_t gap_end = i < count ? races[i].begin : end;
        if (gap_end > at && checked)
            vkmm_mm_read(x->device->engine, memory->mm, at, gap_end - at, stage, access, agent, out + (at - offset));
        else if (gap_end > at)
            vkmm_mm_peek(x->device->engine, memory->mm, at, gap_end - at, stage, access, out + (at - offset));
        if (i == count)
            break;
        uint64_t race_begin = races[i].begin > at ? races[i].begin : at;
        if (races[i].end > race_begin)
            vkmm_mm_read_racing(x->device->engine, memory->mm, race_begin, races[i].end - race_begin,
                                out + (race_begin - offset));
        at = races[i].end > at ? races[i].end : at;
    }
}

static void command_read(struct vkmm_execution *x, struct vkmm_device_memory *memory, uint64_t offset, uint64_t size,
                         VkPipelineStageFlags2 stage, VkAccessFlags2 access, const struct vkmm_mm_agent *agent,
                         uint8_t *out)
{
    read_or_peek(x, memory, offset, size, stage, access, agent, out, true);
}

/* What a command about to run may read, neither recorded nor reported:
 * the accesses it really makes are known only after it ran. */
static void command_peek(struct vkmm_execution *x, struct vkmm_device_memory *memory, uint64_t offset, uint64_t size,
                         VkPipelineStageFlags2 stage, VkAccessFlags2 access, const struct vkmm_mm_agent *agent,
                         uint8_t *out)
{
    read_or_peek(x, memory, offset, size, stage, access, agent, out, false);
}

/* Engine lock held.  Whether a write of a command earlier in submission
 * order than the reader touched the bytes: the reader overtook it, and
 * the race was reported. */
static bool overtaken_writer(const struct vkmm_device *device, const struct vkmm_mm_hazard *h)
{
    struct vkmm_strict_access reader = { .memory_id = h->memory_id, .agent = h->reader_or_second };
    for (uint32_t i = 0; i < device->access_count; i++) {
        const struct vkmm_strict_access *w = &device->accesses[i];
        if (w->write && w->memory_id == h->memory_id && w->offset < h->offset + h->size &&
            h->offset < w->offset + w->size && later_in_submission_order(&reader, w))
            return true;
    }
    return false;
}

/* Engine lock held.  The held reads of never-written bytes that no race
 * explains are reported now. */
static void report_uninitialized(struct vkmm_device *device)
{
    for (uint32_t i = 0; i < device->uninitialized_count; i++) {
        const struct vkmm_strict_uninitialized *u = &device->uninitialized[i];
        if (!overtaken_writer(device, &u->hazard))
            vkmm_hazard_report_add(device, &u->hazard, &u->place);
    }
    device->uninitialized_count = 0;
}

void vkmm_strict_idle(struct vkmm_device *device)
{
    if (!device->engine)
        return;
    lock(device);
    report_uninitialized(device);
    device->access_count = 0;
    device->access_overtaken = 0;
    unlock(device);
}

/* --- Host accesses while work is pending (host_trap.h) ----------------------- */

/* Engine lock held.  Each trapped access becomes a host access later in
 * submission order than everything submitted when the views were
 * protected: device work that runs afterwards and touches its bytes was
 * overtaken by the host. */
struct host_record {
    struct vkmm_device *device;
    struct vkmm_strict_access access;
};

static void record_host_run(void *user, uint64_t offset, uint64_t length)
{
    struct host_record *r = user;
    r->access.offset = offset;
    r->access.size = length;
    record_access(r->device, &r->access, NULL, NULL);
}

static void disarm_host_trap_locked(struct vkmm_device *device)
{
    struct vkmm_host_access accesses[64];
    uint32_t count = vkmm_host_trap_release(device, accesses, 64);
    device->host_trap_armed = false;
    uint64_t syncs = vkmm_host_trap_syncs();
    for (uint32_t i = 0; i < count; i++) {
        const struct vkmm_device_memory *memory = memory_with_id(device, accesses[i].memory_id);
        /* A host write after vkQueueSubmit is legal when an event or a
         * host-signalled semaphore orders it before the work that touches
         * its bytes, which the trap cannot tell: a write is checked only
         * when the host signalled nothing since it. */
        bool ordered_maybe = accesses[i].write && accesses[i].syncs != syncs;
        if (!memory || accesses[i].offset >= memory->size || ordered_maybe)
            continue;
        struct host_record record = {
            .device = device,
            .access = {
                .memory_id = memory->id,
                .write = accesses[i].write,
                .stage = VK_PIPELINE_STAGE_2_HOST_BIT,
                .access = accesses[i].write ? VK_ACCESS_2_HOST_WRITE_BIT : VK_ACCESS_2_HOST_READ_BIT,
                .agent = { .queue = VKMM_MM_HOST_QUEUE, .submission = accesses[i].sequence, .position = UINT32_MAX,
                           .kind = accesses[i].write ? "host write through the mapped pointer"
                                                     : "host read through the mapped pointer" },
            },
        };
        if (accesses[i].write) {
            /* Only the first access to a page faults: the host's writes
             * there are the bytes it changed since the engine last took
             * them in (at the submission). */
            uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), start = accesses[i].offset & ~(page - 1);
            vkmm_mm_host_changed_runs(memory->mm, start, page, record_host_run, &record);
            continue;
        }
        /* The faulting address is the read's first byte; 16 bytes cover
         * the widest host load. */
        record_host_run(&record, accesses[i].offset,
                        memory->size - accesses[i].offset < 16 ? memory->size - accesses[i].offset : 16);
    }
}

/* What a command may touch (command_footprint.h), as the memories a
 * submission's work may write (their views are closed to the host until
 * the next engine call) or only read (open to host reads). */
static void mark_command(struct vkmm_device *device, const struct vkmm_command *command, uint64_t stamp)
{
    struct vkmm_footprint f;
    vkmm_command_footprint(command, false, &f);
    if (f.everything) {
        for (struct vkmm_device_memory *m = device->strict_memories; m; m = m->strict_next)
            m->written_by_submit = stamp;
        return;
    }
    for (uint32_t i = 0; i < f.count; i++) {
        struct vkmm_device_memory *m = (struct vkmm_device_memory *)f.memories[i];
        if (f.writes[i])
            m->written_by_submit = stamp;
        else
            m->read_by_submit = stamp;
    }
}

/* Engine lock held.  vkQueueSubmit's host->device domain operation over
 * the memories its work may touch, marked `stamp` (mark_command): only
 * their host views are read.  Scanning every mapped memory here read views
 * that other host threads were writing meanwhile, unordered with this call
 * (a data race, issue #11); their writes reach the device domain at the
 * first submission that touches their memory, before its work runs. */
static void submit_domain_operation(struct vkmm_device *device, uint64_t stamp)
{
    uint32_t count = 0, touched = 0;
    for (struct vkmm_device_memory *m = device->strict_memories; m; m = m->strict_next)
        count++;
    struct vkmm_mm_memory **memories =
        vkmm_zalloc(&device->allocator, NULL, (count ? count : 1) * sizeof(*memories), VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    if (!memories) {
        vkmm_mm_submit(device->engine); /* every memory: slower, never wrong */
        return;
    }
    for (struct vkmm_device_memory *m = device->strict_memories; m; m = m->strict_next) {
        if (m->written_by_submit == stamp || m->read_by_submit == stamp)
            memories[touched++] = m->mm;
    }
    vkmm_mm_submit_memories(device->engine, memories, touched);
    vkmm_free(&device->allocator, NULL, memories);
}

uint64_t vkmm_strict_submit(struct vkmm_device *device, const struct vkmm_submission *list)
{
    if (!device->engine)
        return 0;
    uint64_t stamp = atomic_fetch_add(&device->submit_calls, 1) + 1;
    lock(device); /* device->strict_memories, the marks */
    for (const struct vkmm_submission *s = list; s; s = s->next) {
        for (uint32_t i = 0; i < s->command_buffer_count; i++)
            for (const struct vkmm_command *c = s->command_buffers[i]->first; c; c = c->next)
                mark_command(device, c, stamp);
    }
    submit_domain_operation(device, stamp);
    unlock(device);
    return vkmm_host_trap_enabled() ? stamp : 0;
}

void vkmm_strict_submitted(struct vkmm_device *device, uint64_t stamp, uint64_t sequence)
{
    if (!device->engine || !stamp)
        return;
    lock(device);
    /* map_pointer is read under the engine lock: vkMapMemory and
     * vkUnmapMemory on other threads write it under it
     * (vkmm_strict_set_mapping). */
    for (struct vkmm_device_memory *m = device->strict_memories; m; m = m->strict_next) {
        bool written = m->written_by_submit == stamp, read = m->read_by_submit == stamp;
        if ((written || read) && m->map_pointer &&
            vkmm_host_trap_protect(device, m->id, vkmm_mm_host_view(m->mm), vkmm_mm_host_view_span(m->mm), sequence,
                                   !written))
            device->host_trap_armed = true;
    }
    pthread_mutex_unlock(&device->engine_lock);
}

void vkmm_strict_set_mapping(struct vkmm_device *device, struct vkmm_device_memory *memory, void *pointer,
                             VkDeviceSize offset, VkDeviceSize size)
{
    /* vkMapMemory is externally synchronized with its memory only, not with
     * a vkQueueSubmit on another thread whose work uses that memory: the
     * submission reads the mapping under the engine lock. */
    bool locked = memory->mm != NULL;
    if (locked)
        pthread_mutex_lock(&device->engine_lock);
    memory->map_pointer = pointer;
    memory->map_offset = offset;
    memory->map_size = size;
    if (locked)
        pthread_mutex_unlock(&device->engine_lock);
}

/* --- Command accesses ------------------------------------------------------- */

static struct vkmm_mm_agent agent_of(const struct vkmm_execution *x, const struct vkmm_command *command)
{
    struct vkmm_mm_agent agent = {
        .queue = vkmm_queue_id(x->queue),
        .position = x->position,
        .submission = x->submission->sequence,
        .command = command->index,
        .kind = vkmm_command_name(command),
        .where = x->where,
    };
    return agent;
}

void vkmm_strict_read(struct vkmm_execution *x, const struct vkmm_command *command, struct vkmm_buffer *buffer,
                      VkDeviceSize offset, VkDeviceSize size, VkPipelineStageFlags2 stage, VkAccessFlags2 access,
                      void *out)
{
    if (!buffer->memory->mm) {
        memcpy(out, vkmm_buffer_device_bytes(buffer, offset, size), size);
        return;
    }
    struct vkmm_mm_agent agent = agent_of(x, command);
    lock(x->device);
    command_read(x, buffer->memory, buffer->memory_offset + offset, size, stage, access, &agent, out);
    unlock(x->device);
}

void vkmm_strict_write(struct vkmm_execution *x, const struct vkmm_command *command, struct vkmm_buffer *buffer,
                       VkDeviceSize offset, VkDeviceSize size, VkPipelineStageFlags2 stage, VkAccessFlags2 access,
                       const void *data)
{
    if (!buffer->memory->mm) {
        memmove(vkmm_buffer_device_bytes(buffer, offset, size), data, size);
        return;
    }
    struct vkmm_mm_agent agent = agent_of(x, command);
    lock(x->device);
    struct vkmm_strict_access write = { buffer->memory->id, buffer->memory_offset + offset, size, true, stage, access,
                                        agent, false };
    record_access(x->device, &write, NULL, x->graph);
    vkmm_mm_write(x->device->engine, buffer->memory->mm, buffer->memory_offset + offset, size, stage, access, &agent,
                  data);
    unlock(x->device);
}

/* --- Dependencies ------------------------------------------------------------ */

static bool writer_in_scope(void *user, const struct vkmm_mm_agent *writer)
{
    const struct vkmm_strict_scope *scope = user;
    if (scope->queue == VKMM_STRICT_ANY_QUEUE)
        return true;
    if (writer->queue != scope->queue)
        return false;
    if (!scope->graph || writer->submission < scope->graph->first_sequence)
        return true;
    return vkmm_command_graph_reaches(scope->graph, writer->position, scope->node);
}

/* Engine lock held. */
static void scoped_dependency(struct vkmm_device *device, const struct vkmm_strict_scope *scope,
                              struct vkmm_mm_dependency *d)
{
    if (scope && scope->queue != VKMM_STRICT_ANY_QUEUE) {
        d->writers = writer_in_scope;
        d->writers_user = (void *)scope;
    }
    vkmm_mm_dependency(device->engine, d);
}

/* Only the writes of the scope's own command. */
static bool writer_is_command(void *user, const struct vkmm_mm_agent *writer)
{
    const struct vkmm_strict_scope *scope = user;
    return writer->queue == scope->queue && scope->graph && writer->submission >= scope->graph->first_sequence &&
           writer->position == scope->node;
}

void vkmm_strict_evict(struct vkmm_device *device, const struct vkmm_strict_scope *scope)
{
    struct vkmm_mm_dependency d = { .src_stages = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                    .src_access = VK_ACCESS_2_MEMORY_WRITE_BIT,
                                    .writers = writer_is_command,
                                    .writers_user = (void *)scope };
    lock(device);
    vkmm_mm_dependency(device->engine, &d);
    unlock(device);
}

void vkmm_strict_dependency(struct vkmm_device *device, const struct vkmm_strict_scope *scope,
                            const struct vkmm_dependency *dependency)
{
    lock(device);
    for (uint32_t i = 0; i < dependency->memory_barrier_count; i++) {
        const VkMemoryBarrier2 *b = &dependency->memory_barriers[i];
        struct vkmm_mm_dependency d = { b->srcStageMask, b->dstStageMask, b->srcAccessMask, b->dstAccessMask,
                                        NULL, 0, 0, NULL, NULL };
        scoped_dependency(device, scope, &d);
    }
    for (uint32_t i = 0; i < dependency->buffer_barrier_count; i++) {
        const VkBufferMemoryBarrier2 *b = &dependency->buffer_barriers[i];
        VKMM_FROM_HANDLE(vkmm_buffer, buffer, b->buffer);
        if (!buffer || !buffer->memory || !buffer->memory->mm || b->offset > buffer->size)
            continue; /* invalid usage, or memory strict mode does not emulate */
        VkDeviceSize size = b->size == VK_WHOLE_SIZE || b->size > buffer->size - b->offset ? buffer->size - b->offset
                                                                                            : b->size;
        struct vkmm_mm_dependency d = { b->srcStageMask, b->dstStageMask, b->srcAccessMask, b->dstAccessMask,
                                        buffer->memory->mm, buffer->memory_offset + b->offset, size, NULL, NULL };
        scoped_dependency(device, scope, &d);
    }
    unlock(device);
}

/* 000: a semaphore signal's first access scope is all memory accesses of
 * the stages in its scope; a wait's second scope likewise (VkSemaphoreSubmitInfo
 * stageMask); a fence signal covers every stage. */
/* The stages whose accesses a semaphore operation's access scope holds.
 * "The first access scope includes all memory access performed by the
 * device" (signal; the second, for a wait): every access of the operations
 * in its synchronization scope.  There BOTTOM_OF_PIPE (first scope) and
 * TOP_OF_PIPE (second scope) are "equivalent to ALL_COMMANDS" — the engine
 * gives them no access scope, as it must for a barrier, so they are made
 * ALL_COMMANDS here (the CTS's multi-queue tests signal BOTTOM and wait
 * TOP). */
static VkPipelineStageFlags2 semaphore_access_stages(VkPipelineStageFlags2 stages, bool second_scope)
{
    VkPipelineStageFlags2 all = second_scope ? VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT;
    return stages & all ? stages | VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT : stages;
}

void vkmm_strict_signal(struct vkmm_device *device, const struct vkmm_strict_scope *scope,
                        VkPipelineStageFlags2 stages)
{
    struct vkmm_mm_dependency d = { semaphore_access_stages(stages, false), 0, VK_ACCESS_2_MEMORY_WRITE_BIT, 0, NULL,
                                    0, 0, NULL, NULL };
    lock(device);
    scoped_dependency(device, scope, &d);
    unlock(device);
}

void vkmm_strict_wait_idle(struct vkmm_device *device, const struct vkmm_queue *queue)
{
    if (!device->engine)
        return;
    struct vkmm_strict_scope scope = { NULL, 0, queue ? vkmm_queue_id(queue) : VKMM_STRICT_ANY_QUEUE };
    vkmm_strict_signal(device, &scope, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    vkmm_strict_host_wait(device);
}

void vkmm_strict_wait(struct vkmm_device *device, VkPipelineStageFlags2 stages)
{
    struct vkmm_mm_dependency d = { 0, semaphore_access_stages(stages, true), 0, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT, NULL, 0,
                                    0, NULL, NULL };
    lock(device);
    vkmm_mm_dependency(device->engine, &d);
    unlock(device);
}

/* --- Dispatches -------------------------------------------------------------- */

/* One descriptor's range of device memory a dispatch may touch. */
struct mirrored_range {
    struct vkmm_device_memory *memory;
    uint64_t offset, size;
    bool storage; /* read as SHADER_STORAGE_READ (else UNIFORM_READ), may be written */
};

/* The access a range's shader reads go through. */
static VkAccessFlags2 read_access_of(const struct mirrored_range *r)
{
    return r->storage ? VK_ACCESS_2_SHADER_STORAGE_READ_BIT : VK_ACCESS_2_UNIFORM_READ_BIT;
}

struct vkmm_dispatch_mirror {
    struct vkmm_execution *x;
    const struct vkmm_command *command;
    struct vkmm_device_races races; /* the device-memory monitor's finds */
    uint32_t count;
    struct mirrored_range ranges[];
};

/* The device-memory monitor asks what bytes held before the dispatch: what
 * the dispatch's read path gave (the engine is unchanged until finish). */
static void peek_before_dispatch(void *user, uint64_t offset, uint64_t size, uint8_t *out)
{
    struct vkmm_dispatch_mirror *mirror = user;
    struct vkmm_device *device = mirror->x->device;
    const uint8_t *at = (const uint8_t *)device->address_space.base + offset;
    memcpy(out, at, size); /* bytes outside every range: as they are */
    for (uint32_t i = 0; i < mirror->count; i++) {
        const struct mirrored_range *r = &mirror->ranges[i];
        const uint8_t *begin = r->memory->bytes + r->offset;
        if (at < begin || at + size > begin + r->size)
            continue;
        struct vkmm_mm_agent agent = agent_of(mirror->x, mirror->command);
        lock(device);
        command_peek(mirror->x, r->memory, r->offset + (uint64_t)(at - begin), size,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, read_access_of(r), &agent, out);
        unlock(device);
        return;
    }
}

static uint32_t count_descriptors(const struct vkmm_pipeline_layout *layout)
{
    uint32_t count = 0;
    for (uint32_t s = 0; s < layout->set_count; s++)
        count += layout->sets[s] ? layout->sets[s]->descriptor_count : 0;
    return count;
}

static bool is_storage(VkDescriptorType type)
{
    return type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

static bool is_buffer(VkDescriptorType type)
{
    return is_storage(type) || type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ||
           type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
}

/* Materialises what the dispatch's read paths see of every bound buffer
 * (and, with buffer references, of every memory with device addresses)
 * into the device bytes the shader runs on.  Nothing is recorded or
 * reported yet: the shader marks what it really reads and writes
 * (access_marks.h), and vkmm_strict_dispatch_finish takes exactly those
 * bytes as its accesses (DESIGN §3 "Exact accesses"). */
struct vkmm_dispatch_mirror *vkmm_strict_dispatch_prepare(struct vkmm_execution *x, const struct vkmm_command *command,
                                                          struct vkmm_shader_invocation *invocation,
                                                          const struct vkmm_pipeline_layout *layout,
                                                          bool buffer_references)
{
    struct vkmm_device *device = x->device;
    uint32_t capacity = count_descriptors(layout);
    lock(device);
    for (struct vkmm_device_memory *m = device->addressable; m && buffer_references; m = m->addressable_next)
        capacity++;
    unlock(device);
    struct vkmm_dispatch_mirror *mirror = vkmm_zalloc(&device->allocator, NULL,
                                                      sizeof(*mirror) + capacity * sizeof(struct mirrored_range),
                                                      VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    if (!mirror)
        return NULL;
    mirror->x = x;
    mirror->command = command;
    invocation->device_monitor = device->device_monitor;
    invocation->device_access = vkmm_device_monitor_access;
    invocation->device_fence = vkmm_device_monitor_fence;
    invocation->read_marks_delta = vkmm_access_marks_delta(&device->access_marks, &device->address_space,
                                                           VKMM_MARK_READ);
    vkmm_device_monitor_begin(device->device_monitor, &mirror->races, peek_before_dispatch, mirror, vkmm_seed(),
                              invocation->read_marks_delta);
    invocation->write_marks_delta = vkmm_access_marks_delta(&device->access_marks, &device->address_space,
                                                            VKMM_MARK_WRITE);
    struct vkmm_mm_agent agent = agent_of(x, command);
    lock(device);
    for (uint32_t s = 0; s < layout->set_count && s < VKMM_SHADER_MAX_SETS; s++) {
        const struct vkmm_descriptor_set_layout *set = layout->sets[s];
        const struct vkmm_descriptor *table = invocation->sets[s];
        for (uint32_t b = 0; set && table && b < set->binding_count; b++) {
            const struct vkmm_set_layout_binding *binding = &set->bindings[b];
            if (!is_buffer(binding->type))
                continue;
            for (uint32_t e = 0; e < binding->count; e++) {
                const struct vkmm_descriptor *d = &table[binding->first + e];
                if (!d->base || !d->memory || !d->memory->mm || d->memory_offset >= d->memory->size)
                    continue;
                uint64_t size = d->range < d->memory->size - d->memory_offset ? d->range
                                                                               : d->memory->size - d->memory_offset;
                struct mirrored_range *r = &mirror->ranges[mirror->count++];
                *r = (struct mirrored_range){ d->memory, d->memory_offset, size, is_storage(binding->type) };
                command_peek(x, d->memory, r->offset, r->size, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, read_access_of(r), &agent,
                             d->memory->bytes + r->offset);
            }
        }
    }
    /* A buffer reference may reach any memory allocated for device
     * addresses: all of it is materialised, as storage. */
    for (struct vkmm_device_memory *m = device->addressable; m && buffer_references; m = m->addressable_next) {
        struct mirrored_range *r = &mirror->ranges[mirror->count++];
        *r = (struct mirrored_range){ m, 0, m->size, true };
        command_peek(x, m, 0, m->size, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                     &agent, m->bytes);
    }
    unlock(device);
    return mirror;
}

/* The marked runs of one range, taken as the dispatch's reads or writes.
 * Each run is one engine access (reads are checked against what the read
 * path gives, writes go into the shader-write path); the range gets one
 * access record for the span of its runs — a scattered access (every other
 * word) would otherwise record thousands, each checked against all others. */
struct marked_runs {
    struct vkmm_execution *x;
    const struct mirrored_range *range;
    const struct vkmm_mm_agent *agent;
    bool write;
    /* Reads: the bytes a command later in submission order already wrote.
     * The shader saw that write (command_peek); the race is reported once,
     * with the span's record, not as a stale read too. */
    struct race races[MAX_RACES];
    uint32_t race_count;
    uint8_t scratch[4096]; /* what a checked read returns: the shader already had it */
    uint64_t first, end;
};

/* Checks the read of [at, end) through the read path, in pieces. */
static void check_read(struct marked_runs *w, uint64_t at, uint64_t end)
{
    const struct mirrored_range *r = w->range;
    VkAccessFlags2 access = read_access_of(r);
    while (at < end) {
        uint64_t n = end - at < sizeof(w->scratch) ? end - at : sizeof(w->scratch);
        vkmm_mm_read(w->x->device->engine, r->memory->mm, at, n, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, access,
                     w->agent, w->scratch);
        at += n;
    }
}

/* The read of [at, end) outside the races. */
static void check_read_outside_races(struct marked_runs *w, uint64_t at, uint64_t end)
{
    for (uint32_t i = 0; i < w->race_count && at < end; i++) {
        const struct race *race = &w->races[i];
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
    struct marked_runs *w = user;
    const struct mirrored_range *r = w->range;
    struct vkmm_device *device = w->x->device;
    uint64_t at = r->offset + offset;
    if (w->write) {
        vkmm_mm_write(device->engine, r->memory->mm, at, length, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, w->agent, r->memory->bytes + at);
    } else {
        check_read_outside_races(w, at, at + length);
    }
    w->first = w->first < at ? w->first : at;
    w->end = w->end > at + length ? w->end : at + length;
}

static void take_marks(struct vkmm_execution *x, const struct mirrored_range *r, const struct vkmm_mm_agent *agent,
                       bool write, struct marked_runs *w)
{
    struct vkmm_device *device = x->device;
    *w = (struct marked_runs){ .x = x, .range = r, .agent = agent, .write = write, .first = UINT64_MAX };
    VkAccessFlags2 read_access = read_access_of(r);
    if (!write) {
        struct vkmm_strict_access whole = { r->memory->id, r->offset, r->size, false,
                                            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, read_access, *agent, false };
        w->race_count = check_access(device, &whole, w->races, false, x->graph);
    }
    vkmm_access_marks_scan(&device->access_marks, &device->address_space, write ? VKMM_MARK_WRITE : VKMM_MARK_READ,
                           r->memory->bytes + r->offset, r->size, take_run, w);
    if (w->first == UINT64_MAX)
        return;
    VkAccessFlags2 access = write ? VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT : read_access;
    struct vkmm_strict_access span = { r->memory->id, w->first, w->end - w->first, write,
                                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, access, *agent, false };
    record_access(device, &span, NULL, x->graph);
}

/* "`data` (OpLoad, line 14)" as the verb for a report. */
static const char *device_race_verb(const struct vkmm_device_race_access *side)
{
    return side->write ? (side->private_ ? "write" : "coherent write") : (side->private_ ? "read" : "coherent read");
}

static void device_race_workgroup(char *out, size_t size, const struct vkmm_execution *x,
                                  const struct vkmm_command *command, uint32_t index)
{
    (void)x;
    const struct vkmm_dispatch *d = command->u.dispatch;
    if (index == UINT32_MAX) {
        snprintf(out, size, "several workgroups");
        return;
    }
    uint32_t cx = d->indirect ? 0 : d->count[0], cy = d->indirect ? 0 : d->count[1];
    if (!cx || !cy)
        snprintf(out, size, "workgroup #%u", index);
    else
        snprintf(out, size, "workgroup (%u,%u,%u)", d->base[0] + index % cx, d->base[1] + index / cx % cy,
                 d->base[2] + index / cx / cy);
}

/* A read of never-written bytes by a dispatch that raced on them is the
 * race's consequence (it read before another workgroup wrote), not a second
 * bug: its pending report goes (one report per bug). */
static void forget_uninitialized(struct vkmm_device *device, const struct vkmm_mm_agent *reader, uint64_t memory_id)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < device->uninitialized_count; i++) {
        const struct vkmm_mm_hazard *h = &device->uninitialized[i].hazard;
        bool same = h->memory_id == memory_id && h->reader_or_second.queue == reader->queue &&
                    h->reader_or_second.submission == reader->submission &&
                    h->reader_or_second.command == reader->command;
        if (!same)
            device->uninitialized[kept++] = device->uninitialized[i];
    }
    device->uninitialized_count = kept;
}

/* A read inside the dispatch returned bytes older than another
 * invocation's write (the subgroup and workgroup domains,
 * dispatch_levels.h): nothing made the write available and visible to the
 * reader, so the two are unsynchronized (DESIGN §3.4 "stale read"). */
static void describe_stale_read(struct vkmm_execution *x, const struct vkmm_dispatch_mirror *mirror,
                                const struct vkmm_device_race *r, struct vkmm_mm_hazard *hazard)
{
    hazard->id = VKMM_MM_HAZARD_DISPATCH_STALE_READ;
    snprintf(hazard->missing, sizeof(hazard->missing),
             "the read of %s missed the write of %s by another invocation%s: make the write available and the "
             "read visible at a scope holding both (Device across workgroups) - MakeAvailable/MakeVisible on the "
             "release/acquire, or devicecoherent - with semantics naming UniformMemory (barrier() covers only "
             "shared memory)",
             r->later.text, r->earlier.text,
             r->held ? " (still in the writer's cache)" : " (the reader used its stale copy)");
    char writer[64], reader[64];
    device_race_workgroup(writer, sizeof(writer), x, mirror->command, r->earlier.workgroup);
    device_race_workgroup(reader, sizeof(reader), x, mirror->command, r->later.workgroup);
    snprintf(hazard->example, sizeof(hazard->example), "%s wrote, %s read first; %llu bytes read stale", writer,
             reader, (unsigned long long)r->bytes);
}

/* A workgroup-scope atomic read-modify-write updated its workgroup's copy
 * while another workgroup changed the bytes: atomics whose scope does not
 * hold both invocations are not ordered with each other (DESIGN §3.2), and
 * one update was lost. */
static void describe_lost_update(struct vkmm_execution *x, const struct vkmm_dispatch_mirror *mirror,
                                 const struct vkmm_device_race *r, struct vkmm_mm_hazard *hazard)
{
    hazard->id = VKMM_MM_HAZARD_DISPATCH_LOST_UPDATE;
    snprintf(hazard->missing, sizeof(hazard->missing),
             "the atomic %s has Workgroup scope, but another workgroup changed the same bytes (%s): atomics whose "
             "scope does not hold both invocations are not ordered, and one update was lost; use Device scope "
             "(gl_ScopeDevice / gl_ScopeQueueFamily) for atomics shared across workgroups",
             r->earlier.text, r->later.text);
    char atomic[64], other[64];
    device_race_workgroup(atomic, sizeof(atomic), x, mirror->command, r->earlier.workgroup);
    device_race_workgroup(other, sizeof(other), x, mirror->command, r->later.workgroup);
    snprintf(hazard->example, sizeof(hazard->example), "%s's copy went out over %s's change", atomic, other);
}

/* Races between workgroups the device-memory monitor found: one report per
 * pair of instructions, with the bytes named as the application knows them.
 * The engine lock is held. */
static void report_device_races(struct vkmm_execution *x, struct vkmm_dispatch_mirror *mirror,
                                const struct vkmm_mm_agent *agent)
{
    struct vkmm_device *device = x->device;
    for (uint32_t i = 0; i < mirror->races.count; i++) {
        const struct vkmm_device_race *r = &mirror->races.race[i];
        const uint8_t *at = (const uint8_t *)device->address_space.base + r->offset;
        const struct mirrored_range *range = NULL;
        for (uint32_t j = 0; j < mirror->count && !range; j++) {
            const uint8_t *begin = mirror->ranges[j].memory->bytes + mirror->ranges[j].offset;
            if (at >= begin && at < begin + mirror->ranges[j].size)
                range = &mirror->ranges[j];
        }
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
        if (r->stale) {
            describe_stale_read(x, mirror, r, &hazard);
        } else if (r->lost) {
            describe_lost_update(x, mirror, r, &hazard);
        } else {
        bool neither = r->earlier.private_ && r->later.private_;
        snprintf(hazard.missing, sizeof(hazard.missing),
                 "the %s of %s and the %s of %s by different workgroups of one dispatch cannot be synchronized: "
                 "%s private (not coherent, no NonPrivatePointer, not atomic), and private accesses never reach "
                 "another workgroup inside a command; declare the buffer coherent (or use atomics) and "
                 "synchronize with release/acquire, or split the work into two dispatches with a barrier between",
                 device_race_verb(&r->earlier), r->earlier.text, device_race_verb(&r->later), r->later.text,
                 neither ? "both are" : r->earlier.private_ ? "the first is" : "the second is");
        char first[64], second[64];
        device_race_workgroup(first, sizeof(first), x, mirror->command, r->earlier.workgroup);
        device_race_workgroup(second, sizeof(second), x, mirror->command, r->later.workgroup);
        snprintf(hazard.example, sizeof(hazard.example), "%s (%s) and %s (%s) first; %llu byte accesses raced",
                 first, device_race_verb(&r->earlier), second, device_race_verb(&r->later),
                 (unsigned long long)r->bytes);
        }
        struct vkmm_hazard_place place;
        describe(device, &hazard, &place);
        vkmm_hazard_report_add(device, &hazard, &place);
        forget_uninitialized(device, agent, range->memory->id);
    }
}

/* The dispatch's exact accesses: first every read (checked against the
 * coherent view before the dispatch's own writes change it), then every
 * write; then the marks are cleared for the next dispatch. */
void vkmm_strict_dispatch_finish(struct vkmm_execution *x, const struct vkmm_command *command,
                                 struct vkmm_dispatch_mirror *mirror)
{
    struct vkmm_device *device = x->device;
    struct vkmm_mm_agent agent = agent_of(x, command);
    struct marked_runs *walk = vkmm_zalloc(&device->allocator, NULL, sizeof(*walk), VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    if (!walk) {
        /* The dispatch's writes cannot be taken: its results would be lost
         * while waits report success.  The device is lost instead. */
        vkmm_device_lose(device, "no host memory to record a dispatch's accesses: the device is lost");
    }
    lock(device);
    for (int write = 0; walk && write < 2; write++) {
        for (uint32_t i = 0; i < mirror->count; i++) {
            if (write && !mirror->ranges[i].storage)
                continue;
            take_marks(x, &mirror->ranges[i], &agent, write, walk);
        }
    }
    for (uint32_t i = 0; i < mirror->count; i++) {
        const struct mirrored_range *r = &mirror->ranges[i];
        vkmm_access_marks_clear(&device->access_marks, &device->address_space, r->memory->bytes + r->offset, r->size);
        vkmm_device_monitor_clear(device->device_monitor, r->memory->bytes + r->offset, r->size);
    }
    report_device_races(x, mirror, &agent);
    unlock(device);
    vkmm_free(&device->allocator, NULL, walk);
    vkmm_free(&device->allocator, NULL, mirror);
}

/* --- Races inside a dispatch ---------------------------------------------------- */

static const char *race_verb(const struct vkmm_workgroup_race_access *side)
{
    return side->atomic ? (side->write ? "atomic write" : "atomic read") : side->write ? "write" : "read";
}

/* The fix, in GLSL and SPIR-V terms, naming the two instructions in program
 * order: the bug's identity, whichever of them ran first. */
static void workgroup_race_missing(const struct vkmm_workgroup_race *r, char *out, size_t size)
{
    const char *why = "";
    if (r->execution_barrier_only)
        why = "; the barrier between them orders execution only (its semantics lack AcquireRelease with "
              "WorkgroupMemory)";
    else if (r->earlier.atomic != r->later.atomic)
        why = "; an atomic and a plain access do not order each other";
    else if (r->same_subgroup)
        why = "; both invocations are in one subgroup, so subgroupBarrier() would also do";
    snprintf(out, size,
             "barrier() (OpControlBarrier Workgroup Workgroup AcquireRelease|WorkgroupMemory) between the %s of %s "
             "and the %s of %s by different invocations of one workgroup%s",
             race_verb(&r->earlier), r->earlier.text, race_verb(&r->later), r->later.text, why);
}

void vkmm_strict_report_workgroup_races(struct vkmm_execution *x, const struct vkmm_command *command,
                                        const struct vkmm_workgroup_races *races)
{
    struct vkmm_mm_agent agent = agent_of(x, command);
    lock(x->device);
    for (uint32_t i = 0; i < races->count; i++) {
        const struct vkmm_workgroup_race *r = &races->race[i];
        struct vkmm_mm_hazard hazard = {
            .id = VKMM_MM_HAZARD_WORKGROUP_RACE,
            .memory_id = VKMM_MM_WORKGROUP_MEMORY,
            .offset = r->offset,
            .size = 1, /* the first byte; r->bytes counts byte accesses, in the example */
            .reader_or_second = agent,
            .writer_or_first = agent,
        };
        workgroup_race_missing(r, hazard.missing, sizeof(hazard.missing));
        const uint32_t *a = r->earlier.invocation, *b = r->later.invocation;
        snprintf(hazard.example, sizeof(hazard.example),
                 "invocation (%u,%u,%u) (%s) and invocation (%u,%u,%u) (%s) of workgroup (%u,%u,%u) first; %llu "
                 "byte accesses raced",
                 a[0], a[1], a[2], race_verb(&r->earlier), b[0], b[1], b[2], race_verb(&r->later), r->workgroup[0],
                 r->workgroup[1], r->workgroup[2], (unsigned long long)r->bytes);
        vkmm_hazard_report_add(x->device, &hazard, NULL);
    }
    unlock(x->device);
}

void vkmm_strict_report_lost_dispatch(struct vkmm_execution *x, const struct vkmm_command *command, const char *text)
{
    struct vkmm_mm_agent agent = agent_of(x, command);
    struct vkmm_mm_hazard hazard = {
        .id = VKMM_MM_HAZARD_DISPATCH_TIMEOUT,
        .memory_id = VKMM_MM_NO_MEMORY,
        .reader_or_second = agent,
        .writer_or_first = agent,
    };
    snprintf(hazard.missing, sizeof(hazard.missing), "%s", text);
    snprintf(hazard.example, sizeof(hazard.example), "the device is lost");
    lock(x->device);
    vkmm_hazard_report_add(x->device, &hazard, NULL);
    unlock(x->device);
}
