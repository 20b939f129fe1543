/* VkRenderPass: vkmm has no graphics queue, so no command can begin a
 * render pass (runtime/cmd_graphics.c); a 1.3 device still creates and
 * destroys them, as plain objects that keep nothing of their description. */
#include "alloc.h"
#include "device.h"
#include "log.h"

struct vkmm_render_pass {
    struct vkmm_object base;
};

VKMM_DEFINE_HANDLE_CASTS(vkmm_render_pass, VkRenderPass, VK_OBJECT_TYPE_RENDER_PASS)

static VkResult create_render_pass(VkDevice _device, const VkAllocationCallbacks *pAllocator, VkRenderPass *out)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    struct vkmm_render_pass *pass =
        vkmm_zalloc(&device->allocator, pAllocator, sizeof(*pass), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!pass)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a VkRenderPass");
    vkmm_object_init(&pass->base, VK_OBJECT_TYPE_RENDER_PASS, device->base.instance, device);
    *out = vkmm_render_pass_to_handle(pass);
    return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateRenderPass(VkDevice device, const VkRenderPassCreateInfo *pCreateInfo,
                                                      const VkAllocationCallbacks *pAllocator,
                                                      VkRenderPass *pRenderPass)
{
    (void)pCreateInfo;
    return create_render_pass(device, pAllocator, pRenderPass);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateRenderPass2(VkDevice device, const VkRenderPassCreateInfo2 *pCreateInfo,
                                                       const VkAllocationCallbacks *pAllocator,
                                                       VkRenderPass *pRenderPass)
{
    (void)pCreateInfo;
    return create_render_pass(device, pAllocator, pRenderPass);
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyRenderPass(VkDevice _device, VkRenderPass renderPass,
                                                  const VkAllocationCallbacks *pAllocator)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_render_pass, pass, renderPass);
    if (!pass)
        return;
    vkmm_object_finish(&pass->base);
    vkmm_free(&device->allocator, pAllocator, pass);
}

/* Any render area is as good as another: nothing renders. */
VKAPI_ATTR void VKAPI_CALL vkmm_GetRenderAreaGranularity(VkDevice device, VkRenderPass renderPass,
                                                         VkExtent2D *pGranularity)
{
    (void)device, (void)renderPass;
    *pGranularity = (VkExtent2D){ 1, 1 };
}
