/* GLSL.std.450 builtins: shaders in tests/shaders/glsl450_*.comp apply them
 * to inputs with edge cases and pseudo-random values, for every subgroup
 * width, and the results are compared with references computed here with
 * libm in a wider precision.
 *
 * Tolerances follow the Vulkan spec's "Precision and Operation of SPIR-V
 * Instructions": exact operations must match exactly (up to the direction of
 * Round's ties); ULP and absolute bounds are the table's; for functions the
 * table says are "inherited" from a formula, the bound is the error that
 * formula would have, estimated from the operands.  vkmm's own accuracy is
 * much better than those bounds: the maximum error seen for each function
 * is printed, and the functions vkmm builds from formulas (atan2, asinh,
 * acosh, atanh) are also held to a few ULP. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>

/* libspirv.h defines (not just declares) this constant in C, and the
 * compiler's spirv_parse.c includes it too: rename this file's copy. */
#define kDefaultMaxIdBound test_glsl450_default_max_id_bound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound

#include "compiler_harness.h"

static const unsigned widths[] = { 1, 4, 8, 16 };
enum { WIDTH_COUNT = 4 };

static struct vkmm_descriptor buffer_descriptor(void *data, size_t size)
{
    struct vkmm_descriptor d = { .base = data, .range = size };
    return d;
}

/* Compiles `name` for `width` and runs `groups` workgroups with push
 * constant word 0 = push0. */
static void run_shader(const char *name, unsigned width, struct vkmm_descriptor *set, uint32_t binding_count,
                       uint32_t push0, uint32_t groups)
{
    struct vkmm_compiled_shader shader;
    char error[512];
    if (compile_named(name, width, binding_count, &shader, error, sizeof(error)) != 0)
        fail_msg("%s, width %u: compile failed: %s", name, width, error);
    uint32_t push[64] = { push0 };
    run_workgroups(&shader, set, push, groups, 1, 1);
    vkmm_compiled_shader_free(&shader);
}

/* --- Inputs --------------------------------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_u64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double uniform(double lo, double hi)
{
    return lo + (hi - lo) * (double)(next_u64() >> 11) * 0x1p-53;
}

static double log_uniform(double lo, double hi)
{
    return exp(uniform(log(lo), log(hi)));
}

static double random_sign(double x)
{
    return next_u64() & 1 ? -x : x;
}

/* --- Comparison --------------------------------------------------------------------------- */

/* One unit in the last place at `r` for a format with `bits` of
 * significand and minimum normal exponent `min_exp`. */
static double ulp_of(double r, int bits, int min_exp)
{
    int e = 0;
    r = fabs(r);
    if (isinf(r))
        r = DBL_MAX;
    frexp(r, &e); /* r in [2^(e-1), 2^e) */
    if (r == 0 || e - 1 < min_exp)
        e = min_exp + 1;
    return ldexp(1.0, e - bits);
}

static double ulp32(double r)
{
    return ulp_of(r, 24, -126);
}

static double ulp16(double r)
{
    return ulp_of(r, 11, -14);
}

static double ulp64(double r)
{
    return ulp_of(r, 53, -1022);
}

/* got must be the reference rounded to the result format (`rounded`), or
 * within `tolerance` of the exact reference; NaN must give NaN and
 * infinities must match.  Records the error in ULP. */
static void check(const char *what, unsigned width, size_t index, double input, double got, double ref,
                  double rounded, double tolerance, double ulp, double *max_ulps)
{
    bool ok;
    if (isnan(ref))
        ok = isnan(got);
    else if (got == rounded)
        ok = true;
    else if (isinf(ref) || isinf(got) || isnan(got))
        ok = false;
    else
        ok = fabs(got - ref) <= tolerance;
    if (ok && !isnan(ref) && !isinf(ref) && !isinf(got) && max_ulps) {
        double error = fabs(got - ref) / ulp;
        if (error > *max_ulps)
            *max_ulps = error;
    }
    if (!ok)
        fail_msg("%s, width %u, element %zu: input %.9g: got %.9g, expected %.9g (tolerance %.3g)", what, width, index,
                 input, got, ref, tolerance);
}

static void check_bits(const char *what, unsigned width, size_t index, const void *got, const void *expected,
                       size_t size, double shown_got, double shown_expected)
{
    if (memcmp(got, expected, size) != 0)
        fail_msg("%s, width %u, element %zu: got %.17g, expected %.17g", what, width, index, shown_got,
                 shown_expected);
}

/* --- Single-precision unary functions ------------------------------------------------------- */

/* Allowed absolute error for input x with exact result r (u = ULP at r). */
typedef double (*tolerance_fn)(double x, double r, double u);

static double tol_exact(double x, double r, double u)
{
    (void)x, (void)r, (void)u;
    return 0;
}

static double tol_round(double x, double r, double u)
{
    (void)r, (void)u;
    return fabs(x - trunc(x)) == 0.5 ? 1.0 : 0.0; /* ties go either way */
}

static double tol_2ulp(double x, double r, double u)
{
    (void)x, (void)r;
    return 2 * u;
}

static double tol_sincos(double x, double r, double u)
{
    (void)x, (void)r, (void)u;
    return 0x1p-11;
}

static double tol_tan(double x, double r, double u)
{
    /* inherited from sin(x) / cos(x), each within 2^-11, divided with 2.5 ULP */
    return 0x1p-11 * (1 + fabs(r)) / fabs(cos(x)) + 2.5 * u;
}

static double tol_4096ulp(double x, double r, double u)
{
    (void)x, (void)r;
    return 4096 * u;
}

static double tol_sinh_cosh(double x, double r, double u)
{
    /* inherited from (exp(x) +- exp(-x)) / 2 */
    (void)r;
    return (3 + 2 * fabs(x)) * ulp32(exp(fabs(x))) + 2 * u;
}

static double tol_tanh(double x, double r, double u)
{
    /* inherited from sinh(x) / cosh(x) */
    (void)r;
    return 2 * (3 + 2 * fabs(x)) * ulp32(exp(fabs(x))) / cosh(x) + 3 * u;
}

static double tol_log_formula(double x, double r, double u)
{
    /* inherited from log(...): 2^-21 absolute near 1, 3 ULP elsewhere */
    (void)x, (void)r;
    return 0x1p-21 + 4 * u;
}

static double tol_exp(double x, double r, double u)
{
    (void)r;
    return (3 + 2 * fabs(x)) * u;
}

static double tol_log(double x, double r, double u)
{
    (void)r;
    return x >= 0.5 && x <= 2.0 ? 0x1p-21 : 3 * u;
}

static double tol_sqrt(double x, double r, double u)
{
    /* inherited from 1 / inversesqrt(x): 2 ULP, then 2.5 ULP */
    (void)x, (void)r;
    return 4.5 * u;
}

static double sign_ref(double x)
{
    return x > 0 ? 1.0 : x < 0 ? -1.0 : x;
}

static double fract_ref(double x)
{
    return x - floor(x);
}

static double radians_ref(double x)
{
    return x * (M_PI / 180.0);
}

static double degrees_ref(double x)
{
    return x * (180.0 / M_PI);
}

static double inversesqrt_ref(double x)
{
    return 1.0 / sqrt(x);
}

enum domain {
    D_ROUNDING, /* multiples of 1/4 (ties) and arbitrary values in +-1000 */
    D_WIDE,     /* +-1e4 */
    D_TRIG,     /* +-pi, some +-100 */
    D_TAN,      /* +-1.5 */
    D_UNIT,     /* [-1, 1] */
    D_ATAN,     /* +-[1e-20, 1e20] */
    D_HYP,      /* +-10 */
    D_ASINH,    /* +-[1e-20, 1e30] */
    D_ACOSH,    /* 1 + [1e-7, 1e30] */
    D_ATANH,    /* +-(1 - [1e-7, 1)) */
    D_EXP,      /* +-87 */
    D_EXP2,     /* +-126 */
    D_POSITIVE, /* [1e-40, 1e38] */
};

static double generate(enum domain domain)
{
    switch (domain) {
    case D_ROUNDING:
        if (next_u64() & 1)
            return floor(uniform(-4000, 4000)) / 4;
        return uniform(-1000, 1000);
    case D_WIDE: return uniform(-1e4, 1e4);
    case D_TRIG: return next_u64() % 8 ? uniform(-M_PI, M_PI) : uniform(-100, 100);
    case D_TAN: return uniform(-1.5, 1.5);
    case D_UNIT: return uniform(-1, 1);
    case D_ATAN: return random_sign(log_uniform(1e-20, 1e20));
    case D_HYP: return uniform(-10, 10);
    case D_ASINH: return random_sign(next_u64() & 1 ? uniform(0, 4) : log_uniform(1e-20, 1e30));
    case D_ACOSH: return 1 + (next_u64() & 1 ? uniform(0, 3) : log_uniform(1e-7, 1e30));
    case D_ATANH: return random_sign(next_u64() & 1 ? uniform(0, 1) : 1 - log_uniform(1e-7, 1));
    case D_EXP: return uniform(-87, 87);
    case D_EXP2: return uniform(-126, 126);
    case D_POSITIVE: return log_uniform(1e-40, 1e38);
    }
    return 0;
}

static const float edges_rounding[] = { 0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 0.49999997f, -0.49999997f,
                                        1e-30f, -1e-30f, 8388607.5f, -8388607.5f, 16777216.0f, -16777216.0f, 1e30f,
                                        -1e30f, 3.75f, -3.75f, INFINITY, -INFINITY, 1.0f, -1.0f };
static const float edges_wide[] = { 0.0f, -0.0f, 1.0f, 180.0f, -360.0f, 1e-30f };
static const float edges_trig[] = { 0.0f, -0.0f, (float)M_PI, -(float)M_PI, (float)M_PI_2, -(float)M_PI_2, 1e-20f,
                                    0.5f };
static const float edges_tan[] = { 0.0f, 1e-20f, -1e-20f, 1.5f, -1.5f, 0.785398f };
static const float edges_unit[] = { 0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 1e-20f, 0.99999994f, -0.99999994f };
static const float edges_atan[] = { 0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, 1e30f, -1e-30f };
static const float edges_hyp[] = { 0.0f, -0.0f, 1e-20f, -1e-5f, 1e-3f, 80.0f, -80.0f, 0.5f, 20.0f, -20.0f };
static const float edges_asinh[] = { 0.0f, -0.0f, 1e-30f, -1e-30f, 1e-4f, 2.0f, -2.0f, 2.0000002f, 0x1p28f,
                                     0x1.000002p28f, -1e30f, 3e38f, INFINITY, -INFINITY };
static const float edges_acosh[] = { 1.0f, 1.0000001f, 1.5f, 2.0f, 2.0000002f, 0x1p28f, 0x1.000002p28f, 1e30f, 3e38f,
                                     INFINITY };
