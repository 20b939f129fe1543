/* Strict mode's reports a person can live with (DESIGN §3.4): one mistake
 * that touches 65,536 separate ranges is one report (one JSON line, one
 * debug-utils message) with its byte and range counts; VKMM_REPORT is
 * appended to by every device; VKMM_SUPPRESS silences a matching bug;
 * VKMM_REPORT_LIMIT bounds the distinct reports and the summary says what
 * was left out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "vkmm_test.h"

enum { WORDS = 1 << 17, PRODUCERS = WORDS / 2 };

static bool strict_mode(void)
{
    const char *mode = getenv("VKMM_MODE");
    return !mode || strcmp(mode, "fast") != 0;
}

/* A dispatch writes every other word; the next dispatch reads them after a
 * barrier whose dstAccessMask is UNIFORM_READ instead of
 * SHADER_STORAGE_READ.  Returns the hazard messages the device sent. */
static uint32_t run_buggy_program(void)
{
    struct vkmm_test *t = vkmm_test_create(&(struct vkmm_test_options){ .no_validation = true });
    t->expected_errors = UINT32_MAX;
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    struct vkmm_test_buffer middle = vkmm_test_buffer_create(t, WORDS * 4, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, WORDS * 4, coherent);
    struct vkmm_test_compute produce = vkmm_test_compute_create(t, "strided_produce", 1, 0, NULL);
    struct vkmm_test_compute consume = vkmm_test_compute_create(t, "sync_double", 2, 0, NULL);
    vkmm_test_compute_bind_buffer(t, &produce, 0, middle.buffer, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(t, &consume, 0, middle.buffer, 0, VK_WHOLE_SIZE);
    vkmm_test_compute_bind_buffer(t, &consume, 1, out.buffer, 0, VK_WHOLE_SIZE);
    VkCommandBuffer cmd = vkmm_test_begin(t);
    /* The odd words keep the fill's zeros: only the even ones are read stale. */
    vkCmdFillBuffer(cmd, middle.buffer, 0, VK_WHOLE_SIZE, 0);
    VkMemoryBarrier2 filled = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
        .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        .dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
    };
    VkDependencyInfo fill_dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1,
                                  .pMemoryBarriers = &filled };
    vkCmdPipelineBarrier2(cmd, &fill_dep);
    vkmm_test_compute_dispatch(&produce, cmd, NULL, 0, PRODUCERS / 64, 1, 1);
    VkMemoryBarrier2 wrong = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        .srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        .dstAccessMask = VK_ACCESS_2_UNIFORM_READ_BIT,
    };
    VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &wrong };
    vkCmdPipelineBarrier2(cmd, &dep);
    vkmm_test_compute_dispatch(&consume, cmd, NULL, 0, WORDS / 64, 1, 1);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    const uint32_t *result = out.mapped;
    bool wrong_answer = false;
    for (uint32_t i = 0; i < PRODUCERS && !wrong_answer; i++)
        wrong_answer = result[2 * i] != (i + 1000u) * 2u;
    assert_true(wrong_answer); /* strict mode manifests the bug */
    uint32_t hazards = t->hazard_count;
    vkmm_test_compute_destroy(t, &produce);
    vkmm_test_compute_destroy(t, &consume);
    vkmm_test_buffer_destroy(t, &middle);
    vkmm_test_buffer_destroy(t, &out);
    vkmm_test_destroy(t);
    return hazards;
}

struct report_file {
    char path[64];
    char text[1 << 16];
    size_t size;
};

static void report_file_init(struct report_file *r, const char *tag)
{
    snprintf(r->path, sizeof(r->path), "/tmp/vkmm-aggregation-%s-%d.jsonl", tag, (int)getpid());
    remove(r->path);
    setenv("VKMM_REPORT", r->path, 1);
}

static void report_file_read(struct report_file *r)
{
    FILE *f = fopen(r->path, "rb");
    r->size = f ? fread(r->text, 1, sizeof(r->text) - 1, f) : 0;
    r->text[r->size] = '\0';
    if (f)
        fclose(f);
    remove(r->path);
    unsetenv("VKMM_REPORT");
}

