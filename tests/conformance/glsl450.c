/* GLSL.std.450 extended instructions, with the tolerances of the Vulkan
 * spec's "Precision and Operation of SPIR-V Instructions" (float32 unless
 * said otherwise).  References are computed in double. */
#include "cf.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

struct column {
    const char *name;
    double abs_tol;
    double rel_tol;
};

/* got and want hold n rows of k floats; each column has its tolerance. */
static void expect_columns(const float *got, const double *want, size_t n, size_t k, const struct column *cols)
{
    float *g = cf_calloc(n, 4), *w = cf_calloc(n, 4);
    for (size_t c = 0; c < k; c++) {
        for (size_t i = 0; i < n; i++) {
            g[i] = got[i * k + c];
            w[i] = (float)want[i * k + c];
        }
        cf_expect_f32(g, w, n, cols[c].abs_tol, cols[c].rel_tol, cols[c].name);
    }
}

static const double ulp = 1.0 / 8388608.0; /* 2^-23 */

CF_TEST(glsl_trig)
{
    enum { N = 64 * 12, K = 7 };
    float *a = cf_calloc(N, 4), *b = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        a[i] = cf_rand_float((float)-M_PI, (float)M_PI);
        b[i] = cf_rand_float(-1.2f, 1.2f);
    }
    a[0] = 0.0f;
    b[0] = 1.0f;
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bb = cf_buffer_from(b, N * 4), *bo = cf_buffer(N * K * 4);
    CF_RUN("glsl_trig", NULL, 0, N / 64, 1, 1, ba, bb, bo);
    double *want = cf_calloc(N * K, 8);
    for (int i = 0; i < N; i++) {
        double x = a[i], y = b[i], c = y < -1 ? -1 : y > 1 ? 1 : y;
        double *w = &want[i * K];
        w[0] = sin(x);
        w[1] = cos(x);
        w[2] = tan((double)(float)(x * 0.4f));
        w[3] = asin(c);
        w[4] = acos(c);
        w[5] = atan((double)(float)(x * 3.0f));
        w[6] = atan2(y, x);
    }
    const struct column cols[K] = {
        { "sin", 1.0 / 2048, 0 },
        { "cos", 1.0 / 2048, 0 },
        { "tan", 1.0 / 1024, 1e-3 },
        { "asin", 1e-6, 4096 * ulp },
        { "acos", 1e-6, 4096 * ulp },
        { "atan", 1e-6, 4096 * ulp },
        { "atan2", 1e-6, 4096 * ulp },
    };
    expect_columns(bo->map, want, N, K, cols);
}

CF_TEST(glsl_hyperbolic)
{
    enum { N = 32 * 16, K = 6 };
    float *a = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        a[i] = cf_rand_float(-3, 3);
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * K * 4);
    CF_RUN("glsl_hyperbolic", NULL, 0, N / 32, 1, 1, ba, bo);
    double *want = cf_calloc(N * K, 8);
    for (int i = 0; i < N; i++) {
        double x = a[i];
        double *w = &want[i * K];
        w[0] = sinh(x);
        w[1] = cosh(x);
        w[2] = tanh(x);
        w[3] = asinh((double)(a[i] * 10.0f));
        w[4] = acosh((double)(1.0f + fabsf(a[i]) * 5.0f));
        w[5] = atanh((double)(a[i] * 0.3f));
    }
    /* Precision inherited from the exp/log formulas. */
    const struct column cols[K] = {
        { "sinh", 1e-5, 1e-4 }, { "cosh", 1e-5, 1e-4 },  { "tanh", 1e-5, 1e-4 },
        { "asinh", 1e-5, 1e-4 }, { "acosh", 1e-4, 1e-4 }, { "atanh", 1e-5, 1e-4 },
    };
    expect_columns(bo->map, want, N, K, cols);
}

