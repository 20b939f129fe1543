/* Vectors, matrices, conversions and bit casts, structs and arrays. */
#include "cf.h"

static float *rand_floats(size_t n, float lo, float hi)
{
    float *v = cf_calloc(n, 4);
    for (size_t i = 0; i < n; i++)
        v[i] = cf_rand_float(lo, hi);
    return v;
}

/* Column-major matrices: m[c * rows + r]. */
static void matmul(double *out, const double *a, int a_cols, int a_rows, const double *b, int b_cols)
{
    /* a: a_cols x a_rows, b: b_cols columns of a_cols rows; out: b_cols x a_rows. */
    for (int c = 0; c < b_cols; c++)
        for (int r = 0; r < a_rows; r++) {
            double s = 0;
            for (int k = 0; k < a_cols; k++)
                s += a[k * a_rows + r] * b[c * a_cols + k];
            out[c * a_rows + r] = s;
        }
}

CF_TEST(types_vec2)
{
    enum { N = 64 * 5 };
    float *a = rand_floats(N * 2, -10, 10);
    int32_t *b = cf_calloc(N * 2, 4);
    for (int i = 0; i < N * 2; i++)
        b[i] = cf_rand_range(-1000, 1000);
    struct cf_buffer *ba = cf_buffer_from(a, N * 8), *bb = cf_buffer_from(b, N * 8);
    struct cf_buffer *bo = cf_buffer(N * 4 * 8), *bp = cf_buffer(N * 3 * 8);
    CF_RUN("types_vec2", NULL, 0, N / 64, 1, 1, ba, bb, bo, bp);
    float *want = cf_calloc(N * 8, 4);
    int32_t *wantp = cf_calloc(N * 6, 4);
    for (int i = 0; i < N; i++) {
        float x0 = a[i * 2], x1 = a[i * 2 + 1];
        int32_t y0 = b[i * 2], y1 = b[i * 2 + 1];
        float *w = &want[i * 8];
        w[0] = x0 + x1;
        w[1] = x1 + x0;
        w[2] = x0 * (float)y0 - 2.0f;
        w[3] = x1 * (float)y1 - 2.0f;
        w[4] = x1 / 4.0f;
        w[5] = (float)y0 / 2.0f;
        w[6] = -x0 + x1 * 0.5f;
        w[7] = -x0 + x1 * 0.5f;
        int32_t *p = &wantp[i * 6];
        p[0] = y0 * 3 + y1;
        p[1] = y1 * 3 + y0;
        p[2] = (int32_t)((uint32_t)y0 >> 1);
        p[3] = (int32_t)((uint32_t)y1 >> 1);
        p[4] = y0 / 7 + (y0 % 5 + 5) % 5;
        p[5] = y1 / -3 + (y1 % 9 + 9) % 9;
    }
    cf_expect_f32(bo->map, want, N * 8, 1e-5, 1e-6, "vec2");
    cf_expect_i32(bp->map, wantp, N * 6, "ivec2");
}

CF_TEST_OPT(types_vec3)
{
    enum { G = 5, N = 64 * G };
    float *a = rand_floats(N * 4, -4, 4);
    struct cf_buffer *ba = cf_buffer_from(a, N * 16), *bo = cf_buffer(N * 3 * 16), *bp = cf_buffer(N * 16);
    CF_RUN("types_vec3", NULL, 0, G, 1, 1, ba, bo, bp);
    float *want = cf_calloc(N * 12, 4);
    int32_t *wantp = cf_calloc(N * 4, 4);
    for (int i = 0; i < N; i++) {
        const float *s = &a[i * 4];
        float x[3] = { s[0], s[1], s[2] }, y[3] = { s[3], s[2], s[1] };
        float *w = &want[i * 12];
        float yzxy[3] = { y[2], y[0], y[1] }, xyyz[3] = { x[1], x[1], x[2] };
        for (int k = 0; k < 3; k++) {
            w[k] = x[k] * 2.0f + yzxy[k] - 1.5f * xyyz[k];
            w[4 + k] = x[k] / 4.0f - y[k];
            w[8 + k] = 1.0f - x[2] * y[k];
        }
        w[3] = 0;
        w[7] = x[2];
        w[11] = x[0] * y[0];
        int32_t v[3] = { (int32_t)(x[0] * 10.0f), (int32_t)(x[1] * 10.0f), (int32_t)(x[2] * 10.0f) };
        for (int k = 0; k < 3; k++)
            wantp[i * 4 + k] = v[k] * v[(k + 1) % 3] - 3;
        wantp[i * 4 + 3] = v[0] + v[1] + v[2];
    }
    cf_expect_f32(bo->map, want, N * 12, 1e-5, 1e-6, "vec3");
    cf_expect_i32(bp->map, wantp, N * 4, "ivec3");
}

CF_TEST(types_vec4)
{
    enum { N = 32 * 9 };
    float *a = rand_floats(N * 4, -8, 8);
    uint32_t *b = cf_calloc(N * 4, 4);
    for (int i = 0; i < N * 4; i++)
        b[i] = cf_rand();
    struct cf_buffer *ba = cf_buffer_from(a, N * 16), *bb = cf_buffer_from(b, N * 16);
    struct cf_buffer *bo = cf_buffer(N * 3 * 16), *bp = cf_buffer(N * 2 * 16);
    CF_RUN("types_vec4", NULL, 0, N / 32, 1, 1, ba, bb, bo, bp);
    float *want = cf_calloc(N * 12, 4);
    uint32_t *wantp = cf_calloc(N * 8, 4);
    for (int i = 0; i < N; i++) {
        const float *x = &a[i * 4];
        const uint32_t *u = &b[i * 4];
        float *w = &want[i * 12];
        const float add[4] = { x[0], x[1], 1.0f, 2.0f };
        for (int k = 0; k < 4; k++)
            w[k] = x[k] * x[3 - k] + add[k];
        w[4] = x[2] / 1.0f;
        w[5] = x[0] * 0.5f / 2.0f;
        w[6] = x[1] * 0.5f / 4.0f;
        w[7] = -x[3] / 8.0f;
        w[8] = x[3] - x[0];
        w[9] = x[3] - x[0];
        w[10] = x[3] - x[2];
        w[11] = x[1] - x[2];
        uint32_t *p = &wantp[i * 8];
        for (int k = 0; k < 4; k++)
            p[k] = u[k] * 3u + u[(k + 1) % 4];
        p[4] = u[0] ^ u[2];
        p[5] = u[1] ^ u[3];
        p[6] = u[0] + u[3];
        p[7] = u[0] + u[3];
    }
    cf_expect_f32(bo->map, want, N * 12, 1e-5, 1e-6, "vec4");
    cf_expect_u32(bp->map, wantp, N * 8, "uvec4");
}

