/* Instance-level enumeration through the loader: the instance version,
 * instance and device extensions, physical devices and device groups, with
 * the two-call idiom and VK_INCOMPLETE (the spec's "Object Querying"). */
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

static bool has_extension(const VkExtensionProperties *list, uint32_t count, const char *name)
{
    for (uint32_t i = 0; i < count; i++) {
        if (strcmp(list[i].extensionName, name) == 0)
            return true;
    }
    return false;
}

/* A plain instance: no layers, no messenger, API 1.3. */
static VkInstance create_plain_instance(void)
{
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .apiVersion = VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pApplicationInfo = &app,
    };
    VkInstance instance = VK_NULL_HANDLE;
    VK_CHECK(vkCreateInstance(&info, NULL, &instance));
    return instance;
}

static void test_instance_version_is_1_3(void **state)
{
    (void)state;
    uint32_t version = 0;
    VK_CHECK(vkEnumerateInstanceVersion(&version));
    assert_true(VK_API_VERSION_MAJOR(version) == 1);
    assert_true(version >= VK_API_VERSION_1_3);
}

static void test_instance_extensions_two_call_and_incomplete(void **state)
{
    (void)state;
    uint32_t count = 0;
    VK_CHECK(vkEnumerateInstanceExtensionProperties(NULL, &count, NULL));
    assert_true(count >= 2);
    VkExtensionProperties *all = calloc(count + 1, sizeof(*all));
    assert_non_null(all);
    uint32_t got = count + 1; /* larger than needed: VK_SUCCESS, exact count */
    VK_CHECK(vkEnumerateInstanceExtensionProperties(NULL, &got, all));
    assert_int_equal(got, count);
    assert_true(has_extension(all, count, VK_EXT_DEBUG_UTILS_EXTENSION_NAME));
    assert_true(has_extension(all, count, VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME));
    for (uint32_t i = 0; i < count; i++)
        assert_true(all[i].specVersion > 0);

    /* One short: VK_INCOMPLETE, count written, and the written elements are
     * the first ones of the full list; the one past them is untouched. */
    VkExtensionProperties *some = calloc(count, sizeof(*some));
    assert_non_null(some);
    memset(&some[count - 1], 0xA5, sizeof(some[count - 1]));
    got = count - 1;
    assert_int_equal(vkEnumerateInstanceExtensionProperties(NULL, &got, some), VK_INCOMPLETE);
    assert_int_equal(got, count - 1);
    for (uint32_t i = 0; i < got; i++)
        assert_string_equal(some[i].extensionName, all[i].extensionName);
    for (size_t b = 0; b < sizeof(some[count - 1]); b++)
        assert_int_equal(((const uint8_t *)&some[count - 1])[b], 0xA5);

    /* Zero with an array: VK_INCOMPLETE and nothing written. */
    got = 0;
    assert_int_equal(vkEnumerateInstanceExtensionProperties(NULL, &got, some), VK_INCOMPLETE);
    assert_int_equal(got, 0);

    /* A layer nobody provides. */
    got = 0;
    assert_int_equal(vkEnumerateInstanceExtensionProperties("VK_LAYER_VKMM_does_not_exist", &got, NULL),
                     VK_ERROR_LAYER_NOT_PRESENT);
    free(some);
    free(all);
}

static void test_create_instance_with_unsupported_extension_fails(void **state)
{
    (void)state;
    uint32_t count = 0;
    VK_CHECK(vkEnumerateInstanceExtensionProperties(NULL, &count, NULL));
    VkExtensionProperties *all = calloc(count, sizeof(*all));
    assert_non_null(all);
    VK_CHECK(vkEnumerateInstanceExtensionProperties(NULL, &count, all));
    const char *names[] = { "VK_VKMM_no_such_extension", VK_KHR_SURFACE_EXTENSION_NAME };
    for (uint32_t i = 0; i < 2; i++) {
        assert_false(has_extension(all, count, names[i]));
        /* Next to a supported one, so that the failure is about names[i]. */
        const char *enabled[] = { VK_EXT_DEBUG_UTILS_EXTENSION_NAME, names[i] };
        VkInstanceCreateInfo info = {
            .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
            .enabledExtensionCount = 2,
            .ppEnabledExtensionNames = enabled,
        };
        VkInstance instance = (VkInstance)(uintptr_t)0x1234;
        assert_int_equal(vkCreateInstance(&info, NULL, &instance), VK_ERROR_EXTENSION_NOT_PRESENT);
    }
    /* The supported one alone works. */
    const char *supported = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .enabledExtensionCount = 1,
        .ppEnabledExtensionNames = &supported,
    };
    VkInstance instance = VK_NULL_HANDLE;
    VK_CHECK(vkCreateInstance(&info, NULL, &instance));
    assert_non_null(instance);
    vkDestroyInstance(instance, NULL);
    free(all);
}