CF_TEST(glsl_exp_log)
{
    enum { N = 128 * 6, K = 6 };
    float *a = cf_calloc(N, 4), *b = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        a[i] = cf_rand_float(-10, 10);
        b[i] = (i % 2) ? cf_rand_float(0.5f, 2.0f) : cf_rand_float(0.001f, 1000.0f);
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bb = cf_buffer_from(b, N * 4), *bo = cf_buffer(N * K * 4);
    CF_RUN("glsl_exp_log", NULL, 0, N / 128, 1, 1, ba, bb, bo);
    double *want = cf_calloc(N * K, 8);
    for (int i = 0; i < N; i++) {
        double x = a[i], p = b[i];
        double *w = &want[i * K];
        w[0] = exp(x);
        w[1] = exp2(x);
        w[2] = log(p);
        w[3] = log2(p);
        w[4] = exp((double)(a[i] * 0.5f)) * exp((double)(-a[i] * 0.5f));
        w[5] = log2((double)(b[i] * 4.0f));
    }
    /* exp/exp2: 3 + 2|x| ULP (|x| <= 10); log/log2: 3 ULP, absolute
     * 2^-21 in [0.5, 2]. */
    const struct column cols[K] = {
        { "exp", 0, 25 * ulp },           { "exp2", 0, 25 * ulp },       { "log", 1.0 / 2097152, 3 * ulp },
        { "log2", 1.0 / 2097152, 3 * ulp }, { "exp*exp", 0, 30 * ulp }, { "log2 vec2", 1.0 / 2097152, 3 * ulp },
    };
    expect_columns(bo->map, want, N, K, cols);
}

CF_TEST(glsl_pow_sqrt)
{
    enum { N = 100 * 8, K = 4 };
    float *a = cf_calloc(N, 4), *b = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        a[i] = cf_rand_float(0.05f, 20.0f);
        b[i] = cf_rand_float(-3, 3);
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bb = cf_buffer_from(b, N * 4), *bo = cf_buffer(N * K * 4);
    CF_RUN("glsl_pow_sqrt", NULL, 0, N / 100, 1, 1, ba, bb, bo);
    double *want = cf_calloc(N * K, 8);
    for (int i = 0; i < N; i++) {
        double x = a[i], y = b[i];
        want[i * K + 0] = pow(x, y);
        want[i * K + 1] = sqrt(x);
        want[i * K + 2] = 1.0 / sqrt(x);
        want[i * K + 3] = x * x;
    }
    const struct column cols[K] = {
        { "pow", 0, 2e-5 }, { "sqrt", 0, 5 * ulp }, { "inversesqrt", 0, 2 * ulp }, { "pow(x,2)", 0, 2e-5 },
    };
    expect_columns(bo->map, want, N, K, cols);
}

CF_TEST(glsl_rounding)
{
    enum { N = 64 * 10, K = 8 };
    float *a = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        switch (i % 4) {
        case 0: a[i] = cf_rand_float(-100, 100); break;
        case 1: a[i] = (float)cf_rand_range(-50, 50) * 0.5f; break; /* halves and integers */
        case 2: a[i] = cf_rand_float(-1, 1); break;
        default: a[i] = (float)cf_rand_range(-1000000, 1000000) * 0.25f; break;
        }
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * K * 4);
    CF_RUN("glsl_rounding", NULL, 0, N / 64, 1, 1, ba, bo);
    float *want = cf_calloc(N * K, 4);
    for (int i = 0; i < N; i++) {
        float x = a[i];
        float *w = &want[i * K];
        w[0] = floorf(x);
        w[1] = ceilf(x);
        w[2] = truncf(x);
        float s = x - floorf(x) - 0.5f;
        float nudged = x + 0.25f * (float)((s > 0) - (s < 0));
        w[3] = roundf(nudged); /* never a half: either direction is fine */
        w[4] = nearbyintf(x);  /* round to nearest even */
        w[5] = x - floorf(x);
        w[6] = floorf(x) + floorf(-x) * 10.0f + floorf(x * 0.5f) * 100.0f + floorf(x + 0.5f) * 1000.0f;
        w[7] = ceilf(x) + ceilf(-x * 0.25f) * 1000.0f;
    }
    /* round() of an exact half may go either way. */
    const float *got = bo->map;
    for (int i = 0; i < N; i++)
        if (a[i] - floorf(a[i]) == 0.5f && (got[i * K + 3] == floorf(a[i]) || got[i * K + 3] == ceilf(a[i])))
            want[i * K + 3] = got[i * K + 3];
    /* Columns 6 and 7 sum several terms: contraction into fma is allowed. */
    cf_expect_f32(got, want, N * K, 0, 4e-7, "rounding");
}

