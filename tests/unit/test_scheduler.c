/* Unit tests of runtime/exec/scheduler.c waits and runtime/semaphore.c payload
 * targets, on a device with no queues. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "alloc.h"
#include "device.h"
#include "scheduler.h"
#include "semaphore.h"

static struct vkmm_device *make_device(void)
{
    struct vkmm_device *device = calloc(1, sizeof(*device));
    device->allocator = vkmm_default_allocator;
    assert_int_equal(vkmm_scheduler_create(device, &device->scheduler), VK_SUCCESS);
    return device;
}

static void free_device(struct vkmm_device *device)
{
    vkmm_scheduler_destroy(device->scheduler);
    free(device);
}

static bool flag_set(void *arg)
{
    return *(bool *)arg;
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void test_scheduler_wait_times_out(void **state)
{
    (void)state;
    struct vkmm_device *device = make_device();
    bool flag = false;
    vkmm_scheduler_lock(device->scheduler);
    assert_int_equal(vkmm_scheduler_wait_locked(device->scheduler, flag_set, &flag, 0), VK_TIMEOUT);
    double start = seconds_now();
    assert_int_equal(vkmm_scheduler_wait_locked(device->scheduler, flag_set, &flag, 30000000ull), VK_TIMEOUT);
    assert_true(seconds_now() - start >= 0.029);
    flag = true;
    assert_int_equal(vkmm_scheduler_wait_locked(device->scheduler, flag_set, &flag, 0), VK_SUCCESS);
    vkmm_scheduler_unlock(device->scheduler);
    free_device(device);
}

struct setter {
    struct vkmm_device *device;
    bool *flag;
};

static void *set_later(void *arg)
{
    struct setter *s = arg;
    usleep(20000);
    vkmm_scheduler_lock(s->device->scheduler);
    *s->flag = true;
    vkmm_scheduler_notify_locked(s->device->scheduler);
    vkmm_scheduler_unlock(s->device->scheduler);
    return NULL;
}

static void test_scheduler_wait_wakes_on_notify(void **state)
{
    (void)state;
    struct vkmm_device *device = make_device();
    bool flag = false;
    struct setter setter = { device, &flag };
    pthread_t thread;
    pthread_create(&thread, NULL, set_later, &setter);
    vkmm_scheduler_lock(device->scheduler);
    /* An effectively infinite timeout must not overflow the deadline. */
    assert_int_equal(vkmm_scheduler_wait_locked(device->scheduler, flag_set, &flag, UINT64_MAX - 1), VK_SUCCESS);
    vkmm_scheduler_unlock(device->scheduler);
    pthread_join(thread, NULL);
    free_device(device);
}

static void test_semaphore_binary_targets_count_operations(void **state)
{
    (void)state;
    struct vkmm_semaphore s = { .type = VK_SEMAPHORE_TYPE_BINARY };
    uint64_t signal1 = vkmm_semaphore_signal_target_locked(&s, 0);
    uint64_t wait1 = vkmm_semaphore_wait_target_locked(&s, 0);
    uint64_t signal2 = vkmm_semaphore_signal_target_locked(&s, 0);
    uint64_t wait2 = vkmm_semaphore_wait_target_locked(&s, 0);
    assert_int_equal(signal1, 1);
    assert_int_equal(wait1, 1);
    assert_int_equal(signal2, 2);
    assert_int_equal(wait2, 2);
    assert_false(vkmm_semaphore_reached_locked(&s, wait1));
    vkmm_semaphore_signal_locked(&s, signal1);
    assert_true(vkmm_semaphore_reached_locked(&s, wait1));
    assert_false(vkmm_semaphore_reached_locked(&s, wait2));
    vkmm_semaphore_signal_locked(&s, signal2);
    assert_true(vkmm_semaphore_reached_locked(&s, wait2));
}

static void test_semaphore_timeline_targets_are_values(void **state)
{
    (void)state;
    struct vkmm_semaphore s = { .type = VK_SEMAPHORE_TYPE_TIMELINE, .payload = 5 };
    assert_int_equal(vkmm_semaphore_wait_target_locked(&s, 7), 7);
    assert_int_equal(vkmm_semaphore_signal_target_locked(&s, 9), 9);
    assert_true(vkmm_semaphore_reached_locked(&s, 5));
    assert_false(vkmm_semaphore_reached_locked(&s, 7));
    vkmm_semaphore_signal_locked(&s, 9);
    assert_true(vkmm_semaphore_reached_locked(&s, 7));
    vkmm_semaphore_signal_locked(&s, 3); /* never goes back */
    assert_int_equal(s.payload, 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scheduler_wait_times_out),
        cmocka_unit_test(test_scheduler_wait_wakes_on_notify),
        cmocka_unit_test(test_semaphore_binary_targets_count_operations),
        cmocka_unit_test(test_semaphore_timeline_targets_are_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
