/* The interface between generated shader code and the runtime.  Generated
 * code reads these structures at the offsets given here, so any change must
 * change both sides (the _Static_asserts pin the layout). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VKMM_SHADER_MAX_SETS 8

struct vkmm_descriptor;

/* What one call of a compiled shader function needs: one subgroup of one
 * workgroup. */
struct vkmm_shader_invocation {
    const struct vkmm_descriptor *sets[VKMM_SHADER_MAX_SETS]; /* descriptor arrays, dynamic offsets applied */
    const uint8_t *push_constants;                            /* VKMM_MAX_PUSH_CONSTANT_SIZE bytes */
    uint8_t *shared_memory;                                   /* the workgroup's Workgroup storage */
    uint32_t workgroup_id[3];                                 /* including the dispatch base */
    uint32_t num_workgroups[3];
    uint32_t subgroup_id;
    uint32_t workgroup_tag; /* strict mode: the workgroup's linear index + 1, for the device-memory monitor */
    /* All device memory: where buffer-reference (PhysicalStorageBuffer)
     * pointers may point. */
    uint64_t device_memory_base;
    uint64_t device_memory_end;
    /* Strict mode (monitor_workgroup_memory): the workgroup-memory monitor
     * of this workgroup.  Every access to Workgroup storage first calls
     * workgroup_access with the lanes' byte addresses (W of them, inactive
     * lanes included), the active lanes as bits, size | VKMM_WORKGROUP_* << 16,
     * the subgroup, the instruction (word offset << 32 | OpLine line) and
     * its text; the value returned is added to every lane's address (0, or
     * the distance to a view where racing bytes hold what the model lets
     * the read see instead).  Control barriers call workgroup_barrier with
     * their VKMM_WORKGROUP_BARRIER_* kind before they suspend. */
    void *workgroup_monitor;
    int64_t (*workgroup_access)(void *monitor, const uint64_t *addresses, uint64_t lanes, uint32_t size_flags,
                                uint32_t subgroup, uint64_t site, const char *text);
    void (*workgroup_barrier)(void *monitor, uint32_t subgroup, uint32_t kind);
    /* Strict mode (monitor_device_memory): every load, store and atomic of
     * device memory (buffers, buffer references) first calls device_access,
     * with the same arguments as workgroup_access but the workgroup's tag in
     * place of the subgroup and VKMM_ACCESS_PRIVATE in the flags for a
     * private access (neither Coherent/Volatile nor NonPrivatePointer nor
     * atomic) and the access's scope at VKMM_ACCESS_SCOPE_SHIFT (the scope
     * of its MakePointerAvailable/MakePointerVisible, device scope for
     * legacy Coherent/Volatile and image accesses, an atomic's own scope),
     * then the subgroup.  A nonzero result means it rewrote some lanes'
     * addresses in the array: the access must use those.  Memory barriers,
     * control barriers and atomics with semantics on device memory call
     * device_fence with the scope | VKMM_FENCE_AVAILABLE / VKMM_FENCE_VISIBLE
     * (dispatch_levels.h): availability before, visibility after. */
    void *device_monitor;
    int64_t (*device_access)(void *monitor, uint64_t *addresses, uint64_t lanes, uint32_t size_flags,
                             uint32_t workgroup_tag, uint64_t site, const char *text, uint32_t subgroup);
    /* The watchdog (poll_loops): every VKMM_POLL_ITERATIONS passes through
     * a loop header a subgroup calls poll with the loop's text ("the loop at
     * line 12"); a nonzero result means the dispatch is over (its time ran
     * out, or another workgroup's did): the subgroup returns
     * VKMM_SHADER_ABORTED at once and is never resumed. */
    void *poll_context;
    int32_t (*poll)(void *context, const struct vkmm_shader_invocation *invocation, const char *loop);
    /* Image and texel-buffer accesses convert texels with these
     * (texel_format.h, vkmm_texels_decode / vkmm_texels_encode): W lanes at
     * once, the format of each lane from its descriptor. */
    void (*texel_decode)(uint32_t *values, const uint32_t *raw, const uint32_t *formats, uint32_t width);
    void (*texel_encode)(uint32_t *raw, const uint32_t *values, const uint32_t *formats, uint32_t width);
    /* Returns 0, or for VKMM_FENCE_EARLY_STORE whether the store goes early. */
    uint32_t (*device_fence)(void *monitor, uint32_t workgroup_tag, uint32_t subgroup, uint32_t kind);
};

#define VKMM_POLL_ITERATIONS 4096 /* a power of two */