CF_TEST(glsl_mod_modf)
{
    enum { N = 64 * 10, K = 5 };
    float *a = cf_calloc(N, 4), *b = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        a[i] = cf_rand_float(-100, 100);
        do
            b[i] = cf_rand_float(-10, 10);
        while (fabsf(b[i]) < 0.5f);
        if (i % 10 == 0)
            a[i] = (float)cf_rand_range(-1000, 1000);
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bb = cf_buffer_from(b, N * 4);
    struct cf_buffer *bo = cf_buffer(N * K * 4), *be = cf_buffer(N * 2 * 4);
    CF_RUN("glsl_mod_modf", NULL, 0, N / 64, 1, 1, ba, bb, bo, be);
    double *want = cf_calloc(N * K, 8);
    int32_t *wante = cf_calloc(N * 2, 4);
    for (int i = 0; i < N; i++) {
        float x = a[i], y = b[i];
        double *w = &want[i * K];
        w[0] = (double)x - (double)y * floor((double)x / y);
        float whole;
        w[1] = modff(x, &whole);
        w[2] = whole;
        int ex;
        w[3] = frexpf(x, &ex);
        wante[i * 2] = x == 0.0f ? 0 : ex;
        w[4] = ldexpf(y, i % 20 - 10);
        wante[i * 2 + 1] = 1;
    }
    /* mod: inherited from x - y * floor(x / y); when x / y rounds across an
     * integer the result is off by y, which the spec allows, so compare
     * modulo |y|. */
    float *got = bo->map;
    for (int i = 0; i < N; i++) {
        double d = got[i * K] - want[i * K];
        double y = fabs((double)b[i]);
        double r = fmod(fabs(d), y);
        if (r > 1e-4 * (1 + fabs(a[i])) && y - r > 1e-4 * (1 + fabs(a[i])))
            fail_msg("mod(%.9g, %.9g) = %.9g, want %.9g", a[i], b[i], got[i * K], want[i * K]);
        want[i * K] = got[i * K];
    }
    const struct column cols[K] = {
        { "mod", 0, 0 }, { "modf fraction", 0, 0 }, { "modf whole", 0, 0 }, { "frexp", 0, 0 }, { "ldexp", 0, 0 },
    };
    expect_columns(bo->map, want, N, K, cols);
    cf_expect_i32(be->map, wante, N * 2, "frexp exponent / mod(vec2)");
}

