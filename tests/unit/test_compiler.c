/* Unit tests of the compiler: GLSL shaders compiled by glslc at build time
 * run directly through the generated function for every subgroup width. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "compiler_harness.h"

static const unsigned widths[] = { 1, 4, 8, 16 };

static struct vkmm_descriptor buffer_descriptor(void *data, size_t size)
{
    struct vkmm_descriptor d = { .base = data, .range = size };
    return d;
}

static void test_compiler_add_arrays_all_widths(void **state)
{
    (void)state;
    enum { N = 1000 };
    float *a = malloc(N * 4), *b = malloc(N * 4), *c = malloc((N + 64) * 4);
    for (int i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = (float)(2 * i + 1);
    }
    for (unsigned w = 0; w < 4; w++) {
        struct vkmm_compiled_shader shader;
        char error[512];
        int result = compile_named("add_arrays", widths[w], 3, &shader, error, sizeof(error));
        if (result != 0)
            fail_msg("compile failed: %s", error);
        assert_int_equal(shader.local_size[0], 64);
        for (int i = 0; i < N + 64; i++)
            c[i] = -1.0f;
        struct vkmm_descriptor set[3] = { buffer_descriptor(a, N * 4), buffer_descriptor(b, N * 4),
                                          buffer_descriptor(c, (N + 64) * 4) };
        struct { uint32_t n; float scale; uint8_t pad[248]; } push = { N, 0.5f, { 0 } };
        run_workgroups(&shader, set, &push, (N + 63) / 64, 1, 1);
        for (int i = 0; i < N; i++)
            assert_true(c[i] == a[i] * 0.5f + b[i]);
        for (int i = N; i < N + 64; i++)
            assert_true(c[i] == -1.0f);
        vkmm_compiled_shader_free(&shader);
    }
    free(a);
    free(b);
    free(c);
}

static void test_compiler_shared_memory_reduction_with_barriers(void **state)
{
    (void)state;
    enum { GROUPS = 7, N = GROUPS * 128 };
    uint32_t *data = malloc(N * 4), sums[GROUPS];
    for (int i = 0; i < N; i++)
        data[i] = (uint32_t)(i * 7 + 3);
    for (unsigned w = 0; w < 4; w++) {
        struct vkmm_compiled_shader shader;
        char error[512];
        if (compile_named("reduce_shared", widths[w], 2, &shader, error, sizeof(error)) != 0)
            fail_msg("compile failed: %s", error);
        memset(sums, 0xff, sizeof(sums));
        struct vkmm_descriptor set[2] = { buffer_descriptor(data, N * 4), buffer_descriptor(sums, sizeof(sums)) };
        run_workgroups(&shader, set, NULL, GROUPS, 1, 1);
        for (int g = 0; g < GROUPS; g++) {
            uint32_t expected = 0;
            for (int i = 0; i < 128; i++)
                expected += data[g * 128 + i];
            assert_int_equal(sums[g], expected);
        }
        vkmm_compiled_shader_free(&shader);
    }
    free(data);
}

static int collatz(int n)
{
    int steps = 0;
    while (n != 1) {
        if ((n & 1) == 0)
            n /= 2;
        else
            n = 3 * n + 1;
        steps++;
        if (steps > 1000)
            return -1;
    }
    return steps;
}

static void test_compiler_divergent_loops_switch_and_return(void **state)
{
    (void)state;
    enum { N = 96 };
    int32_t result[N];
    for (unsigned w = 0; w < 4; w++) {
        struct vkmm_compiled_shader shader;
        char error[512];
        if (compile_named("divergent_loops", widths[w], 1, &shader, error, sizeof(error)) != 0)
            fail_msg("compile failed: %s", error);
        memset(result, 0, sizeof(result));
        struct vkmm_descriptor set[1] = { buffer_descriptor(result, sizeof(result)) };
        run_workgroups(&shader, set, NULL, N / 32, 1, 1);
        for (int i = 0; i < N; i++) {
            int v = collatz(i + 1);
            int expected = i % 4 == 0 ? v + 1000 : i % 4 == 1 ? v - 7 : (i > 40 ? v * 2 : v);
            if (result[i] != expected)
                fail_msg("width %u: result[%d] = %d, expected %d", widths[w], i, result[i], expected);
        }
        vkmm_compiled_shader_free(&shader);
    }
}

static void test_compiler_switch_with_many_cases(void **state)
{
    (void)state;
    enum { N = 96 };
    int32_t result[N];
    for (unsigned w = 0; w < 4; w++) {
        struct vkmm_compiled_shader shader;
        char error[512];
        if (compile_named("switch_many_cases", widths[w], 1, &shader, error, sizeof(error)) != 0)
            fail_msg("compile failed: %s", error);
        memset(result, 0, sizeof(result));
        struct vkmm_descriptor set[1] = { buffer_descriptor(result, sizeof(result)) };
        run_workgroups(&shader, set, NULL, N / 32, 1, 1);
        for (int i = 0; i < N; i++) {
            int expected = i % 80 < 70 ? i % 80 * 3 + 1 : 999;
            if (result[i] != expected)
                fail_msg("width %u: result[%d] = %d, expected %d", widths[w], i, result[i], expected);
        }
        vkmm_compiled_shader_free(&shader);
    }
}

static void test_compiler_device_index_is_zero(void **state)
{
    (void)state;
    int32_t result[32];
    struct vkmm_compiled_shader shader;
    char error[512];
    if (compile_named("device_index", 8, 1, &shader, error, sizeof(error)) != 0)
        fail_msg("compile failed: %s", error);
    memset(result, 0, sizeof(result));
    struct vkmm_descriptor set[1] = { buffer_descriptor(result, sizeof(result)) };
    run_workgroups(&shader, set, NULL, 1, 1, 1);
    for (int i = 0; i < 32; i++)
        assert_int_equal(result[i], 5);
    vkmm_compiled_shader_free(&shader);
}

static void test_compiler_rejects_malformed_spirv(void **state)
{
    (void)state;
    uint32_t garbage[16] = { 0x07230203, 0x00010000, 0, 100, 0, 0xdeadbeef, 1, 2, 3 };
    struct vkmm_compiled_shader shader;
    char error[512] = { 0 };
    struct vkmm_compile_options options = { .entry_point = "main", .subgroup_width = 8 };
    assert_int_not_equal(vkmm_compile(garbage, 9, &options, &shader, error, sizeof(error)), 0);
    assert_non_null(strstr(error, "validation"));
    assert_int_not_equal(vkmm_compile(garbage, 3, &options, &shader, error, sizeof(error)), 0);
}

/* Modules the compiler refuses with a message instead of crashing or
 * failing at dispatch (each found by the fuzzers; the .spvasm ones pass
 * spirv-val 2023.1):
 * - an OpSpecConstantOp CompositeExtract index past its vector crashed
 *   SPIRV-Tools' spec-constant folding;
 * - a LocalSizeId operand naming a function's OpLoad crashed its dead-code
 *   elimination;
 * - private variables of 64 MiB per invocation asked for gigabytes at the
 *   first dispatch;
 * - OpGroupNonUniformFAdd on integers crashed LLVM. */
