/* Compute pipelines and dispatches through the loader: results against a
 * CPU reference, dispatch base and indirect, push constants, barriers,
 * the pipeline cache round trip, and malformed SPIR-V. */
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

static const VkMemoryPropertyFlags host_coherent =
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

static void host_read_barrier(VkCommandBuffer cmd)
{
    VkMemoryBarrier2 barrier = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        .srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
        .dstAccessMask = VK_ACCESS_2_HOST_READ_BIT,
    };
    VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &barrier };
    vkCmdPipelineBarrier2(cmd, &dep);
}

static void test_compute_add_arrays_with_push_constants(void **state)
{
    struct vkmm_test *t = *state;
    enum { N = 10000 };
    struct vkmm_test_buffer a = vkmm_test_buffer_create(t, N * 4, host_coherent);
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, N * 4, host_coherent);
    struct vkmm_test_buffer c = vkmm_test_buffer_create(t, N * 4, host_coherent);
    float *fa = a.mapped, *fb = b.mapped, *fc = c.mapped;
    for (int i = 0; i < N; i++) {
        fa[i] = (float)i * 0.25f;
        fb[i] = (float)(N - i);
        fc[i] = -1;
    }
    struct vkmm_test_compute k = vkmm_test_compute_create(t, "add_arrays", 3, 8, NULL);
    vkmm_test_compute_bind_buffer(t, &k, 0, a.buffer, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(t, &k, 1, b.buffer, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(t, &k, 2, c.buffer, 0, VK_WHOLE_SIZE);
    struct { uint32_t n; float scale; } push = { N - 5, 3.0f };
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&k, cmd, &push, sizeof(push), (N + 63) / 64, 1, 1);
    host_read_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    for (int i = 0; i < N; i++) {
        float expected = i < N - 5 ? fa[i] * 3.0f + fb[i] : -1.0f;
        assert_true(fc[i] == expected);
    }
    vkmm_test_compute_destroy(t, &k);
    vkmm_test_buffer_destroy(t, &a);
    vkmm_test_buffer_destroy(t, &b);
    vkmm_test_buffer_destroy(t, &c);
}

static void test_compute_shared_memory_reduction(void **state)
{
    struct vkmm_test *t = *state;
    enum { GROUPS = 300, N = GROUPS * 128 };
    struct vkmm_test_buffer in = vkmm_test_buffer_create(t, N * 4, host_coherent);
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, GROUPS * 4, host_coherent);
    uint32_t *data = in.mapped;
    for (int i = 0; i < N; i++)
        data[i] = (uint32_t)(i % 1000) * 3u + 1u;
    struct vkmm_test_compute k = vkmm_test_compute_create(t, "reduce_shared", 2, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &k, 0, in.buffer, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(t, &k, 1, out.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&k, cmd, NULL, 0, GROUPS, 1, 1);
    host_read_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    const uint32_t *sums = out.mapped;
    for (int g = 0; g < GROUPS; g++) {
        uint32_t expected = 0;
        for (int i = 0; i < 128; i++)
            expected += data[g * 128 + i];
        assert_int_equal(sums[g], expected);
    }
    vkmm_test_compute_destroy(t, &k);
    vkmm_test_buffer_destroy(t, &in);
    vkmm_test_buffer_destroy(t, &out);
}

static void check_ids(const uint32_t *ids, uint32_t gx, uint32_t gy, uint32_t gz, const uint32_t base[3])
{
    uint32_t nx = gx * 4, ny = gy * 3, nz = gz * 2;
    (void)nz;
    for (uint32_t z = 0; z < gz * 2; z++)
        for (uint32_t y = 0; y < gy * 3; y++)
            for (uint32_t x = 0; x < gx * 4; x++) {
                /* gl_GlobalInvocationID includes the base; the shader's flat
                 * index is relative to gl_NumWorkGroups * size, so dispatch
                 * bases shift the index: recompute it as the shader does. */
                uint32_t global[3] = { x + base[0] * 4, y + base[1] * 3, z + base[2] * 2 };
                uint32_t flat = global[0] + nx * (global[1] + ny * global[2]);
                const uint32_t *v = &ids[flat * 4];
                uint32_t group[3] = { global[0] / 4, global[1] / 3, global[2] / 2 };
                uint32_t local[3] = { x % 4, y % 3, z % 2 };
                assert_int_equal(v[0], group[0] * 10000 + group[1] * 100 + group[2]);
                assert_int_equal(v[1], local[0] + 4 * (local[1] + 3 * local[2]));
                assert_int_equal(v[2], local[0] + 10 * local[1] + 100 * local[2]);
                assert_int_equal(v[3], flat);
            }
}

