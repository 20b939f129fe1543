/* Integer and floating-point arithmetic of every width. */
#include "cf.h"

/* Mostly full-range values, with small, extreme and sign-boundary ones mixed in. */
static int32_t interesting_i32(void)
{
    static const int32_t special[] = { 0, 1, -1, 2, -2, 7, -7, INT32_MAX, INT32_MIN, INT32_MAX - 1, INT32_MIN + 1,
                                       0x10000, -0x10000, 0x7fff, -0x8000, 255, -256, 1000000007 };
    uint32_t r = cf_rand() % 8;
    if (r == 0)
        return special[cf_rand() % (sizeof(special) / sizeof(special[0]))];
    if (r < 3)
        return cf_rand_range(-1000, 1000);
    return (int32_t)cf_rand();
}

static uint32_t wrap_mul(uint32_t a, uint32_t b)
{
    return a * b;
}

CF_TEST_OPT(arith_int_basic)
{
    enum { N = 3000, K = 6, PAD = 64 };
    const uint32_t n = N - 13;
    int32_t *a = cf_calloc(N, 4), *b = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        a[i] = interesting_i32();
        b[i] = interesting_i32();
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bb = cf_buffer_from(b, N * 4);
    struct cf_buffer *bo = cf_buffer((N + PAD) * K * 4);
    memset(bo->map, 0xab, bo->size);
    CF_RUN("arith_int_basic", &n, 4, (N + 63) / 64, 1, 1, ba, bb, bo);
    int32_t *want = cf_calloc((N + PAD) * K, 4);
    memset(want, 0xab, (N + PAD) * K * 4);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = (uint32_t)a[i], y = (uint32_t)b[i];
        want[i * K + 0] = (int32_t)(x + y);
        want[i * K + 1] = (int32_t)(x - y);
        want[i * K + 2] = (int32_t)wrap_mul(x, y);
        want[i * K + 3] = (int32_t)(0u - x);
        want[i * K + 4] = (int32_t)(x * 3u + y);
        want[i * K + 5] = (int32_t)(wrap_mul(x + 7u, y - 3u) - x);
    }
    cf_expect_i32(bo->map, want, (N + PAD) * K, "out");
}

static int32_t smod(int32_t x, int32_t y)
{
    int32_t r = x % y;
    if (r != 0 && ((r < 0) != (y < 0)))
        r += y;
    return r;
}

CF_TEST_OPT(arith_div_mod)
{
    enum { N = 2000, K = 12 };
    const uint32_t n = N;
    int32_t *a = cf_calloc(N, 4), *b = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        a[i] = interesting_i32();
        do
            b[i] = (cf_rand() & 1) ? cf_rand_range(-50, 50) : interesting_i32();
        while (b[i] == 0 || (b[i] == -1 && a[i] == INT32_MIN));
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bb = cf_buffer_from(b, N * 4), *bo = cf_buffer(N * K * 4);
    CF_RUN("arith_div_mod", &n, 4, N / 100, 1, 1, ba, bb, bo);
    int32_t *want = cf_calloc(N * K, 4);
    for (int i = 0; i < N; i++) {
        int32_t x = a[i], y = b[i];
        uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
        int32_t *w = &want[i * K];
        w[0] = x / y;
        w[1] = smod(x, y);
        w[2] = (int32_t)(ux / uy);
        w[3] = (int32_t)(ux % uy);
        w[4] = x / 7;
        w[5] = x / -3;
        w[6] = (int32_t)(ux / 10u);
        w[7] = (int32_t)(ux % 1000u);
        w[8] = x / 16;
        w[9] = (int32_t)(ux / 16u);
        w[10] = smod(x, 5);
        w[11] = x;
    }
    cf_expect_i32(bo->map, want, N * K, "out");
}

