/* The host's side of strict mode (strict.h): mapped memory with the host's
 * own view, flush and invalidate, the host→device domain operation of
 * vkQueueSubmit, host waits and signals, and the host trap that sees host
 * accesses made while submitted work is pending (host_trap.h). */
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "bridge.h"
#include "host_trap.h"

/* --- Mapped memory ------------------------------------------------------------ */

void *vkmm_strict_map(struct vkmm_strict *strict, struct vkmm_strict_memory *memory, uint64_t offset,
                      uint64_t size)
{
    vkmm_strict_lock(strict);
    memory->mapped = true;
    memory->map_offset = offset;
    memory->map_size = size;
    uint8_t *view = vkmm_mm_host_view(memory->mm) + offset;
    vkmm_strict_unlock(strict);
    return view;
}

/* vkmm cannot see a read through the mapped pointer; when the host lets go
 * of a mapping (unmap, free) the bytes it could have read are checked
 * against the coherent view (000 Location-Ordered, last bullet: a host read
 * sees a device write only after AV, a HOST_READ domain operation and VIS). */
void vkmm_strict_unmap(struct vkmm_strict *strict, struct vkmm_strict_memory *memory)
{
    vkmm_strict_lock(strict);
    if (memory->mapped)
        vkmm_mm_check_host_read(strict->engine, memory->mm, memory->map_offset, memory->map_size);
    memory->mapped = false;
    memory->map_offset = memory->map_size = 0;
    vkmm_strict_unlock(strict);
}

void vkmm_strict_flush(struct vkmm_strict *strict, struct vkmm_strict_memory *memory, uint64_t offset,
                       uint64_t size)
{
    vkmm_strict_lock(strict);
    vkmm_mm_flush(strict->engine, memory->mm, offset, size);
    vkmm_strict_unlock(strict);
}

void vkmm_strict_invalidate(struct vkmm_strict *strict, struct vkmm_strict_memory *memory, uint64_t offset,
                            uint64_t size)
{
    vkmm_strict_lock(strict);
    vkmm_mm_invalidate(strict->engine, memory->mm, offset, size);
    vkmm_strict_unlock(strict);
}

/* --- Host synchronization ----------------------------------------------------- */

void vkmm_strict_host_signal(struct vkmm_strict *strict)
{
    if (!strict->host_signal_writes)
        return;
    vkmm_strict_lock(strict);
    vkmm_mm_host_signal(strict->engine);
    vkmm_strict_unlock(strict);
}

void vkmm_strict_host_wait(struct vkmm_strict *strict)
{
    /* Not vkmm_strict_lock: views the host has not touched since the
     * submission stay quiet, and the wait need not look for host writes in
     * them (vkmm_mm_host_wait opens them all). */
    vkmm_strict_lock_device(strict);
    vkmm_mm_host_wait(strict->engine);
    vkmm_strict_unlock(strict);
}

void vkmm_strict_idle(struct vkmm_strict *strict)
{
    vkmm_strict_lock_device(strict); /* device-side: quiet views stay quiet */
    vkmm_strict_report_uninitialized(strict);
    strict->access_count = 0;
    strict->access_overtaken = 0;
    vkmm_strict_unlock(strict);
}

/* --- Host accesses while work is pending (host_trap.h) ------------------------ */

/* Each trapped access becomes a host access later in submission order
 * than everything submitted when the views were protected: device work
 * that runs afterwards and touches its bytes was overtaken by the host. */
struct host_record {
    struct vkmm_strict *strict;
    struct vkmm_strict_access access;
};

static void record_host_run(void *user, uint64_t offset, uint64_t length)
{
    struct host_record *r = user;
    r->access.offset = offset;
    r->access.size = length;
    vkmm_strict_check_access(r->strict, &r->access, NULL, true, NULL);
}

static void record_host_access(struct vkmm_strict *strict, const struct vkmm_host_access *access)
{
    const struct vkmm_strict_memory *memory = vkmm_strict_memory_with_id(strict, access->memory_id);
    if (!memory || access->offset >= memory->size)
        return;
    struct host_record record = {
        .strict = strict,
        .access = {
            .memory_id = memory->id,
            .write = access->write,
            .stage = VK_PIPELINE_STAGE_2_HOST_BIT,
            .access = access->write ? VK_ACCESS_2_HOST_WRITE_BIT : VK_ACCESS_2_HOST_READ_BIT,
            .agent = { .queue = VKMM_MM_HOST_QUEUE, .submission = access->sequence, .position = UINT32_MAX,
                       .kind = access->write ? "host write through the mapped pointer"
                                             : "host read through the mapped pointer" },
        },
    };
    if (access->write) {
        /* Only the first access to a page faults: the host's writes there
         * are the bytes it changed since the engine last took them in (at
         * the submission). */
        uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), start = access->offset & ~(page - 1);
        vkmm_mm_host_changed_runs(memory->mm, start, page, record_host_run, &record);
        return;
    }
    /* The faulting address is the read's first byte; 16 bytes cover the
     * widest host load. */
    record_host_run(&record, access->offset, memory->size - access->offset < 16 ? memory->size - access->offset : 16);
}

