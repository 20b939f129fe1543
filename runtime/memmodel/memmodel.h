/* The strict-mode memory engine, part 1 (DESIGN §3.1, §3.2, §3.4): the levels
 * below the line API memory dependencies cross, that is stage/access paths,
 * device memory, the host domain and the host view, and the hazard reports.
 *
 * The engine knows no Vulkan object.  Callers describe each access by a
 * memory, a byte range, ONE VkPipelineStageFlagBits2 bit and ONE
 * VkAccessFlagBits2 bit, and each memory dependency by its masks.  With the
 * default seed every result is the stalest one the memory model permits.
 * Callers serialise all calls on one engine (the engine does not lock), and
 * a sink must not call back into the engine.
 *
 * docs/memory-model-engine.md gives each rule, the seed text behind it, and
 * the decisions where the seeds leave room. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

/* Hazard IDs.  Each names the rule a report says was broken. */
/* 000 Visible-To: a device read returned a value other than the coherent one
 * because no AV/VIS pair (004: FLUSH then INVALIDATE) reached its path. */
#define VKMM_MM_HAZARD_STALE_READ "VKMM-HAZARD-STALE-READ"
/* DESIGN §3.2 "atomics": lost updates between atomics of scopes that do not
 * include each other.  Reserved for the shader-access part; part 1 never
 * reports it. */
#define VKMM_MM_HAZARD_LOST_WRITE "VKMM-HAZARD-LOST-WRITE"
/* 004 "the application must ensure either write < read, or read < write".
 * Reserved for the scheduler, which sees reordering; part 1 never reports it. */
#define VKMM_MM_HAZARD_WRITE_AFTER_READ "VKMM-HAZARD-WRITE-AFTER-READ"
/* 004 write-after-write: "There must be some flush ... such that
 * write_1 < flush < invalidate < write_2": an older write became available
 * over a newer one (a lost update). */
#define VKMM_MM_HAZARD_WRITE_AFTER_WRITE "VKMM-HAZARD-WRITE-AFTER-WRITE"
/* 000 vkInvalidateMappedMemoryRanges is a visibility operation from the host
 * domain: host writes in the range that were never flushed are lost. */
#define VKMM_MM_HAZARD_UNFLUSHED_HOST_WRITE "VKMM-HAZARD-UNFLUSHED-HOST-WRITE"
/* 000 Location-Ordered, last bullet: a host read sees a device write only
 * after AV, DOM(device, host) (a HOST_READ dependency) and VIS (a fence wait
 * for coherent memory, vkInvalidateMappedMemoryRanges otherwise). */
#define VKMM_MM_HAZARD_HOST_STALE_READ "VKMM-HAZARD-HOST-STALE-READ"
/* The same rule's commonest case, apart: a host read after the fence or
 * semaphore wait of a device write that was made available but never went
 * through DOM(device, host) — no dependency with dstStageMask ⊇ HOST,
 * dstAccessMask ⊇ HOST_READ.  The spec requires it; many frameworks rely on
 * the wait alone (vkmm_mm_set_host_wait_reads). */
#define VKMM_MM_HAZARD_HOST_READ_NO_DEPENDENCY "VKMM-HAZARD-HOST-READ-NO-DEPENDENCY"
/* DESIGN §3.2 "allocation": "a read of never-written bytes is reported": a
 * device read of bytes of device-local (not host-visible) memory that no
 * write reached since the allocation; they hold vkmm's allocation pattern. */
#define VKMM_MM_HAZARD_UNINITIALIZED_READ "VKMM-HAZARD-UNINITIALIZED-READ"

/* 000 data race, inside a dispatch: two accesses of different invocations
 * of one workgroup to the same bytes of Workgroup storage, at least one a
 * write and not both atomic, with no control barrier that synchronizes
 * Workgroup memory between them (runtime/strict/workgroup_monitor.c). */
