/* Descriptor set layouts, pools, sets, updates (writes, copies, templates)
 * and pipeline layouts through the loader, with validation: every call is
 * valid Vulkan and succeeds, pools run out with VK_ERROR_OUT_OF_POOL_MEMORY,
 * and nothing is reported. */
#include <stddef.h>
#include <string.h>

#include "vkmm_test.h"

static const VkShaderStageFlags CS = VK_SHADER_STAGE_COMPUTE_BIT;

/* A buffer usable as uniform and storage buffer, with its own device-local
 * memory. */
struct test_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
};

static struct test_buffer buffer_create(struct vkmm_test *t, VkDeviceSize size)
{
    struct test_buffer b;
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VK_CHECK(vkCreateBuffer(t->device, &info, NULL, &b.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(t->device, b.buffer, &req);
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = vkmm_test_find_memory_type(t, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0),
    };
    assert_true(req.memoryTypeBits & (1u << alloc.memoryTypeIndex));
    VK_CHECK(vkAllocateMemory(t->device, &alloc, NULL, &b.memory));
    VK_CHECK(vkBindBufferMemory(t->device, b.buffer, b.memory, 0));
    return b;
}

static void buffer_destroy(struct vkmm_test *t, struct test_buffer *b)
{
    vkDestroyBuffer(t->device, b->buffer, NULL);
    vkFreeMemory(t->device, b->memory, NULL);
}

static VkDescriptorSetLayout layout_create(struct vkmm_test *t, const VkDescriptorSetLayoutBinding *bindings,
                                           uint32_t count)
{
    VkDescriptorSetLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = count,
        .pBindings = bindings,
    };
    VkDescriptorSetLayout layout;
    VK_CHECK(vkCreateDescriptorSetLayout(t->device, &info, NULL, &layout));
    return layout;
}

static VkDescriptorPool pool_create(struct vkmm_test *t, VkDescriptorPoolCreateFlags flags, uint32_t max_sets,
                                    uint32_t storage, uint32_t uniform)
{
    VkDescriptorPoolSize sizes[] = {
        { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, storage },
        { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, uniform },
        { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 8 },
        { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 8 },
    };
    VkDescriptorPoolCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .flags = flags,
        .maxSets = max_sets,
        .poolSizeCount = 4,
        .pPoolSizes = sizes,
    };
    VkDescriptorPool pool;
    VK_CHECK(vkCreateDescriptorPool(t->device, &info, NULL, &pool));
    return pool;
}

static VkResult sets_allocate(struct vkmm_test *t, VkDescriptorPool pool, const VkDescriptorSetLayout *layouts,
                              uint32_t count, VkDescriptorSet *sets)
{
    VkDescriptorSetAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = pool,
        .descriptorSetCount = count,
        .pSetLayouts = layouts,
    };
    return vkAllocateDescriptorSets(t->device, &info, sets);
}

static void test_descriptor_set_layout_create_and_support(void **state)
{
    struct vkmm_test *t = *state;
    /* Out of order, with a gap, an empty binding and a sampler binding
     * (layouts accept every core type). */
    VkDescriptorSetLayoutBinding bindings[] = {
        { 4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, CS, NULL },
        { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, CS, NULL },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 0, CS, NULL },
        { 2, VK_DESCRIPTOR_TYPE_SAMPLER, 1, CS, NULL },
    };
    VkDescriptorBindingFlags flags[4] = { 0 };
    VkDescriptorSetLayoutBindingFlagsCreateInfo binding_flags = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
        .bindingCount = 4,
        .pBindingFlags = flags,
    };
    VkDescriptorSetLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .pNext = &binding_flags,
        .bindingCount = 4,
        .pBindings = bindings,
    };
    VkDescriptorSetLayout layout;
    VK_CHECK(vkCreateDescriptorSetLayout(t->device, &info, NULL, &layout));
    vkDestroyDescriptorSetLayout(t->device, layout, NULL);
    vkDestroyDescriptorSetLayout(t->device, VK_NULL_HANDLE, NULL);

    /* An empty layout. */
    info.pNext = NULL;
    info.bindingCount = 0;
    VK_CHECK(vkCreateDescriptorSetLayout(t->device, &info, NULL, &layout));
    vkDestroyDescriptorSetLayout(t->device, layout, NULL);

    /* maxPerSetDescriptors (1024) decides support. */
    VkPhysicalDeviceMaintenance3Properties maintenance3 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES,
    };
    VkPhysicalDeviceProperties2 properties = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                               .pNext = &maintenance3 };
    vkGetPhysicalDeviceProperties2(t->physical_device, &properties);
    assert_int_equal(maintenance3.maxPerSetDescriptors, 1024);
    VkDescriptorSetLayoutBinding big = { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1024, CS, NULL };
    info.bindingCount = 1;
    info.pBindings = &big;
    VkDescriptorSetLayoutSupport support = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT };
    vkGetDescriptorSetLayoutSupport(t->device, &info, &support);
    assert_int_equal(support.supported, VK_TRUE);
    big.descriptorCount = 1025;
    vkGetDescriptorSetLayoutSupport(t->device, &info, &support);
    assert_int_equal(support.supported, VK_FALSE);
}

