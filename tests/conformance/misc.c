/* Pipelines and commands around the shaders: large dispatches, staging
 * through device-local memory, secondary command buffers, specialization
 * variants of one module, transfer commands feeding shaders, the Vulkan
 * memory model, pipeline caches. */
#include "cf.h"

static float qrand(void)
{
    return (float)cf_rand_range(-512, 512) * 0.125f;
}

CF_TEST(misc_large_2d_dispatch)
{
    /* 311k elements over a 2D grid of workgroups of 256 (strict mode
     * once took 100 s here: one recorded access per run of changed bytes). */
    enum { GX = 64, GY = 19, N = GX * GY * 256 - 77 };
    float *x = cf_calloc(N, 4), *y = cf_calloc(N + 64, 4);
    for (int i = 0; i < N; i++) {
        x[i] = qrand();
        y[i] = qrand();
    }
    struct cf_buffer *bx = cf_buffer_from(x, N * 4), *by = cf_buffer_from(y, (size_t)N * 4 + 256);
    struct { float a; uint32_t n; } push = { 1.5f, N };
    CF_RUN("misc_saxpy", &push, 8, GX, GY, 1, bx, by);
    float *want = cf_calloc(N + 64, 4);
    for (int i = 0; i < N; i++)
        want[i] = 1.5f * x[i] + y[i];
    cf_expect_f32(by->map, want, N + 64, 0, 0, "saxpy over a 2D grid");
}

CF_TEST(misc_staging)
{
    /* Host -> staging -> device-local, dispatch on device-local buffers,
     * device-local -> staging -> host. */
    enum { N = 5000 };
    float *x = cf_calloc(N, 4), *y = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        x[i] = qrand();
        y[i] = qrand();
    }
    struct cf_buffer *sx = cf_buffer_from(x, N * 4), *sy = cf_buffer_from(y, N * 4), *out = cf_buffer(N * 4);
    struct cf_buffer *dx = cf_buffer_device_local(N * 4), *dy = cf_buffer_device_local(N * 4);
    struct cf_pipeline *p = cf_pipeline("misc_saxpy", 2, 8, NULL);
    struct cf_buffer *bufs[2] = { dx, dy };
    cf_bind_all(p, 2, bufs);
    VkCommandBuffer cmd = cf_begin();
    VkBufferCopy region = { 0, 0, N * 4 };
    vkCmdCopyBuffer(cmd, sx->buffer, dx->buffer, 1, &region);
    vkCmdCopyBuffer(cmd, sy->buffer, dy->buffer, 1, &region);
    VkMemoryBarrier b1 = { VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_TRANSFER_WRITE_BIT,
                           VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &b1, 0, NULL,
                         0, NULL);
    struct { float a; uint32_t n; } push = { -0.5f, N };
    cf_cmd_dispatch(cmd, p, &push, (N + 255) / 256, 1, 1);
    VkMemoryBarrier b2 = { VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &b2, 0, NULL,
                         0, NULL);
    vkCmdCopyBuffer(cmd, dy->buffer, out->buffer, 1, &region);
    cf_submit(cmd);
    float *want = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        want[i] = -0.5f * x[i] + y[i];
    cf_expect_f32(out->map, want, N, 0, 0, "saxpy on device-local memory");
}

CF_TEST(misc_secondary)
{
    /* Dispatches recorded in a secondary command buffer, executed twice
     * from one primary, with a barrier between. */
    enum { N = 3000 };
    float *x = cf_calloc(N, 4), *y = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        x[i] = qrand();
        y[i] = qrand();
    }
    struct cf_buffer *bx = cf_buffer_from(x, N * 4), *by = cf_buffer_from(y, N * 4);
    struct cf_pipeline *p = cf_pipeline("misc_saxpy", 2, 8, NULL);
    struct cf_buffer *bufs[2] = { bx, by };
    cf_bind_all(p, 2, bufs);
    VkCommandBufferAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = cf.t->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
        .commandBufferCount = 1,
    };
    VkCommandBuffer secondary;
    VK_CHECK(vkAllocateCommandBuffers(cf.t->device, &alloc, &secondary));
    VkCommandBufferInheritanceInfo inherit = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO };
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT, /* executed twice in one primary */
        .pInheritanceInfo = &inherit,
    };
    VK_CHECK(vkBeginCommandBuffer(secondary, &begin));
    struct { float a; uint32_t n; } push = { 2.0f, N };
    cf_cmd_dispatch(secondary, p, &push, (N + 255) / 256, 1, 1);
    cf_cmd_compute_barrier(secondary);
    VK_CHECK(vkEndCommandBuffer(secondary));
    VkCommandBuffer cmd = cf_begin();
    vkCmdExecuteCommands(cmd, 1, &secondary);
    vkCmdExecuteCommands(cmd, 1, &secondary);
    cf_submit(cmd);
    vkFreeCommandBuffers(cf.t->device, cf.t->pool, 1, &secondary);
    float *want = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        want[i] = 2.0f * x[i] + (2.0f * x[i] + y[i]);
    cf_expect_f32(by->map, want, N, 0, 0, "two executions of a secondary command buffer");
}

