#include "image.h"

#include <string.h>

#include "alloc.h"
#include "device.h"
#include "device_memory.h"
#include "log.h"
#include "physical_device.h"
#include "strict/strict.h"

/* As buffers: above every texel size and a whole cache line, so images
 * never share one with another resource. */
#define VKMM_IMAGE_ALIGNMENT 64

/* Create flags that change nothing in linear memory; the rest (sparse,
 * protected, multi-planar, ...) need features vkmm does not advertise. */
#define VKMM_IMAGE_FLAGS                                                                                    \
    (VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT |                              \
     VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT |                         \
     VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT | VK_IMAGE_CREATE_ALIAS_BIT)

static uint32_t minify(uint32_t size, uint32_t level)
{
    uint32_t s = size >> level;
    return s ? s : 1;
}

VkImageAspectFlags vkmm_image_aspect(const struct vkmm_image *image)
{
    if (image->texel->stencil)
        return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
    return image->texel->depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
}

VkExtent3D vkmm_image_level_extent(const struct vkmm_image *image, uint32_t level)
{
    return (VkExtent3D){ minify(image->extent.width, level), minify(image->extent.height, level),
                         minify(image->extent.depth, level) };
}

uint32_t vkmm_image_subresource_layers(const struct vkmm_image *image, const VkImageSubresourceLayers *sub)
{
    return sub->layerCount == VK_REMAINING_ARRAY_LAYERS ? image->layers - sub->baseArrayLayer : sub->layerCount;
}

VkDeviceSize vkmm_image_element_size(const struct vkmm_image *image)
{
    return (VkDeviceSize)image->texel->size * image->samples;
}

/* Blocks of a compressed format across a level: texels divided by the
 * block's dimensions, rounded up (a partial block at the edge is whole in
 * memory); texels for the other formats. */
VkExtent3D vkmm_image_level_blocks(const struct vkmm_image *image, uint32_t level)
{
    VkExtent3D e = vkmm_image_level_extent(image, level);
    uint32_t bw = vkmm_texel_block_width(image->texel), bh = vkmm_texel_block_height(image->texel);
    return (VkExtent3D){ (e.width + bw - 1) / bw, (e.height + bh - 1) / bh, e.depth };
}

VkDeviceSize vkmm_image_row_pitch(const struct vkmm_image *image, uint32_t level)
{
    return (VkDeviceSize)vkmm_image_level_blocks(image, level).width * vkmm_image_element_size(image);
}

VkDeviceSize vkmm_image_slice_pitch(const struct vkmm_image *image, uint32_t level)
{
    return vkmm_image_row_pitch(image, level) * vkmm_image_level_blocks(image, level).height;
}

VkDeviceSize vkmm_image_layer_pitch(const struct vkmm_image *image, uint32_t level)
{
    return vkmm_image_slice_pitch(image, level) * minify(image->extent.depth, level);
}

VkDeviceSize vkmm_image_texel_offset(const struct vkmm_image *image, uint32_t level, uint32_t layer, uint32_t x,
                                     uint32_t y, uint32_t z)
{
    uint32_t bw = vkmm_texel_block_width(image->texel), bh = vkmm_texel_block_height(image->texel);
    return image->level_offset[level] + layer * vkmm_image_layer_pitch(image, level) +
           z * vkmm_image_slice_pitch(image, level) + (y / bh) * vkmm_image_row_pitch(image, level) +
           (VkDeviceSize)(x / bw) * vkmm_image_element_size(image);
}

static uint32_t max_levels(VkExtent3D extent)
{
    uint32_t largest = extent.width > extent.height ? extent.width : extent.height;
    largest = largest > extent.depth ? largest : extent.depth;
    uint32_t levels = 1;
    while (largest >>= 1)
        levels++;
    return levels;
}

/* What is wrong with the create info for vkmm (the limits it reports, the
 * formats it knows), or NULL. */
