/* Write-after-read and write-after-write on one queue, inside one command
 * buffer, across command buffers of a submission and across submissions.
 * Nothing but an execution dependency orders two commands of one queue: a WAR
 * needs a barrier (an execution-only one is enough), a WAW a barrier with
 * the write accesses.  Without one, strict mode runs the later command
 * first. */
#include "sync_harness.h"

enum {
    CORRECT_WAR,
    WAR_NO_BARRIER,
    WAR_WRONG_STAGE,
    CORRECT_WAW,
    WAW_NO_BARRIER,
    CORRECT_WAR_TWO_COMMAND_BUFFERS,
    WAR_TWO_COMMAND_BUFFERS,
    CORRECT_WAR_DISPATCH,
    WAR_DISPATCH,
    CORRECT_WAR_TWO_SUBMISSIONS,
    WAR_TWO_SUBMISSIONS,
    CORRECT_BARRIER_AFTER_PRODUCER,
    BARRIER_BEFORE_PRODUCER,
    VARIANTS
};

static const struct sync_variant variants[VARIANTS] = {
    [CORRECT_WAR] = { "correct_write_after_read", NULL },
    [WAR_NO_BARRIER] = { "bug_write_after_read_no_barrier", "VKMM-HAZARD-WRITE-AFTER-READ" },
    [WAR_WRONG_STAGE] = { "bug_write_after_read_barrier_misses_reader", "VKMM-HAZARD-WRITE-AFTER-READ" },
    [CORRECT_WAW] = { "correct_write_after_write", NULL },
    [WAW_NO_BARRIER] = { "bug_write_after_write_no_barrier", "VKMM-HAZARD-WRITE-AFTER-WRITE" },
    [CORRECT_WAR_TWO_COMMAND_BUFFERS] = { "correct_write_after_read_across_command_buffers", NULL },
    [WAR_TWO_COMMAND_BUFFERS] = { "bug_write_after_read_across_command_buffers", "VKMM-HAZARD-WRITE-AFTER-READ" },
    [CORRECT_WAR_DISPATCH] = { "correct_dispatch_then_overwrite", NULL },
    [WAR_DISPATCH] = { "bug_dispatch_then_overwrite_no_barrier", "VKMM-HAZARD-WRITE-AFTER-READ" },
    [CORRECT_WAR_TWO_SUBMISSIONS] = { "correct_write_after_read_across_submissions", NULL },
    [WAR_TWO_SUBMISSIONS] = { "bug_write_after_read_across_submissions", "VKMM-HAZARD-WRITE-AFTER-READ" },
    [CORRECT_BARRIER_AFTER_PRODUCER] = { "correct_barrier_after_producer", NULL },
    [BARRIER_BEFORE_PRODUCER] = { "bug_barrier_recorded_before_producer", "VKMM-HAZARD-STALE-READ" },
};

/* ALL_TRANSFER: whether vkCmdFillBuffer runs in the CLEAR or the COPY stage,
 * the barriers cover it (vkmm says CLEAR, the validation layer COPY). */
#define FILL_STAGE VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT
#define OLD_VALUE 0x5eed1234u
#define NEW_VALUE 0xdeadbeefu

static void host_barrier(VkCommandBuffer cmd)
{
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                 VK_ACCESS_2_HOST_READ_BIT);
}

/* The command buffers in one submission, or each in its own vkQueueSubmit2
 * (`separately`); then waits for the queue. */
static void submit_all(struct vkmm_test *t, VkCommandBuffer *cmds, uint32_t count, bool separately)
{
    VkCommandBufferSubmitInfo infos[2];
    for (uint32_t i = 0; i < count; i++) {
        VK_CHECK(vkEndCommandBuffer(cmds[i]));
        infos[i] = (VkCommandBufferSubmitInfo){ .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                                .commandBuffer = cmds[i] };
    }
    for (uint32_t i = 0; i < (separately ? count : 1); i++) {
        VkSubmitInfo2 submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                                 .commandBufferInfoCount = separately ? 1 : count,
                                 .pCommandBufferInfos = &infos[i] };
        VK_CHECK(vkQueueSubmit2(t->compute_queues[0], 1, &submit, VK_NULL_HANDLE));
    }
    VK_CHECK(vkQueueWaitIdle(t->compute_queues[0]));
    vkFreeCommandBuffers(t->device, t->pool, count, cmds);
}

