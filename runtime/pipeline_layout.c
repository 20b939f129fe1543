#include "pipeline_layout.h"

#include <string.h>

#include "alloc.h"
#include "descriptor_set_layout.h"
#include "device.h"
#include "log.h"

/* The bytes the push constant ranges cover: the largest offset + size. */
static uint64_t push_constant_size(const VkPipelineLayoutCreateInfo *info)
{
    uint64_t size = 0;
    for (uint32_t i = 0; i < info->pushConstantRangeCount; i++) {
        const VkPushConstantRange *range = &info->pPushConstantRanges[i];
        uint64_t end = (uint64_t)range->offset + range->size;
        if (end > size)
            size = end;
    }
    return size;
}

const struct vkmm_pipeline_layout *vkmm_pipeline_layout_memory_view(const struct vkmm_pipeline_layout *layout,
                                                                    struct vkmm_pipeline_layout_view *storage)
{
    /* Copies of the objects' plain fields (the reference counts are never
     * touched through the view). */
    memcpy(&storage->layout, layout, sizeof(*layout));
    for (uint32_t s = 0; s < layout->set_count && s < VKMM_MAX_DESCRIPTOR_SETS; s++) {
        if (!layout->sets[s])
            continue;
        memcpy(&storage->sets[s], layout->sets[s], sizeof(storage->sets[s]));
        storage->sets[s].bindings = layout->sets[s]->memory_bindings;
        storage->layout.sets[s] = &storage->sets[s];
    }
    return &storage->layout;
}

void vkmm_pipeline_layout_ref(struct vkmm_pipeline_layout *layout)
{
    atomic_fetch_add_explicit(&layout->ref_count, 1, memory_order_relaxed);
}

void vkmm_pipeline_layout_unref(struct vkmm_device *device, struct vkmm_pipeline_layout *layout)
{
    if (atomic_fetch_sub_explicit(&layout->ref_count, 1, memory_order_acq_rel) != 1)
        return;
    for (uint32_t i = 0; i < layout->set_count; i++) {
        if (layout->sets[i])
            vkmm_descriptor_set_layout_unref(device, layout->sets[i]);
    }
    vkmm_object_finish(&layout->base);
    vkmm_free(&device->allocator, NULL, layout);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreatePipelineLayout(VkDevice _device,
                                                          const VkPipelineLayoutCreateInfo *pCreateInfo,
                                                          const VkAllocationCallbacks *pAllocator,
                                                          VkPipelineLayout *pPipelineLayout)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    /* Pipelines keep the layout alive past vkDestroyPipelineLayout, so, as
     * for descriptor set layouts, its memory comes from the device's
     * allocator rather than pAllocator. */
    (void)pAllocator;
    if (pCreateInfo->setLayoutCount > VKMM_MAX_DESCRIPTOR_SETS)
        return vkmm_errorf(device, VK_ERROR_UNKNOWN, "setLayoutCount %u exceeds maxBoundDescriptorSets (%d)",
                           pCreateInfo->setLayoutCount, VKMM_MAX_DESCRIPTOR_SETS);
    uint64_t push_size = push_constant_size(pCreateInfo);
    if (push_size > VKMM_MAX_PUSH_CONSTANT_SIZE)
        return vkmm_errorf(device, VK_ERROR_UNKNOWN,
                           "push constant ranges reach byte %llu, past maxPushConstantsSize (%d)",
                           (unsigned long long)push_size, VKMM_MAX_PUSH_CONSTANT_SIZE);
    struct vkmm_pipeline_layout *layout =
        vkmm_zalloc(&device->allocator, NULL, sizeof(*layout), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!layout)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a pipeline layout");
    vkmm_object_init(&layout->base, VK_OBJECT_TYPE_PIPELINE_LAYOUT, device->base.instance, device);
    atomic_init(&layout->ref_count, 1);
    layout->set_count = pCreateInfo->setLayoutCount;
    layout->push_constant_size = (uint32_t)push_size;
    for (uint32_t i = 0; i < layout->set_count; i++) {
        /* VK_NULL_HANDLE is a set with no bindings. */
        VKMM_FROM_HANDLE(vkmm_descriptor_set_layout, set_layout, pCreateInfo->pSetLayouts[i]);
        layout->sets[i] = set_layout;
        layout->dynamic_offset_start[i] = layout->dynamic_count;
        if (!set_layout)
            continue;
        vkmm_descriptor_set_layout_ref(set_layout);
        layout->dynamic_count += set_layout->dynamic_count;
    }
    *pPipelineLayout = vkmm_pipeline_layout_to_handle(layout);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyPipelineLayout(VkDevice _device, VkPipelineLayout pipelineLayout,
                                                      const VkAllocationCallbacks *pAllocator)
{
    (void)pAllocator;
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_pipeline_layout, layout, pipelineLayout);
    if (!layout)
        return;
    vkmm_pipeline_layout_unref(device, layout);
}
