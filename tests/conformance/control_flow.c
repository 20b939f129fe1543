/* Structured control flow: branches, loops, switch, returns, function calls.
 * Every case also runs with the spirv-opt compiled shader (SSA form). */
#include "cf.h"

static int32_t smod(int32_t x, int32_t y)
{
    int32_t r = x % y;
    if (r != 0 && ((r < 0) != (y < 0)))
        r += y;
    return r;
}

static uint32_t *rand_u32s(size_t n)
{
    uint32_t *v = cf_calloc(n, 4);
    for (size_t i = 0; i < n; i++)
        v[i] = cf_rand();
    return v;
}

CF_TEST_OPT(cf_if_else)
{
    enum { N = 64 * 8 };
    int32_t *a = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        a[i] = i % 13 == 0 ? 0 : cf_rand_range(-1000, 1000);
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 8);
    CF_RUN("cf_if_else", NULL, 0, N / 64, 1, 1, ba, bo);
    int32_t *want = cf_calloc(N * 2, 4);
    for (int i = 0; i < N; i++) {
        int32_t x = a[i], r;
        if (x < -500) {
            r = 1;
            if ((x & 1) == 0)
                r += 10;
        } else if (x < 0)
            r = 2;
        else if (x == 0)
            r = 3;
        else if (x < 500)
            r = smod(x, 3) == 0 ? 4 : smod(x, 3) == 1 ? 5 : 6;
        else
            r = 7;
        int32_t s = r > 3 ? x * 2 : 0;
        if (r < 5 && x > -900)
            s -= 1;
        else
            s += 1;
        want[i * 2] = r;
        want[i * 2 + 1] = s;
    }
    cf_expect_i32(bo->map, want, N * 2, "branches");
}

CF_TEST_OPT(cf_loop_phi)
{
    enum { N = 100 * 5 };
    uint32_t *a = rand_u32s(N);
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 20);
    CF_RUN("cf_loop_phi", NULL, 0, N / 100, 1, 1, ba, bo);
    uint32_t *want = cf_calloc(N * 5, 4);
    for (int i = 0; i < N; i++) {
        uint32_t n = a[i] % 64u, f0 = 0, f1 = 1, s = a[i] | 1u, mn = 0xffffffffu, mx = 0, sum = 0;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t t = f0 + f1;
            f0 = f1;
            f1 = t;
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            mn = s < mn ? s : mn;
            mx = s > mx ? s : mx;
            sum += s & 0xffu;
        }
        uint32_t *w = &want[i * 5];
        w[0] = f0;
        w[1] = s;
        w[2] = mn;
        w[3] = mx;
        w[4] = sum;
    }
    cf_expect_u32(bo->map, want, N * 5, "loop-carried values");
}

CF_TEST_OPT(cf_while_do)
{
    enum { N = 32 * 16 };
    uint32_t *a = rand_u32s(N);
    for (int i = 0; i < N; i += 5)
        a[i] %= 50u;
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 16);
    CF_RUN("cf_while_do", NULL, 0, N / 32, 1, 1, ba, bo);
    uint32_t *want = cf_calloc(N * 4, 4);
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i], steps = 0, v = x;
        while (v >= 10u) {
            v = v / 3u + (v & 1u);
            steps++;
        }
        uint32_t k = 0, acc = 0;
        do {
            k++;
            if ((k + x) % 3u == 0u)
                continue;
            acc += k * k;
        } while (k < x % 20u);
        uint32_t p = x, q = 0;
        while (p != 0 && q < 20u) {
            q += p & 1u;
            p >>= 1;
        }
        want[i * 4] = steps;
        want[i * 4 + 1] = v;
        want[i * 4 + 2] = acc;
        want[i * 4 + 3] = q | p << 8;
    }
    cf_expect_u32(bo->map, want, N * 4, "while / do-while");
}

