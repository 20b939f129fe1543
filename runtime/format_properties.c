/* vkGetPhysicalDeviceFormatProperties(2) and
 * vkGetPhysicalDeviceImageFormatProperties(2): what each format can do.
 * Images are linear memory (image.h), so both tilings have the same
 * features.  Only the formats of compiler/texel_format.c have any.
 *
 * The spec's "Required Format Support" tables apply to every
 * implementation, a compute-only one too: the colour-attachment, blend
 * and vertex-buffer features they require are advertised.  They promise
 * what the objects can be: an image of such a format may be created with
 * COLOR_ATTACHMENT usage and put in a framebuffer (both plain objects
 * here); drawing into it needs a graphics queue, which vkmm has none of
 * (docs/conformance.md).  Frameworks that make a colour image before they
 * dispatch (Amber, which the CTS uses) run.  Blits (BLIT_SRC, BLIT_DST)
 * are advertised as the tables require, and vkCmdBlitImage runs them on
 * the compute queues, with a message (cmd_image.c). */
#include <string.h>

#include "physical_device.h"
#include "texel_format.h"

/* Formats shaders may use as storage images: those with a SPIR-V Image
 * Format (the spec's "Image Format" mapping), so that OpImageRead and
 * OpImageWrite with a declared format reach every one of them. */
static bool storage_format(VkFormat format)
{
    switch (format) {
    case VK_FORMAT_R8_UNORM: case VK_FORMAT_R8_SNORM: case VK_FORMAT_R8_UINT: case VK_FORMAT_R8_SINT:
    case VK_FORMAT_R8G8_UNORM: case VK_FORMAT_R8G8_SNORM: case VK_FORMAT_R8G8_UINT: case VK_FORMAT_R8G8_SINT:
    case VK_FORMAT_R8G8B8A8_UNORM: case VK_FORMAT_R8G8B8A8_SNORM: case VK_FORMAT_R8G8B8A8_UINT:
    case VK_FORMAT_R8G8B8A8_SINT:
    case VK_FORMAT_R16_UNORM: case VK_FORMAT_R16_SNORM: case VK_FORMAT_R16_UINT: case VK_FORMAT_R16_SINT:
    case VK_FORMAT_R16_SFLOAT:
    case VK_FORMAT_R16G16_UNORM: case VK_FORMAT_R16G16_SNORM: case VK_FORMAT_R16G16_UINT:
    case VK_FORMAT_R16G16_SINT: case VK_FORMAT_R16G16_SFLOAT:
    case VK_FORMAT_R16G16B16A16_UNORM: case VK_FORMAT_R16G16B16A16_SNORM: case VK_FORMAT_R16G16B16A16_UINT:
    case VK_FORMAT_R16G16B16A16_SINT: case VK_FORMAT_R16G16B16A16_SFLOAT:
    case VK_FORMAT_R32_UINT: case VK_FORMAT_R32_SINT: case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_R32G32_UINT: case VK_FORMAT_R32G32_SINT: case VK_FORMAT_R32G32_SFLOAT:
    case VK_FORMAT_R32G32B32A32_UINT: case VK_FORMAT_R32G32B32A32_SINT: case VK_FORMAT_R32G32B32A32_SFLOAT:
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32: case VK_FORMAT_A2B10G10R10_UINT_PACK32:
    case VK_FORMAT_B10G11R11_UFLOAT_PACK32:
        return true;
    default:
        return false;
    }
}

/* The formats the spec requires as colour attachments (COLOR_ATTACHMENT;
 * those among them a shader sees as floats also COLOR_ATTACHMENT_BLEND). */