#define VKMM_MM_HAZARD_WORKGROUP_RACE "VKMM-HAZARD-WORKGROUP-RACE"
/* 000 "Private": accesses of different workgroups of one dispatch to the
 * same bytes, at least one a write and at least one private — private
 * accesses never communicate with another invocation inside a command, so
 * nothing the shader does can order them (runtime/strict/device_monitor.c). */
#define VKMM_MM_HAZARD_DISPATCH_RACE "VKMM-HAZARD-DISPATCH-RACE"
#define VKMM_MM_HAZARD_DISPATCH_STALE_READ "VKMM-HAZARD-DISPATCH-STALE-READ"
#define VKMM_MM_HAZARD_DISPATCH_LOST_UPDATE "VKMM-HAZARD-DISPATCH-LOST-UPDATE"
/* DESIGN §3.3 "no hangs": a dispatch still running when its time was up
 * (typically a spin on a value it can never see); the device is lost. */
#define VKMM_MM_HAZARD_DISPATCH_TIMEOUT "VKMM-HAZARD-DISPATCH-TIMEOUT"
/* A hazard's memory_id for a workgroup's shared memory (offsets are in it). */
#define VKMM_MM_WORKGROUP_MEMORY UINT64_MAX
/* ... for a hazard about no memory in particular (a dispatch timeout). */
#define VKMM_MM_NO_MEMORY (UINT64_MAX - 1)

/* The agent of host accesses the engine discovers by itself (bytes changed
 * through the mapped pointer) has this queue. */
#define VKMM_MM_HOST_QUEUE UINT32_MAX

struct vkmm_mm_engine; /* one per VkDevice */
struct vkmm_mm_memory; /* one per VkDeviceMemory */

struct vkmm_mm_agent {
    uint32_t queue;
    uint64_t submission;
    uint32_t command;
    uint32_t position; /* the caller's own place for the command (strict mode: its node) */
    /* Where the application recorded it ("command buffer 'a', label 'b'"),
     * or NULL; from vkmm_mm_intern, so that it lives as long as the engine. */
    const char *where;
    const char *kind; /* "vkCmdCopyBuffer", "host", ... */
};

struct vkmm_mm_hazard {
    const char *id; /* one of VKMM_MM_HAZARD_* */
    uint64_t memory_id;
    uint64_t offset, size;
    struct vkmm_mm_agent reader_or_second, writer_or_first;
    char missing[512]; /* the missing operation in Vulkan terms */
    char example[384]; /* one occurrence (e.g. the invocations), not part of the bug's identity; may be empty */
    /* An uninitialised read of bytes a layout transition from UNDEFINED
     * discarded (earlier writes of them were not overtaken: they were
     * discarded). */
    bool discarded;
};

/* Called once per hazard, synchronously, from inside the engine call that
 * found it.  The struct lives for the call; the agents' kind strings live as
 * long as the engine. */
typedef void (*vkmm_mm_sink)(void *user, const struct vkmm_mm_hazard *hazard);

struct vkmm_mm_engine *vkmm_mm_engine_create(vkmm_mm_sink sink, void *user, uint64_t seed);
/* The same with the device's allocator (NULL: libc); engine memory has
 * VK_SYSTEM_ALLOCATION_SCOPE_DEVICE. */
struct vkmm_mm_engine *vkmm_mm_engine_create2(vkmm_mm_sink sink, void *user, uint64_t seed,
                                              const VkAllocationCallbacks *allocator);
/* Runs fn(context, i) for every i in [0, count) on the caller's idle
 * threads and returns when every call returned. */
typedef void (*vkmm_mm_parallel_fn)(void *context, uint64_t index);
typedef void (*vkmm_mm_parallel)(void *user, uint64_t count, vkmm_mm_parallel_fn fn, void *context);
/* Large copies and comparisons of the engine's levels go through
 * `parallel` (NULL: on the calling thread).  It must not call back into
 * the engine. */