CF_TEST(types_swizzle_write)
{
    enum { G = 6, N = 21 * G };
    float *a = rand_floats(N * 4, -5, 5);
    struct cf_buffer *ba = cf_buffer_from(a, N * 16), *bo = cf_buffer(N * 2 * 16);
    float *init = bo->map;
    for (int i = 0; i < N * 8; i++)
        init[i] = (float)i;
    float *want = cf_calloc(N * 8, 4);
    memcpy(want, init, N * 32);
    CF_RUN("types_swizzle_write", NULL, 0, G, 1, 1, ba, bo);
    for (int i = 0; i < N; i++) {
        const float *x = &a[i * 4];
        float v[4] = { x[2], x[1], x[0], x[3] * 2.0f };
        v[0] += 1.0f;
        v[3] += -1.0f;
        float t = v[1];
        v[1] = v[2];
        v[2] = t;
        memcpy(&want[i * 8], v, 16);
        want[i * 8 + 4 + 1] = x[0];
        want[i * 8 + 4 + 3] = x[2];
        want[i * 8 + 4 + 0] += 1.0f;
    }
    cf_expect_f32(bo->map, want, N * 8, 0, 0, "swizzled stores");
}

CF_TEST_OPT(types_vec_dynamic_index)
{
    enum { N = 64 * 4 };
    float *a = rand_floats(N * 4, -5, 5);
    uint32_t *idx = cf_calloc(N, 4), *p0 = cf_calloc(N * 4, 4);
    for (int i = 0; i < N; i++)
        idx[i] = cf_rand() & 15u;
    for (int i = 0; i < N * 4; i++)
        p0[i] = cf_rand() % 1000u;
    struct cf_buffer *ba = cf_buffer_from(a, N * 16), *bi = cf_buffer_from(idx, N * 4);
    struct cf_buffer *bo = cf_buffer(N * 16), *bp = cf_buffer_from(p0, N * 16);
    CF_RUN("types_vec_dynamic_index", NULL, 0, N / 64, 1, 1, ba, bi, bo, bp);
    float *want = cf_calloc(N * 4, 4);
    uint32_t *wantp = cf_calloc(N * 4, 4);
    memcpy(wantp, p0, N * 16);
    for (int i = 0; i < N; i++) {
        uint32_t k = idx[i] & 3u, m = (idx[i] >> 2) & 3u;
        float v[4];
        memcpy(v, &a[i * 4], 16);
        float picked = v[k];
        v[m] = picked * 10.0f;
        int w[3] = { 1, 2, 3 };
        w[k % 3] += (int)k;
        for (int c = 0; c < 3; c++)
            want[i * 4 + c] = v[c] + (float)w[c];
        want[i * 4 + 3] = v[3];
        wantp[i * 4 + m] = p0[i * 4 + k] + 100u;
    }
    cf_expect_f32(bo->map, want, N * 4, 0, 0, "vec4 dynamic components");
    cf_expect_u32(bp->map, wantp, N * 4, "buffer uvec4 dynamic component");
}

CF_TEST(types_mat2)
{
    enum { N = 64 * 4 };
    float *a = rand_floats(N * 4, -2, 2), *b = rand_floats(N * 4, -2, 2);
    struct cf_buffer *ba = cf_buffer_from(a, N * 16), *bb = cf_buffer_from(b, N * 16), *bo = cf_buffer(N * 20 * 4);
    CF_RUN("types_mat2", NULL, 0, N / 64, 1, 1, ba, bb, bo);
    float *want = cf_calloc(N * 20, 4);
    for (int i = 0; i < N; i++) {
        double m[4], n[4], r[4];
        for (int k = 0; k < 4; k++) {
            m[k] = a[i * 4 + k];
            n[k] = b[i * 4 + k];
        }
        float *w = &want[i * 20];
        matmul(r, m, 2, 2, n, 2);
        for (int k = 0; k < 4; k++) {
            w[k] = (float)r[k];
            w[4 + k] = (float)(2 * m[k] - n[k]);
            w[8 + k] = (float)(m[k] * n[k]);
            w[12 + k] = (float)(m[k] + n[k] * 0.5);
        }
        double v[2] = { n[2], n[3] }, mv[2], vm[2];
        matmul(mv, m, 2, 2, v, 1);
        vm[0] = v[0] * m[0] + v[1] * m[1];
        vm[1] = v[0] * m[2] + v[1] * m[3];
        w[16] = (float)mv[0];
        w[17] = (float)mv[1];
        w[18] = (float)vm[0];
        w[19] = (float)vm[1];
    }
    cf_expect_f32(bo->map, want, N * 20, 1e-5, 1e-5, "mat2 results");
}

/* std430 mat3: three columns of vec3 padded to 16 bytes. */
static void load_mat3(double out[9], const float *p)
{
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            out[c * 3 + r] = p[c * 4 + r];
}

