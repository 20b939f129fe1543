/* The loader-driver interface (LoaderDriverInterface.md): the only symbols
 * the shared library exports, and the proc-addr lookups built on the
 * generated entry-point table. */
#include <string.h>
#include <vulkan/vk_icd.h>
#include <vulkan/vulkan.h>

#include "vkmm_entrypoints.h"

#define VKMM_EXPORT __attribute__((visibility("default")))

/* Interface 7 is the newest this header knows; it adds nothing vkmm must do
 * beyond version 5 on Linux except answering the vk_icd* names through
 * vk_icdGetInstanceProcAddr. */
#define VKMM_LOADER_INTERFACE_VERSION 7

VKMM_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *pSupportedVersion);
VKMM_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance,
                                                                               const char *pName);
VKMM_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetPhysicalDeviceProcAddr(VkInstance instance,
                                                                                     const char *pName);

VKMM_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *pSupportedVersion)
{
    /* Version 5 is the oldest whose rules vkmm follows (the loader may pass
     * a 1.0 instance to a 1.1+ driver). */
    if (*pSupportedVersion < 5)
        return VK_ERROR_INCOMPATIBLE_DRIVER;
    if (*pSupportedVersion > VKMM_LOADER_INTERFACE_VERSION)
        *pSupportedVersion = VKMM_LOADER_INTERFACE_VERSION;
    return VK_SUCCESS;
}

VKMM_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance,
                                                                               const char *pName)
{
    if (!pName)
        return NULL;
    if (strcmp(pName, "vk_icdNegotiateLoaderICDInterfaceVersion") == 0)
        return (PFN_vkVoidFunction)vk_icdNegotiateLoaderICDInterfaceVersion;
    if (strcmp(pName, "vk_icdGetPhysicalDeviceProcAddr") == 0)
        return (PFN_vkVoidFunction)vk_icdGetPhysicalDeviceProcAddr;
    if (strcmp(pName, "vkGetInstanceProcAddr") == 0)
        return (PFN_vkVoidFunction)vk_icdGetInstanceProcAddr;
    const struct vkmm_entrypoint *entry = vkmm_entrypoint_find(pName);
    if (!entry)
        return NULL;
    /* The spec: with instance NULL only global commands are returned. */
    if (!instance && entry->level != VKMM_LEVEL_GLOBAL)
        return NULL;
    return entry->function;
}

VKMM_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetPhysicalDeviceProcAddr(VkInstance instance,
                                                                                     const char *pName)
{
    (void)instance;
    const struct vkmm_entrypoint *entry = pName ? vkmm_entrypoint_find(pName) : NULL;
    if (!entry || entry->level != VKMM_LEVEL_PHYSICAL_DEVICE)
        return NULL;
    return entry->function;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkmm_GetInstanceProcAddr(VkInstance instance, const char *pName)
{
    return vk_icdGetInstanceProcAddr(instance, pName);
}