static bool attachment_format(VkFormat format)
{
    switch (format) {
    case VK_FORMAT_R5G6B5_UNORM_PACK16: case VK_FORMAT_A1R5G5B5_UNORM_PACK16:
    case VK_FORMAT_R8_UNORM: case VK_FORMAT_R8_UINT: case VK_FORMAT_R8_SINT:
    case VK_FORMAT_R8G8_UNORM: case VK_FORMAT_R8G8_UINT: case VK_FORMAT_R8G8_SINT:
    case VK_FORMAT_R8G8B8A8_UNORM: case VK_FORMAT_R8G8B8A8_UINT: case VK_FORMAT_R8G8B8A8_SINT:
    case VK_FORMAT_R8G8B8A8_SRGB: case VK_FORMAT_B8G8R8A8_UNORM: case VK_FORMAT_B8G8R8A8_SRGB:
    case VK_FORMAT_A8B8G8R8_UNORM_PACK32: case VK_FORMAT_A8B8G8R8_UINT_PACK32: case VK_FORMAT_A8B8G8R8_SINT_PACK32:
    case VK_FORMAT_A8B8G8R8_SRGB_PACK32:
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32: case VK_FORMAT_A2B10G10R10_UINT_PACK32:
    case VK_FORMAT_R16_UINT: case VK_FORMAT_R16_SINT: case VK_FORMAT_R16_SFLOAT:
    case VK_FORMAT_R16G16_UINT: case VK_FORMAT_R16G16_SINT: case VK_FORMAT_R16G16_SFLOAT:
    case VK_FORMAT_R16G16B16A16_UINT: case VK_FORMAT_R16G16B16A16_SINT: case VK_FORMAT_R16G16B16A16_SFLOAT:
    case VK_FORMAT_R32_UINT: case VK_FORMAT_R32_SINT: case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_R32G32_UINT: case VK_FORMAT_R32G32_SINT: case VK_FORMAT_R32G32_SFLOAT:
    case VK_FORMAT_R32G32B32A32_UINT: case VK_FORMAT_R32G32B32A32_SINT: case VK_FORMAT_R32G32B32A32_SFLOAT:
        return true;
    default:
        return false;
    }
}

/* Storage texel buffers: the storage image formats, and the A8B8G8R8
 * formats the required tables add (read and written without a declared
 * format: texel_format.c converts them as any other). */
static bool storage_texel_buffer_format(VkFormat format)
{
    switch (format) {
    case VK_FORMAT_A8B8G8R8_UNORM_PACK32: case VK_FORMAT_A8B8G8R8_SNORM_PACK32:
    case VK_FORMAT_A8B8G8R8_UINT_PACK32: case VK_FORMAT_A8B8G8R8_SINT_PACK32:
        return true;
    default:
        return storage_format(format);
    }
}

/* Image atomics run on 32-bit integer texels (compiler/spirv_image.c). */
static bool atomic_format(VkFormat format)
{
    return format == VK_FORMAT_R32_UINT || format == VK_FORMAT_R32_SINT;
}

/* Whether the compiler reads and writes images yet (compiler/spirv_image.c). */
#define VKMM_SHADER_IMAGES 1

/* Depth formats: copied, sampled (with depth comparison, filtered
 * linearly), blitted to their own format, and attachments (objects only,
 * as colour attachments are: see the top of the file). */
#define DEPTH_FEATURES                                                                                              \
    (VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT |                                  \
     VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT |                  \
     VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT | VK_FORMAT_FEATURE_2_BLIT_SRC_BIT |                    \
     VK_FORMAT_FEATURE_2_BLIT_DST_BIT | VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT)

/* ASTC LDR (textureCompressionASTC_LDR): sampled, filtered, copied and
 * blitted from (the feature's required set, with the transfers), decoded
 * by texel_astc.h; never written by a shader or a blit. */
#define COMPRESSED_FEATURES                                                                                         \
    (VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT |                                  \
     VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT |                  \
     VK_FORMAT_FEATURE_2_BLIT_SRC_BIT)

static VkFormatFeatureFlags2 image_features(const struct vkmm_texel_format *f)
{
    VkFormat format = (VkFormat)f->format;
    if (vkmm_texel_format_is_compressed(f))
        return COMPRESSED_FEATURES;
    /* The spec requires one of D24_UNORM_S8_UINT and D32_SFLOAT_S8_UINT as
     * an attachment; that is all D32_SFLOAT_S8_UINT is (texel_format.h). */
    if (f->stencil)
        return VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT;
    if (f->depth)
        return DEPTH_FEATURES;
    VkFormatFeatureFlags2 features = VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;
    if (!VKMM_SHADER_IMAGES)
        return features;
    features |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT;
    /* Linear filtering blends floats; integer texels are only fetched. */
    if (vkmm_texel_format_is_float(f))
        features |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
    if (storage_format(format))
        features |= VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT |
                    VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
    if (atomic_format(format))
        features |= VK_FORMAT_FEATURE_2_STORAGE_IMAGE_ATOMIC_BIT;
    if (attachment_format(format))
        features |= VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT;
    if (attachment_format(format) && vkmm_texel_format_is_float(f))
        features |= VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BLEND_BIT;
    /* A blit decodes any format vkmm samples, and encodes those a shader
     * or an attachment may write (runtime/exec/blit.c). */
    features |= VK_FORMAT_FEATURE_2_BLIT_SRC_BIT;
    if (attachment_format(format) || storage_format(format))
        features |= VK_FORMAT_FEATURE_2_BLIT_DST_BIT;
    return features;
}

