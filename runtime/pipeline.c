#include "pipeline.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <spirv/unified1/spirv.h>


#include "alloc.h"
#include "descriptor_set_layout.h"
#include "device.h"
#include "log.h"
#include "pipeline_cache.h"
#include "pipeline_layout.h"
#include "shader_module.h"
#include "vkmm/vkmm.h"

/* Measured on the development CPU (AVX-512, see docs/performance.md): 8
 * lanes fill 256-bit vectors with 32-bit values and keep control-flow
 * overhead low. */
#define VKMM_DEFAULT_SUBGROUP_WIDTH 8

unsigned vkmm_pipeline_subgroup_width(void)
{
    const char *text = getenv("VKMM_SUBGROUP_SIZE");
    unsigned width = text ? (unsigned)strtoul(text, NULL, 10) : 0;
    if (width == 1 || width == 4 || width == 8 || width == 16)
        return width;
    return VKMM_DEFAULT_SUBGROUP_WIDTH;
}

/* The widths a pipeline may require (subgroupSizeControl): the compiler's
 * 4, 8 and 16 — powers of two from min to max, as the spec requires of the
 * range — or only 1 when VKMM_SUBGROUP_SIZE=1 chose scalar subgroups. */
void vkmm_pipeline_subgroup_width_range(uint32_t *min, uint32_t *max)
{
    unsigned width = vkmm_pipeline_subgroup_width();
    *min = width == 1 ? 1 : 4;
    *max = width == 1 ? 1 : 16;
}

/* The stage's subgroup width: VkPipelineShaderStageRequiredSubgroupSizeCreateInfo's
 * if given (VUID-VkPipelineShaderStageRequiredSubgroupSizeCreateInfo-requiredSubgroupSize-02760/02761/02762:
 * a power of two in [min, max]), else the default. */
static VkResult stage_subgroup_width(struct vkmm_device *device, const VkPipelineShaderStageCreateInfo *stage,
                                     unsigned *width)
{
    *width = vkmm_pipeline_subgroup_width();
    for (const VkBaseInStructure *s = stage->pNext; s; s = s->pNext) {
        if (s->sType != VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO)
            continue;
        uint32_t required = ((const VkPipelineShaderStageRequiredSubgroupSizeCreateInfo *)s)->requiredSubgroupSize;
        uint32_t min, max;
        vkmm_pipeline_subgroup_width_range(&min, &max);
        if (required < min || required > max || (required & (required - 1)))
            return vkmm_errorf(device, VK_ERROR_UNKNOWN,
                               "VUID-VkPipelineShaderStageRequiredSubgroupSizeCreateInfo-requiredSubgroupSize-02760: "
                               "requiredSubgroupSize %u is not a power of two in [%u, %u]", required, min, max);
        *width = required;
    }
    return VK_SUCCESS;
}

/* The compile-time view of a pipeline layout: where each binding's
 * descriptors are in its set. */
struct layout_view {
    struct vkmm_compile_set sets[VKMM_MAX_DESCRIPTOR_SETS];
    struct vkmm_compile_binding *bindings;
};