CF_TEST_OPT(types_mat3)
{
    enum { N = 100 * 3 };
    float *a = rand_floats(N * 12, -2, 2), *b = rand_floats(N * 12, -2, 2);
    struct cf_buffer *ba = cf_buffer_from(a, N * 48), *bb = cf_buffer_from(b, N * 48);
    struct cf_buffer *bo = cf_buffer(N * 3 * 48), *bv = cf_buffer(N * 2 * 16);
    memset(bo->map, 0x7f, bo->size); /* padding is not written: compare it too */
    CF_RUN("types_mat3", NULL, 0, N / 100, 1, 1, ba, bb, bo, bv);
    float *want = cf_calloc(N * 36, 4);
    float pad;
    memset(&pad, 0x7f, 4);
    float *wantv = cf_calloc(N * 8, 4);
    for (int i = 0; i < N; i++) {
        double m[9], n[9], mn[9], nm[9];
        load_mat3(m, &a[i * 12]);
        load_mat3(n, &b[i * 12]);
        matmul(mn, m, 3, 3, n, 3);
        matmul(nm, n, 3, 3, m, 3);
        float *w = &want[i * 36];
        for (int c = 0; c < 3; c++) {
            for (int r = 0; r < 3; r++) {
                int k = c * 3 + r;
                w[c * 4 + r] = (float)mn[k];
                w[12 + c * 4 + r] = (float)(-m[k] * n[k] + n[k]);
                w[24 + c * 4 + r] = (float)(nm[k] * 0.5);
            }
            w[c * 4 + 3] = w[12 + c * 4 + 3] = w[24 + c * 4 + 3] = pad;
        }
        double x[3] = { 1.0 + (double)(float)n[6], -2.0 + (double)(float)n[7], 0.5 + (double)(float)n[8] };
        for (int k = 0; k < 3; k++)
            x[k] = (float)x[k];
        double mx[3];
        matmul(mx, m, 3, 3, x, 1);
        for (int r = 0; r < 3; r++) {
            wantv[i * 8 + r] = (float)mx[r];
            wantv[i * 8 + 4 + r] = (float)(x[0] * m[r * 3] + x[1] * m[r * 3 + 1] + x[2] * m[r * 3 + 2]);
        }
        wantv[i * 8 + 3] = 1;
        wantv[i * 8 + 7] = 2;
    }
    cf_expect_f32(bo->map, want, N * 36, 1e-5, 1e-5, "mat3 results (with padding)");
    cf_expect_f32(bv->map, wantv, N * 8, 1e-5, 1e-5, "mat3 * vec3, vec3 * mat3");
}

CF_TEST(types_mat4)
{
    enum { G = 4, N = 32 * G };
    float *a = rand_floats(N * 16, -2, 2), *b = rand_floats(N * 4, -2, 2);
    struct cf_buffer *ba = cf_buffer_from(a, N * 64), *bb = cf_buffer_from(b, N * 16);
    struct cf_buffer *bo = cf_buffer(N * 2 * 64), *bv = cf_buffer(N * 3 * 16);
    CF_RUN("types_mat4", NULL, 0, G, 1, 1, ba, bb, bo, bv);
    float *want = cf_calloc(N * 32, 4), *wantv = cf_calloc(N * 12, 4);
    for (int i = 0; i < N; i++) {
        double m[16], n[16], mn[16], x[4], mx[4], nx[4], mnx[4];
        for (int k = 0; k < 16; k++) {
            m[k] = a[i * 16 + k];
            n[k] = a[(i ^ 1) * 16 + k];
        }
        for (int k = 0; k < 4; k++)
            x[k] = b[i * 4 + k];
        matmul(mn, m, 4, 4, n, 4);
        for (int k = 0; k < 16; k++) {
            want[i * 32 + k] = (float)mn[k];
            want[i * 32 + 16 + k] = (float)((m[k] + n[k]) / 4.0 - (k % 5 == 0 ? 1.0 : 0.0));
        }
        matmul(mx, m, 4, 4, x, 1);
        matmul(nx, n, 4, 4, x, 1);
        for (int k = 0; k < 4; k++)
            nx[k] = (float)nx[k];
        matmul(mnx, m, 4, 4, nx, 1);
        for (int c = 0; c < 4; c++) {
            wantv[i * 12 + c] = (float)mx[c];
            wantv[i * 12 + 4 + c] = (float)(x[0] * m[c * 4] + x[1] * m[c * 4 + 1] + x[2] * m[c * 4 + 2] + x[3] * m[c * 4 + 3]);
            wantv[i * 12 + 8 + c] = (float)mnx[c];
        }
    }
    cf_expect_f32(bo->map, want, N * 32, 2e-5, 1e-5, "mat4 results");
    cf_expect_f32(bv->map, wantv, N * 12, 2e-5, 1e-5, "mat4 and vec4");
}

CF_TEST(types_mat_transpose_outer)
{
    enum { N = 32 * 3, K = 50 };
    float *a = rand_floats(N * 16, -3, 3);
    struct cf_buffer *ba = cf_buffer_from(a, N * 64), *bo = cf_buffer(N * K * 4);
    CF_RUN("types_mat_transpose_outer", NULL, 0, N / 32, 1, 1, ba, bo);
    float *want = cf_calloc(N * K, 4);
    for (int i = 0; i < N; i++) {
        const float *m = &a[i * 16]; /* columns x, y, z, w */
        float *w = &want[i * K];
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++)
                w[c * 4 + r] = m[r * 4 + c];
        /* n = mat3x2(x.xy, y.xy, z.xy); transpose: 2 columns of 3. */
        for (int c = 0; c < 2; c++)
            for (int r = 0; r < 3; r++)
                w[16 + c * 3 + r] = m[r * 4 + c];
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 3; r++)
                w[22 + c * 3 + r] = m[r] * m[4 + c];
        w[34] = m[8] * m[12 + 2];
        w[35] = m[9] * m[12 + 2];
        w[36] = m[8] * m[12 + 3];
        w[37] = m[9] * m[12 + 3];
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++)
                w[38 + c * 3 + r] = m[r * 4 + c];
    }
    cf_expect_f32(bo->map, want, N * K, 0, 0, "transpose/outerProduct");
}

