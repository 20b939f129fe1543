/* Unit tests of runtime/descriptor_set_layout.c, descriptor_pool.c,
 * descriptor_set.c, descriptor_update_template.c and pipeline_layout.c: the
 * exact contents of struct vkmm_descriptor after writes, copies and
 * templates, pool accounting, and layout lifetimes.  The entry points are
 * called directly, without the loader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "buffer.h"
#include "descriptor_set.h"
#include "descriptor_set_layout.h"
#include "device.h"
#include "device_memory.h"
#include "pipeline_layout.h"
#include "vkmm_entrypoints.h"

#define MEMORY_SIZE 65536
#define BUFFER_A_SIZE 1024
#define BUFFER_B_SIZE 2048
#define BUFFER_B_OFFSET 4096

struct fixture {
    VkInstance instance;
    VkDevice device;
    VkDeviceMemory memory;
    VkBuffer a, b; /* a at memory offset 0, b at BUFFER_B_OFFSET */
};

static VkBuffer make_buffer(struct fixture *f, VkDeviceSize size, VkDeviceSize memory_offset)
{
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
    };
    VkBuffer buffer;
    assert_int_equal(vkmm_CreateBuffer(f->device, &info, NULL, &buffer), VK_SUCCESS);
    assert_int_equal(vkmm_BindBufferMemory(f->device, buffer, f->memory, memory_offset), VK_SUCCESS);
    return buffer;
}

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3 };
    VkInstanceCreateInfo instance_info = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app };
    assert_int_equal(vkmm_CreateInstance(&instance_info, NULL, &f->instance), VK_SUCCESS);
    uint32_t count = 1;
    VkPhysicalDevice physical_device;
    assert_int_equal(vkmm_EnumeratePhysicalDevices(f->instance, &count, &physical_device), VK_SUCCESS);
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = 0,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo device_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue,
    };
    assert_int_equal(vkmm_CreateDevice(physical_device, &device_info, NULL, &f->device), VK_SUCCESS);
    VkMemoryAllocateInfo memory_info = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = MEMORY_SIZE,
        .memoryTypeIndex = 0,
    };
    assert_int_equal(vkmm_AllocateMemory(f->device, &memory_info, NULL, &f->memory), VK_SUCCESS);
    f->a = make_buffer(f, BUFFER_A_SIZE, 0);
    f->b = make_buffer(f, BUFFER_B_SIZE, BUFFER_B_OFFSET);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    vkmm_DestroyBuffer(f->device, f->a, NULL);
    vkmm_DestroyBuffer(f->device, f->b, NULL);
    vkmm_FreeMemory(f->device, f->memory, NULL);
    vkmm_DestroyDevice(f->device, NULL);
    vkmm_DestroyInstance(f->instance, NULL);
    free(f);
    return 0;
}

static VkDescriptorSetLayout make_layout(struct fixture *f, const VkDescriptorSetLayoutBinding *bindings, uint32_t n)
{
    VkDescriptorSetLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = n,
        .pBindings = bindings,
    };
    VkDescriptorSetLayout layout;
    assert_int_equal(vkmm_CreateDescriptorSetLayout(f->device, &info, NULL, &layout), VK_SUCCESS);
    return layout;
}

/* A pool with `per_type` descriptors of each of the four buffer types. */
static VkDescriptorPool make_pool(struct fixture *f, uint32_t max_sets, uint32_t per_type)
{
    VkDescriptorPoolSize sizes[] = {
        { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, per_type },
        { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, per_type },
        { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, per_type },
        { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, per_type },
    };
    VkDescriptorPoolCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
        .maxSets = max_sets,
        .poolSizeCount = 4,
        .pPoolSizes = sizes,
    };
    VkDescriptorPool pool;
    assert_int_equal(vkmm_CreateDescriptorPool(f->device, &info, NULL, &pool), VK_SUCCESS);
    return pool;
}

static VkResult allocate(struct fixture *f, VkDescriptorPool pool, const VkDescriptorSetLayout *layouts, uint32_t n,
                         VkDescriptorSet *sets)
{
    VkDescriptorSetAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = pool,
        .descriptorSetCount = n,
        .pSetLayouts = layouts,
    };
    return vkmm_AllocateDescriptorSets(f->device, &info, sets);
}

static VkDescriptorSet allocate_one(struct fixture *f, VkDescriptorPool pool, VkDescriptorSetLayout layout)
{
    VkDescriptorSet set;
    assert_int_equal(allocate(f, pool, &layout, 1, &set), VK_SUCCESS);
    return set;
}

