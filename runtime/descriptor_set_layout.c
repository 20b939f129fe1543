#include "descriptor_set_layout.h"

#include <stdbool.h>
#include <stdlib.h>

#include "alloc.h"
#include "device.h"
#include "log.h"
#include "sampler.h"

uint32_t vkmm_descriptor_type_slot(VkDescriptorType type)
{
    if ((uint32_t)type < VKMM_DESCRIPTOR_SLOT_INLINE_UNIFORM_BLOCK)
        return (uint32_t)type;
    return type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK ? VKMM_DESCRIPTOR_SLOT_INLINE_UNIFORM_BLOCK : UINT32_MAX;
}

static bool type_supported(VkDescriptorType type)
{
    return vkmm_descriptor_type_slot(type) != UINT32_MAX;
}

static bool type_dynamic(VkDescriptorType type)
{
    return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

/* The first binding whose type vkmm does not know, or NULL.  Other types
 * (acceleration structures, mutable descriptors) need features or
 * extensions vkmm does not advertise. */
static const VkDescriptorSetLayoutBinding *find_unsupported_binding(const VkDescriptorSetLayoutCreateInfo *info)
{
    for (uint32_t i = 0; i < info->bindingCount; i++) {
        if (info->pBindings[i].descriptorCount > 0 && !type_supported(info->pBindings[i].descriptorType))
            return &info->pBindings[i];
    }
    return NULL;
}

static bool has_immutable_samplers(const VkDescriptorSetLayoutBinding *binding)
{
    return binding->pImmutableSamplers && (binding->descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER ||
                                           binding->descriptorType == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER);
}

static uint64_t immutable_sampler_count(const VkDescriptorSetLayoutCreateInfo *info)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < info->bindingCount; i++)
        if (has_immutable_samplers(&info->pBindings[i]))
            total += info->pBindings[i].descriptorCount;
    return total;
}

/* The buffer type whose accesses a descriptor type's shaders make. */
static VkDescriptorType memory_type(VkDescriptorType type)
{
    switch (type) {
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
        return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
        return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    default:
        return type;
    }
}

/* The descriptors a binding takes in a set's flat array: an inline uniform
 * block's descriptorCount counts its bytes, and it is one descriptor. */
static uint32_t descriptors_of(const VkDescriptorSetLayoutBinding *binding)
{
    if (binding->descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
        return binding->descriptorCount ? 1 : 0;
    return binding->descriptorCount;
}

static uint64_t total_descriptors(const VkDescriptorSetLayoutCreateInfo *info)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < info->bindingCount; i++)
        total += descriptors_of(&info->pBindings[i]);
    return total;
}

/* VUID-VkDescriptorSetLayoutBinding-descriptorType-02209/08004: an inline
 * uniform block's size is a multiple of 4 and at most
 * maxInlineUniformBlockSize.  NULL when every block is valid. */
static const VkDescriptorSetLayoutBinding *find_invalid_inline_block(const struct vkmm_device *device,
                                                                     const VkDescriptorSetLayoutCreateInfo *info)
{
    uint32_t max = device->physical_device->properties.v13.maxInlineUniformBlockSize;
    for (uint32_t i = 0; i < info->bindingCount; i++) {
        const VkDescriptorSetLayoutBinding *b = &info->pBindings[i];
        if (b->descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK && (b->descriptorCount % 4 || b->descriptorCount > max))
            return b;
    }
    return NULL;
}

static const VkDescriptorSetLayoutBindingFlagsCreateInfo *
find_binding_flags(const VkDescriptorSetLayoutCreateInfo *info)
{
    for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO)
            return (const VkDescriptorSetLayoutBindingFlagsCreateInfo *)s;
    }
    return NULL;
}

/* Layout flags and binding flags all need features or extensions vkmm does
 * not advertise (descriptor indexing, push descriptors, descriptor
 * buffers).  None changes what vkmm stores, so they are reported and
 * ignored rather than failing the call. */
