/* Pipeline-cache data is untrusted input: corrupted, truncated, foreign and
 * bit-flipped blobs must never have their code run, never make pipeline
 * creation fail, and must say why they were ignored
 * (VKMM-PIPELINE-CACHE-IGNORED).  A clean blob still hits. */
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

static const VkMemoryPropertyFlags host_coherent =
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

/* The serialised layout vkmm writes (pipeline_cache.c): the 32-byte header,
 * magic and entry count, then per entry 88 fixed bytes and the code. */
enum { HEADER = 32, COUNT_AT = 36, ENTRIES_AT = 40, FIXED = 88 };

struct fixture {
    struct vkmm_test *t;
    struct vkmm_test_compute k; /* add_arrays: module, layout, set; its pipeline is ours */
    struct vkmm_test_buffer a, b, c;
    uint8_t *blob;
    size_t blob_size;
};

/* A pipeline through a cache made from `data`; `capture` keeps the
 * cache's data afterwards as the fixture's blob. */
static VkResult create_pipeline_capture(struct fixture *f, const void *data, size_t size, VkPipelineCreateFlags flags,
                                        VkPipeline *pipeline, bool *hit, bool capture)
{
    VkPipelineCacheCreateInfo cache_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO, .initialDataSize = size, .pInitialData = data,
    };
    VkPipelineCache cache;
    VK_CHECK(vkCreatePipelineCache(f->t->device, &cache_info, NULL, &cache));
    VkPipelineCreationFeedback feedback = { 0 };
    VkPipelineCreationFeedbackCreateInfo feedback_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO, .pPipelineCreationFeedback = &feedback,
    };
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .pNext = &feedback_info,
        .flags = flags,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = f->k.module, .pName = "main" },
        .layout = f->k.layout,
    };
    *pipeline = VK_NULL_HANDLE;
    VkResult result = vkCreateComputePipelines(f->t->device, cache, 1, &info, NULL, pipeline);
    *hit = result == VK_SUCCESS && (feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT);
    if (capture) {
        size_t written = 0;
        VK_CHECK(vkGetPipelineCacheData(f->t->device, cache, &written, NULL));
        f->blob = malloc(written);
        f->blob_size = written;
        VK_CHECK(vkGetPipelineCacheData(f->t->device, cache, &f->blob_size, f->blob));
    }
    vkDestroyPipelineCache(f->t->device, cache, NULL);
    return result;
}

static VkResult create_pipeline(struct fixture *f, const void *data, size_t size, VkPipelineCreateFlags flags,
                                VkPipeline *pipeline, bool *hit)
{
    return create_pipeline_capture(f, data, size, flags, pipeline, hit, false);
}

