/* A command buffer whose submission signalled a timeline value the host
 * waited for has completed and may be submitted again — also while an
 * earlier submission on the same queue still waits for a semaphore, so
 * the queue cannot retire its submissions in order yet (strict mode used
 * to say "command buffer is still pending").  Also with no commands, and
 * with only event commands, which no pipeline stage of vkmm's holds
 * (fuzz_api found both).  And resetting or freeing a command buffer that
 * is still pending — invalid — is refused or waited out, never frees
 * commands a queue runs. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vkmm_test.h"

static VkSemaphore timeline(struct vkmm_test *t)
{
    VkSemaphoreTypeCreateInfo type = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                       .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE };
    VkSemaphoreCreateInfo info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type };
    VkSemaphore semaphore;
    VK_CHECK(vkCreateSemaphore(t->device, &info, NULL, &semaphore));
    return semaphore;
}

static void submit_waiting_in(VkQueue queue, VkCommandBuffer cmd, VkSemaphore wait, uint64_t wait_value,
                              VkPipelineStageFlags2 wait_stages, VkSemaphore signal, uint64_t signal_value)
{
    VkSemaphoreSubmitInfo w = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = wait,
                                .value = wait_value, .stageMask = wait_stages };
    VkSemaphoreSubmitInfo s = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = signal,
                                .value = signal_value, .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    VkCommandBufferSubmitInfo c = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = cmd };
    VkSubmitInfo2 info = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .waitSemaphoreInfoCount = wait ? 1 : 0,
                           .pWaitSemaphoreInfos = &w, .commandBufferInfoCount = 1, .pCommandBufferInfos = &c,
                           .signalSemaphoreInfoCount = signal ? 1 : 0, .pSignalSemaphoreInfos = &s };
    VK_CHECK(vkQueueSubmit2(queue, 1, &info, VK_NULL_HANDLE));
}

static void submit(VkQueue queue, VkCommandBuffer cmd, VkSemaphore wait, uint64_t wait_value, VkSemaphore signal,
                   uint64_t signal_value)
{
    submit_waiting_in(queue, cmd, wait, wait_value, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, signal, signal_value);
}

/* Recorded for many submissions (not ONE_TIME_SUBMIT); `barrier`: a full
 * barrier after the fill (its second scope reaches later submissions of
 * the queue, so the gated work records none). */
static VkCommandBuffer recorded(struct vkmm_test *t, VkBuffer buffer, uint32_t value, bool barrier)
{
    VkCommandBufferAllocateInfo alloc = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                          .commandPool = t->pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                          .commandBufferCount = 1 };
    VkCommandBuffer cmd;
    VK_CHECK(vkAllocateCommandBuffers(t->device, &alloc, &cmd));
    VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
    VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
    vkCmdFillBuffer(cmd, buffer, 0, VK_WHOLE_SIZE, value);
    if (barrier)
        vkmm_test_full_barrier(cmd);
    VK_CHECK(vkEndCommandBuffer(cmd));
    return cmd;
}

struct opener {
    struct vkmm_test *t;
    VkSemaphore gate;
};

/* Another host thread opens the gate a little later. */
static void *open_gate(void *arg)
{
    struct opener *o = arg;
    struct timespec pause = { 0, 200 * 1000 * 1000 };
    nanosleep(&pause, NULL);
    VkSemaphoreSignalInfo signal = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = o->gate,
                                     .value = 1 };
    VK_CHECK(vkSignalSemaphore(o->t->device, &signal));
    return NULL;
}

static pthread_t open_gate_later(struct opener *opener)
{
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, open_gate, opener), 0);
    return thread;
}

static void wait_for(struct vkmm_test *t, VkSemaphore semaphore, uint64_t value)
{
    VkSemaphoreWaitInfo wait = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1,
                                 .pSemaphores = &semaphore, .pValues = &value };
    VK_CHECK(vkWaitSemaphores(t->device, &wait, UINT64_MAX));
}

