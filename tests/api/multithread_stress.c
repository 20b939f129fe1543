/* Four host threads drive one device the way a multi-threaded renderer
 * does, each call externally synchronised as Vulkan requires, and every
 * number the device computes is checked:
 *
 *  - two queues, each behind a mutex (threads 0 and 1 submit to queue 0,
 *    threads 2 and 3 to queue 1);
 *  - two timeline-semaphore chains: step k (thread (k-1) % 4) waits for
 *    chain[k % 2] value n-1 and signals n = (k+1)/2, so every wait is for a
 *    signal another thread submitted on the other queue, and the two
 *    chains run beside each other;
 *  - each thread has its own command pool and a ring of RING command
 *    buffers; before using one again it waits on the host for the timeline
 *    value that buffer's previous submission signalled (issue #11 item 5:
 *    strict mode said "command buffer is still pending" here), checks what
 *    that submission wrote, then re-records it (every other use, half of
 *    them after an explicit reset) or submits it again unchanged;
 *  - a step's input is written into HOST_COHERENT memory by the next
 *    thread, not the submitter, after the submitter's wait and before its
 *    submit (mutex-ordered); for ring slot 0 through a persistent mapping,
 *    for the others with vkMapMemory/vkUnmapMemory around each write, while
 *    the other threads submit.
 *
 * Each chain's running value is running[i] = running[i] * m_k + input_k[i]
 * (wrapping uint32 arithmetic, exact), and every step's output is checked
 * against the host's own computation.  VKMM_STRESS_STEPS sets the number of
 * steps (default 6000: 1,500 per thread, a few seconds in strict mode
 * under ASan). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vkmm_test.h"

#define THREADS 4
#define QUEUES 2
#define CHAINS 2
#define RING 3
#define WORDS 64 /* one workgroup of stress_step.comp */
#define DEFAULT_STEPS 6000

/* cmocka's failures long-jump to the main thread's test: a worker thread
 * reports a Vulkan error and aborts the process instead. */
