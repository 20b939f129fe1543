/* Strict mode runs a large dispatch of a module without atomics on device
 * memory in parts, one per thread of the device (exec/dispatch.c, "a dispatch in parts"):
 * a correct streaming kernel (with a Workgroup-memory exchange inside each
 * workgroup) and one counting with atomics on a Workgroup variable must
 * give the right answer with no report, in parts; a kernel
 * whose workgroups read words other workgroups write in the same dispatch
 * (half the grid away, in another part, or in the next workgroup) and one
 * whose second half writes the words of the first half, and one whose
 * first workgroup waits for a coherent flag the middle one sets (no
 * atomics: a race; its part gives up waiting) must each be wrong
 * and reported once, on every seed, the same way as when strict mode runs
 * the dispatch in turns on one thread (VKMM_STRICT_PARTS=0) and whatever
 * the number of threads (VKMM_THREADS=1, 3, 4): a race makes the parts
 * run again in turns.  256 workgroups of 64 invocations; the harness's 256
 * result words are a digest of the 16384 words written. */
#include "sync_harness.h"

/* -DPARTS_GROUPS=... tries other sizes (at most 65535: maxComputeWorkGroupCount). */
#ifndef PARTS_GROUPS
#define PARTS_GROUPS 256u
#endif
#define GROUPS PARTS_GROUPS
#define TOTAL (GROUPS * 64u)

enum {
    CORRECT_STREAM,
    CORRECT_SHARED_COUNT,
    NEIGHBOUR_IN_OTHER_PART,
    NEIGHBOUR_IN_NEXT_WORKGROUP,
    OVERLAPPING_WRITES,
    FLAG_WAIT,
    VARIANTS
};

static const struct sync_variant variants[VARIANTS] = {
    [CORRECT_STREAM] = { "correct_stream_in_parts", NULL },
    [CORRECT_SHARED_COUNT] = { "correct_workgroup_atomics_in_parts", NULL },
    [NEIGHBOUR_IN_OTHER_PART] = { "bug_read_of_a_word_another_part_writes", "VKMM-HAZARD-DISPATCH-RACE",
                                  .mentions = "invocation (" },
    [NEIGHBOUR_IN_NEXT_WORKGROUP] = { "bug_read_of_a_word_the_next_workgroup_writes", "VKMM-HAZARD-DISPATCH-RACE",
                                      .mentions = "invocation (" },
    [OVERLAPPING_WRITES] = { "bug_two_workgroups_write_one_word", "VKMM-HAZARD-DISPATCH-RACE" },
    [FLAG_WAIT] = { "bug_wait_for_a_coherent_flag_another_part_sets", "VKMM-HAZARD-DISPATCH-RACE" },
};

static bool correct(int variant)
{
    return variant == CORRECT_STREAM || variant == CORRECT_SHARED_COUNT;
}

/* How the last program's dispatch ran (VKMM-STRICT-PARTS messages). */
static uint32_t last_in_parts, last_again;

static uint32_t a_word(uint32_t i)
{
    return i * 2654435761u + 17u;
}

static uint32_t b_word(uint32_t i)
{
    return i ^ 0x5a5a5a5au;
}

/* The 256 words the harness compares: every word written, folded. */
static void digest(const uint32_t *words, uint32_t result[SYNC_WORDS])
{
    memset(result, 0, SYNC_WORDS * 4);
    for (uint32_t i = 0; i < TOTAL; i++)
        result[i % SYNC_WORDS] += words[i] * (2u * i + 1u);
}

