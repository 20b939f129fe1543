/* Atomics on buffers and shared memory, 32 and 64 bits, checked with
 * order-independent references: final values, counts, and properties of
 * the set of returned values. */
#include "cf.h"

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static uint32_t *rand_u32s(size_t n)
{
    uint32_t *v = cf_calloc(n, 4);
    for (size_t i = 0; i < n; i++)
        v[i] = cf_rand();
    return v;
}

CF_TEST(atomic_add)
{
    enum { G = 40, T = 64 * G, BINS = 37 };
    uint32_t *x = rand_u32s(T);
    struct cf_buffer *bx = cf_buffer_from(x, T * 4), *bins = cf_buffer(BINS * 4), *tot = cf_buffer(8);
    struct cf_buffer *old = cf_buffer(T * 4);
    uint32_t *b0 = bins->map;
    for (int k = 0; k < BINS; k++)
        b0[k] = (uint32_t)k * 1000u;
    uint32_t *t0 = tot->map;
    t0[0] = (uint32_t)-5;
    t0[1] = 1000000u;
    CF_RUN("atomic_add", NULL, 0, G, 1, 1, bx, bins, tot, old);
    uint32_t count[BINS] = { 0 };
    int32_t total = -5;
    for (int i = 0; i < T; i++) {
        count[x[i] % BINS]++;
        total += (int32_t)(x[i] % 201u) - 100;
    }
    uint32_t want_bins[BINS];
    for (int k = 0; k < BINS; k++)
        want_bins[k] = (uint32_t)k * 1000u + count[k];
    cf_expect_u32(bins->map, want_bins, BINS, "histogram");
    int32_t got_total;
    memcpy(&got_total, tot->map, 4);
    if (got_total != total)
        fail_msg("signed total %d, want %d", got_total, total);
    if (((uint32_t *)tot->map)[1] != 1000000u - T)
        fail_msg("atomicAdd(-1) counter %u, want %u", ((uint32_t *)tot->map)[1], 1000000u - T);
    /* Returned values per bin: exactly k*1000 + 0 .. k*1000 + count-1. */
    const uint32_t *o = old->map;
    uint32_t *per = cf_calloc(T, 4);
    for (int k = 0; k < BINS; k++) {
        uint32_t n = 0;
        for (int i = 0; i < T; i++)
            if (x[i] % BINS == (uint32_t)k)
                per[n++] = o[i];
        qsort(per, n, 4, cmp_u32);
        for (uint32_t j = 0; j < n; j++)
            if (per[j] != (uint32_t)k * 1000u + j)
                fail_msg("bin %d: returned values are not a permutation of %u..%u (sorted[%u] = %u)", k, k * 1000u,
                         k * 1000u + n - 1, j, per[j]);
    }
}

CF_TEST(atomic_minmax)
{
    enum { G = 6, T = 100 * G };
    int32_t *x = cf_calloc(T, 4);
    for (int i = 0; i < T; i++)
        x[i] = (int32_t)cf_rand();
    struct cf_buffer *bx = cf_buffer_from(x, T * 4), *m = cf_buffer(32 * 4), *old = cf_buffer(T * 16);
    uint32_t *init = m->map;
    for (int s = 0; s < 8; s++) {
        init[s] = 0xf0000000u + (uint32_t)s; /* umin */
        init[8 + s] = 5u + (uint32_t)s;      /* umax */
        init[16 + s] = 1000 + s;             /* imin */
        init[24 + s] = (uint32_t)(-1000 - s); /* imax */
    }
    uint32_t start[32];
    memcpy(start, init, sizeof(start));
    CF_RUN("atomic_minmax", NULL, 0, G, 1, 1, bx, m, old);
    uint32_t want[32];
    memcpy(want, start, sizeof(want));
    for (int i = 0; i < T; i++) {
        int s = i % 8;
        uint32_t u = (uint32_t)x[i];
        if (u < want[s]) want[s] = u;
        if (u > want[8 + s]) want[8 + s] = u;
        if (x[i] < (int32_t)want[16 + s]) want[16 + s] = (uint32_t)x[i];
        if (x[i] > (int32_t)want[24 + s]) want[24 + s] = (uint32_t)x[i];
    }
    cf_expect_u32(m->map, want, 32, "final min/max (uint min, uint max, int min, int max)");
    /* Each returned value is the slot's value at some point: between the
     * initial and the final value, and the initial value is returned once. */
    const uint32_t *o = old->map;
    for (int s = 0; s < 8; s++) {
        int seen_init[4] = { 0 };
        for (int i = s; i < T; i += 8) {
            const uint32_t *r = &o[i * 4];
            if (r[0] < want[s] || r[0] > start[s])
                fail_msg("atomicMin(uint) returned %u outside [%u, %u]", r[0], want[s], start[s]);
            if (r[1] > want[8 + s] || r[1] < start[8 + s])
                fail_msg("atomicMax(uint) returned %u outside [%u, %u]", r[1], start[8 + s], want[8 + s]);
            if ((int32_t)r[2] < (int32_t)want[16 + s] || (int32_t)r[2] > (int32_t)start[16 + s])
                fail_msg("atomicMin(int) returned %d", (int32_t)r[2]);
            if ((int32_t)r[3] > (int32_t)want[24 + s] || (int32_t)r[3] < (int32_t)start[24 + s])
                fail_msg("atomicMax(int) returned %d", (int32_t)r[3]);
            for (int c = 0; c < 4; c++)
                seen_init[c] += r[c] == start[c * 8 + s];
        }
        for (int c = 0; c < 4; c++)
            if (seen_init[c] < 1)
                fail_msg("slot %d op %d: no invocation saw the initial value", s, c);
    }
}