static const float edges_atanh[] = { 0.0f, -0.0f, 1e-30f, -1e-30f, 1e-4f, 0.5f, -0.5f, 0.99999994f, -0.99999994f };
static const float edges_exp[] = { 0.0f, -0.0f, 1e-30f, 1.0f, -1.0f, 88.0f, -100.0f, -87.3f };
static const float edges_exp2[] = { 0.0f, -0.0f, 1.0f, 10.0f, -149.0f, 127.0f, 0.5f, -0.5f };
static const float edges_positive[] = { 1.0f, 0.5f, 2.0f, 0.99999994f, 1.0000001f, 1e-40f, 0x1p-149f, FLT_MAX,
                                        INFINITY, 0.0f, 4.0f, 0.25f };

#define EDGES(list) list, sizeof(list) / sizeof(list[0])

struct unary_case {
    const char *name;
    double (*ref)(double);
    tolerance_fn tolerance;
    double quality; /* max ULP for vkmm's formula-built functions, 0: none */
    enum domain domain;
    const float *edges;
    unsigned edge_count;
};

static const struct unary_case unary_cases[] = {
    { "round", round, tol_round, 0, D_ROUNDING, EDGES(edges_rounding) },
    { "roundEven", nearbyint, tol_exact, 0, D_ROUNDING, EDGES(edges_rounding) },
    { "trunc", trunc, tol_exact, 0, D_ROUNDING, EDGES(edges_rounding) },
    { "abs", fabs, tol_exact, 0, D_ROUNDING, EDGES(edges_rounding) },
    { "sign", sign_ref, tol_exact, 0, D_ROUNDING, EDGES(edges_rounding) },
    { "floor", floor, tol_exact, 0, D_ROUNDING, EDGES(edges_rounding) },
    { "ceil", ceil, tol_exact, 0, D_ROUNDING, EDGES(edges_rounding) },
    { "fract", fract_ref, tol_exact, 0, D_ROUNDING, EDGES(edges_rounding) },
    { "radians", radians_ref, tol_2ulp, 0, D_WIDE, EDGES(edges_wide) },
    { "degrees", degrees_ref, tol_2ulp, 0, D_WIDE, EDGES(edges_wide) },
    { "sin", sin, tol_sincos, 0, D_TRIG, EDGES(edges_trig) },
    { "cos", cos, tol_sincos, 0, D_TRIG, EDGES(edges_trig) },
    { "tan", tan, tol_tan, 0, D_TAN, EDGES(edges_tan) },
    { "asin", asin, tol_4096ulp, 0, D_UNIT, EDGES(edges_unit) },
    { "acos", acos, tol_4096ulp, 0, D_UNIT, EDGES(edges_unit) },
    { "atan", atan, tol_4096ulp, 0, D_ATAN, EDGES(edges_atan) },
    { "sinh", sinh, tol_sinh_cosh, 0, D_HYP, EDGES(edges_hyp) },
    { "cosh", cosh, tol_sinh_cosh, 0, D_HYP, EDGES(edges_hyp) },
    { "tanh", tanh, tol_tanh, 0, D_HYP, EDGES(edges_hyp) },
    { "asinh", asinh, tol_log_formula, 4, D_ASINH, EDGES(edges_asinh) },
    { "acosh", acosh, tol_log_formula, 4, D_ACOSH, EDGES(edges_acosh) },
    { "atanh", atanh, tol_log_formula, 4, D_ATANH, EDGES(edges_atanh) },
    { "exp", exp, tol_exp, 0, D_EXP, EDGES(edges_exp) },
    { "log", log, tol_log, 0, D_POSITIVE, EDGES(edges_positive) },
    { "exp2", exp2, tol_exp, 0, D_EXP2, EDGES(edges_exp2) },
    { "log2", log2, tol_log, 0, D_POSITIVE, EDGES(edges_positive) },
    { "sqrt", sqrt, tol_sqrt, 0, D_POSITIVE, EDGES(edges_positive) },
    { "inversesqrt", inversesqrt_ref, tol_2ulp, 0, D_POSITIVE, EDGES(edges_positive) },
};

enum { UNARY_CASES = sizeof(unary_cases) / sizeof(unary_cases[0]) };

/* Items per function: not a multiple of the workgroup size (64) nor of
 * any width, so the last subgroups run with a partial mask. */
enum { N4 = 250, N = 4 * N4, GROUPS = (N4 + 63) / 64 };

static void test_glsl450_unary_float(void **state)
{
    (void)state;
    float *x = malloc(UNARY_CASES * N * sizeof(float)), *y = malloc(UNARY_CASES * N * sizeof(float));
    for (unsigned k = 0; k < UNARY_CASES; k++) {
        const struct unary_case *c = &unary_cases[k];
        for (unsigned j = 0; j < N; j++)
            x[k * N + j] = j < c->edge_count ? c->edges[j] : (float)generate(c->domain);
    }
    double max_ulps[UNARY_CASES] = { 0 };
    for (unsigned w = 0; w < WIDTH_COUNT; w++) {
        for (unsigned i = 0; i < UNARY_CASES * N; i++)
            y[i] = NAN;
        struct vkmm_descriptor set[2] = { buffer_descriptor(x, UNARY_CASES * N * sizeof(float)),
                                          buffer_descriptor(y, UNARY_CASES * N * sizeof(float)) };
        run_shader("glsl450_unary", widths[w], set, 2, N4, GROUPS);
        for (unsigned k = 0; k < UNARY_CASES; k++) {
            const struct unary_case *c = &unary_cases[k];
            for (unsigned j = 0; j < N; j++) {
                double in = x[k * N + j], ref = c->ref(in), u = ulp32(ref);
                check(c->name, widths[w], j, in, y[k * N + j], ref, (float)ref, c->tolerance(in, ref, u), u,
                      &max_ulps[k]);
            }
        }
    }
    for (unsigned k = 0; k < UNARY_CASES; k++) {
        const struct unary_case *c = &unary_cases[k];
        print_message("  %-12s max error %.2f ULP\n", c->name, max_ulps[k]);
        if (c->quality && max_ulps[k] > c->quality)
            fail_msg("%s: max error %.2f ULP, more than vkmm's %g", c->name, max_ulps[k], c->quality);
    }
    free(x);
    free(y);
}

/* --- Single-precision functions of two and three operands ------------------------------------ */

enum { BINARY_BLOCKS = 13 };

static double mod_ref(float a, float b)
{
    float quotient = a / b;
    return (double)a - (double)b * floor((double)quotient);
}

static double smoothstep_ref(double e0, double e1, double x)
{
    double t = (x - e0) / (e1 - e0);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return t * t * (3 - 2 * t);
}

static void fill_binary(float *a, float *b, float *c)
{
    static const float atan2_edges[][2] = {
        { 0, 1 }, { -0.0f, 1 }, { 0, -1 }, { -0.0f, -1 }, { 1, 0 }, { -1, 0 }, { 0, 0 }, { -0.0f, 0 },
        { 0, -0.0f }, { -0.0f, -0.0f }, { INFINITY, 1 }, { 1, INFINITY }, { INFINITY, INFINITY },
        { -INFINITY, INFINITY }, { INFINITY, -INFINITY }, { -INFINITY, -INFINITY }, { 1, -INFINITY },
        { -1, -INFINITY }, { 1, 1 }, { -1, -1 }, { 1e-30f, -1 }, { 3, -3 }, { -2, 2 }, { 1e30f, 1e-30f },
    };
    for (unsigned j = 0; j < N; j++) {
        /* 0: atan(y, x) */
        if (j < sizeof(atan2_edges) / sizeof(atan2_edges[0])) {
            a[0 * N + j] = atan2_edges[j][0];
            b[0 * N + j] = atan2_edges[j][1];
        } else {
            a[0 * N + j] = (float)random_sign(next_u64() % 4 ? uniform(0, 10) : log_uniform(1e-10, 1e10));
            b[0 * N + j] = (float)random_sign(next_u64() % 4 ? uniform(0, 10) : log_uniform(1e-10, 1e10));
        }
        /* 1: pow(x > 0, y) */
        a[1 * N + j] = j < 4 ? (float[]){ 1, 2, 0.5f, 10 }[j] : (float)log_uniform(1e-3, 1e3);
        b[1 * N + j] = j < 4 ? (float[]){ 7.5f, 10, 2, 0 }[j] : (float)uniform(-10, 10);
        /* 2-4: min, max, step: often equal operands */
        for (unsigned k = 2; k <= 4; k++) {
            a[k * N + j] = (float)uniform(-100, 100);
            b[k * N + j] = next_u64() % 4 ? (float)uniform(-100, 100) : a[k * N + j];
        }
        /* 5: clamp with lo <= hi */
        float lo = (float)uniform(-100, 100), hi = (float)uniform(-100, 100);
        a[5 * N + j] = (float)uniform(-150, 150);
        b[5 * N + j] = fminf(lo, hi);
        c[5 * N + j] = fmaxf(lo, hi);
        /* 6: mix */
        a[6 * N + j] = (float)uniform(-100, 100);
        b[6 * N + j] = (float)uniform(-100, 100);
        c[6 * N + j] = j < 3 ? (float[]){ 0, 1, 0.5f }[j] : (float)uniform(-0.5, 1.5);
        /* 7: smoothstep(e0 < e1, x) */
        float e0 = (float)uniform(-10, 10);
        a[7 * N + j] = e0;
        b[7 * N + j] = e0 + (float)log_uniform(1e-3, 20);
        c[7 * N + j] = (float)uniform(e0 - 5, e0 + 25);
        /* 8: fma, with cancellation sometimes */
        a[8 * N + j] = (float)uniform(-100, 100);
        b[8 * N + j] = (float)uniform(-100, 100);
        c[8 * N + j] = next_u64() & 1 ? -a[8 * N + j] * b[8 * N + j] : (float)uniform(-1e4, 1e4);
        /* 9: mod */
        a[9 * N + j] = (float)uniform(-1000, 1000);
        b[9 * N + j] = (float)random_sign(log_uniform(0.01, 100));
        /* 10: min(vec, scalar); 11: clamp(vec, scalar, scalar) */
        a[10 * N + j] = (float)uniform(-100, 100);
        b[10 * N + j] = (float)uniform(-100, 100);
        a[11 * N + j] = (float)uniform(-150, 150);
        b[11 * N + j] = (float)uniform(-100, 0);
        c[11 * N + j] = (float)uniform(0, 100);
    }
    /* 12: the scalar forms, on block 0's, 1's, 8's and 6's operands. */
    static const unsigned from[4] = { 0, 1, 8, 6 };
    for (unsigned j = 0; j < N; j++) {
        unsigned k = from[j % 4];
        a[12 * N + j] = a[k * N + j];
        b[12 * N + j] = b[k * N + j];
        c[12 * N + j] = c[k * N + j];
    }
}