static void test_enumerate_physical_devices(void **state)
{
    (void)state;
    VkInstance instance = create_plain_instance();
    uint32_t count = 0;
    VK_CHECK(vkEnumeratePhysicalDevices(instance, &count, NULL));
    assert_int_equal(count, 1);

    /* Count 0 with a non-NULL array: VK_INCOMPLETE, nothing written. */
    VkPhysicalDevice devices[2] = { (VkPhysicalDevice)(uintptr_t)0x11, (VkPhysicalDevice)(uintptr_t)0x22 };
    count = 0;
    assert_int_equal(vkEnumeratePhysicalDevices(instance, &count, devices), VK_INCOMPLETE);
    assert_int_equal(count, 0);
    assert_ptr_equal(devices[0], (VkPhysicalDevice)(uintptr_t)0x11);

    /* Room for two: VK_SUCCESS, one written, the second untouched. */
    count = 2;
    VK_CHECK(vkEnumeratePhysicalDevices(instance, &count, devices));
    assert_int_equal(count, 1);
    assert_non_null(devices[0]);
    assert_ptr_not_equal(devices[0], (VkPhysicalDevice)(uintptr_t)0x11);
    assert_ptr_equal(devices[1], (VkPhysicalDevice)(uintptr_t)0x22);

    /* The same handle every time. */
    VkPhysicalDevice again = VK_NULL_HANDLE;
    count = 1;
    VK_CHECK(vkEnumeratePhysicalDevices(instance, &count, &again));
    assert_ptr_equal(again, devices[0]);

    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(devices[0], &properties);
    assert_int_equal(properties.deviceType, VK_PHYSICAL_DEVICE_TYPE_CPU);
    vkDestroyInstance(instance, NULL);
}

static void test_enumerate_physical_device_groups(void **state)
{
    (void)state;
    VkInstance instance = create_plain_instance();
    VkPhysicalDevice device = VK_NULL_HANDLE;
    uint32_t count = 1;
    VK_CHECK(vkEnumeratePhysicalDevices(instance, &count, &device));

    count = 0;
    VK_CHECK(vkEnumeratePhysicalDeviceGroups(instance, &count, NULL));
    assert_int_equal(count, 1);

    VkPhysicalDeviceGroupProperties groups[2];
    for (uint32_t i = 0; i < 2; i++) {
        memset(&groups[i], 0xA5, sizeof(groups[i]));
        groups[i].sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES;
        groups[i].pNext = NULL;
    }
    count = 0;
    assert_int_equal(vkEnumeratePhysicalDeviceGroups(instance, &count, groups), VK_INCOMPLETE);
    assert_int_equal(count, 0);

    count = 2;
    VK_CHECK(vkEnumeratePhysicalDeviceGroups(instance, &count, groups));
    assert_int_equal(count, 1);
    assert_int_equal(groups[0].physicalDeviceCount, 1);
    assert_ptr_equal(groups[0].physicalDevices[0], device);
    assert_int_equal(groups[0].subsetAllocation, VK_FALSE);
    assert_int_equal(groups[1].physicalDeviceCount, 0xA5A5A5A5u); /* untouched */
    vkDestroyInstance(instance, NULL);
}

static void test_device_extensions(void **state)
{
    struct vkmm_test *t = *state;
    uint32_t count = 0;
    VK_CHECK(vkEnumerateDeviceExtensionProperties(t->physical_device, NULL, &count, NULL));
    assert_true(count >= 2);
    VkExtensionProperties *all = calloc(count, sizeof(*all));
    assert_non_null(all);
    uint32_t got = count;
    VK_CHECK(vkEnumerateDeviceExtensionProperties(t->physical_device, NULL, &got, all));
    assert_int_equal(got, count);
    assert_true(has_extension(all, count, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME));
    assert_true(has_extension(all, count, VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME));
    /* A compute-only driver without presentation. */
    assert_false(has_extension(all, count, "VK_KHR_swapchain"));

    VkExtensionProperties *some = calloc(count, sizeof(*some));
    assert_non_null(some);
    got = count - 1;
    assert_int_equal(vkEnumerateDeviceExtensionProperties(t->physical_device, NULL, &got, some), VK_INCOMPLETE);
    assert_int_equal(got, count - 1);
    for (uint32_t i = 0; i < got; i++) {
        assert_string_equal(some[i].extensionName, all[i].extensionName);
        assert_int_equal(some[i].specVersion, all[i].specVersion);
    }
    got = 0;
    assert_int_equal(vkEnumerateDeviceExtensionProperties(t->physical_device, NULL, &got, some), VK_INCOMPLETE);
    assert_int_equal(got, 0);
    free(some);
    free(all);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_instance_version_is_1_3),
        cmocka_unit_test(test_instance_extensions_two_call_and_incomplete),
        cmocka_unit_test(test_create_instance_with_unsupported_extension_fails),
        cmocka_unit_test(test_enumerate_physical_devices),
        cmocka_unit_test(test_enumerate_physical_device_groups),
        cmocka_unit_test_setup_teardown(test_device_extensions, vkmm_test_setup, vkmm_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
