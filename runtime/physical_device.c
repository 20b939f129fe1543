#include "build_identity.h"
#include "physical_device.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "instance.h"
#include "log.h"
#include "pipeline.h"
#include "vkmm_extensions.h"
#include "vkmm/vkmm.h"

/* Not a Khronos-registered vendor or driver ID: vkmm has none.  Both lie
 * outside the PCI vendor range and the registered VkDriverId values. */
#define VKMM_VENDOR_ID 0x1F000u
#define VKMM_DEVICE_ID 0x0001u
#define VKMM_DRIVER_ID ((VkDriverId)0x564B4D4D) /* 'VKMM' */

/* Larger than any alignment a mistake would get right by luck, and the
 * largest the spec allows ("nonCoherentAtomSize ... 256 max"). */
#define VKMM_NON_COHERENT_ATOM_SIZE 256

/* Bytes of host memory strict mode may use per byte of device memory. */
#define STRICT_SHADOW_FACTOR 6

static uint64_t system_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    long page_size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_size <= 0)
        return 1ull << 30;
    return (uint64_t)pages * (uint64_t)page_size;
}

static void init_features(struct vkmm_core_features *f)
{
    memset(f, 0, sizeof(*f));
    f->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    f->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    f->v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    /* Only what works. */
    /* The compiler: bounds-checked buffer accesses (out-of-bounds loads
     * read zero, stores are dropped: what robustBufferAccess allows). */
    f->v10.robustBufferAccess = VK_TRUE;
    /* ASTC LDR, the compressed format set (the spec requires one of BC,
     * ETC2 and ASTC LDR): compiler/texel_astc.h, format_properties.c. */
    f->v10.textureCompressionASTC_LDR = VK_TRUE;
    /* Cube arrays: the cube's first layer is 6 times its index
     * (compiler/spirv_image.c; tests/api/image_sampling.c). */
    f->v10.imageCubeArray = VK_TRUE;
    f->v10.shaderInt64 = VK_TRUE;
    f->v10.shaderInt16 = VK_TRUE;
    f->v10.shaderFloat64 = VK_TRUE;
    f->v10.shaderUniformBufferArrayDynamicIndexing = VK_TRUE;
    f->v10.shaderStorageBufferArrayDynamicIndexing = VK_TRUE;
    f->v11.storageBuffer16BitAccess = VK_TRUE;
    f->v11.uniformAndStorageBuffer16BitAccess = VK_TRUE;
    f->v11.storagePushConstant16 = VK_TRUE;
    f->v11.variablePointersStorageBuffer = VK_TRUE;
    f->v11.variablePointers = VK_TRUE;
    /* Required of a 1.1 device.  It changes only render passes (view
     * masks), which vkmm creates as plain objects (render_pass.c). */
    f->v11.multiview = VK_TRUE;
    f->v12.storageBuffer8BitAccess = VK_TRUE;
    f->v12.uniformAndStorageBuffer8BitAccess = VK_TRUE;
    f->v12.storagePushConstant8 = VK_TRUE;
    f->v12.shaderBufferInt64Atomics = VK_TRUE;
    f->v12.shaderSharedInt64Atomics = VK_TRUE;
    f->v12.shaderFloat16 = VK_TRUE;
    f->v12.shaderInt8 = VK_TRUE;
    f->v12.scalarBlockLayout = VK_TRUE;
    f->v12.uniformBufferStandardLayout = VK_TRUE;
    f->v12.shaderSubgroupExtendedTypes = VK_TRUE;
    f->v12.vulkanMemoryModel = VK_TRUE;
    f->v12.vulkanMemoryModelDeviceScope = VK_TRUE;
    f->v13.maintenance4 = VK_TRUE; /* LocalSizeId; no image commands can be called validly */
    f->v13.pipelineCreationCacheControl = VK_TRUE;
    f->v12.timelineSemaphore = VK_TRUE;
    f->v12.hostQueryReset = VK_TRUE;
    f->v12.bufferDeviceAddress = VK_TRUE;
    f->v13.synchronization2 = VK_TRUE;
    f->v13.privateData = VK_TRUE;
    /* A pipeline may ask for any subgroup width the compiler has
     * (vkmm_pipeline_stage_subgroup_width); subgroups are always full when
     * the workgroup's X size is a multiple of the width, which is what
     * REQUIRE_FULL_SUBGROUPS requires of the application. */
    f->v13.subgroupSizeControl = VK_TRUE;
    f->v13.computeFullSubgroups = VK_TRUE;
    /* Workgroup variables with an OpConstantNull initializer start zeroed
     * (compiler/lower_variables.c, zero_workgroup_variable). */
    f->v13.shaderZeroInitializeWorkgroupMemory = VK_TRUE;
    f->v13.shaderIntegerDotProduct = VK_TRUE; /* spirv_dot.c */
    /* OpGroupNonUniformBroadcast takes the first active lane's Id
     * (spirv_subgroup.c): a dynamically uniform Id is all it needs. */
    f->v12.subgroupBroadcastDynamicId = VK_TRUE;
    /* Fragment-only instructions (a compute device never runs them):
     * modules may declare their capability and extension. */
    f->v13.shaderTerminateInvocation = VK_TRUE;
    f->v13.shaderDemoteToHelperInvocation = VK_TRUE;
    /* Images (compiler/spirv_image.c): texels are converted at run time
     * from the view's format, so reads and writes need no declared format;
     * out-of-range coordinates read zeros and drop writes. */
    f->v10.shaderStorageImageExtendedFormats = VK_TRUE;
    f->v10.shaderStorageImageReadWithoutFormat = VK_TRUE;
    f->v10.shaderStorageImageWriteWithoutFormat = VK_TRUE;
    f->v10.shaderSampledImageArrayDynamicIndexing = VK_TRUE;
    f->v10.shaderStorageImageArrayDynamicIndexing = VK_TRUE;
    f->v13.robustImageAccess = VK_TRUE;
    /* Inline uniform blocks: bytes in the descriptor set that shaders read
     * as a uniform buffer (descriptor_set.c).  Not with update-after-bind,
     * which needs descriptor indexing. */
    f->v13.inlineUniformBlock = VK_TRUE;
}