static void test_glsl450_binary_float(void **state)
{
    (void)state;
    size_t size = BINARY_BLOCKS * N * sizeof(float);
    float *a = calloc(1, size), *b = calloc(1, size), *c = calloc(1, size), *y = malloc(size);
    fill_binary(a, b, c);
    static const char *names[] = { "atan2", "pow", "min", "max", "step", "clamp", "mix", "smoothstep", "fma", "mod" };
    double max_ulps[10] = { 0 };
    for (unsigned w = 0; w < WIDTH_COUNT; w++) {
        for (unsigned i = 0; i < BINARY_BLOCKS * N; i++)
            y[i] = NAN;
        struct vkmm_descriptor set[4] = { buffer_descriptor(a, size), buffer_descriptor(b, size),
                                          buffer_descriptor(c, size), buffer_descriptor(y, size) };
        run_shader("glsl450_binary", widths[w], set, 4, N4, GROUPS);
        unsigned width = widths[w];
        for (unsigned j = 0; j < N; j++) {
            for (unsigned k = 0; k < 10; k++) {
                float fa = a[k * N + j], fb = b[k * N + j], fc = c[k * N + j];
                double x = fa, yy = fb, z = fc, ref, tol = 0;
                switch (k) {
                case 0: ref = atan2(x, yy); tol = 4096 * ulp32(ref); break;
                case 1: {
                    /* inherited from exp2(y * log2(x)) */
                    ref = pow(x, yy);
                    double t = yy * log2(x);
                    double log_error = x >= 0.5 && x <= 2 ? 0x1p-21 : 3 * ulp32(log2(x));
                    tol = (3 + 2 * fabs(t)) * ulp32(ref) + fabs(ref) * M_LN2 * fabs(yy) * log_error;
                    break;
                }
                case 2: ref = fmin(x, yy); break;
                case 3: ref = fmax(x, yy); break;
                case 4: ref = yy < x ? 0.0 : 1.0; break;
                case 5: ref = fmin(fmax(x, yy), z); break;
                case 6:
                    ref = x * (1 - z) + yy * z;
                    tol = 0x1p-22 * (fabs(x * (1 - z)) + fabs(yy * z)) + ulp32(ref);
                    break;
                case 7: ref = smoothstep_ref(x, yy, z); tol = 0x1p-20; break;
                case 8: ref = x * yy + z; tol = ulp32(x * yy) + ulp32(ref); break;
                default: {
                    ref = mod_ref(fa, fb);
                    double whole = (double)fb * floor((double)(fa / fb));
                    tol = ulp32(whole) + ulp32(ref);
                    break;
                }
                }
                check(names[k], width, j, x, y[k * N + j], ref, (float)ref, tol, ulp32(ref), &max_ulps[k]);
            }
            /* 10, 11: scalar operands are the .x of their vec4 */
            unsigned s = j - j % 4;
            float expected = fminf(a[10 * N + j], b[10 * N + s]);
            check("min(vec, scalar)", width, j, a[10 * N + j], y[10 * N + j], expected, expected, 0, 1, NULL);
            expected = fminf(fmaxf(a[11 * N + j], b[11 * N + s]), c[11 * N + s]);
            check("clamp(vec, scalar, scalar)", width, j, a[11 * N + j], y[11 * N + j], expected, expected, 0, 1, NULL);
            /* 12: the scalar forms give what the vector forms give */
            static const unsigned from[4] = { 0, 1, 8, 6 };
            check_bits("scalar form", width, j, &y[12 * N + j], &y[from[j % 4] * N + j], sizeof(float),
                       y[12 * N + j], y[from[j % 4] * N + j]);
        }
    }
    for (unsigned k = 0; k < 10; k++)
        print_message("  %-12s max error %.2f ULP\n", names[k], max_ulps[k]);
    if (max_ulps[0] > 4)
        fail_msg("atan2: max error %.2f ULP, more than vkmm's 4", max_ulps[0]);
    free(a);
    free(b);
    free(c);
    free(y);
}

/* --- Integers ------------------------------------------------------------------------------ */

static int32_t find_msb32(uint32_t v)
{
    return v ? 31 - __builtin_clz(v) : -1;
}

static int32_t int_ref(unsigned k, int32_t x, int32_t u, int32_t v)
{
    uint32_t ux = (uint32_t)x, uu = (uint32_t)u, uv = (uint32_t)v;
    int32_t lo = u < v ? u : v, hi = u < v ? v : u;
    uint32_t ulo = uu < uv ? uu : uv, uhi = uu < uv ? uv : uu;
    switch (k) {
    case 0: return x < 0 ? (int32_t)(0u - ux) : x;
    case 1: return x > 0 ? 1 : x < 0 ? -1 : 0;
    case 2: return x < u ? x : u;
    case 3: return x > u ? x : u;
    case 4: return x < lo ? lo : x > hi ? hi : x;
    case 5: return (int32_t)(ux < uu ? ux : uu);
    case 6: return (int32_t)(ux > uu ? ux : uu);
    case 7: return (int32_t)(ux < ulo ? ulo : ux > uhi ? uhi : ux);
    case 8: return x ? __builtin_ctz(ux) : -1;
    case 9: return find_msb32(x < 0 ? ~ux : ux);
    case 10: return find_msb32(ux);
    default: return __builtin_popcount(ux);
    }
}

static int32_t random_int32(unsigned j)
{
    static const int32_t edges[] = { 0, 1, -1, INT32_MIN, INT32_MAX, 2, -2, 0x80, -0x80, 0x7fff0000, 0x10000, -0x10000,
                                     INT32_MIN + 1, 3, 0x40000000 };
    if (j < sizeof(edges) / sizeof(edges[0]))
        return edges[j];
    switch (next_u64() % 4) {
    case 0: return (int32_t)(1u << (next_u64() % 32));
    case 1: return (int32_t)(next_u64() % 201) - 100;
    default: return (int32_t)next_u64();
    }
}

static void test_glsl450_integer(void **state)
{
    (void)state;
    enum { BLOCKS = 13 };
    int32_t *a = malloc(N * 4), *b = malloc(N * 4), *c = malloc(N * 4), *y = malloc(BLOCKS * N * 4);
    for (unsigned j = 0; j < N; j++) {
        a[j] = random_int32(j);
        b[j] = next_u64() % 8 ? random_int32(1000) : a[j];
        c[j] = random_int32(1000);
    }
    static const char *names[] = { "abs", "sign", "min", "max", "clamp", "umin", "umax", "uclamp", "findLSB",
                                   "findMSB", "findMSB(uint)", "bitCount" };
    for (unsigned w = 0; w < WIDTH_COUNT; w++) {
        memset(y, 0x55, BLOCKS * N * 4);
        struct vkmm_descriptor set[4] = { buffer_descriptor(a, N * 4), buffer_descriptor(b, N * 4),
                                          buffer_descriptor(c, N * 4), buffer_descriptor(y, BLOCKS * N * 4) };
        run_shader("glsl450_int", widths[w], set, 4, N4, GROUPS);
        for (unsigned j = 0; j < N; j++) {
            for (unsigned k = 0; k < 12; k++) {
                int32_t expected = int_ref(k, a[j], b[j], c[j]);
                if (y[k * N + j] != expected)
                    fail_msg("%s, width %u, element %u: %d, %d, %d: got %d, expected %d", names[k], widths[w], j, a[j],
                             b[j], c[j], y[k * N + j], expected);
            }
            static const unsigned scalar_forms[4] = { 8, 9, 10, 0 };
            int32_t expected = int_ref(scalar_forms[j % 4], a[j], b[j], c[j]);
            if (y[12 * N + j] != expected)
                fail_msg("scalar %s, width %u, element %u: %d: got %d, expected %d", names[scalar_forms[j % 4]],
                         widths[w], j, a[j], y[12 * N + j], expected);
        }
    }
    free(a);
    free(b);
    free(c);
    free(y);
}

static int64_t narrow_signed(int64_t x, unsigned bits)
{
    return bits == 64 ? x : bits == 16 ? (int64_t)(int16_t)x : (int64_t)(int8_t)x;
}

static uint64_t narrow_unsigned(int64_t x, unsigned bits)
{
    return bits == 64 ? (uint64_t)x : bits == 16 ? (uint64_t)(uint16_t)x : (uint64_t)(uint8_t)x;
}

static void test_glsl450_integer_widths(void **state)
{
    (void)state;
    enum { BLOCKS = 16, N2 = 500 };
    int64_t *a = malloc(N * 8), *b = malloc(N * 8), *c = malloc(N * 8), *y = malloc(BLOCKS * N * 8);
    static const int64_t edges[] = { 0, 1, -1, INT64_MIN, INT64_MAX, INT32_MIN, 0x8000, -0x8000, 0x7fff, 0x80, -0x80,
                                     0x7f, 0xff, 0x10000, 1ll << 40, -(1ll << 40) };
    for (unsigned j = 0; j < N; j++) {
        a[j] = j < sizeof(edges) / sizeof(edges[0]) ? edges[j] : next_u64() % 3 ? (int64_t)next_u64()
                                                                                 : (int64_t)(next_u64() % 512) - 256;
        b[j] = next_u64() % 8 ? (int64_t)next_u64() >> (next_u64() % 64) : a[j];
        c[j] = (int64_t)next_u64() >> (next_u64() % 64);
    }
    static const char *names[] = { "abs64", "sign64", "min64", "max64", "clamp64", "umin64", "umax64", "uclamp64",
                                   "findLSB64", "abs16", "sign16", "clamp16", "umax16", "abs8", "min8", "uclamp8" };
    for (unsigned w = 0; w < WIDTH_COUNT; w++) {
        memset(y, 0x55, BLOCKS * N * 8);
        struct vkmm_descriptor set[4] = { buffer_descriptor(a, N * 8), buffer_descriptor(b, N * 8),
                                          buffer_descriptor(c, N * 8), buffer_descriptor(y, BLOCKS * N * 8) };
        run_shader("glsl450_int_widths", widths[w], set, 4, N2, (N2 + 63) / 64);
        for (unsigned j = 0; j < N; j++) {
            for (unsigned k = 0; k < BLOCKS; k++) {
                unsigned bits = k < 9 ? 64 : k < 13 ? 16 : 8;
                int64_t x = narrow_signed(a[j], bits), u = narrow_signed(b[j], bits), v = narrow_signed(c[j], bits);
                uint64_t ux = narrow_unsigned(a[j], bits), uu = narrow_unsigned(b[j], bits),
                         uv = narrow_unsigned(c[j], bits);
                int64_t lo = u < v ? u : v, hi = u < v ? v : u;
                uint64_t ulo = uu < uv ? uu : uv, uhi = uu < uv ? uv : uu;
                int64_t expected;
                switch (k) {
                case 0: case 9: case 13:
                    expected = narrow_signed(x < 0 ? (int64_t)(0 - ux) : x, bits); /* abs(INT_MIN) is INT_MIN */
                    break;
                case 1: case 10: expected = x > 0 ? 1 : x < 0 ? -1 : 0; break;
                case 2: case 14: expected = x < u ? x : u; break;
                case 3: expected = x > u ? x : u; break;
                case 4: case 11: expected = x < lo ? lo : x > hi ? hi : x; break;
                case 5: expected = (int64_t)(ux < uu ? ux : uu); break;
                case 6: case 12: expected = (int64_t)(ux > uu ? ux : uu); break;
                case 7: case 15: expected = (int64_t)(ux < ulo ? ulo : ux > uhi ? uhi : ux); break;
                default: expected = x ? __builtin_ctzll(ux) : -1; break;
                }
                if (y[k * N + j] != expected)
                    fail_msg("%s, width %u, element %u: %lld, %lld, %lld: got %lld, expected %lld", names[k], widths[w],
                             j, (long long)a[j], (long long)b[j], (long long)c[j], (long long)y[k * N + j],
                             (long long)expected);
            }
        }
    }
    free(a);
    free(b);
    free(c);
    free(y);
}