CF_TEST_OPT(cf_nested_loops)
{
    enum { G = 6, N = 64 * G };
    uint32_t *a = rand_u32s(N);
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 8);
    CF_RUN("cf_nested_loops", NULL, 0, G, 1, 1, ba, bo);
    uint32_t *want = cf_calloc(N * 2, 4);
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i], total = 0, iters = 0;
        bool done = false;
        for (uint32_t r = 0; r < 12 && !done; r++) {
            if ((x >> r) & 1u)
                continue;
            for (uint32_t c = 0; c < 12; c++) {
                iters++;
                if (c == r)
                    continue;
                if (c > r + (x & 7u))
                    break;
                for (uint32_t d = 0; d < 4; d++) {
                    if (d == (x >> 20) % 4u)
                        break;
                    total += r * 100 + c * 10 + d;
                }
                if (total > x % 5000u + 2000u) {
                    done = true;
                    break;
                }
            }
        }
        want[i * 2] = total;
        want[i * 2 + 1] = iters;
    }
    cf_expect_u32(bo->map, want, N * 2, "nested loops");
}

CF_TEST_OPT(cf_switch)
{
    enum { N = 50 * 8 };
    int32_t *a = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        a[i] = i % 2 ? cf_rand_range(-8, 10) : cf_rand_range(-1000, 1000);
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 8);
    CF_RUN("cf_switch", NULL, 0, N / 50, 1, 1, ba, bo);
    int32_t *want = cf_calloc(N * 2, 4);
    for (int i = 0; i < N; i++) {
        int32_t x = a[i], r = 0, s = 0;
        switch (x) {
        case 0:
            r += 1;
            /* fall through */
        case 1:
            r += 10;
            break;
        case 2:
        case 3:
            r += 100;
            /* fall through */
        default:
            r += 1000;
            /* fall through */
        case -5:
            r += 10000;
            break;
        case 7:
            r = -7;
            break;
        }
        switch (x & 3) {
        case 0:
            s = 4;
            break;
        case 2:
            s = 8;
            switch (smod(x, 5)) {
            case 1: s += 1; break;
            case -1: s -= 1; break;
            }
            break;
        }
        want[i * 2] = r;
        want[i * 2 + 1] = s;
    }
    cf_expect_i32(bo->map, want, N * 2, "switch results");
}

CF_TEST_OPT(cf_switch_loop)
{
    enum { N = 64 * 6 };
    uint32_t *a = rand_u32s(N);
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 8);
    CF_RUN("cf_switch_loop", NULL, 0, N / 64, 1, 1, ba, bo);
    uint32_t *want = cf_calloc(N * 2, 4);
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i], acc = 0, tag = 1;
        for (uint32_t k = 0; k < 16; k++) {
            uint32_t op = (x >> (2 * k)) & 3u;
            if (op == 1) {
                acc *= 3u;
                continue;
            }
            if (op == 0)
                acc += k;
            else {
                if (op == 2) {
                    if (acc > 1000000u) {
                        tag = 0xff;
                        break;
                    }
                    acc ^= 0x55u;
                }
                acc += 1;
            }
            acc += 2;
        }
        want[i * 2] = acc;
        want[i * 2 + 1] = tag;
    }
    cf_expect_u32(bo->map, want, N * 2, "switch in a loop");
}

CF_TEST_OPT(cf_early_return)
{
    enum { G = 9, N = 21 * G };
    uint32_t *a = rand_u32s(N);
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 12);
    memset(bo->map, 0xcd, bo->size);
    CF_RUN("cf_early_return", NULL, 0, G, 1, 1, ba, bo);
    uint32_t *want = cf_calloc(N * 3, 4);
    memset(want, 0xcd, N * 12);
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i];
        if (x % 5u == 0)
            continue;
        want[i * 3] = x;
        if (x % 5u == 1)
            continue;
        bool returned = false;
        for (uint32_t k = 0; k < 10; k++) {
            if (k == (x >> 8) % 10u) {
                want[i * 3 + 1] = k;
                returned = true;
                break;
            }
            if (k == (x >> 12) % 12u)
                break;
        }
        if (!returned)
            want[i * 3 + 2] = x * 2u;
    }
    cf_expect_u32(bo->map, want, N * 3, "stores before the returns");
}