static const char *check_create_info(const struct vkmm_physical_device *pd, const VkImageCreateInfo *info)
{
    const VkPhysicalDeviceLimits *limits = &pd->properties.v10.limits;
    const VkExtent3D e = info->extent;
    if (!vkmm_texel_format(info->format))
        return "the format is not one vkmm supports (vkGetPhysicalDeviceFormatProperties reports no features)";
    if (info->flags & ~(VkImageCreateFlags)VKMM_IMAGE_FLAGS)
        return "the flags need sparse, protected or other features vkmm does not advertise";
    if (info->samples != VK_SAMPLE_COUNT_1_BIT && info->samples != VK_SAMPLE_COUNT_4_BIT)
        return "vkmm supports VK_SAMPLE_COUNT_1_BIT and VK_SAMPLE_COUNT_4_BIT";
    if (info->samples != VK_SAMPLE_COUNT_1_BIT &&
        (info->imageType != VK_IMAGE_TYPE_2D || info->mipLevels != 1 || info->tiling != VK_IMAGE_TILING_OPTIMAL ||
         (info->flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) || (info->usage & VK_IMAGE_USAGE_STORAGE_BIT)))
        return "a multisampled image is 2D, optimal, one level, not cube-compatible and not a storage image "
               "(vkGetPhysicalDeviceImageFormatProperties)";
    if (!e.width || !e.height || !e.depth || !info->mipLevels || !info->arrayLayers)
        return "an extent, mipLevels or arrayLayers is 0";
    uint32_t max = info->imageType == VK_IMAGE_TYPE_1D   ? limits->maxImageDimension1D
                   : info->imageType == VK_IMAGE_TYPE_2D ? limits->maxImageDimension2D
                                                         : limits->maxImageDimension3D;
    if (info->imageType > VK_IMAGE_TYPE_3D || e.width > max || e.height > max || e.depth > max)
        return "the extent is above maxImageDimension of the image type";
    if ((info->imageType == VK_IMAGE_TYPE_1D && (e.height != 1 || e.depth != 1)) ||
        (info->imageType == VK_IMAGE_TYPE_2D && e.depth != 1))
        return "the extent has more dimensions than the image type";
    if (info->imageType == VK_IMAGE_TYPE_3D && info->arrayLayers != 1)
        return "3D images have one array layer";
    if (info->imageType == VK_IMAGE_TYPE_3D && vkmm_texel_format(info->format)->depth)
        return "depth formats make 1D and 2D images only (vkGetPhysicalDeviceImageFormatProperties)";
    if (vkmm_texel_format_is_compressed(vkmm_texel_format(info->format)) &&
        (info->imageType != VK_IMAGE_TYPE_2D || info->samples != VK_SAMPLE_COUNT_1_BIT))
        return "compressed formats make single-sampled 2D images only (vkGetPhysicalDeviceImageFormatProperties)";
    if ((info->flags & VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT) &&
        !vkmm_texel_format_is_compressed(vkmm_texel_format(info->format)))
        return "VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT is for compressed formats";
    if (info->arrayLayers > limits->maxImageArrayLayers)
        return "arrayLayers is above maxImageArrayLayers";
    if (info->mipLevels > max_levels(e) || info->mipLevels > VKMM_IMAGE_MAX_LEVELS)
        return "mipLevels is above what the extent allows";
    if ((info->flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) &&
        (info->imageType != VK_IMAGE_TYPE_2D || e.width != e.height || info->arrayLayers < 6))
        return "a cube-compatible image must be 2D, square, with at least 6 layers";
    return NULL;
}