static double det(const double *m, int n)
{
    /* Laplace expansion along the first column (m column-major). */
    if (n == 1)
        return m[0];
    double sum = 0, sub[9];
    for (int r = 0; r < n; r++) {
        int k = 0;
        for (int c = 1; c < n; c++)
            for (int rr = 0; rr < n; rr++)
                if (rr != r)
                    sub[k++] = m[c * n + rr];
        sum += ((r % 2) ? -1 : 1) * m[r] * det(sub, n - 1);
    }
    return sum;
}

static void inverse(double *out, const double *m, int n)
{
    double d = det(m, n), sub[9];
    for (int c = 0; c < n; c++)
        for (int r = 0; r < n; r++) {
            /* out[c][r] = cofactor(r, c) / d: minor removing column r, row c. */
            int k = 0;
            for (int cc = 0; cc < n; cc++)
                for (int rr = 0; rr < n; rr++)
                    if (cc != r && rr != c)
                        sub[k++] = m[cc * n + rr];
            out[c * n + r] = (((r + c) % 2) ? -1 : 1) * det(sub, n - 1) / d;
        }
}

CF_TEST(types_mat_inverse)
{
    enum { N = 64 * 2 };
    float *a = cf_calloc(N * 16, 4);
    for (int i = 0; i < N; i++)
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++)  /* diagonally dominant: well conditioned */
                a[i * 16 + c * 4 + r] = cf_rand_float(-1, 1) + (c == r ? ((i + c) % 2 ? 4.0f : -4.0f) : 0.0f);
    struct cf_buffer *ba = cf_buffer_from(a, N * 64), *bd = cf_buffer(N * 16), *b4 = cf_buffer(N * 64);
    struct cf_buffer *b3 = cf_buffer(N * 48), *b2 = cf_buffer(N * 16);
    CF_RUN("types_mat_inverse", NULL, 0, N / 64, 1, 1, ba, bd, b4, b3, b2);
    float *wd = cf_calloc(N * 4, 4), *w4 = cf_calloc(N * 16, 4), *w3 = cf_calloc(N * 12, 4), *w2 = cf_calloc(N * 4, 4);
    for (int i = 0; i < N; i++) {
        double m4[16], m3[9], m2[4], inv[16];
        for (int k = 0; k < 16; k++)
            m4[k] = a[i * 16 + k];
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++)
                m3[c * 3 + r] = m4[c * 4 + r];
        for (int c = 0; c < 2; c++)
            for (int r = 0; r < 2; r++)
                m2[c * 2 + r] = m4[c * 4 + r];
        wd[i * 4 + 0] = (float)det(m4, 4);
        wd[i * 4 + 1] = (float)det(m3, 3);
        wd[i * 4 + 2] = (float)det(m2, 2);
        inverse(inv, m4, 4);
        for (int k = 0; k < 16; k++)
            w4[i * 16 + k] = (float)inv[k];
        inverse(inv, m3, 3);
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++)
                w3[i * 12 + c * 4 + r] = (float)inv[c * 3 + r];
        inverse(inv, m2, 2);
        for (int k = 0; k < 4; k++)
            w2[i * 4 + k] = (float)inv[k];
    }
    cf_expect_f32(bd->map, wd, N * 4, 1e-3, 1e-5, "determinant (4, 3, 2)");
    cf_expect_f32(b4->map, w4, N * 16, 1e-5, 1e-4, "inverse mat4");
    cf_expect_f32(b3->map, w3, N * 12, 1e-5, 1e-4, "inverse mat3");
    cf_expect_f32(b2->map, w2, N * 4, 1e-5, 1e-4, "inverse mat2");
}

CF_TEST(types_mat_nonsquare)
{
    enum { N = 7 * 8, K = 40 };
    /* std430 strides: mat2x3 32 bytes (2 columns of vec3 padded to 16),
     * mat3x2 24 (3 columns of vec2), mat3x4 48, mat4x2 32. */
    float *a = rand_floats(N * 8, -2, 2), *b = rand_floats(N * 6, -2, 2);
    float *c = rand_floats(N * 12, -2, 2), *d = rand_floats(N * 8, -2, 2);
    struct cf_buffer *ba = cf_buffer_from(a, N * 32), *bb = cf_buffer_from(b, N * 24);
    struct cf_buffer *bc = cf_buffer_from(c, N * 48), *bd = cf_buffer_from(d, N * 32), *bo = cf_buffer(N * K * 4);
    CF_RUN("types_mat_nonsquare", NULL, 0, N / 7, 1, 1, ba, bb, bc, bd, bo);
    float *want = cf_calloc(N * K, 4);
    for (int i = 0; i < N; i++) {
        double A[6], B[6], C[12], D[8], P[9], Q[4], R[4], S[3], T[8], U[16];
        for (int col = 0; col < 2; col++)
            for (int r = 0; r < 3; r++)
                A[col * 3 + r] = a[i * 8 + col * 4 + r];
        for (int k = 0; k < 6; k++)
            B[k] = b[i * 6 + k];
        for (int k = 0; k < 12; k++)
            C[k] = c[i * 12 + k];
        for (int k = 0; k < 8; k++)
            D[k] = d[i * 8 + k];
        matmul(P, A, 2, 3, B, 3); /* mat2x3 (2 cols, 3 rows) * mat3x2 (3 cols, 2 rows) = 3x3 */
        matmul(Q, B, 3, 2, A, 2); /* 2x2 */
        matmul(R, C, 3, 4, A, 1); /* mat3x4 * a[0] */
        for (int col = 0; col < 3; col++) {
            S[col] = 0;
            for (int r = 0; r < 4; r++)
                S[col] += C[4 + r] * C[col * 4 + r];
        }
        for (int col = 0; col < 2; col++) /* transpose(mat4x2): 2 cols of 4 */
            for (int r = 0; r < 4; r++)
                T[col * 4 + r] = D[r * 2 + col];
        matmul(U, T, 2, 4, D, 4);
        float *w = &want[i * K];
        for (int k = 0; k < 9; k++) w[k] = (float)P[k];
        for (int k = 0; k < 4; k++) w[9 + k] = (float)Q[k];
        for (int k = 0; k < 4; k++) w[13 + k] = (float)R[k];
        for (int k = 0; k < 3; k++) w[17 + k] = (float)S[k];
        for (int k = 0; k < 16; k++) w[20 + k] = (float)U[k];
        w[36] = (float)A[5];
        w[37] = (float)B[5];
        w[38] = (float)C[11];
        w[39] = (float)D[7];
    }
    cf_expect_f32(bo->map, want, N * K, 1e-5, 1e-5, "non-square matrices");
}