static void init_limits(VkPhysicalDeviceLimits *l, uint64_t heap_size)
{
    (void)heap_size;
    /* Images (image.c): the spec's minimums, which keep the largest image
     * well inside what descriptors' 32-bit pitches hold. */
    l->maxImageDimension1D = 4096;
    l->maxImageDimension2D = 4096;
    l->maxImageDimension3D = 256;
    l->maxImageDimensionCube = 4096;
    l->maxImageArrayLayers = 256;
    l->maxTexelBufferElements = 1u << 20;
    l->maxPerStageDescriptorSamplers = 64;
    l->maxPerStageDescriptorSampledImages = 64;
    l->maxPerStageDescriptorStorageImages = 64;
    l->maxDescriptorSetSamplers = 256;
    l->maxDescriptorSetSampledImages = 256;
    l->maxDescriptorSetStorageImages = 256;
    l->maxSampleMaskWords = 1; /* the spec's minimum */
    /* Multisampled images: 4 samples, fetched by sample in shaders (the
     * spec's minimums; image.h lays the samples out). */
    l->sampledImageColorSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
    l->sampledImageIntegerSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
    l->sampledImageDepthSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
    l->sampledImageStencilSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
    l->storageImageSampleCounts = VK_SAMPLE_COUNT_1_BIT;
    /* Render passes are plain objects here (render_pass.c); the spec's
     * minimums. */
    l->framebufferColorSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
    l->framebufferDepthSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
    l->framebufferStencilSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
    l->framebufferNoAttachmentsSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
    l->maxSamplerLodBias = 2.0f;
    l->minTexelOffset = -8;
    l->maxTexelOffset = 7;
    l->minTexelGatherOffset = -8;
    l->maxTexelGatherOffset = 7;
    l->subTexelPrecisionBits = 8;
    l->mipmapPrecisionBits = 4;
    l->maxMemoryAllocationCount = 4096; /* the spec's minimum; enforced */
    l->maxSamplerAllocationCount = 4000;
    l->bufferImageGranularity = 1;
    l->maxBoundDescriptorSets = 8;
    l->maxPerStageDescriptorUniformBuffers = 64;
    l->maxPerStageDescriptorStorageBuffers = 64;
    l->maxPerStageResources = 128;
    l->maxDescriptorSetUniformBuffers = 64;
    l->maxDescriptorSetUniformBuffersDynamic = 16;
    l->maxDescriptorSetStorageBuffers = 64;
    l->maxDescriptorSetStorageBuffersDynamic = 16;
    l->maxUniformBufferRange = 65536;
    l->maxStorageBufferRange = 0x7fffffffu;
    l->maxPushConstantsSize = 256;
    l->maxComputeSharedMemorySize = 32768;
    l->maxComputeWorkGroupCount[0] = VKMM_MAX_WORKGROUP_COUNT;
    l->maxComputeWorkGroupCount[1] = VKMM_MAX_WORKGROUP_COUNT;
    l->maxComputeWorkGroupCount[2] = VKMM_MAX_WORKGROUP_COUNT;
    l->maxComputeWorkGroupInvocations = 1024;
    l->maxComputeWorkGroupSize[0] = 1024;
    l->maxComputeWorkGroupSize[1] = 1024;
    l->maxComputeWorkGroupSize[2] = 64;
    l->maxSamplerAnisotropy = 1.0f;
    l->minMemoryMapAlignment = 64;
    l->minTexelBufferOffsetAlignment = 16;
    l->minUniformBufferOffsetAlignment = 16;
    l->minStorageBufferOffsetAlignment = 16;
    l->timestampComputeAndGraphics = VK_TRUE;
    l->timestampPeriod = 1.0f; /* timestamps are CLOCK_MONOTONIC nanoseconds */
    l->discreteQueuePriorities = 2;
    l->optimalBufferCopyOffsetAlignment = 16;
    l->optimalBufferCopyRowPitchAlignment = 16;
    l->nonCoherentAtomSize = VKMM_NON_COHERENT_ATOM_SIZE;
    /* The spec's required limits (Required Limits table) hold for every
     * implementation, graphics queue or not: framebuffers can be created
     * (vkCmdClearAttachments and drawing need a graphics queue, which vkmm
     * has none of). */
    l->maxViewports = 1;
    l->maxViewportDimensions[0] = 4096;
    l->maxViewportDimensions[1] = 4096;
    l->viewportBoundsRange[0] = -8192.0f;
    l->viewportBoundsRange[1] = 8191.0f;
    l->maxFramebufferWidth = 4096;
    l->maxFramebufferHeight = 4096;
    l->maxFramebufferLayers = 256;
    l->maxColorAttachments = 4;
    /* The vertex, fragment and attachment limits: the table's minimums
     * too (no pipeline that could use them can be created here). */
    l->subPixelPrecisionBits = 4;
    l->maxVertexInputAttributes = 16;
    l->maxVertexInputBindings = 16;
    l->maxVertexInputAttributeOffset = 2047;
    l->maxVertexInputBindingStride = 2048;
    l->maxVertexOutputComponents = 64;
    l->maxFragmentInputComponents = 64;
    l->maxFragmentOutputAttachments = 4;
    l->maxFragmentCombinedOutputResources = 4;
    l->maxPerStageDescriptorInputAttachments = 4;
    l->maxDescriptorSetInputAttachments = 4;
    l->standardSampleLocations = VK_FALSE;
}

