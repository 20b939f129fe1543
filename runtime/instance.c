#include "instance.h"

#include <string.h>

#include "alloc.h"
#include "debug_utils_messenger.h"
#include "log.h"
#include "vkmm_extensions.h"

/* The highest Vulkan version vkmm implements. */
#define VKMM_API_VERSION VK_MAKE_API_VERSION(0, 1, 3, VK_HEADER_VERSION)

VkResult vkmm_fill_array(void *out, uint32_t *count, const void *items, uint32_t n, size_t size)
{
    if (!out) {
        *count = n;
        return VK_SUCCESS;
    }
    uint32_t copied = *count < n ? *count : n;
    if (copied)
        memcpy(out, items, copied * size);
    *count = copied;
    return copied < n ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_EnumerateInstanceVersion(uint32_t *pApiVersion)
{
    *pApiVersion = VKMM_API_VERSION;
    return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_EnumerateInstanceExtensionProperties(
    const char *pLayerName, uint32_t *pPropertyCount, VkExtensionProperties *pProperties)
{
    if (pLayerName)
        return vkmm_errorf(NULL, VK_ERROR_LAYER_NOT_PRESENT, "vkmm provides no layer '%s'", pLayerName);
    return vkmm_fill_array(pProperties, pPropertyCount, vkmm_instance_extensions,
                           vkmm_instance_extension_count, sizeof(VkExtensionProperties));
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_EnumerateInstanceLayerProperties(uint32_t *pPropertyCount,
                                                                      VkLayerProperties *pProperties)
{
    (void)pProperties;
    *pPropertyCount = 0;
    return VK_SUCCESS;
}

int vkmm_extension_index(const VkExtensionProperties *list, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++) {
        if (strcmp(list[i].extensionName, name) == 0)
            return (int)i;
    }
    return -1;
}

uint64_t vkmm_extension_bits(const VkExtensionProperties *list, uint32_t n, const char *const *names, uint32_t count)
{
    uint64_t bits = 0;
    for (uint32_t i = 0; i < count; i++) {
        int e = vkmm_extension_index(list, n, names[i]);
        if (e >= 0 && e < 64)
            bits |= 1ull << e;
    }
    return bits;
}

static VkResult copy_lifecycle_messengers(struct vkmm_instance *instance,
                                          const VkInstanceCreateInfo *info)
{
    uint32_t n = 0;
    for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext)
        n += s->sType == VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    if (n == 0)
        return VK_SUCCESS;
    instance->lifecycle_messengers = vkmm_zalloc(&instance->allocator, NULL,
                                                 n * sizeof(*instance->lifecycle_messengers),
                                                 VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE);
    if (!instance->lifecycle_messengers)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
        if (s->sType != VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT)
            continue;
        VkDebugUtilsMessengerCreateInfoEXT *copy =
            &instance->lifecycle_messengers[instance->lifecycle_messenger_count++];
        *copy = *(const VkDebugUtilsMessengerCreateInfoEXT *)s;
        copy->pNext = NULL;
    }
    return VK_SUCCESS;
}

