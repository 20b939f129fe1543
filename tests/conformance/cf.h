/* The conformance suite's helpers on top of the API test harness
 * (tests/api/harness): one device per group of cases, buffers and
 * pipelines that are destroyed after each case even when it fails,
 * descriptor set layouts of any buffer descriptor type, and comparisons
 * that name the first mismatches.
 *
 * A case is written
 *     CF_TEST(name) { ... }
 * and listed in main.c.  CF_TEST_OPT(name) also defines name_opt, the same
 * case run with the spirv-opt compiled shader (SSA form, OpPhi); shader
 * names given to the helpers get ".opt" appended in that run.
 *
 * Subgroup model: gl_SubgroupSize is W = VKMM_SUBGROUP_SIZE (1, 4, 8, 16;
 * default 8); the lane of an invocation is its local index % W. */
#pragma once

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

/* --- Cases ----------------------------------------------------------------- */

struct cf_state {
    struct vkmm_test *t; /* the group's device */
    bool opt;            /* running the .opt.spv variant */
    uint32_t errors_before;
    uint32_t hazards_before; /* strict-mode hazard reports before the case */
    uint32_t seed;
};
extern struct cf_state cf;

void cf_test_begin(const char *name);
void cf_test_end(void);

#define CF_TEST(name)                    \
    static void name##_body(void);       \
    void cf_test_##name(void **state)    \
    {                                    \
        (void)state;                     \
        cf_test_begin(#name);            \
        name##_body();                   \
        cf_test_end();                   \
    }                                    \
    static void name##_body(void)

#define CF_TEST_OPT(name)                \
    static void name##_body(void);       \
    void cf_test_##name(void **state)    \
    {                                    \
        (void)state;                     \
        cf_test_begin(#name);            \
        name##_body();                   \
        cf_test_end();                   \
    }                                    \
    void cf_test_##name##_opt(void **state) \
    {                                    \
        (void)state;                     \
        cf_test_begin(#name "_opt");     \
        cf.opt = true;                   \
        name##_body();                   \
        cf_test_end();                   \
    }                                    \
    static void name##_body(void)

/* CMocka fixtures (main.c uses them). */
int cf_group_setup(void **state);
int cf_group_teardown(void **state);
int cf_case_setup(void **state);
int cf_case_teardown(void **state);
/* Destroys the device (after the last group). */
void cf_shutdown(void);

/* W: the subgroup width the driver compiles for. */
uint32_t cf_width(void);

/* Deterministic pseudo-random numbers (per case). */
uint32_t cf_rand(void);
/* In [lo, hi] inclusive. */
int32_t cf_rand_range(int32_t lo, int32_t hi);
/* Uniform in [lo, hi). */
float cf_rand_float(float lo, float hi);

/* Memory freed after the case. */
void *cf_calloc(size_t count, size_t size);

/* --- Buffers -------------------------------------------------------------------- */

struct cf_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    void *map;               /* host-coherent mapping */
    VkDeviceAddress address; /* buffer device address */
};

/* Host-visible coherent, zero-filled, destroyed after the case. */
struct cf_buffer *cf_buffer(VkDeviceSize size);
/* The same, filled with a copy of `data`. */
struct cf_buffer *cf_buffer_from(const void *data, VkDeviceSize size);
/* Device-local (no mapping), for transfer round trips. */
struct cf_buffer *cf_buffer_device_local(VkDeviceSize size);

/* --- Pipelines ------------------------------------------------------------------ */

#define CF_MAX_SETS 4
#define CF_MAX_BINDINGS 16

struct cf_binding {
    uint32_t binding;
    VkDescriptorType type;
    uint32_t count; /* descriptor array size; 0 means 1 */
};

struct cf_set_info {
    uint32_t binding_count;
    const struct cf_binding *bindings; /* NULL: binding_count storage buffers 0.. */
};

struct cf_pipeline_info {
    const char *shader;
    uint32_t set_count; /* 0 means 1 */
    struct cf_set_info sets[CF_MAX_SETS];
    uint32_t push_size;
    const VkSpecializationInfo *spec;
    VkPipelineCreateFlags flags;
};

struct cf_pipeline {
    VkShaderModule module;
    VkDescriptorSetLayout set_layouts[CF_MAX_SETS];
    VkDescriptorSet sets[CF_MAX_SETS];
    VkDescriptorPool pool;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    uint32_t set_count;
    uint32_t push_size;
    struct cf_binding bindings[CF_MAX_SETS][CF_MAX_BINDINGS];
    uint32_t binding_count[CF_MAX_SETS];
};

struct cf_pipeline *cf_pipeline_create(const struct cf_pipeline_info *info);
/* `storage_count` storage buffers at set 0, bindings 0... */
struct cf_pipeline *cf_pipeline(const char *shader, uint32_t storage_count, uint32_t push_size,
                                const VkSpecializationInfo *spec);
/* Writes descriptor (set, binding, array element); the type is the
 * binding's.  range 0 means VK_WHOLE_SIZE. */
void cf_bind(struct cf_pipeline *p, uint32_t set, uint32_t binding, uint32_t element, const struct cf_buffer *b,
             VkDeviceSize offset, VkDeviceSize range);
/* Binds buffers[i] whole at set 0 binding i. */
void cf_bind_all(struct cf_pipeline *p, uint32_t count, struct cf_buffer *const *buffers);

/* --- Commands ----------------------------------------------------------------------- */

VkCommandBuffer cf_begin(void);
/* Binds the pipeline and its sets (with dynamic offsets), pushes
 * p->push_size bytes when push is non-NULL. */
void cf_cmd_bind(VkCommandBuffer cmd, struct cf_pipeline *p, const void *push, uint32_t dynamic_count,
                 const uint32_t *dynamic_offsets);
void cf_cmd_dispatch(VkCommandBuffer cmd, struct cf_pipeline *p, const void *push, uint32_t x, uint32_t y,
                     uint32_t z);
/* Compute shader writes before compute shader reads and writes. */
void cf_cmd_compute_barrier(VkCommandBuffer cmd);
/* Adds a barrier to host reads, submits, waits. */
void cf_submit(VkCommandBuffer cmd);
/* One-shot: bind, push, dispatch, wait. */
void cf_dispatch(struct cf_pipeline *p, const void *push, uint32_t x, uint32_t y, uint32_t z);

/* Creates the pipeline of `shader` with `count` storage buffers, binds
 * them whole, dispatches and waits. */
void cf_run(const char *shader, const void *push, uint32_t push_size, uint32_t x, uint32_t y, uint32_t z,
            uint32_t count, struct cf_buffer *const *buffers);
#define CF_NARGS_(...) (sizeof((struct cf_buffer *[]){ __VA_ARGS__ }) / sizeof(struct cf_buffer *))
#define CF_RUN(shader, push, push_size, x, y, z, ...) \
    cf_run(shader, push, push_size, x, y, z, (uint32_t)CF_NARGS_(__VA_ARGS__), (struct cf_buffer *[]){ __VA_ARGS__ })

/* A specialization info for `count` 4-byte constants with IDs ids[i]
 * (NULL: 0..count-1), data copied (tracked). */
const VkSpecializationInfo *cf_spec(uint32_t count, const uint32_t *ids, const void *data);

/* --- Checks ------------------------------------------------------------------------- */

void cf_expect_u32(const uint32_t *got, const uint32_t *want, size_t n, const char *what);
void cf_expect_i32(const int32_t *got, const int32_t *want, size_t n, const char *what);
void cf_expect_u64(const uint64_t *got, const uint64_t *want, size_t n, const char *what);
void cf_expect_u16(const uint16_t *got, const uint16_t *want, size_t n, const char *what);
void cf_expect_u8(const uint8_t *got, const uint8_t *want, size_t n, const char *what);
/* |got - want| <= abs_tol + rel_tol * |want| (or both equal, infinities
 * and NaN included). */
void cf_expect_f32(const float *got, const float *want, size_t n, double abs_tol, double rel_tol,
                   const char *what);
void cf_expect_f64(const double *got, const double *want, size_t n, double abs_tol, double rel_tol,
                   const char *what);
/* Within `ulps` units in the last place of float. */
void cf_expect_f32_ulp(const float *got, const float *want, size_t n, uint32_t ulps, const char *what);
/* Bytes outside [begin, end) of a buffer still hold `fill`. */
void cf_expect_guard(const struct cf_buffer *b, VkDeviceSize begin, VkDeviceSize end, uint8_t fill,
                     const char *what);

/* --- Float helpers ------------------------------------------------------------------ */

uint16_t cf_f32_to_f16(float f);
float cf_f16_to_f32(uint16_t h);
float cf_u32_as_f32(uint32_t u);
uint32_t cf_f32_as_u32(float f);
