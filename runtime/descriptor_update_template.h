/* VkDescriptorUpdateTemplate: the entries of vkUpdateDescriptorSetWithTemplate,
 * kept as given. */
#pragma once

#include <vulkan/vulkan.h>

#include "object.h"

struct vkmm_descriptor_update_template {
    struct vkmm_object base;
    uint32_t entry_count;
    VkDescriptorUpdateTemplateEntry entries[]; /* entry_count */
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_descriptor_update_template, VkDescriptorUpdateTemplate,
                         VK_OBJECT_TYPE_DESCRIPTOR_UPDATE_TEMPLATE)