static void test_resubmit_after_waiting_for_its_own_signal(void **state)
{
    (void)state;
    /* Without the layer: its queue tracking times out when a semaphore is
     * signalled by another host thread ("most likely a validation bug"). */
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct vkmm_test_buffer a = vkmm_test_buffer_create(t, 256, coherent), b = vkmm_test_buffer_create(t, 256, coherent);
    VkSemaphore gate = timeline(t), done = timeline(t);
    VkCommandBuffer gated = recorded(t, a.buffer, 1, false), ring = recorded(t, b.buffer, 2, true);
    /* Queue 0 first waits for the gate, then runs `ring`, which does not
     * depend on the gated work and signals `done` = 1.  Strict mode may
     * run `ring` while the gate is still shut (fast mode, like most
     * drivers, runs a queue in order and waits for the other thread). */
    submit(t->compute_queues[0], gated, gate, 1, VK_NULL_HANDLE, 0);
    submit(t->compute_queues[0], ring, VK_NULL_HANDLE, 0, done, 1);
    struct opener opener = { t, gate };
    pthread_t thread = open_gate_later(&opener);
    wait_for(t, done, 1);
    /* `ring` signalled after all its commands: it completed, and
     * submitting it again is valid, whatever else is pending. */
    submit(t->compute_queues[0], ring, VK_NULL_HANDLE, 0, done, 2);
    wait_for(t, done, 2);
    pthread_join(thread, NULL);
    VK_CHECK(vkDeviceWaitIdle(t->device));
    assert_int_equal(((const uint32_t *)a.mapped)[0], 1);
    assert_int_equal(((const uint32_t *)b.mapped)[0], 2);
    assert_int_equal(t->driver_errors + t->validation_errors, 0);
    VkCommandBuffer all[2] = { gated, ring };
    vkFreeCommandBuffers(t->device, t->pool, 2, all);
    vkDestroySemaphore(t->device, gate, NULL);
    vkDestroySemaphore(t->device, done, NULL);
    vkmm_test_buffer_destroy(t, &a);
    vkmm_test_buffer_destroy(t, &b);
    vkmm_test_destroy(t);
}

/* Records `cmd` with no command, or with one vkCmdSetEvent2 of `event`,
 * or with one full barrier. */
static void record_small(VkCommandBuffer cmd, VkEvent event, bool barrier)
{
    VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
    VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
    if (event) {
        VkMemoryBarrier2 barrier = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                                     .srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                     .srcAccessMask = VK_ACCESS_2_SHADER_WRITE_BIT,
                                     .dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                     .dstAccessMask = VK_ACCESS_2_SHADER_READ_BIT };
        VkDependencyInfo dependency = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1,
                                        .pMemoryBarriers = &barrier };
        vkCmdSetEvent2(cmd, event, &dependency);
    }
    if (barrier)
        vkmm_test_full_barrier(cmd);
    VK_CHECK(vkEndCommandBuffer(cmd));
}

/* Behind a submission that waits for a gate, `small` (see record_small)
 * signals `done` = 1 at ALL_COMMANDS; once the host saw that, `small` has
 * completed: resetting it is valid and must succeed. */