static void program(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    struct vkmm_test_buffer a = vkmm_test_buffer_create(t, TOTAL * 4, *sync_host_coherent());
    struct vkmm_test_buffer b = vkmm_test_buffer_create(t, TOTAL * 4, *sync_host_coherent());
    struct vkmm_test_buffer mid = vkmm_test_buffer_create(t, TOTAL * 4, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, TOTAL * 4, *sync_host_coherent());
    for (uint32_t i = 0; i < TOTAL; i++) {
        ((uint32_t *)a.mapped)[i] = a_word(i);
        ((uint32_t *)b.mapped)[i] = b_word(i);
    }
    memset(out.mapped, 0, TOTAL * 4);
    const char *name = variant == CORRECT_STREAM       ? "sync_parts_stream"
                       : variant == CORRECT_SHARED_COUNT ? "sync_parts_shared_count"
                       : variant == OVERLAPPING_WRITES ? "sync_parts_overlap"
                       : variant == FLAG_WAIT          ? "sync_parts_flag_wait"
                                                       : "sync_parts_neighbour";
    uint32_t bindings = variant == OVERLAPPING_WRITES ? 2 : 3;
    struct vkmm_test_compute shader = vkmm_test_compute_create(t, name, bindings, 8, NULL);
    vkmm_test_compute_bind_buffer(t, &shader, 0, a.buffer, 0, VK_WHOLE_SIZE);
    if (variant == OVERLAPPING_WRITES) {
        vkmm_test_compute_bind_buffer(t, &shader, 1, out.buffer, 0, VK_WHOLE_SIZE);
    } else {
        vkmm_test_compute_bind_buffer(t, &shader, 1, correct(variant) ? b.buffer : mid.buffer, 0, VK_WHOLE_SIZE);
        vkmm_test_compute_bind_buffer(t, &shader, 2, out.buffer, 0, VK_WHOLE_SIZE);
    }
    uint32_t push[2] = { variant == NEIGHBOUR_IN_OTHER_PART ? TOTAL / 2u : 64u, TOTAL };
    VkCommandBuffer cmd = vkmm_test_begin(t);
    vkCmdFillBuffer(cmd, mid.buffer, 0, VK_WHOLE_SIZE, 0);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    vkmm_test_compute_dispatch(&shader, cmd, correct(variant) ? NULL : push, correct(variant) ? 0 : sizeof(push),
                               GROUPS, 1, 1);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    digest(out.mapped, result);
    last_in_parts = t->dispatches_in_parts;
    last_again = t->dispatches_in_parts_again;
    vkmm_test_compute_destroy(t, &shader);
    vkmm_test_buffer_destroy(t, &a);
    vkmm_test_buffer_destroy(t, &b);
    vkmm_test_buffer_destroy(t, &mid);
    vkmm_test_buffer_destroy(t, &out);
}

static void expected_of(int variant, uint32_t expected[SYNC_WORDS])
{
    static uint32_t words[TOTAL];
    for (uint32_t i = 0; i < TOTAL; i++) {
        uint32_t l = i % 64u;
        if (variant == CORRECT_STREAM) {
            words[i] = a_word(i - l + 63u - l) * 3u + b_word(i);
        } else if (variant == CORRECT_SHARED_COUNT) {
            uint32_t count = 0;
            for (uint32_t k = i - l; k < i - l + 64u; k++)
                count += a_word(k) & 1u;
            words[i] = count + b_word(i);
        } else if (variant == OVERLAPPING_WRITES) { /* as meant: the later workgroups' words */
            words[i] = i < TOTAL / 2u ? a_word(i + TOTAL / 2u) : 0;
        } else if (variant == FLAG_WAIT) { /* as meant: workgroup 0 takes the middle one's words */
            words[i] = i < 64u ? a_word(TOTAL / 2u + i) : a_word(i) + 1u;
        } else {
            words[i] = a_word((i + (variant == NEIGHBOUR_IN_OTHER_PART ? TOTAL / 2u : 64u)) % TOTAL) * 2u;
        }
    }
    digest(words, expected);
}

/* Strict mode with more than one thread (the default: one per CPU) runs
 * the dispatch in parts; a racing one runs again in turns. */
