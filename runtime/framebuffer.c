/* VkFramebuffer: created and destroyed for a 1.3 device's completeness;
 * nothing can render into one on vkmm (no graphics queue). */
#include "alloc.h"
#include "device.h"
#include "log.h"

struct vkmm_framebuffer {
    struct vkmm_object base;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_framebuffer, VkFramebuffer, VK_OBJECT_TYPE_FRAMEBUFFER)

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateFramebuffer(VkDevice _device, const VkFramebufferCreateInfo *pCreateInfo,
                                                       const VkAllocationCallbacks *pAllocator,
                                                       VkFramebuffer *pFramebuffer)
{
    (void)pCreateInfo;
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    struct vkmm_framebuffer *framebuffer =
        vkmm_zalloc(&device->allocator, pAllocator, sizeof(*framebuffer), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!framebuffer)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a VkFramebuffer");
    vkmm_object_init(&framebuffer->base, VK_OBJECT_TYPE_FRAMEBUFFER, device->base.instance, device);
    *pFramebuffer = vkmm_framebuffer_to_handle(framebuffer);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyFramebuffer(VkDevice _device, VkFramebuffer _framebuffer,
                                                   const VkAllocationCallbacks *pAllocator)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_framebuffer, framebuffer, _framebuffer);
    if (!framebuffer)
        return;
    vkmm_object_finish(&framebuffer->base);
    vkmm_free(&device->allocator, pAllocator, framebuffer);
}