CF_TEST_OPT(cf_functions)
{
    enum { N = 64 * 4 };
    uint32_t *a = rand_u32s(N);
    float *v = cf_calloc(N * 4, 4);
    for (int i = 0; i < N * 4; i++)
        v[i] = (float)cf_rand_range(-100, 100) * 0.5f;
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 32), *bv = cf_buffer_from(v, N * 16);
    CF_RUN("cf_functions", NULL, 0, N / 64, 1, 1, ba, bo, bv);
    uint32_t *want = cf_calloc(N * 8, 4);
    float *wantv = cf_calloc(N * 4, 4);
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i], y = 7u + (x & 3u);
        uint32_t sum = 0, count = 0, lo = 1000000000u, hi = 0;
        for (uint32_t k = 0; k < 5; k++) {
            uint32_t nib = (x >> (k * 4)) & 15u;
            sum += nib;
            count++;
            lo = nib < lo ? nib : lo;
            hi = nib > hi ? nib : hi;
        }
        uint32_t arr[4];
        for (int k = 0; k < 4; k++)
            arr[k] = (x & 0xffu) * (uint32_t)(k + 1);
        uint32_t *w = &want[i * 8];
        w[0] = x / y;
        w[1] = x % y;
        w[2] = sum | count << 16;
        w[3] = lo | hi << 8;
        w[4] = arr[3] + arr[2] * 3u;
        w[5] = arr[(x >> 9) & 3u];
        w[6] = x / 1000u;
        w[7] = x % 1000u;
        const float *in = &v[i * 4];
        wantv[i * 4 + 0] = in[2];
        wantv[i * 4 + 1] = in[1] * 2.0f;
        wantv[i * 4 + 2] = in[0];
        wantv[i * 4 + 3] = in[3];
    }
    cf_expect_u32(bo->map, want, N * 8, "function results");
    cf_expect_f32(bv->map, wantv, N * 4, 0, 0, "inout through swizzles and components");
}

static uint32_t find_first(uint32_t x, uint32_t bit)
{
    for (uint32_t k = 0; k < 32; k++)
        if (((x >> k) & 1u) == bit)
            return k;
    return 99;
}

static uint32_t level3(uint32_t x)
{
    return find_first(x, 1) + find_first(x, 0) * 100u;
}

static uint32_t level2(uint32_t x)
{
    if (x == 0)
        return 7;
    uint32_t r = level3(x);
    if ((x & 0xf0u) == 0)
        return r + level3(~x);
    return r * 2u;
}

static uint32_t level1(uint32_t x, uint32_t y)
{
    uint32_t acc = 0;
    for (uint32_t k = 0; k < y; k++) {
        if (k == 3)
            return acc + 1000u;
        acc += level2(x >> k);
    }
    return acc;
}

CF_TEST_OPT(cf_call_chain)
{
    enum { N = 32 * 12 };
    uint32_t *a = rand_u32s(N);
    for (int i = 0; i < N; i += 7)
        a[i] &= 0xff0fu;
    a[0] = 0;
    a[1] = 0xffffffffu;
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 4);
    CF_RUN("cf_call_chain", NULL, 0, N / 32, 1, 1, ba, bo);
    uint32_t *want = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i];
        want[i] = (x & 1u) == 0 ? level1(x, x % 6u) : level2(x) + 7u;
    }
    cf_expect_u32(bo->map, want, N, "call chain");
}

/* The same chain with level1 inlined at one more call site: correct, but
 * compiling it took 10-18 s at VKMM_OPT_LEVEL=2 (0.4 s at 0), so it runs
 * only when VKMM_CONFORMANCE_SLOW=1. */
CF_TEST(cf_call_chain_heavy)
{
    const char *slow = getenv("VKMM_CONFORMANCE_SLOW");
    if (!slow || *slow != '1')
        skip();
    enum { N = 32 * 12 };
    uint32_t *a = rand_u32s(N);
    for (int i = 0; i < N; i += 7)
        a[i] &= 0xff0fu;
    a[0] = 0;
    a[1] = 0xffffffffu;
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 4);
    CF_RUN("cf_call_chain_heavy", NULL, 0, N / 32, 1, 1, ba, bo);
    uint32_t *want = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i];
        want[i] = (x & 1u) == 0 ? level1(x, x % 6u) : level2(x) + level1(x >> 4, 2);
    }
    cf_expect_u32(bo->map, want, N, "call chain");
}

