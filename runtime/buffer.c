#include "buffer.h"

#include "alloc.h"
#include "device.h"
#include "device_memory.h"
#include "log.h"
#include "strict/strict.h"

/* Above every descriptor offset alignment vkmm reports, and a whole cache
 * line, so buffers never share one. */
#define VKMM_BUFFER_ALIGNMENT 64

uint8_t *vkmm_buffer_device_bytes(struct vkmm_buffer *buffer, VkDeviceSize offset, VkDeviceSize size)
{
    assert(buffer->memory);
    return vkmm_device_memory_device_bytes(buffer->memory, buffer->memory_offset + offset, size);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateBuffer(VkDevice _device, const VkBufferCreateInfo *pCreateInfo,
                                                  const VkAllocationCallbacks *pAllocator, VkBuffer *pBuffer)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VkDeviceSize max_size = device->physical_device->properties.v13.maxBufferSize;
    if (pCreateInfo->size == 0 || pCreateInfo->size > max_size)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_DEVICE_MEMORY, "buffer size %llu is outside (0, maxBufferSize %llu]",
                           (unsigned long long)pCreateInfo->size, (unsigned long long)max_size);
    if (pCreateInfo->flags & (VK_BUFFER_CREATE_SPARSE_BINDING_BIT | VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT |
                              VK_BUFFER_CREATE_SPARSE_ALIASED_BIT | VK_BUFFER_CREATE_PROTECTED_BIT))
        return vkmm_errorf(device, VK_ERROR_FEATURE_NOT_PRESENT,
                           "buffer flags 0x%x need sparse or protected memory, which vkmm does not support",
                           pCreateInfo->flags);
    struct vkmm_buffer *buffer =
        vkmm_zalloc(&device->allocator, pAllocator, sizeof(*buffer), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!buffer)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a VkBuffer");
    vkmm_object_init(&buffer->base, VK_OBJECT_TYPE_BUFFER, device->base.instance, device);
    buffer->size = pCreateInfo->size;
    buffer->usage = pCreateInfo->usage;
    buffer->flags = pCreateInfo->flags;
    *pBuffer = vkmm_buffer_to_handle(buffer);
    return VK_SUCCESS;
}

void vkmm_buffer_strict_bind(struct vkmm_device *device, struct vkmm_buffer *buffer)
{
    struct vkmm_device_memory *memory = buffer->memory;
    if (!device->strict || !memory || !memory->strict)
        return;
    buffer->strict = vkmm_strict_buffer_bind(device->strict, memory->strict, buffer->memory_offset, buffer->size,
                                             buffer->base.debug_name);
}

void vkmm_buffer_strict_unbind(struct vkmm_device *device, struct vkmm_buffer *buffer)
{
    if (!buffer->strict)
        return;
    vkmm_strict_buffer_unbind(device->strict, buffer->strict);
    buffer->strict = NULL;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyBuffer(VkDevice _device, VkBuffer _buffer,
                                              const VkAllocationCallbacks *pAllocator)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_buffer, buffer, _buffer);
    if (!buffer)
        return;
    vkmm_buffer_strict_unbind(device, buffer);
    vkmm_object_finish(&buffer->base);
    vkmm_free(&device->allocator, pAllocator, buffer);
}

static void buffer_requirements(struct vkmm_device *device, VkDeviceSize size, VkMemoryRequirements *out)
{
    out->size = (size + 3) & ~(VkDeviceSize)3;
    out->alignment = VKMM_BUFFER_ALIGNMENT;
    out->memoryTypeBits = (1u << device->physical_device->memory.memoryTypeCount) - 1;
}