/* The JSON lines of the file, parsed; `count` of them. */
static unsigned json_lines(const struct report_file *r, cJSON **lines, unsigned capacity)
{
    unsigned count = 0;
    const char *at = r->text;
    while (*at) {
        const char *end = strchr(at, '\n');
        size_t length = end ? (size_t)(end - at) : strlen(at);
        if (*at == '{') {
            cJSON *line = cJSON_ParseWithLength(at, length);
            assert_non_null(line);
            if (count < capacity)
                lines[count] = line;
            else
                cJSON_Delete(line);
            count++;
        }
        at += length + (end ? 1 : 0);
    }
    return count;
}

static void test_one_mistake_one_report(void **state)
{
    (void)state;
    if (!strict_mode())
        skip();
    struct report_file r;
    report_file_init(&r, "one");
    assert_int_equal(run_buggy_program(), 1);
    report_file_read(&r);
    cJSON *lines[4];
    assert_int_equal(json_lines(&r, lines, 4), 1);
    cJSON *line = lines[0];
    assert_string_equal(cJSON_GetObjectItem(line, "id")->valuestring, "VKMM-HAZARD-STALE-READ");
    double ranges = cJSON_GetObjectItem(line, "ranges")->valuedouble;
    double bytes = cJSON_GetObjectItem(line, "bytes")->valuedouble;
    /* Every other word was written: up to 65,536 runs of 4 bytes (runs
     * whose stale bytes happen to equal the fresh ones split or vanish). */
    printf("one report: %.0f bytes in %.0f ranges (one line each before aggregation)\n", bytes, ranges);
    assert_true(ranges > PRODUCERS / 2);
    assert_true(bytes >= ranges && bytes <= PRODUCERS * 4.0);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(line, "first"), "command")->valuestring,
                        "vkCmdDispatch");
    cJSON_Delete(line);
    assert_non_null(strstr(r.text, "# vkmm summary: 1 report of "));
}

static void test_report_file_is_appended_by_every_device(void **state)
{
    (void)state;
    if (!strict_mode())
        skip();
    struct report_file r;
    report_file_init(&r, "append");
    run_buggy_program();
    run_buggy_program();
    report_file_read(&r);
    cJSON *lines[4];
    unsigned count = json_lines(&r, lines, 4);
    assert_int_equal(count, 2);
    for (unsigned i = 0; i < count; i++)
        cJSON_Delete(lines[i]);
    assert_non_null(strstr(strstr(r.text, "# vkmm summary") + 1, "# vkmm summary"));
}

static void test_suppression_file_silences_the_bug(void **state)
{
    (void)state;
    if (!strict_mode())
        skip();
    char suppress[64];
    snprintf(suppress, sizeof(suppress), "/tmp/vkmm-suppress-%d.txt", (int)getpid());
    FILE *f = fopen(suppress, "w");
    assert_non_null(f);
    fprintf(f, "# a known bug in a vendored library\nid:VKMM-HAZARD-STALE-* command:vkCmdDispatch\n");
    fclose(f);
    setenv("VKMM_SUPPRESS", suppress, 1);
    struct report_file r;
    report_file_init(&r, "suppress");
    assert_int_equal(run_buggy_program(), 0);
    report_file_read(&r);
    unsetenv("VKMM_SUPPRESS");
    remove(suppress);
    assert_int_equal(json_lines(&r, NULL, 0), 0);
    assert_non_null(strstr(r.text, "suppressed (VKMM_SUPPRESS)"));
}

static void test_report_limit_leaves_out_and_says_so(void **state)
{
    (void)state;
    if (!strict_mode())
        skip();
    setenv("VKMM_REPORT_LIMIT", "0", 1);
    struct report_file r;
    report_file_init(&r, "limit");
    assert_int_equal(run_buggy_program(), 0);
    report_file_read(&r);
    unsetenv("VKMM_REPORT_LIMIT");
    assert_int_equal(json_lines(&r, NULL, 0), 0);
    assert_non_null(strstr(r.text, "left out (VKMM_REPORT_LIMIT 0)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_mistake_one_report),
        cmocka_unit_test(test_report_file_is_appended_by_every_device),
        cmocka_unit_test(test_suppression_file_silences_the_bug),
        cmocka_unit_test(test_report_limit_leaves_out_and_says_so),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
