/* VkDeviceMemory: allocation of every type and its limits, mapping,
 * flush/invalidate of non-coherent memory around device copies, binding
 * several buffers into one allocation, memory requirements and device
 * addresses. */
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

enum {
    TYPE_DEVICE_LOCAL = 0,
    TYPE_HOST_COHERENT = 1,
    TYPE_HOST_CACHED = 2,
};

static VkDeviceMemory allocate(struct vkmm_test *t, VkDeviceSize size, uint32_t type, bool device_address)
{
    VkMemoryAllocateFlagsInfo flags = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
    };
    VkMemoryAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = device_address ? &flags : NULL,
        .allocationSize = size,
        .memoryTypeIndex = type,
    };
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VK_CHECK(vkAllocateMemory(t->device, &info, NULL, &memory));
    assert_non_null(memory);
    return memory;
}

static VkBuffer create_buffer(struct vkmm_test *t, VkDeviceSize size)
{
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                 VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VkBuffer buffer = VK_NULL_HANDLE;
    VK_CHECK(vkCreateBuffer(t->device, &info, NULL, &buffer));
    return buffer;
}

static VkDeviceSize align_up(VkDeviceSize value, VkDeviceSize alignment)
{
    return (value + alignment - 1) / alignment * alignment;
}

static VkMappedMemoryRange range(VkDeviceMemory memory, VkDeviceSize offset, VkDeviceSize size)
{
    return (VkMappedMemoryRange){
        .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
        .memory = memory,
        .offset = offset,
        .size = size,
    };
}

static VkDeviceAddress address_of(struct vkmm_test *t, VkBuffer buffer)
{
    VkBufferDeviceAddressInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
        .buffer = buffer,
    };
    return vkGetBufferDeviceAddress(t->device, &info);
}