CF_TEST(misc_spec_variants)
{
    /* Four pipelines from one module with different spec constants, each
     * on its own output, recorded in one command buffer. */
    enum { N = 1000, V = 4 };
    float *x = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        x[i] = qrand();
    struct cf_buffer *bx = cf_buffer_from(x, N * 4), *by[V];
    struct cf_pipeline *p[V];
    const float bias[V] = { 0.0f, 1.0f, -2.5f, 100.0f };
    VkCommandBuffer cmd;
    for (int v = 0; v < V; v++) {
        by[v] = cf_buffer(N * 4);
        p[v] = cf_pipeline("misc_saxpy", 2, 8, cf_spec(1, NULL, &bias[v]));
        struct cf_buffer *bufs[2] = { bx, by[v] };
        cf_bind_all(p[v], 2, bufs);
    }
    cmd = cf_begin();
    struct { float a; uint32_t n; } push = { 0.5f, N };
    for (int v = 0; v < V; v++)
        cf_cmd_dispatch(cmd, p[v], &push, (N + 255) / 256, 1, 1);
    cf_submit(cmd);
    float *want = cf_calloc(N, 4);
    for (int v = 0; v < V; v++) {
        for (int i = 0; i < N; i++)
            want[i] = 0.5f * x[i] + 0.0f + bias[v];
        char what[32];
        snprintf(what, sizeof(what), "variant %d", v);
        cf_expect_f32(by[v]->map, want, N, 0, 0, what);
    }
}

CF_TEST(misc_transfer_then_dispatch)
{
    /* vkCmdFillBuffer, vkCmdUpdateBuffer and vkCmdCopyBuffer write the
     * input, a barrier, the shader reads it. */
    enum { N = 64 * 16 };
    struct cf_buffer *a = cf_buffer(N * 4), *src = cf_buffer(N * 4), *o = cf_buffer(N * 4);
    uint32_t *s = src->map;
    for (int i = 0; i < N; i++)
        s[i] = cf_rand();
    memset(a->map, 0xcd, N * 4);
    uint32_t upd[64];
    for (int k = 0; k < 64; k++)
        upd[k] = 0x1000u + (uint32_t)k;
    struct cf_pipeline *p = cf_pipeline("misc_fill_read", 2, 0, NULL);
    struct cf_buffer *bufs[2] = { a, o };
    cf_bind_all(p, 2, bufs);
    VkCommandBuffer cmd = cf_begin();
    vkCmdFillBuffer(cmd, a->buffer, 0, N * 2, 0x01020304u);
    vkCmdUpdateBuffer(cmd, a->buffer, N * 2, sizeof(upd), upd);
    VkBufferCopy region = { N * 2 + sizeof(upd), N * 2 + sizeof(upd), N * 2 - sizeof(upd) };
    vkCmdCopyBuffer(cmd, src->buffer, a->buffer, 1, &region);
    VkMemoryBarrier b = { VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &b, 0, NULL, 0,
                         NULL);
    cf_cmd_dispatch(cmd, p, NULL, N / 64, 1, 1);
    cf_submit(cmd);
    uint32_t *want = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        uint32_t v = i < N / 2 ? 0x01020304u : i < N / 2 + 64 ? upd[i - N / 2] : s[i];
        want[i] = v * 2u + 1u;
    }
    cf_expect_u32(o->map, want, N, "values written by transfer commands");
}

CF_TEST(misc_memory_model)
{
    enum { G = 5 };
    struct cf_buffer *b = cf_buffer(4 + G * 64 * 4);
    CF_RUN("misc_memory_model", NULL, 0, G, 1, 1, b);
    const uint32_t *w = b->map;
    uint32_t *want = cf_calloc(1 + G * 64, 4);
    want[0] = G * 64;
    for (uint32_t g = 0; g < G; g++)
        for (uint32_t l = 0; l < 64; l++)
            want[1 + g * 64 + l] = g * 100u + (l + 7u) % 64u;
    cf_expect_u32(w, want, 1 + G * 64, "message passing with release/acquire atomics");
}

