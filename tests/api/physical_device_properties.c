/* What the physical device reports: properties (core and chained, the
 * aggregate Vulkan 1.x structures agreeing with the individual ones),
 * features, memory properties, queue families, and the "nothing supported"
 * answers for formats, images, external handles and tools. */
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

#define GARBAGE 0xA5

/* Fills a chained output structure with garbage but a valid header, so that
 * fields the driver forgets to write show. */
#define PREPARE(s, type, next)           \
    do {                                 \
        memset(&(s), GARBAGE, sizeof(s)); \
        (s).sType = (type);              \
        (s).pNext = (next);              \
    } while (0)

/* Every VkBool32 of a structure, from `first` to the end, is 0 or 1. */
static void assert_bools(const void *base, size_t first, size_t size, const char *what)
{
    for (size_t offset = first; offset + sizeof(VkBool32) <= size; offset += sizeof(VkBool32)) {
        VkBool32 value;
        memcpy(&value, (const uint8_t *)base + offset, sizeof(value));
        if (value != VK_FALSE && value != VK_TRUE)
            fail_msg("%s: VkBool32 at offset %zu is 0x%x", what, offset, value);
    }
}

static bool is_power_of_two(uint64_t v)
{
    return v && !(v & (v - 1));
}

static void test_properties_core(void **state)
{
    struct vkmm_test *t = *state;
    VkPhysicalDeviceProperties p;
    memset(&p, GARBAGE, sizeof(p));
    vkGetPhysicalDeviceProperties(t->physical_device, &p);
    assert_int_equal(p.deviceType, VK_PHYSICAL_DEVICE_TYPE_CPU);
    assert_int_equal(VK_API_VERSION_MAJOR(p.apiVersion), 1);
    assert_int_equal(VK_API_VERSION_MINOR(p.apiVersion), 3);
    assert_true(strlen(p.deviceName) > 0 && strlen(p.deviceName) < VK_MAX_PHYSICAL_DEVICE_NAME_SIZE);
    assert_non_null(strstr(p.deviceName, "vkmm"));

    const VkPhysicalDeviceLimits *l = &p.limits;
    assert_int_equal(l->maxMemoryAllocationCount, 4096);
    assert_int_equal(l->nonCoherentAtomSize, 256);
    /* Required limits (the spec's "Required Limits" table). */
    assert_true(l->minMemoryMapAlignment >= 64 && is_power_of_two(l->minMemoryMapAlignment));
    assert_true(is_power_of_two(l->minStorageBufferOffsetAlignment) && l->minStorageBufferOffsetAlignment <= 256);
    assert_true(is_power_of_two(l->minUniformBufferOffsetAlignment) && l->minUniformBufferOffsetAlignment <= 256);
    assert_true(l->maxStorageBufferRange >= (1u << 27));
    assert_true(l->maxUniformBufferRange >= 16384);
    assert_true(l->maxPushConstantsSize >= 128);
    assert_true(l->maxBoundDescriptorSets >= 4);
    assert_true(l->maxComputeSharedMemorySize >= 16384);
    assert_true(l->maxComputeWorkGroupInvocations >= 128);
    for (int i = 0; i < 3; i++)
        assert_true(l->maxComputeWorkGroupCount[i] >= 65535);
    assert_true(l->maxComputeWorkGroupSize[0] >= 128 && l->maxComputeWorkGroupSize[1] >= 128 &&
                l->maxComputeWorkGroupSize[2] >= 64);
    assert_true(l->timestampPeriod > 0.0f);
    assert_true(l->bufferImageGranularity >= 1);
    assert_true(l->maxSamplerAllocationCount >= 4000);

    VkPhysicalDeviceProperties again;
    vkGetPhysicalDeviceProperties(t->physical_device, &again);
    assert_memory_equal(&p, &again, sizeof(p));
}