#define WORKER_CHECK(call)                                                                            \
    do {                                                                                              \
        VkResult worker_check_result_ = (call);                                                       \
        if (worker_check_result_ != VK_SUCCESS) {                                                     \
            fprintf(stderr, "%s returned %d at %s:%d\n", #call, worker_check_result_, __FILE__, __LINE__); \
            abort();                                                                                  \
        }                                                                                             \
    } while (0)

struct slot {
    struct vkmm_test_buffer input, output; /* input: mapped only while written, except in slot 0 */
    VkDescriptorSet set;
    VkCommandBuffer cmd;
    uint64_t last_step; /* the step its latest submission ran; 0 before the first */
};

/* An input another thread is asked to write. */
struct request {
    bool pending;
    uint64_t step;
    struct vkmm_test_buffer *input;
};

struct stress {
    struct vkmm_test *t;
    struct vkmm_test_compute compute;
    VkDescriptorPool set_pool;
    struct vkmm_test_buffer running[CHAINS];
    VkSemaphore chains[CHAINS];
    uint64_t steps;
    uint32_t *expected; /* (steps + 1) * WORDS: the running value after each step */
    pthread_mutex_t queue_locks[QUEUES];
    pthread_mutex_t lock; /* the fields below */
    pthread_cond_t changed;
    uint64_t submitted[CHAINS];      /* the highest chain value whose signal was submitted */
    struct request mailbox[THREADS]; /* mailbox[w]: thread w is asked to write an input */
    uint32_t finished;               /* threads that submitted all their steps */
};

struct worker {
    struct stress *s;
    uint32_t index;
    pthread_t thread;
    VkCommandPool pool;
    struct slot slots[RING];
    uint32_t mismatches;
    char first_mismatch[160];
    uint32_t rerecorded, resubmitted, inputs_written, outputs_checked;
};

static uint32_t input_word(uint64_t step, uint32_t i)
{
    return ((uint32_t)step * 2654435761u) ^ (i * 40503u + 17u);
}

static uint32_t initial_word(uint32_t chain, uint32_t i)
{
    return 1000u * (chain + 1) + i;
}

static uint32_t chain_of(uint64_t step)
{
    return (uint32_t)(step % CHAINS);
}

static uint64_t chain_value(uint64_t step)
{
    return (step + 1) / 2;
}

/* The j-th step of a thread uses ring slot j % RING; its uses alternate
 * between re-recording and submitting the recorded buffer again. */
static uint64_t use_of(uint64_t step)
{
    return (step - 1) / THREADS / RING;
}

static bool rerecords(uint64_t step)
{
    return use_of(step) % 2 == 0;
}

/* The multiplier a step's command buffer was recorded with: its own, or
 * that of the previous use of its slot when submitted unchanged. */
static uint32_t multiplier(uint64_t step)
{
    uint64_t recorded = rerecords(step) ? step : step - THREADS * RING;
    return 2u + (uint32_t)(recorded % 7);
}

static void compute_expected(struct stress *s)
{
    s->expected = calloc((s->steps + 1) * WORDS, sizeof(uint32_t));
    assert_non_null(s->expected);
    for (uint64_t step = 1; step <= s->steps; step++) {
        for (uint32_t i = 0; i < WORDS; i++) {
            uint32_t before = step > CHAINS ? s->expected[(step - CHAINS) * WORDS + i] : initial_word(chain_of(step), i);
            s->expected[step * WORDS + i] = before * multiplier(step) + input_word(step, i);
        }
    }
}

/* --- What the workers wait for ----------------------------------------------- */

enum until { UNTIL_INPUT_WRITTEN, UNTIL_SIGNAL_SUBMITTED, UNTIL_ALL_FINISHED };

static bool reached(const struct stress *s, enum until what, uint64_t arg)
{
    switch (what) {
    case UNTIL_INPUT_WRITTEN:
        return !s->mailbox[arg].pending;
    case UNTIL_SIGNAL_SUBMITTED: /* arg: a step; its wait's signal is submitted */
        return s->submitted[chain_of(arg)] + 1 >= chain_value(arg);
    case UNTIL_ALL_FINISHED:
        return s->finished == THREADS;
    }
    return false;
}

static void write_input(struct worker *w, const struct request *r)
{
    struct vkmm_test *t = w->s->t;
    void *mapped = r->input->mapped;
    if (!mapped)
        WORKER_CHECK(vkMapMemory(t->device, r->input->memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    uint32_t *words = mapped;
    for (uint32_t i = 0; i < WORDS; i++)
        words[i] = input_word(r->step, i);
    if (!r->input->mapped)
        vkUnmapMemory(t->device, r->input->memory);
    w->inputs_written++;
}

/* Lock held.  Waits for `what`, meanwhile writing the inputs the other
 * threads ask this one for (they may be waiting for them). */
static void wait_for(struct worker *w, enum until what, uint64_t arg)
{
    struct stress *s = w->s;
    struct request *mine = &s->mailbox[w->index];
    while (!reached(s, what, arg)) {
        if (mine->pending) {
            struct request r = *mine;
            pthread_mutex_unlock(&s->lock);
            write_input(w, &r);
            pthread_mutex_lock(&s->lock);
            mine->pending = false;
            pthread_cond_broadcast(&s->changed);
            continue;
        }
        pthread_cond_wait(&s->changed, &s->lock);
    }
}

/* --- One thread's steps ------------------------------------------------------- */

static void host_wait(struct stress *s, uint64_t step)
{
    uint64_t value = chain_value(step);
    VkSemaphoreWaitInfo wait = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1,
                                 .pSemaphores = &s->chains[chain_of(step)], .pValues = &value };
    WORKER_CHECK(vkWaitSemaphores(s->t->device, &wait, UINT64_MAX));
}

/* The slot's previous submission has completed (the host waited for its
 * signal): its output must be that step's running value. */
static void check_output(struct worker *w, const struct slot *slot)
{
    const uint32_t *out = slot->output.mapped, *expected = &w->s->expected[slot->last_step * WORDS];
    for (uint32_t i = 0; i < WORDS; i++) {
        if (out[i] == expected[i])
            continue;
        if (w->mismatches++ == 0)
            snprintf(w->first_mismatch, sizeof(w->first_mismatch), "thread %u step %llu word %u: %u, expected %u",
                     w->index, (unsigned long long)slot->last_step, i, out[i], expected[i]);
    }
    w->outputs_checked++;
}

static void record(struct worker *w, struct slot *slot, uint64_t step)
{
    struct vkmm_test_compute *c = &w->s->compute;
    /* Half of the re-recordings reset explicitly, half through
     * vkBeginCommandBuffer's implicit reset. */
    if (use_of(step) % 4 == 2)
        WORKER_CHECK(vkResetCommandBuffer(slot->cmd, 0));
    VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
    WORKER_CHECK(vkBeginCommandBuffer(slot->cmd, &begin));
    uint32_t m = multiplier(step);
    vkCmdBindPipeline(slot->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->pipeline);
    vkCmdBindDescriptorSets(slot->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &slot->set, 0, NULL);
    vkCmdPushConstants(slot->cmd, c->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(m), &m);
    vkCmdDispatch(slot->cmd, 1, 1, 1);
    /* To the next step (through the semaphore) and to the host's reads. */
    vkmm_test_full_barrier(slot->cmd);
    WORKER_CHECK(vkEndCommandBuffer(slot->cmd));
    w->rerecorded++;
}

static void submit(struct worker *w, struct slot *slot, uint64_t step)
{
    struct stress *s = w->s;
    uint64_t value = chain_value(step);
    VkSemaphoreSubmitInfo wait = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                   .semaphore = s->chains[chain_of(step)], .value = value - 1,
                                   .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    VkSemaphoreSubmitInfo signal = wait;
    signal.value = value;
    VkCommandBufferSubmitInfo cmd = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                      .commandBuffer = slot->cmd };
    VkSubmitInfo2 info = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .waitSemaphoreInfoCount = value > 1 ? 1 : 0,
                           .pWaitSemaphoreInfos = &wait, .commandBufferInfoCount = 1, .pCommandBufferInfos = &cmd,
                           .signalSemaphoreInfoCount = 1, .pSignalSemaphoreInfos = &signal };
    uint32_t queue = w->index / (THREADS / QUEUES);
    pthread_mutex_lock(&s->queue_locks[queue]);
    WORKER_CHECK(vkQueueSubmit2(s->t->compute_queues[queue], 1, &info, VK_NULL_HANDLE));
    pthread_mutex_unlock(&s->queue_locks[queue]);
}