static void init_uuid(uint8_t uuid[VK_UUID_SIZE], const char *text)
{
    memset(uuid, 0, VK_UUID_SIZE);
    for (size_t i = 0; text[i]; i++)
        uuid[i % VK_UUID_SIZE] = (uint8_t)(uuid[i % VK_UUID_SIZE] * 31u + (uint8_t)text[i]);
}

static void init_properties(struct vkmm_core_properties *p, uint64_t heap_size)
{
    memset(p, 0, sizeof(*p));
    VkPhysicalDeviceProperties *v10 = &p->v10;
    v10->apiVersion = VK_MAKE_API_VERSION(0, 1, 3, VK_HEADER_VERSION);
    v10->driverVersion = VK_MAKE_API_VERSION(0, VKMM_VERSION_MAJOR, VKMM_VERSION_MINOR, VKMM_VERSION_PATCH);
    v10->vendorID = VKMM_VENDOR_ID;
    v10->deviceID = VKMM_DEVICE_ID;
    v10->deviceType = VK_PHYSICAL_DEVICE_TYPE_CPU;
    snprintf(v10->deviceName, sizeof(v10->deviceName), "vkmm (%s mode)",
             vkmm_mode() == VKMM_MODE_STRICT ? "strict" : "fast");
    /* Per build, not per version: another build's cache data is
     * incompatible (its object code was never checked by this one). */
    const void *pieces[] = { "vkmm pipeline cache UUID", vkmm_build_identity() };
    size_t sizes[] = { 24, VKMM_DIGEST_SIZE };
    uint8_t digest[VKMM_DIGEST_SIZE];
    vkmm_sha256(pieces, sizes, 2, digest);
    memcpy(v10->pipelineCacheUUID, digest, VK_UUID_SIZE);
    init_limits(&v10->limits, heap_size);

    VkPhysicalDeviceVulkan11Properties *v11 = &p->v11;
    v11->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES;
    init_uuid(v11->deviceUUID, "vkmm device");
    init_uuid(v11->driverUUID, "vkmm driver " VKMM_VERSION_STRING);
    v11->deviceNodeMask = 1;
    /* A subgroup is the W lanes of one generated function call. */
    unsigned width = vkmm_pipeline_subgroup_width();
    v11->subgroupSize = width;
    v11->subgroupSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
    v11->subgroupSupportedOperations =
        VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT |
        VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT |
        VK_SUBGROUP_FEATURE_CLUSTERED_BIT;
    /* Quads need at least four invocations in a subgroup. */
    if (width >= 4)
        v11->subgroupSupportedOperations |= VK_SUBGROUP_FEATURE_QUAD_BIT;
    v11->pointClippingBehavior = VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;
    /* The spec's required minimums. */
    v11->maxMultiviewViewCount = 6;
    v11->maxMultiviewInstanceIndex = (1u << 27) - 1;
    v11->maxPerSetDescriptors = 1024;
    v11->maxMemoryAllocationSize = heap_size;

    VkPhysicalDeviceVulkan12Properties *v12 = &p->v12;
    v12->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES;
    v12->driverID = VKMM_DRIVER_ID;
    snprintf(v12->driverName, sizeof(v12->driverName), "vkmm");
    snprintf(v12->driverInfo, sizeof(v12->driverInfo), "vkmm %s, %s mode", VKMM_VERSION_STRING,
             vkmm_mode() == VKMM_MODE_STRICT ? "strict" : "fast");
    /* conformanceVersion stays 0.0.0.0: vkmm has not passed the CTS. */
    v12->denormBehaviorIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
    v12->roundingModeIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
    /* Float controls (SPV_KHR_float_controls): the generated code is IEEE
     * arithmetic without fast-math flags on a CPU that keeps denormals
     * (MXCSR's FTZ and DAZ stay clear) and rounds to nearest even; 16-bit
     * floats compute in 32 bits and round once.  So denormals, signed
     * zeros, infinities and NaNs are preserved and rounding is RTE, for
     * every width.  Flushing to zero and RTZ rounding would need code of
     * their own: not advertised. */
    v12->shaderSignedZeroInfNanPreserveFloat16 = VK_TRUE;
    v12->shaderSignedZeroInfNanPreserveFloat32 = VK_TRUE;
    v12->shaderSignedZeroInfNanPreserveFloat64 = VK_TRUE;
    v12->shaderDenormPreserveFloat16 = VK_TRUE;
    v12->shaderDenormPreserveFloat32 = VK_TRUE;
    v12->shaderDenormPreserveFloat64 = VK_TRUE;
    v12->shaderRoundingModeRTEFloat16 = VK_TRUE;
    v12->shaderRoundingModeRTEFloat32 = VK_TRUE;
    v12->shaderRoundingModeRTEFloat64 = VK_TRUE;
    v12->maxTimelineSemaphoreValueDifference = UINT64_MAX;
    /* The spec: "The UpdateAfterBind descriptor limits must each be greater
     * than or equal to the corresponding non-UpdateAfterBind limit"; the
     * VUs of vkCreatePipelineLayout count every descriptor against them. */
    const VkPhysicalDeviceLimits *l = &v10->limits;
    v12->maxPerStageDescriptorUpdateAfterBindUniformBuffers = l->maxPerStageDescriptorUniformBuffers;
    v12->maxPerStageDescriptorUpdateAfterBindStorageBuffers = l->maxPerStageDescriptorStorageBuffers;
    v12->maxPerStageUpdateAfterBindResources = l->maxPerStageResources;
    v12->maxDescriptorSetUpdateAfterBindUniformBuffers = l->maxDescriptorSetUniformBuffers;
    v12->maxDescriptorSetUpdateAfterBindUniformBuffersDynamic = l->maxDescriptorSetUniformBuffersDynamic;
    v12->maxDescriptorSetUpdateAfterBindStorageBuffers = l->maxDescriptorSetStorageBuffers;
    v12->maxDescriptorSetUpdateAfterBindStorageBuffersDynamic = l->maxDescriptorSetStorageBuffersDynamic;
    v12->maxPerStageDescriptorUpdateAfterBindSamplers = l->maxPerStageDescriptorSamplers;
    v12->maxPerStageDescriptorUpdateAfterBindSampledImages = l->maxPerStageDescriptorSampledImages;
    v12->maxPerStageDescriptorUpdateAfterBindStorageImages = l->maxPerStageDescriptorStorageImages;
    v12->maxDescriptorSetUpdateAfterBindSamplers = l->maxDescriptorSetSamplers;
    v12->maxDescriptorSetUpdateAfterBindSampledImages = l->maxDescriptorSetSampledImages;
    v12->maxDescriptorSetUpdateAfterBindStorageImages = l->maxDescriptorSetStorageImages;
    v12->framebufferIntegerColorSampleCounts = VK_SAMPLE_COUNT_1_BIT;

    VkPhysicalDeviceVulkan13Properties *v13 = &p->v13;
    v13->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES;
    vkmm_pipeline_subgroup_width_range(&v13->minSubgroupSize, &v13->maxSubgroupSize);
    v13->maxComputeWorkgroupSubgroups = v10->limits.maxComputeWorkGroupInvocations / v13->minSubgroupSize;
    v13->requiredSubgroupSizeStages = VK_SHADER_STAGE_COMPUTE_BIT;
    v13->maxBufferSize = heap_size;
    /* The spec's minimums for inlineUniformBlock (Table "Required
     * Limits"): a set's inline bytes are host memory beside its
     * descriptors. */
    v13->maxInlineUniformBlockSize = 256;
    v13->maxPerStageDescriptorInlineUniformBlocks = 4;
    v13->maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks = 4;
    v13->maxDescriptorSetInlineUniformBlocks = 4;
    v13->maxDescriptorSetUpdateAfterBindInlineUniformBlocks = 4;
    v13->maxInlineUniformTotalSize = 256;
    v13->storageTexelBufferOffsetAlignmentBytes = 16;
    v13->uniformTexelBufferOffsetAlignmentBytes = 16;
}