static double clampd(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

static double smoothstepd(double e0, double e1, double x)
{
    double t = clampd((x - e0) / (e1 - e0), 0, 1);
    return t * t * (3 - 2 * t);
}

CF_TEST(glsl_minmax_mix)
{
    enum { N = 64 * 10, K = 10 };
    float *a = cf_calloc(N, 4), *b = cf_calloc(N, 4), *c = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        a[i] = cf_rand_float(-1, 1);
        b[i] = i % 8 == 0 ? a[i] : cf_rand_float(-1, 1);
        c[i] = cf_rand_float(0, 1);
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bb = cf_buffer_from(b, N * 4), *bc = cf_buffer_from(c, N * 4);
    struct cf_buffer *bo = cf_buffer(N * K * 4);
    CF_RUN("glsl_minmax_mix", NULL, 0, N / 64, 1, 1, ba, bb, bc, bo);
    double *want = cf_calloc(N * K, 8);
    for (int i = 0; i < N; i++) {
        double x = a[i], y = b[i], t = c[i];
        double *w = &want[i * K];
        w[0] = x < y ? x : y;
        w[1] = x > y ? x : y;
        w[2] = clampd(x, -0.5, 0.75);
        w[3] = x * (1 - t) + y * t;
        w[4] = t > 0.5 ? y : x;
        w[5] = x < y ? 0.0 : 1.0;
        w[6] = smoothstepd(-0.5, 0.5, x);
        /* clamp with min > max is undefined: only the defined parts. */
        double v0 = y >= -0.25 ? clampd(x, -0.25, y) : NAN;
        double v2 = x >= -0.25 ? clampd(t, -0.25, x) : NAN;
        w[7] = isnan(v0) || isnan(v2) ? NAN : v0 + clampd(y, -0.25, 0.5) + v2;
        w[8] = (x * (1 - t) + y * t) - (x * t + y * (1 - t)) + x * 2 + y * 3;
        w[9] = smoothstepd(0, 2, t * 2);
    }
    float *got = bo->map;
    for (int i = 0; i < N; i++)
        if (isnan(want[i * K + 7]))
            want[i * K + 7] = got[i * K + 7];
    const struct column cols[K] = {
        { "min", 0, 0 },          { "max", 0, 0 },        { "clamp", 0, 0 },      { "mix", 1e-6, 1e-6 },
        { "mix(bool)", 0, 0 },    { "step", 0, 0 },       { "smoothstep", 1e-6, 1e-5 }, { "clamp vec3", 1e-6, 1e-6 },
        { "mix vec4", 1e-5, 1e-5 }, { "smoothstep vec2", 1e-6, 1e-5 },
    };
    expect_columns(bo->map, want, N, K, cols);
}

CF_TEST(glsl_abs_sign_fma)
{
    enum { N = 7 * 50, K = 7 };
    float *a = cf_calloc(N, 4), *b = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        a[i] = i % 11 == 0 ? 0.0f : cf_rand_float(-100, 100);
        b[i] = i % 13 == 0 ? 0.0f : cf_rand_float(-10, 10);
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bb = cf_buffer_from(b, N * 4), *bo = cf_buffer(N * K * 4);
    CF_RUN("glsl_abs_sign_fma", NULL, 0, N / 7, 1, 1, ba, bb, bo);
    double *want = cf_calloc(N * K, 8);
    for (int i = 0; i < N; i++) {
        double x = a[i], y = b[i];
        double *w = &want[i * K];
        w[0] = fabs(x);
        w[1] = (x > 0) - (x < 0);
        w[2] = x * y + 1.5;
        w[3] = y * 180.0 / M_PI;
        w[4] = x * M_PI / 180.0;
        w[5] = ((x > 0) - (x < 0)) + ((y > 0) - (y < 0)) * 2.0;
        w[6] = y * x - x;
    }
    /* fma: either fused or a multiply then an add. */
    const struct column cols[K] = {
        { "abs", 0, 0 },         { "sign", 0, 0 },          { "fma", 1e-5, 2 * ulp }, { "degrees", 0, 3 * ulp },
        { "radians", 0, 3 * ulp }, { "sign vec3", 0, 0 },     { "fma vec2", 1e-5, 2 * ulp },
    };
    expect_columns(bo->map, want, N, K, cols);
}

CF_TEST(glsl_geometric)
{
    enum { N = 64 * 8, K = 12 };
    float *a = cf_calloc(N * 4, 4), *b = cf_calloc(N * 4, 4);
    for (int i = 0; i < N * 4; i++) {
        a[i] = cf_rand_float(-10, 10);
        b[i] = cf_rand_float(-10, 10);
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 16), *bb = cf_buffer_from(b, N * 16), *bo = cf_buffer(N * K * 4);
    CF_RUN("glsl_geometric", NULL, 0, N / 64, 1, 1, ba, bb, bo);
    double *want = cf_calloc(N * K, 8);
    for (int i = 0; i < N; i++) {
        const float *x = &a[i * 4], *y = &b[i * 4];
        double *w = &want[i * K];
        double l3 = sqrt((double)x[0] * x[0] + (double)x[1] * x[1] + (double)x[2] * x[2]);
        w[0] = sqrt((double)x[0] * x[0] + (double)x[1] * x[1] + (double)x[2] * x[2] + (double)x[3] * x[3]);
        w[1] = sqrt((double)x[0] * x[0] + (double)x[1] * x[1]);
        double d[3] = { (double)x[0] - y[0], (double)x[1] - y[1], (double)x[2] - y[2] };
        w[2] = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        w[3] = (double)x[0] * y[0] + (double)x[1] * y[1] + (double)x[2] * y[2] + (double)x[3] * y[3];
        w[4] = (double)x[0] * y[2] + (double)x[1] * y[1] + (double)x[2] * y[0];
        w[5] = x[0] / l3;
        w[6] = x[1] / l3;
        w[7] = x[2] / l3;
        w[8] = (double)x[1] * y[2] - (double)x[2] * y[1];
        w[9] = (double)x[2] * y[0] - (double)x[0] * y[2];
        w[10] = (double)x[0] * y[1] - (double)x[1] * y[0];
        w[11] = fabs(x[0]);
    }
    /* Inherited precision; dot and cross cancel, so absolute tolerances
     * scale with the inputs' magnitude (100). */
    const struct column cols[K] = {
        { "length vec4", 1e-5, 1e-5 }, { "length vec2", 1e-5, 1e-5 }, { "distance", 1e-5, 1e-5 },
        { "dot vec4", 1e-4, 1e-5 },    { "dot vec3", 1e-4, 1e-5 },    { "normalize.x", 1e-5, 1e-5 },
        { "normalize.y", 1e-5, 1e-5 }, { "normalize.z", 1e-5, 1e-5 }, { "cross.x", 1e-4, 1e-5 },
        { "cross.y", 1e-4, 1e-5 },     { "cross.z", 1e-4, 1e-5 },     { "length float", 0, 0 },
    };
    expect_columns(bo->map, want, N, K, cols);
}

static void normalize3(double v[3])
{
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int k = 0; k < 3; k++)
        v[k] /= l;
}