static void write_buffers(struct fixture *f, VkDescriptorSet set, uint32_t binding, uint32_t element,
                          VkDescriptorType type, const VkDescriptorBufferInfo *infos, uint32_t n)
{
    VkWriteDescriptorSet w = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = set,
        .dstBinding = binding,
        .dstArrayElement = element,
        .descriptorCount = n,
        .descriptorType = type,
        .pBufferInfo = infos,
    };
    vkmm_UpdateDescriptorSets(f->device, 1, &w, 0, NULL);
}

static void copy_sets(struct fixture *f, VkDescriptorSet src, uint32_t src_binding, uint32_t src_element,
                      VkDescriptorSet dst, uint32_t dst_binding, uint32_t dst_element, uint32_t n)
{
    VkCopyDescriptorSet c = {
        .sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET,
        .srcSet = src,
        .srcBinding = src_binding,
        .srcArrayElement = src_element,
        .dstSet = dst,
        .dstBinding = dst_binding,
        .dstArrayElement = dst_element,
        .descriptorCount = n,
    };
    vkmm_UpdateDescriptorSets(f->device, 0, NULL, 1, &c);
}

/* Element `element` of `binding` of `set`. */
static const struct vkmm_descriptor *descriptor(VkDescriptorSet set, uint32_t binding, uint32_t element)
{
    const struct vkmm_descriptor *d = vkmm_descriptor_set_binding(vkmm_descriptor_set_from_handle(set), binding);
    assert_non_null(d);
    return &d[element];
}

/* The descriptor must show bytes [offset, offset + range) of `buffer`. */
static void assert_descriptor(const struct vkmm_descriptor *d, VkBuffer _buffer, VkDeviceSize offset,
                              VkDeviceSize range)
{
    struct vkmm_buffer *buffer = vkmm_buffer_from_handle(_buffer);
    assert_ptr_equal(d->base, buffer->memory->bytes + buffer->memory_offset + offset);
    assert_int_equal(d->range, range);
    assert_ptr_equal(d->memory, buffer->memory);
    assert_int_equal(d->memory_offset, buffer->memory_offset + offset);
}

static void assert_null_descriptor(const struct vkmm_descriptor *d)
{
    assert_null(d->base);
    assert_int_equal(d->range, 0);
    assert_null(d->memory);
    assert_int_equal(d->memory_offset, 0);
}

static const VkShaderStageFlags CS = VK_SHADER_STAGE_COMPUTE_BIT;

static void test_descriptor_set_layout_sorts_and_lays_out_bindings(void **state)
{
    struct fixture *f = *state;
    VkDescriptorSetLayoutBinding bindings[] = {
        { 5, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, CS, NULL },
        { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, CS, NULL },
        { 3, VK_DESCRIPTOR_TYPE_SAMPLER, 0, CS, NULL },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 3, CS, NULL },
        { 4, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, CS, NULL },
    };
    VkDescriptorSetLayout handle = make_layout(f, bindings, 5);
    struct vkmm_descriptor_set_layout *layout = vkmm_descriptor_set_layout_from_handle(handle);
    assert_int_equal(layout->binding_count, 5);
    static const uint32_t numbers[] = { 0, 1, 3, 4, 5 };
    static const uint32_t firsts[] = { 0, 1, 4, 4, 5 };
    for (uint32_t i = 0; i < 5; i++) {
        assert_int_equal(layout->bindings[i].binding, numbers[i]);
        assert_int_equal(layout->bindings[i].first, firsts[i]);
    }
    assert_int_equal(layout->descriptor_count, 7);
    assert_int_equal(layout->dynamic_count, 4);
    assert_int_equal(vkmm_descriptor_set_layout_find(layout, 0)->dynamic_first, 0);
    assert_int_equal(vkmm_descriptor_set_layout_find(layout, 1)->dynamic_first, 1);
    assert_int_equal(vkmm_descriptor_set_layout_find(layout, 5)->count, 2);
    assert_int_equal(vkmm_descriptor_set_layout_find(layout, 3)->count, 0);
    assert_null(vkmm_descriptor_set_layout_find(layout, 2));
    assert_null(vkmm_descriptor_set_layout_find(layout, 6));
    assert_int_equal(layout->type_counts[VK_DESCRIPTOR_TYPE_STORAGE_BUFFER], 2);
    assert_int_equal(layout->type_counts[VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC], 3);
    assert_int_equal(layout->type_counts[VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC], 1);
    assert_int_equal(layout->type_counts[VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER], 1);
    assert_int_equal(layout->type_counts[VK_DESCRIPTOR_TYPE_SAMPLER], 0);
    vkmm_DestroyDescriptorSetLayout(f->device, handle, NULL);
}