CF_TEST(arith_shifts)
{
    enum { N = 32 * 40, K = 10 };
    int32_t *a = cf_calloc(N, 4);
    uint32_t *s = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        a[i] = interesting_i32();
        s[i] = (uint32_t)i % 32u;
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bs = cf_buffer_from(s, N * 4), *bo = cf_buffer(N * K * 4);
    CF_RUN("arith_shifts", NULL, 0, N / 32, 1, 1, ba, bs, bo);
    uint32_t *want = cf_calloc(N * K, 4);
    for (int i = 0; i < N; i++) {
        int32_t x = a[i];
        uint32_t u = (uint32_t)x, sh = s[i];
        uint32_t *w = &want[i * K];
        w[0] = (uint32_t)(x >> sh);
        w[1] = u >> sh;
        w[2] = u << sh;
        w[3] = u << sh;
        w[4] = (uint32_t)(x >> 7);
        w[5] = u >> 31;
        w[6] = u << 13;
        w[7] = (uint32_t)(x >> sh);
        w[8] = (uint32_t)((int32_t)(0u - u) >> (31 - sh));
        w[9] = (u << (31 - sh)) ^ (~u << sh);
    }
    cf_expect_u32(bo->map, want, N * K, "out");
}

CF_TEST(arith_bitops)
{
    enum { N = 7 * 30, K = 5 };
    uint32_t *a = cf_calloc(N * 4, 4), *b = cf_calloc(N * 4, 4);
    for (int i = 0; i < N * 4; i++) {
        a[i] = cf_rand();
        b[i] = cf_rand();
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 16), *bb = cf_buffer_from(b, N * 16), *bo = cf_buffer(N * K * 16);
    CF_RUN("arith_bitops", NULL, 0, N / 7, 1, 1, ba, bb, bo);
    uint32_t *want = cf_calloc(N * K * 4, 4);
    for (int i = 0; i < N; i++)
        for (int c = 0; c < 4; c++) {
            uint32_t x = a[i * 4 + c], y = b[i * 4 + c];
            want[(i * K + 0) * 4 + c] = x & y;
            want[(i * K + 1) * 4 + c] = x | y;
            want[(i * K + 2) * 4 + c] = x ^ y;
            want[(i * K + 3) * 4 + c] = ~x;
            want[(i * K + 4) * 4 + c] = (x & ~y) | (y ^ 0x5a5a5a5au);
        }
    cf_expect_u32(bo->map, want, N * K * 4, "out");
}

static uint32_t field_mask(int bits)
{
    return bits >= 32 ? 0xffffffffu : (1u << bits) - 1u;
}