CF_TEST(misc_pipeline_cache)
{
    /* The same pipeline created twice through a pipeline cache (the second
     * from the cache) gives the same results. */
    enum { N = 2000 };
    float *x = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        x[i] = qrand();
    VkPipelineCacheCreateInfo info = { .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO };
    VkPipelineCache cache;
    VK_CHECK(vkCreatePipelineCache(cf.t->device, &info, NULL, &cache));
    size_t size = 0;
    FILE *f = fopen(CF_SHADER_DIR "/misc_saxpy.spv", "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *words = cf_calloc(1, size);
    assert_int_equal(fread(words, 1, size, f), size);
    fclose(f);
    VkShaderModuleCreateInfo module_info = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = words };
    VkShaderModule module;
    VK_CHECK(vkCreateShaderModule(cf.t->device, &module_info, NULL, &module));
    /* Reuse the layout of a helper pipeline. */
    struct cf_pipeline *helper = cf_pipeline("misc_saxpy", 2, 8, NULL);
    VkComputePipelineCreateInfo pinfo = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = module, .pName = "main" },
        .layout = helper->layout,
    };
    VkPipeline pipes[2];
    VK_CHECK(vkCreateComputePipelines(cf.t->device, cache, 1, &pinfo, NULL, &pipes[0]));
    VK_CHECK(vkCreateComputePipelines(cf.t->device, cache, 1, &pinfo, NULL, &pipes[1]));
    struct cf_buffer *bx = cf_buffer_from(x, N * 4), *y0 = cf_buffer(N * 4), *y1 = cf_buffer(N * 4);
    struct cf_buffer *outs[2] = { y0, y1 };
    struct { float a; uint32_t n; } push = { 3.0f, N };
    for (int k = 0; k < 2; k++) {
        struct cf_buffer *bufs[2] = { bx, outs[k] };
        cf_bind_all(helper, 2, bufs);
        VkCommandBuffer cmd = cf_begin();
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipes[k]);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, helper->layout, 0, 1, helper->sets, 0, NULL);
        vkCmdPushConstants(cmd, helper->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, &push);
        vkCmdDispatch(cmd, (N + 255) / 256, 1, 1);
        cf_submit(cmd);
    }
    vkDestroyPipeline(cf.t->device, pipes[0], NULL);
    vkDestroyPipeline(cf.t->device, pipes[1], NULL);
    vkDestroyShaderModule(cf.t->device, module, NULL);
    vkDestroyPipelineCache(cf.t->device, cache, NULL);
    float *want = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        want[i] = 3.0f * x[i];
    cf_expect_f32(y0->map, want, N, 0, 0, "pipeline compiled into the cache");
    cf_expect_f32(y1->map, want, N, 0, 0, "pipeline from the cache");
}

CF_TEST(misc_two_queues)
{
    /* Two submissions on two compute queues, the second waiting on the
     * first through a semaphore. */
    enum { N = 4096 };
    if (cf.t->compute_queue_count < 2)
        skip();
    float *x = cf_calloc(N, 4), *y = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        x[i] = qrand();
        y[i] = qrand();
    }
    struct cf_buffer *bx = cf_buffer_from(x, N * 4), *by = cf_buffer_from(y, N * 4);
    struct cf_pipeline *p = cf_pipeline("misc_saxpy", 2, 8, NULL);
    struct cf_buffer *bufs[2] = { bx, by };
    cf_bind_all(p, 2, bufs);
    VkSemaphoreCreateInfo sinfo = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO };
    VkSemaphore sem;
    VK_CHECK(vkCreateSemaphore(cf.t->device, &sinfo, NULL, &sem));
    VkCommandBuffer cmds[2];
    struct { float a; uint32_t n; } push[2] = { { 2.0f, N }, { -1.0f, N } };
    for (int k = 0; k < 2; k++) {
        cmds[k] = cf_begin();
        cf_cmd_dispatch(cmds[k], p, &push[k], N / 256, 1, 1);
        vkmm_test_full_barrier(cmds[k]);
        VK_CHECK(vkEndCommandBuffer(cmds[k]));
    }
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    VkSubmitInfo first = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmds[0],
                           .signalSemaphoreCount = 1, .pSignalSemaphores = &sem };
    VkSubmitInfo second = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .waitSemaphoreCount = 1, .pWaitSemaphores = &sem,
                            .pWaitDstStageMask = &stage, .commandBufferCount = 1, .pCommandBuffers = &cmds[1] };
    VkFenceCreateInfo finfo = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence;
    VK_CHECK(vkCreateFence(cf.t->device, &finfo, NULL, &fence));
    VK_CHECK(vkQueueSubmit(cf.t->compute_queues[0], 1, &first, VK_NULL_HANDLE));
    VK_CHECK(vkQueueSubmit(cf.t->compute_queues[1], 1, &second, fence));
    VK_CHECK(vkWaitForFences(cf.t->device, 1, &fence, VK_TRUE, UINT64_MAX));
    VK_CHECK(vkQueueWaitIdle(cf.t->compute_queues[0]));
    vkDestroyFence(cf.t->device, fence, NULL);
    vkDestroySemaphore(cf.t->device, sem, NULL);
    vkFreeCommandBuffers(cf.t->device, cf.t->pool, 2, cmds);
    float *want = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        want[i] = -1.0f * x[i] + (2.0f * x[i] + y[i]);
    cf_expect_f32(by->map, want, N, 0, 0, "two queues ordered by a semaphore");
}