CF_TEST(types_dmat)
{
    enum { N = 16 * 4, K = 20 };
    double *a = cf_calloc(N * 16, 8);
    for (int i = 0; i < N * 16; i++)
        a[i] = (double)(int32_t)cf_rand() / 1e9 + ((i % 5) == 0 ? 3.0 : 0.0);
    struct cf_buffer *ba = cf_buffer_from(a, N * 128), *bo = cf_buffer(N * K * 8);
    CF_RUN("types_dmat", NULL, 0, N / 16, 1, 1, ba, bo);
    double *want = cf_calloc(N * K, 8);
    for (int i = 0; i < N; i++) {
        const double *m = &a[i * 16];
        double m3[9], t3[9], p[9], v[4], m2[4], inv[4];
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++) {
                m3[c * 3 + r] = m[c * 4 + r];
                t3[r * 3 + c] = m[c * 4 + r];
            }
        matmul(p, m3, 3, 3, t3, 3);
        const double x[4] = { 1, -2, 0.5, 3 };
        matmul(v, m, 4, 4, x, 1);
        for (int c = 0; c < 2; c++)
            for (int r = 0; r < 2; r++)
                m2[c * 2 + r] = m[c * 4 + r];
        inverse(inv, m2, 2);
        double *w = &want[i * K];
        memcpy(w, p, 72);
        memcpy(w + 9, v, 32);
        w[13] = det(m3, 3);
        memcpy(w + 14, inv, 32);
        w[18] = det(m, 4);
        w[19] = m[15] * 2;
    }
    cf_expect_f64(bo->map, want, N * K, 1e-12, 1e-12, "double matrices");
}

