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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compiler_add_arrays_all_widths),
        cmocka_unit_test(test_compiler_shared_memory_reduction_with_barriers),
        cmocka_unit_test(test_compiler_divergent_loops_switch_and_return),
        cmocka_unit_test(test_compiler_rejects_malformed_spirv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
