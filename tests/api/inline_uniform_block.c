/* Inline uniform blocks (Vulkan 1.3, inlineUniformBlock): bytes kept in the
 * descriptor set, written with VkWriteDescriptorSetInlineUniformBlock (byte
 * offset in dstArrayElement, byte count in descriptorCount), copied between
 * sets, written by update templates, counted in bytes by pools, and read by
 * shaders as uniform buffers.  Shader: tests/shaders/inline_uniform_block.comp
 * (result[i] = first.words[i / 4][i % 4] + second.bias[i % 4]). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

enum { FIRST_BYTES = 64, SECOND_BYTES = 16, RESULTS = 16 };

static const VkMemoryPropertyFlags host_coherent =
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

struct rig {
    struct vkmm_test *t;
    struct vkmm_test_buffer out;
    VkShaderModule module;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkDescriptorSet sets[2];
};

/* The harness enables every feature the device reports, inlineUniformBlock
 * among them. */
static struct vkmm_test *create_test(bool validation)
{
    return vkmm_test_create(&(struct vkmm_test_options){ .no_validation = !validation });
}

static void create_layouts(struct rig *r)
{
    VkDevice device = r->t->device;
    VkDescriptorSetLayoutBinding bindings[3] = {
        { 0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, FIRST_BYTES, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 1, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, SECOND_BYTES, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
    };
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 3, .pBindings = bindings,
    };
    VK_CHECK(vkCreateDescriptorSetLayout(device, &set_info, NULL, &r->set_layout));
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1, .pSetLayouts = &r->set_layout,
    };
    VK_CHECK(vkCreatePipelineLayout(device, &layout_info, NULL, &r->layout));
}

static void create_pipeline(struct rig *r)
{
    size_t size = 0;
    uint32_t *words = vkmm_test_load_spirv("inline_uniform_block", &size);
    VkShaderModuleCreateInfo module_info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = words,
    };
    VK_CHECK(vkCreateShaderModule(r->t->device, &module_info, NULL, &r->module));
    free(words);
    VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = r->module, .pName = "main" },
        .layout = r->layout,
    };
    VK_CHECK(vkCreateComputePipelines(r->t->device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &r->pipeline));
}

/* A pool for two sets: their inline bytes (2 × 80) and inline bindings (2 × 2). */
static void create_sets(struct rig *r)
{
    VkDevice device = r->t->device;
    VkDescriptorPoolInlineUniformBlockCreateInfo inline_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO,
        .maxInlineUniformBlockBindings = 4,
    };
    VkDescriptorPoolSize sizes[2] = { { VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 2 * (FIRST_BYTES + SECOND_BYTES) },
                                      { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 } };
    VkDescriptorPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .pNext = &inline_info, .maxSets = 2,
        .poolSizeCount = 2, .pPoolSizes = sizes,
    };
    VK_CHECK(vkCreateDescriptorPool(device, &pool_info, NULL, &r->pool));
    VkDescriptorSetLayout layouts[2] = { r->set_layout, r->set_layout };
    VkDescriptorSetAllocateInfo alloc_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = r->pool, .descriptorSetCount = 2,
        .pSetLayouts = layouts,
    };
    VK_CHECK(vkAllocateDescriptorSets(device, &alloc_info, r->sets));
    VkDescriptorBufferInfo out_info = { r->out.buffer, 0, VK_WHOLE_SIZE };
    for (int i = 0; i < 2; i++) {
        VkWriteDescriptorSet write = {
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = r->sets[i], .dstBinding = 2,
            .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &out_info,
        };
        vkUpdateDescriptorSets(device, 1, &write, 0, NULL);
    }
}

static void rig_create(struct rig *r, bool validation)
{
    memset(r, 0, sizeof(*r));
    r->t = create_test(validation);
    r->out = vkmm_test_buffer_create(r->t, RESULTS * 4, host_coherent);
    create_layouts(r);
    create_pipeline(r);
    create_sets(r);
}

static void rig_destroy(struct rig *r)
{
    VkDevice device = r->t->device;
    vkDestroyDescriptorPool(device, r->pool, NULL);
    vkDestroyPipeline(device, r->pipeline, NULL);
    vkDestroyPipelineLayout(device, r->layout, NULL);
    vkDestroyDescriptorSetLayout(device, r->set_layout, NULL);
    vkDestroyShaderModule(device, r->module, NULL);
    vkmm_test_buffer_destroy(r->t, &r->out);
    vkmm_test_destroy(r->t);
}