CF_TEST_OPT(arith_bitfield)
{
    /* Every (offset, bits) with offset + bits <= 32: 561 pairs. */
    enum { N = 128 * 5, K = 3 };
    uint32_t *a = cf_calloc(N, 4), *b = cf_calloc(N, 4);
    int32_t *ob = cf_calloc(N * 2, 4);
    int k = 0;
    for (int off = 0; off <= 32; off++)
        for (int bits = 0; off + bits <= 32; bits++, k++) {
            ob[k * 2] = off;
            ob[k * 2 + 1] = bits;
        }
    for (; k < N; k++) {
        ob[k * 2] = cf_rand_range(0, 31);
        ob[k * 2 + 1] = cf_rand_range(0, 32 - ob[k * 2]);
    }
    for (int i = 0; i < N; i++) {
        a[i] = cf_rand();
        b[i] = cf_rand();
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bb = cf_buffer_from(b, N * 4), *bc = cf_buffer_from(ob, N * 8);
    struct cf_buffer *bo = cf_buffer(N * K * 4);
    CF_RUN("arith_bitfield", NULL, 0, N / 128, 1, 1, ba, bb, bc, bo);
    uint32_t *want = cf_calloc(N * K, 4);
    for (int i = 0; i < N; i++) {
        int off = ob[i * 2], bits = ob[i * 2 + 1];
        uint32_t x = a[i], y = b[i];
        uint32_t field = bits ? (x >> off) & field_mask(bits) : 0;
        uint32_t sfield = field;
        if (bits && bits < 32 && (field >> (bits - 1)) & 1)
            sfield |= ~field_mask(bits);
        uint32_t mask = bits ? field_mask(bits) << off : 0;
        want[i * K + 0] = field;
        want[i * K + 1] = sfield;
        want[i * K + 2] = (x & ~mask) | ((y << (off & 31)) & mask);
    }
    cf_expect_u32(bo->map, want, N * K, "out");
}

static int32_t find_msb_u(uint32_t x)
{
    if (!x)
        return -1;
    return 31 - __builtin_clz(x);
}

CF_TEST(arith_bitcount)
{
    enum { N = 64 * 20, K = 6 };
    uint32_t *a = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        uint32_t r = cf_rand();
        switch (i % 6) {
        case 0: a[i] = r; break;
        case 1: a[i] = r >> (r % 32); break;
        case 2: a[i] = 1u << (r % 32); break;
        case 3: a[i] = ~(1u << (r % 32)); break;
        case 4: a[i] = (uint32_t)(i / 6) < 4 ? (uint32_t[]){ 0, 0xffffffffu, 0x80000000u, 1 }[i / 6] : r << (r % 32); break;
        default: a[i] = (uint32_t)-(int32_t)(r % 1000); break;
        }
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * K * 4);
    CF_RUN("arith_bitcount", NULL, 0, N / 64, 1, 1, ba, bo);
    int32_t *want = cf_calloc(N * K, 4);
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i];
        want[i * K + 0] = __builtin_popcount(x);
        want[i * K + 1] = __builtin_popcount(x);
        want[i * K + 2] = x ? __builtin_ctz(x) : -1;
        want[i * K + 3] = find_msb_u(x);
        want[i * K + 4] = find_msb_u((int32_t)x < 0 ? ~x : x);
        uint32_t rev = 0;
        for (int bit = 0; bit < 32; bit++)
            rev |= ((x >> bit) & 1u) << (31 - bit);
        want[i * K + 5] = (int32_t)rev;
    }
    cf_expect_i32(bo->map, want, N * K, "out");
}

CF_TEST(arith_extended)
{
    enum { G = 13, N = 64 * G, K = 8 };
    uint32_t *a = cf_calloc(N, 4), *b = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        a[i] = (uint32_t)interesting_i32();
        b[i] = (i % 5 == 0) ? a[i] : (uint32_t)interesting_i32();
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bb = cf_buffer_from(b, N * 4), *bo = cf_buffer(N * K * 4);
    CF_RUN("arith_extended", NULL, 0, G, 1, 1, ba, bb, bo);
    uint32_t *want = cf_calloc(N * K, 4);
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i], y = b[i];
        uint64_t p = (uint64_t)x * y;
        int64_t sp = (int64_t)(int32_t)x * (int32_t)y;
        uint32_t *w = &want[i * K];
        w[0] = x + y;
        w[1] = x + y < x;
        w[2] = x - y;
        w[3] = x < y;
        w[4] = (uint32_t)(p >> 32);
        w[5] = (uint32_t)p;
        w[6] = (uint32_t)((uint64_t)sp >> 32);
        w[7] = (uint32_t)sp;
    }
    cf_expect_u32(bo->map, want, N * K, "out");
}

CF_TEST(arith_int_minmax)
{
    enum { N = 256 * 3, K = 11 };
    int32_t *a = cf_calloc(N, 4), *b = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        a[i] = interesting_i32();
        b[i] = i % 7 == 0 ? a[i] : interesting_i32();
        if (a[i] == INT32_MIN)
            a[i]++; /* abs(INT_MIN) is undefined */
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bb = cf_buffer_from(b, N * 4), *bo = cf_buffer(N * K * 4);
    CF_RUN("arith_int_minmax", NULL, 0, N / 256, 1, 1, ba, bb, bo);
    int32_t *want = cf_calloc(N * K, 4);
    for (int i = 0; i < N; i++) {
        int32_t x = a[i], y = b[i];
        uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
        int32_t *w = &want[i * K];
        w[0] = x < y ? x : y;
        w[1] = x > y ? x : y;
        w[2] = (int32_t)(ux < uy ? ux : uy);
        w[3] = (int32_t)(ux > uy ? ux : uy);
        w[4] = x < -1000 ? -1000 : x > 1000 ? 1000 : x;
        w[5] = (int32_t)(ux < 100u ? 100u : ux > 0x80000000u ? 0x80000000u : ux);
        w[6] = x < 0 ? -x : x;
        w[7] = (x > 0) - (x < 0);
        w[8] = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 | (x != y) << 5;
        w[9] = (ux < uy) | (ux <= uy) << 1 | (ux > uy) << 2 | (ux >= uy) << 3;
        w[10] = (int32_t)(x > y ? (uint32_t)x - (uint32_t)y : (uint32_t)y - (uint32_t)x);
    }
    cf_expect_i32(bo->map, want, N * K, "out");
}