static void test_properties2_aggregates_match_core(void **state)
{
    struct vkmm_test *t = *state;
    VkPhysicalDeviceVulkan13Properties v13;
    VkPhysicalDeviceVulkan12Properties v12;
    VkPhysicalDeviceVulkan11Properties v11;
    PREPARE(v13, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES, NULL);
    PREPARE(v12, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES, &v13);
    PREPARE(v11, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES, &v12);
    VkPhysicalDeviceProperties2 p2;
    PREPARE(p2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v11);
    vkGetPhysicalDeviceProperties2(t->physical_device, &p2);

    /* The chain is kept intact. */
    assert_ptr_equal(p2.pNext, &v11);
    assert_ptr_equal(v11.pNext, &v12);
    assert_ptr_equal(v12.pNext, &v13);
    assert_null(v13.pNext);
    assert_int_equal(v12.sType, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES);

    VkPhysicalDeviceProperties core;
    vkGetPhysicalDeviceProperties(t->physical_device, &core);
    assert_memory_equal(&p2.properties, &core, sizeof(core));

    /* Vulkan 1.1 */
    assert_true(v11.subgroupSize >= 1 && is_power_of_two(v11.subgroupSize));
    assert_true(v11.maxPerSetDescriptors >= 1024);
    assert_true(v11.maxMemoryAllocationSize >= (1ull << 30));
    assert_true(v11.deviceLUIDValid == VK_FALSE || v11.deviceLUIDValid == VK_TRUE);
    assert_true(v11.protectedNoFault == VK_FALSE || v11.protectedNoFault == VK_TRUE);
    static const uint8_t zero_uuid[VK_UUID_SIZE];
    assert_memory_not_equal(v11.deviceUUID, zero_uuid, VK_UUID_SIZE);
    assert_memory_not_equal(v11.driverUUID, zero_uuid, VK_UUID_SIZE);

    /* Vulkan 1.2 */
    assert_string_equal(v12.driverName, "vkmm");
    assert_true(strlen(v12.driverInfo) > 0 && strlen(v12.driverInfo) < VK_MAX_DRIVER_INFO_SIZE);
    assert_true(v12.maxTimelineSemaphoreValueDifference >= (1ull << 31) - 1);
    assert_true(v12.driverID != 0);
    assert_bools(&v12, offsetof(VkPhysicalDeviceVulkan12Properties, shaderSignedZeroInfNanPreserveFloat16),
                 offsetof(VkPhysicalDeviceVulkan12Properties, shaderRoundingModeRTZFloat64) + sizeof(VkBool32),
                 "VkPhysicalDeviceVulkan12Properties float controls");

    /* Vulkan 1.3 */
    assert_true(v13.maxBufferSize >= (1ull << 30));
    assert_true(v13.minSubgroupSize >= 1 && v13.minSubgroupSize <= v13.maxSubgroupSize);
    assert_true(is_power_of_two(v13.minSubgroupSize) && is_power_of_two(v13.maxSubgroupSize));
    assert_true(v11.subgroupSize >= v13.minSubgroupSize && v11.subgroupSize <= v13.maxSubgroupSize);
    assert_true(is_power_of_two(v13.storageTexelBufferOffsetAlignmentBytes));
    assert_true(is_power_of_two(v13.uniformTexelBufferOffsetAlignmentBytes));
}