static void test_descriptor_pool_allocate_free_reset(void **state)
{
    struct vkmm_test *t = *state;
    VkDescriptorSetLayoutBinding bindings[] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, CS, NULL },
        { 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, CS, NULL },
    };
    VkDescriptorSetLayout layout = layout_create(t, bindings, 2);
    VkDescriptorSetLayout layouts[4] = { layout, layout, layout, layout };
    VkDescriptorSet sets[4];

    /* maxSets runs out. */
    VkDescriptorPool pool = pool_create(t, VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT, 3, 100, 100);
    VK_CHECK(sets_allocate(t, pool, layouts, 3, sets));
    VkDescriptorSet extra = (VkDescriptorSet)(uintptr_t)1;
    assert_int_equal(sets_allocate(t, pool, layouts, 1, &extra), VK_ERROR_OUT_OF_POOL_MEMORY);
    assert_true(extra == VK_NULL_HANDLE);
    /* Freeing returns the capacity. */
    VK_CHECK(vkFreeDescriptorSets(t->device, pool, 1, &sets[1]));
    VK_CHECK(sets_allocate(t, pool, layouts, 1, &sets[1]));
    VK_CHECK(vkFreeDescriptorSets(t->device, pool, 3, sets));
    VK_CHECK(sets_allocate(t, pool, layouts, 3, sets));
    vkDestroyDescriptorPool(t->device, pool, NULL);

    /* Storage buffers run out at the third set of one call: all handles
     * come back null, and the pool is as before the call. */
    pool = pool_create(t, 0, 10, 5, 10);
    for (uint32_t i = 0; i < 4; i++)
        sets[i] = (VkDescriptorSet)(uintptr_t)1;
    assert_int_equal(sets_allocate(t, pool, layouts, 3, sets), VK_ERROR_OUT_OF_POOL_MEMORY);
    for (uint32_t i = 0; i < 3; i++)
        assert_true(sets[i] == VK_NULL_HANDLE);
    VK_CHECK(sets_allocate(t, pool, layouts, 2, sets));
    /* Reset frees everything at once. */
    VK_CHECK(vkResetDescriptorPool(t->device, pool, 0));
    VK_CHECK(sets_allocate(t, pool, layouts, 2, sets));
    vkDestroyDescriptorPool(t->device, pool, NULL);
    vkDestroyDescriptorPool(t->device, VK_NULL_HANDLE, NULL);
    vkDestroyDescriptorSetLayout(t->device, layout, NULL);
}

struct template_data {
    VkDescriptorBufferInfo uniform;
    VkDescriptorBufferInfo storage[3];
    VkDescriptorBufferInfo dynamic_storage[2];
};