CF_TEST(atomic_bitwise)
{
    enum { G = 5, T = 64 * G };
    uint32_t *x = rand_u32s(T);
    struct cf_buffer *bx = cf_buffer_from(x, T * 4), *m = cf_buffer(16 * 4), *old = cf_buffer(T * 12);
    uint32_t *init = m->map;
    for (int s = 0; s < 4; s++) {
        init[s] = 0xffffffffu;
        init[4 + s] = 0x1u << s;
        init[8 + s] = 0x12345678u * (uint32_t)(s + 1);
    }
    init[12] = 0xffffffffu;
    init[13] = 0x100u;
    init[14] = 0x5a5a5a5au;
    uint32_t start[16];
    memcpy(start, init, sizeof(start));
    CF_RUN("atomic_bitwise", NULL, 0, G, 1, 1, bx, m, old);
    uint32_t want[16];
    memcpy(want, start, sizeof(want));
    for (uint32_t i = 0; i < T; i++) {
        uint32_t s = i % 4, v = x[i];
        want[s] &= ~(1u << (i % 32)) | (v & 0x0f0f0f0fu);
        want[4 + s] |= v & 0x80402010u;
        want[8 + s] ^= v;
        want[12] &= v | 0x10000000u;
        want[13] |= v & 0x00008001u;
        want[14] ^= v;
    }
    want[15] = 0;
    cf_expect_u32(m->map, want, 16, "final and/or/xor values");
    /* Returned values: and only clears bits, or only sets them, so each
     * returned value lies between the initial and final; for xor, the xor of
     * all returned values with each operand chain is checked per slot by
     * counting: the multiset of returned values has one element per call. */
    const uint32_t *o = old->map;
    for (uint32_t i = 0; i < T; i++) {
        uint32_t s = i % 4;
        if ((o[i * 3] & want[s]) != want[s] || (o[i * 3] | start[s]) != start[s])
            fail_msg("atomicAnd returned 0x%08x: not between 0x%08x and 0x%08x", o[i * 3], start[s], want[s]);
        if ((o[i * 3 + 1] | want[4 + s]) != want[4 + s] || (o[i * 3 + 1] & start[4 + s]) != start[4 + s])
            fail_msg("atomicOr returned 0x%08x: not between 0x%08x and 0x%08x", o[i * 3 + 1], start[4 + s], want[4 + s]);
    }
    /* xor: the returned values, each xored with its operand, give the next
     * value in the chain: so the xor of every (returned ^ operand) and every
     * returned value cancels to start ^ final. */
    for (uint32_t s = 0; s < 4; s++) {
        uint32_t acc = 0;
        for (uint32_t i = s; i < T; i += 4)
            acc ^= o[i * 3 + 2] ^ (o[i * 3 + 2] ^ x[i]);
        if ((acc ^ start[8 + s]) != want[8 + s])
            fail_msg("atomicXor chain of slot %u inconsistent", s);
        /* The initial value is returned exactly once. */
        uint32_t n = 0;
        uint32_t v = start[8 + s];
        for (uint32_t steps = 0; steps < T / 4; steps++) {
            uint32_t found = 0, next = 0;
            for (uint32_t i = s; i < T; i += 4)
                if (o[i * 3 + 2] == v) {
                    found++;
                    next = v ^ x[i];
                }
            if (found == 0)
                break;
            n++;
            v = next;
        }
        if (n != T / 4 || v != want[8 + s])
            fail_msg("atomicXor slot %u: returned values do not chain from the initial to the final value", s);
    }
}

