/* The bridge's own state, shared by its files (strict.h says which does
 * what).  Nothing outside runtime/strict/ includes this. */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "hazard_report.h"
#include "strict.h"

/* An emulated VkDeviceMemory as the bridge knows it. */
struct vkmm_strict_memory {
    uint64_t id; /* allocation order, not an address: reports do not depend on addresses */
    struct vkmm_mm_memory *mm;
    uint8_t *bytes;
    uint64_t size;
    const char *name; /* interned; NULL: unnamed */
    bool device_addressable;
    struct vkmm_strict_memory *prev, *next;                        /* strict->memories */
    struct vkmm_strict_memory *addressable_prev, *addressable_next; /* strict->addressable */
    struct vkmm_strict_buffer *buffers;                            /* bound to it, newest first */
    bool mapped;
    uint64_t map_offset, map_size;
    uint64_t written_by_submit; /* the last vkQueueSubmit whose work may write it (host_trap.h) */
    uint64_t read_by_submit;    /* the last vkQueueSubmit whose work may read it */
    /* The bytes [mirror_begin, mirror_end) hold what a dispatch's read path
     * (the compute shader stage, mirror_access) gave, with no granule left
     * to check, while the engine's copy had changed mirror_changes times
     * (dispatch_access.c): a dispatch reading them through that path finds
     * them in place.  mirror_end 0: none.  Only peeks and shaders write the
     * bytes in strict mode. */
    uint64_t mirror_changes, mirror_begin, mirror_end;
    VkAccessFlags2 mirror_access;
};

/* A buffer's name over a range of an emulated memory. */
struct vkmm_strict_buffer {
    uint64_t id; /* bind order */
    struct vkmm_strict_memory *memory; /* NULL once the memory is freed */
    uint64_t offset, size;
    const char *name; /* interned; NULL: unnamed */
    struct vkmm_strict_buffer *prev, *next;
};

struct vkmm_strict_access;
struct vkmm_strict_uninitialized;

struct vkmm_strict {
    const VkAllocationCallbacks *allocator;
    struct vkmm_strict_hooks hooks;
    struct vkmm_address_space *space;
    struct vkmm_mm_engine *engine;
    /* Serialises every call into the engine and every field below. */
    pthread_mutex_t lock;
    bool lost; /* the device was lost for the engine's sake */
    struct vkmm_hazard_report report;
    struct vkmm_device_monitor *device_monitor; /* workgroups' accesses in a dispatch (device_monitor.h) */
    /* The monitors of a dispatch's other parts (dispatch_access.c), made when first needed. */
    struct vkmm_device_monitor *helpers[VKMM_STRICT_MAX_HELPERS];
    uint64_t memory_serial, buffer_serial;
    struct vkmm_strict_memory *memories;    /* every emulated memory */
    struct vkmm_strict_memory *addressable; /* those a buffer reference may reach */
    bool host_trap_armed;                   /* mapped views are protected (host_trap.h) */
    bool views_quiet;                       /* some memory's view is vkmm_mm_host_view_quiet */
    bool host_signal_writes;                /* VKMM_HOST_WRITE=before-signal */
    uint64_t submit_calls;                  /* vkQueueSubmit calls, to mark memories */
    /* Command accesses since the device was last idle (command_access.c). */
    struct vkmm_strict_access *accesses;
    uint32_t access_count, access_capacity;
    uint64_t access_latest_submission, access_latest_position; /* the latest recorded, in submission order */
    uint32_t access_overtaken;                                  /* recorded writes of overtaken commands */
    /* Reads of never-written bytes, held until idle (reports.c). */
    struct vkmm_strict_uninitialized *uninitialized;
    uint32_t uninitialized_count;
};

/* Taking the lock is where vkmm's own work on memory begins: the host
 * views protected since the last vkQueueSubmit open first (host_access.c).
 * From a host-side call, the host may write the views from then on: the
 * engine looks for host writes again.  From device work (the _device
 * variant), the views the host did not touch while protected stay quiet
 * (vkmm_mm_host_view_quiet): a host write after the trap opened and
 * before the next host-side call orders with no device work, so it may
 * take effect at that call. */