/* --- modf, frexp, ldexp ------------------------------------------------------------------- */

static void test_glsl450_modf_frexp_ldexp(void **state)
{
    (void)state;
    enum { ITEMS = 1000 };
    float *x = malloc(ITEMS * 16), *f = malloc(5 * ITEMS * 16);
    int32_t *e = malloc(ITEMS * 16), *k = malloc(ITEMS * 16), *dk = malloc(ITEMS * 8);
    double *dx = malloc(ITEMS * 16), *df = malloc(4 * ITEMS * 16);
    static const float edges[] = { 0.0f, -0.0f, 0.5f, -0.5f, 1.0f, -1.0f, 2.5f, -2.75f, 1e-40f, -1e-40f, 1e30f, -1e30f,
                                   3e7f, -2.0f, 0x1p-149f, FLT_MAX, INFINITY, -INFINITY, 0.75f, 8388607.5f };
    static const double dedges[] = { 0.0, -0.0, 0.5, -0.5, 1e-310, -3e300, 4503599627370495.5, -2.0, INFINITY,
                                     -INFINITY, 0x1p-1074, DBL_MAX };
    static const int32_t eedges[] = { 0, 1, -1, 127, -126, -149, 150, 1000, -1000, 20, -20, 300, -300, INT32_MAX,
                                      INT32_MIN, 24 };
    for (unsigned j = 0; j < 4 * ITEMS; j++) {
        x[j] = j < sizeof(edges) / sizeof(edges[0]) ? edges[j]
               : next_u64() & 1                      ? (float)uniform(-1000, 1000)
                                                     : (float)random_sign(log_uniform(1e-38, 1e38));
        e[j] = j < sizeof(eedges) / sizeof(eedges[0]) ? eedges[j] : (int32_t)(next_u64() % 601) - 300;
    }
    for (unsigned j = 0; j < 2 * ITEMS; j++)
        dx[j] = j < sizeof(dedges) / sizeof(dedges[0]) ? dedges[j]
                : next_u64() & 1                        ? uniform(-1e6, 1e6)
                                                        : random_sign(log_uniform(1e-300, 1e300));
    for (unsigned w = 0; w < WIDTH_COUNT; w++) {
        memset(f, 0xff, 5 * ITEMS * 16);
        memset(k, 0x55, ITEMS * 16);
        memset(df, 0xff, 4 * ITEMS * 16);
        memset(dk, 0x55, ITEMS * 8);
        struct vkmm_descriptor set[7] = {
            buffer_descriptor(x, ITEMS * 16),      buffer_descriptor(e, ITEMS * 16),
            buffer_descriptor(f, 5 * ITEMS * 16),  buffer_descriptor(k, ITEMS * 16),
            buffer_descriptor(dx, ITEMS * 16),     buffer_descriptor(df, 4 * ITEMS * 16),
            buffer_descriptor(dk, ITEMS * 8),
        };
        unsigned width = widths[w];
        run_shader("glsl450_modf_frexp", width, set, 7, ITEMS, (ITEMS + 63) / 64);
        for (unsigned j = 0; j < 4 * ITEMS; j++) {
            float whole, fraction = modff(x[j], &whole);
            int exponent;
            float mantissa = frexpf(x[j], &exponent);
            if (isinf(x[j]))
                exponent = 0;
            float scaled = ldexpf(x[j], e[j]);
            check_bits("modf", width, j, &f[0 * 4 * ITEMS + j], &fraction, 4, f[j], fraction);
            check_bits("modf whole", width, j, &f[1 * 4 * ITEMS + j], &whole, 4, f[4 * ITEMS + j], whole);
            check_bits("frexp", width, j, &f[2 * 4 * ITEMS + j], &mantissa, 4, f[8 * ITEMS + j], mantissa);
            check_bits("frexp exponent", width, j, &k[j], &exponent, 4, k[j], exponent);
            check_bits("ldexp", width, j, &f[3 * 4 * ITEMS + j], &scaled, 4, f[12 * ITEMS + j], scaled);
        }
        for (unsigned i = 0; i < ITEMS; i++) {
            /* (modf(v.y), whole, ldexp(v.z, e.w), frexp(v.w)) */
            float expected[4], whole;
            int exponent;
            expected[0] = modff(x[4 * i + 1], &whole);
            expected[1] = whole;
            expected[2] = ldexpf(x[4 * i + 2], e[4 * i + 3]);
            expected[3] = frexpf(x[4 * i + 3], &exponent);
            for (unsigned c = 0; c < 4; c++)
                check_bits("scalar modf/ldexp/frexp", width, 4 * i + c, &f[16 * ITEMS + 4 * i + c], &expected[c], 4,
                           f[16 * ITEMS + 4 * i + c], expected[c]);
        }
        for (unsigned j = 0; j < 2 * ITEMS; j++) {
            double whole, fraction = modf(dx[j], &whole);
            int exponent;
            double mantissa = frexp(dx[j], &exponent);
            if (isinf(dx[j]))
                exponent = 0;
            double scaled = ldexp(dx[j], e[(j / 2) * 4 + j % 2]);
            check_bits("dmodf", width, j, &df[0 * 2 * ITEMS + j], &fraction, 8, df[j], fraction);
            check_bits("dmodf whole", width, j, &df[1 * 2 * ITEMS + j], &whole, 8, df[2 * ITEMS + j], whole);
            check_bits("dfrexp", width, j, &df[2 * 2 * ITEMS + j], &mantissa, 8, df[4 * ITEMS + j], mantissa);
            check_bits("dfrexp exponent", width, j, &dk[j], &exponent, 4, dk[j], exponent);
            check_bits("dldexp", width, j, &df[3 * 2 * ITEMS + j], &scaled, 8, df[6 * ITEMS + j], scaled);
        }
    }
    free(x);
    free(f);
    free(e);
    free(k);
    free(dk);
    free(dx);
    free(df);
}

/* --- Packing ------------------------------------------------------------------------------- */

static uint16_t half_bits(float value)
{
    _Float16 h = (_Float16)value;
    uint16_t bits;
    memcpy(&bits, &h, 2);
    return bits;
}

static float half_value(uint16_t bits)
{
    _Float16 h;
    memcpy(&h, &bits, 2);
    return (float)h;
}

static uint32_t pack_norm(const float *v, unsigned count, bool snorm)
{
    unsigned bits = count == 4 ? 8 : 16;
    float scale = snorm ? (bits == 8 ? 127.0f : 32767.0f) : (bits == 8 ? 255.0f : 65535.0f);
    uint32_t packed = 0;
    for (unsigned i = 0; i < count; i++) {
        float c = fminf(fmaxf(v[i], snorm ? -1.0f : 0.0f), 1.0f);
        int32_t q = (int32_t)nearbyintf(c * scale);
        packed |= ((uint32_t)q & ((1u << bits) - 1)) << (i * bits);
    }
    return packed;
}

static float unpack_norm(uint32_t packed, unsigned i, unsigned bits, bool snorm)
{
    uint32_t field = (packed >> (i * bits)) & ((1u << bits) - 1);
    if (!snorm)
        return (float)field / (bits == 8 ? 255.0f : 65535.0f);
    int32_t value = bits == 8 ? (int8_t)field : (int16_t)field;
    float f = (float)value / (bits == 8 ? 127.0f : 32767.0f);
    return fminf(fmaxf(f, -1.0f), 1.0f);
}