void vkmm_mm_set_parallel(struct vkmm_mm_engine *, vkmm_mm_parallel parallel, void *user);
/* The common reading of host waits (VKMM_HOST_READ=after-wait): a fence or
 * semaphore wait on the host also performs the device-to-host domain
 * operation for every byte made available, as if the waited-for work ended
 * with a HOST / HOST_READ dependency. */
void vkmm_mm_set_host_wait_reads(struct vkmm_mm_engine *, bool enabled);
/* The common reading of host signals (VKMM_HOST_WRITE=before-signal): a
 * host semaphore signal or event set performs the host-to-device domain
 * operation for every host write, as vkQueueSubmit does.  The spec gives
 * vkSignalSemaphore no access scope; the CTS's device_host tests and many
 * programs rely on it. */
void vkmm_mm_host_signal(struct vkmm_mm_engine *);
/* Destroys any memory still alive too. */
void vkmm_mm_engine_destroy(struct vkmm_mm_engine *);
/* VK_ERROR_OUT_OF_HOST_MEMORY once any allocation inside a void call failed
 * (sticky); the results of such a call may be fresher than strict. */
VkResult vkmm_mm_engine_status(const struct vkmm_mm_engine *);
/* The same, cleared: the caller handles the failure (a call that returns
 * one, or the device lost after a void call that could not keep the
 * machine's state). */
VkResult vkmm_mm_engine_take_status(struct vkmm_mm_engine *);
/* A copy of `text` that lives as long as the engine (one per distinct
 * text); NULL for NULL.  Engine calls are not thread-safe: the caller
 * serialises this with them. */
const char *vkmm_mm_intern(struct vkmm_mm_engine *, const char *text);
/* Stage and access masks as reports write them ("COMPUTE_SHADER|COPY",
 * "NONE" for 0). */
void vkmm_mm_stage_names(char *buf, size_t n, VkPipelineStageFlags2 mask);
void vkmm_mm_access_names(char *buf, size_t n, VkAccessFlags2 mask);
/* Hazards reported so far. */
uint64_t vkmm_mm_hazard_count(const struct vkmm_mm_engine *);

/* New memory holds a deterministic non-zero pattern (a function of id, offset
 * and the seed) at every level.  NULL when out of memory. */
struct vkmm_mm_memory *vkmm_mm_memory_create(struct vkmm_mm_engine *, uint64_t id, uint64_t size, bool host_visible,
                                             bool host_coherent);
void vkmm_mm_memory_destroy(struct vkmm_mm_memory *);
/* What vkMapMemory returns: the host view level (NULL unless host-visible). */
uint8_t *vkmm_mm_host_view(struct vkmm_mm_memory *);
/* Bytes of whole pages the host view owns from its start (0 when it shares
 * pages: with application allocation callbacks): what may be protected. */
size_t vkmm_mm_host_view_span(const struct vkmm_mm_memory *);
/* The caller vouches that no host write reaches the view until it calls
 * vkmm_mm_host_view_open or a host-side engine call (flush, invalidate,
 * submit, host signal or wait, host read or write) comes: the view is
 * protected against writes, or not mapped.  When the engine took in all of
 * the view since the last host-side call (a submission's implicit flush of
 * host-coherent memory), device accesses then skip looking for host writes
 * in it — a comparison of every byte they touch with the engine's copy. */
void vkmm_mm_host_view_quiet(struct vkmm_mm_memory *);
void vkmm_mm_host_view_open(struct vkmm_mm_memory *);
/* Versions of granules kept in the history of device memory (a test and
 * debug aid). */
uint64_t vkmm_mm_memory_history(const struct vkmm_mm_memory *);
/* Bytes of engine state the memory holds now (values, metadata, history):
 * what the strict-mode benchmark divides by the bytes touched. */
uint64_t vkmm_mm_memory_state_bytes(const struct vkmm_mm_memory *);