CF_TEST(misc_events)
{
    /* Dispatch A; vkCmdSetEvent2 / vkCmdWaitEvents2 carry its writes to
     * dispatch B; then a legacy vkCmdWaitEvents on an event the host sets
     * after the submission, after writing B's second input. */
    enum { N = 1024 };
    float *x = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        x[i] = qrand();
    struct cf_buffer *bx = cf_buffer_from(x, N * 4), *by = cf_buffer(N * 4), *late = cf_buffer(N * 4);
    struct cf_pipeline *first = cf_pipeline("misc_saxpy", 2, 8, NULL);
    struct cf_pipeline *second = cf_pipeline("misc_saxpy", 2, 8, NULL);
    struct cf_buffer *b1[2] = { bx, by }, *b2[2] = { late, by };
    cf_bind_all(first, 2, b1);
    cf_bind_all(second, 2, b2);
    VkEventCreateInfo einfo = { .sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO };
    VkEvent device_event, host_event;
    VK_CHECK(vkCreateEvent(cf.t->device, &einfo, NULL, &device_event));
    VK_CHECK(vkCreateEvent(cf.t->device, &einfo, NULL, &host_event));
    VkCommandBuffer cmd = cf_begin();
    struct { float a; uint32_t n; } p1 = { 2.0f, N }, p2 = { 1.0f, N };
    cf_cmd_dispatch(cmd, first, &p1, N / 256, 1, 1);
    VkMemoryBarrier2 mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        .srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        .dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
    };
    VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &mb };
    vkCmdSetEvent2(cmd, device_event, &dep);
    vkCmdWaitEvents2(cmd, 1, &device_event, &dep);
    VkMemoryBarrier host_to_shader = { VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_HOST_WRITE_BIT,
                                       VK_ACCESS_SHADER_READ_BIT };
    vkCmdWaitEvents(cmd, 1, &host_event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 1,
                    &host_to_shader, 0, NULL, 0, NULL);
    cf_cmd_dispatch(cmd, second, &p2, N / 256, 1, 1);
    vkmm_test_full_barrier(cmd);
    VK_CHECK(vkEndCommandBuffer(cmd));
    VkFenceCreateInfo finfo = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence;
    VK_CHECK(vkCreateFence(cf.t->device, &finfo, NULL, &fence));
    VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd };
    VK_CHECK(vkQueueSubmit(cf.t->compute_queues[0], 1, &submit, fence));
    /* The second dispatch cannot have started: write its input now. */
    float *l = late->map;
    for (int i = 0; i < N; i++)
        l[i] = (float)i;
    VK_CHECK(vkSetEvent(cf.t->device, host_event));
    VK_CHECK(vkWaitForFences(cf.t->device, 1, &fence, VK_TRUE, UINT64_MAX));
    vkDestroyFence(cf.t->device, fence, NULL);
    vkDestroyEvent(cf.t->device, device_event, NULL);
    vkDestroyEvent(cf.t->device, host_event, NULL);
    vkFreeCommandBuffers(cf.t->device, cf.t->pool, 1, &cmd);
    float *want = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        want[i] = 2.0f * x[i] + (float)i;
    cf_expect_f32(by->map, want, N, 0, 0, "dispatches ordered by events");
}