static void instance_free(struct vkmm_instance *instance)
{
    VkAllocationCallbacks allocator = instance->allocator;
    pthread_mutex_destroy(&instance->messenger_lock);
    vkmm_object_finish(&instance->physical_device.base);
    vkmm_object_finish(&instance->base);
    vkmm_free(&allocator, NULL, instance->lifecycle_messengers);
    vkmm_free(&allocator, NULL, instance);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateInstance(const VkInstanceCreateInfo *pCreateInfo,
                                                    const VkAllocationCallbacks *pAllocator,
                                                    VkInstance *pInstance)
{
    for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; i++) {
        const char *name = pCreateInfo->ppEnabledExtensionNames[i];
        if (vkmm_extension_index(vkmm_instance_extensions, vkmm_instance_extension_count, name) < 0)
            return vkmm_errorf(NULL, VK_ERROR_EXTENSION_NOT_PRESENT,
                               "instance extension %s is not supported by vkmm", name);
    }
    const VkAllocationCallbacks *allocator = vkmm_choose_allocator(NULL, pAllocator);
    struct vkmm_instance *instance =
        vkmm_zalloc(allocator, NULL, sizeof(*instance), VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE);
    if (!instance)
        return vkmm_errorf(NULL, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for the instance");
    instance->allocator = *allocator;
    vkmm_object_init(&instance->base, VK_OBJECT_TYPE_INSTANCE, instance, NULL);
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&instance->messenger_lock, &attr);
    pthread_mutexattr_destroy(&attr);
    instance->enabled_extensions = vkmm_extension_bits(vkmm_instance_extensions, vkmm_instance_extension_count,
                                                       pCreateInfo->ppEnabledExtensionNames,
                                                       pCreateInfo->enabledExtensionCount);
    instance->api_version = pCreateInfo->pApplicationInfo && pCreateInfo->pApplicationInfo->apiVersion
                                ? pCreateInfo->pApplicationInfo->apiVersion
                                : VK_API_VERSION_1_0;
    vkmm_physical_device_init(&instance->physical_device, instance);

    if (copy_lifecycle_messengers(instance, pCreateInfo) != VK_SUCCESS) {
        instance_free(instance);
        return vkmm_errorf(NULL, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for the instance's messengers");
    }
    instance->lifecycle_messengers_active = true;
    vkmm_log(&instance->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT,
             VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, "VKMM-INFO-INSTANCE",
             "vkmm instance created (application API version %u.%u)",
             VK_API_VERSION_MAJOR(instance->api_version), VK_API_VERSION_MINOR(instance->api_version));
    instance->lifecycle_messengers_active = false;
    *pInstance = vkmm_instance_to_handle(instance);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyInstance(VkInstance _instance, const VkAllocationCallbacks *pAllocator)
{
    (void)pAllocator; /* must be compatible with the one given at creation */
    VKMM_FROM_HANDLE(vkmm_instance, instance, _instance);
    if (!instance)
        return;
    instance->lifecycle_messengers_active = true;
    while (instance->messengers) {
        struct vkmm_debug_messenger *leaked = instance->messengers;
        vkmm_log(&instance->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
                 VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, "VKMM-WARNING-LEAK",
                 "debug messenger still alive at vkDestroyInstance; vkmm frees it");
        instance->messengers = leaked->next;
        vkmm_object_finish(&leaked->base);
        vkmm_free(&instance->allocator, NULL, leaked);
    }
    instance_free(instance);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_EnumeratePhysicalDevices(VkInstance _instance,
                                                              uint32_t *pPhysicalDeviceCount,
                                                              VkPhysicalDevice *pPhysicalDevices)
{
    VKMM_FROM_HANDLE(vkmm_instance, instance, _instance);
    VkPhysicalDevice only = vkmm_physical_device_to_handle(&instance->physical_device);
    return vkmm_fill_array(pPhysicalDevices, pPhysicalDeviceCount, &only, 1, sizeof(only));
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_EnumeratePhysicalDeviceGroups(
    VkInstance _instance, uint32_t *pPhysicalDeviceGroupCount,
    VkPhysicalDeviceGroupProperties *pPhysicalDeviceGroupProperties)
{
    VKMM_FROM_HANDLE(vkmm_instance, instance, _instance);
    if (!pPhysicalDeviceGroupProperties) {
        *pPhysicalDeviceGroupCount = 1;
        return VK_SUCCESS;
    }
    if (*pPhysicalDeviceGroupCount == 0)
        return VK_INCOMPLETE;
    VkPhysicalDeviceGroupProperties *group = &pPhysicalDeviceGroupProperties[0];
    group->physicalDeviceCount = 1;
    memset(group->physicalDevices, 0, sizeof(group->physicalDevices));
    group->physicalDevices[0] = vkmm_physical_device_to_handle(&instance->physical_device);
    group->subsetAllocation = VK_FALSE;
    *pPhysicalDeviceGroupCount = 1;
    return VK_SUCCESS;
}