static void warn_ignored_flags(struct vkmm_device *device, const VkDescriptorSetLayoutCreateInfo *info)
{
    if (info->flags)
        vkmm_log(&device->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
                 VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, "VKMM-WARNING-IGNORED-FLAGS",
                 "descriptor set layout flags 0x%x need features vkmm does not advertise; they are ignored",
                 info->flags);
    const VkDescriptorSetLayoutBindingFlagsCreateInfo *flags = find_binding_flags(info);
    for (uint32_t i = 0; flags && i < flags->bindingCount; i++) {
        if (!flags->pBindingFlags[i])
            continue;
        vkmm_log(&device->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
                 VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, "VKMM-WARNING-IGNORED-FLAGS",
                 "binding flags 0x%x (pBindings[%u]) need descriptor-indexing features vkmm does not "
                 "advertise; they are ignored",
                 flags->pBindingFlags[i], i);
    }
}

static int compare_bindings(const void *a, const void *b)
{
    uint32_t x = ((const struct vkmm_set_layout_binding *)a)->binding;
    uint32_t y = ((const struct vkmm_set_layout_binding *)b)->binding;
    return (x > y) - (x < y);
}

/* Lays the sorted bindings out one after another: descriptors in binding
 * order, and dynamic descriptors in the order the spec gives dynamic
 * offsets ("ordered by binding number ... and within a binding array,
 * elements are in order"). */
static void assign_offsets(struct vkmm_descriptor_set_layout *layout)
{
    for (uint32_t i = 0; i < layout->binding_count; i++) {
        struct vkmm_set_layout_binding *b = &layout->bindings[i];
        b->first = layout->descriptor_count;
        layout->descriptor_count += b->count;
        if (b->count == 0)
            continue;
        if (b->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
            /* The spec counts an inline uniform block's pool share in bytes. */
            b->inline_offset = layout->inline_size;
            layout->inline_size += (b->inline_size + VKMM_INLINE_UNIFORM_BLOCK_ALIGNMENT - 1) &
                                   ~(uint32_t)(VKMM_INLINE_UNIFORM_BLOCK_ALIGNMENT - 1);
            layout->type_counts[VKMM_DESCRIPTOR_SLOT_INLINE_UNIFORM_BLOCK] += b->inline_size;
            continue;
        }
        layout->type_counts[b->type] += b->count;
        if (!type_dynamic(b->type))
            continue;
        b->dynamic_first = layout->dynamic_count;
        layout->dynamic_count += b->count;
    }
}

const struct vkmm_set_layout_binding *
vkmm_descriptor_set_layout_find(const struct vkmm_descriptor_set_layout *layout, uint32_t binding)
{
    uint32_t low = 0, high = layout->binding_count;
    while (low < high) {
        uint32_t middle = low + (high - low) / 2;
        if (layout->bindings[middle].binding < binding)
            low = middle + 1;
        else
            high = middle;
    }
    if (low < layout->binding_count && layout->bindings[low].binding == binding)
        return &layout->bindings[low];
    return NULL;
}

void vkmm_descriptor_set_layout_ref(struct vkmm_descriptor_set_layout *layout)
{
    atomic_fetch_add_explicit(&layout->ref_count, 1, memory_order_relaxed);
}