static void test_glsl450_pack_unpack(void **state)
{
    (void)state;
    enum { ITEMS = 1000 };
    float *v = malloc(ITEMS * 16), *of = malloc(ITEMS * 64);
    uint32_t *u = malloc(ITEMS * 8), *ou = malloc(ITEMS * 20), *ou2 = malloc(ITEMS * 8);
    double *d = malloc(ITEMS * 8), *od = malloc(ITEMS * 8);
    static const float edges[] = { 0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f, 1e-3f, -1e-3f, 65504.0f, 65520.0f,
                                   1e5f, 6e-8f, 1e-9f, 0.1f, 1.0f / 254.0f, 1.5f / 255.0f, 0.99999f, -0.99999f };
    for (unsigned j = 0; j < 4 * ITEMS; j++)
        v[j] = j < sizeof(edges) / sizeof(edges[0]) ? edges[j]
               : j % 4 == 1 || j % 4 == 2           ? (float)random_sign(next_u64() & 1 ? uniform(0, 1.5)
                                                                                       : log_uniform(1e-9, 1e5))
                                                    : (float)uniform(-1.5, 1.5);
    for (unsigned j = 0; j < 2 * ITEMS; j++)
        u[j] = j < 8 ? (uint32_t[]){ 0, ~0u, 0x80008000u, 0x7fff7fffu, 0x80808080u, 0x7f7f7f7fu, 0x3c00bc00u,
                                     0x7c00fc00u }[j]
                     : (uint32_t)next_u64();
    for (unsigned j = 0; j < ITEMS; j++) {
        uint64_t bits = next_u64();
        memcpy(&d[j], &bits, 8);
    }
    for (unsigned w = 0; w < WIDTH_COUNT; w++) {
        unsigned width = widths[w];
        memset(ou, 0x55, ITEMS * 20);
        memset(of, 0x55, ITEMS * 64);
        memset(od, 0x55, ITEMS * 8);
        memset(ou2, 0x55, ITEMS * 8);
        struct vkmm_descriptor set[7] = { buffer_descriptor(v, ITEMS * 16), buffer_descriptor(u, ITEMS * 8),
                                          buffer_descriptor(d, ITEMS * 8),  buffer_descriptor(ou, ITEMS * 20),
                                          buffer_descriptor(of, ITEMS * 64), buffer_descriptor(od, ITEMS * 8),
                                          buffer_descriptor(ou2, ITEMS * 8) };
        run_shader("glsl450_pack", width, set, 7, ITEMS, (ITEMS + 63) / 64);
        for (unsigned i = 0; i < ITEMS; i++) {
            const float *x = &v[4 * i];
            uint32_t expected[5] = { pack_norm(x, 4, true), pack_norm(x, 4, false), pack_norm(x, 2, true),
                                     pack_norm(x + 2, 2, false),
                                     half_bits(x[1]) | (uint32_t)half_bits(x[2]) << 16 };
            static const char *names[5] = { "packSnorm4x8", "packUnorm4x8", "packSnorm2x16", "packUnorm2x16",
                                            "packHalf2x16" };
            for (unsigned k = 0; k < 5; k++)
                if (ou[5 * i + k] != expected[k])
                    fail_msg("%s, width %u, item %u: (%.9g, %.9g, %.9g, %.9g): got 0x%08x, expected 0x%08x", names[k],
                             width, i, x[0], x[1], x[2], x[3], ou[5 * i + k], expected[k]);
            uint32_t p = u[2 * i];
            float fexpected[16] = {
                unpack_norm(p, 0, 16, true), unpack_norm(p, 1, 16, true), unpack_norm(p, 0, 16, false),
                unpack_norm(p, 1, 16, false), half_value((uint16_t)p), half_value((uint16_t)(p >> 16)), 0, 0,
                unpack_norm(p, 0, 8, true), unpack_norm(p, 1, 8, true), unpack_norm(p, 2, 8, true),
                unpack_norm(p, 3, 8, true), unpack_norm(p, 0, 8, false), unpack_norm(p, 1, 8, false),
                unpack_norm(p, 2, 8, false), unpack_norm(p, 3, 8, false),
            };
            for (unsigned k = 0; k < 16; k++) {
                float got = of[16 * i + k];
                bool same = got == fexpected[k] || (isnan(got) && isnan(fexpected[k]));
                if (!same)
                    fail_msg("unpack (%s), width %u, item %u, component %u: 0x%08x: got %.9g, expected %.9g",
                             k < 4 ? "norm2x16" : k < 8 ? "half2x16" : "norm4x8", width, i, k, p, got, fexpected[k]);
            }
            uint64_t packed = u[2 * i] | (uint64_t)u[2 * i + 1] << 32, got_bits;
            memcpy(&got_bits, &od[i], 8);
            if (got_bits != packed)
                fail_msg("packDouble2x32, width %u, item %u: got 0x%016llx, expected 0x%016llx", width, i,
                         (unsigned long long)got_bits, (unsigned long long)packed);
            uint64_t bits;
            memcpy(&bits, &d[i], 8);
            if (ou2[2 * i] != (uint32_t)bits || ou2[2 * i + 1] != (uint32_t)(bits >> 32))
                fail_msg("unpackDouble2x32, width %u, item %u: got 0x%08x%08x, expected 0x%016llx", width, i,
                         ou2[2 * i + 1], ou2[2 * i], (unsigned long long)bits);
        }
    }
    free(v);
    free(of);
    free(u);
    free(ou);
    free(ou2);
    free(d);
    free(od);
}

/* --- Geometric functions --------------------------------------------------------------------- */

static void random_unit(float *v)
{
    double x, y, z, length;
    do {
        x = uniform(-1, 1), y = uniform(-1, 1), z = uniform(-1, 1);
        length = sqrt(x * x + y * y + z * z);
    } while (length < 0.1 || length > 1);
    v[0] = (float)(x / length), v[1] = (float)(y / length), v[2] = (float)(z / length);
}

struct geometric_check {
    const char *what;
    unsigned width;
    double eps; /* 2^-24 or 2^-53 */
    bool is_double;
};

/* got within `scale` * 8 eps of ref */
static void check_scaled(const struct geometric_check *g, unsigned item, unsigned component, double got, double ref,
                         double scale)
{
    double tolerance = 8 * g->eps * scale;
    double rounded = g->is_double ? ref : (float)ref;
    if (!(got == rounded || fabs(got - ref) <= tolerance))
        fail_msg("%s, width %u, item %u, component %u: got %.17g, expected %.17g (tolerance %.3g)", g->what, g->width,
                 item, component, got, ref, tolerance);
}

/* Reference geometric results in long double for item inputs x, n (unit),
 * i (unit) and eta, with error scales; `results` as the shader lays them. */
struct refract_ref {
    long double r[3];
    double scale[3];
    bool ambiguous;
};

static struct refract_ref refract_ref(const double *i, const double *n, double eta, double eps)
{
    struct refract_ref out = { { 0 }, { 0 }, false };
    long double d = 0;
    double d_abs = 0;
    for (unsigned c = 0; c < 3; c++) {
        d += (long double)n[c] * i[c];
        d_abs += fabs(n[c] * i[c]);
    }
    long double k = 1 - (long double)eta * eta * (1 - d * d);
    /* The error of k (a few eps), through the square root. */
    double k_error = 8 * eps * (1 + eta * eta * (1 + d_abs * d_abs));
    if (fabsl(k) <= 4 * k_error) {
        out.ambiguous = true; /* total internal reflection or not: either */
        return out;
    }
    if (k < 0)
        return out;
    long double root = sqrtl(k);
    double root_error = k_error / (2 * (double)root);
    for (unsigned c = 0; c < 3; c++) {
        out.r[c] = eta * i[c] - (eta * d + root) * n[c];
        out.scale[c] = fabs(eta * i[c]) + (fabs(eta) * d_abs + (double)root) * fabs(n[c]) +
                       root_error / (8 * eps) * fabs(n[c]);
    }
    return out;
}

static void test_glsl450_geometric(void **state)
{
    (void)state;
    enum { ITEMS = 1000 };
    float *a = malloc(ITEMS * 16), *b = malloc(ITEMS * 16), *c = malloc(ITEMS * 16), *y = malloc(6 * ITEMS * 16);
    double *dy = malloc(5 * ITEMS * 32);
    for (unsigned i = 0; i < ITEMS; i++) {
        for (unsigned k = 0; k < 4; k++)
            a[4 * i + k] = (float)(next_u64() % 8 ? uniform(-10, 10) : random_sign(log_uniform(1e-3, 1e3)));
        if (i == 0)
            a[0] = 0, a[1] = -0.0f; /* length(0) = 0; normalize(-0.0) is NaN, skipped below */
        random_unit(&b[4 * i]);
        b[4 * i + 3] = (float)uniform(-1, 1);
        random_unit(&c[4 * i]);
        c[4 * i + 3] = (float)uniform(0.5, 1.5); /* eta */
    }
    for (unsigned w = 0; w < WIDTH_COUNT; w++) {
        unsigned width = widths[w];
        memset(y, 0x55, 6 * ITEMS * 16);
        memset(dy, 0x55, 5 * ITEMS * 32);
        struct vkmm_descriptor set[5] = { buffer_descriptor(a, ITEMS * 16), buffer_descriptor(b, ITEMS * 16),
                                          buffer_descriptor(c, ITEMS * 16), buffer_descriptor(y, 6 * ITEMS * 16),
                                          buffer_descriptor(dy, 5 * ITEMS * 32) };
        run_shader("glsl450_geometric", width, set, 5, ITEMS, (ITEMS + 63) / 64);
        for (unsigned item = 0; item < ITEMS; item++) {
            const float *x = &a[4 * item], *u = &b[4 * item], *v = &c[4 * item];
            const float *r[6];
            for (unsigned k = 0; k < 6; k++)
                r[k] = &y[4 * (k * ITEMS + item)];
            struct geometric_check g = { "", width, 0x1p-24, false };
            long double xx = 0, dd = 0, xu = 0;
            double xu_abs = 0;
            for (unsigned k = 0; k < 4; k++) {
                xx += (long double)x[k] * x[k];
                dd += ((long double)x[k] - u[k]) * ((long double)x[k] - u[k]);
                xu += (long double)x[k] * u[k];
                xu_abs += fabs((double)x[k] * u[k]);
            }
            double length = sqrtl(xx);
            g.what = "length";
            check_scaled(&g, item, 0, r[0][0], length, length);
            g.what = "distance";
            check_scaled(&g, item, 1, r[0][1], sqrtl(dd), sqrtl(dd));
            g.what = "length(float)";
            check_scaled(&g, item, 2, r[0][2], fabsf(x[0]), 0);
            g.what = "normalize(float)";
            if (x[1] != 0)
                check_scaled(&g, item, 3, r[0][3], x[1] > 0 ? 1.0 : -1.0, 0);
            g.what = "normalize";
            if (length > 0)
                for (unsigned k = 0; k < 4; k++)
                    check_scaled(&g, item, k, r[1][k], x[k] / length, 1);
            g.what = "cross";
            for (unsigned k = 0; k < 3; k++) {
                unsigned p = (k + 1) % 3, q = (k + 2) % 3;
                double ref = (double)x[p] * u[q] - (double)u[p] * x[q];
                check_scaled(&g, item, k, r[2][k], ref, fabs((double)x[p] * u[q]) + fabs((double)u[p] * x[q]));
            }
            g.what = "length(vec2)";
            check_scaled(&g, item, 3, r[2][3], hypot(x[0], x[1]), hypot(x[0], x[1]));
            g.what = "faceforward";
            {
                /* faceforward(x, v, u): dot(u, v) < 0 ? x : -x */
                long double facing = 0;
                double facing_abs = 0;
                for (unsigned k = 0; k < 3; k++) {
                    facing += (long double)u[k] * v[k];
                    facing_abs += fabs((double)u[k] * v[k]);
                }
                bool ambiguous = fabsl(facing) <= 8 * 0x1p-24 * facing_abs;
                for (unsigned k = 0; k < 3; k++) {
                    double expected = facing < 0 ? x[k] : -x[k];
                    if (r[3][k] != expected && !(ambiguous && r[3][k] == -expected))
                        fail_msg("faceforward, width %u, item %u, component %u: got %.9g, expected %.9g", width, item,
                                 k, r[3][k], expected);
                }
            }
            g.what = "distance(float)";
            check_scaled(&g, item, 3, r[3][3], fabs((double)x[2] - u[2]), fabs((double)x[2] - u[2]));
            g.what = "reflect";
            for (unsigned k = 0; k < 4; k++) {
                double ref = x[k] - 2 * (double)xu * u[k];
                check_scaled(&g, item, k, r[4][k], ref, fabs(x[k]) + 2 * xu_abs * fabs(u[k]));
            }
            g.what = "refract";
            {
                double i3[3] = { v[0], v[1], v[2] }, n3[3] = { u[0], u[1], u[2] };
                struct refract_ref ref = refract_ref(i3, n3, v[3], 0x1p-24);
                if (!ref.ambiguous)
                    for (unsigned k = 0; k < 3; k++)
                        check_scaled(&g, item, k, r[5][k], ref.r[k], ref.scale[k]);
            }
            g.what = "reflect(float)";
            check_scaled(&g, item, 3, r[5][3], x[0] - 2.0 * u[0] * x[0] * u[0], fabs(x[0]) * 3);

            /* Double precision, on the float inputs. */
            const double *s[5];
            for (unsigned k = 0; k < 5; k++)
                s[k] = &dy[4 * (k * ITEMS + item)];
            struct geometric_check h = { "", width, 0x1p-53, true };
            long double dxx = 0, ddd = 0, dxu = 0;
            double dxu_abs = 0;
            for (unsigned k = 0; k < 3; k++) {
                dxx += (long double)x[k] * x[k];
                ddd += ((long double)x[k] - u[k]) * ((long double)x[k] - u[k]);
                dxu += (long double)x[k] * u[k];
                dxu_abs += fabs((double)x[k] * u[k]);
            }
            h.what = "dcross";
            for (unsigned k = 0; k < 3; k++) {
                unsigned p = (k + 1) % 3, q = (k + 2) % 3;
                long double ref = (long double)x[p] * u[q] - (long double)u[p] * x[q];
                check_scaled(&h, item, k, s[0][k], ref, fabs((double)x[p] * u[q]) + fabs((double)u[p] * x[q]));
            }
            long double dlength = sqrtl(dxx);
            h.what = "dlength";
            check_scaled(&h, item, 3, s[0][3], dlength, dlength);
            h.what = "dnormalize";
            if (dlength > 0)
                for (unsigned k = 0; k < 3; k++)
                    check_scaled(&h, item, k, s[1][k], x[k] / dlength, 1);
            h.what = "ddistance";
            check_scaled(&h, item, 3, s[1][3], sqrtl(ddd), sqrtl(ddd));
            h.what = "dreflect";
            for (unsigned k = 0; k < 3; k++)
                check_scaled(&h, item, k, s[2][k], x[k] - 2 * dxu * u[k], fabs(x[k]) + 2 * dxu_abs * fabs(u[k]));
            h.what = "drefract";
            {
                double i3[3] = { v[0], v[1], v[2] }, n3[3] = { u[0], u[1], u[2] };
                struct refract_ref ref = refract_ref(i3, n3, v[3], 0x1p-53);
                if (!ref.ambiguous)
                    for (unsigned k = 0; k < 3; k++)
                        check_scaled(&h, item, k, s[3][k], ref.r[k], ref.scale[k]);
            }
            {
                long double facing = 0;
                for (unsigned k = 0; k < 3; k++)
                    facing += (long double)u[k] * v[k];
                for (unsigned k = 0; k < 3; k++) {
                    double expected = facing < 0 ? x[k] : -x[k];
                    if (s[4][k] != expected && fabsl(facing) > 1e-12)
                        fail_msg("dfaceforward, width %u, item %u: got %.17g, expected %.17g", width, item, s[4][k],
                                 expected);
                }
            }
        }
    }
    free(a);
    free(b);
    free(c);
    free(y);
    free(dy);
}

