/* Block layouts (std140, std430, scalar, row_major, explicit offsets, 8/16
 * bit members), runtime array lengths and push constants.  Host data is
 * written at byte offsets computed by hand from the layout rules. */
#include "cf.h"

static void put_f32(void *base, size_t offset, float v)
{
    memcpy((uint8_t *)base + offset, &v, 4);
}

static void put_u32(void *base, size_t offset, uint32_t v)
{
    memcpy((uint8_t *)base + offset, &v, 4);
}

static float get_f32(const void *base, size_t offset)
{
    float v;
    memcpy(&v, (const uint8_t *)base + offset, 4);
    return v;
}

static float qrand(void)
{
    /* Multiples of 1/8: sums of a few stay exact. */
    return (float)cf_rand_range(-400, 400) * 0.125f;
}

CF_TEST(layout_std430_vec3)
{
    enum { N = 64 * 4, STRIDE = 48 };
    uint8_t *in = cf_calloc(16 + N * STRIDE, 1);
    float head = 0.5f;
    put_f32(in, 0, head);
    for (int i = 0; i < N; i++)
        for (int k = 0; k < 12; k++)
            put_f32(in, 16 + (size_t)i * STRIDE + (size_t)k * 4, qrand());
    struct cf_buffer *bi = cf_buffer_from(in, 16 + N * STRIDE), *bo = cf_buffer(N * STRIDE);
    memset(bo->map, 0xcd, bo->size);
    uint8_t *want = cf_calloc(N * STRIDE, 1);
    memset(want, 0xcd, N * STRIDE);
    CF_RUN("layout_std430_vec3", NULL, 0, N / 64, 1, 1, bi, bo);
    for (int i = 0; i < N; i++) {
        const uint8_t *s = in + 16 + i * STRIDE;
        uint8_t *w = want + i * STRIDE;
        for (int k = 0; k < 3; k++) {
            put_f32(w, k * 4, get_f32(s, 32 + k * 4) * 2.0f);
            put_f32(w, 32 + k * 4, get_f32(s, k * 4) + head);
        }
        put_f32(w, 12, get_f32(s, 12) + 1.0f);
        put_f32(w, 16, get_f32(s, 20));
        put_f32(w, 20, get_f32(s, 16));
    }
    /* Byte comparison: padding (24..32, 44..48) must keep 0xcd. */
    cf_expect_u8(bo->map, want, N * STRIDE, "std430 struct bytes");
}

CF_TEST_OPT(layout_std140_ubo)
{
    enum { G = 3, FIELDS = 40 };
    uint8_t *u = cf_calloc(320, 1);
    float want_f[FIELDS];
    int k = 0;
    for (int j = 0; j < 4; j++) { want_f[k] = qrand(); put_f32(u, j * 16, want_f[k++]); }
    for (int j = 0; j < 3; j++) { want_f[k] = qrand(); put_f32(u, 64 + j * 4, want_f[k++]); }
    want_f[k] = qrand(); put_f32(u, 76, want_f[k++]);
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) { want_f[k] = qrand(); put_f32(u, 80 + c * 16 + r * 4, want_f[k++]); }
    for (int j = 0; j < 3; j++)
        for (int c = 0; c < 2; c++) { want_f[k] = qrand(); put_f32(u, 128 + j * 16 + c * 4, want_f[k++]); }
    for (int s = 0; s < 2; s++) {
        int32_t iv = cf_rand_range(-1000, 1000);
        memcpy(u + 176 + s * 32, &iv, 4);
        want_f[k++] = (float)iv;
        for (int c = 0; c < 3; c++) { want_f[k] = qrand(); put_f32(u, 176 + s * 32 + 16 + c * 4, want_f[k++]); }
    }
    for (int c = 0; c < 2; c++)
        for (int r = 0; r < 2; r++) { want_f[k] = qrand(); put_f32(u, 240 + c * 16 + r * 4, want_f[k++]); }
    double d[4] = { 1.0 / 3.0, -2.5e100, 7.25, -1.0 / 7.0 };
    memcpy(u + 272, &d[0], 8);
    memcpy(u + 288, &d[1], 24);
    uint32_t tail = 0xabcdu;
    put_u32(u, 312, tail);
    for (; k < FIELDS; k++)
        want_f[k] = (float)tail;
    /* Fill the padding with garbage: it must not be read. */
    for (int p = 316; p < 320; p++)
        u[p] = 0xee;
    struct cf_buffer *bu = cf_buffer_from(u, 320), *bo = cf_buffer(G * FIELDS * 4), *bd = cf_buffer(G * 4 * 8);
    struct cf_binding bindings[3] = {
        { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1 },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
        { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
    };
    struct cf_pipeline_info info = { .shader = "layout_std140_ubo", .sets = { { 3, bindings } } };
    struct cf_pipeline *p = cf_pipeline_create(&info);
    cf_bind(p, 0, 0, 0, bu, 0, 0);
    cf_bind(p, 0, 1, 0, bo, 0, 0);
    cf_bind(p, 0, 2, 0, bd, 0, 0);
    cf_dispatch(p, NULL, G, 1, 1);
    uint32_t *want = cf_calloc(G * FIELDS, 4);
    uint64_t *wantd = cf_calloc(G * 4, 8);
    for (int g = 0; g < G; g++) {
        for (int j = 0; j < FIELDS; j++)
            want[g * FIELDS + j] = cf_f32_as_u32(want_f[j]);
        memcpy(&wantd[g * 4], d, 32);
    }
    cf_expect_u32(bo->map, want, G * FIELDS, "std140 fields (float bits)");
    cf_expect_u64(bd->map, wantd, G * 4, "std140 double, dvec3");
}

