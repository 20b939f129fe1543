/* API memory dependencies (DESIGN §3.2, row "pipeline barrier / event /
 * semaphore / fence memory dependency"): the scopes of stage and access
 * masks, and the four operations 000 lists for a dependency.
 *
 * Meta bits expand to the elementary bits they stand for.  The Debian 12
 * vk.xml (1.3.239) has no <sync> tables, so the stage groups below follow the
 * synchronization2 text; the sets of all read and all write access bits come
 * from the generated enum names (icd/vkmm_gen.py). */
#include <string.h>

#include "memmodel_internal.h"
#include "vkmm_enum_strings.h"

/* "VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT is equivalent to ... COPY, BLIT,
 * RESOLVE, CLEAR, ACCELERATION_STRUCTURE_COPY_KHR". */
#define MM_TRANSFER_STAGES                                                                                          \
    (VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_RESOLVE_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT |                \
     VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_ACCELERATION_STRUCTURE_COPY_BIT_KHR)
#define MM_VERTEX_INPUT_STAGES (VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT | VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT)
#define MM_PRE_RASTERIZATION_STAGES                                                                                 \
    (VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT |                  \
     VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT | VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT |             \
     VK_PIPELINE_STAGE_2_TASK_SHADER_BIT_EXT | VK_PIPELINE_STAGE_2_MESH_SHADER_BIT_EXT)
#define MM_GRAPHICS_STAGES                                                                                          \
    (VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | MM_VERTEX_INPUT_STAGES | MM_PRE_RASTERIZATION_STAGES |                 \
     VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |                       \
     VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT |                \
     VK_PIPELINE_STAGE_2_CONDITIONAL_RENDERING_BIT_EXT | VK_PIPELINE_STAGE_2_TRANSFORM_FEEDBACK_BIT_EXT |           \
     VK_PIPELINE_STAGE_2_FRAGMENT_SHADING_RATE_ATTACHMENT_BIT_KHR |                                                 \
     VK_PIPELINE_STAGE_2_FRAGMENT_DENSITY_PROCESS_BIT_EXT | VK_PIPELINE_STAGE_2_SUBPASS_SHADING_BIT_HUAWEI |        \
     VK_PIPELINE_STAGE_2_INVOCATION_MASK_BIT_HUAWEI | VK_PIPELINE_STAGE_2_CLUSTER_CULLING_SHADER_BIT_HUAWEI)
/* TOP_OF_PIPE and BOTTOM_OF_PIPE are ALL_COMMANDS "with VkAccessFlags2 set
 * to 0" in the scope where they mean anything: they carry no memory access,
 * so they expand to nothing. */
#define MM_META_STAGES                                                                                              \
    (VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT | VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT |                                 \
     VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT |                                  \
     VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT | VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT |                     \
     VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)
/* Since 1.3.262 SHADER_READ excludes UNIFORM_READ (Vulkan-Docs issue 2169):
 * "equivalent to ... SHADER_SAMPLED_READ, SHADER_STORAGE_READ,
 * SHADER_BINDING_TABLE_READ_KHR"; SHADER_WRITE is SHADER_STORAGE_WRITE. */
#define MM_SHADER_READS                                                                                             \
    (VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT |                                    \
     VK_ACCESS_2_SHADER_BINDING_TABLE_READ_BIT_KHR)
#define MM_META_ACCESS                                                                                              \
    (VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_MEMORY_READ_BIT |                     \
     VK_ACCESS_2_MEMORY_WRITE_BIT)

void vkmm_mm_masks_init(struct vkmm_mm_engine *e)
{
    for (unsigned i = 0; i < 64; i++) {
        uint64_t bit = 1ull << i;
        /* ALL_COMMANDS: "all operations performed by all commands supported
         * on the queue": not HOST, which no queue command performs
         * (Vulkan-Docs issue 2555). */
        if (vkmm_VkPipelineStageFlagBits2_bit_to_str(bit) && !(bit & MM_META_STAGES) &&
            bit != VK_PIPELINE_STAGE_2_HOST_BIT)
            e->all_commands |= bit;
        const char *name = vkmm_VkAccessFlagBits2_bit_to_str(bit);
        if (!name || (bit & MM_META_ACCESS))
            continue;
        if (strstr(name, "_READ"))
            e->all_reads |= bit;
        if (strstr(name, "_WRITE"))
            e->all_writes |= bit;
    }
}

/* 004 extractStages(mask), restricted to stages that access memory. */
VkPipelineStageFlags2 vkmm_mm_expand_stages(const struct vkmm_mm_engine *e, VkPipelineStageFlags2 mask)
{
    VkPipelineStageFlags2 r = mask & ~MM_META_STAGES;
    if (mask & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)
        r |= e->all_commands;
    if (mask & VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT)
        r |= MM_GRAPHICS_STAGES;
    if (mask & VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT)
        r |= MM_TRANSFER_STAGES;
    if (mask & VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT)
        r |= MM_VERTEX_INPUT_STAGES;
    if (mask & VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT)
        r |= MM_PRE_RASTERIZATION_STAGES;
    return r;
}