/* --- Matrices -------------------------------------------------------------------------------- */

/* Determinant and permanent of |e| (the bound on the determinant's
 * rounding error is eps times a multiple of the latter) of the n x n
 * submatrix of rows/cols. */
static long double det_ld(long double e[4][4], const unsigned *rows, const unsigned *cols, unsigned n, bool permanent)
{
    if (n == 1)
        return permanent ? fabsl(e[rows[0]][cols[0]]) : e[rows[0]][cols[0]];
    long double sum = 0;
    for (unsigned k = 0; k < n; k++) {
        unsigned sub[4], m = 0;
        for (unsigned j = 0; j < n; j++)
            if (j != k)
                sub[m++] = cols[j];
        long double term = (permanent ? fabsl(e[rows[0]][cols[k]]) : e[rows[0]][cols[k]]) *
                           det_ld(e, rows + 1, sub, n - 1, permanent);
        sum += permanent || !(k & 1) ? term : -term;
    }
    return sum;
}

static void check_matrix_results(const char *what, unsigned width, unsigned item, const float *m, unsigned n,
                                 const void *results, bool is_double)
{
    long double e[4][4];
    for (unsigned c = 0; c < n; c++)
        for (unsigned r = 0; r < n; r++)
            e[r][c] = m[4 * c + r];
    static const unsigned all[4] = { 0, 1, 2, 3 };
    long double det = det_ld(e, all, all, n, false), perm = det_ld(e, all, all, n, true);
    double eps = is_double ? 0x1p-53 : 0x1p-24;
    unsigned det_index = 4 - n, inverse_index = n == 4 ? 3 : n == 3 ? 19 : 28;
    double got = is_double ? ((const double *)results)[det_index] : ((const float *)results)[det_index];
    double tolerance = 16 * eps * (double)perm;
    if (fabsl(got - det) > tolerance)
        fail_msg("%s determinant %ux%u, width %u, item %u: got %.17g, expected %.17Lg (tolerance %.3g)", what, n, n,
                 width, item, got, det, tolerance);
    /* inverse(r, c) = cofactor(c, r) / det: the error of both, relative to
     * the permanents that bound them. */
    for (unsigned c = 0; c < n; c++)
        for (unsigned r = 0; r < n; r++) {
            unsigned rows[3], cols[3], i = 0, j = 0;
            for (unsigned k = 0; k < n; k++) {
                if (k != c)
                    rows[i++] = k;
                if (k != r)
                    cols[j++] = k;
            }
            long double minor = det_ld(e, rows, cols, n - 1, false), minor_perm = det_ld(e, rows, cols, n - 1, true);
            long double expected = ((r + c) & 1 ? -minor : minor) / det;
            double scale = (double)(minor_perm / fabsl(det) + fabsl(expected) * perm / fabsl(det));
            tolerance = 16 * eps * scale;
            unsigned index = inverse_index + n * c + r;
            got = is_double ? ((const double *)results)[index] : ((const float *)results)[index];
            if (fabsl(got - expected) > tolerance)
                fail_msg("%s inverse %ux%u, width %u, item %u, [%u][%u]: got %.17g, expected %.17Lg (tolerance %.3g)",
                         what, n, n, width, item, c, r, got, expected, tolerance);
        }
}

static void test_glsl450_matrix(void **state)
{
    (void)state;
    enum { ITEMS = 500 };
    float *m = malloc(ITEMS * 64), *y = malloc(ITEMS * 32 * 4);
    double *dy = malloc(ITEMS * 32 * 8);
    for (unsigned i = 0; i < ITEMS; i++)
        for (unsigned c = 0; c < 4; c++)
            for (unsigned r = 0; r < 4; r++) /* mostly well conditioned: a dominant diagonal */
                m[16 * i + 4 * c + r] = (float)(uniform(-1, 1) + (r == c && i % 8 ? random_sign(3) : 0));
    for (unsigned w = 0; w < WIDTH_COUNT; w++) {
        memset(y, 0x55, ITEMS * 32 * 4);
        memset(dy, 0x55, ITEMS * 32 * 8);
        struct vkmm_descriptor set[3] = { buffer_descriptor(m, ITEMS * 64), buffer_descriptor(y, ITEMS * 32 * 4),
                                          buffer_descriptor(dy, ITEMS * 32 * 8) };
        run_shader("glsl450_matrix", widths[w], set, 3, ITEMS, (ITEMS + 63) / 64);
        for (unsigned i = 0; i < ITEMS; i++)
            for (unsigned n = 2; n <= 4; n++) {
                check_matrix_results("float", widths[w], i, &m[16 * i], n, &y[32 * i], false);
                check_matrix_results("double", widths[w], i, &m[16 * i], n, &dy[32 * i], true);
            }
    }
    free(m);
    free(y);
    free(dy);
}

/* --- Double precision ------------------------------------------------------------------------ */