static void test_properties2_individual_structs_match_aggregates(void **state)
{
    struct vkmm_test *t = *state;
    VkPhysicalDeviceVulkan12Properties v12;
    VkPhysicalDeviceVulkan11Properties v11;
    PREPARE(v12, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES, NULL);
    PREPARE(v11, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES, &v12);
    VkPhysicalDeviceProperties2 aggregate;
    PREPARE(aggregate, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v11);
    vkGetPhysicalDeviceProperties2(t->physical_device, &aggregate);

    VkPhysicalDeviceMaintenance3Properties maintenance3;
    VkPhysicalDeviceIDProperties id;
    VkPhysicalDeviceTimelineSemaphoreProperties timeline;
    VkPhysicalDeviceDriverProperties driver;
    PREPARE(maintenance3, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES, NULL);
    PREPARE(id, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES, &maintenance3);
    PREPARE(timeline, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_PROPERTIES, &id);
    PREPARE(driver, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES, &timeline);
    VkPhysicalDeviceProperties2 individual;
    PREPARE(individual, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &driver);
    vkGetPhysicalDeviceProperties2(t->physical_device, &individual);

    assert_ptr_equal(individual.pNext, &driver);
    assert_ptr_equal(driver.pNext, &timeline);
    assert_ptr_equal(timeline.pNext, &id);
    assert_ptr_equal(id.pNext, &maintenance3);
    assert_null(maintenance3.pNext);

    assert_int_equal(driver.driverID, v12.driverID);
    assert_string_equal(driver.driverName, v12.driverName);
    assert_string_equal(driver.driverInfo, v12.driverInfo);
    assert_memory_equal(&driver.conformanceVersion, &v12.conformanceVersion, sizeof(driver.conformanceVersion));

    assert_true(timeline.maxTimelineSemaphoreValueDifference == v12.maxTimelineSemaphoreValueDifference);

    assert_memory_equal(id.deviceUUID, v11.deviceUUID, VK_UUID_SIZE);
    assert_memory_equal(id.driverUUID, v11.driverUUID, VK_UUID_SIZE);
    assert_int_equal(id.deviceLUIDValid, v11.deviceLUIDValid);
    /* deviceLUID and deviceNodeMask are only defined when the LUID is. */
    if (v11.deviceLUIDValid) {
        assert_memory_equal(id.deviceLUID, v11.deviceLUID, VK_LUID_SIZE);
        assert_int_equal(id.deviceNodeMask, v11.deviceNodeMask);
    }

    assert_int_equal(maintenance3.maxPerSetDescriptors, v11.maxPerSetDescriptors);
    assert_true(maintenance3.maxMemoryAllocationSize == v11.maxMemoryAllocationSize);
}

static void test_features(void **state)
{
    struct vkmm_test *t = *state;
    VkPhysicalDeviceFeatures core;
    memset(&core, GARBAGE, sizeof(core));
    vkGetPhysicalDeviceFeatures(t->physical_device, &core);
    assert_bools(&core, 0, sizeof(core), "VkPhysicalDeviceFeatures");
    assert_false(core.geometryShader);
    assert_false(core.tessellationShader);
    assert_false(core.sparseBinding);

    VkPhysicalDeviceVulkan13Features v13;
    VkPhysicalDeviceVulkan12Features v12;
    VkPhysicalDeviceVulkan11Features v11;
    PREPARE(v13, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, NULL);
    PREPARE(v12, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13);
    PREPARE(v11, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v12);
    VkPhysicalDeviceFeatures2 f2;
    PREPARE(f2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11);
    vkGetPhysicalDeviceFeatures2(t->physical_device, &f2);
    assert_ptr_equal(f2.pNext, &v11);
    assert_ptr_equal(v11.pNext, &v12);
    assert_ptr_equal(v12.pNext, &v13);
    assert_null(v13.pNext);
    assert_memory_equal(&f2.features, &core, sizeof(core));
    assert_bools(&v11, offsetof(VkPhysicalDeviceVulkan11Features, storageBuffer16BitAccess), sizeof(v11),
                 "VkPhysicalDeviceVulkan11Features");
    assert_bools(&v12, offsetof(VkPhysicalDeviceVulkan12Features, samplerMirrorClampToEdge), sizeof(v12),
                 "VkPhysicalDeviceVulkan12Features");
    assert_bools(&v13, offsetof(VkPhysicalDeviceVulkan13Features, robustImageAccess), sizeof(v13),
                 "VkPhysicalDeviceVulkan13Features");
    assert_true(v12.timelineSemaphore);
    assert_true(v12.bufferDeviceAddress);
    assert_true(v12.hostQueryReset);
    assert_true(v13.synchronization2);
    assert_true(v13.privateData);
    assert_true(v11.multiview); /* required of a 1.1 device */

    /* Individual structures agree with the aggregates. */
    VkPhysicalDevicePrivateDataFeatures private_data;
    VkPhysicalDeviceSynchronization2Features sync2;
    VkPhysicalDeviceHostQueryResetFeatures host_query_reset;
    VkPhysicalDeviceBufferDeviceAddressFeatures bda;
    VkPhysicalDeviceMultiviewFeatures multiview;
    VkPhysicalDeviceTimelineSemaphoreFeatures timeline;
    PREPARE(private_data, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES, NULL);
    PREPARE(sync2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES, &private_data);
    PREPARE(host_query_reset, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES, &sync2);
    PREPARE(bda, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES, &host_query_reset);
    PREPARE(multiview, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES, &bda);
    PREPARE(timeline, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES, &multiview);
    PREPARE(f2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &timeline);
    vkGetPhysicalDeviceFeatures2(t->physical_device, &f2);
    assert_int_equal(timeline.timelineSemaphore, v12.timelineSemaphore);
    assert_int_equal(multiview.multiview, v11.multiview);
    assert_int_equal(multiview.multiviewGeometryShader, v11.multiviewGeometryShader);
    assert_int_equal(multiview.multiviewTessellationShader, v11.multiviewTessellationShader);
    assert_int_equal(bda.bufferDeviceAddress, v12.bufferDeviceAddress);
    assert_int_equal(bda.bufferDeviceAddressCaptureReplay, v12.bufferDeviceAddressCaptureReplay);
    assert_int_equal(bda.bufferDeviceAddressMultiDevice, v12.bufferDeviceAddressMultiDevice);
    assert_int_equal(host_query_reset.hostQueryReset, v12.hostQueryReset);
    assert_int_equal(sync2.synchronization2, v13.synchronization2);
    assert_int_equal(private_data.privateData, v13.privateData);
}