/* The layout (level offsets, total size) of an image made from `info`. */
static void lay_out(struct vkmm_image *image, const VkImageCreateInfo *info)
{
    image->type = info->imageType;
    image->format = info->format;
    image->texel = vkmm_texel_format(info->format);
    image->extent = info->extent;
    image->levels = info->mipLevels;
    image->layers = info->arrayLayers;
    image->samples = (uint32_t)info->samples;
    image->usage = info->usage;
    image->flags = info->flags;
    image->tiling = info->tiling;
    VkDeviceSize offset = 0;
    for (uint32_t level = 0; level < image->levels; level++) {
        image->level_offset[level] = offset;
        offset += vkmm_image_layer_pitch(image, level) * image->layers;
    }
    image->size = offset;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateImage(VkDevice _device, const VkImageCreateInfo *pCreateInfo,
                                                 const VkAllocationCallbacks *pAllocator, VkImage *pImage)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    const char *problem = check_create_info(device->physical_device, pCreateInfo);
    if (problem)
        return vkmm_errorf(device, VK_ERROR_UNKNOWN, "vkCreateImage (format %d, type %d, %ux%ux%u, %u levels, %u "
                           "layers, flags 0x%x): %s", pCreateInfo->format, pCreateInfo->imageType,
                           pCreateInfo->extent.width, pCreateInfo->extent.height, pCreateInfo->extent.depth,
                           pCreateInfo->mipLevels, pCreateInfo->arrayLayers, pCreateInfo->flags, problem);
    struct vkmm_image *image =
        vkmm_zalloc(&device->allocator, pAllocator, sizeof(*image), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!image)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a VkImage");
    lay_out(image, pCreateInfo);
    if (image->size > device->physical_device->properties.v13.maxBufferSize) {
        vkmm_free(&device->allocator, pAllocator, image);
        return vkmm_errorf(device, VK_ERROR_OUT_OF_DEVICE_MEMORY, "an image of %llu bytes is larger than the heap",
                           (unsigned long long)image->size);
    }
    vkmm_object_init(&image->base, VK_OBJECT_TYPE_IMAGE, device->base.instance, device);
    vkmm_object_init(&image->bytes.base, VK_OBJECT_TYPE_BUFFER, device->base.instance, device);
    image->bytes.size = image->size;
    image->bytes.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    *pImage = vkmm_image_to_handle(image);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyImage(VkDevice _device, VkImage _image, const VkAllocationCallbacks *pAllocator)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_image, image, _image);
    if (!image)
        return;
    vkmm_buffer_strict_unbind(device, &image->bytes);
    vkmm_object_finish(&image->bytes.base);
    vkmm_object_finish(&image->base);
    vkmm_free(&device->allocator, pAllocator, image);
}

static void image_requirements(struct vkmm_device *device, VkDeviceSize size, VkMemoryRequirements *out)
{
    out->size = (size + VKMM_IMAGE_ALIGNMENT - 1) & ~(VkDeviceSize)(VKMM_IMAGE_ALIGNMENT - 1);
    out->alignment = VKMM_IMAGE_ALIGNMENT;
    out->memoryTypeBits = (1u << device->physical_device->memory.memoryTypeCount) - 1;
}

static void fill_requirements2(struct vkmm_device *device, VkDeviceSize size, VkMemoryRequirements2 *out)
{
    image_requirements(device, size, &out->memoryRequirements);
    for (VkBaseOutStructure *s = out->pNext; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS) {
            VkMemoryDedicatedRequirements *dedicated = (VkMemoryDedicatedRequirements *)s;
            dedicated->prefersDedicatedAllocation = VK_FALSE;
            dedicated->requiresDedicatedAllocation = VK_FALSE;
        }
    }
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetImageMemoryRequirements(VkDevice _device, VkImage _image,
                                                            VkMemoryRequirements *pMemoryRequirements)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_image, image, _image);
    image_requirements(device, image->size, pMemoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetImageMemoryRequirements2(VkDevice _device, const VkImageMemoryRequirementsInfo2 *pInfo,
                                                             VkMemoryRequirements2 *pMemoryRequirements)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_image, image, pInfo->image);
    fill_requirements2(device, image->size, pMemoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetDeviceImageMemoryRequirements(VkDevice _device,
                                                                  const VkDeviceImageMemoryRequirements *pInfo,
                                                                  VkMemoryRequirements2 *pMemoryRequirements)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    struct vkmm_image image = { 0 };
    if (check_create_info(device->physical_device, pInfo->pCreateInfo)) {
        /* Invalid usage: nothing could be bound, so nothing is required. */
        fill_requirements2(device, 0, pMemoryRequirements);
        return;
    }
    lay_out(&image, pInfo->pCreateInfo);
    fill_requirements2(device, image.size, pMemoryRequirements);
}