static float nonzero_float(float lo, float hi)
{
    float f;
    do
        f = cf_rand_float(lo, hi);
    while (fabsf(f) < 1e-3f);
    return f;
}

CF_TEST_OPT(arith_float_basic)
{
    enum { N = 64 * 30, K = 5 };
    float *a = cf_calloc(N, 4), *b = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        a[i] = nonzero_float(-1000, 1000) * ((i % 3) ? 1.0f : 1e-3f);
        b[i] = nonzero_float(-100, 100);
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bb = cf_buffer_from(b, N * 4), *bo = cf_buffer(N * K * 4);
    CF_RUN("arith_float_basic", NULL, 0, N / 64, 1, 1, ba, bb, bo);
    float *got = bo->map;
    float *want = cf_calloc(N * 3, 4), *got3 = cf_calloc(N * 3, 4);
    float *wdiv = cf_calloc(N * 2, 4), *gdiv = cf_calloc(N * 2, 4);
    for (int i = 0; i < N; i++) {
        want[i * 3 + 0] = a[i] + b[i];
        want[i * 3 + 1] = a[i] - b[i];
        want[i * 3 + 2] = a[i] * b[i];
        wdiv[i * 2 + 0] = a[i] / b[i];
        wdiv[i * 2 + 1] = -b[i];
        for (int k = 0; k < 3; k++)
            got3[i * 3 + k] = got[i * K + k];
        gdiv[i * 2 + 0] = got[i * K + 3];
        gdiv[i * 2 + 1] = got[i * K + 4];
    }
    cf_expect_f32_ulp(got3, want, N * 3, 0, "add/sub/mul");
    cf_expect_f32_ulp(gdiv, wdiv, N * 2, 3, "div/negate");
}

CF_TEST(arith_float_compare)
{
    enum { G = 9, N = 64 * G };
    float *a = cf_calloc(N, 4), *b = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        a[i] = (float)cf_rand_range(-20, 20) * 0.5f;
        b[i] = i % 4 == 0 ? a[i] : (float)cf_rand_range(-20, 20) * 0.5f;
        if (i % 17 == 0)
            b[i] = -0.0f, a[i] = 0.0f;
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bb = cf_buffer_from(b, N * 4), *bo = cf_buffer(N * 4);
    CF_RUN("arith_float_compare", NULL, 0, G, 1, 1, ba, bb, bo);
    uint32_t *want = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        float x = a[i], y = b[i];
        want[i] = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 | (x != y) << 5 |
                  (x < y) << 6 | (y < x) << 7 | (x < 0) << 8 | (-x < 0) << 9;
    }
    cf_expect_u32(bo->map, want, N, "compare bits");
}