static void test_descriptor_set_layout_support_limit(void **state)
{
    struct fixture *f = *state;
    VkDescriptorSetLayoutBinding bindings[] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1000, CS, NULL },
        { 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 24, CS, NULL },
    };
    VkDescriptorSetLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 2,
        .pBindings = bindings,
    };
    VkDescriptorSetVariableDescriptorCountLayoutSupport variable = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_LAYOUT_SUPPORT,
        .maxVariableDescriptorCount = 77,
    };
    VkDescriptorSetLayoutSupport support = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT,
                                             .pNext = &variable };
    vkmm_GetDescriptorSetLayoutSupport(f->device, &info, &support);
    assert_true(support.supported);
    assert_int_equal(variable.maxVariableDescriptorCount, 0);
    bindings[1].descriptorCount = 25;
    vkmm_GetDescriptorSetLayoutSupport(f->device, &info, &support);
    assert_false(support.supported);
}

static void test_descriptor_set_starts_null_and_single_writes(void **state)
{
    struct fixture *f = *state;
    VkDescriptorSetLayoutBinding bindings[] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, CS, NULL },
        { 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, CS, NULL },
    };
    VkDescriptorSetLayout layout = make_layout(f, bindings, 2);
    VkDescriptorPool pool = make_pool(f, 1, 4);
    VkDescriptorSet set = allocate_one(f, pool, layout);
    assert_null_descriptor(descriptor(set, 0, 0));
    assert_null_descriptor(descriptor(set, 1, 0));
    assert_null(vkmm_descriptor_set_binding(vkmm_descriptor_set_from_handle(set), 2));

    VkDescriptorBufferInfo a = { f->a, 64, 128 };
    write_buffers(f, set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &a, 1);
    VkDescriptorBufferInfo b = { f->b, 256, VK_WHOLE_SIZE };
    write_buffers(f, set, 1, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &b, 1);
    assert_descriptor(descriptor(set, 0, 0), f->a, 64, 128);
    assert_descriptor(descriptor(set, 1, 0), f->b, 256, BUFFER_B_SIZE - 256);
    assert_int_equal(descriptor(set, 1, 0)->memory_offset, BUFFER_B_OFFSET + 256);

    /* A null buffer makes a null descriptor again. */
    VkDescriptorBufferInfo none = { VK_NULL_HANDLE, 0, VK_WHOLE_SIZE };
    write_buffers(f, set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &none, 1);
    assert_null_descriptor(descriptor(set, 0, 0));
    vkmm_DestroyDescriptorPool(f->device, pool, NULL);
    vkmm_DestroyDescriptorSetLayout(f->device, layout, NULL);
}

static void test_descriptor_set_array_write_crosses_bindings(void **state)
{
    struct fixture *f = *state;
    /* Binding 1 has no descriptors and binding 2 does not exist: the spec
     * skips both; binding 5 has another type and must stay untouched. */
    VkDescriptorSetLayoutBinding bindings[] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, CS, NULL },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0, CS, NULL },
        { 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3, CS, NULL },
        { 5, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, CS, NULL },
    };
    VkDescriptorSetLayout layout = make_layout(f, bindings, 4);
    VkDescriptorPool pool = make_pool(f, 1, 8);
    VkDescriptorSet set = allocate_one(f, pool, layout);
    VkDescriptorBufferInfo infos[4] = {
        { f->a, 0, 16 },
        { f->a, 32, VK_WHOLE_SIZE },
        { f->b, 64, 512 },
        { f->b, 1024, VK_WHOLE_SIZE },
    };
    write_buffers(f, set, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, infos, 4);
    assert_null_descriptor(descriptor(set, 0, 0));
    assert_descriptor(descriptor(set, 0, 1), f->a, 0, 16);
    assert_descriptor(descriptor(set, 3, 0), f->a, 32, BUFFER_A_SIZE - 32);
    assert_descriptor(descriptor(set, 3, 1), f->b, 64, 512);
    assert_descriptor(descriptor(set, 3, 2), f->b, 1024, BUFFER_B_SIZE - 1024);
    assert_null_descriptor(descriptor(set, 5, 0));

    /* A write that would run into binding 5 (another type) is dropped
     * whole. */
    VkDescriptorBufferInfo more[2] = { { f->a, 0, 16 }, { f->a, 0, 16 } };
    write_buffers(f, set, 3, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, more, 2);
    assert_descriptor(descriptor(set, 3, 2), f->b, 1024, BUFFER_B_SIZE - 1024);
    assert_null_descriptor(descriptor(set, 5, 0));
    vkmm_DestroyDescriptorPool(f->device, pool, NULL);
    vkmm_DestroyDescriptorSetLayout(f->device, layout, NULL);
}