/* MEMORY_READ "is treated as equivalent to setting all READ access flags
 * that are valid where it is used"; likewise MEMORY_WRITE. */
VkAccessFlags2 vkmm_mm_expand_access(const struct vkmm_mm_engine *e, VkAccessFlags2 mask)
{
    VkAccessFlags2 r = mask & ~MM_META_ACCESS;
    if (mask & VK_ACCESS_2_SHADER_READ_BIT)
        r |= MM_SHADER_READS;
    if (mask & VK_ACCESS_2_SHADER_WRITE_BIT)
        r |= VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    if (mask & VK_ACCESS_2_MEMORY_READ_BIT)
        r |= e->all_reads;
    if (mask & VK_ACCESS_2_MEMORY_WRITE_BIT)
        r |= e->all_writes;
    return r;
}

/* Is the path (stage, access) in the access scope (scope_stages,
 * scope_access), both already expanded?  The scope must hold every bit the
 * path stands for: a path named by a meta bit is flushed or invalidated only
 * by a scope that names all of it (the stalest reading). */
bool vkmm_mm_in_scope(const struct vkmm_mm_engine *e, VkPipelineStageFlags2 scope_stages, VkAccessFlags2 scope_access,
                      VkPipelineStageFlags2 stage, VkAccessFlags2 access)
{
    VkPipelineStageFlags2 s = vkmm_mm_expand_stages(e, stage);
    VkAccessFlags2 a = vkmm_mm_expand_access(e, access);
    return s && a && !(s & ~scope_stages) && !(a & ~scope_access);
}

bool vkmm_mm_is_host_access(VkPipelineStageFlags2 stage, VkAccessFlags2 access)
{
    return stage == VK_PIPELINE_STAGE_2_HOST_BIT ||
           (access & (VK_ACCESS_2_HOST_READ_BIT | VK_ACCESS_2_HOST_WRITE_BIT));
}

/* The memories in the dependency's scope, each with its range. */
struct scope {
    struct vkmm_mm_memory *only;
    uint64_t begin, end;
};

static bool scope_next(const struct vkmm_mm_engine *e, const struct scope *s, uint32_t *i, struct vkmm_mm_memory **m,
                       uint64_t *begin, uint64_t *end)
{
    if (s->only) {
        if ((*i)++)
            return false;
        *m = s->only;
        *begin = s->begin;
        *end = s->end;
        return true;
    }
    if (*i >= e->memory_count)
        return false;
    *m = e->memories[(*i)++];
    *begin = 0;
    *end = (*m)->size;
    return true;
}

/* 000 Availability, Visibility, and Domain Operations: "When multiple
 * availability/visibility/domain operations are described, they are
 * system-synchronized-with each other in the order listed." */
void vkmm_mm_dependency(struct vkmm_mm_engine *e, const struct vkmm_mm_dependency *dep)
{
    VkPipelineStageFlags2 src = vkmm_mm_expand_stages(e, dep->src_stages);
    VkPipelineStageFlags2 dst = vkmm_mm_expand_stages(e, dep->dst_stages);
    VkAccessFlags2 src_access = vkmm_mm_expand_access(e, dep->src_access);
    VkAccessFlags2 dst_access = vkmm_mm_expand_access(e, dep->dst_access);
    struct scope s = { .only = dep->memory };
    if (s.only && !vkmm_mm_clamp(s.only, dep->offset, dep->size, &s.begin, &s.end))
        return;
    struct vkmm_mm_memory *m;
    uint64_t begin, end;
    uint32_t i;

    /* "If the source access mask includes VK_ACCESS_HOST_WRITE_BIT, then the
     * dependency includes a memory domain operation from host domain to
     * device domain." */
    if ((src & VK_PIPELINE_STAGE_2_HOST_BIT) && (src_access & VK_ACCESS_2_HOST_WRITE_BIT)) {
        e->seq++;
        for (i = 0; scope_next(e, &s, &i, &m, &begin, &end);)
            vkmm_mm_host_to_device(e, m, begin, end);
    }
    /* "An availability operation with source scope of all writes in the
     * first access scope of the dependency and a destination scope of the
     * device domain." */
    if (src && src_access) {
        e->seq++;
        for (i = 0; scope_next(e, &s, &i, &m, &begin, &end);)
            vkmm_mm_availability(e, m, src, src_access, begin, end, dep);
    }
    /* "A visibility operation with source scope of the device domain and
     * destination scope of the second access scope of the dependency." */
    if (dst && dst_access)
        vkmm_mm_visibility(e, s.only, dst, dst_access, s.begin, s.end);
    /* "If the destination access mask includes VK_ACCESS_HOST_READ_BIT or
     * VK_ACCESS_HOST_WRITE_BIT, then the dependency includes a memory domain
     * operation from device domain to host domain." */
    if ((dst & VK_PIPELINE_STAGE_2_HOST_BIT) && (dst_access & (VK_ACCESS_2_HOST_READ_BIT | VK_ACCESS_2_HOST_WRITE_BIT))) {
        for (i = 0; scope_next(e, &s, &i, &m, &begin, &end);)
            vkmm_mm_device_to_host(e, m, begin, end);
    }
}