CF_TEST(glsl_reflect_refract)
{
    enum { N = 16 * 20, K = 12 };
    float *a = cf_calloc(N * 4, 4), *b = cf_calloc(N * 4, 4);
    for (int i = 0; i < N; i++) {
        double n[3] = { cf_rand_float(-1, 1), cf_rand_float(-1, 1), cf_rand_float(-1, 1) + 2.0 };
        normalize3(n);
        for (int k = 0; k < 3; k++) {
            b[i * 4 + k] = (float)n[k];
            a[i * 4 + k] = cf_rand_float(-1, 1);
        }
        a[i * 4 + 3] = (i % 3 == 0) ? 1.5f : cf_rand_float(0.5f, 1.0f); /* 1.5 gives total internal reflection */
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 16), *bb = cf_buffer_from(b, N * 16), *bo = cf_buffer(N * 3 * 16);
    CF_RUN("glsl_reflect_refract", NULL, 0, N / 16, 1, 1, ba, bb, bo);
    double *want = cf_calloc(N * K, 8);
    const float *got = bo->map;
    float *g = cf_calloc(N * K, 4);
    for (int i = 0; i < N; i++) {
        /* The shader normalizes the incident vector in float. */
        float l = sqrtf(a[i * 4] * a[i * 4] + a[i * 4 + 1] * a[i * 4 + 1] + a[i * 4 + 2] * a[i * 4 + 2]);
        double inc[3] = { a[i * 4] / l, a[i * 4 + 1] / l, a[i * 4 + 2] / l };
        double n[3] = { b[i * 4], b[i * 4 + 1], b[i * 4 + 2] };
        double eta = a[i * 4 + 3];
        double d = n[0] * inc[0] + n[1] * inc[1] + n[2] * inc[2];
        double *w = &want[i * K];
        for (int k = 0; k < 3; k++)
            w[k] = inc[k] - 2 * d * n[k];
        double kk = 1 - eta * eta * (1 - d * d);
        for (int k = 0; k < 3; k++)
            w[4 + k] = kk < 0 ? 0 : eta * inc[k] - (eta * d + sqrt(kk)) * n[k];
        w[3] = 0;
        w[7] = 0;
        for (int k = 0; k < 3; k++)
            w[8 + k] = d < 0 ? n[k] : -n[k];
        w[11] = inc[0] - 2 * n[0] * inc[0] * n[0];
        /* Near the critical angle refract's result is ill-conditioned. */
        if (fabs(kk) < 1e-3)
            for (int k = 4; k < 7; k++)
                w[k] = got[i * 12 + k];
        /* Near d == 0, faceforward may pick either side. */
        if (fabs(d) < 1e-4)
            for (int k = 8; k < 11; k++)
                w[k] = got[i * 12 + k];
        for (int k = 0; k < K; k++)
            g[i * K + k] = got[i * 12 + k];
    }
    const struct column cols[K] = {
        { "reflect.x", 1e-5, 1e-5 }, { "reflect.y", 1e-5, 1e-5 }, { "reflect.z", 1e-5, 1e-5 }, { "pad", 0, 0 },
        { "refract.x", 1e-4, 1e-4 }, { "refract.y", 1e-4, 1e-4 }, { "refract.z", 1e-4, 1e-4 }, { "pad", 0, 0 },
        { "faceforward.x", 0, 0 },   { "faceforward.y", 0, 0 },   { "faceforward.z", 0, 0 },   { "reflect float", 1e-5, 1e-5 },
    };
    expect_columns(g, want, N, K, cols);
}

static uint32_t pack_unorm(float v, float scale)
{
    float c = v < 0 ? 0 : v > 1 ? 1 : v;
    return (uint32_t)rintf(c * scale);
}

static uint32_t pack_snorm(float v, float scale, uint32_t mask)
{
    float c = v < -1 ? -1 : v > 1 ? 1 : v;
    return (uint32_t)(int32_t)rintf(c * scale) & mask;
}