CF_TEST(atomic_exchange)
{
    enum { G = 4, T = 128 * G };
    struct cf_buffer *s = cf_buffer(17 * 4), *old = cf_buffer(T * 8);
    uint32_t *init = s->map;
    for (int k = 0; k < 16; k++)
        init[k] = 7u + (uint32_t)k;
    init[16] = 0;
    CF_RUN("atomic_exchange", NULL, 0, G, 1, 1, s, old);
    const uint32_t *o = old->map, *fin = s->map;
    for (int k = 0; k < 16; k++) {
        /* {returned values of slot k} + {final} == {initial} + {stored values}. */
        uint32_t got[T / 16 + 1], want[T / 16 + 1], n = 0;
        for (int i = k; i < T; i += 16) {
            got[n] = o[i * 2];
            want[n++] = (uint32_t)i + 1000u;
        }
        got[n] = fin[k];
        want[n++] = 7u + (uint32_t)k;
        qsort(got, n, 4, cmp_u32);
        qsort(want, n, 4, cmp_u32);
        char what[48];
        snprintf(what, sizeof(what), "uint exchange values of slot %d", k);
        cf_expect_u32(got, want, n, what);
    }
    uint32_t *got = cf_calloc(T + 1, 4), *want = cf_calloc(T + 1, 4);
    for (int i = 0; i < T; i++) {
        got[i] = o[i * 2 + 1];
        want[i] = (uint32_t)(-i - 1);
    }
    got[T] = fin[16];
    want[T] = 0;
    qsort(got, T + 1, 4, cmp_u32);
    qsort(want, T + 1, 4, cmp_u32);
    cf_expect_u32(got, want, T + 1, "int exchange values");
}

CF_TEST(atomic_compswap)
{
    enum { G = 8, T = 64 * G };
    struct cf_buffer *s = cf_buffer(34 * 4), *won = cf_buffer(T * 4);
    int32_t *w = s->map;
    w[32] = 100;
    w[33] = 50;
    CF_RUN("atomic_compswap", NULL, 0, G, 1, 1, s, won);
    const uint32_t *slots = s->map, *wn = won->map;
    for (uint32_t k = 0; k < 32; k++) {
        uint32_t winners = 0, winner = 0;
        for (uint32_t i = k; i < T; i += 32)
            if (wn[i]) {
                winners++;
                winner = i;
            }
        if (winners != 1)
            fail_msg("slot %u: %u invocations saw 0 from atomicCompSwap", k, winners);
        if (slots[k] != winner + 1)
            fail_msg("slot %u holds %u, but invocation %u won", k, slots[k], winner);
    }
    if (slots[32] != 100u + T)
        fail_msg("compare-and-swap loop counter %u, want %u", slots[32], 100u + T);
    if ((int32_t)slots[33] != 50 - 2 * T)
        fail_msg("signed compare-and-swap loop counter %d, want %d", (int32_t)slots[33], 50 - 2 * T);
}