static void test_compiler_rejects_fuzzer_finds_with_a_message(void **state)
{
    (void)state;
    static const struct {
        const char *shader;
        unsigned width;
        const char *message;
    } cases[] = {
        { "spec_constant_extract_out_of_range", 1, "CompositeExtract index out of range" },
        { "spec_constant_extract_out_of_range", 4, "CompositeExtract index out of range" },
        { "spec_constant_extract_out_of_range", 8, "CompositeExtract index out of range" },
        { "spec_constant_extract_out_of_range", 16, "CompositeExtract index out of range" },
        { "local_size_id_not_constant", 8, "is not a constant instruction" },
        { "huge_private_array", 8, "bytes per workgroup" },
        { "group_fadd_on_integers", 8, "the result type does not fit the operation" },
        { "group_all_equal_vector_result", 8, "the result type does not fit the operation" },
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct vkmm_compiled_shader shader;
        char error[512] = { 0 };
        assert_int_not_equal(compile_named(cases[i].shader, cases[i].width, 1, &shader, error, sizeof(error)), 0);
        if (!strstr(error, cases[i].message))
            fail_msg("%s: \"%s\" does not say \"%s\"", cases[i].shader, error, cases[i].message);
    }
}

/* Inputs the fuzzer found: valid-looking SPIR-V that once crashed LLVM.
 * Each compiles or fails with a message at every width, and never crashes. */