/* For a monitor hook: the offset of a lane's `size` bytes at `address` in
 * the memory [base, base + limit), or false when they are not all in it
 * (the generated code's bounds check drops such a lane's access). */
static inline bool vkmm_lane_offset(uint64_t address, uint64_t base, uint64_t limit, uint32_t size, uint64_t *offset)
{
    *offset = address - base;
    return address >= base && *offset <= limit && size <= limit - *offset;
}

enum vkmm_workgroup_access_flag {
    VKMM_WORKGROUP_READ = 1,
    VKMM_WORKGROUP_WRITE = 2,
    VKMM_WORKGROUP_ATOMIC = 4,
    VKMM_ACCESS_PRIVATE = 8,
    /* A load that a later load of the module (in word order) reads through
     * the same variable: the device and workgroup monitors may let such a
     * racing read see the newer bytes on some seeds, and keep the last one
     * stale (DESIGN §3 "Manifest"; runtime/strict/device_monitor.c). */
    VKMM_ACCESS_READ_AGAIN = 64,
    /* A store whose MakePointerAvailable names the scope passed with it
     * (Vulkan memory model): strict mode's levels may keep a device-scope
     * one in the workgroup domain until the next device-scope release
     * (runtime/strict/dispatch_levels.c, "delayed availability"). */
    VKMM_ACCESS_MADE_AVAILABLE = 128,
    /* Workgroup storage of a module whose atomics all work on Workgroup
     * storage: strict mode's store buffers for its atomic stores
     * (runtime/strict/workgroup_store_buffer.h), no race judgement. */
    VKMM_ACCESS_STORE_BUFFER = 256,
    /* An atomic store with Release semantics. */
    VKMM_ACCESS_RELEASE = 512,
    /* A store performed before a load that precedes it in program order
     * (compiler/early_stores.c): a racing read may see its bytes on seeds
     * other than 0 (load buffering), even where it is its variable's last. */
    VKMM_ACCESS_EARLY_STORE = 1024,
    /* The module's fences or atomics may order Workgroup memory (000
     * "Synchronizes-With"): the workgroup monitor follows their releases
     * and acquires (VKMM_WORKGROUP_SYNC) besides control barriers. */
    VKMM_ACCESS_ATOMIC_SYNC = 2048,
    /* An atomic on Workgroup storage whose scope is Subgroup or Invocation:
     * it is mutually ordered only with atomics of its own subgroup (000
     * "Data Race": atomics race unless each one's scope holds the other
     * invocation). */
    VKMM_ACCESS_NARROW_ATOMIC = 4096,
    /* A load that its invocation follows with a store through the same
     * variable (an in-place update): a racing read of it whose write comes later in
     * the module may see the newer bytes — the value the program did not
     * mean (runtime/strict/device_monitor.c, "anti-dependencies"). */
    VKMM_ACCESS_UPDATED_AFTER = 8192,
};
#define VKMM_ACCESS_SCOPE_SHIFT 4 /* 2 bits: enum vkmm_access_scope */

/* The scope of an access or fence as the generated code passes it. */
enum vkmm_access_scope {
    VKMM_SCOPE_NONE = 0,      /* no availability/visibility (NonPrivatePointer alone, relaxed atomic store) */
    VKMM_SCOPE_SUBGROUP = 1,  /* Subgroup or Invocation scope */
    VKMM_SCOPE_WORKGROUP = 2, /* Workgroup scope */
    VKMM_SCOPE_DEVICE = 3,    /* QueueFamily, Device or CrossDevice scope */
};

/* A fence's kind: scope | VKMM_FENCE_* bits. */
#define VKMM_FENCE_AVAILABLE 4u /* MakeAvailable (or a legacy release) on device memory */
#define VKMM_FENCE_VISIBLE 8u   /* MakeVisible (or a legacy acquire) on device memory */
#define VKMM_FENCE_RELEASE 16u  /* a release without MakeAvailable: orders the atomic stores before it */
#define VKMM_FENCE_ACQUIRE 32u  /* an acquire without MakeVisible (VKMM_SHADER_FENCES=common reads it as one) */
#define VKMM_FENCE_SYNC 64u     /* an acquire that names no device memory, or at Subgroup scope: it still
                                   orders the invocation's later atomic loads (atomic_history.h) */
#define VKMM_FENCE_ATOMIC 128u  /* the acquire half of an atomic on device memory: it synchronizes with the
                                   write that atomic read, not with everything current */
#define VKMM_FENCE_EARLY_STORE 256u /* no fence: asks whether a store goes before the load ahead of it
                                       (compiler/early_stores.c), a seeded coin */
