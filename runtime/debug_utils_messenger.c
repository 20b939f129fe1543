#include "debug_utils_messenger.h"

#include <pthread.h>

#include "alloc.h"
#include "instance.h"
#include "log.h"

void vkmm_debug_messengers_emit(struct vkmm_instance *instance,
                                VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                VkDebugUtilsMessageTypeFlagsEXT types,
                                const VkDebugUtilsMessengerCallbackDataEXT *data)
{
    pthread_mutex_lock(&instance->messenger_lock);
    for (struct vkmm_debug_messenger *m = instance->messengers; m; m = m->next) {
        if ((m->severities & severity) && (m->types & types))
            m->callback(severity, types, data, m->user_data);
    }
    /* The spec (VkInstanceCreateInfo pNext): such messengers are "used during
     * vkCreateInstance and vkDestroyInstance" only. */
    if (instance->lifecycle_messengers_active) {
        for (uint32_t i = 0; i < instance->lifecycle_messenger_count; i++) {
            const VkDebugUtilsMessengerCreateInfoEXT *m = &instance->lifecycle_messengers[i];
            if ((m->messageSeverity & severity) && (m->messageType & types))
                m->pfnUserCallback(severity, types, data, m->pUserData);
        }
    }
    pthread_mutex_unlock(&instance->messenger_lock);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateDebugUtilsMessengerEXT(
    VkInstance _instance, const VkDebugUtilsMessengerCreateInfoEXT *pCreateInfo,
    const VkAllocationCallbacks *pAllocator, VkDebugUtilsMessengerEXT *pMessenger)
{
    VKMM_FROM_HANDLE(vkmm_instance, instance, _instance);
    struct vkmm_debug_messenger *messenger =
        vkmm_zalloc(&instance->allocator, pAllocator, sizeof(*messenger),
                    VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!messenger)
        return vkmm_errorf(instance, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a debug messenger");
    vkmm_object_init(&messenger->base, VK_OBJECT_TYPE_DEBUG_UTILS_MESSENGER_EXT, instance, NULL);
    messenger->severities = pCreateInfo->messageSeverity;
    messenger->types = pCreateInfo->messageType;
    messenger->callback = pCreateInfo->pfnUserCallback;
    messenger->user_data = pCreateInfo->pUserData;

    pthread_mutex_lock(&instance->messenger_lock);
    messenger->next = instance->messengers;
    instance->messengers = messenger;
    pthread_mutex_unlock(&instance->messenger_lock);

    *pMessenger = vkmm_debug_messenger_to_handle(messenger);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyDebugUtilsMessengerEXT(VkInstance _instance,
                                                               VkDebugUtilsMessengerEXT _messenger,
                                                               const VkAllocationCallbacks *pAllocator)
{
    VKMM_FROM_HANDLE(vkmm_instance, instance, _instance);
    VKMM_FROM_HANDLE(vkmm_debug_messenger, messenger, _messenger);
    if (!messenger)
        return;
    pthread_mutex_lock(&instance->messenger_lock);
    for (struct vkmm_debug_messenger **link = &instance->messengers; *link; link = &(*link)->next) {
        if (*link == messenger) {
            *link = messenger->next;
            break;
        }
    }
    pthread_mutex_unlock(&instance->messenger_lock);
    vkmm_object_finish(&messenger->base);
    vkmm_free(&instance->allocator, pAllocator, messenger);
}

VKAPI_ATTR void VKAPI_CALL vkmm_SubmitDebugUtilsMessageEXT(
    VkInstance _instance, VkDebugUtilsMessageSeverityFlagBitsEXT messageSeverity,
    VkDebugUtilsMessageTypeFlagsEXT messageTypes, const VkDebugUtilsMessengerCallbackDataEXT *pCallbackData)
{
    VKMM_FROM_HANDLE(vkmm_instance, instance, _instance);
    vkmm_debug_messengers_emit(instance, messageSeverity, messageTypes, pCallbackData);
}
