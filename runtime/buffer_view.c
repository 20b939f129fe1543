#include "buffer_view.h"

#include "alloc.h"
#include "buffer.h"
#include "device.h"
#include "log.h"
#include "physical_device.h"
#include "texel_format.h"

/* What is wrong with the create info, or NULL. */
static const char *check(const struct vkmm_device *device, const struct vkmm_buffer *buffer,
                         const VkBufferViewCreateInfo *info, VkDeviceSize range)
{
    const struct vkmm_texel_format *format = vkmm_texel_format(info->format);
    const VkPhysicalDeviceLimits *limits = &device->physical_device->properties.v10.limits;
    if (!buffer->memory)
        return "the buffer is not bound to memory";
    if (!(buffer->usage & (VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT)))
        return "the buffer has neither texel buffer usage";
    if (!format || format->depth)
        return "the format is not one vkmm supports for texel buffers (no texel buffer features)";
    if (info->offset >= buffer->size || range == 0 || range > buffer->size - info->offset)
        return "offset and range are not inside the buffer";
    if (info->offset % limits->minTexelBufferOffsetAlignment)
        return "offset is not a multiple of minTexelBufferOffsetAlignment";
    if (range % format->size)
        return "range is not a multiple of the texel size";
    if (range / format->size > limits->maxTexelBufferElements)
        return "the view has more than maxTexelBufferElements texels";
    return NULL;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateBufferView(VkDevice _device, const VkBufferViewCreateInfo *pCreateInfo,
                                                      const VkAllocationCallbacks *pAllocator, VkBufferView *pView)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_buffer, buffer, pCreateInfo->buffer);
    if (!buffer)
        return vkmm_errorf(device, VK_ERROR_UNKNOWN, "vkCreateBufferView: no buffer");
    VkDeviceSize range = pCreateInfo->range;
    if (range == VK_WHOLE_SIZE && pCreateInfo->offset < buffer->size) {
        /* The spec: "the range from offset to the end of the buffer is
         * used. If VK_WHOLE_SIZE is used and the remaining size of the
         * buffer is not a multiple of the texel block size, the nearest
         * smaller multiple is used." */
        const struct vkmm_texel_format *format = vkmm_texel_format(pCreateInfo->format);
        range = buffer->size - pCreateInfo->offset;
        range -= format ? range % format->size : 0;
    }
    const char *problem = check(device, buffer, pCreateInfo, range);
    if (problem)
        return vkmm_errorf(buffer, VK_ERROR_UNKNOWN, "vkCreateBufferView (format %d, offset %llu, range %llu): %s",
                           pCreateInfo->format, (unsigned long long)pCreateInfo->offset,
                           (unsigned long long)pCreateInfo->range, problem);
    struct vkmm_buffer_view *view =
        vkmm_zalloc(&device->allocator, pAllocator, sizeof(*view), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!view)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a VkBufferView");
    vkmm_object_init(&view->base, VK_OBJECT_TYPE_BUFFER_VIEW, device->base.instance, device);
    const struct vkmm_texel_format *format = vkmm_texel_format(pCreateInfo->format);
    view->buffer = buffer;
    view->format = pCreateInfo->format;
    view->offset = pCreateInfo->offset;
    view->range = range;
    /* One row of range / texel-size texels. */
    view->descriptor = (struct vkmm_descriptor){
        .base = vkmm_buffer_device_bytes(buffer, view->offset, range),
        .range = range,
        .memory = buffer->memory,
        .memory_offset = buffer->memory_offset + view->offset,
        .reach = range,
        .image = {
            .format = view->format,
            .texel_size = format->size,
            .extent = { (uint32_t)(range / format->size), 1, 1 },
            .layers = 1,
            .row_pitch = (uint32_t)range,
            .slice_pitch = (uint32_t)range,
            .layer_pitch = range,
            .swizzle = 0x6543, /* identity: R, G, B, A */
        },
    };
    *pView = vkmm_buffer_view_to_handle(view);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyBufferView(VkDevice _device, VkBufferView bufferView,
                                                  const VkAllocationCallbacks *pAllocator)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_buffer_view, view, bufferView);
    if (!view)
        return;
    vkmm_object_finish(&view->base);
    vkmm_free(&device->allocator, pAllocator, view);
}