CF_TEST_OPT(cf_divergent)
{
    enum { N = 128 * 4 };
    uint32_t *a = rand_u32s(N);
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 12);
    CF_RUN("cf_divergent", NULL, 0, N / 128, 1, 1, ba, bo);
    uint32_t *want = cf_calloc(N * 3, 4);
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i], c = x % 10000u + 1u, steps = 0;
        while (c != 1 && steps < 500) {
            c = (c & 1u) ? 3u * c + 1u : c / 2u;
            steps++;
        }
        uint32_t acc = 0;
        for (uint32_t k = 0; k < (x & 15u); k++)
            for (uint32_t j = k; j < ((x >> 4) & 15u); j++)
                acc += k * j + 1u;
        uint32_t p = x % 1000u + 1u, q = (x >> 10) % 1000u + 1u;
        while (q) {
            uint32_t t = p % q;
            p = q;
            q = t;
        }
        want[i * 3] = steps;
        want[i * 3 + 1] = acc;
        want[i * 3 + 2] = p;
    }
    cf_expect_u32(bo->map, want, N * 3, "divergent loops");
}

CF_TEST_OPT(cf_short_circuit)
{
    enum { N = 64 * 4 };
    uint32_t *a = rand_u32s(N);
    for (int i = 0; i < N; i += 2)
        a[i] %= 200u;
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 12);
    CF_RUN("cf_short_circuit", NULL, 0, N / 64, 1, 1, ba, bo);
    uint32_t *want = cf_calloc(N * 3, 4);
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i], n = 0;
        bool p = x & 1u, q = x & 2u;
        bool r1 = p && (n++, q);
        bool r2 = p || (n++, q);
        bool r3 = x > 100u && (n++, true) && (n++, q);
        uint32_t t = q ? (n += 10, x * 2u) : (n += 10, (x + 1u) * 2u) + 1u;
        want[i * 3] = n;
        want[i * 3 + 1] = (uint32_t)r1 | (uint32_t)r2 << 1 | (uint32_t)r3 << 2;
        want[i * 3 + 2] = t;
    }
    cf_expect_u32(bo->map, want, N * 3, "short-circuit evaluation");
}

CF_TEST_OPT(cf_sliding_window)
{
    enum { N = 16 * 6, LEN = 777 };
    int32_t *a = cf_calloc(LEN, 4);
    for (int i = 0; i < LEN; i++)
        a[i] = cf_rand_range(-100, 100);
    struct cf_buffer *ba = cf_buffer_from(a, LEN * 4), *bo = cf_buffer(N * 8);
    const uint32_t push[2] = { 200, 5 };
    CF_RUN("cf_sliding_window", push, 8, N / 16, 1, 1, ba, bo);
    int32_t *want = cf_calloc(N * 2, 4);
    for (uint32_t i = 0; i < N; i++) {
        int32_t win[8] = { 0 }, sum = 0, best = -2147483647, best_at = -1;
        for (uint32_t k = 0; k < push[0]; k++) {
            int32_t incoming = a[(i * 7u + k) % LEN];
            sum += incoming - win[0];
            for (uint32_t s = 0; s + 1 < push[1]; s++)
                win[s] = win[s + 1];
            win[push[1] - 1] = incoming;
            if (sum > best) {
                best = sum;
                best_at = (int32_t)k;
            }
        }
        want[i * 2] = best;
        want[i * 2 + 1] = best_at;
    }
    cf_expect_i32(bo->map, want, N * 2, "sliding window");
}

