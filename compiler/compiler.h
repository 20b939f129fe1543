/* The compiler: a pure function from (SPIR-V, entry point, specialization,
 * descriptor layout, subgroup width, mode) to a callable that runs one
 * subgroup of a compute workgroup (DESIGN §4).  It knows nothing of queues
 * or Vulkan objects. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "shader_abi.h"
#include "spirv_tools.h"

/* Where the descriptors of (set, binding) are in the set's descriptor
 * array, as the pipeline layout decides. */
struct vkmm_compile_binding {
    uint32_t binding;
    uint32_t first;
    uint32_t count;
};

struct vkmm_compile_set {
    uint32_t binding_count;
    const struct vkmm_compile_binding *bindings;
};

struct vkmm_compile_options {
    const char *entry_point;
    unsigned subgroup_width;                 /* W: 1, 4, 8 or 16 */
    const struct vkmm_spec_constant *spec;
    uint32_t spec_count;
    uint32_t set_count;
    const struct vkmm_compile_set *sets;     /* set_count entries */
    int optimize;                            /* 0: no LLVM optimisation (debugging) */
    int suspend_at_atomics;                  /* yield (VKMM_SHADER_YIELDED) after every atomic */
    /* Strict mode: every access to Workgroup storage and every control
     * barrier goes through the workgroup-memory monitor (shader_abi.h), which
     * finds races between invocations and makes them show. */
    int monitor_workgroup_memory;
    /* Strict mode: every access to device memory goes through the
     * device-memory monitor (shader_abi.h), which finds accesses of
     * different workgroups that cannot be synchronized inside a dispatch,
     * and whose records are the dispatch's exact accesses afterwards. */
    int monitor_device_memory;
    /* Every loop polls the dispatch's watchdog now and then (shader_abi.h),
     * so a runaway dispatch can end. */
    int poll_loops;
};

struct vkmm_compiled_shader {
    vkmm_shader_function function;
    uint32_t local_size[3];
    uint32_t subgroup_width;
    uint32_t subgroup_count;        /* per workgroup */
    uint32_t shared_memory_size;
    uint32_t state_size;
    uint32_t uses_buffer_references; /* PhysicalStorageBuffer pointers: may reach any device memory */
    struct vkmm_jit_module *jit;    /* owns the code */
    void *object;                   /* the object file (malloc'ed): what a pipeline cache keeps */
    size_t object_size;
};

/* Returns 0 on success; otherwise `error` names the problem (validation
 * message, unsupported opcode or capability with its word offset). */
int vkmm_compile(const uint32_t *words, size_t word_count, const struct vkmm_compile_options *options,
                 struct vkmm_compiled_shader *out, char *error, size_t error_size);
/* What a module needs to run, found without generating code (validation,
 * specialisation and parsing only): a pipeline-cache entry must match it
 * before its object code is trusted. */
struct vkmm_shader_shape {
    uint32_t local_size[3];
    uint32_t subgroup_width;
    uint32_t subgroup_count;
    uint32_t shared_memory_size;
    uint32_t uses_buffer_references;
};
int vkmm_shader_shape(const uint32_t *words, size_t word_count, const struct vkmm_compile_options *options,
                      struct vkmm_shader_shape *shape, char *error, size_t error_size);
/* The buffer bindings the module never reads: those whose variable, or
 * every member of whose block, is NonReadable (GLSL `writeonly`).  Stores
 * at most `capacity` (the rest count as read) and returns how many it
 * stored; 0 when the module does not parse. */
struct vkmm_shader_binding {
    uint32_t set, binding;
};
uint32_t vkmm_shader_unread_bindings(const uint32_t *words, size_t word_count,
                                     const struct vkmm_compile_options *options, struct vkmm_shader_binding *out,
                                     uint32_t capacity);
/* Where the module's atomic instructions are: VKMM_ATOMICS_OFF_WORKGROUP
 * when one is on memory other than Workgroup storage (through which two
 * workgroups may synchronize), VKMM_ATOMICS_UNMONITORED when one is on
 * storage other than buffers, images and Workgroup storage (private
 * storage: strict mode's monitors do not see it).  Both when the module
 * does not parse (assume the worst). */
#define VKMM_ATOMICS_OFF_WORKGROUP 1u
#define VKMM_ATOMICS_UNMONITORED 2u
uint32_t vkmm_shader_atomic_storage(const uint32_t *words, size_t word_count,
                                    const struct vkmm_compile_options *options);
/* Links `shader->object` (with the other fields filled, e.g. from a
 * pipeline cache) and sets `function`.  0 on success. */
int vkmm_compiled_shader_load(struct vkmm_compiled_shader *shader, char *error, size_t error_size);
void vkmm_compiled_shader_free(struct vkmm_compiled_shader *shader);
