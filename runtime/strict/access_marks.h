/* Strict mode's exact accesses (DESIGN §3 "Exact accesses"): two maps as
 * large as the device's address space, one byte per byte of device memory,
 * in which compiled shaders store 1 for every byte they read or write
 * (compiler option track_accesses, shader_abi.h).  After a dispatch the
 * runtime takes the runs of marked bytes — exactly the bytes its
 * invocations touched — and clears them.  Pages never marked are never
 * touched: the maps cost memory only where shaders accessed. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

struct vkmm_address_space;

enum vkmm_access_mark { VKMM_MARK_READ, VKMM_MARK_WRITE };

struct vkmm_access_marks {
    uint8_t *maps[2]; /* NULL: not enabled (fast mode) */
    uint64_t size;
};

/* Reserves the maps for `space` (virtual memory, committed when marked). */
VkResult vkmm_access_marks_init(struct vkmm_access_marks *marks, const struct vkmm_address_space *space);
void vkmm_access_marks_finish(struct vkmm_access_marks *marks);

/* What generated code adds to a device address to reach its mark. */
int64_t vkmm_access_marks_delta(const struct vkmm_access_marks *marks, const struct vkmm_address_space *space,
                                enum vkmm_access_mark which);

/* Calls `run(user, offset, length)` for each run of marked bytes among the
 * device bytes [bytes, bytes + size), offsets relative to `bytes`, in
 * order.  Only pages that hold marks are read. */
void vkmm_access_marks_scan(const struct vkmm_access_marks *marks, const struct vkmm_address_space *space,
                            enum vkmm_access_mark which, const uint8_t *bytes, uint64_t size,
                            void (*run)(void *user, uint64_t offset, uint64_t length), void *user);

/* Clears both maps over the pages covering [bytes, bytes + size): after
 * every range of a dispatch was scanned (pages may hold marks of several of
 * its ranges). */
void vkmm_access_marks_clear(const struct vkmm_access_marks *marks, const struct vkmm_address_space *space,
                             const uint8_t *bytes, uint64_t size);