CF_TEST_OPT(cf_phi_types)
{
    enum { N = 64 * 4 };
    uint32_t *a = rand_u32s(N);
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 48);
    CF_RUN("cf_phi_types", NULL, 0, N / 64, 1, 1, ba, bo);
    float *want = cf_calloc(N * 12, 4);
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i];
        float v[3] = { 1, 2, 3 }, m[4] = { 1, 0, 0, 1 }, sp[2] = { 0, 0 }, arr[4] = { 0, 1, 2, 3 };
        uint32_t sn = 0;
        bool sflag = false, bv[2] = { false, true };
        static const float nm[4] = { 0.0f, 1.0f, -1.0f, 0.5f };
        for (uint32_t k = 0; k < x % 9u; k++) {
            float nv[3] = { v[1] + (float)k, v[2] + (float)k, v[0] + (float)k };
            memcpy(v, nv, sizeof(v));
            float r[4];
            for (int c = 0; c < 2; c++)
                for (int row = 0; row < 2; row++)
                    r[c * 2 + row] = m[row] * nm[c * 2] + m[2 + row] * nm[c * 2 + 1];
            memcpy(m, r, sizeof(m));
            if ((x >> k) & 1u) {
                sp[0] += v[0];
                sp[1] += v[1];
                sn++;
            } else {
                sflag = !sflag;
            }
            bool t = bv[0];
            bv[0] = bv[1];
            bv[1] = t;
            arr[k % 4] += v[2];
        }
        float tp[2] = { -1, -1 };
        uint32_t tn = 99;
        bool tflag = true;
        if (x & 16u) {
            tp[0] = sp[0];
            tp[1] = sp[1];
            tn = sn;
            tflag = sflag;
        }
        float *w = &want[i * 12];
        w[0] = v[0] + v[1] * 10.0f + v[2] * 100.0f;
        memcpy(w + 1, m, sizeof(m));
        w[5] = tp[0] + tp[1];
        w[6] = (float)tn + (tflag ? 0.5f : 0.0f);
        w[7] = (float)bv[0] + 2.0f * (float)bv[1];
        memcpy(w + 8, arr, sizeof(arr));
    }
    cf_expect_f32(bo->map, want, N * 12, 0, 0, "aggregates carried through loops");
}

CF_TEST_OPT(cf_uint_loops)
{
    enum { N = 32 * 4 };
    uint32_t *a = rand_u32s(N);
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 20);
    CF_RUN("cf_uint_loops", NULL, 0, N / 32, 1, 1, ba, bo);
    uint32_t *want = cf_calloc(N * 5, 4);
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i], av = 0, bsum = 0, c = 0, d = 0;
        for (uint32_t k = x % 17u; k-- > 0;)
            av = av * 3u + k;
        for (uint32_t k = 0; k < 100u; k += 7u + (x & 3u))
            bsum += k;
        for (uint32_t k = 0; k < 50u; k++) {
            c += k;
            if ((k & 3u) == (x & 3u))
                k += 5u;
        }
        for (uint32_t t = 0xfffffff0u; t != 4u; t++)
            d ^= t * (x | 1u);
        int32_t e = 0;
        for (int32_t t = (int32_t)(x % 5u); t >= -3; t--)
            e = e * 2 + t;
        uint32_t *w = &want[i * 5];
        w[0] = av;
        w[1] = bsum;
        w[2] = c;
        w[3] = d;
        w[4] = (uint32_t)e;
    }
    cf_expect_u32(bo->map, want, N * 5, "unsigned loops");
}

CF_TEST_OPT(cf_big_private)
{
    enum { N = 16 * 4 };
    uint32_t *a = rand_u32s(N);
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bo = cf_buffer(N * 12);
    CF_RUN("cf_big_private", NULL, 0, N / 16, 1, 1, ba, bo);
    float *want = cf_calloc(N * 3, 4);
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i], h = x;
        float big[512];
        for (int k = 0; k < 512; k++)
            big[k] = (float)k * 0.5f;
        for (int k = 0; k < 200; k++) {
            h = h * 1664525u + 1013904223u;
            big[h >> 23] += (float)(k & 7);
        }
        float s = 0;
        for (int k = 0; k < 512; k += 37)
            s += big[k];
        uint32_t kk = (x >> 3) % 8u;
        float vx = big[(x + kk * 61u) % 512u];
        want[i * 3] = s;
        want[i * 3 + 1] = big[x % 512u] + big[(x >> 9) % 512u];
        want[i * 3 + 2] = vx - (float)kk - 2.0f * (float)kk + 0.5f;
    }
    cf_expect_f32(bo->map, want, N * 3, 0, 0, "large private array");
}
