#include "device.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "device_memory.h"
#include "dispatch.h"
#include "instance.h"
#include "log.h"
#include "queue.h"
#include "scheduler.h"
#include "strict/strict.h"
#include "thread_pool.h"
#include "vkmm/vkmm.h"
#include "vkmm_entrypoints.h"
#include "vkmm_extensions.h"

static const char *find_unsupported_extension(const VkDeviceCreateInfo *info)
{
    for (uint32_t i = 0; i < info->enabledExtensionCount; i++) {
        const char *name = info->ppEnabledExtensionNames[i];
        if (vkmm_extension_index(vkmm_device_extensions, vkmm_device_extension_count, name) < 0)
            return name;
    }
    return NULL;
}

/* Whether extension `name` was enabled at vkCreateDevice (a device
 * extension) or at vkCreateInstance (an instance one). */
static bool extension_enabled(const struct vkmm_device *device, const char *name)
{
    int e = vkmm_extension_index(vkmm_device_extensions, vkmm_device_extension_count, name);
    if (e >= 0)
        return e < 64 && (device->enabled_extensions >> e & 1) != 0;
    /* A device command of an instance extension (VK_EXT_debug_utils'
     * object names): enabled with the instance. */
    e = vkmm_extension_index(vkmm_instance_extensions, vkmm_instance_extension_count, name);
    return e >= 0 && e < 64 && (device->base.instance->enabled_extensions >> e & 1) != 0;
}

/* The spec (vkGetDeviceProcAddr): NULL for a command of a device extension
 * the device was not created with, even when vkmm has it as an alias of a
 * core command. */
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkmm_GetDeviceProcAddr(VkDevice device, const char *pName)
{
    if (!pName)
        return NULL;
    if (strcmp(pName, "vkGetDeviceProcAddr") == 0)
        return (PFN_vkVoidFunction)vkmm_GetDeviceProcAddr;
    const struct vkmm_entrypoint *entry = vkmm_entrypoint_find(pName);
    if (!entry || entry->level < VKMM_LEVEL_DEVICE)
        return NULL;
    if (entry->extension && device && !extension_enabled(vkmm_device_from_handle(device), entry->extension))
        return NULL;
    return entry->function;
}

static VkResult check_queue_requests(struct vkmm_physical_device *pd, const VkDeviceCreateInfo *info)
{
    for (uint32_t i = 0; i < info->queueCreateInfoCount; i++) {
        const VkDeviceQueueCreateInfo *q = &info->pQueueCreateInfos[i];
        if (q->queueFamilyIndex >= VKMM_QUEUE_FAMILY_COUNT)
            return vkmm_errorf(pd, VK_ERROR_INITIALIZATION_FAILED, "queue family %u does not exist",
                               q->queueFamilyIndex);
        if (q->queueCount == 0 || q->queueCount > pd->queue_families[q->queueFamilyIndex].queueCount)
            return vkmm_errorf(pd, VK_ERROR_INITIALIZATION_FAILED, "queue family %u has %u queues, %u requested",
                               q->queueFamilyIndex, pd->queue_families[q->queueFamilyIndex].queueCount,
                               q->queueCount);
        if (q->flags & VK_DEVICE_QUEUE_CREATE_PROTECTED_BIT)
            return vkmm_errorf(pd, VK_ERROR_FEATURE_NOT_PRESENT, "protected queues are not supported");
    }
    return VK_SUCCESS;
}