static void fill_requirements2(struct vkmm_device *device, VkDeviceSize size, VkMemoryRequirements2 *out)
{
    buffer_requirements(device, size, &out->memoryRequirements);
    for (VkBaseOutStructure *s = out->pNext; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS) {
            VkMemoryDedicatedRequirements *dedicated = (VkMemoryDedicatedRequirements *)s;
            dedicated->prefersDedicatedAllocation = VK_FALSE;
            dedicated->requiresDedicatedAllocation = VK_FALSE;
        }
    }
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetBufferMemoryRequirements(VkDevice _device, VkBuffer _buffer,
                                                             VkMemoryRequirements *pMemoryRequirements)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_buffer, buffer, _buffer);
    buffer_requirements(device, buffer->size, pMemoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetBufferMemoryRequirements2(VkDevice _device,
                                                              const VkBufferMemoryRequirementsInfo2 *pInfo,
                                                              VkMemoryRequirements2 *pMemoryRequirements)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_buffer, buffer, pInfo->buffer);
    fill_requirements2(device, buffer->size, pMemoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetDeviceBufferMemoryRequirements(VkDevice _device,
                                                                   const VkDeviceBufferMemoryRequirements *pInfo,
                                                                   VkMemoryRequirements2 *pMemoryRequirements)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    fill_requirements2(device, pInfo->pCreateInfo->size, pMemoryRequirements);
}

static VkResult bind_one(struct vkmm_device *device, const VkBindBufferMemoryInfo *info)
{
    VKMM_FROM_HANDLE(vkmm_buffer, buffer, info->buffer);
    VKMM_FROM_HANDLE(vkmm_device_memory, memory, info->memory);
    if (buffer->memory)
        return vkmm_errorf(buffer, VK_ERROR_UNKNOWN, "buffer is already bound to memory");
    if (info->memoryOffset % VKMM_BUFFER_ALIGNMENT)
        return vkmm_errorf(buffer, VK_ERROR_UNKNOWN, "memoryOffset %llu is not a multiple of the alignment %d",
                           (unsigned long long)info->memoryOffset, VKMM_BUFFER_ALIGNMENT);
    VkMemoryRequirements req;
    buffer_requirements(device, buffer->size, &req);
    if (info->memoryOffset >= memory->size || req.size > memory->size - info->memoryOffset)
        return vkmm_errorf(buffer, VK_ERROR_UNKNOWN, "%llu bytes at offset %llu do not fit in memory of %llu bytes",
                           (unsigned long long)req.size, (unsigned long long)info->memoryOffset,
                           (unsigned long long)memory->size);
    buffer->memory = memory;
    buffer->memory_offset = info->memoryOffset;
    vkmm_buffer_strict_bind(device, buffer);
    return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_BindBufferMemory2(VkDevice _device, uint32_t bindInfoCount,
                                                       const VkBindBufferMemoryInfo *pBindInfos)
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

VKAPI_ATTR VkResult VKAPI_CALL vkmm_BindBufferMemory(VkDevice device, VkBuffer buffer, VkDeviceMemory memory,
                                                      VkDeviceSize memoryOffset)
{
    const VkBindBufferMemoryInfo info = {
        .sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO,
        .buffer = buffer,
        .memory = memory,
        .memoryOffset = memoryOffset,
    };
    return vkmm_BindBufferMemory2(device, 1, &info);
}

VKAPI_ATTR VkDeviceAddress VKAPI_CALL vkmm_GetBufferDeviceAddress(VkDevice _device,
                                                                   const VkBufferDeviceAddressInfo *pInfo)
{
    (void)_device;
    VKMM_FROM_HANDLE(vkmm_buffer, buffer, pInfo->buffer);
    return buffer->memory ? buffer->memory->device_address + buffer->memory_offset : 0;
}

VKAPI_ATTR uint64_t VKAPI_CALL vkmm_GetBufferOpaqueCaptureAddress(VkDevice _device,
                                                                   const VkBufferDeviceAddressInfo *pInfo)
{
    (void)_device, (void)pInfo;
    /* bufferDeviceAddressCaptureReplay is not supported: the spec's value
     * for "no capture address" is 0. */
    return 0;
}
