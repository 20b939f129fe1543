/* The sync-bug suite's harness.  Each mistake is one small program with a
 * correct variant and buggy variants.  In strict mode (the default) the
 * correct variant must give the right answer with no hazard, and every
 * buggy variant a wrong answer - the same bytes in 5 runs - with a report
 * naming the hazard.  In fast mode only the correct variant is checked
 * (a buggy program's result is undefined). */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vkmm_test.h"

#define SYNC_RUNS 5
#define SYNC_WORDS 256

/* Builds and runs the program; writes the words the host finally reads. */
typedef void (*sync_program)(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS]);

struct sync_variant {
    const char *name;
    /* Expected hazard ID; NULL for the correct variant. */
    const char *hazard;
    /* Queues of family 0 the program needs (0 means 1). */
    uint32_t queues;
    /* A correct program that synchronization validation misreports (its
     * whole-descriptor heuristic, Vulkan-ValidationLayers #3450, #5198):
     * run without the layer. */
    bool layer_misreports;
    /* Text the buggy variant's report must hold (NULL: none), e.g. the
     * invocations it names. */
    const char *mentions;
};

static inline bool sync_strict_mode(void)
{
    const char *mode = getenv("VKMM_MODE");
    return !mode || strcmp(mode, "fast") != 0;
}

/* Buggy variants must go wrong with the default seed; other seeds may pick
 * other results the model permits (DESIGN §3.3), so only correct variants
 * are checked under them. */
static inline bool sync_default_seed(void)
{
    const char *seed = getenv("VKMM_SEED");
    return !seed || strtoull(seed, NULL, 0) == 0;
}

/* The report file of one run, for the byte-identical check. */
static inline size_t sync_read_file(const char *path, char *out, size_t capacity)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(out, 1, capacity, f);
    fclose(f);
    return n;
}

/* JSON report lines (one per report; the summary line starts with '#'). */
static inline unsigned sync_report_lines(const char *report, size_t size)
{
    unsigned lines = 0;
    for (size_t i = 0; i < size; i++)
        lines += report[i] == '{' && (i == 0 || report[i - 1] == '\n');
    return lines;
}

static inline const VkMemoryPropertyFlags *sync_host_coherent(void)
{
    static const VkMemoryPropertyFlags flags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    return &flags;
}

/* Queue `index` of family 0, or the last one a smaller device has (the
 * lavapipe survey: one queue). */
static inline VkQueue sync_queue(const struct vkmm_test *t, uint32_t index)
{
    return t->compute_queues[index < t->compute_queue_count ? index : t->compute_queue_count - 1];
}

/* Records one barrier (synchronization2) into `cmd`. */
static inline void sync_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                                VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access)
{
    VkMemoryBarrier2 b = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = src_stage,
        .srcAccessMask = src_access,
        .dstStageMask = dst_stage,
        .dstAccessMask = dst_access,
    };
    VkDependencyInfo dep = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &b };
    vkCmdPipelineBarrier2(cmd, &dep);
}

/* VKMM_SYNC_SURVEY=1: run each buggy variant once with the validation
 * layer and its synchronization validation on, on whatever driver the loader
 * picks (scripts/run-sync-survey.sh points it at lavapipe), and print what the
 * layer said, for docs/sync-validation-survey.md.  Never fails on a message. */
static inline bool sync_survey_mode(void)
{
    const char *survey = getenv("VKMM_SYNC_SURVEY");
    return survey && *survey == '1';
}

static inline void sync_survey(sync_program program, int variant, const struct sync_variant *v,
                               const uint32_t expected[SYNC_WORDS])
{
    if (!v->hazard)
        return;
    struct vkmm_test_options options = { 0 };
    struct vkmm_test *t = vkmm_test_create(&options);
    t->expected_errors = UINT32_MAX;
    t->any_memory_type = true; /* lavapipe has one memory type, coherent */
    uint32_t needed = v->queues ? v->queues : 1;
    const char *note = t->compute_queue_count < needed ? " (one queue: both submissions on it)" : "";
    uint32_t result[SYNC_WORDS];
    program(t, variant, result);
    bool right = memcmp(result, expected, sizeof(result)) == 0;
    printf("SURVEY %s%s | %s | answer %s | validation errors %u | hazards %u | ids %s | vkmm %s\n", v->name, note,
           t->properties.deviceName, right ? "right" : "wrong", t->validation_errors, t->hazard_count,
           t->message_ids[0] ? t->message_ids : "-", t->hazard_count ? t->hazards[0] : "-");
    vkmm_test_destroy(t);
}

