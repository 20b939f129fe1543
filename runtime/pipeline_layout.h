#pragma once

#include <stdatomic.h>
#include <vulkan/vulkan.h>

#include "object.h"

#define VKMM_MAX_DESCRIPTOR_SETS 8
#define VKMM_MAX_PUSH_CONSTANT_SIZE 256

struct vkmm_descriptor_set_layout;

struct vkmm_pipeline_layout {
    struct vkmm_object base;
    atomic_uint ref_count; /* pipelines keep their layout alive */
    uint32_t set_count;
    struct vkmm_descriptor_set_layout *sets[VKMM_MAX_DESCRIPTOR_SETS]; /* may contain NULL */
    uint32_t dynamic_offset_start[VKMM_MAX_DESCRIPTOR_SETS]; /* first dynamic offset of each set */
    uint32_t dynamic_count;
    uint32_t push_constant_size;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_pipeline_layout, VkPipelineLayout, VK_OBJECT_TYPE_PIPELINE_LAYOUT)

/* Strict mode's dispatch set-up (exec/dispatch.c, strict/dispatch_access.c) mirrors the bytes of
 * buffer descriptors: a view of `layout` whose set layouts list each binding
 * as the buffer type whose accesses it makes (descriptor_set_layout.h,
 * memory_bindings), so image and texel-buffer descriptors are mirrored
 * too.  The view lives in `storage`. */
struct vkmm_pipeline_layout_view;
const struct vkmm_pipeline_layout *vkmm_pipeline_layout_memory_view(const struct vkmm_pipeline_layout *layout,
                                                                    struct vkmm_pipeline_layout_view *storage);

/* The layout is freed when vkDestroyPipelineLayout has been called and the
 * last pipeline using it drops its reference. */
void vkmm_pipeline_layout_ref(struct vkmm_pipeline_layout *layout);
void vkmm_pipeline_layout_unref(struct vkmm_device *device, struct vkmm_pipeline_layout *layout);

#include "descriptor_set_layout.h"

struct vkmm_pipeline_layout_view {
    struct vkmm_pipeline_layout layout;
    struct vkmm_descriptor_set_layout sets[VKMM_MAX_DESCRIPTOR_SETS];
};