CF_TEST(atomic_shared)
{
    enum { G = 7, T = 128 * G };
    uint32_t *x = rand_u32s(T);
    for (int i = 0; i < T; i += 3)
        x[i] %= 100u;
    struct cf_buffer *bx = cf_buffer_from(x, T * 4), *bo = cf_buffer(G * 32 * 4), *old = cf_buffer(T * 12);
    CF_RUN("atomic_shared", NULL, 0, G, 1, 1, bx, bo, old);
    const uint32_t *o = bo->map, *od = old->map;
    for (int g = 0; g < G; g++) {
        uint32_t want[31] = { 0 };
        uint32_t umin = 0xffffffffu, umax = 0, uand = 0xffffffffu, uor = 0, uxor = 0;
        int32_t imin = INT32_MAX, imax = INT32_MIN, iadd = -50, iand = -1, ior = 0, ixor = 0;
        for (int l = 0; l < 128; l++) {
            uint32_t v = x[g * 128 + l];
            want[v % 16]++;
            umin = v < umin ? v : umin;
            umax = v > umax ? v : umax;
            imin = (int32_t)v < imin ? (int32_t)v : imin;
            imax = (int32_t)v > imax ? (int32_t)v : imax;
            uand &= v | 0xff00ff00u;
            uor |= v & 0x00ff00ffu;
            uxor ^= v;
            iadd += (int32_t)(v % 201u) - 100;
            iand &= (int32_t)(v | 0x80f0f0f0u);
            ior |= (int32_t)(v & 0x8000000fu);
            ixor ^= (int32_t)v;
        }
        want[16] = umin;
        want[17] = umax;
        want[18] = (uint32_t)imin;
        want[19] = (uint32_t)imax;
        want[20] = uand;
        want[21] = uor;
        want[22] = uxor;
        /* The final exchanged value and the claimed slot are some invocation's. */
        const uint32_t *got = &o[g * 32];
        if (got[23] >= 128)
            fail_msg("workgroup %d: exchange left %u", g, got[23]);
        if (got[24] < 1 || got[24] > 128)
            fail_msg("workgroup %d: compare-and-swap left %u", g, got[24]);
        want[23] = got[23];
        want[24] = got[24];
        want[25] = (uint32_t)iadd;
        want[26] = (uint32_t)iand;
        want[27] = (uint32_t)ior;
        want[28] = (uint32_t)ixor;
        /* int exchange and compare-and-swap: some invocation's -(l + 1). */
        if ((int32_t)got[29] > -1 || (int32_t)got[29] < -128 || (int32_t)got[30] > -1 || (int32_t)got[30] < -128)
            fail_msg("workgroup %d: int exchange / compare-and-swap left %d / %d", g, (int32_t)got[29],
                     (int32_t)got[30]);
        want[29] = got[29];
        want[30] = got[30];
        char what[48];
        snprintf(what, sizeof(what), "workgroup %d shared results", g);
        cf_expect_u32(got, want, 31, what);
        /* Exactly one winner of the int compare-and-swap, and it is the one stored. */
        uint32_t winners = 0, winner = 0;
        for (uint32_t l = 0; l < 128; l++)
            if (od[(g * 128 + l) * 3] & 0x80000000u)
                winners++, winner = l;
        if (winners != 1 || (int32_t)got[30] != -(int32_t)winner - 1)
            fail_msg("workgroup %d: %u winners of the int compare-and-swap (stored %d)", g, winners, (int32_t)got[30]);
        /* int exchange: returned values + final = {-12345} + {-1..-128}. */
        int32_t ix[129];
        for (int l = 0; l < 128; l++)
            ix[l] = (int32_t)od[(g * 128 + l) * 3 + 2];
        ix[128] = (int32_t)got[29];
        uint32_t found_initial = 0;
        uint8_t seen_x[129] = { 0 };
        for (int k = 0; k < 129; k++) {
            if (ix[k] == -12345) {
                found_initial++;
                continue;
            }
            if (ix[k] > -1 || ix[k] < -128 || seen_x[-ix[k]])
                fail_msg("workgroup %d: int exchange values are not a permutation", g);
            seen_x[-ix[k]] = 1;
        }
        if (found_initial != 1)
            fail_msg("workgroup %d: the initial int exchange value came back %u times", g, found_initial);
        /* Histogram returned values: a permutation per bin. */
        for (uint32_t bin = 0; bin < 16; bin++) {
            uint32_t vals[128], n = 0;
            for (int l = 0; l < 128; l++)
                if (x[g * 128 + l] % 16 == bin)
                    vals[n++] = od[(g * 128 + l) * 3] & 0x7fffffffu;
            qsort(vals, n, 4, cmp_u32);
            for (uint32_t j = 0; j < n; j++)
                if (vals[j] != j)
                    fail_msg("workgroup %d bin %u: returned values not 0..%u", g, bin, n - 1);
        }
        /* Exchange: returned values + final = {12345} + {0..127}. */
        uint32_t xs[129];
        for (int l = 0; l < 128; l++)
            xs[l] = od[(g * 128 + l) * 3 + 1];
        xs[128] = got[23];
        qsort(xs, 129, 4, cmp_u32);
        for (uint32_t j = 0; j < 128; j++)
            if (xs[j] != j)
                fail_msg("workgroup %d: exchanged values are not a permutation", g);
        if (xs[128] != 12345u)
            fail_msg("workgroup %d: the initial exchange value was not returned", g);
    }
}