static void test_descriptor_set_dynamic_types(void **state)
{
    struct fixture *f = *state;
    VkDescriptorSetLayoutBinding bindings[] = {
        { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2, CS, NULL },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, CS, NULL },
    };
    VkDescriptorSetLayout layout = make_layout(f, bindings, 2);
    VkDescriptorPool pool = make_pool(f, 1, 4);
    VkDescriptorSet set = allocate_one(f, pool, layout);
    VkDescriptorBufferInfo uniform[2] = { { f->a, 0, 256 }, { f->b, 512, VK_WHOLE_SIZE } };
    write_buffers(f, set, 0, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, uniform, 2);
    VkDescriptorBufferInfo storage = { f->b, 16, VK_WHOLE_SIZE };
    write_buffers(f, set, 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, &storage, 1);
    assert_descriptor(descriptor(set, 0, 0), f->a, 0, 256);
    assert_descriptor(descriptor(set, 0, 1), f->b, 512, BUFFER_B_SIZE - 512);
    assert_descriptor(descriptor(set, 1, 0), f->b, 16, BUFFER_B_SIZE - 16);
    struct vkmm_descriptor_set_layout *l = vkmm_descriptor_set_layout_from_handle(layout);
    assert_int_equal(l->dynamic_count, 3);
    assert_int_equal(vkmm_descriptor_set_layout_find(l, 1)->dynamic_first, 2);
    vkmm_DestroyDescriptorPool(f->device, pool, NULL);
    vkmm_DestroyDescriptorSetLayout(f->device, layout, NULL);
}

static void test_descriptor_set_invalid_and_unsupported_writes_change_nothing(void **state)
{
    struct fixture *f = *state;
    VkDescriptorSetLayoutBinding bindings[] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, CS, NULL },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, CS, NULL },
    };
    VkDescriptorSetLayout layout = make_layout(f, bindings, 2);
    VkDescriptorPoolSize sizes[] = {
        { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 },
        { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1 },
    };
    VkDescriptorPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = 2,
        .pPoolSizes = sizes,
    };
    VkDescriptorPool pool;
    assert_int_equal(vkmm_CreateDescriptorPool(f->device, &pool_info, NULL, &pool), VK_SUCCESS);
    VkDescriptorSet set = allocate_one(f, pool, layout);
    VkDescriptorBufferInfo good = { f->a, 0, 64 };
    write_buffers(f, set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &good, 1);
    /* The second info runs past the end of the buffer: nothing is written. */
    VkDescriptorBufferInfo bad[2] = { { f->b, 0, 64 }, { f->a, 512, 1024 } };
    write_buffers(f, set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, bad, 2);
    assert_descriptor(descriptor(set, 0, 0), f->a, 0, 64);
    assert_null_descriptor(descriptor(set, 0, 1));
    /* Misaligned offset (minStorageBufferOffsetAlignment is 16). */
    VkDescriptorBufferInfo misaligned = { f->b, 8, 64 };
    write_buffers(f, set, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &misaligned, 1);
    assert_null_descriptor(descriptor(set, 0, 1));
    /* Image descriptors are not supported: the write is ignored. */
    VkDescriptorImageInfo image = { 0 };
    VkWriteDescriptorSet w = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = set,
        .dstBinding = 1,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
        .pImageInfo = &image,
    };
    vkmm_UpdateDescriptorSets(f->device, 1, &w, 0, NULL);
    assert_null_descriptor(descriptor(set, 1, 0));
    vkmm_DestroyDescriptorPool(f->device, pool, NULL);
    vkmm_DestroyDescriptorSetLayout(f->device, layout, NULL);
}

