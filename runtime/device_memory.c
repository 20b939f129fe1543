#include "device_memory.h"

#include <string.h>

#include "alloc.h"
#include "device.h"
#include "log.h"
#include "strict_memory.h"

uint8_t *vkmm_device_memory_device_bytes(struct vkmm_device_memory *memory, VkDeviceSize offset,
                                         VkDeviceSize size)
{
    assert(offset <= memory->size && size <= memory->size - offset);
    (void)size;
    return memory->bytes + offset;
}

static VkResult reserve_budget(struct vkmm_device *device, VkDeviceSize size)
{
    const VkPhysicalDeviceLimits *limits = &device->physical_device->properties.v10.limits;
    /* Every heap is the same system memory, reported at the same size: one
     * budget, whichever heap the type belongs to. */
    const VkMemoryHeap *heap = &device->physical_device->memory.memoryHeaps[0];
    VkResult result = VK_SUCCESS;
    pthread_mutex_lock(&device->memory_lock);
    if (device->memory_allocation_count >= limits->maxMemoryAllocationCount) {
        result = VK_ERROR_TOO_MANY_OBJECTS;
    } else if (size > heap->size - device->heap_used) {
        result = VK_ERROR_OUT_OF_DEVICE_MEMORY;
    } else {
        device->memory_allocation_count++;
        device->heap_used += size;
    }
    pthread_mutex_unlock(&device->memory_lock);
    return result;
}

static void release_budget(struct vkmm_device *device, VkDeviceSize size)
{
    pthread_mutex_lock(&device->memory_lock);
    device->memory_allocation_count--;
    device->heap_used -= size;
    pthread_mutex_unlock(&device->memory_lock);
}

VkResult vkmm_device_memory_init_address_space(struct vkmm_device *device)
{
    /* Twice the heap, so fragmentation does not run out of addresses before
     * the heap budget runs out of bytes; only touched pages cost memory. */
    uint64_t heap = device->physical_device->memory.memoryHeaps[0].size;
    return vkmm_address_space_init(&device->address_space, heap * 2, &device->allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_AllocateMemory(VkDevice _device, const VkMemoryAllocateInfo *pAllocateInfo,
                                                    const VkAllocationCallbacks *pAllocator,
                                                    VkDeviceMemory *pMemory)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    const VkPhysicalDeviceMemoryProperties *props = &device->physical_device->memory;
    VkDeviceSize size = pAllocateInfo->allocationSize;
    if (pAllocateInfo->memoryTypeIndex >= props->memoryTypeCount)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_DEVICE_MEMORY, "memoryTypeIndex %u does not exist (%u types)",
                           pAllocateInfo->memoryTypeIndex, props->memoryTypeCount);
    if (size == 0)
        return vkmm_errorf(device, VK_ERROR_OUT_OF_DEVICE_MEMORY, "allocationSize is 0");

    VkResult result = reserve_budget(device, size);
    if (result == VK_ERROR_TOO_MANY_OBJECTS)
        return vkmm_errorf(device, result, "maxMemoryAllocationCount (%u) allocations already exist",
                           device->physical_device->properties.v10.limits.maxMemoryAllocationCount);
    if (result != VK_SUCCESS)
        return vkmm_errorf(device, result, "%llu bytes exceed what is left of the heap",
                           (unsigned long long)size);

    struct vkmm_device_memory *memory =
        vkmm_zalloc(&device->allocator, pAllocator, sizeof(*memory), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!memory) {
        release_budget(device, size);
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for a VkDeviceMemory");
    }
    vkmm_object_init(&memory->base, VK_OBJECT_TYPE_DEVICE_MEMORY, device->base.instance, device);
    memory->size = size;
    memory->type_index = pAllocateInfo->memoryTypeIndex;
    memory->properties = props->memoryTypes[memory->type_index].propertyFlags;
    for (const VkBaseInStructure *s = pAllocateInfo->pNext; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO &&
            (((const VkMemoryAllocateFlagsInfo *)s)->flags & VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT))
            memory->device_addressable = true;
    }
    memory->mapping_size = size;
    /* Pages of the device's address space: committed when touched,
     * zero-filled, returned whole on free.  The device address is the host
     * address (address_space.h). */
    uint8_t *bytes = vkmm_address_space_alloc(&device->address_space, size);
    if (!bytes) {
        vkmm_object_finish(&memory->base);
        vkmm_free(&device->allocator, pAllocator, memory);
        release_budget(device, size);
        return vkmm_errorf(device, VK_ERROR_OUT_OF_DEVICE_MEMORY, "no address range of %llu bytes is free",
                           (unsigned long long)size);
    }
    memory->bytes = bytes;
    memory->device_address = (uint64_t)(uintptr_t)bytes;
    if (vkmm_strict_memory_init(device, memory) != VK_SUCCESS) {
        vkmm_address_space_free(&device->address_space, memory->bytes, memory->mapping_size);
        vkmm_object_finish(&memory->base);
        vkmm_free(&device->allocator, pAllocator, memory);
        release_budget(device, size);
        return vkmm_errorf(device, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for the strict-mode levels of %llu bytes",
                           (unsigned long long)size);
    }
    *pMemory = vkmm_device_memory_to_handle(memory);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_FreeMemory(VkDevice _device, VkDeviceMemory _memory,
                                           const VkAllocationCallbacks *pAllocator)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_device_memory, memory, _memory);
    if (!memory)
        return;
    /* The spec: "If a memory object is mapped at the time it is freed, it
     * is implicitly unmapped." */
    vkmm_strict_memory_finish(device, memory);
    vkmm_address_space_free(&device->address_space, memory->bytes, memory->mapping_size);
    release_budget(device, memory->size);
    vkmm_object_finish(&memory->base);
    vkmm_free(&device->allocator, pAllocator, memory);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_MapMemory(VkDevice _device, VkDeviceMemory _memory, VkDeviceSize offset,
                                               VkDeviceSize size, VkMemoryMapFlags flags, void **ppData)
{
    (void)flags;
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_device_memory, memory, _memory);
    *ppData = NULL;
    if (!(memory->properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
        return vkmm_errorf(memory, VK_ERROR_MEMORY_MAP_FAILED, "memory type %u is not HOST_VISIBLE",
                           memory->type_index);
    if (memory->map_pointer)
        return vkmm_errorf(memory, VK_ERROR_MEMORY_MAP_FAILED, "memory is already mapped");
    if (offset >= memory->size)
        return vkmm_errorf(memory, VK_ERROR_MEMORY_MAP_FAILED, "offset %llu is not below the size %llu",
                           (unsigned long long)offset, (unsigned long long)memory->size);
    if (size == VK_WHOLE_SIZE)
        size = memory->size - offset;
    if (size == 0 || size > memory->size - offset)
        return vkmm_errorf(memory, VK_ERROR_MEMORY_MAP_FAILED, "range [%llu, +%llu) exceeds the size %llu",
                           (unsigned long long)offset, (unsigned long long)size,
                           (unsigned long long)memory->size);
    /* Strict mode gives the host its own view of the bytes (DESIGN §3.1). */
    void *pointer = memory->mm ? vkmm_strict_map(memory, offset) : memory->bytes + offset;
    vkmm_strict_set_mapping(device, memory, pointer, offset, size);
    *ppData = pointer;
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_UnmapMemory(VkDevice _device, VkDeviceMemory _memory)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_device_memory, memory, _memory);
    vkmm_strict_check_host_view(device, memory);
    vkmm_strict_set_mapping(device, memory, NULL, 0, 0);
}