static void init_memory(VkPhysicalDeviceMemoryProperties *m, uint64_t heap_size)
{
    memset(m, 0, sizeof(*m));
    /* VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT "will be set if and only if the
     * memory type belongs to a heap with the VK_MEMORY_HEAP_DEVICE_LOCAL_BIT
     * set", so the host-visible types, which are not device-local, live in
     * a heap of their own.  Both heaps are the same system memory; the
     * device keeps one budget for the two (device_memory.c). */
    m->memoryHeapCount = 2;
    m->memoryHeaps[0].size = heap_size;
    m->memoryHeaps[0].flags = VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
    m->memoryHeaps[1].size = heap_size;
    m->memoryHeaps[1].flags = 0;
    m->memoryTypeCount = VKMM_MEMORY_TYPE_COUNT;
    m->memoryTypes[VKMM_MEMORY_TYPE_DEVICE_LOCAL].propertyFlags = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    m->memoryTypes[VKMM_MEMORY_TYPE_DEVICE_LOCAL].heapIndex = 0;
    m->memoryTypes[VKMM_MEMORY_TYPE_HOST_COHERENT].propertyFlags =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    m->memoryTypes[VKMM_MEMORY_TYPE_HOST_COHERENT].heapIndex = 1;
    m->memoryTypes[VKMM_MEMORY_TYPE_HOST_CACHED].propertyFlags =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
    m->memoryTypes[VKMM_MEMORY_TYPE_HOST_CACHED].heapIndex = 1;
}