CF_TEST(glsl_pack)
{
    enum { N = 64 * 6 };
    float *a = cf_calloc(N * 4, 4);
    uint32_t *b = cf_calloc(N, 4);
    for (int i = 0; i < N * 4; i++)
        a[i] = (i % 7 == 0) ? (float)cf_rand_range(-255, 255) / 255.0f : cf_rand_float(-1.2f, 1.2f);
    for (int i = 0; i < N; i++) {
        b[i] = cf_rand();
        /* Half inputs: no NaN/Inf/denormal in the low half. */
        uint32_t lo = b[i] & 0xffffu, hi = b[i] >> 16;
        if (((lo >> 10) & 0x1f) == 0x1f || ((lo >> 10) & 0x1f) == 0)
            lo ^= 0x4000u;
        if (((hi >> 10) & 0x1f) == 0x1f || ((hi >> 10) & 0x1f) == 0)
            hi ^= 0x4000u;
        b[i] = lo | hi << 16;
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 16), *bb = cf_buffer_from(b, N * 4);
    struct cf_buffer *bo = cf_buffer(N * 5 * 4), *bf = cf_buffer(N * 16 * 4);
    CF_RUN("glsl_pack", NULL, 0, N / 64, 1, 1, ba, bb, bo, bf);
    const uint32_t *o = bo->map;
    const float *f = bf->map;
    for (int i = 0; i < N; i++) {
        const float *v = &a[i * 4];
        /* packHalf2x16: any correctly rounded half is fine; the conversion's
         * rounding mode is not fixed, so allow one unit. */
        for (int k = 0; k < 2; k++) {
            uint32_t h = (o[i * 5] >> (16 * k)) & 0xffffu;
            uint16_t want = cf_f32_to_f16(v[k] * 100.0f);
            if (h != want && h != (uint16_t)(want - 1u) && h != (uint16_t)(want + 1u))
                fail_msg("packHalf2x16 component %d of %d: 0x%04x, want 0x%04x", k, i, h, want);
        }
        uint32_t un4 = 0, sn4 = 0;
        for (int k = 0; k < 4; k++) {
            un4 |= pack_unorm(v[k], 255) << (8 * k);
            sn4 |= pack_snorm(v[k], 127, 0xff) << (8 * k);
        }
        uint32_t un2 = pack_unorm(v[2], 65535) | pack_unorm(v[3], 65535) << 16;
        uint32_t sn2 = pack_snorm(v[0], 32767, 0xffff) | pack_snorm(v[3], 32767, 0xffff) << 16;
        /* Round-to-nearest ties may go either way: accept one unit per byte. */
        const uint32_t got[4] = { o[i * 5 + 1], o[i * 5 + 2], o[i * 5 + 3], o[i * 5 + 4] };
        const uint32_t want[4] = { un4, sn4, un2, sn2 };
        const int width[4] = { 8, 8, 16, 16 };
        const char *names[4] = { "packUnorm4x8", "packSnorm4x8", "packUnorm2x16", "packSnorm2x16" };
        for (int p = 0; p < 4; p++)
            for (int k = 0; k < 32 / width[p]; k++) {
                uint32_t mask = width[p] == 8 ? 0xffu : 0xffffu;
                int gv = (int)((got[p] >> (width[p] * k)) & mask), wv = (int)((want[p] >> (width[p] * k)) & mask);
                int d = gv - wv;
                if (d < -1 || d > 1)
                    fail_msg("%s of element %d component %d: 0x%x, want 0x%x", names[p], i, k, gv, wv);
            }
        uint32_t u = b[i];
        float want_f[16] = {
            cf_f16_to_f32((uint16_t)u), cf_f16_to_f32((uint16_t)(u >> 16)),
            (float)(u & 0xffffu) / 65535.0f, (float)(u >> 16) / 65535.0f,
        };
        for (int k = 0; k < 4; k++) {
            want_f[4 + k] = (float)((u >> (8 * k)) & 0xffu) / 255.0f;
            float s = (float)(int8_t)(u >> (8 * k)) / 127.0f;
            want_f[8 + k] = s < -1 ? -1 : s;
        }
        float s0 = (float)(int16_t)u / 32767.0f, s1 = (float)(int16_t)(u >> 16) / 32767.0f;
        want_f[12] = s0 < -1 ? -1 : s0;
        want_f[13] = s1 < -1 ? -1 : s1;
        want_f[14] = 0;
        want_f[15] = 1;
        cf_expect_f32(&f[i * 16], want_f, 16, 1e-6, 1e-6, "unpack");
    }
}