static void reset_after_own_signal(bool with_event)
{
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct vkmm_test_buffer a = vkmm_test_buffer_create(t, 256, coherent);
    VkSemaphore gate = timeline(t), done = timeline(t);
    VkEventCreateInfo event_info = { .sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO };
    VkEvent event = VK_NULL_HANDLE;
    if (with_event)
        VK_CHECK(vkCreateEvent(t->device, &event_info, NULL, &event));
    VkCommandBuffer gated = recorded(t, a.buffer, 1, false), small;
    VkCommandBufferAllocateInfo alloc = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                          .commandPool = t->pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                          .commandBufferCount = 1 };
    VK_CHECK(vkAllocateCommandBuffers(t->device, &alloc, &small));
    record_small(small, event, false);
    /* The wait blocks nothing in strict mode (stage NONE), but its
     * submission cannot retire before the gate opens. */
    submit_waiting_in(t->compute_queues[0], gated, gate, 1, VK_PIPELINE_STAGE_2_NONE, VK_NULL_HANDLE, 0);
    submit(t->compute_queues[0], small, VK_NULL_HANDLE, 0, done, 1);
    struct opener opener = { t, gate };
    pthread_t thread = open_gate_later(&opener);
    wait_for(t, done, 1);
    if (with_event)
        assert_int_equal(vkGetEventStatus(t->device, event), VK_EVENT_SET);
    VK_CHECK(vkResetCommandBuffer(small, 0));
    /* Again, as a barrier that makes the gated fill visible to the host. */
    record_small(small, VK_NULL_HANDLE, true);
    submit(t->compute_queues[0], small, VK_NULL_HANDLE, 0, done, 2);
    pthread_join(thread, NULL);
    VK_CHECK(vkDeviceWaitIdle(t->device));
    assert_int_equal(((const uint32_t *)a.mapped)[0], 1);
    assert_int_equal(t->driver_errors + t->validation_errors, 0);
    VkCommandBuffer all[2] = { gated, small };
    vkFreeCommandBuffers(t->device, t->pool, 2, all);
    if (event)
        vkDestroyEvent(t->device, event, NULL);
    vkDestroySemaphore(t->device, gate, NULL);
    vkDestroySemaphore(t->device, done, NULL);
    vkmm_test_buffer_destroy(t, &a);
    vkmm_test_destroy(t);
}

static void test_reset_empty_command_buffer_after_its_signal(void **state)
{
    (void)state;
    reset_after_own_signal(false);
}

static void test_reset_event_only_command_buffer_after_its_signal(void **state)
{
    (void)state;
    reset_after_own_signal(true);
}

/* Invalid: resetting, beginning or pool-resetting a command buffer whose
 * submission still waits.  vkmm refuses each with an error message and
 * the submission later runs its commands as recorded; freeing it waits
 * for it (the gate opens from another thread meanwhile). */
static void test_pending_command_buffer_is_not_reset_or_freed(void **state)
{
    (void)state;
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct vkmm_test_buffer a = vkmm_test_buffer_create(t, 256, coherent);
    VkSemaphore gate = timeline(t);
    VkCommandBuffer gated = recorded(t, a.buffer, 7, true);
    submit(t->compute_queues[0], gated, gate, 1, VK_NULL_HANDLE, 0);
    t->expected_errors = 4;
    assert_int_not_equal(vkResetCommandBuffer(gated, 0), VK_SUCCESS);
    VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
    assert_int_not_equal(vkBeginCommandBuffer(gated, &begin), VK_SUCCESS);
    assert_int_not_equal(vkResetCommandPool(t->device, t->pool, 0), VK_SUCCESS);
    assert_int_equal(t->driver_errors, 3);
    struct opener opener = { t, gate };
    pthread_t thread = open_gate_later(&opener);
    vkFreeCommandBuffers(t->device, t->pool, 1, &gated); /* waits for it */
    assert_int_equal(t->driver_errors, 4);
    pthread_join(thread, NULL);
    VK_CHECK(vkDeviceWaitIdle(t->device));
    assert_int_equal(((const uint32_t *)a.mapped)[0], 7);
    vkDestroySemaphore(t->device, gate, NULL);
    vkmm_test_buffer_destroy(t, &a);
    vkmm_test_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resubmit_after_waiting_for_its_own_signal),
        cmocka_unit_test(test_reset_empty_command_buffer_after_its_signal),
        cmocka_unit_test(test_reset_event_only_command_buffer_after_its_signal),
        cmocka_unit_test(test_pending_command_buffer_is_not_reset_or_freed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