static void init_queue_families(VkQueueFamilyProperties *families)
{
    families[VKMM_QUEUE_FAMILY_COMPUTE] = (VkQueueFamilyProperties){
        .queueFlags = VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT,
        .queueCount = VKMM_MAX_QUEUES_PER_FAMILY,
        .timestampValidBits = 64,
        .minImageTransferGranularity = { 1, 1, 1 },
    };
    families[VKMM_QUEUE_FAMILY_TRANSFER] = (VkQueueFamilyProperties){
        .queueFlags = VK_QUEUE_TRANSFER_BIT,
        .queueCount = 2,
        .timestampValidBits = 64,
        .minImageTransferGranularity = { 1, 1, 1 },
    };
}

void vkmm_physical_device_init(struct vkmm_physical_device *pd, struct vkmm_instance *instance)
{
    /* A quarter of the machine stays for the host side of the program.
     * Strict mode shadows every byte (docs/memory-model-engine.md, "Memory
     * and time": 2 to 6 bytes of values per byte, metadata, a write path,
     * history): its heaps are what it can shadow, so an allocation that
     * succeeds is emulated whole. */
    uint64_t heap_size = system_memory_bytes() / 4 * 3 / (vkmm_mode() == VKMM_MODE_STRICT ? STRICT_SHADOW_FACTOR : 1);
    vkmm_object_init(&pd->base, VK_OBJECT_TYPE_PHYSICAL_DEVICE, instance, NULL);
    init_features(&pd->features);
    init_properties(&pd->properties, heap_size);
    init_memory(&pd->memory, heap_size);
    init_queue_families(pd->queue_families);
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetPhysicalDeviceFeatures(VkPhysicalDevice physicalDevice,
                                                           VkPhysicalDeviceFeatures *pFeatures)
{
    VKMM_FROM_HANDLE(vkmm_physical_device, pd, physicalDevice);
    *pFeatures = pd->features.v10;
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice,
                                                            VkPhysicalDeviceFeatures2 *pFeatures)
{
    VKMM_FROM_HANDLE(vkmm_physical_device, pd, physicalDevice);
    pFeatures->features = pd->features.v10;
    vkmm_features_fill_chain(pFeatures->pNext, &pd->features);
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetPhysicalDeviceProperties(VkPhysicalDevice physicalDevice,
                                                             VkPhysicalDeviceProperties *pProperties)
{
    VKMM_FROM_HANDLE(vkmm_physical_device, pd, physicalDevice);
    *pProperties = pd->properties.v10;
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice,
                                                              VkPhysicalDeviceProperties2 *pProperties)
{
    VKMM_FROM_HANDLE(vkmm_physical_device, pd, physicalDevice);
    pProperties->properties = pd->properties.v10;
    vkmm_properties_fill_chain(pProperties->pNext, &pd->properties);
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetPhysicalDeviceMemoryProperties(
    VkPhysicalDevice physicalDevice, VkPhysicalDeviceMemoryProperties *pMemoryProperties)
{
    VKMM_FROM_HANDLE(vkmm_physical_device, pd, physicalDevice);
    *pMemoryProperties = pd->memory;
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetPhysicalDeviceMemoryProperties2(
    VkPhysicalDevice physicalDevice, VkPhysicalDeviceMemoryProperties2 *pMemoryProperties)
{
    VKMM_FROM_HANDLE(vkmm_physical_device, pd, physicalDevice);
    pMemoryProperties->memoryProperties = pd->memory;
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetPhysicalDeviceQueueFamilyProperties(
    VkPhysicalDevice physicalDevice, uint32_t *pQueueFamilyPropertyCount,
    VkQueueFamilyProperties *pQueueFamilyProperties)
{
    VKMM_FROM_HANDLE(vkmm_physical_device, pd, physicalDevice);
    vkmm_fill_array(pQueueFamilyProperties, pQueueFamilyPropertyCount, pd->queue_families,
                    VKMM_QUEUE_FAMILY_COUNT, sizeof(VkQueueFamilyProperties));
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetPhysicalDeviceQueueFamilyProperties2(
    VkPhysicalDevice physicalDevice, uint32_t *pQueueFamilyPropertyCount,
    VkQueueFamilyProperties2 *pQueueFamilyProperties)
{
    VKMM_FROM_HANDLE(vkmm_physical_device, pd, physicalDevice);
    if (!pQueueFamilyProperties) {
        *pQueueFamilyPropertyCount = VKMM_QUEUE_FAMILY_COUNT;
        return;
    }
    uint32_t n = *pQueueFamilyPropertyCount < VKMM_QUEUE_FAMILY_COUNT ? *pQueueFamilyPropertyCount
                                                                       : VKMM_QUEUE_FAMILY_COUNT;
    for (uint32_t i = 0; i < n; i++)
        pQueueFamilyProperties[i].queueFamilyProperties = pd->queue_families[i];
    *pQueueFamilyPropertyCount = n;
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetPhysicalDeviceSparseImageFormatProperties(
    VkPhysicalDevice physicalDevice, VkFormat format, VkImageType type, VkSampleCountFlagBits samples,
    VkImageUsageFlags usage, VkImageTiling tiling, uint32_t *pPropertyCount,
    VkSparseImageFormatProperties *pProperties)
{
    (void)physicalDevice, (void)format, (void)type, (void)samples, (void)usage, (void)tiling;
    (void)pProperties;
    *pPropertyCount = 0;
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetPhysicalDeviceSparseImageFormatProperties2(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceSparseImageFormatInfo2 *pFormatInfo,
    uint32_t *pPropertyCount, VkSparseImageFormatProperties2 *pProperties)
{
    (void)physicalDevice, (void)pFormatInfo, (void)pProperties;
    *pPropertyCount = 0;
}

/* No external handle types are supported: no features, nothing to export
 * from, but VkExternalMemoryProperties: "compatibleHandleTypes must include
 * at least handleType". */
VKAPI_ATTR void VKAPI_CALL vkmm_GetPhysicalDeviceExternalBufferProperties(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceExternalBufferInfo *pExternalBufferInfo,
    VkExternalBufferProperties *pExternalBufferProperties)
{
    (void)physicalDevice;
    pExternalBufferProperties->externalMemoryProperties = (VkExternalMemoryProperties){
        .externalMemoryFeatures = 0,
        .exportFromImportedHandleTypes = 0,
        .compatibleHandleTypes = pExternalBufferInfo->handleType,
    };
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetPhysicalDeviceExternalFenceProperties(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceExternalFenceInfo *pExternalFenceInfo,
    VkExternalFenceProperties *pExternalFenceProperties)
{
    (void)physicalDevice, (void)pExternalFenceInfo;
    pExternalFenceProperties->exportFromImportedHandleTypes = 0;
    pExternalFenceProperties->compatibleHandleTypes = 0;
    pExternalFenceProperties->externalFenceFeatures = 0;
}

VKAPI_ATTR void VKAPI_CALL vkmm_GetPhysicalDeviceExternalSemaphoreProperties(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceExternalSemaphoreInfo *pExternalSemaphoreInfo,
    VkExternalSemaphoreProperties *pExternalSemaphoreProperties)
{
    (void)physicalDevice, (void)pExternalSemaphoreInfo;
    pExternalSemaphoreProperties->exportFromImportedHandleTypes = 0;
    pExternalSemaphoreProperties->compatibleHandleTypes = 0;
    pExternalSemaphoreProperties->externalSemaphoreFeatures = 0;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_GetPhysicalDeviceToolProperties(VkPhysicalDevice physicalDevice,
                                                                    uint32_t *pToolCount,
                                                                    VkPhysicalDeviceToolProperties *pToolProperties)
{
    (void)physicalDevice, (void)pToolProperties;
    *pToolCount = 0;
    return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_EnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice,
                                                                        const char *pLayerName,
                                                                        uint32_t *pPropertyCount,
                                                                        VkExtensionProperties *pProperties)
{
    VKMM_FROM_HANDLE(vkmm_physical_device, pd, physicalDevice);
    if (pLayerName)
        return vkmm_errorf(pd, VK_ERROR_LAYER_NOT_PRESENT, "vkmm provides no layer '%s'", pLayerName);
    return vkmm_fill_array(pProperties, pPropertyCount, vkmm_device_extensions,
                           vkmm_device_extension_count, sizeof(VkExtensionProperties));
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_EnumerateDeviceLayerProperties(VkPhysicalDevice physicalDevice,
                                                                    uint32_t *pPropertyCount,
                                                                    VkLayerProperties *pProperties)
{
    (void)physicalDevice, (void)pProperties;
    *pPropertyCount = 0;
    return VK_SUCCESS;
}