static void test_descriptor_set_copies(void **state)
{
    struct fixture *f = *state;
    VkDescriptorSetLayoutBinding bindings[] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3, CS, NULL },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3, CS, NULL },
    };
    VkDescriptorSetLayout layout = make_layout(f, bindings, 2);
    VkDescriptorPool pool = make_pool(f, 2, 12);
    VkDescriptorSetLayout layouts[2] = { layout, layout };
    VkDescriptorSet sets[2];
    assert_int_equal(allocate(f, pool, layouts, 2, sets), VK_SUCCESS);
    VkDescriptorBufferInfo infos[6];
    for (uint32_t i = 0; i < 6; i++)
        infos[i] = (VkDescriptorBufferInfo){ i % 2 ? f->b : f->a, 64 * i, 16 * (i + 1) };
    write_buffers(f, sets[0], 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, infos, 6);

    /* Between sets, crossing from binding 0 into binding 1 on both sides. */
    copy_sets(f, sets[0], 0, 1, sets[1], 0, 2, 3);
    assert_null_descriptor(descriptor(sets[1], 0, 0));
    assert_null_descriptor(descriptor(sets[1], 0, 1));
    assert_descriptor(descriptor(sets[1], 0, 2), f->b, 64, 32);
    assert_descriptor(descriptor(sets[1], 1, 0), f->a, 128, 48);
    assert_descriptor(descriptor(sets[1], 1, 1), f->b, 192, 64);
    assert_null_descriptor(descriptor(sets[1], 1, 2));

    /* Within one set, ranges apart. */
    copy_sets(f, sets[1], 0, 2, sets[1], 0, 0, 1);
    assert_descriptor(descriptor(sets[1], 0, 0), f->b, 64, 32);

    /* Within one set, overlapping (invalid usage, reported): vkmm copies as
     * if through a temporary.  Source elements 0..3 go to 2..5. */
    copy_sets(f, sets[0], 0, 0, sets[0], 0, 2, 4);
    assert_descriptor(descriptor(sets[0], 0, 0), f->a, 0, 16);
    assert_descriptor(descriptor(sets[0], 0, 1), f->b, 64, 32);
    assert_descriptor(descriptor(sets[0], 0, 2), f->a, 0, 16);
    assert_descriptor(descriptor(sets[0], 1, 0), f->b, 64, 32);
    assert_descriptor(descriptor(sets[0], 1, 1), f->a, 128, 48);
    assert_descriptor(descriptor(sets[0], 1, 2), f->b, 192, 64);

    /* Writes come before copies within one call. */
    VkDescriptorBufferInfo fresh = { f->b, 1024, 16 };
    VkWriteDescriptorSet w = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = sets[0],
        .dstBinding = 1,
        .dstArrayElement = 2,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .pBufferInfo = &fresh,
    };
    VkCopyDescriptorSet c = {
        .sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET,
        .srcSet = sets[0],
        .srcBinding = 1,
        .srcArrayElement = 2,
        .dstSet = sets[1],
        .dstBinding = 1,
        .dstArrayElement = 2,
        .descriptorCount = 1,
    };
    vkmm_UpdateDescriptorSets(f->device, 1, &w, 1, &c);
    assert_descriptor(descriptor(sets[1], 1, 2), f->b, 1024, 16);
    vkmm_DestroyDescriptorPool(f->device, pool, NULL);
    vkmm_DestroyDescriptorSetLayout(f->device, layout, NULL);
}

/* What an application might keep its template data in: buffer infos
 * interleaved with other fields. */
struct app_record {
    uint32_t tag;
    VkDescriptorBufferInfo info;
};

struct app_data {
    VkDescriptorBufferInfo uniform;
    struct app_record storage[3];
    VkDescriptorBufferInfo dynamic;
};