CF_TEST(types_mat_construct)
{
    enum { N = 64 * 3, K = 12 };
    float *a = cf_calloc(N * 8, 4);
    for (int i = 0; i < N * 8; i++)
        a[i] = (float)cf_rand_range(-50, 50) * 0.25f;
    struct cf_buffer *ba = cf_buffer_from(a, N * 32), *bo = cf_buffer(N * K * 4);
    CF_RUN("types_mat_construct", NULL, 0, N / 64, 1, 1, ba, bo);
    float *want = cf_calloc(N * K, 4);
    for (int i = 0; i < N; i++) {
        const float *x = &a[i * 8], *y = &a[i * 8 + 4];
        float m[16];
        for (int r = 0; r < 4; r++) {
            m[r] = x[r];
            m[4 + r] = y[r];
            m[8 + r] = x[3 - r];
        }
        m[12] = y[1]; m[13] = y[0]; m[14] = y[3]; m[15] = y[2];
        float m4[16] = { x[0], x[1], 0, 0, x[2], x[3], 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
        float m2[4] = { y[0], y[1], x[2], x[3] };
        uint32_t c = (uint32_t)i % 4u, r = ((uint32_t)i / 4u) % 4u;
        float *w = &want[i * K];
        w[0] = m[c * 4 + r];
        w[1] = m[(c % 3) * 4 + r % 3];
        w[2] = m4[c * 4 + r];
        w[3] = m2[(c % 2) * 2 + r % 2];
        w[4] = (c % 3 == r % 3) ? x[0] : 0.0f;
        w[5] = m[r * 4] + m[r * 4 + 1] * 2.0f + m[r * 4 + 2] * 3.0f + m[r * 4 + 3] * 4.0f;
        float wm[16];
        memcpy(wm, m, 64);
        for (int k = 0; k < 4; k++)
            wm[c * 4 + k] = -1.0f;
        wm[r * 4 + c] = 7.0f;
        w[6] = wm[0] + wm[5] * 10.0f + wm[10] * 100.0f + wm[15] * 1000.0f;
        w[7] = wm[c * 4] + wm[r * 4 + 1];
        w[8] = m[4 + 2];
        w[9] = m[8 + 1];
        w[10] = 1.0f + 0.0f;
        w[11] = 1.0f + m2[3];
    }
    cf_expect_f32(bo->map, want, N * K, 0, 0, "matrix construction and indexing");
}

CF_TEST(types_bitcast)
{
    enum { N = 64 * 4, K = 6 };
    float *a = cf_calloc(N, 4);
    uint32_t *b = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        a[i] = i % 9 == 0 ? -0.0f : cf_rand_float(-1e5f, 1e5f);
        b[i] = cf_rand();
        if ((b[i] & 0x7f800000u) == 0x7f800000u || (b[i] & 0x7f800000u) == 0)
            b[i] ^= 0x40000000u; /* no NaN, infinity or denormal */
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bb = cf_buffer_from(b, N * 4), *bo = cf_buffer(N * K * 4);
    CF_RUN("types_bitcast", NULL, 0, N / 64, 1, 1, ba, bb, bo);
    uint32_t *want = cf_calloc(N * K, 4);
    for (int i = 0; i < N; i++) {
        uint32_t fx = cf_f32_as_u32(a[i]), u = b[i];
        uint32_t *w = &want[i * K];
        w[0] = fx;
        w[1] = fx ^ 0x80000000u;
        w[2] = u;
        w[3] = cf_f32_as_u32(cf_u32_as_f32((u & 0x807fffffu) | 0x3f800000u) * 2.0f);
        w[4] = fx + cf_f32_as_u32(-a[i]);
        w[5] = u ^ (u >> 1) ^ 0x40490fdbu;
    }
    cf_expect_u32(bo->map, want, N * K, "bit casts");
}

CF_TEST(types_bitcast64)
{
    enum { N = 32 * 4, K = 8 };
    double *a = cf_calloc(N, 8);
    uint32_t *b = cf_calloc(N * 2, 4);
    for (int i = 0; i < N; i++) {
        a[i] = ((double)(int32_t)cf_rand() * 1e-3) * (1.0 + (double)cf_rand() * 1e-12);
        b[i * 2] = cf_rand();
        b[i * 2 + 1] = cf_rand();
        if ((b[i * 2 + 1] & 0x7ff00000u) == 0x7ff00000u || (b[i * 2 + 1] & 0x7ff00000u) == 0)
            b[i * 2 + 1] ^= 0x40000000u;
        if (i % 8 == 0) { /* so that int64BitsToDouble(u.y << 20) == x */
            uint64_t bits = (uint64_t)b[i * 2 + 1] << 20 | 0x3ff0000000000000ull;
            memcpy(&a[i], &bits, 8);
        }
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 8), *bb = cf_buffer_from(b, N * 8), *bo = cf_buffer(N * K * 8);
    CF_RUN("types_bitcast64", NULL, 0, N / 32, 1, 1, ba, bb, bo);
    uint64_t *want = cf_calloc(N * K, 8);
    for (int i = 0; i < N; i++) {
        uint64_t xbits, nbits;
        double neg = -a[i];
        memcpy(&xbits, &a[i], 8);
        memcpy(&nbits, &neg, 8);
        uint32_t ux = b[i * 2], uy = b[i * 2 + 1];
        uint64_t packed = (uint64_t)ux | (uint64_t)uy << 32;
        uint64_t *w = &want[i * K];
        w[0] = xbits;
        w[1] = nbits;
        w[2] = packed;
        w[3] = xbits;
        w[4] = packed;
        uint64_t t = packed * 3u;
        w[5] = (t >> 32) | (t << 32);
        uint32_t s = (ux >> 16) | (ux << 16);
        uint32_t bytes = (uy & 0xffu) + ((uy >> 8) & 0xffu) + ((uy >> 16) & 0xffu) + (uy >> 24);
        w[6] = (uint64_t)s | (uint64_t)(bytes & 0xffu) << 40; /* the u8 sum wraps */
        uint64_t ybits = (uint64_t)uy << 20 | 0x3ff0000000000000ull;
        double yd;
        memcpy(&yd, &ybits, 8);
        w[7] = cf_f32_to_f16((float)(ux & 0x7ffu)) | (uint64_t)(yd == a[i]) << 32;
    }
    cf_expect_u64(bo->map, want, N * K, "64-bit bit casts and packing");
}

CF_TEST_OPT(types_struct)
{
    enum { G = 3, N = 128 * G, K = 8 };
    float *a = cf_calloc(N * 4, 4);
    for (int i = 0; i < N * 4; i++)
        a[i] = (float)cf_rand_range(-64, 64) * 0.125f;
    struct cf_buffer *ba = cf_buffer_from(a, N * 16), *bo = cf_buffer(N * K * 4);
    CF_RUN("types_struct", NULL, 0, G, 1, 1, ba, bo);
    float *want = cf_calloc(N * K, 4);
    for (int i = 0; i < N; i++) {
        const float *v = &a[i * 4];
        float p[3] = { v[0], v[1], v[2] }, mass = v[3];
        float q[3];
        const float g[3] = { 0.0f, -9.5f, 1.0f };
        for (int k = 0; k < 3; k++)
            q[k] = p[k] + g[k] * 0.25f * mass;
        int qc[2] = { (int)q[0], (int)q[2] };
        int pc[2] = { (int)(v[0] * 4.0f), (int)(v[1] * 4.0f) };
        (void)pc;
        uint32_t qflags = (uint32_t)i | 0x10u;
        float e1 = mass * (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) + mass * q[1] + 1.0f + mass * mass;
        float *w = &want[i * K];
        w[0] = e1;
        w[1] = e1; /* the copy changed b.pos.x, which energy() does not read */
        w[2] = (float)(qc[0] + qc[1] * 3);
        w[3] = (float)qflags;
        w[4] = 1.0f;
        w[5] = (q[0] == 100.0f) ? 1.0f : 0.0f;
        w[6] = 1.0f;
        w[7] = p[2] + q[2];
    }
    cf_expect_f32(bo->map, want, N * K, 1e-4, 1e-5, "struct results");
}

CF_TEST_OPT(types_private_array)
{
    enum { N = 64 * 8 };
    uint32_t *a = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        a[i] = cf_rand();
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 12);
    CF_RUN("types_private_array", NULL, 0, N / 64, 1, 1, ba, bo);
    uint32_t *want = cf_calloc(N * 3, 4);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t hist[16] = { 0 };
        uint32_t x = a[i];
        for (uint32_t k = 0; k < 8; k++) {
            hist[x & 15u] += k + 1;
            x = x * 1103515245u + 12345u;
            x ^= x >> 7;
        }
        static const uint32_t perm[8] = { 3, 0, 7, 1, 6, 2, 5, 4 };
        uint32_t acc = 0;
        for (uint32_t k = 0; k < 16; k++)
            acc = acc * 31u + hist[(k + i) & 15u];
        want[i * 3] = acc;
        want[i * 3 + 1] = hist[perm[i & 7u]] + hist[perm[(i >> 3) & 7u] + 8u];
        hist[a[i] % 16u] = 99u;
        want[i * 3 + 2] = hist[(a[i] >> 4) % 16u];
    }
    cf_expect_u32(bo->map, want, N * 3, "private array");
}