#define VKMM_FENCE_SHARED_ATOMIC 512u /* the acquire half of an atomic on Workgroup storage: strict mode's
                                         happens-before matches it with the release that atomic read */


enum vkmm_workgroup_barrier_kind {
    VKMM_WORKGROUP_BARRIER_EXECUTION = 0, /* Workgroup execution scope, no Workgroup-memory semantics */
    VKMM_WORKGROUP_BARRIER_MEMORY = 1,    /* Workgroup execution scope, synchronizes Workgroup memory */
    VKMM_SUBGROUP_BARRIER_MEMORY = 2,     /* Subgroup execution scope, synchronizes Workgroup memory */
    VKMM_WORKGROUP_FENCE_RELEASE = 3,     /* OpMemoryBarrier releasing Workgroup memory (store-buffer modules) */
    VKMM_SUBGROUP_BARRIER_EXECUTION = 4,  /* Subgroup execution scope, orders no Workgroup memory (store-buffer
                                             modules: it empties the subgroup's buffer) */
    VKMM_WORKGROUP_SYNC = 5,              /* a fence or an atomic, in a module whose fences or atomics may order
                                             Workgroup memory: VKMM_SYNC_* bits say what it does */
};
/* With VKMM_WORKGROUP_SYNC: releases / acquires Workgroup memory; an atomic
 * (otherwise a fence) that writes / reads.  A release fence releases
 * through the subgroup's next atomic write, an acquire fence acquires
 * through its last atomic read (000 "Synchronizes-With"). */
#define VKMM_SYNC_RELEASE 16u
#define VKMM_SYNC_ACQUIRE 32u
#define VKMM_SYNC_ATOMIC_WRITE 64u
#define VKMM_SYNC_ATOMIC_READ 128u
#define VKMM_SYNC_NARROW 256u /* at Subgroup or Invocation scope: orders only the subgroup's own lanes */
/* With a barrier kind: the module's Workgroup-storage atomic stores wait in
 * store buffers (VKMM_ACCESS_STORE_BUFFER), which a control barrier empties. */
#define VKMM_BARRIER_STORE_BUFFER 8u

enum vkmm_shader_invocation_field {
    VKMM_INVOCATION_SETS = 0,
    VKMM_INVOCATION_PUSH_CONSTANTS = 64,
    VKMM_INVOCATION_SHARED_MEMORY = 72,
    VKMM_INVOCATION_WORKGROUP_ID = 80,
    VKMM_INVOCATION_NUM_WORKGROUPS = 92,
    VKMM_INVOCATION_SUBGROUP_ID = 104,
    VKMM_INVOCATION_DEVICE_MEMORY_BASE = 112,
    VKMM_INVOCATION_DEVICE_MEMORY_END = 120,
    VKMM_INVOCATION_WORKGROUP_MONITOR = 128,
    VKMM_INVOCATION_WORKGROUP_ACCESS = 136,
    VKMM_INVOCATION_WORKGROUP_BARRIER = 144,
    VKMM_INVOCATION_DEVICE_MONITOR = 152,
    VKMM_INVOCATION_DEVICE_ACCESS = 160,
    VKMM_INVOCATION_WORKGROUP_TAG = 108,
    VKMM_INVOCATION_POLL_CONTEXT = 168,
    VKMM_INVOCATION_POLL = 176,
    VKMM_INVOCATION_TEXEL_DECODE = 184,
    VKMM_INVOCATION_TEXEL_ENCODE = 192,
    VKMM_INVOCATION_DEVICE_FENCE = 200,
};
_Static_assert(offsetof(struct vkmm_shader_invocation, push_constants) == VKMM_INVOCATION_PUSH_CONSTANTS, "abi");
_Static_assert(offsetof(struct vkmm_shader_invocation, shared_memory) == VKMM_INVOCATION_SHARED_MEMORY, "abi");
_Static_assert(offsetof(struct vkmm_shader_invocation, workgroup_id) == VKMM_INVOCATION_WORKGROUP_ID, "abi");
_Static_assert(offsetof(struct vkmm_shader_invocation, num_workgroups) == VKMM_INVOCATION_NUM_WORKGROUPS, "abi");
_Static_assert(offsetof(struct vkmm_shader_invocation, subgroup_id) == VKMM_INVOCATION_SUBGROUP_ID, "abi");
_Static_assert(offsetof(struct vkmm_shader_invocation, device_memory_base) == VKMM_INVOCATION_DEVICE_MEMORY_BASE, "abi");
_Static_assert(offsetof(struct vkmm_shader_invocation, device_memory_end) == VKMM_INVOCATION_DEVICE_MEMORY_END, "abi");
_Static_assert(offsetof(struct vkmm_shader_invocation, workgroup_monitor) == VKMM_INVOCATION_WORKGROUP_MONITOR, "abi");
_Static_assert(offsetof(struct vkmm_shader_invocation, workgroup_access) == VKMM_INVOCATION_WORKGROUP_ACCESS, "abi");
_Static_assert(offsetof(struct vkmm_shader_invocation, workgroup_barrier) == VKMM_INVOCATION_WORKGROUP_BARRIER, "abi");
_Static_assert(offsetof(struct vkmm_shader_invocation, device_monitor) == VKMM_INVOCATION_DEVICE_MONITOR, "abi");
_Static_assert(offsetof(struct vkmm_shader_invocation, device_access) == VKMM_INVOCATION_DEVICE_ACCESS, "abi");
_Static_assert(offsetof(struct vkmm_shader_invocation, workgroup_tag) == VKMM_INVOCATION_WORKGROUP_TAG, "abi");
_Static_assert(offsetof(struct vkmm_shader_invocation, poll_context) == VKMM_INVOCATION_POLL_CONTEXT, "abi");
_Static_assert(offsetof(struct vkmm_shader_invocation, poll) == VKMM_INVOCATION_POLL, "abi");
_Static_assert(offsetof(struct vkmm_shader_invocation, texel_decode) == VKMM_INVOCATION_TEXEL_DECODE, "abi");
_Static_assert(offsetof(struct vkmm_shader_invocation, texel_encode) == VKMM_INVOCATION_TEXEL_ENCODE, "abi");
_Static_assert(offsetof(struct vkmm_shader_invocation, device_fence) == VKMM_INVOCATION_DEVICE_FENCE, "abi");