static void test_descriptor_update_template_matches_writes(void **state)
{
    struct fixture *f = *state;
    VkDescriptorSetLayoutBinding bindings[] = {
        { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, CS, NULL },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, CS, NULL },
        { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, CS, NULL },
        { 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, CS, NULL },
    };
    VkDescriptorSetLayout layout = make_layout(f, bindings, 4);
    VkDescriptorPool pool = make_pool(f, 2, 8);
    VkDescriptorSetLayout layouts[2] = { layout, layout };
    VkDescriptorSet sets[2];
    assert_int_equal(allocate(f, pool, layouts, 2, sets), VK_SUCCESS);

    struct app_data data = {
        .uniform = { f->a, 16, 64 },
        .storage = { { 1, { f->b, 0, 128 } }, { 2, { f->a, 256, VK_WHOLE_SIZE } }, { 3, { f->b, 512, 32 } } },
        .dynamic = { f->b, 1024, VK_WHOLE_SIZE },
    };
    VkDescriptorUpdateTemplateEntry entries[] = {
        { 0, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, offsetof(struct app_data, uniform), 0 },
        /* Three descriptors from binding 1 element 1: crosses into binding 2. */
        { 1, 1, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
          offsetof(struct app_data, storage) + offsetof(struct app_record, info), sizeof(struct app_record) },
        { 3, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, offsetof(struct app_data, dynamic),
          sizeof(VkDescriptorBufferInfo) },
    };
    VkDescriptorUpdateTemplateCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
        .descriptorUpdateEntryCount = 3,
        .pDescriptorUpdateEntries = entries,
        .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
        .descriptorSetLayout = layout,
    };
    VkDescriptorUpdateTemplate template;
    assert_int_equal(vkmm_CreateDescriptorUpdateTemplate(f->device, &info, NULL, &template), VK_SUCCESS);
    vkmm_UpdateDescriptorSetWithTemplate(f->device, sets[0], template, &data);

    assert_descriptor(descriptor(sets[0], 0, 0), f->a, 16, 64);
    assert_null_descriptor(descriptor(sets[0], 1, 0));
    assert_descriptor(descriptor(sets[0], 1, 1), f->b, 0, 128);
    assert_descriptor(descriptor(sets[0], 2, 0), f->a, 256, BUFFER_A_SIZE - 256);
    assert_descriptor(descriptor(sets[0], 2, 1), f->b, 512, 32);
    assert_descriptor(descriptor(sets[0], 3, 0), f->b, 1024, BUFFER_B_SIZE - 1024);

    /* The same update through vkUpdateDescriptorSets gives the same set. */
    VkDescriptorBufferInfo storage[3] = { data.storage[0].info, data.storage[1].info, data.storage[2].info };
    write_buffers(f, sets[1], 0, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &data.uniform, 1);
    write_buffers(f, sets[1], 1, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, storage, 3);
    write_buffers(f, sets[1], 3, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, &data.dynamic, 1);
    struct vkmm_descriptor_set *s0 = vkmm_descriptor_set_from_handle(sets[0]);
    struct vkmm_descriptor_set *s1 = vkmm_descriptor_set_from_handle(sets[1]);
    assert_int_equal(s0->descriptor_count, 6);
    assert_memory_equal(s0->descriptors, s1->descriptors, 6 * sizeof(struct vkmm_descriptor));

    vkmm_DestroyDescriptorUpdateTemplate(f->device, template, NULL);
    vkmm_DestroyDescriptorPool(f->device, pool, NULL);
    vkmm_DestroyDescriptorSetLayout(f->device, layout, NULL);
}

static void test_descriptor_pool_exhaustion(void **state)
{
    struct fixture *f = *state;
    VkDescriptorSetLayoutBinding binding = { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, CS, NULL };
    VkDescriptorSetLayout layout = make_layout(f, &binding, 1);

    /* maxSets runs out first. */
    VkDescriptorPool pool = make_pool(f, 2, 100);
    VkDescriptorSetLayout layouts[3] = { layout, layout, layout };
    VkDescriptorSet sets[3] = { 0 };
    assert_int_equal(allocate(f, pool, layouts, 2, sets), VK_SUCCESS);
    assert_int_equal(allocate(f, pool, layouts, 1, &sets[2]), VK_ERROR_OUT_OF_POOL_MEMORY);
    assert_ptr_equal(sets[2], VK_NULL_HANDLE);
    vkmm_DestroyDescriptorPool(f->device, pool, NULL);

    /* The storage buffer count runs out at the third set of one call: the
     * two made in the call are freed and every handle is null. */
    pool = make_pool(f, 10, 5);
    struct vkmm_descriptor_pool *p = vkmm_descriptor_pool_from_handle(pool);
    for (uint32_t i = 0; i < 3; i++)
        sets[i] = (VkDescriptorSet)(uintptr_t)0x1234;
    assert_int_equal(allocate(f, pool, layouts, 3, sets), VK_ERROR_OUT_OF_POOL_MEMORY);
    for (uint32_t i = 0; i < 3; i++)
        assert_ptr_equal(sets[i], VK_NULL_HANDLE);
    assert_int_equal(p->set_count, 0);
    assert_null(p->sets);
    assert_int_equal(p->remaining[VK_DESCRIPTOR_TYPE_STORAGE_BUFFER], 5);
    assert_int_equal(allocate(f, pool, layouts, 2, sets), VK_SUCCESS);
    assert_int_equal(p->remaining[VK_DESCRIPTOR_TYPE_STORAGE_BUFFER], 1);
    vkmm_DestroyDescriptorPool(f->device, pool, NULL);
    vkmm_DestroyDescriptorSetLayout(f->device, layout, NULL);
}