CF_TEST_OPT(types_nested_structs)
{
    enum { G = 4, N = 64 * G, K = 5 };
    int32_t *a = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        a[i] = cf_rand_range(0, 100000);
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * K * 4);
    CF_RUN("types_nested_structs", NULL, 0, G, 1, 1, ba, bo);
    int32_t *want = cf_calloc(N * K, 4);
    for (int i = 0; i < N; i++) {
        struct { int v[3]; float p[2]; } s[3][4];
        uint32_t tag[3];
        for (int x = 0; x < 3; x++) {
            for (int y = 0; y < 4; y++) {
                for (int z = 0; z < 3; z++)
                    s[x][y].v[z] = a[i] * (x + 1) + y * 10 + z;
                s[x][y].p[0] = (float)x;
                s[x][y].p[1] = (float)y;
            }
            tag[x] = (uint32_t)x * 7u;
        }
        uint32_t j = (uint32_t)a[i] & 0xffu;
        uint32_t x = j % 3u, y = (j / 3u) % 4u, z = (j / 12u) % 3u;
        s[x][y].v[z] += 1000;
        __typeof__(s[0][0]) t = s[(x + 1) % 3][y];
        t.v[z] = -t.v[z];
        s[2][3] = t;
        int32_t *w = &want[i * K];
        w[0] = s[x][y].v[z];
        w[1] = s[2][3].v[0] + s[2][3].v[1] + s[2][3].v[2];
        w[2] = (int)(s[x][y].p[0] * 10.0f + s[x][y].p[1]);
        w[3] = (int)tag[z] + s[0][0].v[0];
        int copy00 = 5;
        w[4] = (y == 0 && z == 0 ? copy00 : s[x][y].v[z]) - s[x][0].v[0];
    }
    cf_expect_i32(bo->map, want, N * K, "nested structs");
}

CF_TEST(types_array_of_arrays)
{
    enum { N = 32 * 6 };
    uint32_t *a = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        a[i] = cf_rand() % 60u;
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 12);
    CF_RUN("types_array_of_arrays", NULL, 0, N / 32, 1, 1, ba, bo);
    int32_t *want = cf_calloc(N * 3, 4);
    for (int i = 0; i < N; i++) {
        int t[3][4][5];
        for (int x = 0; x < 3; x++)
            for (int y = 0; y < 4; y++)
                for (int z = 0; z < 5; z++)
                    t[x][y][z] = x * 100 + y * 10 + z + i;
        uint32_t r = a[i], x = r % 3u, y = (r / 3u) % 4u, z = (r / 12u) % 5u;
        t[x][y][z] = -1;
        int row[5];
        memcpy(row, t[(x + 1) % 3][y], sizeof(row));
        row[z] *= 2;
        memcpy(t[x][(y + 1) % 4], row, sizeof(row));
        int sum = 0;
        for (int k = 0; k < 5; k++)
            sum += t[x][(y + 1) % 4][k];
        want[i * 3] = sum;
        want[i * 3 + 1] = t[x][y][z] + t[2][3][4];
        want[i * 3 + 2] = 345;
    }
    cf_expect_i32(bo->map, want, N * 3, "arrays of arrays");
}

CF_TEST_OPT(types_const_array)
{
    enum { N = 64 * 4, K = 5 };
    uint32_t *a = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        a[i] = cf_rand();
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * K * 4);
    CF_RUN("types_const_array", NULL, 0, N / 64, 1, 1, ba, bo);
    float *want = cf_calloc(N * K, 4);
    static const float colors[4][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 }, { 0.5f, 0.5f, 0.5f } };
    static const struct { uint32_t key; float val[2]; } entries[3] = {
        { 7, { 1.5f, 2.5f } }, { 11, { -1.0f, 0.25f } }, { 13, { 8.0f, -8.0f } },
    };
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i];
        float bits = (float)__builtin_popcount(x & 0xffffu);
        const float *c = colors[x % 4u];
        float *w = &want[i * K];
        w[0] = bits;
        w[1] = c[0] * bits + c[1] * bits * 2.0f + c[2] * bits * 3.0f;
        w[2] = (float)entries[x % 3u].key + entries[x % 3u].val[0] + entries[x % 3u].val[1];
        w[3] = entries[(x >> 2) % 3u].val[x & 1u];
        w[4] = colors[(x >> 3) % 4u][x % 3u];
    }
    cf_expect_f32(bo->map, want, N * K, 0, 0, "constant arrays");
}