/* Command accesses: whole-command accesses through the (stage, access) path.
 * `stage` is ONE VkPipelineStageFlagBits2 bit and `access` ONE
 * VkAccessFlagBits2 bit; pass the most specific bits (COPY rather than
 * ALL_TRANSFER, SHADER_STORAGE_READ rather than SHADER_READ): a path named by
 * a meta bit is in a dependency's scope only when the scope holds every bit
 * the meta bit stands for.  HOST stage or HOST_READ/HOST_WRITE access means
 * the host through the mapped pointer (the host view of host-visible memory;
 * on other memory such an access does nothing). */
void vkmm_mm_read(struct vkmm_mm_engine *, struct vkmm_mm_memory *, uint64_t offset, uint64_t size,
                  VkPipelineStageFlags2 stage, VkAccessFlags2 access, const struct vkmm_mm_agent *agent, void *out);
void vkmm_mm_write(struct vkmm_mm_engine *, struct vkmm_mm_memory *, uint64_t offset, uint64_t size,
                   VkPipelineStageFlags2 stage, VkAccessFlags2 access, const struct vkmm_mm_agent *agent,
                   const void *data);

/* An image layout transition from VK_IMAGE_LAYOUT_UNDEFINED over the
 * bytes, by `agent` (the barrier), at the point of the barrier where it
 * happens (after its availability operations): the contents become a
 * seeded pattern, visible to the barrier's second scope (dst_stages,
 * dst_access); a device read of them before another write is
 * VKMM-HAZARD-UNINITIALIZED-READ. */
void vkmm_mm_discard(struct vkmm_mm_engine *, struct vkmm_mm_memory *, uint64_t offset, uint64_t size,
                     const struct vkmm_mm_agent *agent, VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access);

/* The runs of bytes in [offset, offset + size) the host changed through
 * the mapped pointer since the engine last took in its writes (a write
 * of a byte's own value changes nothing and is not seen). */
void vkmm_mm_host_changed_runs(const struct vkmm_mm_memory *, uint64_t offset, uint64_t size,
                               void (*run)(void *user, uint64_t offset, uint64_t length), void *user);

/* What vkmm_mm_read would return, without a report: the values a dispatch
 * may read, materialised before it runs (its exact reads are checked with
 * vkmm_mm_read afterwards). */
void vkmm_mm_peek(struct vkmm_mm_engine *, struct vkmm_mm_memory *, uint64_t offset, uint64_t size,
                  VkPipelineStageFlags2 stage, VkAccessFlags2 access, void *out);
/* Shadow state is kept per granule: the unit of vkmm_mm_peek_marking. */
#define VKMM_MM_GRANULE_BYTES 64u
/* vkmm_mm_peek that also sets, in `suspect` (one bit per granule, bit 0
 * for the granule holding `suspect_offset`, at most `offset`), each
 * granule where vkmm_mm_read of the same path could report something.  The bits hold while
 * vkmm_mm_memory_changes stays the same: the checks after a dispatch then
 * skip the granules without a bit (most of them). */
void vkmm_mm_peek_marking(struct vkmm_mm_engine *, struct vkmm_mm_memory *, uint64_t offset, uint64_t size,
                          VkPipelineStageFlags2 stage, VkAccessFlags2 access, void *out, uint64_t *suspect,
                          uint64_t suspect_offset);
/* Grows whenever the device level or the coherent view of the memory
 * changes (a landing write, a write entering the coherent view). */
uint64_t vkmm_mm_memory_changes(const struct vkmm_mm_memory *);
/* Host writes in the view of [offset, offset + size) enter the coherent
 * view now, as any engine call that looks at those bytes would take them
 * (a change: vkmm_mm_memory_changes grows). */
void vkmm_mm_take_host_writes(struct vkmm_mm_engine *, struct vkmm_mm_memory *, uint64_t offset, uint64_t size);