static void test_allocate_every_type_and_map(void **state)
{
    struct vkmm_test *t = *state;
    const VkDeviceSize size = 3 * 4096 + 100;
    assert_int_equal(t->memory_properties.memoryTypeCount, 3);
    for (uint32_t type = 0; type < t->memory_properties.memoryTypeCount; type++) {
        VkDeviceMemory memory = allocate(t, size, type, false);
        if (!(t->memory_properties.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
            vkFreeMemory(t->device, memory, NULL);
            continue;
        }
        /* Whole mapping: the spec promises zero-initialised memory nowhere,
         * so write everything first. */
        uint8_t *bytes = NULL;
        VK_CHECK(vkMapMemory(t->device, memory, 0, VK_WHOLE_SIZE, 0, (void **)&bytes));
        assert_non_null(bytes);
        assert_int_equal((uintptr_t)bytes % t->properties.limits.minMemoryMapAlignment, 0);
        for (VkDeviceSize i = 0; i < size; i++)
            bytes[i] = (uint8_t)(i * 7 + type);
        if (type == TYPE_HOST_CACHED) {
            VkMappedMemoryRange whole = range(memory, 0, VK_WHOLE_SIZE);
            VK_CHECK(vkFlushMappedMemoryRanges(t->device, 1, &whole));
        }
        vkUnmapMemory(t->device, memory);

        /* A mapping at an offset sees the same bytes; (pData - offset) is
         * aligned to minMemoryMapAlignment. */
        const VkDeviceSize offset = 4096 + 256;
        uint8_t *part = NULL;
        VK_CHECK(vkMapMemory(t->device, memory, offset, 512, 0, (void **)&part));
        assert_int_equal(((uintptr_t)part - offset) % t->properties.limits.minMemoryMapAlignment, 0);
        for (VkDeviceSize i = 0; i < 512; i++)
            assert_int_equal(part[i], (uint8_t)((offset + i) * 7 + type));
        part[0] = 0xEE;
        part[511] = 0xDD;
        if (type == TYPE_HOST_CACHED) {
            VkMappedMemoryRange mapped = range(memory, offset, 512);
            VK_CHECK(vkFlushMappedMemoryRanges(t->device, 1, &mapped));
        }
        vkUnmapMemory(t->device, memory);

        /* VK_WHOLE_SIZE from an offset reaches the end of the allocation. */
        VK_CHECK(vkMapMemory(t->device, memory, offset, VK_WHOLE_SIZE, 0, (void **)&part));
        assert_int_equal(part[0], 0xEE);
        assert_int_equal(part[511], 0xDD);
        assert_int_equal(part[512], (uint8_t)((offset + 512) * 7 + type));
        assert_int_equal(part[size - offset - 1], (uint8_t)((size - 1) * 7 + type));
        vkUnmapMemory(t->device, memory);
        vkFreeMemory(t->device, memory, NULL);
    }
    /* Freeing VK_NULL_HANDLE does nothing. */
    vkFreeMemory(t->device, VK_NULL_HANDLE, NULL);
}

/* Freeing memory that is still mapped unmaps it implicitly. */
static void test_free_while_mapped(void **state)
{
    struct vkmm_test *t = *state;
    VkDeviceMemory memory = allocate(t, 4096, TYPE_HOST_COHERENT, false);
    void *p = NULL;
    VK_CHECK(vkMapMemory(t->device, memory, 0, VK_WHOLE_SIZE, 0, &p));
    memset(p, 1, 4096);
    vkFreeMemory(t->device, memory, NULL);
}

static void test_map_device_local_fails(void **state)
{
    (void)state;
    const struct vkmm_test_options options = { .no_validation = true };
    struct vkmm_test *t = vkmm_test_create(&options);
    VkDeviceMemory memory = allocate(t, 4096, TYPE_DEVICE_LOCAL, false);
    void *p = (void *)(uintptr_t)0x1;
    uint32_t before = t->driver_errors;
    t->expected_errors++;
    assert_int_equal(vkMapMemory(t->device, memory, 0, VK_WHOLE_SIZE, 0, &p), VK_ERROR_MEMORY_MAP_FAILED);
    assert_int_equal(t->driver_errors, before + 1);
    assert_string_equal(t->last_message_id, "VK_ERROR_MEMORY_MAP_FAILED");
    vkFreeMemory(t->device, memory, NULL);
    vkmm_test_destroy(t);
}

static void test_flush_invalidate_ranges(void **state)
{
    struct vkmm_test *t = *state;
    const VkDeviceSize atom = t->properties.limits.nonCoherentAtomSize;
    assert_int_equal(atom, 256);
    const VkDeviceSize size = 8 * atom + 100; /* the end is not atom-aligned */
    VkDeviceMemory memory = allocate(t, size, TYPE_HOST_CACHED, false);
    void *p = NULL;
    VK_CHECK(vkMapMemory(t->device, memory, 0, VK_WHOLE_SIZE, 0, &p));
    VkMappedMemoryRange ranges[] = {
        range(memory, 0, atom),
        range(memory, atom, 3 * atom),
        range(memory, 4 * atom, VK_WHOLE_SIZE),
        range(memory, 8 * atom, size - 8 * atom), /* offset + size == allocation size */
        range(memory, 0, VK_WHOLE_SIZE),
    };
    const uint32_t n = sizeof(ranges) / sizeof(ranges[0]);
    VK_CHECK(vkFlushMappedMemoryRanges(t->device, n, ranges));
    VK_CHECK(vkInvalidateMappedMemoryRanges(t->device, n, ranges));
    for (uint32_t i = 0; i < n; i++) {
        VK_CHECK(vkFlushMappedMemoryRanges(t->device, 1, &ranges[i]));
        VK_CHECK(vkInvalidateMappedMemoryRanges(t->device, 1, &ranges[i]));
    }
    vkUnmapMemory(t->device, memory);

    /* Mapped from an atom-aligned offset: VK_WHOLE_SIZE means the rest of
     * the mapping. */
    VK_CHECK(vkMapMemory(t->device, memory, 2 * atom, VK_WHOLE_SIZE, 0, &p));
    VkMappedMemoryRange rest = range(memory, 2 * atom, VK_WHOLE_SIZE);
    VkMappedMemoryRange inside = range(memory, 3 * atom, 2 * atom);
    VK_CHECK(vkFlushMappedMemoryRanges(t->device, 1, &rest));
    VK_CHECK(vkInvalidateMappedMemoryRanges(t->device, 1, &inside));
    vkUnmapMemory(t->device, memory);
    vkFreeMemory(t->device, memory, NULL);
}

/* vkmm checks ranges itself: a misaligned one gets its message. */
static void test_misaligned_flush_is_reported(void **state)
{
    (void)state;
    const struct vkmm_test_options options = { .no_validation = true };
    struct vkmm_test *t = vkmm_test_create(&options);
    VkDeviceMemory memory = allocate(t, 8192, TYPE_HOST_CACHED, false);
    void *p = NULL;
    /* Mapped: [1024, 5120) of 8192 bytes. */
    VK_CHECK(vkMapMemory(t->device, memory, 1024, 4096, 0, &p));
    VkMappedMemoryRange bad[] = {
        range(memory, 1124, 256),             /* offset not a multiple of the atom */
        range(memory, 1280, 100),             /* size neither a multiple nor to the end */
        range(memory, 1024, 8192),            /* beyond the mapping */
        range(memory, 0, 2048),               /* starts before the mapping */
        range(memory, 5120, VK_WHOLE_SIZE),   /* VK_WHOLE_SIZE from the mapping's end */
        range(memory, 6144, VK_WHOLE_SIZE),   /* VK_WHOLE_SIZE from beyond it */
        range(memory, 1280, ~0ull - 1023),    /* offset + size wraps around */
        range(memory, 512, VK_WHOLE_SIZE),    /* VK_WHOLE_SIZE from before it */
    };
    for (uint32_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        uint32_t before = t->driver_errors;
        t->expected_errors++;
        vkFlushMappedMemoryRanges(t->device, 1, &bad[i]);
        if (t->driver_errors != before + 1)
            fail_msg("range %u (offset %llu size %llu) was not reported", i, (unsigned long long)bad[i].offset,
                     (unsigned long long)bad[i].size);
        assert_string_equal(t->last_message_id, "VKMM-INVALID-MAPPED-RANGE");
    }
    /* The valid ones around them are not reported. */
    VkMappedMemoryRange good[] = {
        range(memory, 1024, VK_WHOLE_SIZE),
        range(memory, 4864, VK_WHOLE_SIZE), /* the mapping's last atom */
        range(memory, 1024, 4096),
        range(memory, 4864, 256),
    };
    uint32_t before = t->driver_errors;
    VK_CHECK(vkFlushMappedMemoryRanges(t->device, 4, good));
    VK_CHECK(vkInvalidateMappedMemoryRanges(t->device, 4, good));
    assert_int_equal(t->driver_errors, before);
    vkUnmapMemory(t->device, memory);
    vkFreeMemory(t->device, memory, NULL);
    vkmm_test_destroy(t);
}

/* Host writes to non-coherent memory reach a device copy after a flush,
 * and the copy's writes reach the host after an invalidate. */
static void test_non_coherent_round_trip_through_copies(void **state)
{
    struct vkmm_test *t = *state;
    const VkDeviceSize size = 64 * 1024;
    struct vkmm_test_buffer upload = vkmm_test_buffer_create(t, size, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                          VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    struct vkmm_test_buffer device = vkmm_test_buffer_create(t, size, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer readback = vkmm_test_buffer_create(t, size, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                            VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    assert_int_equal(upload.memory_type, TYPE_HOST_CACHED);
    assert_int_equal(readback.memory_type, TYPE_HOST_CACHED);
    uint32_t *in = upload.mapped;
    for (uint32_t i = 0; i < size / 4; i++)
        in[i] = i ^ 0x5A5A0000u;
    VkMappedMemoryRange flush = range(upload.memory, 0, VK_WHOLE_SIZE);
    VK_CHECK(vkFlushMappedMemoryRanges(t->device, 1, &flush));

    VkCommandBuffer cmd = vkmm_test_begin(t);
    VkBufferCopy whole = { .size = size };
    vkCmdCopyBuffer(cmd, upload.buffer, device.buffer, 1, &whole);
    vkmm_test_full_barrier(cmd);
    vkCmdCopyBuffer(cmd, device.buffer, readback.buffer, 1, &whole);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    VkMappedMemoryRange invalidate = range(readback.memory, 0, VK_WHOLE_SIZE);
    VK_CHECK(vkInvalidateMappedMemoryRanges(t->device, 1, &invalidate));
    const uint32_t *out = readback.mapped;
    for (uint32_t i = 0; i < size / 4; i++)
        assert_int_equal(out[i], i ^ 0x5A5A0000u);

    /* Again on another queue, with partial atom-aligned ranges. */
    for (uint32_t i = 0; i < 256 / 4; i++)
        in[1024 + i] = 0xC0DE0000u + i;
    VkMappedMemoryRange part = range(upload.memory, 4096, 256);
    VK_CHECK(vkFlushMappedMemoryRanges(t->device, 1, &part));
    cmd = vkmm_test_begin(t);
    VkBufferCopy piece = { .srcOffset = 4096, .dstOffset = 8192, .size = 256 };
    vkCmdCopyBuffer(cmd, upload.buffer, readback.buffer, 1, &piece);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[1], cmd);
    VkMappedMemoryRange part_out = range(readback.memory, 8192, 256);
    VK_CHECK(vkInvalidateMappedMemoryRanges(t->device, 1, &part_out));
    for (uint32_t i = 0; i < 256 / 4; i++)
        assert_int_equal(out[2048 + i], 0xC0DE0000u + i);
    assert_int_equal(out[2047], 2047u ^ 0x5A5A0000u);
    assert_int_equal(out[2048 + 64], (2048u + 64) ^ 0x5A5A0000u);

    vkmm_test_buffer_destroy(t, &upload);
    vkmm_test_buffer_destroy(t, &device);
    vkmm_test_buffer_destroy(t, &readback);
}

/* vkGetDeviceMemoryCommitment is only valid for LAZILY_ALLOCATED types,
 * which vkmm has none of; without validation vkmm answers the whole size. */
static void test_memory_commitment(void **state)
{
    (void)state;
    const struct vkmm_test_options options = { .no_validation = true };
    struct vkmm_test *t = vkmm_test_create(&options);
    for (uint32_t type = 0; type < 3; type++) {
        assert_int_equal(t->memory_properties.memoryTypes[type].propertyFlags &
                             VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT,
                         0);
        VkDeviceMemory memory = allocate(t, 12345, type, false);
        VkDeviceSize committed = 0;
        vkGetDeviceMemoryCommitment(t->device, memory, &committed);
        assert_int_equal(committed, 12345);
        vkFreeMemory(t->device, memory, NULL);
    }
    vkmm_test_destroy(t);
}

/* Valid usage throughout: the whole heap in one allocation (pages are only
 * reserved, never touched), then nothing more fits. */
static void test_heap_exhaustion(void **state)
{
    struct vkmm_test *t = *state;
    uint32_t heap = t->memory_properties.memoryTypes[TYPE_DEVICE_LOCAL].heapIndex;
    VkDeviceSize heap_size = t->memory_properties.memoryHeaps[heap].size;
    VkDeviceMemory all = allocate(t, heap_size, TYPE_DEVICE_LOCAL, false);
    VkMemoryAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = 4096,
        .memoryTypeIndex = TYPE_DEVICE_LOCAL,
    };
    VkDeviceMemory more = VK_NULL_HANDLE;
    uint32_t before = t->driver_errors;
    t->expected_errors++;
    assert_int_equal(vkAllocateMemory(t->device, &info, NULL, &more), VK_ERROR_OUT_OF_DEVICE_MEMORY);
    assert_int_equal(t->driver_errors, before + 1);
    assert_string_equal(t->last_message_id, "VK_ERROR_OUT_OF_DEVICE_MEMORY");
    vkFreeMemory(t->device, all, NULL);
    /* Freed memory is available again. */
    VK_CHECK(vkAllocateMemory(t->device, &info, NULL, &more));
    vkFreeMemory(t->device, more, NULL);
}

/* Larger than the heap in one request: invalid usage
 * (VUID-vkAllocateMemory-pAllocateInfo-01713), so without validation. */
static void test_allocation_larger_than_heap(void **state)
{
    (void)state;
    const struct vkmm_test_options options = { .no_validation = true };
    struct vkmm_test *t = vkmm_test_create(&options);
    for (uint32_t type = 0; type < 3; type++) {
        uint32_t heap = t->memory_properties.memoryTypes[type].heapIndex;
        VkMemoryAllocateInfo info = {
            .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
            .allocationSize = t->memory_properties.memoryHeaps[heap].size + 4096,
            .memoryTypeIndex = type,
        };
        VkDeviceMemory memory = VK_NULL_HANDLE;
        uint32_t before = t->driver_errors;
        t->expected_errors++;
        assert_int_equal(vkAllocateMemory(t->device, &info, NULL, &memory), VK_ERROR_OUT_OF_DEVICE_MEMORY);
        assert_int_equal(t->driver_errors, before + 1);
    }
    vkmm_test_destroy(t);
}

/* maxMemoryAllocationCount is enforced.  Going past it is invalid usage
 * (VUID-vkAllocateMemory-maxMemoryAllocationCount-04101), so without
 * validation (which would also make 4096 allocations slow). */
static void test_max_memory_allocation_count(void **state)
{
    (void)state;
    const struct vkmm_test_options options = { .no_validation = true };
    struct vkmm_test *t = vkmm_test_create(&options);
    const uint32_t limit = t->properties.limits.maxMemoryAllocationCount;
    assert_int_equal(limit, 4096);
    VkDeviceMemory *memories = calloc(limit, sizeof(*memories));
    assert_non_null(memories);
    VkMemoryAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = 64,
    };
    for (uint32_t i = 0; i < limit; i++) {
        info.memoryTypeIndex = i % 3;
        VkResult result = vkAllocateMemory(t->device, &info, NULL, &memories[i]);
        if (result != VK_SUCCESS)
            fail_msg("allocation %u of %u returned %d", i, limit, result);
    }
    VkDeviceMemory extra = VK_NULL_HANDLE;
    uint32_t before = t->driver_errors;
    t->expected_errors += 3;
    for (uint32_t type = 0; type < 3; type++) {
        info.memoryTypeIndex = type;
        assert_int_equal(vkAllocateMemory(t->device, &info, NULL, &extra), VK_ERROR_TOO_MANY_OBJECTS);
    }
    assert_int_equal(t->driver_errors, before + 3);
    assert_string_equal(t->last_message_id, "VK_ERROR_TOO_MANY_OBJECTS");

    /* One freed: one more fits, and then again none. */
    vkFreeMemory(t->device, memories[17], NULL);
    VK_CHECK(vkAllocateMemory(t->device, &info, NULL, &memories[17]));
    t->expected_errors++;
    assert_int_equal(vkAllocateMemory(t->device, &info, NULL, &extra), VK_ERROR_TOO_MANY_OBJECTS);

    for (uint32_t i = 0; i < limit; i++)
        vkFreeMemory(t->device, memories[i], NULL);
    /* All of them are available again. */
    VK_CHECK(vkAllocateMemory(t->device, &info, NULL, &extra));
    vkFreeMemory(t->device, extra, NULL);
    free(memories);
    vkmm_test_destroy(t);
}

static void test_memory_requirements(void **state)
{
    struct vkmm_test *t = *state;
    static const VkDeviceSize sizes[] = { 1, 3, 4, 100, 4096, 65537 };
    VkMemoryRequirements first = { 0 };
    VkDeviceSize previous_size = 0;
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        VkBuffer buffer = create_buffer(t, sizes[i]);
        VkMemoryRequirements req;
        memset(&req, 0xA5, sizeof(req));
        vkGetBufferMemoryRequirements(t->device, buffer, &req);
        assert_true(req.size >= sizes[i]);
        assert_true(req.alignment > 0 && (req.alignment & (req.alignment - 1)) == 0);
        assert_int_equal(req.memoryTypeBits & ~7u, 0);
        /* "must contain at least one bit ... HOST_VISIBLE and HOST_COHERENT" */
        assert_true(req.memoryTypeBits & (1u << TYPE_HOST_COHERENT));
        assert_int_equal(req.memoryTypeBits, 7u);
        /* Same usage and flags: same alignment and memoryTypeBits, and the
         * size does not shrink for a larger buffer. */
        if (i == 0)
            first = req;
        assert_true(req.alignment == first.alignment);
        assert_int_equal(req.memoryTypeBits, first.memoryTypeBits);
        assert_true(req.size >= previous_size);
        previous_size = req.size;

        VkMemoryDedicatedRequirements dedicated = {
            .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS,
            .prefersDedicatedAllocation = 7,
            .requiresDedicatedAllocation = 7,
        };
        VkMemoryRequirements2 req2 = {
            .sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2,
            .pNext = &dedicated,
        };
        VkBufferMemoryRequirementsInfo2 info2 = {
            .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2,
            .buffer = buffer,
        };
        vkGetBufferMemoryRequirements2(t->device, &info2, &req2);
        assert_true(req2.memoryRequirements.size == req.size);
        assert_true(req2.memoryRequirements.alignment == req.alignment);
        assert_int_equal(req2.memoryRequirements.memoryTypeBits, req.memoryTypeBits);
        assert_int_equal(dedicated.prefersDedicatedAllocation, VK_FALSE);
        assert_int_equal(dedicated.requiresDedicatedAllocation, VK_FALSE);

        /* vkGetDeviceBufferMemoryRequirements: the same, without a buffer. */
        VkBufferCreateInfo create_info = {
            .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
            .size = sizes[i],
            .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                     VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
            .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        };
        VkDeviceBufferMemoryRequirements device_info = {
            .sType = VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS,
            .pCreateInfo = &create_info,
        };
        VkMemoryDedicatedRequirements dedicated3 = {
            .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS,
            .prefersDedicatedAllocation = 7,
            .requiresDedicatedAllocation = 7,
        };
        VkMemoryRequirements2 req3 = {
            .sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2,
            .pNext = &dedicated3,
        };
        vkGetDeviceBufferMemoryRequirements(t->device, &device_info, &req3);
        assert_true(req3.memoryRequirements.size == req.size);
        assert_true(req3.memoryRequirements.alignment == req.alignment);
        assert_int_equal(req3.memoryRequirements.memoryTypeBits, req.memoryTypeBits);
        assert_int_equal(dedicated3.prefersDedicatedAllocation, VK_FALSE);
        assert_int_equal(dedicated3.requiresDedicatedAllocation, VK_FALSE);
        vkDestroyBuffer(t->device, buffer, NULL);
    }
}