static void test_memory_properties(void **state)
{
    struct vkmm_test *t = *state;
    VkPhysicalDeviceMemoryProperties m;
    memset(&m, GARBAGE, sizeof(m));
    vkGetPhysicalDeviceMemoryProperties(t->physical_device, &m);
    assert_int_equal(m.memoryTypeCount, 3);
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
    assert_int_equal(m.memoryTypes[0].propertyFlags, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    assert_int_equal(m.memoryTypes[1].propertyFlags, host | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    assert_int_equal(m.memoryTypes[2].propertyFlags, host | VK_MEMORY_PROPERTY_HOST_CACHED_BIT);

    assert_true(m.memoryHeapCount >= 1 && m.memoryHeapCount <= VK_MAX_MEMORY_HEAPS);
    for (uint32_t h = 0; h < m.memoryHeapCount; h++) {
        assert_true(m.memoryHeaps[h].size >= (1ull << 30));
        assert_int_equal(m.memoryHeaps[h].flags & ~(VkMemoryHeapFlags)VK_MEMORY_HEAP_DEVICE_LOCAL_BIT, 0);
    }
    bool device_local_heap = false;
    for (uint32_t i = 0; i < m.memoryTypeCount; i++) {
        uint32_t h = m.memoryTypes[i].heapIndex;
        assert_true(h < m.memoryHeapCount);
        /* VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT "will be set if and only if the
         * memory type belongs to a heap with the VK_MEMORY_HEAP_DEVICE_LOCAL_BIT
         * set". */
        bool heap_local = (m.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0;
        bool type_local = (m.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) != 0;
        if (heap_local != type_local)
            fail_msg("memory type %u (flags 0x%x) is in heap %u (flags 0x%x)", i, m.memoryTypes[i].propertyFlags, h,
                     m.memoryHeaps[h].flags);
        device_local_heap |= heap_local;
    }
    /* "at least one heap must include VK_MEMORY_HEAP_DEVICE_LOCAL_BIT" */
    assert_true(device_local_heap);

    /* The ordering rule: X comes before Y when X's flags are a strict subset
     * of Y's (or equal with X in the faster heap; no two types here are
     * equal).  So no later type's flags are a strict subset of an earlier
     * one's. */
    for (uint32_t x = 0; x < m.memoryTypeCount; x++) {
        for (uint32_t y = x + 1; y < m.memoryTypeCount; y++) {
            VkMemoryPropertyFlags fx = m.memoryTypes[x].propertyFlags, fy = m.memoryTypes[y].propertyFlags;
            assert_int_not_equal(fx, fy);
            bool y_strict_subset_of_x = (fy & fx) == fy && fy != fx;
            if (y_strict_subset_of_x)
                fail_msg("memory type %u (0x%x) must come before type %u (0x%x)", y, fy, x, fx);
        }
    }

    VkPhysicalDeviceMemoryProperties2 m2;
    PREPARE(m2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2, NULL);
    vkGetPhysicalDeviceMemoryProperties2(t->physical_device, &m2);
    /* Compare only the valid elements (the rest of the arrays is unspecified). */
    assert_int_equal(m2.memoryProperties.memoryTypeCount, m.memoryTypeCount);
    assert_int_equal(m2.memoryProperties.memoryHeapCount, m.memoryHeapCount);
    assert_memory_equal(m2.memoryProperties.memoryTypes, m.memoryTypes, m.memoryTypeCount * sizeof(VkMemoryType));
    assert_memory_equal(m2.memoryProperties.memoryHeaps, m.memoryHeaps, m.memoryHeapCount * sizeof(VkMemoryHeap));
}

static void check_families(const VkQueueFamilyProperties *f)
{
    assert_int_equal(f[0].queueFlags, VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT);
    assert_int_equal(f[0].queueCount, 4);
    assert_int_equal(f[1].queueFlags, VK_QUEUE_TRANSFER_BIT);
    assert_int_equal(f[1].queueCount, 2);
    for (int i = 0; i < 2; i++) {
        /* timestampValidBits: 0, or 36 to 64. */
        assert_true(f[i].timestampValidBits >= 36 && f[i].timestampValidBits <= 64);
        /* Queues with compute or graphics must report (1,1,1). */
        assert_int_equal(f[i].minImageTransferGranularity.width, 1);
        assert_int_equal(f[i].minImageTransferGranularity.height, 1);
        assert_int_equal(f[i].minImageTransferGranularity.depth, 1);
    }
}

static void test_queue_families(void **state)
{
    struct vkmm_test *t = *state;
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(t->physical_device, &count, NULL);
    assert_int_equal(count, 2);
    VkQueueFamilyProperties families[3];
    memset(families, GARBAGE, sizeof(families));
    count = 3;
    vkGetPhysicalDeviceQueueFamilyProperties(t->physical_device, &count, families);
    assert_int_equal(count, 2);
    check_families(families);
    assert_int_equal(families[2].queueCount, 0xA5A5A5A5u);

    /* Too small: the count becomes the number written (the void-returning
     * form of VK_INCOMPLETE); the rest is untouched. */
    VkQueueFamilyProperties one[2];
    memset(one, GARBAGE, sizeof(one));
    count = 1;
    vkGetPhysicalDeviceQueueFamilyProperties(t->physical_device, &count, one);
    assert_int_equal(count, 1);
    assert_memory_equal(&one[0], &families[0], sizeof(one[0]));
    assert_int_equal(one[1].queueCount, 0xA5A5A5A5u);

    count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties2(t->physical_device, &count, NULL);
    assert_int_equal(count, 2);
    VkQueueFamilyProperties2 families2[3];
    for (int i = 0; i < 3; i++)
        PREPARE(families2[i], VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2, NULL);
    count = 3;
    vkGetPhysicalDeviceQueueFamilyProperties2(t->physical_device, &count, families2);
    assert_int_equal(count, 2);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(families2[i].sType, VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2);
        assert_null(families2[i].pNext);
        assert_memory_equal(&families2[i].queueFamilyProperties, &families[i], sizeof(families[i]));
    }
    assert_int_equal(families2[2].queueFamilyProperties.queueCount, 0xA5A5A5A5u);

    for (int i = 0; i < 2; i++)
        PREPARE(families2[i], VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2, NULL);
    count = 1;
    vkGetPhysicalDeviceQueueFamilyProperties2(t->physical_device, &count, families2);
    assert_int_equal(count, 1);
    assert_memory_equal(&families2[0].queueFamilyProperties, &families[0], sizeof(families[0]));
    assert_int_equal(families2[1].queueFamilyProperties.queueCount, 0xA5A5A5A5u);
}

/* Formats vkmm lacks (compressed, 64-bit) have no features; the colour
 * formats have the features the spec's required tables list, blits
 * included, and never a depth attachment; depth formats are copied,
 * sampled with comparison, blitted and attachments. */
static void test_format_features_honest(void **state)
{
    struct vkmm_test *t = *state;
    static const VkFormat none[] = { VK_FORMAT_S8_UINT, VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_R64_UINT };
    for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
        VkFormatProperties p;
        memset(&p, GARBAGE, sizeof(p));
        vkGetPhysicalDeviceFormatProperties(t->physical_device, none[i], &p);
        assert_int_equal(p.linearTilingFeatures, 0);
        assert_int_equal(p.optimalTilingFeatures, 0);
        assert_int_equal(p.bufferFeatures, 0);
        VkFormatProperties3 p3;
        PREPARE(p3, VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3, NULL);
        VkFormatProperties2 p2;
        PREPARE(p2, VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, &p3);
        vkGetPhysicalDeviceFormatProperties2(t->physical_device, none[i], &p2);
        assert_true(p3.linearTilingFeatures == 0 && p3.optimalTilingFeatures == 0 && p3.bufferFeatures == 0);
    }
    static const VkFormat some[] = { VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32_UINT,
                                     VK_FORMAT_R32G32B32A32_SFLOAT };
    const VkFormatFeatureFlags never = VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
    /* The spec's required format tables: colour attachments (blendable
     * for normalized and float formats) and vertex buffers, a compute-only
     * device too (runtime/format_properties.c). */
    const VkFormatFeatureFlags blits = VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT;
    const VkFormatFeatureFlags required_attachment[] = {
        VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT | blits,
        VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT | blits,
        VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | blits,
        VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | blits,
    };
    for (size_t i = 0; i < sizeof(some) / sizeof(some[0]); i++) {
        VkFormatProperties p;
        vkGetPhysicalDeviceFormatProperties(t->physical_device, some[i], &p);
        assert_int_equal(p.optimalTilingFeatures & (VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT),
                         VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT);
        assert_int_equal(p.linearTilingFeatures, p.optimalTilingFeatures);
        assert_int_equal(p.optimalTilingFeatures & never, 0);
        assert_int_equal(p.bufferFeatures & never, 0);
        assert_int_equal(p.optimalTilingFeatures & required_attachment[i], required_attachment[i]);
        assert_true(p.bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT);
        VkFormatProperties3 p3;
        PREPARE(p3, VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3, NULL);
        VkFormatProperties2 p2;
        PREPARE(p2, VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, &p3);
        vkGetPhysicalDeviceFormatProperties2(t->physical_device, some[i], &p2);
        assert_int_equal((uint32_t)p3.optimalTilingFeatures & p.optimalTilingFeatures, p.optimalTilingFeatures);
    }
    /* Depth: D16_UNORM, and D32_SFLOAT (one of it and X8_D24 is required). */
    static const VkFormat depth[] = { VK_FORMAT_D16_UNORM, VK_FORMAT_D32_SFLOAT };
    const VkFormatFeatureFlags depth_required = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_BLIT_SRC_BIT |
                                                VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT |
                                                VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
    for (size_t i = 0; i < sizeof(depth) / sizeof(depth[0]); i++) {
        VkFormatProperties3 p3;
        PREPARE(p3, VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3, NULL);
        VkFormatProperties2 p2;
        PREPARE(p2, VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, &p3);
        vkGetPhysicalDeviceFormatProperties2(t->physical_device, depth[i], &p2);
        VkFormatProperties *p = &p2.formatProperties;
        assert_int_equal(p->optimalTilingFeatures & depth_required, depth_required);
        assert_int_equal(p->optimalTilingFeatures & (VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT), 0);
        assert_int_equal(p->bufferFeatures, 0);
        assert_true(p3.optimalTilingFeatures & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT);
    }
}

static void test_image_format_properties(void **state)
{
    struct vkmm_test *t = *state;
    VkImageFormatProperties p;
    memset(&p, GARBAGE, sizeof(p));
    assert_int_equal(vkGetPhysicalDeviceImageFormatProperties(t->physical_device, VK_FORMAT_R8G8B8A8_UNORM,
                                                              VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                              VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &p),
                     VK_SUCCESS);
    assert_true(p.maxExtent.width >= 4096 && p.maxExtent.height >= 4096 && p.maxExtent.depth == 1);
    assert_true(p.maxArrayLayers >= 256);
    /* A colour-attachment format: 1 and 4 samples (the spec's minimums);
     * a format without attachment features, or a storage image: 1. */
    assert_int_equal(p.sampleCounts, VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT);
    assert_int_equal(vkGetPhysicalDeviceImageFormatProperties(t->physical_device, VK_FORMAT_R8G8B8A8_SNORM,
                                                              VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                              VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &p),
                     VK_SUCCESS);
    assert_int_equal(p.sampleCounts, VK_SAMPLE_COUNT_1_BIT);
    assert_int_equal(vkGetPhysicalDeviceImageFormatProperties(t->physical_device, VK_FORMAT_R8G8B8A8_UNORM,
                                                              VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                              VK_IMAGE_USAGE_STORAGE_BIT, 0, &p),
                     VK_SUCCESS);
    assert_int_equal(p.sampleCounts, VK_SAMPLE_COUNT_1_BIT);
    /* A colour-attachment image can be made (drawing into it needs a
     * graphics queue); depth formats make 2D images, not 3D ones. */
    assert_int_equal(vkGetPhysicalDeviceImageFormatProperties(t->physical_device, VK_FORMAT_R8G8B8A8_UNORM,
                                                              VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                              VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0, &p),
                     VK_SUCCESS);
    assert_int_equal(vkGetPhysicalDeviceImageFormatProperties(t->physical_device, VK_FORMAT_R8G8B8A8_SNORM,
                                                              VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                              VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0, &p),
                     VK_ERROR_FORMAT_NOT_SUPPORTED);
    assert_int_equal(vkGetPhysicalDeviceImageFormatProperties(t->physical_device, VK_FORMAT_D32_SFLOAT,
                                                              VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                              VK_IMAGE_USAGE_SAMPLED_BIT |
                                                                  VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                                                              0, &p),
                     VK_SUCCESS);
    assert_int_equal(vkGetPhysicalDeviceImageFormatProperties(t->physical_device, VK_FORMAT_D32_SFLOAT,
                                                              VK_IMAGE_TYPE_3D, VK_IMAGE_TILING_OPTIMAL,
                                                              VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &p),
                     VK_ERROR_FORMAT_NOT_SUPPORTED);
    assert_int_equal(vkGetPhysicalDeviceImageFormatProperties(t->physical_device, VK_FORMAT_D32_SFLOAT,
                                                              VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                              VK_IMAGE_USAGE_STORAGE_BIT, 0, &p),
                     VK_ERROR_FORMAT_NOT_SUPPORTED);

    VkPhysicalDeviceImageFormatInfo2 info = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2,
        .format = VK_FORMAT_R32_SFLOAT,
        .type = VK_IMAGE_TYPE_3D,
        .tiling = VK_IMAGE_TILING_LINEAR,
        .usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
    };
    VkImageFormatProperties2 p2;
    PREPARE(p2, VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2, NULL);
    assert_int_equal(vkGetPhysicalDeviceImageFormatProperties2(t->physical_device, &info, &p2), VK_SUCCESS);
    assert_int_equal(p2.imageFormatProperties.maxArrayLayers, 1);
    assert_true(p2.imageFormatProperties.maxExtent.depth >= 256);
}

