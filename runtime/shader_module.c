#include "shader_module.h"

#include <string.h>

#include "alloc.h"
#include "device.h"
#include "log.h"

#define SPIRV_MAGIC 0x07230203u

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateShaderModule(VkDevice _device, const VkShaderModuleCreateInfo *pCreateInfo,
                                                        const VkAllocationCallbacks *pAllocator,
                                                        VkShaderModule *pShaderModule)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    size_t size = pCreateInfo->codeSize;
    /* Full validation happens when a pipeline is created (the module may use
     * specialization); here only what makes it SPIR-V at all. */
    if (size < 20 || size % 4 || pCreateInfo->pCode[0] != SPIRV_MAGIC)
        return vkmm_errorf(device, VK_ERROR_UNKNOWN,
                           "codeSize %zu / magic 0x%08x: not a SPIR-V module", size,
                           size >= 4 ? pCreateInfo->pCode[0] : 0u);
    struct vkmm_shader_module *module =
        vkmm_zalloc(&device->allocator, pAllocator, sizeof(*module) + size, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!module)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a shader module of %zu bytes", size);
    vkmm_object_init(&module->base, VK_OBJECT_TYPE_SHADER_MODULE, device->base.instance, device);
    module->word_count = size / 4;
    memcpy(module->words, pCreateInfo->pCode, size);
    *pShaderModule = vkmm_shader_module_to_handle(module);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyShaderModule(VkDevice _device, VkShaderModule shaderModule,
                                                    const VkAllocationCallbacks *pAllocator)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_shader_module, module, shaderModule);
    if (!module)
        return;
    vkmm_object_finish(&module->base);
    vkmm_free(&device->allocator, pAllocator, module);
}