static void run_step(struct worker *w, uint64_t step)
{
    struct stress *s = w->s;
    struct slot *slot = &w->slots[(step - 1) / THREADS % RING];
    if (slot->last_step) {
        host_wait(s, slot->last_step);
        check_output(w, slot);
    }
    if (rerecords(step))
        record(w, slot, step);
    else
        w->resubmitted++;
    pthread_mutex_lock(&s->lock);
    uint32_t writer = (w->index + 1) % THREADS;
    s->mailbox[writer] = (struct request){ true, step, &slot->input };
    pthread_cond_broadcast(&s->changed);
    wait_for(w, UNTIL_INPUT_WRITTEN, writer);
    /* A wait is submitted after its signal: the validation layer's
     * timeline tracking does not follow waits before signals across
     * threads. */
    wait_for(w, UNTIL_SIGNAL_SUBMITTED, step);
    pthread_mutex_unlock(&s->lock);
    submit(w, slot, step);
    pthread_mutex_lock(&s->lock);
    s->submitted[chain_of(step)] = chain_value(step);
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    slot->last_step = step;
}

static void *run_worker(void *arg)
{
    struct worker *w = arg;
    struct stress *s = w->s;
    for (uint64_t step = w->index + 1; step <= s->steps; step += THREADS)
        run_step(w, step);
    pthread_mutex_lock(&s->lock);
    s->finished++;
    pthread_cond_broadcast(&s->changed);
    wait_for(w, UNTIL_ALL_FINISHED, 0);
    pthread_mutex_unlock(&s->lock);
    for (uint32_t i = 0; i < RING; i++) {
        if (w->slots[i].last_step) {
            host_wait(s, w->slots[i].last_step);
            check_output(w, &w->slots[i]);
        }
    }
    return NULL;
}

