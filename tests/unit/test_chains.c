/* Unit tests of the generated pNext-chain code (vkmm_chains.c): filling
 * extension structures from the core aggregates, and finding unsupported
 * requested features. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "vkmm_chains.h"
#include "instance.h"

static void test_chains_fill_individual_structs_from_aggregates(void **state)
{
    (void)state;
    struct vkmm_core_properties p;
    memset(&p, 0, sizeof(p));
    p.v11.subgroupSize = 8;
    p.v11.subgroupSupportedOperations = VK_SUBGROUP_FEATURE_BASIC_BIT;
    p.v11.deviceUUID[3] = 42;
    p.v12.maxTimelineSemaphoreValueDifference = 1234;
    strcpy(p.v12.driverName, "vkmm");
    VkPhysicalDeviceTimelineSemaphoreProperties timeline = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_PROPERTIES,
    };
    VkPhysicalDeviceSubgroupProperties subgroup = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
        .pNext = &timeline,
    };
    VkPhysicalDeviceIDProperties id = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES, .pNext = &subgroup };
    VkPhysicalDeviceDriverProperties driver = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
        .pNext = &id,
    };
    VkPhysicalDeviceVulkan12Properties v12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES,
        .pNext = &driver,
    };
    vkmm_properties_fill_chain(&v12, &p);
    assert_int_equal(timeline.maxTimelineSemaphoreValueDifference, 1234);
    assert_int_equal(subgroup.subgroupSize, 8);
    assert_int_equal(subgroup.supportedOperations, VK_SUBGROUP_FEATURE_BASIC_BIT);
    assert_int_equal(id.deviceUUID[3], 42);
    assert_string_equal(driver.driverName, "vkmm");
    /* The aggregate copy keeps the caller's chain. */
    assert_ptr_equal(v12.pNext, &driver);
    assert_int_equal(v12.sType, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES);
    assert_int_equal(v12.maxTimelineSemaphoreValueDifference, 1234);
}

static void test_chains_find_unsupported_feature(void **state)
{
    (void)state;
    struct vkmm_core_features f;
    memset(&f, 0, sizeof(f));
    f.v12.timelineSemaphore = VK_TRUE;
    f.v13.synchronization2 = VK_TRUE;
    VkPhysicalDeviceTimelineSemaphoreFeatures timeline = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
        .timelineSemaphore = VK_TRUE,
    };
    assert_null(vkmm_features_find_unsupported(NULL, &timeline, &f));
    VkPhysicalDeviceVulkan13Features v13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .pNext = &timeline,
        .synchronization2 = VK_TRUE,
        .dynamicRendering = VK_TRUE,
    };
    assert_string_equal(vkmm_features_find_unsupported(NULL, &v13, &f), "dynamicRendering");
    VkPhysicalDeviceFeatures base = { .shaderFloat64 = VK_TRUE };
    assert_string_equal(vkmm_features_find_unsupported(&base, NULL, &f), "shaderFloat64");
    VkPhysicalDeviceFeatures2 features2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .features = { .robustBufferAccess = VK_TRUE },
    };
    assert_string_equal(vkmm_features_find_unsupported(NULL, &features2, &f), "robustBufferAccess");
}

static void test_fill_array_two_call_idiom(void **state)
{
    (void)state;
    const uint32_t items[3] = { 7, 8, 9 };
    uint32_t out[3] = { 0 };
    uint32_t count = 0;
    assert_int_equal(vkmm_fill_array(NULL, &count, items, 3, sizeof(uint32_t)), VK_SUCCESS);
    assert_int_equal(count, 3);
    count = 2;
    assert_int_equal(vkmm_fill_array(out, &count, items, 3, sizeof(uint32_t)), VK_INCOMPLETE);
    assert_int_equal(count, 2);
    assert_int_equal(out[1], 8);
    assert_int_equal(out[2], 0);
    count = 5;
    assert_int_equal(vkmm_fill_array(out, &count, items, 3, sizeof(uint32_t)), VK_SUCCESS);
    assert_int_equal(count, 3);
    assert_int_equal(out[2], 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chains_fill_individual_structs_from_aggregates),
        cmocka_unit_test(test_chains_find_unsupported_feature),
        cmocka_unit_test(test_fill_array_two_call_idiom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