static void test_descriptor_pool_free_and_reset_restore_capacity(void **state)
{
    struct fixture *f = *state;
    VkDescriptorSetLayoutBinding bindings[] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, CS, NULL },
        { 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, CS, NULL },
    };
    VkDescriptorSetLayout layout = make_layout(f, bindings, 2);
    VkDescriptorPool pool = make_pool(f, 3, 6);
    struct vkmm_descriptor_pool *p = vkmm_descriptor_pool_from_handle(pool);
    VkDescriptorSetLayout layouts[3] = { layout, layout, layout };
    VkDescriptorSet sets[3];
    assert_int_equal(allocate(f, pool, layouts, 3, sets), VK_SUCCESS);
    assert_int_equal(p->remaining[VK_DESCRIPTOR_TYPE_STORAGE_BUFFER], 0);
    assert_int_equal(p->remaining[VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC], 3);
    assert_int_equal(allocate(f, pool, layouts, 1, &sets[0]), VK_ERROR_OUT_OF_POOL_MEMORY);

    /* Free the middle one (and a null handle, which is ignored). */
    VkDescriptorSet to_free[2] = { sets[1], VK_NULL_HANDLE };
    assert_int_equal(vkmm_FreeDescriptorSets(f->device, pool, 2, to_free), VK_SUCCESS);
    assert_int_equal(p->set_count, 2);
    assert_int_equal(p->remaining[VK_DESCRIPTOR_TYPE_STORAGE_BUFFER], 2);
    assert_int_equal(p->remaining[VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC], 4);
    assert_int_equal(allocate(f, pool, layouts, 1, &sets[1]), VK_SUCCESS);

    assert_int_equal(vkmm_ResetDescriptorPool(f->device, pool, 0), VK_SUCCESS);
    assert_int_equal(p->set_count, 0);
    assert_null(p->sets);
    assert_int_equal(p->remaining[VK_DESCRIPTOR_TYPE_STORAGE_BUFFER], 6);
    assert_int_equal(p->remaining[VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC], 6);
    assert_int_equal(allocate(f, pool, layouts, 3, sets), VK_SUCCESS);
    vkmm_DestroyDescriptorPool(f->device, pool, NULL);
    vkmm_DestroyDescriptorSetLayout(f->device, layout, NULL);
}

static void test_descriptor_set_layout_outlives_destroy(void **state)
{
    struct fixture *f = *state;
    VkDescriptorSetLayoutBinding bindings[] = {
        { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, CS, NULL },
        { 7, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2, CS, NULL },
    };
    VkDescriptorSetLayout layout = make_layout(f, bindings, 2);
    VkPipelineLayoutCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &layout,
    };
    VkPipelineLayout pipeline_layout;
    assert_int_equal(vkmm_CreatePipelineLayout(f->device, &pipeline_info, NULL, &pipeline_layout), VK_SUCCESS);
    VkDescriptorPool pool = make_pool(f, 1, 4);
    VkDescriptorSet set = allocate_one(f, pool, layout);
    VkDescriptorBufferInfo info = { f->b, 48, 80 };
    write_buffers(f, set, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &info, 1);
    struct vkmm_descriptor_set_layout *l = vkmm_descriptor_set_layout_from_handle(layout);
    assert_int_equal(atomic_load(&l->ref_count), 3);

    /* The application's reference goes; the set's and the pipeline
     * layout's keep it (ASan would catch a use after free). */
    vkmm_DestroyDescriptorSetLayout(f->device, layout, NULL);
    struct vkmm_descriptor_set *s = vkmm_descriptor_set_from_handle(set);
    assert_ptr_equal(s->layout, l);
    assert_int_equal(atomic_load(&l->ref_count), 2);
    assert_descriptor(descriptor(set, 2, 0), f->b, 48, 80);
    assert_null_descriptor(descriptor(set, 7, 1));
    assert_int_equal(vkmm_descriptor_set_layout_find(l, 7)->dynamic_first, 0);

    /* Freeing the pool drops the set's reference; the pipeline layout
     * still holds one. */
    vkmm_DestroyDescriptorPool(f->device, pool, NULL);
    struct vkmm_pipeline_layout *pl = vkmm_pipeline_layout_from_handle(pipeline_layout);
    assert_ptr_equal(pl->sets[0], l);
    assert_int_equal(atomic_load(&l->ref_count), 1);
    assert_int_equal(pl->sets[0]->descriptor_count, 3);
    /* A pipeline's reference keeps the pipeline layout, and through it the
     * set layout, after vkDestroyPipelineLayout. */
    vkmm_pipeline_layout_ref(pl);
    vkmm_DestroyPipelineLayout(f->device, pipeline_layout, NULL);
    assert_int_equal(pl->sets[0]->dynamic_count, 2);
    vkmm_pipeline_layout_unref(vkmm_device_from_handle(f->device), pl);
}