/* Copy (or a dispatch) reads `source`, then a fill overwrites it. */
static void write_after_read(struct vkmm_test *t, int variant, VkBuffer source, VkBuffer readback)
{
    bool dispatch = variant == CORRECT_WAR_DISPATCH || variant == WAR_DISPATCH;
    bool submissions = variant == CORRECT_WAR_TWO_SUBMISSIONS || variant == WAR_TWO_SUBMISSIONS;
    bool split = submissions || variant == CORRECT_WAR_TWO_COMMAND_BUFFERS || variant == WAR_TWO_COMMAND_BUFFERS;
    VkPipelineStageFlags2 reader = dispatch ? VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT : VK_PIPELINE_STAGE_2_COPY_BIT;
    struct vkmm_test_compute consume = { 0 };
    VkCommandBuffer cmds[2] = { vkmm_test_begin(t), VK_NULL_HANDLE };
    vkCmdFillBuffer(cmds[0], source, 0, VK_WHOLE_SIZE, OLD_VALUE);
    /* Orders the overwrite after this fill too: only the WAR is wrong. */
    sync_barrier(cmds[0], FILL_STAGE, VK_ACCESS_2_TRANSFER_WRITE_BIT, reader | FILL_STAGE,
                 (dispatch ? VK_ACCESS_2_SHADER_STORAGE_READ_BIT : VK_ACCESS_2_TRANSFER_READ_BIT) |
                     VK_ACCESS_2_TRANSFER_WRITE_BIT);
    if (dispatch) {
        consume = vkmm_test_compute_create(t, "sync_double", 2, 0, NULL);
        vkmm_test_compute_bind_buffer(t, &consume, 0, source, 0, VK_WHOLE_SIZE);
        vkmm_test_compute_bind_buffer(t, &consume, 1, readback, 0, VK_WHOLE_SIZE);
        vkmm_test_compute_dispatch(&consume, cmds[0], NULL, 0, SYNC_WORDS / 64, 1, 1);
    } else {
        VkBufferCopy all = { 0, 0, SYNC_WORDS * 4 };
        vkCmdCopyBuffer(cmds[0], source, readback, 1, &all);
    }
    bool ordered = variant == CORRECT_WAR || variant == CORRECT_WAR_TWO_COMMAND_BUFFERS ||
                   variant == CORRECT_WAR_DISPATCH || variant == CORRECT_WAR_TWO_SUBMISSIONS;
    if (split)
        cmds[1] = vkmm_test_begin(t);
    VkCommandBuffer last = cmds[split ? 1 : 0];
    /* A WAR needs only an execution dependency: no access masks.  A
     * barrier's first scope reaches back into earlier submissions. */
    if (ordered)
        sync_barrier(last, reader, 0, FILL_STAGE, 0);
    else if (variant == WAR_WRONG_STAGE)
        sync_barrier(last, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, 0, FILL_STAGE, 0);
    vkCmdFillBuffer(last, source, 0, VK_WHOLE_SIZE, NEW_VALUE);
    host_barrier(last);
    submit_all(t, cmds, split ? 2 : 1, submissions);
    if (dispatch)
        vkmm_test_compute_destroy(t, &consume);
}