/* Descriptor as the generated code reads it: base pointer then range
 * (every kind: the bytes a shader may touch), and for images, texel
 * buffers and samplers the fields of struct vkmm_image_descriptor at
 * VKMM_DESCRIPTOR_IMAGE. */
enum { VKMM_DESCRIPTOR_SIZE = 120, VKMM_DESCRIPTOR_BASE = 0, VKMM_DESCRIPTOR_RANGE = 8, VKMM_DESCRIPTOR_IMAGE = 40 };

/* What image accesses need besides base and range: the view's base level
 * (texel buffers: width = texels, one row), its layout in memory, its other
 * mip levels, and the sampler.  `base` points at texel (0, 0, 0) of the
 * view's first layer at its base level; `range` covers every level of the
 * view. */
struct vkmm_image_descriptor {
    uint32_t format;      /* VkFormat of the view; 0 for a null descriptor or a sampler alone */
    uint32_t texel_size;
    uint32_t extent[3];
    uint32_t layers;
    uint32_t row_pitch;
    uint32_t slice_pitch;
    uint64_t layer_pitch;
    uint32_t sampler;     /* VKMM_SAMPLER_* bits; 0: no sampler */
    uint32_t swizzle;     /* 4 bits per channel R, G, B, A: VkComponentSwizzle, IDENTITY resolved */
    uint64_t level_table; /* const struct vkmm_image_level[levels] (the view's), 0: base level only */
    uint32_t levels;      /* the view's mip levels (0 or 1: the base level only) */
    float min_lod, max_lod, lod_bias; /* the sampler's */
    /* A multisampled image's samples per texel, as a power of two (0: one
     * sample, what every other descriptor holds): a texel's samples lie
     * one after another, so texels are texel_size << samples_log2 apart. */
    uint32_t samples_log2;
    /* A compressed format's block: width | height << 8 (0: texels one by
     * one).  Rows are rows of blocks, texel_size bytes a block. */
    uint32_t block;
};

/* One mip level of a view, relative to its base level's first texel. */
struct vkmm_image_level {
    int64_t offset;
    uint32_t extent[3];
    uint32_t row_pitch;
    uint32_t slice_pitch;
    uint32_t reserved;
    uint64_t layer_pitch;
};

enum vkmm_image_level_field {
    VKMM_LEVEL_OFFSET = 0,
    VKMM_LEVEL_EXTENT = 8,
    VKMM_LEVEL_ROW_PITCH = 20,
    VKMM_LEVEL_SLICE_PITCH = 24,
    VKMM_LEVEL_LAYER_PITCH = 32,
    VKMM_LEVEL_SIZE = 40,
};
_Static_assert(sizeof(struct vkmm_image_level) == VKMM_LEVEL_SIZE, "abi");
_Static_assert(offsetof(struct vkmm_image_level, layer_pitch) == VKMM_LEVEL_LAYER_PITCH, "abi");
_Static_assert(offsetof(struct vkmm_image_level, slice_pitch) == VKMM_LEVEL_SLICE_PITCH, "abi");