/* vkmm supports no sparse images: no sparse requirements. */
VKAPI_ATTR void VKAPI_CALL vkmm_GetImageSparseMemoryRequirements(VkDevice device, VkImage image,
                                                                  uint32_t *pSparseMemoryRequirementCount,
                                                                  VkSparseImageMemoryRequirements *pRequirements)
{
    (void)device, (void)image, (void)pRequirements;
    *pSparseMemoryRequirementCount = 0;
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetImageSparseMemoryRequirements2(VkDevice device,
                                                                   const VkImageSparseMemoryRequirementsInfo2 *pInfo,
                                                                   uint32_t *pSparseMemoryRequirementCount,
                                                                   VkSparseImageMemoryRequirements2 *pRequirements)
{
    (void)device, (void)pInfo, (void)pRequirements;
    *pSparseMemoryRequirementCount = 0;
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetDeviceImageSparseMemoryRequirements(
    VkDevice device, const VkDeviceImageMemoryRequirements *pInfo, uint32_t *pSparseMemoryRequirementCount,
    VkSparseImageMemoryRequirements2 *pSparseMemoryRequirements)
{
    (void)device, (void)pInfo, (void)pSparseMemoryRequirements;
    *pSparseMemoryRequirementCount = 0;
}

static VkResult bind_one(struct vkmm_device *device, const VkBindImageMemoryInfo *info)
{
    VKMM_FROM_HANDLE(vkmm_image, image, info->image);
    VKMM_FROM_HANDLE(vkmm_device_memory, memory, info->memory);
    if (image->bytes.memory)
        return vkmm_errorf(image, VK_ERROR_UNKNOWN, "image is already bound to memory");
    if (!memory)
        return vkmm_errorf(image, VK_ERROR_UNKNOWN, "vkBindImageMemory without memory (swapchain binding)");
    if (info->memoryOffset % VKMM_IMAGE_ALIGNMENT)
        return vkmm_errorf(image, VK_ERROR_UNKNOWN, "memoryOffset %llu is not a multiple of the alignment %d",
                           (unsigned long long)info->memoryOffset, VKMM_IMAGE_ALIGNMENT);
    VkMemoryRequirements req;
    image_requirements(device, image->size, &req);
    if (info->memoryOffset >= memory->size || req.size > memory->size - info->memoryOffset)
        return vkmm_errorf(image, VK_ERROR_UNKNOWN, "%llu bytes at offset %llu do not fit in memory of %llu bytes",
                           (unsigned long long)req.size, (unsigned long long)info->memoryOffset,
                           (unsigned long long)memory->size);
    image->bytes.memory = memory;
    image->bytes.memory_offset = info->memoryOffset;
    vkmm_buffer_strict_bind(device, &image->bytes);
    return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_BindImageMemory2(VkDevice _device, uint32_t bindInfoCount,
                                                      const VkBindImageMemoryInfo *pBindInfos)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VkResult first_error = VK_SUCCESS;
    for (uint32_t i = 0; i < bindInfoCount; i++) {
        VkResult result = bind_one(device, &pBindInfos[i]);
        if (result != VK_SUCCESS && first_error == VK_SUCCESS)
            first_error = result;
    }
    return first_error;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_BindImageMemory(VkDevice device, VkImage image, VkDeviceMemory memory,
                                                     VkDeviceSize memoryOffset)
{
    const VkBindImageMemoryInfo info = {
        .sType = VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO,
        .image = image,
        .memory = memory,
        .memoryOffset = memoryOffset,
    };
    return vkmm_BindImageMemory2(device, 1, &info);
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetImageSubresourceLayout(VkDevice device, VkImage _image,
                                                          const VkImageSubresource *pSubresource,
                                                          VkSubresourceLayout *pLayout)
{
    (void)device;
    VKMM_FROM_HANDLE(vkmm_image, image, _image);
    uint32_t level = pSubresource->mipLevel, layer = pSubresource->arrayLayer;
    memset(pLayout, 0, sizeof(*pLayout));
    if (level >= image->levels || layer >= image->layers) {
        vkmm_log(&image->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                 VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, "VKMM-INVALID-SUBRESOURCE",
                 "vkGetImageSubresourceLayout: level %u, layer %u is outside the image (%u levels, %u layers)", level,
                 layer, image->levels, image->layers);
        return;
    }
    /* Every tiling is this linear layout, so the answer holds for optimal
     * images too (where the spec leaves the query undefined). */
    pLayout->offset = vkmm_image_texel_offset(image, level, layer, 0, 0, 0);
    pLayout->size = vkmm_image_layer_pitch(image, level);
    pLayout->rowPitch = vkmm_image_row_pitch(image, level);
    pLayout->arrayPitch = vkmm_image_layer_pitch(image, level);
    pLayout->depthPitch = vkmm_image_slice_pitch(image, level);
}