void vkmm_strict_lock(struct vkmm_strict *strict);
void vkmm_strict_lock_device(struct vkmm_strict *strict);
/* Lock held: every memory's view may change from now on. */
void vkmm_strict_open_views(struct vkmm_strict *strict);
/* Loses the device if the engine ran out of memory, writes the reports
 * found meanwhile, and releases the lock. */
void vkmm_strict_unlock(struct vkmm_strict *strict);
/* A message to the application (hooks.log), formatted. */
void vkmm_strict_log(struct vkmm_strict *strict, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                     VkDebugUtilsMessageTypeFlagsEXT type, const char *id, const char *format, ...)
    __attribute__((format(printf, 5, 6)));
void vkmm_strict_lose(struct vkmm_strict *strict, const char *text);

/* names.c, lock held: the emulated memory numbered `id`, or NULL; the
 * application's names for a hazard's bytes. */
const struct vkmm_strict_memory *vkmm_strict_memory_with_id(const struct vkmm_strict *strict, uint64_t id);
void vkmm_strict_describe(const struct vkmm_strict *strict, const struct vkmm_mm_hazard *hazard,
                          struct vkmm_hazard_place *place);

/* host_access.c, lock held: records the host accesses the trap saw. */
void vkmm_strict_disarm_host_trap(struct vkmm_strict *strict);

/* command_access.c, lock held. */
/* A command's (or the host's) access of [offset, offset + size) of a
 * memory.  agent.submission is the device-wide sequence, agent.position
 * the command's node in its queue's graph (submission order). */
struct vkmm_strict_access {
    uint64_t memory_id;
    uint64_t offset, size;
    bool write;
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
    struct vkmm_mm_agent agent;
    /* A command later in submission order that touches these bytes ran
     * first (reported with it). */
    bool overtaken;
};
/* Parts of a read that a command later in submission order already
 * overwrote. */
struct vkmm_strict_race {
    uint64_t begin, end;
};
#define VKMM_STRICT_MAX_RACES 16
/* Reports the accesses `access` was overtaken by and records it (unless
 * `record` is false: then it only finds races); for a read, returns in
 * `races` (sorted by begin) the bytes it races with. */
uint32_t vkmm_strict_check_access(struct vkmm_strict *strict, const struct vkmm_strict_access *access,
                                  struct vkmm_strict_race *races, bool record, const struct vkmm_strict_graph *graph);
/* A command's read into `out`: checked and recorded, or (peek) neither. */
void vkmm_strict_command_read(struct vkmm_strict *strict, const struct vkmm_strict_command *command,
                              struct vkmm_strict_memory *memory, uint64_t offset, uint64_t size,
                              VkPipelineStageFlags2 stage, VkAccessFlags2 access, uint8_t *out, bool checked);
/* The peek, marking in `suspect` (bit 0: the granule holding `offset`)
 * where a checked read could report (vkmm_mm_peek_marking); racing bytes
 * are not checked afterwards, and get no mark. */
void vkmm_strict_command_peek_marking(struct vkmm_strict *strict, const struct vkmm_strict_command *command,
                                      struct vkmm_strict_memory *memory, uint64_t offset, uint64_t size,
                                      VkPipelineStageFlags2 stage, VkAccessFlags2 access, uint8_t *out,
                                      uint64_t *suspect);
/* Whether a write of a command earlier in submission order than the
 * hazard's reader touched its bytes: the reader overtook it. */
bool vkmm_strict_overtaken_writer(const struct vkmm_strict *strict, const struct vkmm_mm_hazard *hazard);

/* reports.c, lock held. */
/* One hazard: a read of never-written bytes is held until idle, any other
 * is reported at once. */
void vkmm_strict_report(struct vkmm_strict *strict, const struct vkmm_mm_hazard *hazard);
/* The held reads of never-written bytes that no race explains. */
void vkmm_strict_report_uninitialized(struct vkmm_strict *strict);
/* A reader that raced on the memory: its held reads of never-written
 * bytes there are the race's consequence, not a second bug. */
void vkmm_strict_forget_uninitialized(struct vkmm_strict *strict, const struct vkmm_mm_agent *reader,
                                      uint64_t memory_id);