/* Writes `size` bytes at byte `offset` of the inline block at `binding`. */
static void write_block(struct rig *r, VkDescriptorSet set, uint32_t binding, uint32_t offset, uint32_t size,
                        const void *data)
{
    VkWriteDescriptorSetInlineUniformBlock block = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK, .dataSize = size, .pData = data,
    };
    VkWriteDescriptorSet write = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .pNext = &block, .dstSet = set, .dstBinding = binding,
        .dstArrayElement = offset, .descriptorCount = size, .descriptorType = VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK,
    };
    vkUpdateDescriptorSets(r->t->device, 1, &write, 0, NULL);
}

/* Runs the shader on `set` and checks result[i] = first[i] + bias[i % 4]. */
static void run_and_check(struct rig *r, VkDescriptorSet set, const uint32_t first[16], const uint32_t bias[4])
{
    memset(r->out.mapped, 0xff, RESULTS * 4);
    VkCommandBuffer cmd = vkmm_test_begin(r->t);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(cmd, 1, 1, 1);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(r->t, r->t->compute_queues[0], cmd);
    const uint32_t *values = r->out.mapped;
    for (uint32_t i = 0; i < RESULTS; i++)
        assert_int_equal(values[i], first[i] + bias[i % 4]);
}

static void test_features_and_limits(void **state)
{
    (void)state;
    struct vkmm_test *t = create_test(true);
    VkPhysicalDeviceInlineUniformBlockFeatures block_features = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES,
    };
    VkPhysicalDeviceVulkan13Features v13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                             .pNext = &block_features };
    VkPhysicalDeviceFeatures2 features = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &v13 };
    vkGetPhysicalDeviceFeatures2(t->physical_device, &features);
    assert_true(v13.inlineUniformBlock);
    assert_true(block_features.inlineUniformBlock);
    VkPhysicalDeviceVulkan13Properties props = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES };
    VkPhysicalDeviceProperties2 properties = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                               .pNext = &props };
    vkGetPhysicalDeviceProperties2(t->physical_device, &properties);
    /* The spec's required limits for inlineUniformBlock. */
    assert_true(props.maxInlineUniformBlockSize >= 256);
    assert_true(props.maxPerStageDescriptorInlineUniformBlocks >= 4);
    assert_true(props.maxDescriptorSetInlineUniformBlocks >= 4);
    assert_true(props.maxInlineUniformTotalSize >= 256);
    vkmm_test_destroy(t);
}

/* Whole and partial writes: a later write of bytes 16..23 changes only
 * words[1].x and words[1].y. */
static void test_writes_reach_the_shader(void **state)
{
    (void)state;
    struct rig r;
    rig_create(&r, true);
    uint32_t first[16], bias[4] = { 1000, 2000, 3000, 4000 };
    for (uint32_t i = 0; i < 16; i++)
        first[i] = i * 7;
    write_block(&r, r.sets[0], 0, 0, FIRST_BYTES, first);
    write_block(&r, r.sets[0], 1, 0, SECOND_BYTES, bias);
    run_and_check(&r, r.sets[0], first, bias);
    const uint32_t patch[2] = { 500, 600 };
    write_block(&r, r.sets[0], 0, 16, 8, patch);
    first[4] = 500;
    first[5] = 600;
    run_and_check(&r, r.sets[0], first, bias);
    rig_destroy(&r);
}

/* VkCopyDescriptorSet of inline bytes: srcArrayElement and dstArrayElement
 * are byte offsets, descriptorCount the bytes. */
static void test_copies_move_bytes(void **state)
{
    (void)state;
    struct rig r;
    rig_create(&r, true);
    uint32_t a[16], b[16], bias[4] = { 0, 0, 0, 0 };
    for (uint32_t i = 0; i < 16; i++) {
        a[i] = 100 + i;
        b[i] = 200 + i;
    }
    write_block(&r, r.sets[0], 0, 0, FIRST_BYTES, a);
    write_block(&r, r.sets[1], 0, 0, FIRST_BYTES, b);
    write_block(&r, r.sets[1], 1, 0, SECOND_BYTES, bias);
    /* a's words 0..3 over b's words 8..11. */
    VkCopyDescriptorSet copy = {
        .sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, .srcSet = r.sets[0], .srcBinding = 0, .srcArrayElement = 0,
        .dstSet = r.sets[1], .dstBinding = 0, .dstArrayElement = 32, .descriptorCount = 16,
    };
    vkUpdateDescriptorSets(r.t->device, 0, NULL, 1, &copy);
    for (uint32_t i = 0; i < 4; i++)
        b[8 + i] = a[i];
    run_and_check(&r, r.sets[1], b, bias);
    rig_destroy(&r);
}

