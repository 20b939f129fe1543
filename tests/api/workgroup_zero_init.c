/* shaderZeroInitializeWorkgroupMemory (Vulkan 1.3): Workgroup variables
 * with an OpConstantNull initializer hold zeros in every workgroup before
 * any invocation runs — in strict mode too, where uninitialised ones hold
 * a pattern. */
#include <string.h>

#include "vkmm_test.h"

enum { GROUPS = 3, N = GROUPS * 64 };

static void test_shared_variables_start_zeroed(void **state)
{
    (void)state;
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ 0 });
    VkPhysicalDeviceVulkan13Features f13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES };
    VkPhysicalDeviceFeatures2 f = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f13 };
    vkGetPhysicalDeviceFeatures2(t->physical_device, &f);
    assert_true(f13.shaderZeroInitializeWorkgroupMemory);
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, N * 4, coherent);
    struct vkmm_test_compute k = vkmm_test_compute_create(t, "zero_init_workgroup", 1, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &k, 0, b.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&k, cmd, NULL, 0, GROUPS, 1, 1);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    const uint32_t *out = b.mapped;
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(out[i], 1u * 100000u + 63u * 64u / 2u);
    vkmm_test_compute_destroy(t, &k);
    vkmm_test_buffer_destroy(t, &b);
    vkmm_test_destroy(t);
}

static void test_zeroed_variable_written_before_a_barrier(void **state)
{
    (void)state;
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ 0 });
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 2 * 128 * 4, coherent);
    struct vkmm_test_compute k = vkmm_test_compute_create(t, "zero_init_then_write", 1, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &k, 0, b.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&k, cmd, NULL, 0, 2, 1, 1);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    const uint32_t *out = b.mapped;
    for (uint32_t i = 0; i < 2 * 128; i++)
        assert_int_equal(out[i], 1);
    vkmm_test_compute_destroy(t, &k);
    vkmm_test_buffer_destroy(t, &b);
    vkmm_test_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_variables_start_zeroed),
        cmocka_unit_test(test_zeroed_variable_written_before_a_barrier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
