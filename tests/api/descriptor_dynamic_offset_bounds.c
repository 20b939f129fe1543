/* Dynamic offsets are bounded (VUID-vkCmdBindDescriptorSets-pDynamicOffsets-01979):
 * an offset that moves a dynamic storage buffer's range past its buffer is
 * reported, and the shader reaches nothing there — not the next
 * VkDeviceMemory, not the rest of its own.  A valid offset still works. */
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

static const VkMemoryPropertyFlags host_coherent =
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

enum { N = 64, RANGE = N * 4, BUFFER = 4 * RANGE };

struct rig {
    struct vkmm_test *t;
    struct vkmm_test_buffer dynamic, out, neighbour;
    VkShaderModule module;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkDescriptorSet set;
};

static void rig_create(struct rig *r)
{
    r->t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    VkDevice device = r->t->device;
    r->dynamic = vkmm_test_buffer_create(r->t, BUFFER, host_coherent);
    r->neighbour = vkmm_test_buffer_create(r->t, BUFFER, host_coherent);
    r->out = vkmm_test_buffer_create(r->t, RANGE, host_coherent);
    size_t size = 0;
    uint32_t *words = vkmm_test_load_spirv("dynamic_copy", &size);
    VkShaderModuleCreateInfo module_info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = words,
    };
    VK_CHECK(vkCreateShaderModule(device, &module_info, NULL, &r->module));
    free(words);
    VkDescriptorSetLayoutBinding bindings[2] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
    };
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 2, .pBindings = bindings,
    };
    VK_CHECK(vkCreateDescriptorSetLayout(device, &set_info, NULL, &r->set_layout));
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1, .pSetLayouts = &r->set_layout,
    };
    VK_CHECK(vkCreatePipelineLayout(device, &layout_info, NULL, &r->layout));
    VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = r->module, .pName = "main" },
        .layout = r->layout,
    };
    VK_CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &r->pipeline));
    VkDescriptorPoolSize sizes[2] = { { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1 },
                                      { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 } };
    VkDescriptorPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 2, .pPoolSizes = sizes,
    };
    VK_CHECK(vkCreateDescriptorPool(device, &pool_info, NULL, &r->pool));
    VkDescriptorSetAllocateInfo alloc_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = r->pool, .descriptorSetCount = 1,
        .pSetLayouts = &r->set_layout,
    };
    VK_CHECK(vkAllocateDescriptorSets(device, &alloc_info, &r->set));
    /* The dynamic descriptor covers RANGE bytes from the buffer's start. */
    VkDescriptorBufferInfo infos[2] = { { r->dynamic.buffer, 0, RANGE }, { r->out.buffer, 0, RANGE } };
    VkWriteDescriptorSet writes[2] = {
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = r->set, .dstBinding = 0, .descriptorCount = 1,
          .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, .pBufferInfo = &infos[0] },
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = r->set, .dstBinding = 1, .descriptorCount = 1,
          .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &infos[1] },
    };
    vkUpdateDescriptorSets(device, 2, writes, 0, NULL);
}

static void rig_destroy(struct rig *r)
{
    VkDevice device = r->t->device;
    vkDestroyDescriptorPool(device, r->pool, NULL);
    vkDestroyPipeline(device, r->pipeline, NULL);
    vkDestroyPipelineLayout(device, r->layout, NULL);
    vkDestroyDescriptorSetLayout(device, r->set_layout, NULL);
    vkDestroyShaderModule(device, r->module, NULL);
    vkmm_test_buffer_destroy(r->t, &r->dynamic);
    vkmm_test_buffer_destroy(r->t, &r->neighbour);
    vkmm_test_buffer_destroy(r->t, &r->out);
    vkmm_test_destroy(r->t);
}

/* Fills the buffers with markers and runs the shader with `offset`. */
static void run_with_offset(struct rig *r, uint32_t offset)
{
    uint32_t *dynamic = r->dynamic.mapped, *neighbour = r->neighbour.mapped, *out = r->out.mapped;
    for (uint32_t i = 0; i < BUFFER / 4; i++) {
        dynamic[i] = 0x10000u + i;
        neighbour[i] = 0x20000u + i;
    }
    memset(out, 0xff, RANGE);
    VkCommandBuffer cmd = vkmm_test_begin(r->t);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->layout, 0, 1, &r->set, 1, &offset);
    vkCmdDispatch(cmd, 1, 1, 1);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(r->t, r->t->compute_queues[0], cmd);
}

static void test_dynamic_offset_in_bounds_moves_the_range(void **state)
{
    (void)state;
    struct rig r;
    rig_create(&r);
    run_with_offset(&r, 3 * RANGE); /* the last RANGE bytes: valid */
    const uint32_t *dynamic = r.dynamic.mapped, *out = r.out.mapped;
    for (uint32_t i = 0; i < N; i++) {
        assert_int_equal(out[i], 0x10000u + 3 * N + i);
        assert_int_equal(dynamic[3 * N + i], 0xdeadbeefu);
        assert_int_equal(dynamic[i], 0x10000u + i);
    }
    assert_int_equal(r.t->driver_errors, 0);
    rig_destroy(&r);
}

/* Offsets that move the range partly or wholly past the buffer, up to far
 * past its memory: nothing outside is read or written, the shader reads
 * zeros, and the VUID is reported once per bind. */
static void test_dynamic_offset_past_the_buffer_reaches_nothing(void **state)
{
    (void)state;
    static const uint32_t offsets[] = { 3 * RANGE + 256, 4 * RANGE, 8 * RANGE, 1u << 20, 0xffffff00u };
    for (size_t k = 0; k < sizeof(offsets) / sizeof(offsets[0]); k++) {
        struct rig r;
        rig_create(&r);
        r.t->expected_errors = 1;
        run_with_offset(&r, offsets[k]);
        const uint32_t *dynamic = r.dynamic.mapped, *neighbour = r.neighbour.mapped, *out = r.out.mapped;
        for (uint32_t i = 0; i < BUFFER / 4; i++) {
            assert_int_equal(dynamic[i], 0x10000u + i);
            assert_int_equal(neighbour[i], 0x20000u + i);
        }
        for (uint32_t i = 0; i < N; i++)
            assert_int_equal(out[i], 0);
        assert_int_equal(r.t->driver_errors + r.t->validation_errors, 1); /* no validation layer: the VUID is vkmm's */
        assert_non_null(strstr(r.t->message_ids, "VUID-vkCmdBindDescriptorSets-pDynamicOffsets-01979"));
        rig_destroy(&r);
    }
}

/* A misaligned offset is reported (01972); it stays inside the buffer, so
 * the shader runs on the moved range. */
static void test_dynamic_offset_misaligned_is_reported(void **state)
{
    (void)state;
    struct rig r;
    rig_create(&r);
    r.t->expected_errors = 1;
    uint32_t alignment = (uint32_t)r.t->properties.limits.minStorageBufferOffsetAlignment;
    if (alignment > 4) {
        run_with_offset(&r, alignment + 4);
        assert_int_equal(r.t->driver_errors + r.t->validation_errors, 1); /* no validation layer: the VUID is vkmm's */
        assert_non_null(strstr(r.t->message_ids, "VUID-vkCmdBindDescriptorSets-pDynamicOffsets-01972"));
    }
    rig_destroy(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dynamic_offset_in_bounds_moves_the_range),
        cmocka_unit_test(test_dynamic_offset_past_the_buffer_reaches_nothing),
        cmocka_unit_test(test_dynamic_offset_misaligned_is_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