/* --- Set-up --------------------------------------------------------------------- */

static VkSemaphore timeline(struct vkmm_test *t)
{
    VkSemaphoreTypeCreateInfo type = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                       .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE };
    VkSemaphoreCreateInfo info = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type };
    VkSemaphore semaphore;
    VK_CHECK(vkCreateSemaphore(t->device, &info, NULL, &semaphore));
    return semaphore;
}

static void bind(struct stress *s, VkDescriptorSet set, uint32_t binding, VkBuffer buffer)
{
    VkDescriptorBufferInfo info = { buffer, 0, VK_WHOLE_SIZE };
    VkWriteDescriptorSet write = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
                                   .dstBinding = binding, .descriptorCount = 1,
                                   .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &info };
    vkUpdateDescriptorSets(s->t->device, 1, &write, 0, NULL);
}

static void create_worker(struct stress *s, struct worker *w, uint32_t index)
{
    struct vkmm_test *t = s->t;
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    *w = (struct worker){ .s = s, .index = index };
    VkCommandPoolCreateInfo pool = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                     .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT };
    VK_CHECK(vkCreateCommandPool(t->device, &pool, NULL, &w->pool));
    for (uint32_t i = 0; i < RING; i++) {
        struct slot *slot = &w->slots[i];
        slot->input = vkmm_test_buffer_create(t, WORDS * sizeof(uint32_t), coherent);
        slot->output = vkmm_test_buffer_create(t, WORDS * sizeof(uint32_t), coherent);
        if (i != 0) {
            vkUnmapMemory(t->device, slot->input.memory);
            slot->input.mapped = NULL;
        }
        VkDescriptorSetAllocateInfo alloc = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                              .descriptorPool = s->set_pool, .descriptorSetCount = 1,
                                              .pSetLayouts = &s->compute.set_layout };
        VK_CHECK(vkAllocateDescriptorSets(t->device, &alloc, &slot->set));
        /* Threads 0 and 2 run the odd steps (chain 1), 1 and 3 the even. */
        bind(s, slot->set, 0, s->running[(index + 1) % CHAINS].buffer);
        bind(s, slot->set, 1, slot->input.buffer);
        bind(s, slot->set, 2, slot->output.buffer);
        VkCommandBufferAllocateInfo cmd = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                            .commandPool = w->pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                            .commandBufferCount = 1 };
        VK_CHECK(vkAllocateCommandBuffers(t->device, &cmd, &slot->cmd));
    }
}

static void destroy_worker(struct stress *s, struct worker *w)
{
    for (uint32_t i = 0; i < RING; i++) {
        vkmm_test_buffer_destroy(s->t, &w->slots[i].input);
        vkmm_test_buffer_destroy(s->t, &w->slots[i].output);
    }
    vkDestroyCommandPool(s->t->device, w->pool, NULL);
}