struct template_data {
    uint32_t first[16];
    uint32_t bias[4];
};

/* An update template entry of an inline uniform block: its bytes at
 * pData + offset, descriptorCount of them, at byte dstArrayElement. */
static void test_templates_write_bytes(void **state)
{
    (void)state;
    struct rig r;
    rig_create(&r, true);
    struct template_data data;
    for (uint32_t i = 0; i < 16; i++)
        data.first[i] = 3 * i + 1;
    for (uint32_t i = 0; i < 4; i++)
        data.bias[i] = 10 * i;
    VkDescriptorUpdateTemplateEntry entries[2] = {
        { 0, 0, FIRST_BYTES, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, offsetof(struct template_data, first), 0 },
        { 1, 0, SECOND_BYTES, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, offsetof(struct template_data, bias), 0 },
    };
    VkDescriptorUpdateTemplateCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO, .descriptorUpdateEntryCount = 2,
        .pDescriptorUpdateEntries = entries, .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
        .descriptorSetLayout = r.set_layout,
    };
    VkDescriptorUpdateTemplate template;
    VK_CHECK(vkCreateDescriptorUpdateTemplate(r.t->device, &info, NULL, &template));
    vkUpdateDescriptorSetWithTemplate(r.t->device, r.sets[0], template, &data);
    run_and_check(&r, r.sets[0], data.first, data.bias);
    vkDestroyDescriptorUpdateTemplate(r.t->device, template, NULL);
    rig_destroy(&r);
}

/* A pool counts inline uniform blocks in bytes: a second set of 80 bytes
 * does not fit in the 76 a first one left. */
static void test_pool_counts_bytes(void **state)
{
    (void)state;
    struct rig r;
    rig_create(&r, true);
    VkDescriptorPoolInlineUniformBlockCreateInfo inline_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO,
        .maxInlineUniformBlockBindings = 4,
    };
    VkDescriptorPoolSize sizes[2] = { { VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, FIRST_BYTES + SECOND_BYTES + 76 },
                                      { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 } };
    VkDescriptorPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .pNext = &inline_info, .maxSets = 2,
        .poolSizeCount = 2, .pPoolSizes = sizes,
    };
    VkDescriptorPool small;
    VK_CHECK(vkCreateDescriptorPool(r.t->device, &pool_info, NULL, &small));
    VkDescriptorSet sets[2];
    VkDescriptorSetAllocateInfo alloc_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = small, .descriptorSetCount = 1,
        .pSetLayouts = &r.set_layout,
    };
    VK_CHECK(vkAllocateDescriptorSets(r.t->device, &alloc_info, &sets[0]));
    /* 76 bytes are left; the set needs 80. */
    assert_int_equal(vkAllocateDescriptorSets(r.t->device, &alloc_info, &sets[1]), VK_ERROR_OUT_OF_POOL_MEMORY);
    vkDestroyDescriptorPool(r.t->device, small, NULL);
    rig_destroy(&r);
}

/* Invalid writes (a byte offset that is not a multiple of 4, bytes past the
 * block) are reported and dropped: the block keeps its bytes. */
static void test_invalid_writes_are_dropped(void **state)
{
    (void)state;
    struct rig r;
    rig_create(&r, false);
    uint32_t first[16], bias[4] = { 1, 2, 3, 4 };
    for (uint32_t i = 0; i < 16; i++)
        first[i] = i;
    write_block(&r, r.sets[0], 0, 0, FIRST_BYTES, first);
    write_block(&r, r.sets[0], 1, 0, SECOND_BYTES, bias);
    const uint32_t junk[4] = { 77, 77, 77, 77 };
    r.t->expected_errors = 2;
    write_block(&r, r.sets[0], 0, 2, 8, junk);
    write_block(&r, r.sets[0], 0, 56, 16, junk);
    assert_int_equal(r.t->driver_errors, 2);
    run_and_check(&r, r.sets[0], first, bias);
    rig_destroy(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_features_and_limits),
        cmocka_unit_test(test_writes_reach_the_shader),
        cmocka_unit_test(test_copies_move_bytes),
        cmocka_unit_test(test_templates_write_bytes),
        cmocka_unit_test(test_pool_counts_bytes),
        cmocka_unit_test(test_invalid_writes_are_dropped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