CF_TEST(arith_conversions)
{
    enum { N = 100 * 8, K = 8 };
    float *f = cf_calloc(N, 4);
    int32_t *s = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        switch (i % 4) {
        case 0: f[i] = cf_rand_float(-10, 10); break;
        case 1: f[i] = cf_rand_float(-2e9f, 2e9f); break;
        case 2: f[i] = (float)cf_rand_range(-100, 100) + 0.5f; break;
        default: f[i] = i % 8 == 3 ? 0.0f : cf_rand_float(-1, 1); break;
        }
        s[i] = i % 3 == 0 ? 0 : interesting_i32();
    }
    struct cf_buffer *bf = cf_buffer_from(f, N * 4), *bs = cf_buffer_from(s, N * 4), *bo = cf_buffer(N * K * 4);
    CF_RUN("arith_conversions", NULL, 0, N / 100, 1, 1, bf, bs, bo);
    uint32_t *want = cf_calloc(N * K, 4);
    for (int i = 0; i < N; i++) {
        float x = f[i];
        int32_t y = s[i];
        uint32_t *w = &want[i * K];
        w[0] = (uint32_t)(int32_t)x;
        w[1] = (uint32_t)fabsf(x);
        w[2] = cf_f32_as_u32((float)y);
        w[3] = cf_f32_as_u32((float)(uint32_t)y);
        w[4] = (uint32_t)(y != 0) + 2u * (uint32_t)(x != 0.0f);
        w[5] = (uint32_t)((y & 1) * 7);
        w[6] = cf_f32_as_u32(y > 0 ? 1.0f : 0.0f);
        w[7] = (uint32_t)(int32_t)-x;
    }
    cf_expect_u32(bo->map, want, N * K, "out");
}

CF_TEST(arith_int8)
{
    enum { N = 64 * 12, K = 10, KU = 6 };
    int8_t *a = cf_calloc(N, 1), *b = cf_calloc(N, 1);
    for (int i = 0; i < N; i++) {
        a[i] = (int8_t)cf_rand();
        do
            b[i] = (int8_t)cf_rand();
        while (b[i] == 0 || (b[i] == -1 && a[i] == -128));
    }
    struct cf_buffer *ba = cf_buffer_from(a, N), *bb = cf_buffer_from(b, N);
    struct cf_buffer *bo = cf_buffer(N * K), *bu = cf_buffer(N * KU);
    CF_RUN("arith_int8", NULL, 0, N / 64, 1, 1, ba, bb, bo, bu);
    uint8_t *want = cf_calloc(N * K, 1), *wantu = cf_calloc(N * KU, 1);
    for (int i = 0; i < N; i++) {
        int x = a[i], y = b[i];
        uint8_t *w = &want[i * K];
        w[0] = (uint8_t)(x + y);
        w[1] = (uint8_t)(x - y);
        w[2] = (uint8_t)(x * y);
        w[3] = (uint8_t)(x / y);
        w[4] = (uint8_t)(x >> (y & 7));
        w[5] = (uint8_t)((unsigned)x << (y & 7));
        w[6] = (uint8_t)((x & y) | (~x ^ y));
        w[7] = (uint8_t)(x < y ? x : y);
        w[8] = (uint8_t)(x < y ? 1 : -1);
        w[9] = (uint8_t)-x;
        unsigned ux = (uint8_t)x, uy = (uint8_t)y;
        uint8_t *u = &wantu[i * KU];
        u[0] = (uint8_t)(ux + uy);
        u[1] = (uint8_t)(ux * uy);
        u[2] = (uint8_t)(ux / (uy | 1));
        u[3] = (uint8_t)(ux % (uy | 1));
        u[4] = (uint8_t)(ux >> (uy & 7));
        u[5] = (uint8_t)(ux > uy ? ux : uy);
    }
    cf_expect_u8(bo->map, want, N * K, "int8");
    cf_expect_u8(bu->map, wantu, N * KU, "uint8");
}

static int16_t smod16(int x, int y)
{
    int r = x % y;
    if (r != 0 && ((r < 0) != (y < 0)))
        r += y;
    return (int16_t)r;
}