/* What a read racing with an already-run write returns: the coherent view
 * (every write in execution order).  The memory model leaves a racing
 * read's value open; strict mode shows the write that should not have
 * happened yet.  No report: the caller reports the race itself. */
void vkmm_mm_read_racing(struct vkmm_mm_engine *, struct vkmm_mm_memory *, uint64_t offset, uint64_t size, void *out);

/* A memory dependency (pipeline barrier, event, semaphore, fence, submission
 * boundary).  Masks may hold many bits and meta bits (ALL_COMMANDS,
 * ALL_TRANSFER, MEMORY_READ/WRITE, SHADER_READ/WRITE, ...).  memory NULL: a
 * global barrier; else a buffer barrier on [offset, offset + size), size may
 * be VK_WHOLE_SIZE. */
typedef bool (*vkmm_mm_writer_filter)(void *user, const struct vkmm_mm_agent *writer);
struct vkmm_mm_dependency {
    VkPipelineStageFlags2 src_stages, dst_stages;
    VkAccessFlags2 src_access, dst_access;
    struct vkmm_mm_memory *memory;
    uint64_t offset, size;
    /* The first synchronization scope, where the caller knows it: only
     * writes of commands it accepts become available (000: the availability
     * operation's source scope is the writes in the first access scope,
     * which is limited to the first synchronization scope).  NULL: every
     * write in the write paths of the access scope. */
    vkmm_mm_writer_filter writers;
    void *writers_user;
};
void vkmm_mm_dependency(struct vkmm_mm_engine *, const struct vkmm_mm_dependency *);

/* Host side.  size may be VK_WHOLE_SIZE. */
/* vkFlushMappedMemoryRanges: the bytes the host changed in the range become
 * available in the host domain (they reach device memory at the next
 * host->device domain operation: vkmm_mm_submit or a HOST_WRITE dependency). */
void vkmm_mm_flush(struct vkmm_mm_engine *, struct vkmm_mm_memory *, uint64_t offset, uint64_t size);
/* vkInvalidateMappedMemoryRanges: host domain -> host view; unflushed host
 * writes there are lost (VKMM-HAZARD-UNFLUSHED-HOST-WRITE). */
void vkmm_mm_invalidate(struct vkmm_mm_engine *, struct vkmm_mm_memory *, uint64_t offset, uint64_t size);
/* vkQueueSubmit: host->device domain operation (implicit flush first for
 * host-coherent memory), then a visibility operation to all device read
 * paths.  Call it at the emulated moment of the vkQueueSubmit call. */
void vkmm_mm_submit(struct vkmm_mm_engine *);
/* vkmm_mm_submit whose domain operation reads the host views of `memories`
 * only: those the submitted work may touch.  Another host thread may be
 * writing an unrelated mapped memory meanwhile (it owes this call no
 * ordering); its writes reach the device domain at the first submission
 * whose work touches that memory, before that work runs. */
void vkmm_mm_submit_memories(struct vkmm_mm_engine *, struct vkmm_mm_memory *const *memories, uint32_t count);
/* The host observed completion (fence/semaphore wait): host-coherent views
 * show the host domain (implicit invalidate); non-coherent views change only
 * at vkmm_mm_invalidate.  Only views whose host domain received device bytes
 * since they were last placed are touched: the others have nothing to show,
 * and another host thread may be writing them. */
void vkmm_mm_host_wait(struct vkmm_mm_engine *);
/* The host is about to read [offset, offset + size) of the view: report
 * VKMM-HAZARD-HOST-STALE-READ where it differs from the coherent view.
 * Returns true when the view matches. */
bool vkmm_mm_check_host_read(struct vkmm_mm_engine *, struct vkmm_mm_memory *, uint64_t offset, uint64_t size);

/* The coherent view: what a fully coherent in-order machine would hold. */
void vkmm_mm_coherent_read(struct vkmm_mm_memory *, uint64_t offset, uint64_t size, void *out);