enum vkmm_image_descriptor_field {
    VKMM_IMAGE_FORMAT = 0,
    VKMM_IMAGE_TEXEL_SIZE = 4,
    VKMM_IMAGE_EXTENT = 8,
    VKMM_IMAGE_LAYERS = 20,
    VKMM_IMAGE_ROW_PITCH = 24,
    VKMM_IMAGE_SLICE_PITCH = 28,
    VKMM_IMAGE_LAYER_PITCH = 32,
    VKMM_IMAGE_SAMPLER = 40,
    VKMM_IMAGE_SWIZZLE = 44,
    VKMM_IMAGE_LEVEL_TABLE = 48,
    VKMM_IMAGE_LEVELS = 56,
    VKMM_IMAGE_MIN_LOD = 60,
    VKMM_IMAGE_MAX_LOD = 64,
    VKMM_IMAGE_LOD_BIAS = 68,
    VKMM_IMAGE_SAMPLES_LOG2 = 72,
    VKMM_IMAGE_BLOCK = 76,
};
_Static_assert(sizeof(struct vkmm_image_descriptor) == 80, "abi");
_Static_assert(offsetof(struct vkmm_image_descriptor, samples_log2) == VKMM_IMAGE_SAMPLES_LOG2, "abi");
_Static_assert(offsetof(struct vkmm_image_descriptor, block) == VKMM_IMAGE_BLOCK, "abi");
_Static_assert(offsetof(struct vkmm_image_descriptor, level_table) == VKMM_IMAGE_LEVEL_TABLE, "abi");
_Static_assert(offsetof(struct vkmm_image_descriptor, lod_bias) == VKMM_IMAGE_LOD_BIAS, "abi");
_Static_assert(offsetof(struct vkmm_image_descriptor, layers) == VKMM_IMAGE_LAYERS, "abi");
_Static_assert(offsetof(struct vkmm_image_descriptor, layer_pitch) == VKMM_IMAGE_LAYER_PITCH, "abi");
_Static_assert(offsetof(struct vkmm_image_descriptor, sampler) == VKMM_IMAGE_SAMPLER, "abi");
_Static_assert(offsetof(struct vkmm_image_descriptor, swizzle) == VKMM_IMAGE_SWIZZLE, "abi");

/* The sampler word: filters, coordinates, address modes (VkSamplerAddressMode,
 * 3 bits each), border colour (VkBorderColor, 3 bits) and depth comparison
 * (compareEnable, and compareOp as VkCompareOp in 3 bits). */
enum vkmm_sampler_bits {
    VKMM_SAMPLER_VALID = 1u << 31,
    VKMM_SAMPLER_MAG_LINEAR = 1u << 0,
    VKMM_SAMPLER_MIN_LINEAR = 1u << 1,
    VKMM_SAMPLER_UNNORMALIZED = 1u << 2,
    VKMM_SAMPLER_MIPMAP_LINEAR = 1u << 3,
    VKMM_SAMPLER_ADDRESS_U_SHIFT = 4,
    VKMM_SAMPLER_ADDRESS_V_SHIFT = 8,
    VKMM_SAMPLER_ADDRESS_W_SHIFT = 12,
    VKMM_SAMPLER_BORDER_SHIFT = 16,
    VKMM_SAMPLER_COMPARE = 1u << 19,
    VKMM_SAMPLER_COMPARE_OP_SHIFT = 20,
};

/* Result of one call: the subgroup finished; or stopped at a control
 * barrier and must be called again (with the same state) once every
 * subgroup of the workgroup has reached it; or yielded and may be called
 * again at any time. */
enum vkmm_shader_status {
    VKMM_SHADER_DONE = 0,
    VKMM_SHADER_AT_BARRIER = 1,
    VKMM_SHADER_YIELDED = 2, /* at a suspension point other than a barrier (see suspend_at_atomics) */
    VKMM_SHADER_ABORTED = 3, /* the watchdog ended the dispatch (poll) */
};

/* `state` is compiled_shader.state_size bytes, zeroed before the first
 * call for a workgroup, 64-byte aligned. */
typedef int (*vkmm_shader_function)(void *state, const struct vkmm_shader_invocation *invocation);