/* Two fills of one buffer: the later must win. */
static void write_after_write(struct vkmm_test *t, int variant, VkBuffer source, VkBuffer readback)
{
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdFillBuffer(cmd, source, 0, VK_WHOLE_SIZE, NEW_VALUE);
    if (variant == CORRECT_WAW)
        sync_barrier(cmd, FILL_STAGE, VK_ACCESS_2_TRANSFER_WRITE_BIT, FILL_STAGE,
                     VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdFillBuffer(cmd, source, 0, VK_WHOLE_SIZE, OLD_VALUE);
    sync_barrier(cmd, FILL_STAGE, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                 VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferCopy all = { 0, 0, SYNC_WORDS * 4 };
    vkCmdCopyBuffer(cmd, source, readback, 1, &all);
    host_barrier(cmd);
    submit_all(t, &cmd, 1, false);
}

/* Two dispatches write two buffers; the barrier meant for the second one
 * is recorded between them (bug) or after the second (correct); a copy
 * reads the second buffer.  The barrier runs after the first dispatch and,
 * in strict mode, after the second one too, which nothing orders before
 * it: its availability operation must still not take the second one's
 * writes (they are outside its first synchronization scope). */
static void barrier_placement(struct vkmm_test *t, int variant, VkBuffer other, VkBuffer source, VkBuffer readback)
{
    struct vkmm_test_compute first = vkmm_test_compute_create(t, "sync_produce", 1, 0, NULL);
    struct vkmm_test_compute second = vkmm_test_compute_create(t, "sync_produce", 1, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &first, 0, other, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(t, &second, 0, source, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkmm_test_compute_dispatch(&first, cmd, NULL, 0, SYNC_WORDS / 64, 1, 1);
    if (variant == BARRIER_BEFORE_PRODUCER)
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    vkmm_test_compute_dispatch(&second, cmd, NULL, 0, SYNC_WORDS / 64, 1, 1);
    if (variant == CORRECT_BARRIER_AFTER_PRODUCER)
        sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferCopy all = { 0, 0, SYNC_WORDS * 4 };
    vkCmdCopyBuffer(cmd, source, readback, 1, &all);
    host_barrier(cmd);
    submit_all(t, &cmd, 1, false);
    vkmm_test_compute_destroy(t, &first);
    vkmm_test_compute_destroy(t, &second);
}

static void program(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    struct vkmm_test_buffer source = vkmm_test_buffer_create(t, SYNC_WORDS * 4, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer readback = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    struct vkmm_test_buffer other = vkmm_test_buffer_create(t, SYNC_WORDS * 4, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (variant == CORRECT_WAW || variant == WAW_NO_BARRIER)
        write_after_write(t, variant, source.buffer, readback.buffer);
    else if (variant == CORRECT_BARRIER_AFTER_PRODUCER || variant == BARRIER_BEFORE_PRODUCER)
        barrier_placement(t, variant, other.buffer, source.buffer, readback.buffer);
    else
        write_after_read(t, variant, source.buffer, readback.buffer);
    memcpy(result, readback.mapped, SYNC_WORDS * 4);
    vkmm_test_buffer_destroy(t, &source);
    vkmm_test_buffer_destroy(t, &readback);
    vkmm_test_buffer_destroy(t, &other);
}

static void run(int variant)
{
    static uint32_t expected[SYNC_WORDS];
    bool dispatch = variant == CORRECT_WAR_DISPATCH || variant == WAR_DISPATCH;
    bool produced = variant == CORRECT_BARRIER_AFTER_PRODUCER || variant == BARRIER_BEFORE_PRODUCER;
    for (uint32_t i = 0; i < SYNC_WORDS; i++)
        expected[i] = produced ? i + 1000u : dispatch ? OLD_VALUE * 2u : OLD_VALUE;
    sync_check(program, variant, &variants[variant], expected);
}

static void correct_write_after_read(void **state) { (void)state; run(CORRECT_WAR); }
static void bug_write_after_read_no_barrier(void **state) { (void)state; run(WAR_NO_BARRIER); }
static void bug_write_after_read_barrier_misses_reader(void **state) { (void)state; run(WAR_WRONG_STAGE); }
static void correct_write_after_write(void **state) { (void)state; run(CORRECT_WAW); }
static void bug_write_after_write_no_barrier(void **state) { (void)state; run(WAW_NO_BARRIER); }
static void correct_across_command_buffers(void **state) { (void)state; run(CORRECT_WAR_TWO_COMMAND_BUFFERS); }
static void bug_across_command_buffers(void **state) { (void)state; run(WAR_TWO_COMMAND_BUFFERS); }
static void correct_dispatch_then_overwrite(void **state) { (void)state; run(CORRECT_WAR_DISPATCH); }
static void bug_dispatch_then_overwrite(void **state) { (void)state; run(WAR_DISPATCH); }
static void correct_across_submissions(void **state) { (void)state; run(CORRECT_WAR_TWO_SUBMISSIONS); }
static void bug_across_submissions(void **state) { (void)state; run(WAR_TWO_SUBMISSIONS); }
static void correct_barrier_after_producer(void **state) { (void)state; run(CORRECT_BARRIER_AFTER_PRODUCER); }
static void bug_barrier_before_producer(void **state) { (void)state; run(BARRIER_BEFORE_PRODUCER); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct_write_after_read),
        cmocka_unit_test(bug_write_after_read_no_barrier),
        cmocka_unit_test(bug_write_after_read_barrier_misses_reader),
        cmocka_unit_test(correct_write_after_write),
        cmocka_unit_test(bug_write_after_write_no_barrier),
        cmocka_unit_test(correct_across_command_buffers),
        cmocka_unit_test(bug_across_command_buffers),
        cmocka_unit_test(correct_dispatch_then_overwrite),
        cmocka_unit_test(bug_dispatch_then_overwrite),
        cmocka_unit_test(correct_across_submissions),
        cmocka_unit_test(bug_across_submissions),
        cmocka_unit_test(correct_barrier_after_producer),
        cmocka_unit_test(bug_barrier_before_producer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