/* Checks one range against VkMappedMemoryRange's valid usage: mapped,
 * inside the mapping, and aligned to nonCoherentAtomSize. */
static bool mapped_range_valid(struct vkmm_device *device, const VkMappedMemoryRange *range, const char *what)
{
    VKMM_FROM_HANDLE(vkmm_device_memory, memory, range->memory);
    VkDeviceSize atom = device->physical_device->properties.v10.limits.nonCoherentAtomSize;
    VkDeviceSize map_end = memory->map_offset + memory->map_size;
    bool whole = range->size == VK_WHOLE_SIZE;
    /* The spec: with VK_WHOLE_SIZE "offset must be within the currently
     * mapped range"; otherwise offset and size must specify a range inside
     * it (compared without computing offset + size, which may wrap). */
    bool inside = range->offset >= memory->map_offset && range->offset <= map_end &&
                  (whole ? range->offset < map_end : range->size <= map_end - range->offset);
    VkDeviceSize end = whole ? map_end : range->offset + range->size;
    const char *problem = NULL;
    if (!memory->map_pointer)
        problem = "the memory is not mapped";
    else if (!inside)
        problem = "the range is not inside the mapped range";
    else if (range->offset % atom)
        problem = "offset is not a multiple of nonCoherentAtomSize";
    else if (range->size != VK_WHOLE_SIZE && range->size % atom && end != memory->size)
        problem = "size is neither VK_WHOLE_SIZE, a multiple of nonCoherentAtomSize, nor reaches the end";
    if (!problem)
        return true;
    vkmm_log(&memory->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
             VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, "VKMM-INVALID-MAPPED-RANGE",
             "%s: offset %llu size %llu: %s (nonCoherentAtomSize is %llu)", what,
             (unsigned long long)range->offset, (unsigned long long)range->size, problem,
             (unsigned long long)atom);
    return false;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_FlushMappedMemoryRanges(VkDevice _device, uint32_t memoryRangeCount,
                                                             const VkMappedMemoryRange *pMemoryRanges)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    /* In fast mode the host view and the device domain are one copy, so a
     * valid flush has nothing to move. */
    for (uint32_t i = 0; i < memoryRangeCount; i++) {
        const VkMappedMemoryRange *range = &pMemoryRanges[i];
        if (mapped_range_valid(device, range, "vkFlushMappedMemoryRanges"))
            vkmm_strict_flush(device, vkmm_device_memory_from_handle(range->memory), range->offset, range->size);
    }
    return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_InvalidateMappedMemoryRanges(VkDevice _device, uint32_t memoryRangeCount,
                                                                  const VkMappedMemoryRange *pMemoryRanges)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    for (uint32_t i = 0; i < memoryRangeCount; i++) {
        const VkMappedMemoryRange *range = &pMemoryRanges[i];
        if (mapped_range_valid(device, range, "vkInvalidateMappedMemoryRanges"))
            vkmm_strict_invalidate(device, vkmm_device_memory_from_handle(range->memory), range->offset, range->size);
    }
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetDeviceMemoryCommitment(VkDevice _device, VkDeviceMemory _memory,
                                                           VkDeviceSize *pCommittedMemoryInBytes)
{
    (void)_device;
    VKMM_FROM_HANDLE(vkmm_device_memory, memory, _memory);
    /* No type is lazily allocated: all of it counts as committed. */
    *pCommittedMemoryInBytes = memory->size;
}

VKAPI_ATTR uint64_t VKAPI_CALL vkmm_GetDeviceMemoryOpaqueCaptureAddress(
    VkDevice _device, const VkDeviceMemoryOpaqueCaptureAddressInfo *pInfo)
{
    (void)_device;
    VKMM_FROM_HANDLE(vkmm_device_memory, memory, pInfo->memory);
    return memory->device_address;
}
