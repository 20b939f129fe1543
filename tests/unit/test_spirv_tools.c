/* Unit tests of the steps before translation (spirv_tools.cpp,
 * spirv_rewrite.c, spirv_parse.c): valid SPIR-V shapes that glslc never
 * emits, each one compiled and run at every subgroup width. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "compiler_harness.h"

static const unsigned widths[] = { 1, 4, 8, 16 };

/* Compiles `name` with set 0 binding 0 only, runs one workgroup of it over
 * `out` (`count` words, first filled with `fill`). */
static void run_one_binding(const char *name, unsigned width, const struct vkmm_spec_constant *spec,
                            uint32_t spec_count, uint32_t *out, uint32_t count, uint32_t fill)
{
    size_t word_count = 0;
    uint32_t *words = load_spirv(name, &word_count);
    assert_non_null(words);
    struct vkmm_compile_binding binding = { 0, 0, 1 };
    struct vkmm_compile_set set = { 1, &binding };
    struct vkmm_compile_options options = {
        .entry_point = "main", .subgroup_width = width, .set_count = 1, .sets = &set, .optimize = 1,
        .spec = spec, .spec_count = spec_count,
    };
    struct vkmm_compiled_shader shader;
    char error[512];
    if (vkmm_compile(words, word_count, &options, &shader, error, sizeof(error)) != 0)
        fail_msg("%s at W=%u: %s", name, width, error);
    free(words);
    for (uint32_t i = 0; i < count; i++)
        out[i] = fill;
    struct vkmm_descriptor set0 = { .base = (uint8_t *)out, .range = count * sizeof(uint32_t) };
    run_workgroups(&shader, &set0, NULL, 1, 1, 1);
    vkmm_compiled_shader_free(&shader);
}

static void test_spirv_tools_inlines_dont_inline_functions(void **state)
{
    (void)state;
    for (unsigned w = 0; w < 4; w++) {
        uint32_t out[8];
        run_one_binding("dont_inline_call", widths[w], NULL, 0, out, 8, 0);
        for (uint32_t i = 0; i < 8; i++)
            assert_int_equal(out[i], 8 * i + 7); /* 2(2(2i+1)+1)+1 */
    }
}

static void test_spirv_tools_merges_returns_beside_unreachable_blocks(void **state)
{
    (void)state;
    for (unsigned w = 0; w < 4; w++) {
        uint32_t out[8];
        run_one_binding("unreachable_blocks", widths[w], NULL, 0, out, 8, 55);
        for (uint32_t i = 0; i < 8; i++)
            assert_int_equal(out[i], i < 4 ? 100 + i : (i & 1) ? 7 : 55);
    }
}

static void test_spirv_tools_ignores_other_entry_points_bindings(void **state)
{
    (void)state;
    for (unsigned w = 0; w < 4; w++) {
        uint32_t out[8];
        run_one_binding("two_entry_points", widths[w], NULL, 0, out, 8, 0);
        for (uint32_t i = 0; i < 8; i++)
            assert_int_equal(out[i], 3 * i);
    }
}

static void test_spirv_tools_computes_unfolded_spec_constant_ops(void **state)
{
    (void)state;
    const float two_and_half = 2.5f;
    uint32_t two_and_half_bits;
    memcpy(&two_and_half_bits, &two_and_half, 4);
    const struct vkmm_spec_constant spec[] = {
        { 0, 2, 5 },
        { 1, 8, 0x300000000ull },
        { 2, 4, two_and_half_bits },
        { 3, 4, 11 },
    };
    for (unsigned w = 0; w < 4; w++) {
        uint32_t out[5];
        run_one_binding("spec_constant_ops", widths[w], NULL, 0, out, 5, 0);
        assert_int_equal(out[0], 3 << 2);
        assert_int_equal(out[1], 0x10000000u);
        assert_int_equal(out[2], 3);
        assert_int_equal(out[3], 7);
        assert_int_equal(out[4], 9);
        run_one_binding("spec_constant_ops", widths[w], spec, 4, out, 5, 0);
        assert_int_equal(out[0], 5 << 2);
        assert_int_equal(out[1], 0x30000000u);
        assert_int_equal(out[2], 5);
        assert_int_equal(out[3], 7);
        assert_int_equal(out[4], 11);
    }
}

/* The reference for tests/shaders/integer_dot_product.spvasm: exact sums
 * in 64 bits, truncated or saturated. */
static int64_t packed_byte(uint32_t v, unsigned i, bool is_signed)
{
    uint8_t b = (uint8_t)(v >> (8 * i));
    return is_signed ? (int64_t)(int8_t)b : (int64_t)b;
}

static int64_t packed_dot(uint32_t p, uint32_t q, bool p_signed, bool q_signed)
{
    int64_t sum = 0;
    for (unsigned i = 0; i < 4; i++)
        sum += packed_byte(p, i, p_signed) * packed_byte(q, i, q_signed);
    return sum;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static void test_spirv_integer_dot_products(void **state)
{
    (void)state;
    for (unsigned w = 0; w < 4; w++) {
        uint32_t out[48];
        run_one_binding("integer_dot_product", widths[w], NULL, 0, out, 48, 0);
        for (uint32_t x = 0; x < 8; x++) {
            int64_t sx = x;
            int64_t a[4] = { sx - 3, 2, -5, 7 }, b[4] = { 4, sx, 3, -2 };
            uint64_t c[4] = { x, 2, 3, 4 }, d[4] = { x, 5, 6, 7 };
            int64_t sdot = 0, sudot = 0;
            uint64_t udot = 0;
            for (unsigned i = 0; i < 4; i++) {
                sdot += a[i] * b[i];
                udot += c[i] * d[i];
                sudot += a[i] * (int64_t)d[i];
            }
            uint32_t p = 0x807F02FFu, q = 0x01020304u * (x + 1);
            int64_t sacc = (x & 1) ? INT32_MAX - 100 : INT32_MIN + 100;
            int64_t suacc = (x & 1) ? INT32_MAX - 10 : INT32_MIN + 10;
            const uint32_t *r = out + 6 * x;
            assert_int_equal(r[0], (uint32_t)sdot);
            assert_int_equal(r[1], (uint32_t)udot);
            assert_int_equal(r[2], (uint32_t)sudot);
            assert_int_equal(r[3], (uint32_t)clamp64(sacc + packed_dot(p, q, true, true), INT32_MIN, INT32_MAX));
            assert_int_equal(r[4], (uint32_t)clamp64(0xFFFFFF00ll + packed_dot(p, q, false, false), 0, UINT32_MAX));
            assert_int_equal(r[5], (uint32_t)clamp64(suacc + packed_dot(p, q, true, false), INT32_MIN, INT32_MAX));
        }
    }
}

static void test_spirv_tools_accepts_the_device_group_capability(void **state)
{
    (void)state;
    for (unsigned w = 0; w < 4; w++) {
        uint32_t out[8];
        run_one_binding("device_group_capability", widths[w], NULL, 0, out, 8, 0);
        for (uint32_t i = 0; i < 8; i++)
            assert_int_equal(out[i], i + 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spirv_tools_inlines_dont_inline_functions),
        cmocka_unit_test(test_spirv_tools_merges_returns_beside_unreachable_blocks),
        cmocka_unit_test(test_spirv_tools_ignores_other_entry_points_bindings),
        cmocka_unit_test(test_spirv_tools_computes_unfolded_spec_constant_ops),
        cmocka_unit_test(test_spirv_tools_accepts_the_device_group_capability),
        cmocka_unit_test(test_spirv_integer_dot_products),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