static bool parts_expected(void)
{
    const char *threads = getenv("VKMM_THREADS");
    long n = threads ? strtol(threads, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
    const char *parts = getenv("VKMM_STRICT_PARTS");
    return sync_strict_mode() && !sync_survey_mode() && n >= 2 && !(parts && strcmp(parts, "0") == 0);
}

static void run(int variant)
{
    uint32_t expected[SYNC_WORDS];
    expected_of(variant, expected);
    sync_check(program, variant, &variants[variant], expected);
    if (!parts_expected())
        return;
    if (correct(variant) && (last_in_parts != 1 || last_again != 0))
        fail_msg("%s: the dispatch did not stand in parts (%u in parts, %u again in turns)", variants[variant].name,
                 last_in_parts, last_again);
    if (!correct(variant) && last_again != 1)
        fail_msg("%s: the racing dispatch did not run again in turns (%u in parts, %u again)", variants[variant].name,
                 last_in_parts, last_again);
}

/* One program's answer and hazards under the environment as it is now. */
static void run_once(int variant, uint32_t result[SYNC_WORDS], char *hazards, size_t size)
{
    struct vkmm_test_options options = { .no_validation = variants[variant].hazard != NULL };
    struct vkmm_test *t = vkmm_test_create(&options);
    t->expected_errors = UINT32_MAX;
    program(t, variant, result);
    snprintf(hazards, size, "%u %s %s", t->hazard_count, t->hazard_count ? t->hazards[0] : "-",
             t->hazard_count ? t->first_hazard_message : "-");
    vkmm_test_destroy(t);
}

/* The same bytes and reports in parts as in turns on one thread, whatever
 * the number of threads. */
static void same_whatever_the_threads(void **state)
{
    (void)state;
    if (!sync_strict_mode() || sync_survey_mode())
        return;
    static const char *const settings[][2] = { { "1", NULL }, { "3", NULL }, { "4", NULL }, { "4", "0" } };
    for (int variant = 0; variant < VARIANTS; variant++) {
        uint32_t base[SYNC_WORDS], other[SYNC_WORDS];
        char base_hazards[1200], other_hazards[1200];
        setenv("VKMM_THREADS", "2", 1);
        run_once(variant, base, base_hazards, sizeof(base_hazards));
        for (size_t s = 0; s < sizeof(settings) / sizeof(settings[0]); s++) {
            setenv("VKMM_THREADS", settings[s][0], 1);
            if (settings[s][1])
                setenv("VKMM_STRICT_PARTS", settings[s][1], 1);
            run_once(variant, other, other_hazards, sizeof(other_hazards));
            unsetenv("VKMM_STRICT_PARTS");
            if (memcmp(base, other, sizeof(base)) != 0 || strcmp(base_hazards, other_hazards) != 0)
                fail_msg("%s: VKMM_THREADS=%s%s gave other bytes or reports than VKMM_THREADS=2 (%s / %s)",
                         variants[variant].name, settings[s][0], settings[s][1] ? " VKMM_STRICT_PARTS=0" : "",
                         other_hazards, base_hazards);
        }
        unsetenv("VKMM_THREADS");
    }
}

static void correct_stream(void **state) { (void)state; run(CORRECT_STREAM); }
static void correct_shared_count(void **state) { (void)state; run(CORRECT_SHARED_COUNT); }
static void bug_neighbour_in_other_part(void **state) { (void)state; run(NEIGHBOUR_IN_OTHER_PART); }
static void bug_neighbour_in_next_workgroup(void **state) { (void)state; run(NEIGHBOUR_IN_NEXT_WORKGROUP); }
static void bug_overlapping_writes(void **state) { (void)state; run(OVERLAPPING_WRITES); }
static void bug_flag_wait(void **state) { (void)state; run(FLAG_WAIT); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct_stream),
        cmocka_unit_test(correct_shared_count),
        cmocka_unit_test(bug_neighbour_in_other_part),
        cmocka_unit_test(bug_neighbour_in_next_workgroup),
        cmocka_unit_test(bug_overlapping_writes),
        cmocka_unit_test(bug_flag_wait),
        cmocka_unit_test(same_whatever_the_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
