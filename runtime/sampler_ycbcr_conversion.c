/* VkSamplerYcbcrConversion: the samplerYcbcrConversion feature is false
 * (no multi-planar format is supported), so creating one is invalid
 * (VUID-vkCreateSamplerYcbcrConversion-None-01648): refused with a message,
 * and no such handle ever exists to destroy. */
#include "device.h"
#include "log.h"

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateSamplerYcbcrConversion(VkDevice _device,
                                                                 const VkSamplerYcbcrConversionCreateInfo *pCreateInfo,
                                                                 const VkAllocationCallbacks *pAllocator,
                                                                 VkSamplerYcbcrConversion *pYcbcrConversion)
{
    (void)pCreateInfo, (void)pAllocator;
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    *pYcbcrConversion = VK_NULL_HANDLE;
    return vkmm_errorf(device, VK_ERROR_UNKNOWN,
                       "vkCreateSamplerYcbcrConversion: the samplerYcbcrConversion feature is not supported "
                       "(VUID-vkCreateSamplerYcbcrConversion-None-01648)");
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroySamplerYcbcrConversion(VkDevice device, VkSamplerYcbcrConversion ycbcrConversion,
                                                              const VkAllocationCallbacks *pAllocator)
{
    (void)device, (void)ycbcrConversion, (void)pAllocator; /* only VK_NULL_HANDLE can be passed */
}