CF_TEST(arith_int16)
{
    enum { GX = 3, GY = 4, N = 64 * GX * GY, K = 9, KU = 5 };
    int16_t *a = cf_calloc(N, 2), *b = cf_calloc(N, 2);
    for (int i = 0; i < N; i++) {
        do
            a[i] = (int16_t)cf_rand();
        while (a[i] == INT16_MIN);
        do
            b[i] = (i % 2) ? (int16_t)cf_rand_range(-300, 300) : (int16_t)cf_rand();
        while (b[i] == 0);
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 2), *bb = cf_buffer_from(b, N * 2);
    struct cf_buffer *bo = cf_buffer(N * K * 2), *bu = cf_buffer(N * KU * 2);
    CF_RUN("arith_int16", NULL, 0, GX, GY, 1, ba, bb, bo, bu);
    uint16_t *want = cf_calloc(N * K, 2), *wantu = cf_calloc(N * KU, 2);
    for (int i = 0; i < N; i++) {
        int x = a[i], y = b[i];
        uint16_t *w = &want[i * K];
        w[0] = (uint16_t)(x + y);
        w[1] = (uint16_t)(x - y);
        w[2] = (uint16_t)(x * y);
        w[3] = (uint16_t)(x / y);
        w[4] = (uint16_t)smod16(x, y);
        w[5] = (uint16_t)(x >> (y & 15));
        w[6] = (uint16_t)((unsigned)x << (y & 15));
        w[7] = (uint16_t)((x > y ? x : y) ^ 0x1234);
        w[8] = (uint16_t)(x < 0 ? -x : x);
        unsigned ux = (uint16_t)x, uy = (uint16_t)y;
        uint16_t *u = &wantu[i * KU];
        u[0] = (uint16_t)(ux + uy);
        u[1] = (uint16_t)(ux * uy);
        u[2] = (uint16_t)(ux / (uy | 1));
        u[3] = (uint16_t)(ux >> (uy & 15));
        u[4] = (uint16_t)(ux < uy ? ux : uy);
    }
    cf_expect_u16(bo->map, want, N * K, "int16");
    cf_expect_u16(bu->map, wantu, N * KU, "uint16");
}

static int64_t interesting_i64(void)
{
    switch (cf_rand() % 6) {
    case 0: return (int64_t)cf_rand_range(-1000, 1000);
    case 1: return (int64_t)(int32_t)cf_rand();
    case 2: return (int64_t)(((uint64_t)cf_rand() << 32) | cf_rand());
    case 3: return (int64_t)cf_rand() << (cf_rand() % 32);
    case 4: return -((int64_t)cf_rand() << 20);
    default: return (int64_t)(((uint64_t)cf_rand() << 32) | cf_rand()) >> (cf_rand() % 60);
    }
}

static int64_t smod64(int64_t x, int64_t y)
{
    int64_t r = x % y;
    if (r != 0 && ((r < 0) != (y < 0)))
        r += y;
    return r;
}

CF_TEST_OPT(arith_int64)
{
    enum { N = 7 * 60, K = 16 };
    int64_t *a = cf_calloc(N, 8), *b = cf_calloc(N, 8);
    for (int i = 0; i < N; i++) {
        do
            a[i] = interesting_i64();
        while (a[i] == INT64_MIN);
        do
            b[i] = i % 9 == 0 ? a[i] : interesting_i64();
        while (b[i] == 0);
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 8), *bb = cf_buffer_from(b, N * 8), *bo = cf_buffer(N * K * 8);
    CF_RUN("arith_int64", NULL, 0, N / 7, 1, 1, ba, bb, bo);
    uint64_t *want = cf_calloc(N * K, 8);
    for (int i = 0; i < N; i++) {
        int64_t x = a[i], y = b[i];
        uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
        int s = (int)(y & 63);
        uint64_t *w = &want[i * K];
        w[0] = ux + uy;
        w[1] = ux - uy;
        w[2] = ux * uy;
        w[3] = (uint64_t)(x / y);
        w[4] = (uint64_t)smod64(x, y);
        w[5] = ux / uy;
        w[6] = ux % uy;
        w[7] = (uint64_t)(x >> s);
        w[8] = ux >> s;
        w[9] = ux << s;
        w[10] = (ux & uy) ^ (ux | ~uy);
        w[11] = (uint64_t)(x < y ? x : y);
        w[12] = ux > uy ? ux : uy;
        w[13] = (uint64_t)((x < y) | (ux < uy) << 1 | (x == y) << 2);
        w[14] = (uint64_t)(x < 0 ? -x : x);
        w[15] = (uint64_t)(x / 1000000007) + ux % 10u;
    }
    cf_expect_u64(bo->map, want, N * K, "out");
}

