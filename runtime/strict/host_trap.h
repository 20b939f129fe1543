/* Strict mode sees host reads and writes through a mapped pointer while
 * submitted work has not been waited for: from the end of vkQueueSubmit
 * to the next call into strict mode's engine, the host views of mapped
 * memory are protected, and the first access to each page faults into a
 * SIGSEGV handler that records it and opens the page.  The access then
 * goes on; the recorded place becomes a host access that strict mode
 * checks against the device work that runs later (host_access.c).
 * Faults that are not in a protected view go to the handler that was
 * installed before.  VKMM_HOST_TRAP=0 turns it off. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vkmm_host_access {
    uint64_t memory_id;
    uint64_t offset;   /* in the memory */
    uint64_t sequence; /* the latest submission when the view was protected */
    bool write;
    uint64_t syncs;    /* vkmm_host_trap_syncs() when it faulted */
};

/* Whether trapping is on (VKMM_HOST_TRAP); the handler goes in when a view
 * is protected. */
bool vkmm_host_trap_enabled(void);
/* Protects `span` bytes (whole pages) at `view` for `owner` (a device):
 * every access faults, or with `reads_open` only writes (memory the
 * submitted work reads but never writes: the host may read it freely). */
bool vkmm_host_trap_protect(const void *owner, uint64_t memory_id, uint8_t *view, size_t span, uint64_t sequence,
                            bool reads_open);
/* The host signalled a semaphore or set an event: host writes made before
 * may be ordered before device work by it (the trap cannot tell which
 * work waits for it). */
void vkmm_host_trap_note_sync(void);
uint64_t vkmm_host_trap_syncs(void);
/* Opens every view `owner` protected and returns the accesses recorded for
 * it since (at most `capacity`; later ones are dropped). */
uint32_t vkmm_host_trap_release(const void *owner, struct vkmm_host_access *out, uint32_t capacity);