static void test_glsl450_double(void **state)
{
    (void)state;
    enum { BLOCKS = 18, N2 = 500 };
    size_t size = BLOCKS * N * sizeof(double);
    double *a = malloc(size), *b = malloc(size), *c = malloc(size), *y = malloc(size);
    static const double rounding_edges[] = { 0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994,
                                             4503599627370495.5, -4503599627370495.5, 9007199254740992.0, 1e300,
                                             -1e-300, INFINITY, -INFINITY, 3.75, -3.75 };
    for (unsigned k = 0; k < BLOCKS; k++)
        for (unsigned j = 0; j < N; j++) {
            double x;
            if (k <= 1) /* sqrt, inversesqrt */
                x = j < 4 ? (double[]){ 1.0, 4.0, 0x1p-1074, DBL_MAX }[j] : log_uniform(1e-300, 1e300);
            else if (k <= 9)
                x = j < sizeof(rounding_edges) / sizeof(rounding_edges[0]) ? rounding_edges[j]
                    : j & 1                                                ? floor(uniform(-4000, 4000)) / 4
                                                                           : uniform(-1e6, 1e6) / 3;
            else
                x = uniform(-100, 100);
            a[k * N + j] = x;
            b[k * N + j] = next_u64() % 4 ? uniform(-100, 100) : x;
            c[k * N + j] = uniform(-100, 100);
        }
    for (unsigned j = 0; j < N; j++) {
        double lo = fmin(b[12 * N + j], c[12 * N + j]), hi = fmax(b[12 * N + j], c[12 * N + j]);
        b[12 * N + j] = lo, c[12 * N + j] = hi;
        c[13 * N + j] = uniform(-0.5, 1.5);
        b[15 * N + j] = a[15 * N + j] + log_uniform(1e-3, 20);
        c[15 * N + j] = uniform(a[15 * N + j] - 5, a[15 * N + j] + 25);
        b[17 * N + j] = random_sign(log_uniform(0.01, 100));
        if (j & 1)
            c[16 * N + j] = -a[16 * N + j] * b[16 * N + j];
    }
    static const char *names[BLOCKS] = { "dsqrt", "dinversesqrt", "dfloor", "dceil", "dfract", "dround",
                                         "droundEven", "dtrunc", "dabs", "dsign", "dmin", "dmax", "dclamp", "dmix",
                                         "dstep", "dsmoothstep", "dfma", "dmod" };
    double max_ulps[BLOCKS] = { 0 };
    for (unsigned w = 0; w < WIDTH_COUNT; w++) {
        for (unsigned i = 0; i < BLOCKS * N; i++)
            y[i] = NAN;
        struct vkmm_descriptor set[4] = { buffer_descriptor(a, size), buffer_descriptor(b, size),
                                          buffer_descriptor(c, size), buffer_descriptor(y, size) };
        run_shader("glsl450_double", widths[w], set, 4, N2, (N2 + 63) / 64);
        for (unsigned k = 0; k < BLOCKS; k++)
            for (unsigned j = 0; j < N; j++) {
                double x = a[k * N + j], u = b[k * N + j], v = c[k * N + j];
                long double ref;
                double tolerance = 0;
                switch (k) {
                case 0: ref = sqrtl(x); tolerance = 4.5 * ulp64(ref); break;
                case 1: ref = 1 / sqrtl(x); tolerance = 2 * ulp64(ref); break;
                case 2: ref = floor(x); break;
                case 3: ref = ceil(x); break;
                case 4: ref = (long double)x - floor(x); break;
                case 5: ref = round(x); tolerance = fabs(x - trunc(x)) == 0.5 ? 1 : 0; break;
                case 6: ref = nearbyint(x); break;
                case 7: ref = trunc(x); break;
                case 8: ref = fabs(x); break;
                case 9: ref = sign_ref(x); break;
                case 10: ref = fmin(x, u); break;
                case 11: ref = fmax(x, u); break;
                case 12: ref = fmin(fmax(x, u), v); break;
                case 13:
                    ref = (long double)x * (1 - (long double)v) + (long double)u * v;
                    tolerance = 0x1p-51 * (fabs(x * (1 - v)) + fabs(u * v)) + ulp64(ref);
                    break;
                case 14: ref = u < x ? 0 : 1; break;
                case 15: ref = smoothstep_ref(x, u, v); tolerance = 0x1p-49; break;
                case 16: ref = (long double)x * u + v; tolerance = ulp64(x * u) + ulp64(ref); break;
                default: {
                    double whole = u * floor(x / u);
                    ref = (long double)x - (long double)u * floor(x / u);
                    tolerance = ulp64(whole) + ulp64(ref);
                    break;
                }
                }
                check(names[k], widths[w], j, x, y[k * N + j], ref, (double)ref, tolerance, ulp64(ref), &max_ulps[k]);
            }
    }
    print_message("  dsqrt max error %.2f ULP, dinversesqrt %.2f ULP\n", max_ulps[0], max_ulps[1]);
    free(a);
    free(b);
    free(c);
    free(y);
}

/* --- Half precision -------------------------------------------------------------------------- */

static float to_half(double x)
{
    return (float)(_Float16)x;
}

static void test_glsl450_half(void **state)
{
    (void)state;
    enum { BLOCKS = 37 };
    size_t size = BLOCKS * N * sizeof(float);
    float *a = malloc(size), *b = malloc(size), *y = malloc(size);
    for (unsigned k = 0; k < BLOCKS; k++)
        for (unsigned j = 0; j < N; j++) {
            double x, u = uniform(-4, 4);
            switch (k) {
            case 0: case 1: x = uniform(-M_PI, M_PI); break;
            case 2: x = uniform(-9, 10); break;
            case 3: x = uniform(-14, 15); break;
            case 4: case 5: case 6: case 7: x = log_uniform(1e-4, 6e4); break;
            case 8: x = random_sign(log_uniform(1e-4, 6e4)); break;
            case 9: x = random_sign(log_uniform(1e-4, 6e4)); break;
            case 10: x = 1 + log_uniform(1e-3, 6e4); break;
            case 11: x = uniform(-0.999, 0.999); break;
            case 12: case 23: x = uniform(-10, 10); break;
            case 15: x = log_uniform(0.1, 10); break;
            case 16: x = uniform(-10, 10), u = uniform(-10, 10); break;
            case 18: x = uniform(-4, 4), u = floor(uniform(-20, 20)); break;
            case 21: x = uniform(-100, 100), u = uniform(-100, 100); break;
            case 25: x = uniform(-1.5, 1.5); break;
            case 26: case 27: x = uniform(-1, 1); break;
            case 28: x = uniform(-10, 10); break;
            case 29: x = floor(uniform(-400, 400)) / 4; break;
            case 34: x = uniform(-100, 100), u = uniform(-100, 100); break;
            case 35: case 36: x = uniform(-10, 10), u = uniform(-10, 10); break;
            default: x = uniform(-1000, 1000); break;
            }
            a[k * N + j] = to_half(x);
            b[k * N + j] = to_half(u);
        }
    for (unsigned k = 0; k < BLOCKS; k++) /* a few edges */
        a[k * N] = k == 10 || k == 15 || (k >= 4 && k <= 7) ? 1.0f : 0.0f;
    static const char *names[BLOCKS] = { "sin", "cos", "exp", "exp2", "log", "log2", "sqrt", "inversesqrt", "atan",
                                         "asinh", "acosh", "atanh", "tanh", "floor", "fract", "pow", "atan2", "min",
                                         "ldexp", "frexp", "modf", "length", "sign", "sinh", "fma", "tan",
                                         "asin", "acos", "cosh", "roundEven", "ceil", "step", "clamp", "radians",
                                         "normalize", "determinant", "cross" };
    double max_ulps[BLOCKS] = { 0 };
    for (unsigned w = 0; w < WIDTH_COUNT; w++) {
        for (unsigned i = 0; i < BLOCKS * N; i++)
            y[i] = NAN;
        struct vkmm_descriptor set[3] = { buffer_descriptor(a, size), buffer_descriptor(b, size),
                                          buffer_descriptor(y, size) };
        run_shader("glsl450_half", widths[w], set, 3, N, (N + 63) / 64);
        for (unsigned k = 0; k < BLOCKS; k++)
            for (unsigned j = 0; j < N; j++) {
                double x = a[k * N + j], u = b[k * N + j], ref;
                /* Vulkan's half-precision bounds are looser than these: vkmm
                 * evaluates in single precision and rounds once. */
                double tolerance_ulps = 1;
                double absolute = 0;
                switch (k) {
                case 0: ref = sin(x); absolute = 0x1p-7; break;
                case 1: ref = cos(x); absolute = 0x1p-7; break;
                case 2: ref = exp(x); break;
                case 3: ref = exp2(x); break;
                case 4: ref = log(x); break;
                case 5: ref = log2(x); break;
                case 6: ref = sqrt(x); break;
                case 7: ref = 1 / sqrt(x); break;
                case 8: ref = atan(x); break;
                case 9: ref = asinh(x); break;
                case 10: ref = acosh(x); break;
                case 11: ref = atanh(x); break;
                case 12: ref = tanh(x); break;
                case 13: ref = floor(x); tolerance_ulps = 0; break;
                case 14: ref = x - floor(x); break;
                case 15: ref = pow(x, u); break;
                case 16: ref = atan2(x, u); break;
                case 17: ref = fmin(x, u); tolerance_ulps = 0; break;
                case 18: ref = to_half(ldexp(x, (int)u)); tolerance_ulps = 0; break;
                case 19: {
                    int e;
                    double m = frexp(x, &e);
                    ref = m + 4.0 * e;
                    tolerance_ulps = 0;
                    break;
                }
                case 20: {
                    double whole, fraction = modf(x, &whole);
                    ref = fraction + 4 * whole;
                    tolerance_ulps = 0;
                    break;
                }
                case 21: ref = hypot(x, u); tolerance_ulps = 3; break; /* rounded twice in the dot product */
                case 22: ref = sign_ref(x); tolerance_ulps = 0; break;
                case 23: ref = sinh(x); break;
                case 24: ref = fma(x, u, x); break;
                case 25: ref = tan(x); break;
                case 26: ref = asin(x); break;
                case 27: ref = acos(x); break;
                case 28: ref = cosh(x); break;
                case 29: ref = nearbyint(x); tolerance_ulps = 0; break;
                case 30: ref = ceil(x); tolerance_ulps = 0; break;
                case 31: ref = u < x ? 0 : 1; tolerance_ulps = 0; break;
                case 32: ref = fmin(fmax(x, -fabs(u)), fabs(u)); tolerance_ulps = 0; break;
                case 33: ref = x * (M_PI / 180); tolerance_ulps = 2; break; /* the constant is a half too */
                case 34: ref = x / hypot(x, u); absolute = 0x1p-9; break; /* inherited, in half precision */
                case 35: /* x * x - u * u, each product rounded to half */
                    ref = x * x - u * u;
                    absolute = 0x1p-11 * (x * x + u * u);
                    break;
                default: /* (x, u, 1) x (u, 1, x): y = 1 * u - x * x */
                    ref = u - x * x;
                    absolute = 0x1p-11 * (fabs(u) + x * x);
                    break;
                }
                double ulp = ulp16(ref);
                if (k == 19 || k == 20)
                    ulp = 1; /* exact: compare as floats */
                double rounded = k == 19 || k == 20 ? ref : to_half(ref);
                check(names[k], widths[w], j, x, y[k * N + j], ref, rounded, tolerance_ulps * ulp + absolute, ulp,
                      &max_ulps[k]);
            }
    }
    print_message("  half: ");
    for (unsigned k = 0; k < BLOCKS; k++)
        print_message("%s %.2f%s", names[k], max_ulps[k], k + 1 < BLOCKS ? ", " : " ULP\n");
    free(a);
    free(b);
    free(y);
}

/* --- Forms glslang does not emit ---------------------------------------------------------- */

/* GLSL.std.450 forms glslang does not emit: Frexp through a pointer (here
 * Private storage), ModfStruct, NMin, NMax, NClamp.  Invocation i < 1000
 * reads x = a[i] and y = b[i] (vec2) and writes six vec2 to r[6i..6i+5]
 * and Frexp's exponent to e[i]. */