static void test_compute_builtins_dispatch_base_and_indirect(void **state)
{
    struct vkmm_test *t = *state;
    const uint32_t gx = 3, gy = 2, gz = 2;
    const VkDeviceSize bytes = 16ull * (gx * 4) * (gy * 3 + 3) * (gz * 2 + 2) * 4;
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, bytes, host_coherent);
    struct vkmm_test_buffer args = vkmm_test_buffer_create(t, 64, host_coherent);
    uint32_t *indirect = args.mapped;
    indirect[4] = gx;
    indirect[5] = gy;
    indirect[6] = gz;
    struct vkmm_test_compute k = vkmm_test_compute_create(t, "dispatch_ids", 1, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &k, 0, out.buffer, 0, VK_WHOLE_SIZE);

    /* Plain dispatch. */
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&k, cmd, NULL, 0, gx, gy, gz);
    host_read_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    const uint32_t zero[3] = { 0, 0, 0 };
    check_ids(out.mapped, gx, gy, gz, zero);

    /* Indirect: the same counts read from the buffer at offset 16. */
    memset(out.mapped, 0, bytes);
    cmd = vkmm_test_begin(t);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 1, &k.set, 0, NULL);
    vkCmdDispatchIndirect(cmd, args.buffer, 16);
    host_read_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[1], cmd);
    check_ids(out.mapped, gx, gy, gz, zero);
    vkmm_test_compute_destroy(t, &k);
    vkmm_test_buffer_destroy(t, &out);
    vkmm_test_buffer_destroy(t, &args);
}

/* Group counts beyond maxComputeWorkGroupCount are invalid usage: a direct
 * dispatch is dropped at record time, an indirect one (counts only known
 * when it runs) skipped when it runs; both say so, neither runs a group. */
static void test_compute_dispatch_counts_beyond_limits(void **state)
{
    (void)state;
    struct vkmm_test_options options = { .no_validation = true };
    struct vkmm_test *t = vkmm_test_create(&options);
    t->expected_errors = 2;
    uint32_t limit = t->properties.limits.maxComputeWorkGroupCount[0];
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, 4096, host_coherent);
    struct vkmm_test_buffer args = vkmm_test_buffer_create(t, 16, host_coherent);
    memset(out.mapped, 0, 4096);
    uint32_t *indirect = args.mapped;
    indirect[0] = limit + 1;
    indirect[1] = 1;
    indirect[2] = 1;
    struct vkmm_test_compute k = vkmm_test_compute_create(t, "dispatch_ids", 1, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &k, 0, out.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 1, &k.set, 0, NULL);
    vkCmdDispatchBase(cmd, limit, 0, 0, 1, 1, 1); /* base + count past the limit */
    assert_int_equal(t->driver_errors, 1);
    vkCmdDispatchIndirect(cmd, args.buffer, 0);
    host_read_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    assert_int_equal(t->driver_errors + t->validation_errors, 2);
    assert_non_null(strstr(t->message_ids, "VUID-VkDispatchIndirectCommand-x-00417"));
    for (uint32_t i = 0; i < 1024; i++)
        assert_int_equal(((const uint32_t *)out.mapped)[i], 0);
    vkmm_test_compute_destroy(t, &k);
    vkmm_test_buffer_destroy(t, &out);
    vkmm_test_buffer_destroy(t, &args);
    vkmm_test_destroy(t);
}