CF_TEST(glsl_double)
{
    enum { N = 64 * 6, K = 16 };
    double *a = cf_calloc(N, 8), *b = cf_calloc(N, 8);
    for (int i = 0; i < N; i++) {
        a[i] = ((double)(int32_t)cf_rand() / 1e7) + (double)cf_rand() * 1e-17;
        b[i] = ((double)(int32_t)cf_rand() / 1e8);
        if (i % 9 == 0)
            a[i] = (double)cf_rand_range(-40, 40) * 0.5;
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 8), *bb = cf_buffer_from(b, N * 8), *bo = cf_buffer(N * K * 8);
    CF_RUN("glsl_double", NULL, 0, N / 64, 1, 1, ba, bb, bo);
    double *want = cf_calloc(N * K, 8);
    for (int i = 0; i < N; i++) {
        double x = a[i], y = b[i];
        double *w = &want[i * K];
        w[0] = floor(x);
        w[1] = ceil(x);
        w[2] = x - floor(x);
        w[3] = trunc(x);
        w[4] = nearbyint(x);
        w[5] = fabs(x) * ((y > 0) - (y < 0));
        w[6] = x < y ? x : y;
        w[7] = x > y ? x : y;
        w[8] = x < -10 ? -10 : x > 10 ? 10 : x;
        w[9] = x * 0.75 + y * 0.25;
        w[10] = x * y + 1.0;
        w[11] = sqrt(fabs(y));
        w[12] = 1.0 / sqrt(fabs(y) + 1.0);
        double p[3] = { x, y, 1 }, q[3] = { y, 2, x };
        w[13] = sqrt(x * x + y * y + 1) + x * y + y * 2 + x;
        w[14] = p[2] * q[0] - p[0] * q[2];
        w[15] = x / sqrt(x * x + y * y + 1);
        (void)p;
        (void)q;
    }
    cf_expect_f64(bo->map, want, N * K, 1e-12, 1e-13, "double functions");
}

CF_TEST(glsl_half)
{
    enum { N = 64 * 4, K = 10 };
    uint16_t *a = cf_calloc(N, 2), *b = cf_calloc(N, 2);
    for (int i = 0; i < N; i++) {
        a[i] = cf_f32_to_f16(cf_rand_float(-4, 4));
        b[i] = cf_f32_to_f16(cf_rand_float(-6, 6));
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 2), *bb = cf_buffer_from(b, N * 2), *bo = cf_buffer(N * K * 4);
    CF_RUN("glsl_half", NULL, 0, N / 64, 1, 1, ba, bb, bo);
    double *want = cf_calloc(N * K, 8);
    for (int i = 0; i < N; i++) {
        double x = cf_f16_to_f32(a[i]), y = cf_f16_to_f32(b[i]);
        double *w = &want[i * K];
        w[0] = fabs(x);
        w[1] = x < y ? x : y;
        w[2] = x > y ? x : y;
        w[3] = clampd(x, -1, 1);
        w[4] = floor(x);
        w[5] = x - floor(x);
        w[6] = sqrt(fabs(y));
        w[7] = x * 0.75 + y * 0.25;
        w[8] = exp2(x * 0.25);
        w[9] = sin(y * 0.5);
    }
    const double hulp = 1.0 / 1024;
    const struct column cols[K] = {
        { "abs", 0, 0 },          { "min", 0, 0 },           { "max", 0, 0 },           { "clamp", 0, 0 },
        { "floor", 0, 0 },        { "fract", hulp, 0 },      { "sqrt", 0, 3 * hulp },   { "mix", 0.01, 2 * hulp },
        { "exp2", 0, 4 * hulp },  { "sin", 1.0 / 128, 0 },
    };
    expect_columns(bo->map, want, N, K, cols);
}

CF_TEST(glsl_relational)
{
    enum { N = 32 * 10 };
    int32_t *a = cf_calloc(N * 4, 4), *b = cf_calloc(N * 4, 4);
    for (int i = 0; i < N * 4; i++) {
        a[i] = cf_rand_range(-3, 3);
        b[i] = (i % 5 == 0) ? a[i] : cf_rand_range(-3, 3);
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 16), *bb = cf_buffer_from(b, N * 16), *bo = cf_buffer(N * 8);
    CF_RUN("glsl_relational", NULL, 0, N / 32, 1, 1, ba, bb, bo);
    uint32_t *want = cf_calloc(N * 2, 4);
    for (int i = 0; i < N; i++) {
        const int32_t *x = &a[i * 4], *y = &b[i * 4];
        uint32_t r = 0, lt = 0;
        for (int k = 0; k < 4; k++) {
            lt |= (uint32_t)(x[k] < y[k]) << k;
            r |= (uint32_t)(x[k] < y[k]) << k;
            r |= (uint32_t)((uint32_t)x[k] <= (uint32_t)y[k]) << (4 + k);
            r |= (uint32_t)(x[k] > y[k]) << (8 + k);
            r |= (uint32_t)(x[k] >= y[k]) << (12 + k);
            r |= (uint32_t)(x[k] == y[k]) << (16 + k);
            r |= (uint32_t)(x[k] != y[k]) << (20 + k);
        }
        r |= (uint32_t)(lt != 0) << 24;
        r |= (uint32_t)(lt == 15) << 25;
        r |= (~lt & 15u) << 26;
        r |= (uint32_t)(x[0] == y[2] && x[1] != y[3]) << 30;
        r |= (uint32_t)(x[2] != 0 || x[3] != 0) << 31;
        want[i * 2] = r;
        int32_t m[4];
        for (int k = 0; k < 4; k++)
            m[k] = (lt >> k) & 1 ? y[k] : x[k];
        want[i * 2 + 1] = (uint32_t)(m[0] + m[1] * 3 + m[2] * 5 + m[3] * 7);
    }
    cf_expect_u32(bo->map, want, N * 2, "relational");
}

