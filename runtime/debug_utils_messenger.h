/* VK_EXT_debug_utils messengers: where driver messages and hazard reports go. */
#pragma once

#include <vulkan/vulkan.h>

#include "object.h"

struct vkmm_debug_messenger {
    struct vkmm_object base;
    VkDebugUtilsMessageSeverityFlagsEXT severities;
    VkDebugUtilsMessageTypeFlagsEXT types;
    PFN_vkDebugUtilsMessengerCallbackEXT callback;
    void *user_data;
    struct vkmm_debug_messenger *next;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_debug_messenger, VkDebugUtilsMessengerEXT,
                         VK_OBJECT_TYPE_DEBUG_UTILS_MESSENGER_EXT)

/* Calls every messenger of `instance` whose masks match. */
void vkmm_debug_messengers_emit(struct vkmm_instance *instance,
                                VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                VkDebugUtilsMessageTypeFlagsEXT types,
                                const VkDebugUtilsMessengerCallbackDataEXT *data);