/* struct T { float f[3]; vec2 v[2]; mat2 m; ivec3 iv; int last; } */
struct t_values {
    float f[3], v[4], m[4];
    int32_t iv[3], last;
};

static void put_t(uint8_t *base, const struct t_values *t, int std140)
{
    int fs = std140 ? 16 : 4, vs = std140 ? 16 : 8, ms = std140 ? 16 : 8;
    int vo = std140 ? 48 : 16, mo = std140 ? 80 : 32, io = std140 ? 112 : 48, lo = std140 ? 124 : 60;
    for (int k = 0; k < 3; k++)
        put_f32(base, k * fs, t->f[k]);
    for (int k = 0; k < 2; k++) {
        put_f32(base, vo + k * vs, t->v[k * 2]);
        put_f32(base, vo + k * vs + 4, t->v[k * 2 + 1]);
        put_f32(base, mo + k * ms, t->m[k * 2]);
        put_f32(base, mo + k * ms + 4, t->m[k * 2 + 1]);
    }
    memcpy(base + io, t->iv, 12);
    memcpy(base + lo, &t->last, 4);
}

static float t_sum(const struct t_values *t)
{
    return t->f[0] + t->f[1] * 2.0f + t->f[2] * 3.0f + t->v[0] * 4.0f + t->v[1] * 5.0f + t->v[2] * 6.0f +
           t->v[3] * 7.0f + t->m[0] * 8.0f + t->m[1] * 9.0f + t->m[2] * 10.0f + t->m[3] * 11.0f +
           (float)t->iv[0] * 12.0f + (float)t->iv[1] * 13.0f + (float)t->iv[2] * 14.0f + (float)t->last * 15.0f;
}

static void rand_t(struct t_values *t)
{
    for (int k = 0; k < 3; k++)
        t->f[k] = qrand(), t->iv[k] = cf_rand_range(-100, 100);
    for (int k = 0; k < 4; k++)
        t->v[k] = qrand(), t->m[k] = qrand();
    t->last = cf_rand_range(-100, 100);
}