CF_TEST(types_small_vectors)
{
    enum { N = 64 * 4 };
    int8_t *a = cf_calloc(N * 4, 1);
    uint16_t *b = cf_calloc(N * 4, 2), *c = cf_calloc(N * 4, 2);
    for (int i = 0; i < N * 4; i++) {
        a[i] = (int8_t)cf_rand();
        b[i] = (uint16_t)cf_rand();
        c[i] = cf_f32_to_f16(cf_rand_float(-8, 8));
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bb = cf_buffer_from(b, N * 8), *bc = cf_buffer_from(c, N * 8);
    struct cf_buffer *o8 = cf_buffer(N * 4), *o16 = cf_buffer(N * 8), *oh = cf_buffer(N * 8), *o64 = cf_buffer(N * 16);
    CF_RUN("types_small_vectors", NULL, 0, N / 64, 1, 1, ba, bb, bc, o8, o16, oh, o64);
    uint8_t *w8 = cf_calloc(N * 4, 1);
    uint16_t *w16 = cf_calloc(N * 4, 2);
    float *wh = cf_calloc(N * 4, 4), *gh = cf_calloc(N * 4, 4);
    uint64_t *w64 = cf_calloc(N * 2, 8);
    static const int yxwz[4] = { 1, 0, 3, 2 };
    static const float hadd[4] = { 1.0f, -2.0f, 0.5f, 0.25f };
    const uint16_t *got_h = oh->map;
    for (int i = 0; i < N; i++) {
        const int8_t *x = &a[i * 4];
        const uint16_t *y = &b[i * 4], *h = &c[i * 4];
        for (int k = 0; k < 4; k++) {
            w8[i * 4 + k] = (uint8_t)(x[k] * 3 + x[3 - k] - (int8_t)y[k]);
            w16[i * 4 + k] = (uint16_t)((uint16_t)(y[yxwz[k]] * 5u + ((uint32_t)(int32_t)x[k] & 0xffu)) ^ (y[k] >> 3));
            wh[i * 4 + k] = cf_f16_to_f32(cf_f32_to_f16(cf_f16_to_f32(cf_f32_to_f16(cf_f16_to_f32(h[k]) * cf_f16_to_f32(h[yxwz[k]]))) + hadd[k]));
            gh[i * 4 + k] = cf_f16_to_f32(got_h[i * 4 + k]);
        }
        for (int k = 0; k < 2; k++) {
            uint64_t w = (uint64_t)y[k] << 33 | (uint64_t)(uint32_t)(int32_t)x[k];
            w64[i * 2 + k] = w * 0x100000001ull + y[2 + k];
        }
    }
    cf_expect_u8(o8->map, w8, N * 4, "i8vec4");
    cf_expect_u16(o16->map, w16, N * 4, "u16vec4");
    /* A fused multiply-add rounds once: allow one half ulp (of 64). */
    cf_expect_f32(gh, wh, N * 4, 1.0 / 16, 1.0 / 1024, "f16vec4");
    cf_expect_u64(o64->map, w64, N * 2, "u64vec2");
}

CF_TEST(types_bool)
{
    enum { N = 100 * 5 };
    uint32_t *a = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        a[i] = (i % 2) ? cf_rand() % 2000u : cf_rand();
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 4);
    CF_RUN("types_bool", NULL, 0, N / 100, 1, 1, ba, bo);
    uint32_t *want = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i];
        unsigned p = x & 1u, q = x > 1000u, r = x % 3u == 0;
        uint32_t res = (p && q) | (p || q) << 1 | (p ^ r) << 2 | (!p) << 3 | (p == r) << 4 | (p != q) << 5;
        res |= (p || q || r) << 6 | (p && q && r) << 7;
        res |= (x & 15u) << 8;
        res |= (p + q * 2 + r * 4) << 12;
        res |= (q + r * 2) << 15;
        res |= (r ? !q : q) << 17;
        res |= ((x & 4u) != 0) << 18;
        want[i] = res;
    }
    cf_expect_u32(bo->map, want, N, "booleans");
}

CF_TEST(types_bool_buffer)
{
    enum { N = 32 * 4 };
    /* Flags: f@0, v@16..28, arr@28..44 (stride 4), size 48. */
    uint32_t *in = cf_calloc(N * 12, 4);
    for (int i = 0; i < N; i++) {
        uint32_t *f = &in[i * 12];
        f[0] = (cf_rand() & 1) ? cf_rand() | 1u : 0; /* any nonzero value is true */
        for (int k = 0; k < 3; k++)
            f[4 + k] = (cf_rand() & 1) ? 1u << (cf_rand() % 32) : 0;
        for (int k = 0; k < 4; k++)
            f[7 + k] = (cf_rand() & 1) ? 1 : 0;
        f[1] = f[2] = f[3] = f[11] = 0xcdcdcdcdu; /* padding */
    }
    struct cf_buffer *bi = cf_buffer_from(in, N * 48), *bo = cf_buffer(N * 48), *bb = cf_buffer(N * 4);
    memset(bo->map, 0xee, bo->size);
    CF_RUN("types_bool_buffer", NULL, 0, N / 32, 1, 1, bi, bo, bb);
    uint32_t *want = cf_calloc(N * 12, 4), *wantb = cf_calloc(N, 4);
    uint32_t *got = bo->map;
    for (int i = 0; i < N; i++) {
        const uint32_t *f = &in[i * 12];
        bool a_f = f[0] != 0, v[3] = { f[4] != 0, f[5] != 0, f[6] != 0 }, arr[4];
        for (int k = 0; k < 4; k++)
            arr[k] = f[7 + k] != 0;
        wantb[i] = (uint32_t)a_f | (uint32_t)v[0] << 1 | (uint32_t)v[1] << 2 | (uint32_t)v[2] << 3;
        for (int k = 0; k < 4; k++)
            wantb[i] |= (uint32_t)arr[k] << (4 + k);
        uint32_t *w = &want[i * 12];
        w[0] = !a_f;
        w[4] = !v[2];
        w[5] = !v[0];
        w[6] = !v[1];
        for (int k = 0; k < 4; k++)
            w[7 + k] = arr[3 - k] != a_f;
        w[7 + i % 4] = 1;
        /* Padding of the whole-struct store: anything. */
        w[1] = got[i * 12 + 1];
        w[2] = got[i * 12 + 2];
        w[3] = got[i * 12 + 3];
        w[11] = got[i * 12 + 11];
    }
    cf_expect_u32(bb->map, wantb, N, "booleans read from a buffer");
    cf_expect_u32(got, want, N * 12, "booleans written to a buffer (1 or 0)");
}