static void test_external_handles_not_supported(void **state)
{
    struct vkmm_test *t = *state;
    VkPhysicalDeviceExternalBufferInfo buffer_info = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO,
        .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
        .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
    };
    VkExternalBufferProperties buffer;
    PREPARE(buffer, VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES, NULL);
    vkGetPhysicalDeviceExternalBufferProperties(t->physical_device, &buffer_info, &buffer);
    assert_int_equal(buffer.externalMemoryProperties.externalMemoryFeatures, 0);
    assert_int_equal(buffer.externalMemoryProperties.exportFromImportedHandleTypes, 0);
    /* VkExternalMemoryProperties: "compatibleHandleTypes must include at
     * least handleType"; with no features nothing else is compatible. */
    assert_int_equal(buffer.externalMemoryProperties.compatibleHandleTypes, buffer_info.handleType);

    VkPhysicalDeviceExternalFenceInfo fence_info = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO,
        .handleType = VK_EXTERNAL_FENCE_HANDLE_TYPE_SYNC_FD_BIT,
    };
    VkExternalFenceProperties fence;
    PREPARE(fence, VK_STRUCTURE_TYPE_EXTERNAL_FENCE_PROPERTIES, NULL);
    vkGetPhysicalDeviceExternalFenceProperties(t->physical_device, &fence_info, &fence);
    assert_int_equal(fence.exportFromImportedHandleTypes, 0);
    assert_int_equal(fence.compatibleHandleTypes, 0);
    assert_int_equal(fence.externalFenceFeatures, 0);

    VkPhysicalDeviceExternalSemaphoreInfo semaphore_info = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO,
        .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
    };
    VkExternalSemaphoreProperties semaphore;
    PREPARE(semaphore, VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES, NULL);
    vkGetPhysicalDeviceExternalSemaphoreProperties(t->physical_device, &semaphore_info, &semaphore);
    assert_int_equal(semaphore.exportFromImportedHandleTypes, 0);
    assert_int_equal(semaphore.compatibleHandleTypes, 0);
    assert_int_equal(semaphore.externalSemaphoreFeatures, 0);
}

