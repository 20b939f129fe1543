/* Unit tests of conversions in spirv_arith.c that LLVM's instructions do
 * not give as SPIR-V defines them: FPRoundingMode RTZ on a narrowing
 * OpFConvert, and OpQuantizeToF16's flush of values too small for a normal
 * half.  Run at every subgroup width. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "compiler_harness.h"

static const unsigned widths[] = { 1, 4, 8, 16 };

enum { INPUTS = 8, RESULTS = 4 }; /* RTE, RTZ, QuantizeToF16, RTZ from double */

static void assert_same_float(float got, float expected, unsigned input, unsigned k)
{
    if (isnan(expected) && isnan(got))
        return;
    uint32_t a, b;
    memcpy(&a, &got, 4);
    memcpy(&b, &expected, 4);
    if (a != b)
        fail_msg("input %u result %u: got %a (0x%08x), expected %a (0x%08x)", input, k, (double)got, a,
                 (double)expected, b);
}

static void test_spirv_arith_rounds_toward_zero_and_quantizes(void **state)
{
    (void)state;
    const float max_half = 65504.0f, next_after_one = 1.0f + 0x1p-10f;
    const float in[INPUTS] = { 1e20f, -1e20f, 1.0f + 3 * 0x1p-12f, -(1.0f + 3 * 0x1p-12f), 1e-6f, -1e-6f,
                               INFINITY, NAN };
    /* 1e-6 is 16.77 half denormal steps of 2^-24. */
    const float expected[INPUTS][RESULTS] = {
        { INFINITY, max_half, INFINITY, max_half },
        { -INFINITY, -max_half, -INFINITY, -max_half },
        { next_after_one, 1.0f, next_after_one, 1.0f },
        { -next_after_one, -1.0f, -next_after_one, -1.0f },
        { 17 * 0x1p-24f, 16 * 0x1p-24f, 0.0f, 16 * 0x1p-24f },
        { -17 * 0x1p-24f, -16 * 0x1p-24f, -0.0f, -16 * 0x1p-24f },
        { INFINITY, INFINITY, INFINITY, INFINITY },
        { NAN, NAN, NAN, NAN },
    };
    for (unsigned w = 0; w < 4; w++) {
        struct vkmm_compiled_shader shader;
        char error[512];
        if (compile_named("float_rounding", widths[w], 1, &shader, error, sizeof(error)) != 0)
            fail_msg("compile failed at W=%u: %s", widths[w], error);
        float data[INPUTS + INPUTS * RESULTS];
        memcpy(data, in, sizeof(in));
        for (unsigned i = INPUTS; i < INPUTS + INPUTS * RESULTS; i++)
            data[i] = -1.0f;
        struct vkmm_descriptor set0 = { .base = (uint8_t *)data, .range = sizeof(data) };
        run_workgroups(&shader, &set0, NULL, 1, 1, 1);
        for (unsigned i = 0; i < INPUTS; i++)
            for (unsigned k = 0; k < RESULTS; k++)
                assert_same_float(data[INPUTS + RESULTS * i + k], expected[i][k], i, k);
        vkmm_compiled_shader_free(&shader);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spirv_arith_rounds_toward_zero_and_quantizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