CF_TEST(layout_std140_std430)
{
    enum { N = 32 * 4 };
    struct t_values a[4], *b = cf_calloc(N, sizeof(struct t_values));
    uint8_t *ubo = cf_calloc(4 * 128, 1), *ssbo = cf_calloc(N * 64, 1);
    memset(ubo, 0x55, 4 * 128); /* padding garbage */
    for (int k = 0; k < 4; k++) {
        rand_t(&a[k]);
        put_t(ubo + k * 128, &a[k], 1);
    }
    for (int i = 0; i < N; i++) {
        rand_t(&b[i]);
        put_t(ssbo + i * 64, &b[i], 0);
    }
    struct cf_buffer *bu = cf_buffer_from(ubo, 4 * 128), *bs = cf_buffer_from(ssbo, N * 64);
    struct cf_buffer *bo = cf_buffer(N * 12), *bw = cf_buffer(N * 64);
    struct cf_binding bindings[4] = {
        { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1 },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
        { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
        { 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
    };
    struct cf_pipeline_info info = { .shader = "layout_std140_std430", .sets = { { 4, bindings } } };
    struct cf_pipeline *p = cf_pipeline_create(&info);
    cf_bind(p, 0, 0, 0, bu, 0, 0);
    cf_bind(p, 0, 1, 0, bs, 0, 0);
    cf_bind(p, 0, 2, 0, bo, 0, 0);
    cf_bind(p, 0, 3, 0, bw, 0, 0);
    cf_dispatch(p, NULL, N / 32, 1, 1);
    float *want = cf_calloc(N * 3, 4);
    uint8_t *wantw = cf_calloc(N * 64, 1);
    for (int i = 0; i < N; i++) {
        const struct t_values *ta = &a[i % 4], *tb = &b[i];
        want[i * 3] = t_sum(ta);
        want[i * 3 + 1] = t_sum(tb);
        want[i * 3 + 2] = ta->f[i % 3] + tb->v[(i % 2) * 2 + 1] + ta->m[(i % 2) * 2 + (i / 2) % 2];
        put_t(wantw + i * 64, ta, 0);
    }
    /* Sums of multiples of 1/8 below 2^21: exact in any order. */
    cf_expect_f32(bo->map, want, N * 3, 0, 0, "sums of std140 / std430 members");
    /* Bytes 12..16 of the std430 struct are padding the copy need not write. */
    uint8_t *gotw = bw->map;
    for (int i = 0; i < N; i++)
        memset(gotw + i * 64 + 12, 0, 4), memset(wantw + i * 64 + 12, 0, 4);
    cf_expect_u8(gotw, wantw, N * 64, "std140 -> std430 struct copy");
}

CF_TEST_OPT(layout_scalar)
{
    enum { N = 100 * 3 };
    float *v = cf_calloc(N * 3, 4), *p = cf_calloc(N * 6, 4);
    for (int i = 0; i < N * 3; i++)
        v[i] = qrand();
    for (int i = 0; i < N * 6; i++)
        p[i] = qrand();
    float u[25];
    for (int k = 0; k < 25; k++)
        u[k] = qrand();
    struct cf_buffer *bv = cf_buffer_from(v, N * 12), *bp = cf_buffer_from(p, N * 24), *bu = cf_buffer_from(u, 100);
    struct cf_buffer *bo = cf_buffer(N * 12 + 16), *br = cf_buffer(N * 24);
    memset(bo->map, 0xcd, bo->size);
    struct cf_binding bindings[5] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 }, { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
        { 2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1 }, { 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
        { 4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
    };
    struct cf_pipeline_info info = { .shader = "layout_scalar", .sets = { { 5, bindings } } };
    struct cf_pipeline *pl = cf_pipeline_create(&info);
    cf_bind(pl, 0, 0, 0, bv, 0, 0);
    cf_bind(pl, 0, 1, 0, bp, 0, 0);
    cf_bind(pl, 0, 2, 0, bu, 0, 0);
    cf_bind(pl, 0, 3, 0, bo, 0, 0);
    cf_bind(pl, 0, 4, 0, br, 0, 0);
    cf_dispatch(pl, NULL, N / 100, 1, 1);
    float *want = cf_calloc(N * 3 + 4, 4), *wantr = cf_calloc(N * 6, 4);
    memset(want + N * 3, 0xcd, 16);
    /* u: ua@0 (3), ub@12, uarr@16 stride 12 (4 x 3), um@64 (3 columns of 3). */
    for (int i = 0; i < N; i++) {
        const float *x = &v[i * 3], *q = &p[i * 6];
        const float *arr = &u[4 + (i % 4) * 3], *m = &u[16];
        for (int r = 0; r < 3; r++) {
            float mx = m[r] * x[0] + m[3 + r] * x[1] + m[6 + r] * x[2];
            want[i * 3 + r] = x[r] * 2.0f + q[1 + r] + arr[r] + mx;
        }
        wantr[i * 6] = q[0] + u[3];
        wantr[i * 6 + 1] = q[3] + u[0];
        wantr[i * 6 + 2] = q[1] + u[1];
        wantr[i * 6 + 3] = q[2] + u[2];
        wantr[i * 6 + 4] = q[4] * q[0];
        wantr[i * 6 + 5] = q[5] * q[0];
    }
    /* mx sums products of multiples of 1/8 (exact below 2^24 / 64). */
    cf_expect_f32(bo->map, want, N * 3 + 4, 0, 0, "scalar vec3 stores (and the guard after them)");
    cf_expect_f32(br->map, wantr, N * 6, 0, 0, "scalar struct stores");
}

CF_TEST(layout_row_major)
{
    enum { N = 16 * 4 };
    float *a = cf_calloc(N * 16, 4), *b = cf_calloc(N * 6, 4), ubo[28];
    for (int i = 0; i < N * 16; i++)
        a[i] = qrand();
    for (int i = 0; i < N * 6; i++)
        b[i] = qrand();
    memset(ubo, 0, sizeof(ubo));
    /* m3: 3 rows at 16-byte stride; m24 (2 columns, 4 rows): 4 rows of vec2 at 16-byte stride from 48. */
    float m3[3][3], m24[2][4]; /* [column][row] */
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            ubo[r * 4 + c] = m3[c][r] = qrand();
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 2; c++)
            ubo[12 + r * 4 + c] = m24[c][r] = qrand();
    struct cf_buffer *ba = cf_buffer_from(a, N * 64), *bb = cf_buffer_from(b, N * 24), *bu = cf_buffer_from(ubo, 112);
    struct cf_buffer *bo = cf_buffer(N * 64), *bv = cf_buffer(N * 64);
    struct cf_binding bindings[5] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 }, { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
        { 2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1 }, { 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
        { 4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
    };
    struct cf_pipeline_info info = { .shader = "layout_row_major", .sets = { { 5, bindings } } };
    struct cf_pipeline *p = cf_pipeline_create(&info);
    cf_bind(p, 0, 0, 0, ba, 0, 0);
    cf_bind(p, 0, 1, 0, bb, 0, 0);
    cf_bind(p, 0, 2, 0, bu, 0, 0);
    cf_bind(p, 0, 3, 0, bo, 0, 0);
    cf_bind(p, 0, 4, 0, bv, 0, 0);
    cf_dispatch(p, NULL, N / 16, 1, 1);
    float *want = cf_calloc(N * 16, 4), *wantv = cf_calloc(N * 16, 4);
    const float x[4] = { 1.0f, 2.0f, -1.0f, 0.5f };
    for (int i = 0; i < N; i++) {
        /* Row-major storage: element (column c, row r) at a[r * 4 + c]. */
        const float *m = &a[i * 16];
        for (int k = 0; k < 16; k++)
            want[i * 16 + k] = m[k] * 2.0f;
        want[i * 16 + 2 * 4 + 1] = -100.0f; /* o[i][1][2]: row 2, column 1 */
        float *w = &wantv[i * 16];
        for (int r = 0; r < 4; r++)
            w[r] = m[r * 4] * x[0] + m[r * 4 + 1] * x[1] + m[r * 4 + 2] * x[2] + m[r * 4 + 3] * x[3];
        /* b: mat2x3 (2 columns, 3 rows), rows of vec2 at 8-byte stride. */
        const float *bm = &b[i * 6];
        for (int r = 0; r < 3; r++)
            w[4 + r] = bm[r * 2] * x[0] + bm[r * 2 + 1] * x[1];
        w[7] = bm[2 * 2 + 1]; /* b[i][1][2]: column 1, row 2 */
        for (int r = 0; r < 3; r++)
            w[8 + r] = m3[0][r] * x[0] + m3[1][r] * x[1] + m3[2][r] * x[2];
        w[11] = m3[2][0];
        for (int r = 0; r < 4; r++)
            w[12 + r] = m24[0][r] * x[2] + m24[1][r] * x[3] + m[0 * 4 + 3];
    }
    cf_expect_f32(bo->map, want, N * 16, 0, 0, "row_major mat4 stores");
    cf_expect_f32(bv->map, wantv, N * 16, 0, 0, "row_major loads");
}

CF_TEST(layout_explicit_offset)
{
    enum { N = 32 * 3 };
    uint32_t in[24];
    for (int k = 0; k < 24; k++)
        in[k] = cf_rand();
    float c0 = 1.5f, c1 = -2.25f, d0 = 3.0f, d3 = -0.125f;
    memcpy(&in[8], &c0, 4);
    memcpy(&in[9], &c1, 4);
    memcpy(&in[12], &d0, 4);
    memcpy(&in[15], &d3, 4);
    struct cf_buffer *bi = cf_buffer_from(in, sizeof(in)), *bo = cf_buffer(N * 4);
    CF_RUN("layout_explicit_offset", NULL, 0, N / 32, 1, 1, bi, bo);
    uint32_t *want = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        uint32_t vals[12] = { in[0], in[3], in[8], in[9], in[12], in[15], in[16], in[20], in[21], in[22], in[23],
                              in[20 + i % 4] };
        want[i] = vals[i % 12];
    }
    cf_expect_u32(bo->map, want, N, "members at explicit offsets");
}

CF_TEST(layout_small_types)
{
    enum { N = 64 * 4, STRIDE = 20 };
    uint8_t *in = cf_calloc(N * STRIDE, 1);
    for (int i = 0; i < N * STRIDE; i++)
        in[i] = (uint8_t)cf_rand();
    for (int i = 0; i < N; i++) {
        uint16_t h = cf_f32_to_f16(qrand());
        memcpy(in + i * STRIDE + 6, &h, 2);
    }
    struct cf_buffer *bi = cf_buffer_from(in, N * STRIDE), *bo = cf_buffer(N * 32), *bw = cf_buffer(N * STRIDE);
    memset(bw->map, 0xcd, bw->size);
    CF_RUN("layout_small_types", NULL, 0, N / 64, 1, 1, bi, bo, bw);
    uint32_t *want = cf_calloc(N * 8, 4);
    uint8_t *wantw = cf_calloc(N * STRIDE, 1);
    memset(wantw, 0xcd, N * STRIDE);
    for (int i = 0; i < N; i++) {
        const uint8_t *s = in + i * STRIDE;
        uint8_t a = s[0];
        uint16_t b, d;
        int16_t g;
        int8_t c = (int8_t)s[4];
        uint32_t e;
        memcpy(&b, s + 2, 2);
        memcpy(&d, s + 6, 2);
        memcpy(&e, s + 8, 4);
        memcpy(&g, s + 16, 2);
        uint32_t *w = &want[i * 8];
        w[0] = a;
        w[1] = b;
        w[2] = (uint32_t)(int32_t)c;
        w[3] = cf_f32_as_u32(cf_f16_to_f32(d));
        w[4] = e;
        w[5] = (uint32_t)s[12] | (uint32_t)s[13] << 8 | (uint32_t)s[14] << 16;
        w[6] = (uint32_t)(int32_t)g;
        w[7] = 0;
        uint8_t *y = wantw + i * STRIDE;
        y[0] = (uint8_t)(a + 1);
        uint16_t nb = b ^ 0xffffu, nd = cf_f32_to_f16(cf_f16_to_f32(d) * 2.0f);
        memcpy(y + 2, &nb, 2);
        y[4] = (uint8_t)(int8_t)-c;
        memcpy(y + 6, &nd, 2);
        uint32_t ne = e + 1;
        memcpy(y + 8, &ne, 4);
        y[12] = s[14];
        y[13] = s[13];
        y[14] = s[12];
        int16_t ng = (int16_t)(g >> 1);
        memcpy(y + 16, &ng, 2);
    }
    cf_expect_u32(bo->map, want, N * 8, "8/16-bit member loads");
    /* Padding bytes (1, 5, 15, 18, 19) of the whole-struct store may be
     * written with anything: compare the members only. */
    uint8_t *gotw = bw->map;
    for (int i = 0; i < N; i++) {
        static const int pads[] = { 1, 5, 15, 18, 19 };
        for (int k = 0; k < 5; k++)
            gotw[i * STRIDE + pads[k]] = wantw[i * STRIDE + pads[k]] = 0;
    }
    cf_expect_u8(gotw, wantw, N * STRIDE, "8/16-bit member stores");
}

CF_TEST(layout_byte_stores)
{
    enum { G = 23, N = 35 * G };
    struct cf_buffer *b8 = cf_buffer(N + 64), *b16 = cf_buffer(N * 2 + 64), *v8 = cf_buffer(N * 2 + 64);
    memset(b8->map, 0xcd, b8->size);
    memset(b16->map, 0xcd, b16->size);
    uint8_t *pairs = v8->map;
    for (size_t k = 0; k < v8->size; k++)
        pairs[k] = (uint8_t)(k * 13u);
    uint8_t *want8 = cf_calloc(N + 64, 1), *want16 = cf_calloc(N * 2 + 64, 1), *wantv = cf_calloc(N * 2 + 64, 1);
    memset(want8, 0xcd, N + 64);
    memset(want16, 0xcd, N * 2 + 64);
    memcpy(wantv, pairs, N * 2 + 64);
    CF_RUN("layout_byte_stores", NULL, 0, G, 1, 1, b8, b16, v8);
    for (uint32_t i = 0; i < N; i++) {
        want8[i] = (uint8_t)(i * 7u + 3u);
        uint16_t h = (uint16_t)(i * 1001u);
        memcpy(want16 + i * 2, &h, 2);
        wantv[i * 2 + 1] = (uint8_t)i;
    }
    cf_expect_u8(b8->map, want8, N + 64, "uint8_t stores");
    cf_expect_u8(b16->map, want16, N * 2 + 64, "uint16_t stores");
    cf_expect_u8(v8->map, wantv, N * 2 + 64, "u8vec2.y stores");
}

CF_TEST(layout_runtime_length)
{
    struct cf_buffer *b = cf_buffer(4096), *bo = cf_buffer(64);
    uint32_t *words = b->map;
    for (int k = 0; k < 1024; k++)
        words[k] = (uint32_t)k;
    struct cf_pipeline *p = cf_pipeline("layout_runtime_length", 5, 0, NULL);
    struct { VkDeviceSize offset, range; int32_t lengths[4]; } cases[] = {
        { 0, 4096, { (4096 - 16) / 16, 4096 / 32, (4096 - 4) / 12, 1024 } },
        { 16, 16 + 16 * 7, { 7, 4, (128 - 4) / 12, 32 } },
        { 256, 100, { (100 - 16) / 16, 100 / 32, (100 - 4) / 12, 25 } },
        { 1024, 20, { 0, 0, 1, 5 } },
        { 64, VK_WHOLE_SIZE, { (4032 - 16) / 16, 4032 / 32, (4032 - 4) / 12, 1008 } },
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        for (uint32_t binding = 0; binding < 4; binding++)
            cf_bind(p, 0, binding, 0, b, cases[c].offset, cases[c].range);
        cf_bind(p, 0, 4, 0, bo, 0, 0);
        cf_dispatch(p, NULL, 1, 1, 1);
        int32_t want[5];
        memcpy(want, cases[c].lengths, 16);
        want[4] = (int32_t)(cases[c].offset / 4) + cases[c].lengths[3] - 1;
        char what[64];
        snprintf(what, sizeof(what), "lengths for offset %llu", (unsigned long long)cases[c].offset);
        cf_expect_i32(bo->map, want, 5, what);
    }
}

CF_TEST(layout_push_types)
{
    enum { N = 64 * 2 };
    uint8_t push[112];
    memset(push, 0, sizeof(push));
    int32_t i0 = -123456;
    uint32_t u = 0xdeadbeefu, after = 77, uv3[3] = { 9, 10, 11 };
    float f = 3.75f, v2[2] = { -1.5f, 2.5f }, v3[3] = { 0.25f, 0.5f, 0.75f }, v4[4] = { 1, 2, 3, 4 },
          m2[4] = { 5, 6, 7, 8 };
    int32_t iv2[2] = { -7, 7 };
    uint8_t b8 = 200;
    int16_t s16 = -1234;
    double d = -1.0 / 3.0;
    int64_t l = -0x123456789abcll;
    uint16_t h = cf_f32_to_f16(-6.5f);
    memcpy(push + 0, &i0, 4);
    memcpy(push + 4, &u, 4);
    memcpy(push + 8, &f, 4);
    memcpy(push + 12, &b8, 1);
    memcpy(push + 14, &s16, 2);
    memcpy(push + 16, v2, 8);
    memcpy(push + 24, iv2, 8);
    memcpy(push + 32, v3, 12);
    memcpy(push + 44, &after, 4);
    memcpy(push + 48, v4, 16);
    memcpy(push + 64, m2, 16);
    memcpy(push + 80, &d, 8);
    memcpy(push + 88, &l, 8);
    memcpy(push + 96, uv3, 12);
    memcpy(push + 108, &h, 2);
    struct cf_buffer *bo = cf_buffer(N * 4);
    CF_RUN("layout_push_types", push, sizeof(push), N / 64, 1, 1, bo);
    uint32_t dbits[2];
    memcpy(dbits, &d, 8);
    uint32_t vals[24] = {
        (uint32_t)i0, u, cf_f32_as_u32(f), b8, (uint32_t)(int32_t)s16, cf_f32_as_u32(v2[0]), cf_f32_as_u32(v2[1]),
        (uint32_t)iv2[0], (uint32_t)iv2[1], cf_f32_as_u32(v3[0]), cf_f32_as_u32(v3[2]), after,
        cf_f32_as_u32(v4[1]), cf_f32_as_u32(v4[3]), cf_f32_as_u32(m2[1]), cf_f32_as_u32(m2[2]), dbits[0], dbits[1],
        (uint32_t)l, (uint32_t)((uint64_t)l >> 32), uv3[0], uv3[2], cf_f32_as_u32(-6.5f), 0,
    };
    uint32_t *want = cf_calloc(N, 4);
    for (int g = 0; g < N; g++)
        want[g] = g % 24 == 23 ? (uint32_t)(i0 + g) : vals[g % 24];
    cf_expect_u32(bo->map, want, N, "push constant members");
}

CF_TEST_OPT(layout_push_arrays)
{
    enum { G = 5, N = 49 * G };
    uint8_t push[192];
    uint32_t table[16];
    float coef[16];
    uint32_t ranges[8];
    for (int k = 0; k < 16; k++) {
        table[k] = cf_rand() % 1000u;
        coef[k] = qrand();
    }
    for (int k = 0; k < 4; k++) {
        ranges[k * 2] = cf_rand() % 400u;
        ranges[k * 2 + 1] = ranges[k * 2] + cf_rand() % 500u;
    }
    memcpy(push, table, 64);
    memcpy(push + 64, coef, 64);
    memcpy(push + 128, ranges, 32);
    memset(push + 160, 0, 32);
    uint32_t *x = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        x[i] = cf_rand();
    struct cf_buffer *bx = cf_buffer_from(x, N * 4), *bo = cf_buffer(N * 12);
    CF_RUN("layout_push_arrays", push, 160, G, 1, 1, bx, bo);
    float *want = cf_calloc(N * 3, 4);
    for (int i = 0; i < N; i++) {
        uint32_t v = x[i];
        want[i * 3] = (float)(table[v % 16] + table[(v >> 4) % 16]);
        want[i * 3 + 1] = coef[(v % 4) * 4 + (v >> 8) % 4] * (float)(v % 7);
        uint32_t lo = ranges[((v >> 2) % 4) * 2], hi = ranges[((v >> 2) % 4) * 2 + 1], m = v % 1000;
        want[i * 3 + 2] = (float)(m < lo ? lo : m > hi ? hi : m);
    }
    cf_expect_f32(bo->map, want, N * 3, 0, 0, "push constant arrays");
}

CF_TEST(layout_push_update)
{
    struct cf_buffer *bo = cf_buffer(4 * 64 * 4);
    struct cf_pipeline *p = cf_pipeline("layout_push_update", 1, 12, NULL);
    cf_bind_all(p, 1, &bo);
    /* The four dispatches write disjoint slots with no barrier: correct,
     * and strict mode reports nothing (its accesses are the bytes each
     * dispatch touched, not the whole binding). */
    VkCommandBuffer cmd = cf_begin();
    uint32_t push[3] = { 0, 3, 100 };
    cf_cmd_bind(cmd, p, push, 0, NULL);
    vkCmdDispatch(cmd, 2, 1, 1);
    /* Slot 1: only `slot` changes. */
    uint32_t slot = 1;
    vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &slot);
    vkCmdDispatch(cmd, 2, 1, 1);
    /* Slot 2: `slot` and `add` change, `mul` keeps 3. */
    uint32_t two = 2, add = 7;
    vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &two);
    vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 8, 4, &add);
    vkCmdDispatch(cmd, 2, 1, 1);
    /* Slot 3: everything, then rebinding the pipeline keeps push constants. */
    uint32_t all[3] = { 3, 11, 5 };
    vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 12, all);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
    vkCmdDispatch(cmd, 2, 1, 1);
    cf_submit(cmd);
    uint32_t want[256];
    const uint32_t mul[4] = { 3, 3, 3, 11 }, adds[4] = { 100, 100, 7, 5 };
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < 64; i++)
            want[s * 64 + i] = (uint32_t)i * mul[s] + adds[s];
    cf_expect_u32(bo->map, want, 256, "dispatches with updated push constants");
}