void vkmm_descriptor_set_layout_unref(struct vkmm_device *device, struct vkmm_descriptor_set_layout *layout)
{
    if (atomic_fetch_sub_explicit(&layout->ref_count, 1, memory_order_acq_rel) != 1)
        return;
    vkmm_object_finish(&layout->base);
    vkmm_free(&device->allocator, NULL, layout);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateDescriptorSetLayout(VkDevice _device,
                                                               const VkDescriptorSetLayoutCreateInfo *pCreateInfo,
                                                               const VkAllocationCallbacks *pAllocator,
                                                               VkDescriptorSetLayout *pSetLayout)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    /* The layout lives until the last set or pipeline layout using it is
     * gone, which may be after vkDestroyDescriptorSetLayout: memory from
     * pAllocator would outlive the object the application gave those
     * callbacks for, so the device's allocator is used instead. */
    (void)pAllocator;
    const VkDescriptorSetLayoutBinding *unsupported = find_unsupported_binding(pCreateInfo);
    if (unsupported)
        return vkmm_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                           "binding %u has descriptor type %d, which vkmm does not support", unsupported->binding,
                           unsupported->descriptorType);
    const VkDescriptorSetLayoutBinding *invalid = find_invalid_inline_block(device, pCreateInfo);
    if (invalid)
        return vkmm_errorf(device, VK_ERROR_UNKNOWN,
                           "binding %u: an inline uniform block of %u bytes (a multiple of 4, at most "
                           "maxInlineUniformBlockSize, is required)",
                           invalid->binding, invalid->descriptorCount);
    uint64_t total = total_descriptors(pCreateInfo);
    if (total > UINT32_MAX)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "%llu descriptors do not fit in one set",
                           (unsigned long long)total);
    warn_ignored_flags(device, pCreateInfo);

    uint32_t count = pCreateInfo->bindingCount;
    uint64_t immutable = immutable_sampler_count(pCreateInfo);
    struct vkmm_descriptor_set_layout *layout =
        vkmm_zalloc(&device->allocator, NULL,
                    sizeof(*layout) + 2 * count * sizeof(layout->bindings[0]) + immutable * sizeof(struct vkmm_sampler_state),
                    VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!layout)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a descriptor set layout");
    vkmm_object_init(&layout->base, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, device->base.instance, device);
    atomic_init(&layout->ref_count, 1);
    layout->flags = pCreateInfo->flags;
    layout->binding_count = count;
    layout->bindings = (struct vkmm_set_layout_binding *)(layout + 1);
    layout->memory_bindings = layout->bindings + count;
    struct vkmm_sampler_state *sampler_states = (struct vkmm_sampler_state *)(layout->memory_bindings + count);
    for (uint32_t i = 0; i < count; i++) {
        const VkDescriptorSetLayoutBinding *in = &pCreateInfo->pBindings[i];
        layout->bindings[i] = (struct vkmm_set_layout_binding){
            .binding = in->binding,
            .type = in->descriptorType,
            .count = descriptors_of(in),
            .stages = in->stageFlags,
            .inline_size = in->descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK ? in->descriptorCount : 0,
        };
        if (!has_immutable_samplers(in))
            continue;
        /* The spec: the samplers are copied into the layout. */
        for (uint32_t e = 0; e < in->descriptorCount; e++)
            sampler_states[e] = vkmm_sampler_state(vkmm_sampler_from_handle(in->pImmutableSamplers[e]));
        layout->bindings[i].immutable_samplers = sampler_states;
        sampler_states += in->descriptorCount;
    }
    qsort(layout->bindings, count, sizeof(layout->bindings[0]), compare_bindings);
    for (uint32_t i = 1; i < count; i++) {
        if (layout->bindings[i].binding != layout->bindings[i - 1].binding)
            continue;
        uint32_t binding = layout->bindings[i].binding;
        vkmm_descriptor_set_layout_unref(device, layout);
        return vkmm_errorf(device, VK_ERROR_UNKNOWN, "binding number %u appears more than once", binding);
    }
    assign_offsets(layout);
    for (uint32_t i = 0; i < count; i++) {
        layout->memory_bindings[i] = layout->bindings[i];
        layout->memory_bindings[i].type = memory_type(layout->bindings[i].type);
    }
    *pSetLayout = vkmm_descriptor_set_layout_to_handle(layout);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyDescriptorSetLayout(VkDevice _device, VkDescriptorSetLayout descriptorSetLayout,
                                                           const VkAllocationCallbacks *pAllocator)
{
    (void)pAllocator;
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_descriptor_set_layout, layout, descriptorSetLayout);
    if (!layout)
        return;
    vkmm_descriptor_set_layout_unref(device, layout);
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetDescriptorSetLayoutSupport(VkDevice _device,
                                                              const VkDescriptorSetLayoutCreateInfo *pCreateInfo,
                                                              VkDescriptorSetLayoutSupport *pSupport)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    uint32_t max = device->physical_device->properties.v11.maxPerSetDescriptors;
    pSupport->supported = !find_unsupported_binding(pCreateInfo) && !find_invalid_inline_block(device, pCreateInfo) &&
                          total_descriptors(pCreateInfo) <= max;
    for (VkBaseOutStructure *s = pSupport->pNext; s; s = s->pNext) {
        /* The spec: without descriptorBindingVariableDescriptorCount
         * "maxVariableDescriptorCount is set to zero". */
        if (s->sType == VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_LAYOUT_SUPPORT)
            ((VkDescriptorSetVariableDescriptorCountLayoutSupport *)s)->maxVariableDescriptorCount = 0;
    }
}