static void test_descriptor_set_writes_copies_templates(void **state)
{
    struct vkmm_test *t = *state;
    struct test_buffer a = buffer_create(t, 4096);
    struct test_buffer b = buffer_create(t, 1024);
    VkDescriptorSetLayoutBinding bindings[] = {
        { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, CS, NULL },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, CS, NULL },
        { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3, CS, NULL },
        { 3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, CS, NULL },
        { 4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2, CS, NULL },
    };
    VkDescriptorSetLayout layout = layout_create(t, bindings, 5);
    VkDescriptorPool pool = pool_create(t, 0, 3, 15, 3);
    VkDescriptorSetLayout layouts[3] = { layout, layout, layout };
    VkDescriptorSet sets[3];
    VK_CHECK(sets_allocate(t, pool, layouts, 3, sets));

    VkDescriptorBufferInfo uniform = { a.buffer, 256, 512 };
    VkDescriptorBufferInfo storage[5] = {
        { b.buffer, 0, 16 },
        { a.buffer, 0, VK_WHOLE_SIZE },
        { b.buffer, 64, 128 },
        { a.buffer, 1024, 2048 },
        { b.buffer, 512, VK_WHOLE_SIZE },
    };
    VkDescriptorBufferInfo dynamic_uniform = { b.buffer, 0, 256 };
    VkDescriptorBufferInfo dynamic_storage[2] = { { a.buffer, 0, 1024 }, { b.buffer, 0, VK_WHOLE_SIZE } };
    VkWriteDescriptorSet writes[] = {
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = sets[0], .dstBinding = 0,
          .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, .pBufferInfo = &uniform },
        /* Five descriptors from binding 1: crosses into binding 2. */
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = sets[0], .dstBinding = 1,
          .descriptorCount = 5, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = storage },
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = sets[0], .dstBinding = 3,
          .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
          .pBufferInfo = &dynamic_uniform },
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = sets[0], .dstBinding = 4,
          .descriptorCount = 2, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
          .pBufferInfo = dynamic_storage },
    };
    /* Copies after the writes in the same call: the whole set to sets[1],
     * crossing every binding, then within sets[1] without overlap. */
    VkCopyDescriptorSet copies[] = {
        { .sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, .srcSet = sets[0], .srcBinding = 1, .dstSet = sets[1],
          .dstBinding = 1, .descriptorCount = 5 },
        { .sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, .srcSet = sets[0], .srcBinding = 4, .dstSet = sets[1],
          .dstBinding = 4, .descriptorCount = 2 },
        { .sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, .srcSet = sets[1], .srcBinding = 1, .srcArrayElement = 1,
          .dstSet = sets[1], .dstBinding = 2, .dstArrayElement = 2, .descriptorCount = 1 },
    };
    vkUpdateDescriptorSets(t->device, 4, writes, 3, copies);

    /* Like writes, as a template over one application struct; the storage
     * entry starts at binding 1 element 1 and crosses into binding 2.  It
     * stops after two of binding 2's three descriptors: the validation
     * layer (1.3.239) decodes an entry that crosses bindings with the first
     * binding's descriptorCount (2) throughout, and would otherwise report
     * a write to binding 3. */
    struct template_data data = { uniform, { storage[1], storage[2], storage[3] },
                                  { dynamic_storage[0], dynamic_storage[1] } };
    VkDescriptorUpdateTemplateEntry entries[] = {
        { 0, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, offsetof(struct template_data, uniform), 0 },
        { 1, 1, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(struct template_data, storage),
          sizeof(VkDescriptorBufferInfo) },
        { 4, 0, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, offsetof(struct template_data, dynamic_storage),
          sizeof(VkDescriptorBufferInfo) },
    };
    VkDescriptorUpdateTemplateCreateInfo template_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
        .descriptorUpdateEntryCount = 3,
        .pDescriptorUpdateEntries = entries,
        .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
        .descriptorSetLayout = layout,
    };
    VkDescriptorUpdateTemplate template;
    VK_CHECK(vkCreateDescriptorUpdateTemplate(t->device, &template_info, NULL, &template));
    vkUpdateDescriptorSetWithTemplate(t->device, sets[2], template, &data);
    vkDestroyDescriptorUpdateTemplate(t->device, template, NULL);
    vkDestroyDescriptorUpdateTemplate(t->device, VK_NULL_HANDLE, NULL);

    /* The spec lets the layout go before the sets made with it. */
    vkDestroyDescriptorSetLayout(t->device, layout, NULL);
    vkDestroyDescriptorPool(t->device, pool, NULL);
    buffer_destroy(t, &a);
    buffer_destroy(t, &b);
}

static void test_pipeline_layout_sets_and_push_constants(void **state)
{
    struct vkmm_test *t = *state;
    VkDescriptorSetLayoutBinding dynamic[] = {
        { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, CS, NULL },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2, CS, NULL },
    };
    VkDescriptorSetLayoutBinding storage = { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4, CS, NULL };
    VkDescriptorSetLayout set_layouts[2] = { layout_create(t, dynamic, 2), layout_create(t, &storage, 1) };
    assert_true(t->properties.limits.maxPushConstantsSize >= 256);
    assert_true(t->properties.limits.maxBoundDescriptorSets >= 2);
    VkPushConstantRange ranges[] = { { CS, 0, 16 }, { CS, 64, 192 } };
    VkPipelineLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 2,
        .pSetLayouts = set_layouts,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &ranges[1],
    };
    VkPipelineLayout layouts[3];
    VK_CHECK(vkCreatePipelineLayout(t->device, &info, NULL, &layouts[0]));
    /* No sets, no push constants. */
    VkPipelineLayoutCreateInfo empty = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO };
    VK_CHECK(vkCreatePipelineLayout(t->device, &empty, NULL, &layouts[1]));
    /* Push constants only. */
    empty.pushConstantRangeCount = 1;
    empty.pPushConstantRanges = ranges;
    VK_CHECK(vkCreatePipelineLayout(t->device, &empty, NULL, &layouts[2]));
    /* Set layouts may go first. */
    vkDestroyDescriptorSetLayout(t->device, set_layouts[0], NULL);
    vkDestroyDescriptorSetLayout(t->device, set_layouts[1], NULL);
    for (uint32_t i = 0; i < 3; i++)
        vkDestroyPipelineLayout(t->device, layouts[i], NULL);
    vkDestroyPipelineLayout(t->device, VK_NULL_HANDLE, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_descriptor_set_layout_create_and_support, vkmm_test_setup,
                                        vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_descriptor_pool_allocate_free_reset, vkmm_test_setup,
                                        vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_descriptor_set_writes_copies_templates, vkmm_test_setup,
                                        vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_pipeline_layout_sets_and_push_constants, vkmm_test_setup,
                                        vkmm_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