/* Runs `variant` SYNC_RUNS times under seed 0, twice (buggy) or once
 * (correct) under other seeds (validation on for the correct variant,
 * off for the buggy ones, whose mistakes it would rightly report) and checks
 * the suite's contract against `expected`. */
static inline void sync_check(sync_program program, int variant, const struct sync_variant *v,
                              const uint32_t expected[SYNC_WORDS])
{
    uint32_t first[SYNC_WORDS];
    char first_hazards[32][48];
    uint32_t first_hazard_count = 0;
    static char first_report[1 << 16], report[1 << 16];
    size_t first_report_size = 0;
    char report_path[64];
    snprintf(report_path, sizeof(report_path), "/tmp/vkmm-sync-report-%d.jsonl", (int)getpid());
    if (sync_survey_mode()) {
        sync_survey(program, variant, v, expected);
        return;
    }
    bool strict = sync_strict_mode();
    /* DESIGN §3: every buggy variant is wrong and reported under every
     * seed (the test runs under seeds 0-9), the same way on every run of
     * one seed.  In fast mode buggy variants have no contract. */
    bool check_bugs = strict;
    if (v->hazard && !check_bugs)
        return;
    int runs = sync_default_seed() ? SYNC_RUNS : v->hazard ? 2 : 1;
    for (int run = 0; run < runs; run++) {
        struct vkmm_test_options options = { .no_validation = v->hazard != NULL || v->layer_misreports };
        /* Each device writes its JSON report there (vkmm reads VKMM_REPORT
         * when a device is created). */
        setenv("VKMM_REPORT", report_path, 1);
        struct vkmm_test *t = vkmm_test_create(&options);
        if (v->hazard)
            t->expected_errors = UINT32_MAX; /* what vkmm says of a buggy program's consequences */
        uint32_t result[SYNC_WORDS];
        memset(result, 0, sizeof(result));
        program(t, variant, result);
        uint32_t hazards = t->hazard_count;
        char ids[32][48];
        memcpy(ids, t->hazards, sizeof(ids));
        char message[1024];
        snprintf(message, sizeof(message), "%s", t->first_hazard_message);
        vkmm_test_destroy(t);
        unsetenv("VKMM_REPORT");
        size_t report_size = sync_read_file(report_path, report, sizeof(report));
        remove(report_path);
        if (!v->hazard) {
            for (uint32_t i = 0; i < SYNC_WORDS; i++)
                if (result[i] != expected[i])
                    fail_msg("%s: wrong answer (word %u: 0x%08x, expected 0x%08x)", v->name, i, result[i],
                             expected[i]);
            if (strict && hazards)
                fail_msg("%s: correct program reported %s: %s", v->name, ids[0], message);
            continue;
        }
        if (!check_bugs)
            continue;
        if (memcmp(result, expected, sizeof(result)) == 0)
            fail_msg("%s: the mistake went unnoticed: right answer in strict mode (%u reports, first %s: %s)",
                     v->name, hazards, hazards ? ids[0] : "-", hazards ? message : "");
        bool named = false;
        for (uint32_t i = 0; i < hazards && i < 32; i++)
            named |= strcmp(ids[i], v->hazard) == 0;
        if (!named)
            fail_msg("%s: no %s reported (%u hazards, first %s: %s)", v->name, v->hazard, hazards,
                     hazards ? ids[0] : "-", hazards ? message : "");
        if (v->mentions && !strstr(message, v->mentions))
            fail_msg("%s: the report does not say \"%s\": %s", v->name, v->mentions, message);
        if (report_size == 0)
            fail_msg("%s: VKMM_REPORT got no JSON lines", v->name);
        /* One mistake, one report line (DESIGN §3.4). */
        unsigned lines = sync_report_lines(report, report_size);
        if (lines != 1) {
            printf("%.*s", (int)report_size, report);
            fail_msg("%s: %u report lines for one mistake (above)", v->name, lines);
        }
        if (run == 0) {
            memcpy(first, result, sizeof(first));
            memcpy(first_hazards, ids, sizeof(first_hazards));
            first_hazard_count = hazards;
            memcpy(first_report, report, report_size);
            first_report_size = report_size;
            printf("  %s: %s\n", v->name, message);
        } else {
            if (report_size != first_report_size || memcmp(report, first_report, report_size) != 0)
                fail_msg("%s: run %d wrote another report than run 0 (same seed)", v->name, run);
            if (memcmp(first, result, sizeof(first)) != 0)
                fail_msg("%s: run %d gave other bytes than run 0", v->name, run);
            if (hazards != first_hazard_count || memcmp(first_hazards, ids, sizeof(ids)) != 0)
                fail_msg("%s: run %d reported other hazards than run 0", v->name, run);
        }
    }
}