CF_TEST(glsl_nan_inf)
{
    enum { N = 64 * 4 };
    uint32_t *a = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        switch (i % 6) {
        case 0: a[i] = 0x7fc00000u; break;               /* quiet NaN */
        case 1: a[i] = 0x7f800000u | (cf_rand() & 0x7fffffu) | 1u; break; /* NaN with payload */
        case 2: a[i] = (i & 8) ? 0xff800000u : 0x7f800000u; break;  /* infinities */
        case 3: a[i] = 0x7f7fffffu | ((uint32_t)(i & 1) << 31); break; /* largest finite */
        default: a[i] = cf_f32_as_u32(cf_rand_float(-1e6f, 1e6f)); break;
        }
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 4);
    CF_RUN("glsl_nan_inf", NULL, 0, N / 64, 1, 1, ba, bo);
    uint32_t *want = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        float x = cf_u32_as_f32(a[i]);
        want[i] = (uint32_t)(isnan(x) != 0) | (uint32_t)(isinf(x) != 0) << 1 | (uint32_t)(isnan(x) != 0) << 2 |
                  (uint32_t)(isinf(x) != 0) << 4;
    }
    cf_expect_u32(bo->map, want, N, "isnan | isinf << 1 | ...");
}

static int32_t msb_signed(int32_t x)
{
    uint32_t u = x < 0 ? ~(uint32_t)x : (uint32_t)x;
    return u ? 31 - __builtin_clz(u) : -1;
}

CF_TEST(glsl_int_vector)
{
    enum { N = 128 * 4, K = 7 };
    int32_t *a = cf_calloc(N * 4, 4);
    for (int i = 0; i < N * 4; i++) {
        a[i] = (i % 3 == 0) ? cf_rand_range(-200, 200) : (int32_t)(cf_rand() >> (cf_rand() % 32));
        if (i % 7 == 0)
            a[i] = -a[i];
        if (a[i] == INT32_MIN)
            a[i] = 0;
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 16), *bo = cf_buffer(N * K * 16);
    CF_RUN("glsl_int_vector", NULL, 0, N / 128, 1, 1, ba, bo);
    int32_t *want = cf_calloc(N * K * 4, 4);
    static const int swz_wzyx[4] = { 3, 2, 1, 0 }, swz_yxwz[4] = { 1, 0, 3, 2 };
    static const int lo[4] = { -100, -10, 0, 5 }, hi[4] = { 100, 10, 1000, 6 };
    for (int i = 0; i < N; i++) {
        const int32_t *x = &a[i * 4];
        for (int k = 0; k < 4; k++) {
            int32_t v = x[k];
            uint32_t u = (uint32_t)v;
            int32_t *w = &want[i * K * 4 + k];
            w[0] = v < 0 ? -v : v;
            w[4] = (v > 0) - (v < 0);
            int32_t o = x[swz_wzyx[k]];
            w[8] = v < o ? v : o;
            uint32_t uo = (uint32_t)x[swz_yxwz[k]];
            w[12] = (int32_t)(u > uo ? u : uo);
            w[16] = v < lo[k] ? lo[k] : v > hi[k] ? hi[k] : v;
            w[20] = (u ? __builtin_ctz(u) : -1) + (u ? 31 - __builtin_clz(u) : -1) * 100;
            w[24] = __builtin_popcount(u) + msb_signed(v) * 100;
        }
    }
    cf_expect_i32(bo->map, want, N * K * 4, "int vector functions");
}