CF_TEST(arith_int_widths)
{
    enum { N = 2048, K = 12 };
    int32_t *a = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        a[i] = interesting_i32();
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * K * 8);
    CF_RUN("arith_int_widths", NULL, 0, N / 1024, 1, 1, ba, bo);
    uint64_t *want = cf_calloc(N * K, 8);
    for (int i = 0; i < N; i++) {
        int32_t x = a[i];
        int64_t *w = (int64_t *)&want[i * K];
        w[0] = (int8_t)x;
        w[1] = (uint8_t)x;
        w[2] = (int16_t)x;
        w[3] = (uint16_t)x;
        w[4] = x;
        w[5] = (uint32_t)x;
        w[6] = (int64_t)(uint64_t)(int64_t)(int16_t)x;
        w[7] = (int)(uint8_t)x - (int)(int8_t)x;
        w[8] = (int8_t)(int16_t)x;
        w[9] = (int64_t)((float)(int8_t)x * 2.0f);
        w[10] = (int16_t)((float)(x & 0x7fff) - 16384.0f);
        w[11] = (int64_t)((uint64_t)(int64_t)x * (uint64_t)(int64_t)x);
    }
    cf_expect_u64(bo->map, want, N * K, "out");
}

CF_TEST(arith_float16)
{
    enum { N = 50 * 16, K = 6 };
    uint16_t *a = cf_calloc(N, 2), *b = cf_calloc(N, 2);
    for (int i = 0; i < N; i++) {
        a[i] = cf_f32_to_f16(cf_rand_float(-100, 100));
        float y = cf_rand_float(0.5f, 60) * ((cf_rand() & 1) ? 1 : -1);
        b[i] = i % 5 == 0 ? a[i] : cf_f32_to_f16(y);
        if (b[i] == 0)
            b[i] = cf_f32_to_f16(1.5f);
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 2), *bb = cf_buffer_from(b, N * 2);
    struct cf_buffer *bo = cf_buffer(N * K * 2), *bc = cf_buffer(N * 4);
    CF_RUN("arith_float16", NULL, 0, N / 50, 1, 1, ba, bb, bo, bc);
    /* Each operation computed in float then rounded to half is correctly
     * rounded (float has more than 2 * 11 + 2 bits). */
    uint16_t *want = cf_calloc(N * K, 2);
    uint32_t *wantc = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        float x = cf_f16_to_f32(a[i]), y = cf_f16_to_f32(b[i]);
        uint16_t *w = &want[i * K];
        w[0] = cf_f32_to_f16(x + y);
        w[1] = cf_f32_to_f16(x - y);
        w[2] = cf_f32_to_f16(x * y);
        w[3] = cf_f32_to_f16(x / y);
        w[4] = a[i] ^ 0x8000u;
        w[5] = cf_f32_to_f16(x * 0.5f);
        wantc[i] = (x < y) | (x == y) << 1 | (x >= y) << 2;
    }
    /* Division may be off by one unit of the half result (2.5 ULP allowed). */
    const uint16_t *got = bo->map;
    for (int i = 0; i < N; i++) {
        int d = (int)got[i * K + 3] - (int)want[i * K + 3];
        if (d == 1 || d == -1)
            want[i * K + 3] = got[i * K + 3];
    }
    cf_expect_u16(bo->map, want, N * K, "half results (bits)");
    cf_expect_u32(bc->map, wantc, N, "half comparisons");
}