/* Without the validation layer, which reports itself as a tool. */
static void test_tool_properties_none(void **state)
{
    (void)state;
    const struct vkmm_test_options options = { .no_validation = true };
    struct vkmm_test *t = vkmm_test_create(&options);
    uint32_t count = 5;
    VK_CHECK(vkGetPhysicalDeviceToolProperties(t->physical_device, &count, NULL));
    assert_int_equal(count, 0);
    VkPhysicalDeviceToolProperties tool;
    PREPARE(tool, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TOOL_PROPERTIES, NULL);
    count = 1;
    VK_CHECK(vkGetPhysicalDeviceToolProperties(t->physical_device, &count, &tool));
    assert_int_equal(count, 0);
    vkmm_test_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_properties_core),
        cmocka_unit_test(test_properties2_aggregates_match_core),
        cmocka_unit_test(test_properties2_individual_structs_match_aggregates),
        cmocka_unit_test(test_features),
        cmocka_unit_test(test_memory_properties),
        cmocka_unit_test(test_queue_families),
        cmocka_unit_test(test_format_features_honest),
        cmocka_unit_test(test_image_format_properties),
        cmocka_unit_test(test_external_handles_not_supported),
        cmocka_unit_test(test_tool_properties_none),
    };
    /* One instance and device for the group: queries do not change them. */
    return cmocka_run_group_tests(tests, vkmm_test_setup, vkmm_test_teardown);
}
