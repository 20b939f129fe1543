#pragma once

#include <vulkan/vulkan.h>

#include "compiler.h"
#include "object.h"

struct vkmm_pipeline_layout;

struct vkmm_pipeline {
    struct vkmm_object base;
    struct vkmm_pipeline_layout *layout; /* referenced */
    struct vkmm_compiled_shader shader;
    bool has_atomics; /* the module has an atomic instruction (strict mode: only then can fences synchronize) */
    /* Strict mode: one of them is on memory other than Workgroup storage
     * (only then can two workgroups synchronize; exec/dispatch.c, parts). */
    bool device_atomics;
    /* Strict mode: one of them is on private storage, which no monitor
     * sees: an acquire fence may have read such an atomic
     * (strict/happens_before.h). */
    bool unmonitored_atomics;
    /* Strict mode: buffer bindings the module never reads (GLSL `writeonly`):
     * a dispatch need not place what their read paths see. */
    struct vkmm_shader_binding unread[16];
    uint32_t unread_count;
};

/* Does the pipeline's module never read buffer binding (set, binding)? */
bool vkmm_pipeline_never_reads(const struct vkmm_pipeline *pipeline, uint32_t set, uint32_t binding);

VKMM_DEFINE_HANDLE_CASTS(vkmm_pipeline, VkPipeline, VK_OBJECT_TYPE_PIPELINE)

/* The subgroup width shaders are compiled for: VKMM_SUBGROUP_SIZE (1, 4, 8
 * or 16), else the default measured best on this CPU. */
unsigned vkmm_pipeline_subgroup_width(void);
/* The subgroup widths a pipeline may require (subgroupSizeControl). */
void vkmm_pipeline_subgroup_width_range(uint32_t *min, uint32_t *max);