CF_TEST_OPT(layout_ubo_matrices)
{
    enum { N = 32 * 4, SIZE = 656 };
    uint8_t *u = cf_calloc(SIZE, 1);
    memset(u, 0x41, SIZE); /* padding: 12.0625f, must not be read */
    float ms[4][3][3], r[3][2][2][3], off[3][2][2], w[3]; /* ms[j][col][row], r[o][q][col][row] */
    double dm[2][2];
    for (int j = 0; j < 4; j++)
        for (int c = 0; c < 3; c++)
            for (int row = 0; row < 3; row++)
                put_f32(u, j * 48 + c * 16 + row * 4, ms[j][c][row] = qrand());
    for (int o = 0; o < 3; o++) {
        for (int q = 0; q < 2; q++) {
            size_t base = 192 + o * 144 + q * 64;
            for (int c = 0; c < 2; c++)
                for (int row = 0; row < 3; row++)
                    put_f32(u, base + row * 16 + c * 4, r[o][q][c][row] = qrand());
            put_f32(u, base + 48, off[o][q][0] = qrand());
            put_f32(u, base + 52, off[o][q][1] = qrand());
        }
        put_f32(u, 192 + o * 144 + 128, w[o] = qrand());
    }
    for (int c = 0; c < 2; c++)
        for (int row = 0; row < 2; row++) {
            dm[c][row] = (double)qrand() / 3.0;
            memcpy(u + 624 + c * 16 + row * 8, &dm[c][row], 8);
        }
    uint32_t *keys = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        keys[i] = cf_rand();
    struct cf_buffer *bu = cf_buffer_from(u, SIZE), *bk = cf_buffer_from(keys, N * 4), *bo = cf_buffer(N * 32);
    struct cf_binding bindings[3] = {
        { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1 }, { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
        { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
    };
    struct cf_pipeline_info info = { .shader = "layout_ubo_matrices", .sets = { { 3, bindings } } };
    struct cf_pipeline *p = cf_pipeline_create(&info);
    cf_bind(p, 0, 0, 0, bu, 0, 0);
    cf_bind(p, 0, 1, 0, bk, 0, 0);
    cf_bind(p, 0, 2, 0, bo, 0, 0);
    cf_dispatch(p, NULL, N / 32, 1, 1);
    float *want = cf_calloc(N * 8, 4);
    for (int i = 0; i < N; i++) {
        uint32_t k = keys[i];
        float (*m)[3] = ms[k % 4];
        float *out = &want[i * 8];
        for (int row = 0; row < 3; row++)
            out[row] = m[0][row] * 1.0f + m[1][row] * 2.0f + m[2][row] * 3.0f;
        uint32_t o = k % 3, q = (k >> 2) % 2;
        float rv[3];
        for (int row = 0; row < 3; row++)
            rv[row] = r[o][q][0][row] * off[o][q][0] + r[o][q][1][row] * off[o][q][1];
        out[3] = rv[0] + rv[1] * 10.0f + rv[2] * 100.0f;
        out[4] = w[(k >> 4) % 3];
        out[5] = ms[(k >> 6) % 4][(k >> 8) % 3][(k >> 10) % 3];
        out[6] = (float)dm[(k >> 1) % 2][k % 2];
        out[7] = r[1][1][1][2];
    }
    /* Products of multiples of 1/8, few terms: exact except the sums of
     * column 3, which may be contracted. */
    cf_expect_f32(bo->map, want, N * 8, 1e-3, 1e-6, "uniform matrices");
}