static const char extra_forms_spvasm[] =
    "OpCapability Shader\n"
    "%1 = OpExtInstImport \"GLSL.std.450\"\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %gid %a %b %r %e %exponent\n"
    "OpExecutionMode %main LocalSize 64 1 1\n"
    "OpDecorate %gid BuiltIn GlobalInvocationId\n"
    "OpDecorate %vec2_array ArrayStride 8\n"
    "OpDecorate %ivec2_array ArrayStride 8\n"
    "OpMemberDecorate %VecBlock 0 Offset 0\n"
    "OpDecorate %VecBlock Block\n"
    "OpMemberDecorate %IntBlock 0 Offset 0\n"
    "OpDecorate %IntBlock Block\n"
    "OpDecorate %a DescriptorSet 0\n"
    "OpDecorate %a Binding 0\n"
    "OpDecorate %b DescriptorSet 0\n"
    "OpDecorate %b Binding 1\n"
    "OpDecorate %r DescriptorSet 0\n"
    "OpDecorate %r Binding 2\n"
    "OpDecorate %e DescriptorSet 0\n"
    "OpDecorate %e Binding 3\n"
    "%void = OpTypeVoid\n"
    "%fn = OpTypeFunction %void\n"
    "%bool = OpTypeBool\n"
    "%uint = OpTypeInt 32 0\n"
    "%int = OpTypeInt 32 1\n"
    "%float = OpTypeFloat 32\n"
    "%vec2 = OpTypeVector %float 2\n"
    "%ivec2 = OpTypeVector %int 2\n"
    "%uvec3 = OpTypeVector %uint 3\n"
    "%vec2_array = OpTypeRuntimeArray %vec2\n"
    "%ivec2_array = OpTypeRuntimeArray %ivec2\n"
    "%VecBlock = OpTypeStruct %vec2_array\n"
    "%IntBlock = OpTypeStruct %ivec2_array\n"
    "%ModfResult = OpTypeStruct %vec2 %vec2\n"
    "%ptr_vec_block = OpTypePointer StorageBuffer %VecBlock\n"
    "%ptr_int_block = OpTypePointer StorageBuffer %IntBlock\n"
    "%ptr_vec2 = OpTypePointer StorageBuffer %vec2\n"
    "%ptr_ivec2 = OpTypePointer StorageBuffer %ivec2\n"
    "%ptr_private_ivec2 = OpTypePointer Private %ivec2\n"
    "%ptr_uvec3 = OpTypePointer Input %uvec3\n"
    "%a = OpVariable %ptr_vec_block StorageBuffer\n"
    "%b = OpVariable %ptr_vec_block StorageBuffer\n"
    "%r = OpVariable %ptr_vec_block StorageBuffer\n"
    "%e = OpVariable %ptr_int_block StorageBuffer\n"
    "%gid = OpVariable %ptr_uvec3 Input\n"
    "%exponent = OpVariable %ptr_private_ivec2 Private\n"
    "%int_0 = OpConstant %int 0\n"
    "%uint_1 = OpConstant %uint 1\n"
    "%uint_2 = OpConstant %uint 2\n"
    "%uint_3 = OpConstant %uint 3\n"
    "%uint_4 = OpConstant %uint 4\n"
    "%uint_5 = OpConstant %uint 5\n"
    "%uint_6 = OpConstant %uint 6\n"
    "%uint_1000 = OpConstant %uint 1000\n"
    "%float_m1 = OpConstant %float -1\n"
    "%float_1 = OpConstant %float 1\n"
    "%lo = OpConstantComposite %vec2 %float_m1 %float_m1\n"
    "%hi = OpConstantComposite %vec2 %float_1 %float_1\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%ids = OpLoad %uvec3 %gid\n"
    "%i = OpCompositeExtract %uint %ids 0\n"
    "%inside = OpULessThan %bool %i %uint_1000\n"
    "OpSelectionMerge %end None\n"
    "OpBranchConditional %inside %body %end\n"
    "%body = OpLabel\n"
    "%pa = OpAccessChain %ptr_vec2 %a %int_0 %i\n"
    "%x = OpLoad %vec2 %pa\n"
    "%pb = OpAccessChain %ptr_vec2 %b %int_0 %i\n"
    "%y = OpLoad %vec2 %pb\n"
    "%o0 = OpIMul %uint %i %uint_6\n"
    "%o1 = OpIAdd %uint %o0 %uint_1\n"
    "%o2 = OpIAdd %uint %o0 %uint_2\n"
    "%o3 = OpIAdd %uint %o0 %uint_3\n"
    "%o4 = OpIAdd %uint %o0 %uint_4\n"
    "%o5 = OpIAdd %uint %o0 %uint_5\n"
    "%mantissa = OpExtInst %vec2 %1 Frexp %x %exponent\n"
    "%pr0 = OpAccessChain %ptr_vec2 %r %int_0 %o0\n"
    "OpStore %pr0 %mantissa\n"
    "%exp = OpLoad %ivec2 %exponent\n"
    "%pe = OpAccessChain %ptr_ivec2 %e %int_0 %i\n"
    "OpStore %pe %exp\n"
    "%modf = OpExtInst %ModfResult %1 ModfStruct %x\n"
    "%fraction = OpCompositeExtract %vec2 %modf 0\n"
    "%whole = OpCompositeExtract %vec2 %modf 1\n"
    "%pr1 = OpAccessChain %ptr_vec2 %r %int_0 %o1\n"
    "OpStore %pr1 %fraction\n"
    "%pr2 = OpAccessChain %ptr_vec2 %r %int_0 %o2\n"
    "OpStore %pr2 %whole\n"
    "%nmin = OpExtInst %vec2 %1 NMin %x %y\n"
    "%pr3 = OpAccessChain %ptr_vec2 %r %int_0 %o3\n"
    "OpStore %pr3 %nmin\n"
    "%nmax = OpExtInst %vec2 %1 NMax %x %y\n"
    "%pr4 = OpAccessChain %ptr_vec2 %r %int_0 %o4\n"
    "OpStore %pr4 %nmax\n"
    "%nclamp = OpExtInst %vec2 %1 NClamp %x %lo %hi\n"
    "%pr5 = OpAccessChain %ptr_vec2 %r %int_0 %o5\n"
    "OpStore %pr5 %nclamp\n"
    "OpBranch %end\n"
    "%end = OpLabel\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

static uint32_t *assemble(const char *text, size_t *word_count)
{
    spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_3);
    spv_binary binary = NULL;
    spv_diagnostic diagnostic = NULL;
    if (spvTextToBinary(context, text, strlen(text), &binary, &diagnostic) != SPV_SUCCESS)
        fail_msg("spirv-as: %s", diagnostic ? diagnostic->error : "?");
    uint32_t *words = malloc(binary->wordCount * 4);
    memcpy(words, binary->code, binary->wordCount * 4);
    *word_count = binary->wordCount;
    spvBinaryDestroy(binary);
    spvContextDestroy(context);
    return words;
}

static void test_glsl450_frexp_pointer_modf_struct_nmin_nmax_nclamp(void **state)
{
    (void)state;
    enum { ITEMS = 1000 };
    size_t word_count = 0;
    uint32_t *words = assemble(extra_forms_spvasm, &word_count);
    float *a = malloc(ITEMS * 8), *b = malloc(ITEMS * 8), *r = malloc(ITEMS * 48);
    int32_t *e = malloc(ITEMS * 8);
    static const float edges[][2] = { { NAN, 1 }, { 1, NAN }, { NAN, NAN }, { -0.0f, 0 }, { 0, -0.0f }, { 2, -3 },
                                      { INFINITY, NAN }, { -INFINITY, -2 }, { 1e-40f, -1e-40f }, { 0.5f, 5 } };
    for (unsigned j = 0; j < 2 * ITEMS; j++) {
        bool edge = j < sizeof(edges) / sizeof(edges[0]);
        a[j] = edge ? edges[j][0] : next_u64() % 8 ? (float)uniform(-10, 10) : NAN;
        b[j] = edge ? edges[j][1] : next_u64() % 8 ? (float)uniform(-10, 10) : NAN;
    }
    for (unsigned w = 0; w < WIDTH_COUNT; w++) {
        unsigned width = widths[w];
        struct vkmm_compile_binding bindings[4] = { { 0, 0, 1 }, { 1, 1, 1 }, { 2, 2, 1 }, { 3, 3, 1 } };
        struct vkmm_compile_set set_layout = { 4, bindings };
        struct vkmm_compile_options options = {
            .entry_point = "main", .subgroup_width = width, .set_count = 1, .sets = &set_layout, .optimize = 1,
        };
        struct vkmm_compiled_shader shader;
        char error[512];
        if (vkmm_compile(words, word_count, &options, &shader, error, sizeof(error)) != 0)
            fail_msg("extra forms, width %u: compile failed: %s", width, error);
        memset(r, 0x55, ITEMS * 48);
        memset(e, 0x55, ITEMS * 8);
        struct vkmm_descriptor set[4] = { buffer_descriptor(a, ITEMS * 8), buffer_descriptor(b, ITEMS * 8),
                                          buffer_descriptor(r, ITEMS * 48), buffer_descriptor(e, ITEMS * 8) };
        run_workgroups(&shader, set, NULL, (ITEMS + 63) / 64, 1, 1);
        vkmm_compiled_shader_free(&shader);
        for (unsigned i = 0; i < ITEMS; i++)
            for (unsigned c = 0; c < 2; c++) {
                unsigned j = 2 * i + c;
                float x = a[j], y = b[j];
                const float *got = &r[12 * i + c];
                if (!isnan(x)) {
                    int exponent;
                    float mantissa = frexpf(x, &exponent), whole, fraction = modff(x, &whole);
                    if (isinf(x))
                        exponent = 0;
                    check_bits("Frexp", width, j, &got[0], &mantissa, 4, got[0], mantissa);
                    check_bits("Frexp exponent", width, j, &e[j], &exponent, 4, e[j], exponent);
                    check_bits("ModfStruct fraction", width, j, &got[2], &fraction, 4, got[2], fraction);
                    check_bits("ModfStruct whole", width, j, &got[4], &whole, 4, got[4], whole);
                }
                /* NMin / NMax / NClamp: a NaN operand gives the other one. */
                float expected[3] = { fminf(x, y), fmaxf(x, y), fminf(fmaxf(x, -1), 1) };
                static const char *names[3] = { "NMin", "NMax", "NClamp" };
                for (unsigned k = 0; k < 3; k++) {
                    float value = got[6 + 2 * k];
                    bool same = value == expected[k] || (isnan(value) && isnan(expected[k]));
                    if (!same)
                        fail_msg("%s, width %u, element %u: (%g, %g): got %g, expected %g", names[k], width, j, x, y,
                                 value, expected[k]);
                }
            }
    }
    free(words);
    free(a);
    free(b);
    free(r);
    free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glsl450_unary_float),
        cmocka_unit_test(test_glsl450_binary_float),
        cmocka_unit_test(test_glsl450_integer),
        cmocka_unit_test(test_glsl450_integer_widths),
        cmocka_unit_test(test_glsl450_modf_frexp_ldexp),
        cmocka_unit_test(test_glsl450_pack_unpack),
        cmocka_unit_test(test_glsl450_geometric),
        cmocka_unit_test(test_glsl450_matrix),
        cmocka_unit_test(test_glsl450_double),
        cmocka_unit_test(test_glsl450_half),
        cmocka_unit_test(test_glsl450_frexp_pointer_modf_struct_nmin_nmax_nclamp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