/* The pipeline computes c = a * 3 + b over every element. */
static void check_pipeline_runs(struct fixture *f, VkPipeline pipeline)
{
    enum { N = 256 };
    float *fa = f->a.mapped, *fb = f->b.mapped, *fc = f->c.mapped;
    for (int i = 0; i < N; i++) {
        fa[i] = (float)i;
        fb[i] = 1.0f;
        fc[i] = -1.0f;
    }
    VkPipeline saved = f->k.pipeline;
    f->k.pipeline = pipeline;
    struct { uint32_t n; float scale; } push = { N, 3.0f };
    VkCommandBuffer cmd = vkmm_test_begin(f->t);
    vkmm_test_compute_dispatch(&f->k, cmd, &push, sizeof(push), N / 64, 1, 1);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(f->t, f->t->compute_queues[0], cmd);
    f->k.pipeline = saved;
    for (int i = 0; i < N; i++)
        assert_true(fc[i] == (float)i * 3.0f + 1.0f);
}

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    f->t = vkmm_test_create(&(struct vkmm_test_options){ 0 });
    f->k = vkmm_test_compute_create(f->t, "add_arrays", 3, 8, NULL);
    f->a = vkmm_test_buffer_create(f->t, 1024, host_coherent);
    f->b = vkmm_test_buffer_create(f->t, 1024, host_coherent);
    f->c = vkmm_test_buffer_create(f->t, 1024, host_coherent);
    vkmm_test_compute_bind_buffer(f->t, &f->k, 0, f->a.buffer, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(f->t, &f->k, 1, f->b.buffer, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(f->t, &f->k, 2, f->c.buffer, 0, VK_WHOLE_SIZE);
    VkPipeline pipeline;
    bool hit;
    VK_CHECK(create_pipeline_capture(f, NULL, 0, 0, &pipeline, &hit, true));
    vkDestroyPipeline(f->t->device, pipeline, NULL);
    assert_true(f->blob_size > ENTRIES_AT + FIXED);
    uint32_t count;
    memcpy(&count, f->blob + COUNT_AT, 4);
    assert_int_equal(count, 1);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    vkmm_test_buffer_destroy(f->t, &f->a);
    vkmm_test_buffer_destroy(f->t, &f->b);
    vkmm_test_buffer_destroy(f->t, &f->c);
    vkmm_test_compute_destroy(f->t, &f->k);
    vkmm_test_destroy(f->t);
    free(f->blob);
    free(f);
    return 0;
}

/* Data made from the fixture's blob: no hit, and the pipeline compiled
 * anew runs right.  `run` skips the dispatch (it costs a compile). */
static void expect_ignored(struct fixture *f, const uint8_t *data, size_t size, bool run)
{
    uint8_t *copy = malloc(size ? size : 1); /* exact size: ASan sees any over-read */
    memcpy(copy, data, size);
    uint32_t warnings = f->t->driver_warnings;
    VkPipeline pipeline;
    bool hit;
    assert_int_equal(create_pipeline(f, copy, size, VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT,
                                     &pipeline, &hit),
                     VK_PIPELINE_COMPILE_REQUIRED);
    assert_true(pipeline == VK_NULL_HANDLE);
    if (size)
        assert_true(f->t->driver_warnings > warnings);
    if (run) {
        VK_CHECK(create_pipeline(f, copy, size, 0, &pipeline, &hit));
        assert_false(hit);
        check_pipeline_runs(f, pipeline);
        vkDestroyPipeline(f->t->device, pipeline, NULL);
    }
    free(copy);
}

static void test_pipeline_cache_clean_blob_hits(void **state)
{
    struct fixture *f = *state;
    VkPipeline pipeline;
    bool hit;
    VK_CHECK(create_pipeline(f, f->blob, f->blob_size, VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT,
                             &pipeline, &hit));
    assert_true(hit);
    check_pipeline_runs(f, pipeline);
    vkDestroyPipeline(f->t->device, pipeline, NULL);
    assert_int_equal(f->t->driver_warnings, 0);
}

/* One flipped bit anywhere but the entry count: in the header (another
 * device or build), the magic, every byte of the entry's fixed part
 * (workgroup size, subgroup count, state size, ... the fields that once
 * overflowed the dispatch's status array) and across the object code. */
static void test_pipeline_cache_bit_flips_never_run(void **state)
{
    struct fixture *f = *state;
    uint8_t *flipped = malloc(f->blob_size);
    size_t code = ENTRIES_AT + FIXED, code_size = f->blob_size - code;
    size_t positions[HEADER + 4 + FIXED + 32];
    size_t n = 0;
    for (size_t i = 0; i < HEADER + 4; i++)
        positions[n++] = i;
    for (size_t i = 0; i < FIXED; i++)
        positions[n++] = ENTRIES_AT + i;
    for (size_t i = 0; i < 32; i++)
        positions[n++] = code + (code_size * i) / 32;
    for (size_t i = 0; i < n; i++) {
        memcpy(flipped, f->blob, f->blob_size);
        flipped[positions[i]] ^= (uint8_t)(1u << (i % 8));
        expect_ignored(f, flipped, f->blob_size, i % 16 == 0);
    }
    free(flipped);
    assert_int_equal(f->t->driver_errors, 0);
    assert_non_null(strstr(f->t->warning_ids, "VKMM-PIPELINE-CACHE-IGNORED"));
}

/* Every prefix of the blob: whatever part of the entry is missing, it is
 * not loaded (and nothing is read past the data: ASan). */
static void test_pipeline_cache_truncated(void **state)
{
    struct fixture *f = *state;
    for (size_t size = 0; size < f->blob_size; size += size < ENTRIES_AT + FIXED + 8 ? 1 : 97)
        expect_ignored(f, f->blob, size, size == ENTRIES_AT + FIXED + 1);
    assert_int_equal(f->t->driver_errors, 0);
}

/* Entry fields rewritten to absurd values with the MAC left as it was (as
 * a forger without the key would): a huge subgroup count or state size,
 * a zero or enormous object size. */
static void test_pipeline_cache_forged_fields(void **state)
{
    struct fixture *f = *state;
    static const struct { size_t at; uint32_t value; } forgeries[] = {
        { 64, 100000 },     /* subgroup_count */
        { 72, 0xfffffff8 }, /* state_size */
        { 68, 0x7fffffff }, /* shared_memory_size */
        { 48, 0 },          /* local_size.x */
        { 76, 7 },          /* uses_buffer_references */
        { 80, 0 },          /* object_size (low word) */
        { 84, 0xffffffff }, /* object_size (high word) */
    };
    uint8_t *forged = malloc(f->blob_size);
    for (size_t i = 0; i < sizeof(forgeries) / sizeof(forgeries[0]); i++) {
        memcpy(forged, f->blob, f->blob_size);
        memcpy(forged + ENTRIES_AT + forgeries[i].at, &forgeries[i].value, 4);
        expect_ignored(f, forged, f->blob_size, i == 0);
    }
    free(forged);
    assert_int_equal(f->t->driver_errors, 0);
}

/* A second entry of garbage after a good one: the good one still hits. */
static void test_pipeline_cache_garbage_entry_after_good_one(void **state)
{
    struct fixture *f = *state;
    size_t size = f->blob_size + FIXED + 64;
    uint8_t *data = malloc(size);
    memcpy(data, f->blob, f->blob_size);
    for (size_t i = f->blob_size; i < size; i++)
        data[i] = (uint8_t)(i * 37u + 11u);
    uint64_t object_size = 64;
    memcpy(data + f->blob_size + FIXED - 8, &object_size, 8);
    uint32_t count = 2;
    memcpy(data + COUNT_AT, &count, 4);
    VkPipeline pipeline;
    bool hit;
    VK_CHECK(create_pipeline(f, data, size, VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT, &pipeline,
                             &hit));
    assert_true(hit);
    assert_non_null(strstr(f->t->warning_ids, "VKMM-PIPELINE-CACHE-IGNORED"));
    check_pipeline_runs(f, pipeline);
    vkDestroyPipeline(f->t->device, pipeline, NULL);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_pipeline_cache_clean_blob_hits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pipeline_cache_bit_flips_never_run, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pipeline_cache_truncated, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pipeline_cache_forged_fields, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pipeline_cache_garbage_entry_after_good_one, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
