#include "descriptor_update_template.h"

#include "alloc.h"
#include "descriptor_set.h"
#include "device.h"
#include "log.h"

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateDescriptorUpdateTemplate(
    VkDevice _device, const VkDescriptorUpdateTemplateCreateInfo *pCreateInfo, const VkAllocationCallbacks *pAllocator,
    VkDescriptorUpdateTemplate *pDescriptorUpdateTemplate)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    if (pCreateInfo->templateType != VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET)
        return vkmm_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                           "descriptor update template type %d is not supported (push descriptors are not)",
                           pCreateInfo->templateType);
    uint32_t count = pCreateInfo->descriptorUpdateEntryCount;
    struct vkmm_descriptor_update_template *template =
        vkmm_zalloc(&device->allocator, pAllocator, sizeof(*template) + count * sizeof(template->entries[0]),
                    VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!template)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a descriptor update template");
    vkmm_object_init(&template->base, VK_OBJECT_TYPE_DESCRIPTOR_UPDATE_TEMPLATE, device->base.instance, device);
    template->entry_count = count;
    for (uint32_t i = 0; i < count; i++)
        template->entries[i] = pCreateInfo->pDescriptorUpdateEntries[i];
    *pDescriptorUpdateTemplate = vkmm_descriptor_update_template_to_handle(template);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyDescriptorUpdateTemplate(VkDevice _device,
                                                                VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                                const VkAllocationCallbacks *pAllocator)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_descriptor_update_template, template, descriptorUpdateTemplate);
    if (!template)
        return;
    vkmm_object_finish(&template->base);
    vkmm_free(&device->allocator, pAllocator, template);
}

VKAPI_ATTR void VKAPI_CALL vkmm_UpdateDescriptorSetWithTemplate(VkDevice _device, VkDescriptorSet descriptorSet,
                                                                VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                                const void *pData)
{
    (void)_device;
    VKMM_FROM_HANDLE(vkmm_descriptor_set, set, descriptorSet);
    VKMM_FROM_HANDLE(vkmm_descriptor_update_template, template, descriptorUpdateTemplate);
    /* Each entry is a write whose buffer infos lie `stride` bytes apart
     * from pData + offset; it crosses bindings as a VkWriteDescriptorSet
     * does. */
    for (uint32_t i = 0; i < template->entry_count; i++) {
        const VkDescriptorUpdateTemplateEntry *entry = &template->entries[i];
        vkmm_descriptor_set_write(set, entry->dstBinding, entry->dstArrayElement, entry->descriptorCount,
                                  entry->descriptorType, (const uint8_t *)pData + entry->offset, entry->stride);
    }
}