static VkResult create_queues(struct vkmm_device *device, const VkDeviceCreateInfo *info)
{
    for (uint32_t i = 0; i < info->queueCreateInfoCount; i++) {
        const VkDeviceQueueCreateInfo *q = &info->pQueueCreateInfos[i];
        for (uint32_t n = 0; n < q->queueCount; n++) {
            struct vkmm_queue *queue =
                vkmm_zalloc(&device->allocator, NULL, sizeof(*queue), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
            if (!queue)
                return VK_ERROR_OUT_OF_HOST_MEMORY;
            vkmm_object_init(&queue->base, VK_OBJECT_TYPE_QUEUE, device->base.instance, device);
            queue->family = q->queueFamilyIndex;
            queue->index = n;
            queue->flags = q->flags;
            device->queues[q->queueFamilyIndex][n] = queue;
            if (device->queue_counts[q->queueFamilyIndex] < n + 1)
                device->queue_counts[q->queueFamilyIndex] = n + 1;
        }
    }
    return VK_SUCCESS;
}

/* Releases everything a device may own; safe on a partly created one. */
struct vkmm_thread_pool *vkmm_device_thread_pool(struct vkmm_device *device)
{
    pthread_mutex_lock(&device->thread_pool_lock);
    if (!device->thread_pool)
        vkmm_thread_pool_create(&device->allocator, vkmm_thread_pool_default_size(), &device->thread_pool);
    struct vkmm_thread_pool *pool = device->thread_pool;
    pthread_mutex_unlock(&device->thread_pool_lock);
    return pool;
}

static void device_finish(struct vkmm_device *device)
{
    vkmm_scheduler_destroy(device->scheduler);
    vkmm_thread_pool_destroy(device->thread_pool);
    pthread_mutex_destroy(&device->thread_pool_lock);
    for (uint32_t f = 0; f < VKMM_QUEUE_FAMILY_COUNT; f++) {
        for (uint32_t q = 0; q < VKMM_MAX_QUEUES_PER_FAMILY; q++) {
            struct vkmm_queue *queue = device->queues[f][q];
            if (!queue)
                continue;
            while (queue->labels) {
                struct vkmm_queue_label *outer = queue->labels->outer;
                vkmm_free(&device->allocator, NULL, queue->labels);
                queue->labels = outer;
            }
            vkmm_object_finish(&queue->base);
            vkmm_free(&device->allocator, NULL, queue);
        }
    }
    vkmm_strict_destroy(device->strict);
    device->strict = NULL;
    vkmm_private_data_store_finish(&device->private_data, &device->allocator);
    vkmm_address_space_finish(&device->address_space);
    pthread_mutex_destroy(&device->memory_lock);
    vkmm_object_finish(&device->base);
    VkAllocationCallbacks allocator = device->allocator;
    vkmm_free(&allocator, NULL, device);
}

/* The strict bridge speaks to the application through the device. */
static void strict_log(void *user, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                       VkDebugUtilsMessageTypeFlagsEXT type, const char *id, const char *text)
{
    struct vkmm_device *device = user;
    vkmm_log(&device->base, severity, type, id, "%s", text);
}

static void strict_lose(void *user, const char *text)
{
    struct vkmm_device *device = user;
    if (!atomic_load(&device->lost))
        vkmm_device_lose(device, "%s", text);
}

struct strict_pieces {
    void (*fn)(void *context, uint64_t index);
    void *context;
};

static void run_strict_piece(void *context, unsigned thread, uint64_t index)
{
    (void)thread;
    const struct strict_pieces *pieces = context;
    pieces->fn(pieces->context, index);
}

/* The strict engine's full-size copies and comparisons on the device's
 * workers: strict mode runs dispatches on one thread and leaves them idle. */
static void strict_parallel(void *user, uint64_t count, void (*fn)(void *context, uint64_t index), void *context)
{
    struct vkmm_thread_pool *pool = vkmm_device_thread_pool(user);
    if (!pool) {
        for (uint64_t i = 0; i < count; i++)
            fn(context, i);
        return;
    }
    struct strict_pieces pieces = { fn, context };
    vkmm_thread_pool_run(pool, count, run_strict_piece, &pieces);
}

static VkResult create_strict_bridge(struct vkmm_device *device)
{
    if (vkmm_mode() != VKMM_MODE_STRICT)
        return VK_SUCCESS;
    const struct vkmm_strict_hooks hooks = { device, strict_log, strict_lose, strict_parallel };
    bool own_callbacks = device->allocator.pfnAllocation != vkmm_default_allocator.pfnAllocation;
    return vkmm_strict_create(&device->allocator, own_callbacks, &device->address_space, &hooks, &device->strict);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_CreateDevice(VkPhysicalDevice physicalDevice,
                                                  const VkDeviceCreateInfo *pCreateInfo,
                                                  const VkAllocationCallbacks *pAllocator, VkDevice *pDevice)
{
    VKMM_FROM_HANDLE(vkmm_physical_device, pd, physicalDevice);
    struct vkmm_instance *instance = pd->base.instance;
    const char *missing = find_unsupported_extension(pCreateInfo);
    if (missing)
        return vkmm_errorf(pd, VK_ERROR_EXTENSION_NOT_PRESENT, "device extension %s is not supported", missing);
    const char *feature = vkmm_features_find_unsupported(pCreateInfo->pEnabledFeatures, pCreateInfo->pNext,
                                                         &pd->features);
    if (feature)
        return vkmm_errorf(pd, VK_ERROR_FEATURE_NOT_PRESENT, "feature %s is not supported", feature);
    VkResult result = check_queue_requests(pd, pCreateInfo);
    if (result != VK_SUCCESS)
        return result;

    const VkAllocationCallbacks *allocator = vkmm_choose_allocator(&instance->allocator, pAllocator);
    struct vkmm_device *device = vkmm_zalloc(allocator, NULL, sizeof(*device), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
    if (!device)
        return vkmm_errorf(pd, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for the device");
    device->allocator = *allocator;
    vkmm_object_init(&device->base, VK_OBJECT_TYPE_DEVICE, instance, device);
    device->physical_device = pd;
    device->enabled_extensions = vkmm_extension_bits(vkmm_device_extensions, vkmm_device_extension_count,
                                                     pCreateInfo->ppEnabledExtensionNames,
                                                     pCreateInfo->enabledExtensionCount);
    device->dispatch_timeout_ns = vkmm_dispatch_timeout_ns();
    device->strict_parts = vkmm_dispatch_parts_allowed();
    pthread_mutex_init(&device->memory_lock, NULL);
    pthread_mutex_init(&device->thread_pool_lock, NULL);
    vkmm_private_data_store_init(&device->private_data);
    result = vkmm_device_memory_init_address_space(device);
    if (result == VK_SUCCESS)
        result = create_strict_bridge(device);
    if (result == VK_SUCCESS)
        result = create_queues(device, pCreateInfo);
    if (result == VK_SUCCESS)
        result = vkmm_scheduler_create(device, &device->scheduler);
    if (result != VK_SUCCESS) {
        device_finish(device);
        return vkmm_errorf(pd, result, "device creation failed");
    }
    *pDevice = vkmm_device_to_handle(device);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL vkmm_DestroyDevice(VkDevice _device, const VkAllocationCallbacks *pAllocator)
{
    (void)pAllocator;
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    if (!device)
        return;
    device_finish(device);
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetDeviceQueue2(VkDevice _device, const VkDeviceQueueInfo2 *pQueueInfo,
                                                 VkQueue *pQueue)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    struct vkmm_queue *queue = NULL;
    if (pQueueInfo->queueFamilyIndex < VKMM_QUEUE_FAMILY_COUNT &&
        pQueueInfo->queueIndex < VKMM_MAX_QUEUES_PER_FAMILY)
        queue = device->queues[pQueueInfo->queueFamilyIndex][pQueueInfo->queueIndex];
    /* The spec: queues are matched on flags too; a mismatch returns NULL. */
    if (queue && queue->flags != pQueueInfo->flags)
        queue = NULL;
    *pQueue = vkmm_queue_to_handle(queue);
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetDeviceQueue(VkDevice device, uint32_t queueFamilyIndex, uint32_t queueIndex,
                                                VkQueue *pQueue)
{
    const VkDeviceQueueInfo2 info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2,
        .queueFamilyIndex = queueFamilyIndex,
        .queueIndex = queueIndex,
    };
    vkmm_GetDeviceQueue2(device, &info, pQueue);
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_DeviceWaitIdle(VkDevice _device)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    vkmm_scheduler_lock(device->scheduler);
    VkResult result = vkmm_scheduler_wait_idle_locked(device->scheduler, NULL);
    vkmm_scheduler_unlock(device->scheduler);
    if (result == VK_SUCCESS)
        if (device->strict)
            vkmm_strict_wait_idle(device->strict, VKMM_STRICT_ANY_QUEUE);
    return vkmm_device_check_lost(device, result);
}

VkResult vkmm_device_check_lost(struct vkmm_device *device, VkResult result)
{
    return atomic_load(&device->lost) ? VK_ERROR_DEVICE_LOST : result;
}

void vkmm_device_lose(struct vkmm_device *device, const char *format, ...)
{
    char text[1024];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof(text), format, args);
    va_end(args);
    vkmm_log(&device->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
             "VKMM-DEVICE-LOST", "%s", text);
    atomic_store(&device->lost, true);
}

/* The device group has one device, and the spec asks for two different
 * device indices (VUID-vkGetDeviceGroupPeerMemoryFeatures-localDeviceIndex-00691):
 * there is no peer memory, so no feature. */
VKAPI_ATTR void VKAPI_CALL vkmm_GetDeviceGroupPeerMemoryFeatures(VkDevice _device, uint32_t heapIndex,
                                                                 uint32_t localDeviceIndex, uint32_t remoteDeviceIndex,
                                                                 VkPeerMemoryFeatureFlags *pPeerMemoryFeatures)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    *pPeerMemoryFeatures = 0;
    vkmm_log(&device->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
             "VKMM-INVALID-PEER-MEMORY",
             "vkGetDeviceGroupPeerMemoryFeatures(heap %u, devices %u and %u): the device group has one device", heapIndex,
             localDeviceIndex, remoteDeviceIndex);
}