/* Four buffers in one allocation at aligned offsets, two bound with
 * vkBindBufferMemory and two in one vkBindBufferMemory2 call; copies give
 * each its own data, and the mapping shows every buffer at its offset. */
static void test_bind_several_buffers_in_one_allocation(void **state)
{
    struct vkmm_test *t = *state;
    enum { N = 4 };
    const VkDeviceSize size = 1000;
    VkBuffer buffers[N];
    VkDeviceSize offsets[N];
    VkDeviceSize end = 0;
    for (uint32_t i = 0; i < N; i++) {
        buffers[i] = create_buffer(t, size);
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(t->device, buffers[i], &req);
        assert_true(req.memoryTypeBits & (1u << TYPE_HOST_COHERENT));
        offsets[i] = align_up(end, req.alignment);
        end = offsets[i] + req.size;
    }
    VkDeviceMemory memory = allocate(t, end, TYPE_HOST_COHERENT, true);
    uint8_t *bytes = NULL;
    VK_CHECK(vkMapMemory(t->device, memory, 0, VK_WHOLE_SIZE, 0, (void **)&bytes));
    memset(bytes, 0, end);

    VK_CHECK(vkBindBufferMemory(t->device, buffers[0], memory, offsets[0]));
    VK_CHECK(vkBindBufferMemory(t->device, buffers[1], memory, offsets[1]));
    VkBindBufferMemoryInfo binds[2];
    for (uint32_t i = 0; i < 2; i++) {
        binds[i] = (VkBindBufferMemoryInfo){
            .sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO,
            .buffer = buffers[2 + i],
            .memory = memory,
            .memoryOffset = offsets[2 + i],
        };
    }
    VK_CHECK(vkBindBufferMemory2(t->device, 2, binds));

    struct vkmm_test_buffer staging = vkmm_test_buffer_create(t, N * size, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                               VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    uint8_t *src = staging.mapped;
    for (uint32_t i = 0; i < N; i++) {
        for (VkDeviceSize b = 0; b < size; b++)
            src[i * size + b] = (uint8_t)(0x10 * (i + 1) + b % 13);
    }
    VkCommandBuffer cmd = vkmm_test_begin(t);
    for (uint32_t i = 0; i < N; i++) {
        VkBufferCopy region = { .srcOffset = i * size, .dstOffset = 0, .size = size };
        vkCmdCopyBuffer(cmd, staging.buffer, buffers[i], 1, &region);
    }
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    for (uint32_t i = 0; i < N; i++) {
        for (VkDeviceSize b = 0; b < size; b++) {
            uint8_t expected = (uint8_t)(0x10 * (i + 1) + b % 13);
            if (bytes[offsets[i] + b] != expected)
                fail_msg("buffer %u byte %llu at memory offset %llu: 0x%x, expected 0x%x", i,
                         (unsigned long long)b, (unsigned long long)(offsets[i] + b), bytes[offsets[i] + b],
                         expected);
        }
        /* Padding after each buffer stays untouched. */
        VkDeviceSize next = i + 1 < N ? offsets[i + 1] : end;
        for (VkDeviceSize b = offsets[i] + size; b < next; b++)
            assert_int_equal(bytes[b], 0);
    }

    /* Device addresses of buffers in one allocation differ by their offsets. */
    VkDeviceAddress base = address_of(t, buffers[0]);
    assert_true(base != 0);
    for (uint32_t i = 1; i < N; i++)
        assert_true(address_of(t, buffers[i]) - base == offsets[i] - offsets[0]);

    vkUnmapMemory(t->device, memory);
    vkmm_test_buffer_destroy(t, &staging);
    for (uint32_t i = 0; i < N; i++)
        vkDestroyBuffer(t->device, buffers[i], NULL);
    vkFreeMemory(t->device, memory, NULL);
}

static void test_buffer_device_addresses(void **state)
{
    struct vkmm_test *t = *state;
    const VkDeviceSize size = 64 * 1024;
    struct vkmm_test_buffer a = vkmm_test_buffer_create(t, size, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, size, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    VkDeviceAddress address_a = address_of(t, a.buffer), address_b = address_of(t, b.buffer);
    assert_true(address_a != 0 && address_b != 0);
    /* Stable. */
    assert_true(address_of(t, a.buffer) == address_a);
    /* Separate allocations do not overlap. */
    assert_true(address_a + size <= address_b || address_b + size <= address_a);
    /* 64-bit: vkmm's device addresses are host addresses of its reserved
     * address space, far above 4 GiB, so a truncation to 32 bits anywhere
     * on the way shows. */
    assert_true((address_a >> 32) != 0 && (address_b >> 32) != 0);

    /* The memory's opaque capture address: vkmm gives the allocation's
     * device address, which the buffer at offset 0 shares. */
    VkDeviceMemoryOpaqueCaptureAddressInfo capture = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_MEMORY_OPAQUE_CAPTURE_ADDRESS_INFO,
        .memory = a.memory,
    };
    uint64_t opaque_a = vkGetDeviceMemoryOpaqueCaptureAddress(t->device, &capture);
    capture.memory = b.memory;
    uint64_t opaque_b = vkGetDeviceMemoryOpaqueCaptureAddress(t->device, &capture);
    assert_true(opaque_a == address_a);
    assert_true(opaque_b == address_b);

    /* bufferDeviceAddressCaptureReplay is not supported: the buffer's
     * opaque capture address is 0. */
    VkBufferDeviceAddressInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
        .buffer = a.buffer,
    };
    assert_true(vkGetBufferOpaqueCaptureAddress(t->device, &info) == 0);
    vkmm_test_buffer_destroy(t, &a);
    vkmm_test_buffer_destroy(t, &b);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, vkmm_test_setup, vkmm_test_teardown)
    const struct CMUnitTest tests[] = {
        T(test_allocate_every_type_and_map),
        T(test_free_while_mapped),
        cmocka_unit_test(test_map_device_local_fails),
        T(test_flush_invalidate_ranges),
        cmocka_unit_test(test_misaligned_flush_is_reported),
        T(test_non_coherent_round_trip_through_copies),
        cmocka_unit_test(test_memory_commitment),
        T(test_heap_exhaustion),
        cmocka_unit_test(test_allocation_larger_than_heap),
        cmocka_unit_test(test_max_memory_allocation_count),
        T(test_memory_requirements),
        T(test_bind_several_buffers_in_one_allocation),
        T(test_buffer_device_addresses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