CF_TEST(atomic_int64)
{
    enum { G = 4, T = 64 * G };
    uint64_t *x = cf_calloc(T, 8);
    for (int i = 0; i < T; i++)
        x[i] = ((uint64_t)cf_rand() << 32 | cf_rand()) >> (cf_rand() % 8);
    struct cf_buffer *bx = cf_buffer_from(x, T * 8), *b = cf_buffer(14 * 8), *bo = cf_buffer(G * 8 * 8);
    struct cf_buffer *old = cf_buffer(T * 16);
    uint64_t *init = b->map;
    init[0] = 1;
    init[1] = (uint64_t)-7;
    init[2] = UINT64_MAX;
    init[3] = 0;
    init[4] = (uint64_t)INT64_MAX;
    init[5] = (uint64_t)INT64_MIN;
    init[6] = UINT64_MAX;
    init[7] = 0;
    init[8] = 0x0123456789abcdefull;
    init[9] = 42;
    init[10] = 0;
    init[11] = 5;
    init[12] = (uint64_t)-1;
    init[13] = UINT64_MAX;
    CF_RUN("atomic_int64", NULL, 0, G, 1, 1, bx, b, bo, old);
    uint64_t want[14] = { 1, (uint64_t)-7, UINT64_MAX, 0, (uint64_t)INT64_MAX, (uint64_t)INT64_MIN, UINT64_MAX, 0,
                          0x0123456789abcdefull, 0, 0, 0, 0, UINT64_MAX };
    for (int i = 0; i < T; i++) {
        uint64_t v = x[i];
        want[0] += v;
        want[1] = (uint64_t)((int64_t)want[1] + ((int64_t)v >> 20));
        want[2] = v < want[2] ? v : want[2];
        want[3] = v > want[3] ? v : want[3];
        want[4] = (int64_t)v < (int64_t)want[4] ? v : want[4];
        want[5] = (int64_t)v > (int64_t)want[5] ? v : want[5];
        want[6] &= v | 0xff00000000000000ull;
        want[7] |= v & 0x0000ffff0000ffffull;
        want[8] ^= v;
        want[13] &= v | 0x4000000000000000ull;
    }
    uint64_t *got = b->map;
    if (got[9] != 42 && (got[9] & 0xffffffffu || (got[9] >> 33) >= T))
        fail_msg("64-bit exchange left 0x%llx", (unsigned long long)got[9]);
    want[9] = got[9];
    if ((got[10] >> 32) < 1 || (got[10] >> 32) > T || (got[10] & 0xffffffffu))
        fail_msg("64-bit compare-and-swap left 0x%llx", (unsigned long long)got[10]);
    want[10] = got[10];
    if ((int64_t)got[11] > -1 || (int64_t)got[11] < -T)
        fail_msg("int64 exchange left %lld", (long long)got[11]);
    want[11] = got[11];
    if ((int64_t)got[12] > -2 || (int64_t)got[12] < -T - 1)
        fail_msg("int64 compare-and-swap left %lld", (long long)got[12]);
    want[12] = got[12];
    cf_expect_u64(got, want, 14, "64-bit buffer atomics");
    const uint64_t *o = old->map;
    /* Add: sorted returned values are the prefix sums in some order: check
     * that each returned value plus its addend is another returned value or
     * the final one. */
    uint64_t *ret = cf_calloc(T + 1, 8);
    for (int i = 0; i < T; i++)
        ret[i] = o[i * 2];
    ret[T] = want[0];
    qsort(ret, T + 1, 8, cmp_u64);
    for (int i = 0; i < T; i++) {
        uint64_t next = o[i * 2] + x[i];
        if (!bsearch(&next, ret, T + 1, 8, cmp_u64))
            fail_msg("atomicAdd(uint64) returned 0x%llx, whose successor is nowhere", (unsigned long long)o[i * 2]);
    }
    if (!bsearch(&(uint64_t){ 1 }, ret, T + 1, 8, cmp_u64))
        fail_msg("atomicAdd(uint64): the initial value was never returned");
    /* Exchange: returned + final = {42} + {i << 33}. */
    uint64_t *xs = cf_calloc(T + 1, 8), *wx = cf_calloc(T + 1, 8);
    for (int i = 0; i < T; i++) {
        xs[i] = o[i * 2 + 1];
        wx[i] = (uint64_t)i << 33;
    }
    xs[T] = got[9];
    wx[T] = 42;
    qsort(xs, T + 1, 8, cmp_u64);
    qsort(wx, T + 1, 8, cmp_u64);
    cf_expect_u64(xs, wx, T + 1, "64-bit exchanged values");
    /* Shared. */
    const uint64_t *so = bo->map;
    for (int g = 0; g < G; g++) {
        uint64_t s_add = 0, s_max = 0, s_or = 0, s_and = UINT64_MAX, s_xor = 0, s_umin = UINT64_MAX;
        int64_t s_min = INT64_MAX, s_imax = INT64_MIN;
        for (int l = 0; l < 64; l++) {
            uint64_t v = x[g * 64 + l];
            s_add += v >> 8;
            s_max = v > s_max ? v : s_max;
            s_or |= 1ull << l;
            s_min = (int64_t)v < s_min ? (int64_t)v : s_min;
            s_and &= v | 0x00000000ffff0000ull;
            s_xor ^= v;
            s_umin = v < s_umin ? v : s_umin;
            s_imax = (int64_t)v > s_imax ? (int64_t)v : s_imax;
        }
        uint64_t cas = so[g * 8 + 6] & ~0xffffffffull;
        if ((cas >> 40) < 1 || (cas >> 40) > 64 || (cas & 0xffffffffffull))
            fail_msg("workgroup %d: shared 64-bit compare-and-swap left 0x%llx", g, (unsigned long long)cas);
        uint64_t want_s[8] = { s_add, s_max, s_or, (uint64_t)s_min, so[g * 8 + 4], s_and ^ s_xor,
                               cas | (s_umin & 0xffffffffull), (uint64_t)s_imax };
        if (so[g * 8 + 4] >= 64)
            fail_msg("workgroup %d: shared 64-bit exchange left %llu", g, (unsigned long long)so[g * 8 + 4]);
        char what[48];
        snprintf(what, sizeof(what), "workgroup %d shared 64-bit atomics", g);
        cf_expect_u64(&so[g * 8], want_s, 8, what);
    }
}

