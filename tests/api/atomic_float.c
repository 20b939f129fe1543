/* VK_EXT_shader_atomic_float through the loader, in both modes: the
 * extension and its buffer and shared-memory features are advertised (the
 * image ones are not, and vkCreateDevice refuses them), and atomicAdd and
 * atomicExchange on 32- and 64-bit floats give exact sums
 * (tests/api/shaders/atomic_float.comp). */
#include <string.h>

#include "vkmm_test.h"

#define HOST (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)

static const char *const extension = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME;

static VkPhysicalDeviceShaderAtomicFloatFeaturesEXT supported(struct vkmm_test *t)
{
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT f = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
    };
    VkPhysicalDeviceFeatures2 features = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f };
    vkGetPhysicalDeviceFeatures2(t->physical_device, &features);
    return f;
}

static void test_features(void **state)
{
    struct vkmm_test *t = *state;
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT f = supported(t);
    assert_true(f.shaderBufferFloat32Atomics && f.shaderBufferFloat32AtomicAdd);
    assert_true(f.shaderBufferFloat64Atomics && f.shaderBufferFloat64AtomicAdd);
    assert_true(f.shaderSharedFloat32Atomics && f.shaderSharedFloat32AtomicAdd);
    assert_true(f.shaderSharedFloat64Atomics && f.shaderSharedFloat64AtomicAdd);
    assert_false(f.shaderImageFloat32Atomics || f.shaderImageFloat32AtomicAdd);
    assert_false(f.sparseImageFloat32Atomics || f.sparseImageFloat32AtomicAdd);
    uint32_t count = 0;
    VK_CHECK(vkEnumerateDeviceExtensionProperties(t->physical_device, NULL, &count, NULL));
    VkExtensionProperties properties[64];
    assert_true(count <= 64);
    VK_CHECK(vkEnumerateDeviceExtensionProperties(t->physical_device, NULL, &count, properties));
    bool listed = false;
    for (uint32_t i = 0; i < count; i++)
        listed |= strcmp(properties[i].extensionName, extension) == 0;
    assert_true(listed);

    /* An image feature it does not have: VK_ERROR_FEATURE_NOT_PRESENT. */
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT image = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
        .shaderImageFloat32AtomicAdd = VK_TRUE,
    };
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueCount = 1,
                                      .pQueuePriorities = &priority };
    VkDeviceCreateInfo info = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &image,
                                .queueCreateInfoCount = 1, .pQueueCreateInfos = &queue,
                                .enabledExtensionCount = 1, .ppEnabledExtensionNames = &extension };
    VkDevice device = VK_NULL_HANDLE;
    /* vkmm's message naming the feature, and the loader's two after it
     * (and whatever the validation layer adds, as tests/api/device_create.c). */
    uint32_t driver_before = t->driver_errors, validation_before = t->validation_errors;
    t->expected_errors += 3;
    assert_int_equal(vkCreateDevice(t->physical_device, &info, NULL, &device), VK_ERROR_FEATURE_NOT_PRESENT);
    assert_int_equal(t->driver_errors, driver_before + 1);
    t->expected_errors += t->validation_errors - validation_before;
}

static int setup_with_extension(void **state)
{
    static VkPhysicalDeviceShaderAtomicFloatFeaturesEXT features = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
        .shaderBufferFloat32Atomics = VK_TRUE,
        .shaderBufferFloat32AtomicAdd = VK_TRUE,
        .shaderBufferFloat64Atomics = VK_TRUE,
        .shaderBufferFloat64AtomicAdd = VK_TRUE,
        .shaderSharedFloat32Atomics = VK_TRUE,
        .shaderSharedFloat32AtomicAdd = VK_TRUE,
        .shaderSharedFloat64Atomics = VK_TRUE,
        .shaderSharedFloat64AtomicAdd = VK_TRUE,
    };
    struct vkmm_test_options options = { .device_features_chain = &features, .device_extensions = &extension,
                                         .device_extension_count = 1 };
    *state = vkmm_test_create(&options);
    return *state ? 0 : -1;
}

struct sums {
    float total, swapped;
    double total64;
    float per_group[8];
};

static void test_float_atomics(void **state)
{
    struct vkmm_test *t = *state;
    struct vkmm_test_buffer buffer = vkmm_test_buffer_create(t, sizeof(struct sums), HOST);
    memset(buffer.mapped, 0, sizeof(struct sums));
    struct vkmm_test_compute c = vkmm_test_compute_create(t, "atomic_float", 1, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &c, 0, buffer.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&c, cmd, NULL, 0, 8, 1, 1);
    vkmm_test_compute_to_host_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    const struct sums *s = buffer.mapped;
    assert_true(s->total == 128.0f);
    assert_true(s->total64 == 1024.0);
    assert_true(s->swapped >= 1000.0f && s->swapped < 1512.0f && s->swapped == (float)(int)s->swapped);
    for (int g = 0; g < 8; g++)
        assert_true(s->per_group[g] == 96.0f);
    vkmm_test_compute_destroy(t, &c);
    vkmm_test_buffer_destroy(t, &buffer);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_features, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_float_atomics, setup_with_extension, vkmm_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
