/* subgroupSizeControl and computeFullSubgroups (Vulkan 1.3 requires both;
 * wgpu enables the first on any 1.3 device): the properties give the range
 * of widths, and a pipeline created with
 * VkPipelineShaderStageRequiredSubgroupSizeCreateInfo runs with exactly that
 * subgroup size, full subgroups, in both modes. */
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

enum { GROUPS = 2, N = GROUPS * 64 };

static void run_with_width(struct vkmm_test *t, uint32_t width, uint32_t out[N])
{
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, N * 4, coherent);
    struct vkmm_test_compute k = vkmm_test_compute_create(t, "subgroup_size_report", 1, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &k, 0, b.buffer, 0, VK_WHOLE_SIZE);
    /* The same pipeline again, with the required width and full subgroups. */
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
        .requiredSubgroupSize = width,
    };
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                   .pNext = &required,
                   .flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT,
                   .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = k.module,
                   .pName = "main" },
        .layout = k.layout,
    };
    VkPipeline pipeline;
    assert_int_equal(vkCreateComputePipelines(t->device, VK_NULL_HANDLE, 1, &info, NULL, &pipeline), VK_SUCCESS);
    vkDestroyPipeline(t->device, k.pipeline, NULL);
    k.pipeline = pipeline;
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&k, cmd, NULL, 0, GROUPS, 1, 1);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(out, b.mapped, N * 4);
    vkmm_test_compute_destroy(t, &k);
    vkmm_test_buffer_destroy(t, &b);
}

static void test_required_subgroup_sizes(void **state)
{
    (void)state;
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ 0 });
    VkPhysicalDeviceVulkan13Features f13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES };
    VkPhysicalDeviceFeatures2 f = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f13 };
    vkGetPhysicalDeviceFeatures2(t->physical_device, &f);
    assert_true(f13.subgroupSizeControl);
    assert_true(f13.computeFullSubgroups);
    VkPhysicalDeviceVulkan13Properties p13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES };
    VkPhysicalDeviceProperties2 p = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &p13 };
    vkGetPhysicalDeviceProperties2(t->physical_device, &p);
    assert_true(p13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
    assert_true(p13.minSubgroupSize >= 1 && p13.minSubgroupSize <= p13.maxSubgroupSize);
    assert_int_equal(p13.maxComputeWorkgroupSubgroups,
                     p.properties.limits.maxComputeWorkGroupInvocations / p13.minSubgroupSize);
    uint32_t tried = 0;
    for (uint32_t width = p13.minSubgroupSize; width <= p13.maxSubgroupSize && width <= 64; width *= 2) {
        static uint32_t out[N];
        memset(out, 0, sizeof(out));
        run_with_width(t, width, out);
        for (uint32_t i = 0; i < N; i++) {
            uint32_t local = i % 64;
            uint32_t expected = width * 1000u + (local % width) * 10u + (local / width) % 10u;
            if (out[i] != expected)
                fail_msg("width %u: invocation %u reported %u, expected %u", width, i, out[i], expected);
        }
        tried++;
    }
    assert_true(tried >= 1);
    vkmm_test_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_required_subgroup_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