static void create_stress(struct stress *s)
{
    const char *steps = getenv("VKMM_STRESS_STEPS");
    s->steps = steps ? strtoull(steps, NULL, 0) : DEFAULT_STEPS;
    assert_true(s->steps >= THREADS);
    s->t = vkmm_test_create(NULL);
    struct vkmm_test *t = s->t;
    assert_true(t->compute_queue_count >= QUEUES);
    s->compute = vkmm_test_compute_create(t, "stress_step", 3, sizeof(uint32_t), NULL);
    VkDescriptorPoolSize size = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, THREADS * RING * 3 };
    VkDescriptorPoolCreateInfo pool = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                        .maxSets = THREADS * RING, .poolSizeCount = 1, .pPoolSizes = &size };
    VK_CHECK(vkCreateDescriptorPool(t->device, &pool, NULL, &s->set_pool));
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t c = 0; c < CHAINS; c++) {
        s->running[c] = vkmm_test_buffer_create(t, WORDS * sizeof(uint32_t), coherent);
        for (uint32_t i = 0; i < WORDS; i++)
            ((uint32_t *)s->running[c].mapped)[i] = initial_word(c, i);
        s->chains[c] = timeline(t);
    }
    for (uint32_t q = 0; q < QUEUES; q++)
        pthread_mutex_init(&s->queue_locks[q], NULL);
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->changed, NULL);
    compute_expected(s);
}

static void destroy_stress(struct stress *s)
{
    for (uint32_t c = 0; c < CHAINS; c++) {
        vkDestroySemaphore(s->t->device, s->chains[c], NULL);
        vkmm_test_buffer_destroy(s->t, &s->running[c]);
    }
    vkDestroyDescriptorPool(s->t->device, s->set_pool, NULL);
    vkmm_test_compute_destroy(s->t, &s->compute);
    for (uint32_t q = 0; q < QUEUES; q++)
        pthread_mutex_destroy(&s->queue_locks[q]);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->changed);
    free(s->expected);
    vkmm_test_destroy(s->t);
}

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

static void test_four_threads_two_queues(void **state)
{
    (void)state;
    struct stress s = { 0 };
    create_stress(&s);
    struct worker workers[THREADS];
    for (uint32_t i = 0; i < THREADS; i++)
        create_worker(&s, &workers[i], i);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (uint32_t i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&workers[i].thread, NULL, run_worker, &workers[i]), 0);
    for (uint32_t i = 0; i < THREADS; i++)
        assert_int_equal(pthread_join(workers[i].thread, NULL), 0);
    double elapsed = seconds_since(&start);
    VK_CHECK(vkDeviceWaitIdle(s.t->device));

    uint32_t mismatches = 0, checked = 0, written = 0, rerecorded = 0, resubmitted = 0;
    for (uint32_t i = 0; i < THREADS; i++) {
        if (workers[i].mismatches && !mismatches)
            print_error("%s\n", workers[i].first_mismatch);
        mismatches += workers[i].mismatches;
        checked += workers[i].outputs_checked;
        written += workers[i].inputs_written;
        rerecorded += workers[i].rerecorded;
        resubmitted += workers[i].resubmitted;
        /* Every input was written by a thread other than its submitter. */
        assert_true(workers[i].inputs_written > 0);
    }
    print_message("%llu steps in %.2f s: %u re-recorded, %u resubmitted unchanged\n", (unsigned long long)s.steps,
                  elapsed, rerecorded, resubmitted);
    assert_int_equal(mismatches, 0);
    assert_int_equal(checked, s.steps);
    assert_int_equal(written, s.steps);
    assert_int_equal(rerecorded + resubmitted, s.steps);
    assert_true(resubmitted > 0);
    /* The last step of each chain left the running value. */
    for (uint64_t last = s.steps; last + CHAINS > s.steps; last--) {
        const uint32_t *running = s.running[chain_of(last)].mapped;
        for (uint32_t i = 0; i < WORDS; i++)
            assert_int_equal(running[i], s.expected[last * WORDS + i]);
    }
    if (s.t->hazard_count)
        print_error("%u hazard reports, the first: [%s] %s\n", s.t->hazard_count, s.t->hazards[0],
                    s.t->first_hazard_message);
    assert_int_equal(s.t->hazard_count, 0);
    for (uint32_t i = 0; i < THREADS; i++)
        destroy_worker(&s, &workers[i]);
    destroy_stress(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_four_threads_two_queues),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