static VkFormatFeatureFlags2 buffer_features(const struct vkmm_texel_format *f)
{
    VkFormat format = (VkFormat)f->format;
    if (!VKMM_SHADER_IMAGES || f->depth || vkmm_texel_format_is_compressed(f))
        return 0;
    /* VERTEX_BUFFER: the required format tables (see the top of the file). */
    VkFormatFeatureFlags2 features = VK_FORMAT_FEATURE_2_UNIFORM_TEXEL_BUFFER_BIT | VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT;
    if (storage_texel_buffer_format(format))
        features |= VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_BIT | VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT |
                    VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
    if (atomic_format(format))
        features |= VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_ATOMIC_BIT;
    return features;
}

/* The synchronization-1 flags are the low 32 bits, without the bits that
 * exist only in VkFormatFeatureFlags2. */
static VkFormatFeatureFlags legacy(VkFormatFeatureFlags2 features)
{
    return (VkFormatFeatureFlags)(features & ~(VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT |
                                               VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT) &
                                  0xffffffffu);
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetPhysicalDeviceFormatProperties(VkPhysicalDevice physicalDevice, VkFormat format,
                                                                   VkFormatProperties *pFormatProperties)
{
    (void)physicalDevice;
    const struct vkmm_texel_format *f = vkmm_texel_format(format);
    memset(pFormatProperties, 0, sizeof(*pFormatProperties));
    if (!f)
        return;
    pFormatProperties->linearTilingFeatures = legacy(image_features(f));
    pFormatProperties->optimalTilingFeatures = legacy(image_features(f));
    pFormatProperties->bufferFeatures = legacy(buffer_features(f));
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetPhysicalDeviceFormatProperties2(VkPhysicalDevice physicalDevice, VkFormat format,
                                                                    VkFormatProperties2 *pFormatProperties)
{
    vkmm_GetPhysicalDeviceFormatProperties(physicalDevice, format, &pFormatProperties->formatProperties);
    const struct vkmm_texel_format *f = vkmm_texel_format(format);
    for (VkBaseOutStructure *s = pFormatProperties->pNext; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3) {
            VkFormatProperties3 *p3 = (VkFormatProperties3 *)s;
            p3->linearTilingFeatures = f ? image_features(f) : 0;
            p3->optimalTilingFeatures = f ? image_features(f) : 0;
            p3->bufferFeatures = f ? buffer_features(f) : 0;
        }
    }
}

/* The usage bits a format's features allow. */
static VkImageUsageFlags allowed_usage(const struct vkmm_texel_format *f)
{
    VkFormatFeatureFlags2 features = image_features(f);
    VkImageUsageFlags usage = 0;
    if (features & VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT)
        usage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    if (features & VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT)
        usage |= VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    if (features & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT)
        usage |= VK_IMAGE_USAGE_SAMPLED_BIT;
    if (features & VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT)
        usage |= VK_IMAGE_USAGE_STORAGE_BIT;
    /* The usages a colour attachment format allows (the spec's image
     * creation limits: transient and input attachments with it). */
    if (features & VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT)
        usage |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT |
                 VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
    if (features & VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT)
        usage |= VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT |
                 VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
    return usage;
}

static uint32_t log2_levels(uint32_t size)
{
    uint32_t levels = 1;
    while (size >>= 1)
        levels++;
    return levels;
}

static VkResult image_format_properties(const struct vkmm_physical_device *pd, VkFormat format, VkImageType type,
                                        VkImageTiling tiling, VkImageUsageFlags usage, VkImageCreateFlags flags,
                                        VkImageFormatProperties *out)
{
    const VkPhysicalDeviceLimits *limits = &pd->properties.v10.limits;
    const struct vkmm_texel_format *f = vkmm_texel_format(format);
    const VkImageCreateFlags known = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT |
                                     VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT |
                                     VK_IMAGE_CREATE_ALIAS_BIT;
    memset(out, 0, sizeof(*out));
    /* Views of another format's texels per block (an uncompressed format
     * of the block's size) are for compressed images only. */
    if (f && vkmm_texel_format_is_compressed(f))
        flags &= ~(VkImageCreateFlags)VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT;
    if (!f || (tiling != VK_IMAGE_TILING_OPTIMAL && tiling != VK_IMAGE_TILING_LINEAR) || type > VK_IMAGE_TYPE_3D ||
        (flags & ~known) || !usage)
        return VK_ERROR_FORMAT_NOT_SUPPORTED;
    /* The spec: with EXTENDED_USAGE the usage need only be supported by
     * some format the image's views may have; vkmm checks this format's. */
    if (!(flags & VK_IMAGE_CREATE_EXTENDED_USAGE_BIT) && (usage & ~allowed_usage(f)))
        return VK_ERROR_FORMAT_NOT_SUPPORTED;
    if ((flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) && type != VK_IMAGE_TYPE_2D)
        return VK_ERROR_FORMAT_NOT_SUPPORTED;
    if (f->depth && type == VK_IMAGE_TYPE_3D)
        return VK_ERROR_FORMAT_NOT_SUPPORTED; /* as vkCreateImage (image.c) */
    if (vkmm_texel_format_is_compressed(f) && type != VK_IMAGE_TYPE_2D)
        return VK_ERROR_FORMAT_NOT_SUPPORTED; /* 2D blocks in 2D images only, as vkCreateImage */
    if ((flags & VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT))
        return VK_ERROR_FORMAT_NOT_SUPPORTED; /* 2D views of 3D images are not supported */
    uint32_t max = type == VK_IMAGE_TYPE_1D   ? limits->maxImageDimension1D
                   : type == VK_IMAGE_TYPE_2D ? limits->maxImageDimension2D
                                              : limits->maxImageDimension3D;
    if (flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT)
        max = limits->maxImageDimensionCube;
    out->maxExtent = (VkExtent3D){ max, type == VK_IMAGE_TYPE_1D ? 1 : max, type == VK_IMAGE_TYPE_3D ? max : 1 };
    out->maxMipLevels = log2_levels(max);
    out->maxArrayLayers = type == VK_IMAGE_TYPE_3D ? 1 : limits->maxImageArrayLayers;
    /* Multisampled images: of attachment formats (the spec ties sample
     * counts to them), 2D, optimal, single-level, not cubes and not storage
     * images (storageImageSampleCounts is 1: no
     * shaderStorageImageMultisample).  vkCreateImage holds to the same. */
    out->sampleCounts = VK_SAMPLE_COUNT_1_BIT;
    if (type == VK_IMAGE_TYPE_2D && tiling == VK_IMAGE_TILING_OPTIMAL && !(flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) &&
        !(usage & VK_IMAGE_USAGE_STORAGE_BIT) &&
        (image_features(f) & (VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT)))
        out->sampleCounts |= VK_SAMPLE_COUNT_4_BIT;
    /* The spec's minimum (2^31); vkCreateImage refuses what the heap cannot hold. */
    out->maxResourceSize = 1ull << 31;
    return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_GetPhysicalDeviceImageFormatProperties(
    VkPhysicalDevice physicalDevice, VkFormat format, VkImageType type, VkImageTiling tiling,
    VkImageUsageFlags usage, VkImageCreateFlags flags, VkImageFormatProperties *pImageFormatProperties)
{
    VKMM_FROM_HANDLE(vkmm_physical_device, pd, physicalDevice);
    return image_format_properties(pd, format, type, tiling, usage, flags, pImageFormatProperties);
}

/* External memory handles are not supported; only a zero handle type. */
static bool external_handle_requested(const VkPhysicalDeviceImageFormatInfo2 *info)
{
    for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO &&
            ((const VkPhysicalDeviceExternalImageFormatInfo *)s)->handleType)
            return true;
    }
    return false;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_GetPhysicalDeviceImageFormatProperties2(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceImageFormatInfo2 *pImageFormatInfo,
    VkImageFormatProperties2 *pImageFormatProperties)
{
    VKMM_FROM_HANDLE(vkmm_physical_device, pd, physicalDevice);
    const VkPhysicalDeviceImageFormatInfo2 *info = pImageFormatInfo;
    VkResult result = image_format_properties(pd, info->format, info->type, info->tiling, info->usage, info->flags,
                                              &pImageFormatProperties->imageFormatProperties);
    if (result == VK_SUCCESS && external_handle_requested(info)) {
        memset(&pImageFormatProperties->imageFormatProperties, 0,
               sizeof(pImageFormatProperties->imageFormatProperties));
        result = VK_ERROR_FORMAT_NOT_SUPPORTED;
    }
    for (VkBaseOutStructure *s = pImageFormatProperties->pNext; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES)
            memset(&((VkExternalImageFormatProperties *)s)->externalMemoryProperties, 0,
                   sizeof(VkExternalMemoryProperties));
        if (s->sType == VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_IMAGE_FORMAT_PROPERTIES)
            ((VkSamplerYcbcrConversionImageFormatProperties *)s)->combinedImageSamplerDescriptorCount = 1;
    }
    return result;
}