static void test_pipeline_layout_offsets_and_limits(void **state)
{
    struct fixture *f = *state;
    VkDescriptorSetLayoutBinding dynamic[] = {
        { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2, CS, NULL },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, CS, NULL },
        { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, CS, NULL },
    };
    VkDescriptorSetLayoutBinding plain = { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4, CS, NULL };
    VkDescriptorSetLayout a = make_layout(f, dynamic, 3);
    VkDescriptorSetLayout b = make_layout(f, &plain, 1);
    VkDescriptorSetLayout sets[9] = { a, b, VK_NULL_HANDLE, a, b, b, b, b, b };
    VkPushConstantRange ranges[] = { { CS, 16, 32 }, { CS, 0, 8 } };
    VkPipelineLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 4,
        .pSetLayouts = sets,
        .pushConstantRangeCount = 2,
        .pPushConstantRanges = ranges,
    };
    VkPipelineLayout handle;
    assert_int_equal(vkmm_CreatePipelineLayout(f->device, &info, NULL, &handle), VK_SUCCESS);
    struct vkmm_pipeline_layout *layout = vkmm_pipeline_layout_from_handle(handle);
    assert_int_equal(layout->set_count, 4);
    assert_null(layout->sets[2]);
    assert_int_equal(layout->dynamic_offset_start[0], 0);
    assert_int_equal(layout->dynamic_offset_start[1], 3);
    assert_int_equal(layout->dynamic_offset_start[2], 3);
    assert_int_equal(layout->dynamic_offset_start[3], 3);
    assert_int_equal(layout->dynamic_count, 6);
    assert_int_equal(layout->push_constant_size, 48);
    vkmm_DestroyPipelineLayout(f->device, handle, NULL);

    /* No push constants at all. */
    info.pushConstantRangeCount = 0;
    assert_int_equal(vkmm_CreatePipelineLayout(f->device, &info, NULL, &handle), VK_SUCCESS);
    assert_int_equal(vkmm_pipeline_layout_from_handle(handle)->push_constant_size, 0);
    vkmm_DestroyPipelineLayout(f->device, handle, NULL);

    /* Past the limits: nine sets, or push constants past 256 bytes. */
    info.setLayoutCount = 9;
    assert_int_not_equal(vkmm_CreatePipelineLayout(f->device, &info, NULL, &handle), VK_SUCCESS);
    info.setLayoutCount = 8;
    assert_int_equal(vkmm_CreatePipelineLayout(f->device, &info, NULL, &handle), VK_SUCCESS);
    vkmm_DestroyPipelineLayout(f->device, handle, NULL);
    VkPushConstantRange too_big = { CS, 128, 132 };
    info.pushConstantRangeCount = 1;
    info.pPushConstantRanges = &too_big;
    assert_int_not_equal(vkmm_CreatePipelineLayout(f->device, &info, NULL, &handle), VK_SUCCESS);
    too_big.size = 128;
    assert_int_equal(vkmm_CreatePipelineLayout(f->device, &info, NULL, &handle), VK_SUCCESS);
    assert_int_equal(vkmm_pipeline_layout_from_handle(handle)->push_constant_size, 256);
    vkmm_DestroyPipelineLayout(f->device, handle, NULL);

    assert_int_equal(atomic_load(&vkmm_descriptor_set_layout_from_handle(a)->ref_count), 1);
    vkmm_DestroyDescriptorSetLayout(f->device, a, NULL);
    vkmm_DestroyDescriptorSetLayout(f->device, b, NULL);
}

#define TEST(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        TEST(test_descriptor_set_layout_sorts_and_lays_out_bindings),
        TEST(test_descriptor_set_layout_support_limit),
        TEST(test_descriptor_set_starts_null_and_single_writes),
        TEST(test_descriptor_set_array_write_crosses_bindings),
        TEST(test_descriptor_set_dynamic_types),
        TEST(test_descriptor_set_invalid_and_unsupported_writes_change_nothing),
        TEST(test_descriptor_set_copies),
        TEST(test_descriptor_update_template_matches_writes),
        TEST(test_descriptor_pool_exhaustion),
        TEST(test_descriptor_pool_free_and_reset_restore_capacity),
        TEST(test_descriptor_set_layout_outlives_destroy),
        TEST(test_pipeline_layout_offsets_and_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
