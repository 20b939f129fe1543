/* A specialization map entry outside pData (VUID-VkSpecializationInfo-
 * offset-00773, -pMapEntries-00774) is never read out of bounds: it is
 * ignored with an error message naming the VUID, and the constant keeps
 * its default.  A valid entry next to it still applies. */
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

static uint32_t run_with(const VkSpecializationInfo *info, struct vkmm_test *t)
{
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, 16, coherent);
    struct vkmm_test_compute k = vkmm_test_compute_create(t, "spec_value", 1, 0, info);
    vkmm_test_compute_bind_buffer(t, &k, 0, b.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&k, cmd, NULL, 0, 1, 1, 1);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    uint32_t value = *(const uint32_t *)b.mapped;
    vkmm_test_compute_destroy(t, &k);
    vkmm_test_buffer_destroy(t, &b);
    return value;
}

static void test_specialization_entry_outside_data_is_reported_and_ignored(void **state)
{
    (void)state;
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    uint32_t data = 42;
    VkSpecializationMapEntry past = { .constantID = 3, .offset = 64, .size = 4 };
    VkSpecializationInfo info = { .mapEntryCount = 1, .pMapEntries = &past, .dataSize = 4, .pData = &data };
    t->expected_errors = 1;
    assert_int_equal(run_with(&info, t), 7);
    assert_int_equal(t->driver_errors + t->validation_errors, 1);
    assert_non_null(strstr(t->message_ids, "VUID-VkSpecializationInfo-offset-00773"));
    VkSpecializationMapEntry valid = { .constantID = 3, .offset = 0, .size = 4 };
    info.pMapEntries = &valid;
    assert_int_equal(run_with(&info, t), 42);
    assert_int_equal(t->driver_errors + t->validation_errors, 1);
    vkmm_test_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specialization_entry_outside_data_is_reported_and_ignored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