void vkmm_strict_disarm_host_trap(struct vkmm_strict *strict)
{
    struct vkmm_host_access accesses[64];
    uint32_t count = vkmm_host_trap_release(strict, accesses, 64);
    strict->host_trap_armed = false;
    /* The host touched a view while it was protected: the engine looks
     * for its writes again (any access: a page the host read is open). */
    if (count)
        vkmm_strict_open_views(strict);
    uint64_t syncs = vkmm_host_trap_syncs();
    for (uint32_t i = 0; i < count; i++) {
        /* A host write after vkQueueSubmit is legal when an event or a
         * host-signalled semaphore orders it before the work that touches
         * its bytes, which the trap cannot tell: a write is checked only
         * when the host signalled nothing since it. */
        bool ordered_maybe = accesses[i].write && accesses[i].syncs != syncs;
        if (!ordered_maybe)
            record_host_access(strict, &accesses[i]);
    }
}

/* Lock held.  Marks what the submission's work may touch: the memories it
 * may write (their views are closed to the host until the next engine
 * call) or only read (open to host reads). */
static void mark_touched(struct vkmm_strict *strict, uint64_t stamp, const struct vkmm_strict_touch *touched,
                         uint32_t count, bool everything)
{
    for (struct vkmm_strict_memory *m = strict->memories; m && everything; m = m->next)
        m->written_by_submit = stamp;
    for (uint32_t i = 0; i < count && !everything; i++) {
        if (touched[i].write)
            touched[i].memory->written_by_submit = stamp;
        else
            touched[i].memory->read_by_submit = stamp;
    }
}

/* Lock held.  The host->device domain operation over the memories marked
 * `stamp`. */
static void domain_operation(struct vkmm_strict *strict, uint64_t stamp)
{
    uint32_t count = 0, marked = 0;
    for (const struct vkmm_strict_memory *m = strict->memories; m; m = m->next)
        count++;
    struct vkmm_mm_memory **memories = vkmm_zalloc(strict->allocator, NULL, (count ? count : 1) * sizeof(*memories),
                                                   VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    if (!memories) {
        vkmm_mm_submit(strict->engine); /* every memory: slower, never wrong */
        return;
    }
    for (const struct vkmm_strict_memory *m = strict->memories; m; m = m->next) {
        if (m->written_by_submit == stamp || m->read_by_submit == stamp)
            memories[marked++] = m->mm;
    }
    vkmm_mm_submit_memories(strict->engine, memories, marked);
    vkmm_free(strict->allocator, NULL, memories);
}

uint64_t vkmm_strict_submit(struct vkmm_strict *strict, const struct vkmm_strict_touch *touched, uint32_t count,
                            bool everything)
{
    vkmm_strict_lock(strict);
    uint64_t stamp = ++strict->submit_calls;
    mark_touched(strict, stamp, touched, count, everything);
    domain_operation(strict, stamp);
    vkmm_strict_unlock(strict);
    return stamp;
}

/* Only the memories the submission marked are protected; their mapping
 * state is the bridge's, read under its lock (vkmm_strict_map). */
void vkmm_strict_submitted(struct vkmm_strict *strict, uint64_t stamp, uint64_t sequence)
{
    if (!vkmm_host_trap_enabled())
        return;
    vkmm_strict_lock(strict);
    for (struct vkmm_strict_memory *m = strict->memories; m; m = m->next) {
        bool written = m->written_by_submit == stamp, read = m->read_by_submit == stamp;
        if (!written && !read)
            continue;
        bool protected = m->mapped && vkmm_host_trap_protect(strict, m->id, vkmm_mm_host_view(m->mm),
                                                             vkmm_mm_host_view_span(m->mm), sequence, !written);
        strict->host_trap_armed |= protected;
        /* The submission just took in all of the view (host-coherent
         * memory): until the host touches it, it stays as it is. */
        if (protected || !m->mapped) {
            vkmm_mm_host_view_quiet(m->mm);
            strict->views_quiet = true;
        }
    }
    /* Not vkmm_strict_unlock: nothing was reported, and the views stay
     * protected until the next call takes the lock. */
    pthread_mutex_unlock(&strict->lock);
}