static void test_compute_pipeline_cache_round_trip(void **state)
{
    struct vkmm_test *t = *state;
    size_t size = 0;
    uint32_t *words = vkmm_test_load_spirv("add_arrays", &size);
    VkShaderModuleCreateInfo module_info = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = words };
    VkShaderModule module;
    VK_CHECK(vkCreateShaderModule(t->device, &module_info, NULL, &module));
    free(words);
    VkDescriptorSetLayoutBinding bindings[3];
    for (uint32_t i = 0; i < 3; i++)
        bindings[i] = (VkDescriptorSetLayoutBinding){ i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL };
    VkDescriptorSetLayoutCreateInfo set_info = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 3, .pBindings = bindings };
    VkDescriptorSetLayout set_layout;
    VK_CHECK(vkCreateDescriptorSetLayout(t->device, &set_info, NULL, &set_layout));
    VkPushConstantRange range = { VK_SHADER_STAGE_COMPUTE_BIT, 0, 8 };
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1, .pSetLayouts = &set_layout,
        .pushConstantRangeCount = 1, .pPushConstantRanges = &range,
    };
    VkPipelineLayout layout;
    VK_CHECK(vkCreatePipelineLayout(t->device, &layout_info, NULL, &layout));
    VkPipelineCacheCreateInfo cache_info = { .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO };
    VkPipelineCache cache;
    VK_CHECK(vkCreatePipelineCache(t->device, &cache_info, NULL, &cache));
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = module, .pName = "main" },
        .layout = layout,
    };
    VkPipeline pipeline;
    VK_CHECK(vkCreateComputePipelines(t->device, cache, 1, &info, NULL, &pipeline));
    vkDestroyPipeline(t->device, pipeline, NULL);

    size_t data_size = 0;
    VK_CHECK(vkGetPipelineCacheData(t->device, cache, &data_size, NULL));
    assert_true(data_size > 32);
    uint8_t *data = malloc(data_size);
    VK_CHECK(vkGetPipelineCacheData(t->device, cache, &data_size, data));
    uint32_t header[4];
    memcpy(header, data, sizeof(header));
    assert_int_equal(header[0], 32);
    assert_int_equal(header[1], VK_PIPELINE_CACHE_HEADER_VERSION_ONE);
    assert_int_equal(header[2], t->properties.vendorID);
    assert_memory_equal(data + 16, t->properties.pipelineCacheUUID, VK_UUID_SIZE);
    vkDestroyPipelineCache(t->device, cache, NULL);

    /* A new cache from the data: the pipeline needs no compilation now. */
    cache_info.initialDataSize = data_size;
    cache_info.pInitialData = data;
    VK_CHECK(vkCreatePipelineCache(t->device, &cache_info, NULL, &cache));
    free(data);
    VkPipelineCreationFeedback feedback = { 0 };
    VkPipelineCreationFeedbackCreateInfo feedback_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO,
        .pPipelineCreationFeedback = &feedback,
    };
    info.pNext = &feedback_info;
    info.flags = VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
    VK_CHECK(vkCreateComputePipelines(t->device, cache, 1, &info, NULL, &pipeline));
    assert_true(feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT);
    assert_true(feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT);
    vkDestroyPipeline(t->device, pipeline, NULL);

    /* Without the cache, FAIL_ON_PIPELINE_COMPILE_REQUIRED must fail. */
    info.pNext = NULL;
    assert_int_equal(vkCreateComputePipelines(t->device, VK_NULL_HANDLE, 1, &info, NULL, &pipeline),
                     VK_PIPELINE_COMPILE_REQUIRED);
    assert_true(pipeline == VK_NULL_HANDLE);
    vkDestroyPipelineCache(t->device, cache, NULL);
    vkDestroyPipelineLayout(t->device, layout, NULL);
    vkDestroyDescriptorSetLayout(t->device, set_layout, NULL);
    vkDestroyShaderModule(t->device, module, NULL);
}

static VkDeviceAddress address_of(struct vkmm_test *t, VkBuffer buffer)
{
    VkBufferDeviceAddressInfo info = { .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = buffer };
    return vkGetBufferDeviceAddress(t->device, &info);
}

static void test_compute_buffer_reference_linked_list(void **state)
{
    struct vkmm_test *t = *state;
    enum { N = 200, NODES = 3 };
    struct vkmm_test_buffer nodes = vkmm_test_buffer_create(t, 16 * NODES, host_coherent);
    struct vkmm_test_buffer values = vkmm_test_buffer_create(t, N * 4, host_coherent);
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, N * 4, host_coherent);
    VkDeviceAddress base = address_of(t, nodes.buffer);
    assert_true(base != 0);
    uint8_t *bytes = nodes.mapped;
    for (uint32_t k = 0; k < NODES; k++) {
        uint32_t value = 10 * (k + 1);
        uint64_t next = k + 1 < NODES ? base + 16 * (k + 1) : 0;
        memcpy(bytes + 16 * k, &value, 4);
        memcpy(bytes + 16 * k + 8, &next, 8);
    }
    float *floats = values.mapped;
    for (int i = 0; i < N; i++)
        floats[i] = (float)i;
    struct vkmm_test_compute k = vkmm_test_compute_create(t, "buffer_reference", 1, 24, NULL);
    vkmm_test_compute_bind_buffer(t, &k, 0, out.buffer, 0, VK_WHOLE_SIZE);
    struct { uint64_t head, values; uint32_t count, pad; } push = { base, address_of(t, values.buffer), N, 0 };
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&k, cmd, &push, sizeof(push), (N + 31) / 32, 1, 1);
    host_read_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    const uint32_t *sums = out.mapped;
    for (int i = 0; i < N; i++) {
        uint32_t expected = 0;
        for (int n = 0; n <= i % 5 && n < NODES; n++)
            expected += 10u * (uint32_t)(n + 1);
        assert_int_equal(sums[i], expected);
        assert_true(floats[i] == (float)i * 2.0f + (float)expected);
    }
    vkmm_test_compute_destroy(t, &k);
    vkmm_test_buffer_destroy(t, &nodes);
    vkmm_test_buffer_destroy(t, &values);
    vkmm_test_buffer_destroy(t, &out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_compute_add_arrays_with_push_constants, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_compute_shared_memory_reduction, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_compute_builtins_dispatch_base_and_indirect, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test(test_compute_dispatch_counts_beyond_limits),
        cmocka_unit_test_setup_teardown(test_compute_pipeline_cache_round_trip, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_compute_buffer_reference_linked_list, vkmm_test_setup, vkmm_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