CF_TEST(atomic_append)
{
    enum { GX = 3, GY = 2, T = 98 * GX * GY };
    uint32_t *x = rand_u32s(T);
    struct cf_buffer *bx = cf_buffer_from(x, T * 4), *c = cf_buffer(20), *bo = cf_buffer(T * 8);
    memset(bo->map, 0xff, bo->size);
    CF_RUN("atomic_append", NULL, 0, GX, GY, 1, bx, c, bo);
    uint32_t n = 0, sizes[4] = { 0 };
    for (uint32_t i = 0; i < T; i++)
        if (x[i] % 3u) {
            n++;
            sizes[x[i] % 4u] += x[i] & 0xffu;
        }
    const uint32_t *cnt = c->map;
    uint32_t want_c[5] = { n, sizes[0], sizes[1], sizes[2], sizes[3] };
    cf_expect_u32(cnt, want_c, 5, "counters");
    /* The first n items are exactly the selected (index, value) pairs. */
    const uint32_t *items = bo->map;
    uint8_t *seen = cf_calloc(T, 1);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = items[k * 2], v = items[k * 2 + 1];
        if (i >= T || x[i] != v || x[i] % 3u == 0 || seen[i])
            fail_msg("item %u = (%u, %u) is not a new selected element", k, i, v);
        seen[i] = 1;
    }
    for (uint32_t k = n; k < T; k++)
        if (items[k * 2] != 0xffffffffu || items[k * 2 + 1] != 0xffffffffu)
            fail_msg("item %u past the count was written", k);
}