static VkResult view_layout(struct vkmm_device *device, const struct vkmm_pipeline_layout *layout,
                            struct layout_view *view)
{
    uint32_t total = 0;
    for (uint32_t s = 0; s < layout->set_count; s++)
        total += layout->sets[s] ? layout->sets[s]->binding_count : 0;
    view->bindings = vkmm_zalloc(&device->allocator, NULL, (total ? total : 1) * sizeof(*view->bindings),
                                 VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
    if (!view->bindings)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    uint32_t at = 0;
    for (uint32_t s = 0; s < layout->set_count; s++) {
        const struct vkmm_descriptor_set_layout *set = layout->sets[s];
        view->sets[s].bindings = &view->bindings[at];
        view->sets[s].binding_count = set ? set->binding_count : 0;
        for (uint32_t b = 0; set && b < set->binding_count; b++) {
            view->bindings[at++] = (struct vkmm_compile_binding){
                set->bindings[b].binding,
                set->bindings[b].first,
                set->bindings[b].count,
            };
        }
    }
    return VK_SUCCESS;
}

static void key_of(struct vkmm_cache_key *key, const struct vkmm_shader_module *module,
                   const struct vkmm_compile_options *options)
{
    vkmm_cache_key_init(key);
    vkmm_cache_key_add(key, VKMM_VERSION_STRING, sizeof(VKMM_VERSION_STRING));
    vkmm_cache_key_add(key, module->words, module->word_count * 4);
    vkmm_cache_key_add(key, options->entry_point, strlen(options->entry_point) + 1);
    vkmm_cache_key_add(key, &options->subgroup_width, sizeof(options->subgroup_width));
    vkmm_cache_key_add(key, &options->optimize, sizeof(options->optimize));
    vkmm_cache_key_add(key, &options->suspend_at_atomics, sizeof(options->suspend_at_atomics));
    vkmm_cache_key_add(key, &options->monitor_workgroup_memory, sizeof(options->monitor_workgroup_memory));
    vkmm_cache_key_add(key, &options->monitor_device_memory, sizeof(options->monitor_device_memory));
    vkmm_cache_key_add(key, &options->poll_loops, sizeof(options->poll_loops));
    vkmm_cache_key_add(key, &options->spec_count, sizeof(options->spec_count));
    vkmm_cache_key_add(key, options->spec, options->spec_count * sizeof(*options->spec));
    for (uint32_t s = 0; s < options->set_count; s++) {
        vkmm_cache_key_add(key, &options->sets[s].binding_count, sizeof(uint32_t));
        vkmm_cache_key_add(key, options->sets[s].bindings,
                           options->sets[s].binding_count * sizeof(struct vkmm_compile_binding));
    }
}

/* VkSpecializationInfo -> the compiler's list; entries past the data are
 * dropped (invalid usage: VUID-VkSpecializationInfo-offset-00773 and
 * -pMapEntries-00774) rather than read out of bounds, with a message. */
static uint32_t convert_specialization(struct vkmm_device *device, const VkSpecializationInfo *info,
                                       struct vkmm_spec_constant *out, uint32_t capacity)
{
    uint32_t count = 0;
    for (uint32_t i = 0; info && i < info->mapEntryCount && count < capacity; i++) {
        const VkSpecializationMapEntry *e = &info->pMapEntries[i];
        if (e->size > 8 || e->offset > info->dataSize || e->size > info->dataSize - e->offset) {
            vkmm_log(&device->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
                     e->offset > info->dataSize ? "VUID-VkSpecializationInfo-offset-00773"
                                                : "VUID-VkSpecializationInfo-pMapEntries-00774",
                     "specialization map entry %u (constantID %u, offset %u, size %zu) lies outside the %zu bytes "
                     "of pData (or is wider than 8 bytes): the entry is ignored",
                     i, e->constantID, e->offset, e->size, info->dataSize);
            continue;
        }
        uint64_t value = 0;
        memcpy(&value, (const uint8_t *)info->pData + e->offset, e->size);
        out[count++] = (struct vkmm_spec_constant){ e->constantID, (uint32_t)e->size, value };
    }
    return count;
}

/* A cache hit is used only when the entry fits the module it is loaded for
 * and its code links; otherwise the entry is dropped with a warning and the
 * pipeline is compiled anew (cache data is untrusted: pipeline_cache.c). */
static bool load_cached(struct vkmm_device *device, struct vkmm_pipeline_cache *cache,
                        const struct vkmm_cache_key *key, const struct vkmm_shader_module *module,
                        const struct vkmm_compile_options *options, struct vkmm_compiled_shader *shader)
{
    char error[600];
    struct vkmm_shader_shape shape;
    const char *problem = NULL;
    if (vkmm_shader_shape(module->words, module->word_count, options, &shape, error, sizeof(error)) != 0)
        problem = error;
    else
        problem = vkmm_pipeline_cache_check(shader, &shape);
    if (!problem && vkmm_compiled_shader_load(shader, error, sizeof(error)) != 0)
        problem = error;
    if (!problem)
        return true;
    vkmm_log(&device->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
             VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, "VKMM-PIPELINE-CACHE-IGNORED",
             "pipeline cache entry for '%s': %s; ignored, the pipeline is compiled anew", options->entry_point,
             problem);
    vkmm_compiled_shader_free(shader);
    vkmm_pipeline_cache_forget(cache, key);
    return false;
}

/* Does the module hold an atomic instruction?  Without one, no fence can
 * synchronize two invocations (000 "Synchronizes-With"). */
static bool module_has_atomics(const uint32_t *words, size_t word_count)
{
    for (size_t at = 5; at < word_count;) {
        uint32_t count = words[at] >> 16, opcode = words[at] & 0xffffu;
        if ((opcode >= SpvOpAtomicLoad && opcode <= SpvOpAtomicXor) || opcode == SpvOpAtomicFlagTestAndSet ||
            opcode == SpvOpAtomicFlagClear || opcode == SpvOpAtomicFAddEXT || opcode == SpvOpAtomicFMinEXT ||
            opcode == SpvOpAtomicFMaxEXT)
            return true;
        if (!count)
            return true; /* malformed (validated before): assume the worst */
        at += count;
    }
    return false;
}

static VkResult compile_stage(struct vkmm_device *device, struct vkmm_pipeline_cache *cache,
                              const VkComputePipelineCreateInfo *info, struct vkmm_pipeline *pipeline,
                              bool *cache_hit)
{
    const VkPipelineShaderStageCreateInfo *stage = &info->stage;
    const struct vkmm_shader_module *module = vkmm_shader_module_from_handle(stage->module);
    if (!module)
        return vkmm_errorf(device, VK_ERROR_UNKNOWN, "compute stage has no shader module");
    unsigned width;
    VkResult result = stage_subgroup_width(device, stage, &width);
    if (result != VK_SUCCESS)
        return result;
    struct layout_view view;
    result = view_layout(device, pipeline->layout, &view);
    if (result != VK_SUCCESS)
        return vkmm_errorf(device, result, "no memory to compile a pipeline");
    struct vkmm_spec_constant spec[64];
    struct vkmm_compile_options options = {
        .entry_point = stage->pName,
        .subgroup_width = width,
        .spec = spec,
        .spec_count = convert_specialization(device, stage->pSpecializationInfo, spec, 64),
        .set_count = pipeline->layout->set_count,
        .sets = view.sets,
        .optimize = 1,
        /* Strict mode interleaves subgroups at atomics, so that spin-waits
         * on flags set by other subgroups finish (DESIGN §3.3). */
        .suspend_at_atomics = vkmm_mode() == VKMM_MODE_STRICT,
        .monitor_workgroup_memory = vkmm_mode() == VKMM_MODE_STRICT,
        .monitor_device_memory = vkmm_mode() == VKMM_MODE_STRICT,
        .poll_loops = 1,
    };
    pipeline->has_atomics = module_has_atomics(module->words, module->word_count);
    uint32_t atomic_storage = pipeline->has_atomics && vkmm_mode() == VKMM_MODE_STRICT
                                  ? vkmm_shader_atomic_storage(module->words, module->word_count, &options)
                                  : 0;
    pipeline->device_atomics = (atomic_storage & VKMM_ATOMICS_OFF_WORKGROUP) != 0;
    pipeline->unmonitored_atomics = (atomic_storage & VKMM_ATOMICS_UNMONITORED) != 0;
    if (vkmm_mode() == VKMM_MODE_STRICT)
        pipeline->unread_count = vkmm_shader_unread_bindings(module->words, module->word_count, &options,
                                                             pipeline->unread, 16);
    struct vkmm_cache_key key;
    key_of(&key, module, &options);
    char error[600];
    *cache_hit = cache && vkmm_pipeline_cache_find(cache, &key, &pipeline->shader) &&
                 load_cached(device, cache, &key, module, &options, &pipeline->shader);
    if (*cache_hit) {
        /* loaded */
    } else if (info->flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) {
        result = VK_PIPELINE_COMPILE_REQUIRED;
    } else if (vkmm_compile(module->words, module->word_count, &options, &pipeline->shader, error,
                            sizeof(error)) != 0) {
        result = vkmm_errorf(device, VK_ERROR_UNKNOWN, "compute shader '%s': %s", stage->pName, error);
    } else if (cache) {
        vkmm_pipeline_cache_add(cache, &key, &pipeline->shader);
    }
    vkmm_free(&device->allocator, NULL, view.bindings);
    return result;
}

bool vkmm_pipeline_never_reads(const struct vkmm_pipeline *pipeline, uint32_t set, uint32_t binding)
{
    for (uint32_t i = 0; i < pipeline->unread_count; i++)
        if (pipeline->unread[i].set == set && pipeline->unread[i].binding == binding)
            return true;
    return false;
}

static void pipeline_destroy(struct vkmm_device *device, struct vkmm_pipeline *pipeline,
                             const VkAllocationCallbacks *allocator)
{
    vkmm_compiled_shader_free(&pipeline->shader);
    if (pipeline->layout)
        vkmm_pipeline_layout_unref(device, pipeline->layout);
    vkmm_object_finish(&pipeline->base);
    vkmm_free(&device->allocator, allocator, pipeline);
}

static void report_feedback(const VkComputePipelineCreateInfo *info, bool hit, uint64_t nanoseconds)
{
    for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
        if (s->sType != VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO)
            continue;
        const VkPipelineCreationFeedbackCreateInfo *feedback = (const VkPipelineCreationFeedbackCreateInfo *)s;
        VkPipelineCreationFeedbackFlags flags = VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT |
                                                (hit ? VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT : 0);
        feedback->pPipelineCreationFeedback->flags = flags;
        feedback->pPipelineCreationFeedback->duration = nanoseconds;
        for (uint32_t i = 0; i < feedback->pipelineStageCreationFeedbackCount; i++) {
            feedback->pPipelineStageCreationFeedbacks[i].flags = flags;
            feedback->pPipelineStageCreationFeedbacks[i].duration = nanoseconds;
        }
    }
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static VkResult create_one(struct vkmm_device *device, struct vkmm_pipeline_cache *cache,
                           const VkComputePipelineCreateInfo *info, const VkAllocationCallbacks *allocator,
                           VkPipeline *out)
{
    struct vkmm_pipeline *pipeline =
        vkmm_zalloc(&device->allocator, allocator, sizeof(*pipeline), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!pipeline)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a pipeline");
    vkmm_object_init(&pipeline->base, VK_OBJECT_TYPE_PIPELINE, device->base.instance, device);
    pipeline->layout = vkmm_pipeline_layout_from_handle(info->layout);
    vkmm_pipeline_layout_ref(pipeline->layout);
    uint64_t start = now_ns();
    bool hit = false;
    VkResult result = compile_stage(device, cache, info, pipeline, &hit);
    if (result != VK_SUCCESS) {
        pipeline_destroy(device, pipeline, allocator);
        return result;
    }
    report_feedback(info, hit, now_ns() - start);
    *out = vkmm_pipeline_to_handle(pipeline);
    return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateComputePipelines(VkDevice _device, VkPipelineCache pipelineCache,
                                                            uint32_t createInfoCount,
                                                            const VkComputePipelineCreateInfo *pCreateInfos,
                                                            const VkAllocationCallbacks *pAllocator,
                                                            VkPipeline *pPipelines)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    struct vkmm_pipeline_cache *cache = vkmm_pipeline_cache_from_handle(pipelineCache);
    VkResult first_failure = VK_SUCCESS;
    for (uint32_t i = 0; i < createInfoCount; i++) {
        pPipelines[i] = VK_NULL_HANDLE;
        VkResult result = create_one(device, cache, &pCreateInfos[i], pAllocator, &pPipelines[i]);
        if (result == VK_SUCCESS)
            continue;
        if (first_failure == VK_SUCCESS)
            first_failure = result;
        /* The spec: with EARLY_RETURN_ON_FAILURE the remaining entries are
         * VK_NULL_HANDLE and the call returns at once. */
        if (pCreateInfos[i].flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) {
            for (uint32_t k = i + 1; k < createInfoCount; k++)
                pPipelines[k] = VK_NULL_HANDLE;
            break;
        }
    }
    return first_failure;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyPipeline(VkDevice _device, VkPipeline _pipeline,
                                                const VkAllocationCallbacks *pAllocator)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_pipeline, pipeline, _pipeline);
    if (pipeline)
        pipeline_destroy(device, pipeline, pAllocator);
}

/* No queue of vkmm's can bind a graphics pipeline, and vkmm has no
 * rasterizer to build one for: each is refused with a message (its handle
 * VK_NULL_HANDLE, as the spec asks of pipelines that failed). */
VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateGraphicsPipelines(VkDevice _device, VkPipelineCache pipelineCache,
                                                             uint32_t createInfoCount,
                                                             const VkGraphicsPipelineCreateInfo *pCreateInfos,
                                                             const VkAllocationCallbacks *pAllocator,
                                                             VkPipeline *pPipelines)
{
    (void)pipelineCache, (void)pCreateInfos, (void)pAllocator;
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    for (uint32_t i = 0; i < createInfoCount; i++)
        pPipelines[i] = VK_NULL_HANDLE;
    return vkmm_errorf(device, VK_ERROR_UNKNOWN,
                       "vkCreateGraphicsPipelines: vkmm is a compute device (no queue family has "
                       "VK_QUEUE_GRAPHICS_BIT); %u graphics pipeline(s) not created", createInfoCount);
}