CF_TEST(arith_float64)
{
    enum { N = 32 * 25, K = 7 };
    double *a = cf_calloc(N, 8), *b = cf_calloc(N, 8);
    for (int i = 0; i < N; i++) {
        a[i] = ((double)(int32_t)cf_rand() + (double)cf_rand() / 4294967296.0) * ((i % 3) ? 1e-3 : 1.0);
        b[i] = i % 6 == 0 ? a[i] : (double)cf_rand_range(-100000, 100000) / 7.0 + 0.25;
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 8), *bb = cf_buffer_from(b, N * 8), *bo = cf_buffer(N * K * 8);
    CF_RUN("arith_float64", NULL, 0, N / 32, 1, 1, ba, bb, bo);
    double *want = cf_calloc(N * K, 8);
    double *got = bo->map;
    for (int i = 0; i < N; i++) {
        double x = a[i], y = b[i];
        double *w = &want[i * K];
        w[0] = x + y;
        w[1] = x - y;
        w[2] = x * y;
        w[3] = x / y;
        w[4] = sqrt(fabs(x));
        w[5] = x < y ? 1.0 : (x > y ? -1.0 : 0.0);
        w[6] = (double)(int32_t)x + (double)(uint32_t)fabs(y);
    }
    double *exact = cf_calloc(N * 3, 8), *exact_got = cf_calloc(N * 3, 8);
    for (int i = 0; i < N; i++)
        for (int k = 0; k < 3; k++) {
            exact[i * 3 + k] = want[i * K + k];
            exact_got[i * 3 + k] = got[i * K + k];
        }
    cf_expect_f64(exact_got, exact, N * 3, 0, 0, "add/sub/mul (exact)");
    cf_expect_f64(got, want, N * K, 0, 1e-15, "all");
}

static bool float_is_neighbor(float got, double want)
{
    /* Round to nearest even or toward zero. */
    float rne = (float)want;
    float rtz = rne;
    if (fabs((double)rne) > fabs(want))
        rtz = nextafterf(rne, 0.0f);
    return got == rne || got == rtz;
}

CF_TEST(arith_float_widths)
{
    enum { N = 64 * 8 };
    double *d = cf_calloc(N, 8);
    for (int i = 0; i < N; i++)
        d[i] = ((double)(int32_t)cf_rand() / 65536.0) * (1.0 + (double)cf_rand() / 4294967296.0) / 8.0;
    struct cf_buffer *bd = cf_buffer_from(d, N * 8), *bf = cf_buffer(N * 3 * 4), *bw = cf_buffer(N * 2 * 8);
    CF_RUN("arith_float_widths", NULL, 0, N / 64, 1, 1, bd, bf, bw);
    const float *f = bf->map;
    const double *w = bw->map;
    for (int i = 0; i < N; i++) {
        if (!float_is_neighbor(f[i * 3], d[i]))
            fail_msg("float(double %.17g) = %.9g at %d", d[i], f[i * 3], i);
        float fx = f[i * 3];
        /* float -> half: nearest-even or toward zero. */
        uint16_t rne = cf_f32_to_f16(fx);
        float h_rne = cf_f16_to_f32(rne);
        float h_rtz = fabsf(h_rne) > fabsf(fx) ? cf_f16_to_f32((uint16_t)(rne - 1)) : h_rne;
        if (f[i * 3 + 1] != h_rne && f[i * 3 + 1] != h_rtz)
            fail_msg("float(float16_t(%.9g)) = %.9g at %d, want %.9g", fx, f[i * 3 + 1], i, h_rne);
        float small = (float)(d[i] * 0.001);
        float s_rne = cf_f16_to_f32(cf_f32_to_f16(small));
        if (fabsf(f[i * 3 + 2] - s_rne) > fabsf(s_rne) * (1.0f / 1024.0f) + 1e-7f)
            fail_msg("float(float16_t(double %.17g)) = %.9g at %d, want %.9g", d[i] * 0.001, f[i * 3 + 2], i, s_rne);
        if (w[i * 2] != (double)fx)
            fail_msg("double(float) = %.17g at %d, want %.17g", w[i * 2], i, (double)fx);
        if (w[i * 2 + 1] != (double)f[i * 3 + 1])
            fail_msg("double(float16_t) = %.17g at %d, want %.17g", w[i * 2 + 1], i, (double)f[i * 3 + 1]);
    }
}
