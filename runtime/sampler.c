#include "sampler.h"

#include "alloc.h"
#include "device.h"
#include "log.h"
#include "shader_abi.h"

struct vkmm_sampler_state vkmm_sampler_state(const struct vkmm_sampler *sampler)
{
    return sampler ? sampler->state : (struct vkmm_sampler_state){ 0 };
}

void vkmm_sampler_state_store(const struct vkmm_sampler_state *state, struct vkmm_image_descriptor *descriptor)
{
    descriptor->sampler = state->word;
    descriptor->min_lod = state->min_lod;
    descriptor->max_lod = state->max_lod;
    descriptor->lod_bias = state->lod_bias;
}

/* What vkmm's sampling cannot do, or NULL (no anisotropy): samplers that
 * would need more are refused rather than silently wrong. */
static const char *unsupported(const VkSamplerCreateInfo *info)
{
    if (info->anisotropyEnable)
        return "anisotropyEnable needs samplerAnisotropy, which vkmm does not advertise";
    if (info->addressModeU > VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER ||
        info->addressModeV > VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER ||
        info->addressModeW > VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER)
        return "MIRROR_CLAMP_TO_EDGE needs samplerMirrorClampToEdge, which vkmm does not advertise";
    if (info->borderColor > VK_BORDER_COLOR_INT_OPAQUE_WHITE)
        return "custom border colours need VK_EXT_custom_border_color";
    if (info->magFilter > VK_FILTER_LINEAR || info->minFilter > VK_FILTER_LINEAR)
        return "cubic filtering needs VK_EXT_filter_cubic";
    for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO ||
            s->sType == VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO)
            return "Y'CbCr conversion and reduction modes are not supported";
    return NULL;
}

static struct vkmm_sampler_state pack(const VkSamplerCreateInfo *info)
{
    uint32_t word = VKMM_SAMPLER_VALID;
    word |= info->mipmapMode == VK_SAMPLER_MIPMAP_MODE_LINEAR ? VKMM_SAMPLER_MIPMAP_LINEAR : 0;
    word |= info->magFilter == VK_FILTER_LINEAR ? VKMM_SAMPLER_MAG_LINEAR : 0;
    word |= info->minFilter == VK_FILTER_LINEAR ? VKMM_SAMPLER_MIN_LINEAR : 0;
    word |= info->unnormalizedCoordinates ? VKMM_SAMPLER_UNNORMALIZED : 0;
    word |= (uint32_t)info->addressModeU << VKMM_SAMPLER_ADDRESS_U_SHIFT;
    word |= (uint32_t)info->addressModeV << VKMM_SAMPLER_ADDRESS_V_SHIFT;
    word |= (uint32_t)info->addressModeW << VKMM_SAMPLER_ADDRESS_W_SHIFT;
    word |= (uint32_t)info->borderColor << VKMM_SAMPLER_BORDER_SHIFT;
    if (info->compareEnable)
        word |= VKMM_SAMPLER_COMPARE | (uint32_t)info->compareOp << VKMM_SAMPLER_COMPARE_OP_SHIFT;
    return (struct vkmm_sampler_state){ .word = word, .min_lod = info->minLod, .max_lod = info->maxLod,
                                        .lod_bias = info->mipLodBias };
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateSampler(VkDevice _device, const VkSamplerCreateInfo *pCreateInfo,
                                                   const VkAllocationCallbacks *pAllocator, VkSampler *pSampler)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    const char *problem = unsupported(pCreateInfo);
    if (problem)
        return vkmm_errorf(device, VK_ERROR_UNKNOWN, "vkCreateSampler: %s", problem);
    struct vkmm_sampler *sampler =
        vkmm_zalloc(&device->allocator, pAllocator, sizeof(*sampler), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!sampler)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a VkSampler");
    vkmm_object_init(&sampler->base, VK_OBJECT_TYPE_SAMPLER, device->base.instance, device);
    sampler->state = pack(pCreateInfo);
    *pSampler = vkmm_sampler_to_handle(sampler);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroySampler(VkDevice _device, VkSampler _sampler,
                                               const VkAllocationCallbacks *pAllocator)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_sampler, sampler, _sampler);
    if (!sampler)
        return;
    vkmm_object_finish(&sampler->base);
    vkmm_free(&device->allocator, pAllocator, sampler);
}