static void test_compiler_survives_fuzzer_finds(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        const char *error; /* NULL: compiles */
    } finds[] = {
        { "builtin_index_past_end", NULL },
        { "broadcast_pointer_id", "wrong type" },
        { "reduce_pointer_value", "wrong type" },
    };
    for (size_t f = 0; f < sizeof(finds) / sizeof(finds[0]); f++) {
        for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
            struct vkmm_compiled_shader shader;
            char error[512] = { 0 };
            int result = compile_named(finds[f].name, widths[i], 1, &shader, error, sizeof(error));
            if (!finds[f].error) {
                if (result != 0)
                    fail_msg("%s at W=%u: %s", finds[f].name, widths[i], error);
                vkmm_compiled_shader_free(&shader);
            } else {
                assert_int_not_equal(result, 0);
                if (!strstr(error, finds[f].error))
                    fail_msg("%s at W=%u: unexpected message: %s", finds[f].name, widths[i], error);
            }
        }
    }
}

/* Strict mode skips placing what the read path sees for bindings a module
 * never reads: exactly the NonReadable (writeonly) buffer variables and
 * blocks, arrays of them included, not a block with one member read. */
static void test_compiler_finds_the_bindings_a_module_never_reads(void **state)
{
    (void)state;
    size_t word_count = 0;
    uint32_t *words = load_spirv("unread_bindings", &word_count);
    assert_non_null(words);
    struct vkmm_compile_options options = { .entry_point = "main", .subgroup_width = 8 };
    struct vkmm_shader_binding found[4];
    assert_int_equal(vkmm_shader_unread_bindings(words, word_count, &options, found, 4), 2);
    bool out = false, many = false;
    for (int i = 0; i < 2; i++) {
        out |= found[i].set == 0 && found[i].binding == 1;
        many |= found[i].set == 1 && found[i].binding == 2;
    }
    assert_true(out && many);
    assert_int_equal(vkmm_shader_unread_bindings(words, word_count, &options, found, 1), 1);
    /* A module that does not parse names none. */
    assert_int_equal(vkmm_shader_unread_bindings(words, 5, &options, found, 4), 0);
    free(words);
}

static void test_compiler_yield_at_atomics_lets_a_spinning_subgroup_finish(void **state)
{
    (void)state;
    enum { GROUPS = 3 };
    uint32_t result[GROUPS * 64];
    for (unsigned w = 0; w < 4; w++) {
        size_t word_count = 0;
        uint32_t *words = load_spirv("spin_flag", &word_count);
        assert_non_null(words);
        struct vkmm_compile_binding binding = { 0, 0, 1 };
        struct vkmm_compile_set set = { 1, &binding };
        struct vkmm_compile_options options = {
            .entry_point = "main", .subgroup_width = widths[w], .set_count = 1, .sets = &set, .optimize = 1,
            .suspend_at_atomics = 1,
        };
        struct vkmm_compiled_shader shader;
        char error[512];
        if (vkmm_compile(words, word_count, &options, &shader, error, sizeof(error)) != 0)
            fail_msg("compile failed: %s", error);
        free(words);
        memset(result, 0xff, sizeof(result));
        struct vkmm_descriptor set0[1] = { buffer_descriptor(result, sizeof(result)) };
        run_workgroups(&shader, set0, NULL, GROUPS, 1, 1);
        for (int g = 0; g < GROUPS; g++) {
            /* The waiter saw the flag; the others drew distinct counter values. */
            assert_true(result[g * 64] == 1000 || result[g * 64] == 1001);
            uint64_t seen = 0;
            for (int l = 1; l < 64; l++) {
                assert_true(result[g * 64 + l] < 63);
                seen |= 1ull << result[g * 64 + l];
            }
            assert_true(seen == (1ull << 63) - 1);
        }
        vkmm_compiled_shader_free(&shader);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compiler_add_arrays_all_widths),
        cmocka_unit_test(test_compiler_shared_memory_reduction_with_barriers),
        cmocka_unit_test(test_compiler_divergent_loops_switch_and_return),
        cmocka_unit_test(test_compiler_switch_with_many_cases),
        cmocka_unit_test(test_compiler_device_index_is_zero),
        cmocka_unit_test(test_compiler_rejects_malformed_spirv),
        cmocka_unit_test(test_compiler_rejects_fuzzer_finds_with_a_message),
        cmocka_unit_test(test_compiler_survives_fuzzer_finds),
        cmocka_unit_test(test_compiler_finds_the_bindings_a_module_never_reads),
        cmocka_unit_test(test_compiler_yield_at_atomics_lets_a_spinning_subgroup_finish),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
