/* Buffer memory: dynamic indices, aliasing descriptors, aggregate copies,
 * memory qualifiers, buffer device addresses, robust buffer access. */
#include "cf.h"

static uint32_t *permutation(uint32_t n)
{
    uint32_t *p = cf_calloc(n, 4);
    for (uint32_t i = 0; i < n; i++)
        p[i] = i;
    for (uint32_t i = n - 1; i > 0; i--) {
        uint32_t j = cf_rand() % (i + 1), t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    return p;
}

CF_TEST_OPT(mem_gather_scatter)
{
    enum { N = 128 * 10 };
    uint32_t *x = cf_calloc(N, 4), *rmw = cf_calloc(N * 2, 4);
    uint32_t *perm = permutation(N);
    for (int i = 0; i < N; i++)
        x[i] = cf_rand();
    for (int i = 0; i < N * 2; i++)
        rmw[i] = cf_rand() % 1000u;
    struct cf_buffer *bx = cf_buffer_from(x, N * 4), *bp = cf_buffer_from(perm, N * 4);
    struct cf_buffer *bs = cf_buffer(N * 4), *bg = cf_buffer(N * 4), *br = cf_buffer_from(rmw, N * 8);
    CF_RUN("mem_gather_scatter", NULL, 0, N / 128, 1, 1, bx, bp, bs, bg, br);
    uint32_t *ws = cf_calloc(N, 4), *wg = cf_calloc(N, 4), *wr = cf_calloc(N * 2, 4);
    memcpy(wr, rmw, N * 8);
    for (uint32_t i = 0; i < N; i++) {
        ws[perm[i]] = x[i] * 3u + 1u;
        wg[i] = x[perm[(i * 7u) % N]] ^ perm[i];
        wr[perm[i] * 2 + 1] += rmw[perm[i] * 2] * x[i];
    }
    cf_expect_u32(bs->map, ws, N, "scatter");
    cf_expect_u32(bg->map, wg, N, "gather");
    cf_expect_u32(br->map, wr, N * 2, "read-modify-write");
}

CF_TEST(mem_aliased_bindings)
{
    enum { N = 64 * 4, OFFSET = 4096 };
    struct cf_buffer *b = cf_buffer(OFFSET + N * 4 + 256);
    uint32_t *words = b->map;
    for (int k = 0; k < N; k++)
        words[k] = cf_rand() % 100000u;
    memset(words + N, 0xcd, OFFSET + N * 4 + 256 - N * 4);
    uint32_t *init = cf_calloc(OFFSET / 4 + N + 64, 4);
    memcpy(init, words, b->size);
    struct cf_pipeline *p = cf_pipeline("mem_aliased_bindings", 3, 0, NULL);
    cf_bind(p, 0, 0, 0, b, 0, N * 4);
    cf_bind(p, 0, 1, 0, b, OFFSET, N * 4);
    cf_bind(p, 0, 2, 0, b, 0, N * 4);
    cf_dispatch(p, NULL, N / 64, 1, 1);
    uint32_t *want = init;
    for (int i = 0; i < N; i++)
        want[OFFSET / 4 + i] = init[i] + init[i] * 2u;
    cf_expect_u32(b->map, want, OFFSET / 4 + N + 64, "buffer through two descriptors");
}

CF_TEST_OPT(mem_struct_copy)
{
    enum { N = 32 * 4 };
    uint8_t *in = cf_calloc(N * 48, 1);
    for (int i = 0; i < N; i++) {
        uint8_t *r = in + i * 48;
        uint32_t id = cf_rand() % 100000u;
        float f[6];
        for (int k = 0; k < 6; k++)
            f[k] = (float)cf_rand_range(-100, 100) * 0.5f;
        int32_t cell[2] = { cf_rand_range(-5, 5), cf_rand_range(-5, 5) };
        memcpy(r, &id, 4);
        memset(r + 4, 0xee, 12);
        memcpy(r + 16, f, 12);
        memcpy(r + 28, f + 3, 8);
        memcpy(r + 36, f + 5, 4); /* padding */
        memcpy(r + 40, cell, 8);
    }
    struct cf_buffer *bi = cf_buffer_from(in, N * 48), *bo = cf_buffer(N * 32), *ba = cf_buffer(N * 16);
    CF_RUN("mem_struct_copy", NULL, 0, N / 32, 1, 1, bi, bo, ba);
    uint8_t *want = cf_calloc(N * 32, 1);
    float *wanta = cf_calloc(N * 4, 4);
    for (int i = 0; i < N; i++) {
        const uint8_t *r = in + i * 48;
        uint8_t *w = want + i * 32;
        uint32_t id;
        memcpy(&id, r, 4);
        id += 1000u;
        memcpy(w, &id, 4);
        memcpy(w + 4, r + 16, 12);   /* pos */
        memcpy(w + 16, r + 28, 4);   /* w[0] */
        memcpy(w + 20, r + 20, 4);   /* w[1] = pos.y */
        const uint8_t *other = in + ((i + 1) % N) * 48;
        int32_t ocell;
        memcpy(&ocell, other + 40, 4);
        memcpy(w + 24, ocell > 0 ? other + 40 : r + 40, 8);
        memcpy(&wanta[i * 4], r + 16, 12);
        memcpy(&wanta[i * 4 + 3], r + 28, 4);
    }
    cf_expect_u8(bo->map, want, N * 32, "std430 -> scalar struct copies");
    cf_expect_f32(ba->map, wanta, N * 4, 0, 0, "array stores");
}

CF_TEST(mem_qualifiers)
{
    enum { N = 64 * 3 };
    float *a = cf_calloc(N, 4), *b = cf_calloc(N, 4), *c = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        a[i] = (float)cf_rand_range(-100, 100);
        b[i] = (float)cf_rand_range(-100, 100);
        c[i] = (float)cf_rand_range(-100, 100);
    }
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bb = cf_buffer_from(b, N * 4), *bc = cf_buffer_from(c, N * 4);
    struct cf_buffer *bd = cf_buffer(N * 4);
    CF_RUN("mem_qualifiers", NULL, 0, N / 64, 1, 1, ba, bb, bc, bd);
    float *wb = cf_calloc(N, 4), *wc = cf_calloc(N, 4), *wd = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        wb[i] = b[i] + a[i];
        wc[i] = c[i] * 2.0f + 1.0f;
        wd[i] = wb[i] - wc[i];
    }
    cf_expect_f32(bb->map, wb, N, 0, 0, "coherent");
    cf_expect_f32(bc->map, wc, N, 0, 0, "volatile");
    cf_expect_f32(bd->map, wd, N, 0, 0, "restrict writeonly");
}

/* --- Buffer device addresses ------------------------------------------------- */

CF_TEST(bda_basic)
{
    enum { N = 1000 };
    struct cf_buffer *src = cf_buffer(N * 16 + 64), *dst = cf_buffer(N * 4 + 64);
    float *v = src->map;
    float *orig = cf_calloc(N * 4, 4);
    for (int i = 0; i < N * 4; i++)
        orig[i] = v[i] = (float)cf_rand_range(-1000, 1000) * 0.25f;
    memset(dst->map, 0xcd, dst->size);
    struct {
        uint64_t src, dst, unused;
        uint32_t n, pad;
    } push = { src->address, dst->address, 0, N - 3, 0 };
    struct cf_pipeline *p = cf_pipeline("bda_basic", 0, sizeof(push), NULL);
    cf_dispatch(p, &push, (N + 63) / 64, 1, 1);
    uint32_t *want = cf_calloc(N + 16, 4);
    memset(want, 0xcd, (N + 16) * 4);
    float *wantv = cf_calloc(N * 4, 4);
    memcpy(wantv, orig, N * 16);
    for (int i = 0; i < N - 3; i++) {
        const float *x = &orig[i * 4];
        want[i] = cf_f32_as_u32(x[0] + x[1] + x[2] + x[3]);
        wantv[i * 4 + 3] = -x[3];
    }
    cf_expect_u32(dst->map, want, N + 16, "stores through a pointer");
    cf_expect_f32(src->map, wantv, N * 4, 0, 0, "read-modify-write through a pointer");
}

CF_TEST_OPT(bda_linked_list)
{
    enum { N = 32 * 4, NODES = 600 };
    struct cf_buffer *nodes = cf_buffer(NODES * 16), *heads = cf_buffer(N * 8), *bo = cf_buffer(N * 8);
    uint8_t *mem = nodes->map;
    uint32_t *values = cf_calloc(NODES, 4);
    int32_t *next = cf_calloc(NODES, 4);
    /* Nodes chained in a shuffled order; each head starts somewhere. */
    uint32_t *order = permutation(NODES);
    for (int k = 0; k < NODES; k++) {
        values[k] = cf_rand() % 1000u;
        next[k] = -1;
    }
    for (int k = 0; k + 1 < NODES; k++)
        if ((k + 1) % 37 != 0) /* lists of up to 37 nodes */
            next[order[k]] = (int32_t)order[k + 1];
    for (int k = 0; k < NODES; k++) {
        uint64_t addr = next[k] < 0 ? 0 : nodes->address + (uint64_t)next[k] * 16u;
        memcpy(mem + k * 16, &addr, 8);
        memcpy(mem + k * 16 + 8, &values[k], 4);
    }
    uint64_t *h = heads->map;
    int32_t *start = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        start[i] = i % 10 == 9 ? -1 : (int32_t)(cf_rand() % NODES);
        h[i] = start[i] < 0 ? 0 : nodes->address + (uint64_t)start[i] * 16u;
    }
    CF_RUN("bda_linked_list", NULL, 0, N / 32, 1, 1, heads, bo);
    uint32_t *want = cf_calloc(N * 2, 4);
    for (int i = 0; i < N; i++) {
        uint32_t sum = 0, count = 0;
        for (int32_t k = start[i]; k >= 0; k = next[k]) {
            sum = sum * 3u + values[k];
            count++;
        }
        want[i * 2] = sum;
        want[i * 2 + 1] = count;
    }
    cf_expect_u32(bo->map, want, N * 2, "list sums and lengths");
}

CF_TEST(bda_pointer_math)
{
    enum { G = 3, N = 64 * G };
    struct cf_buffer *data = cf_buffer(N * 4 + 4096), *ptrs = cf_buffer(8 + 8 * 8), *bo = cf_buffer(N * 12);
    uint32_t *words = data->map;
    for (int k = 0; k < N + 1024; k++)
        words[k] = cf_rand();
    uint64_t *pp = ptrs->map;
    pp[0] = data->address + 64; /* base */
    uint32_t pair_word[8];
    for (int k = 0; k < 8; k++) {
        pair_word[k] = 100 + (uint32_t)k * 50; /* 8-byte aligned word offsets */
        pp[1 + k] = data->address + pair_word[k] * 4u;
    }
    struct cf_binding bindings[2] = { { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 }, { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 } };
    struct cf_pipeline_info info = { .shader = "bda_pointer_math", .sets = { { 2, bindings } } };
    struct cf_pipeline *p = cf_pipeline_create(&info);
    cf_bind(p, 0, 0, 0, ptrs, 0, 0);
    cf_bind(p, 0, 1, 0, bo, 0, 0);
    cf_dispatch(p, NULL, G, 1, 1);
    uint32_t *want = cf_calloc(N * 3, 4);
    for (int i = 0; i < N; i++) {
        uint32_t w = pair_word[i % 8];
        want[i * 3] = words[16 + i];
        want[i * 3 + 1] = words[w] + words[w + 1];
        want[i * 3 + 2] = words[w + 2];
    }
    cf_expect_u32(bo->map, want, N * 3, "pointer arithmetic");
}

CF_TEST(bda_struct)
{
    enum { N = 250 };
    struct cf_buffer *bodies = cf_buffer(4 + 300 * 28), *ind = cf_buffer(16);
    uint8_t *mem = bodies->map;
    uint32_t count = N;
    memcpy(mem, &count, 4);
    float *init = cf_calloc(300 * 7, 4);
    for (int k = 0; k < 300 * 7; k++)
        init[k] = (float)cf_rand_range(-64, 64) * 0.25f;
    memcpy(mem + 4, init, 300 * 28);
    memcpy(ind->map, &bodies->address, 8);
    struct { uint64_t ind; float dt; uint32_t pad; } push = { ind->address, 0.5f, 0 };
    struct cf_pipeline *p = cf_pipeline("bda_struct", 0, sizeof(push), NULL);
    cf_dispatch(p, &push, 3, 1, 1);
    float *want = cf_calloc(300 * 7, 4);
    memcpy(want, init, 300 * 28);
    for (int i = 0; i < N; i++) {
        float *b = &want[i * 7];
        b[4] += -1.0f * 0.5f;
        for (int k = 0; k < 3; k++)
            b[k] += b[3 + k] * 0.5f;
        b[6] *= 0.5f;
    }
    cf_expect_f32((const float *)(mem + 4), want, 300 * 7, 0, 0, "bodies updated through a pointer to a pointer");
}

CF_TEST(bda_atomics)
{
    enum { G = 6, T = 64 * G };
    uint32_t *x = cf_calloc(T, 4);
    for (int i = 0; i < T; i++)
        x[i] = cf_rand() % 100000u;
    struct cf_buffer *bx = cf_buffer_from(x, T * 4), *ca = cf_buffer(72), *cb = cf_buffer(72 + 64);
    struct { uint64_t a, b; } push = { ca->address, cb->address + 64 };
    struct cf_pipeline *p = cf_pipeline("bda_atomics", 1, sizeof(push), NULL);
    cf_bind_all(p, 1, &bx);
    cf_dispatch(p, &push, G, 1, 1);
    uint32_t want[2][18] = { { 0 } };
    for (int i = 0; i < T; i++) {
        uint32_t *w = want[x[i] & 1u];
        w[2 + x[i] % 16u]++;
        w[0] = x[i] > w[0] ? x[i] : w[0];
        w[1] = (uint32_t)((int32_t)w[1] + (int32_t)(x[i] % 100u) - 50);
    }
    cf_expect_u32(ca->map, want[0], 18, "counters reached through pointer a");
    cf_expect_u32((const uint32_t *)((const uint8_t *)cb->map + 64), want[1], 18, "counters reached through pointer b");
}

/* --- Robust buffer access -------------------------------------------------------- */

static bool contains(const uint32_t *values, size_t n, uint32_t v)
{
    for (size_t i = 0; i < n; i++)
        if (values[i] == v)
            return true;
    return false;
}

CF_TEST(robust_load)
{
    enum { G = 4, T = 64 * G, S_LEN = 50, U_LEN = 16, V_BYTES = 100 };
    /* Values are distinct and nonzero, so "in range" is checkable. */
    struct cf_buffer *bs = cf_buffer(4096), *bu = cf_buffer(4096), *bv = cf_buffer(4096), *bo = cf_buffer(T * 24);
    uint32_t *s = bs->map, *u = bu->map, *v = bv->map;
    for (uint32_t k = 0; k < 1024; k++) {
        s[k] = 0x10000u + k;
        u[k] = 0x20000u + k;
        v[k] = 0x30000u + k;
    }
    struct cf_binding bindings[4] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 }, { 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1 },
        { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 }, { 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
    };
    struct cf_pipeline_info info = { .shader = "robust_load", .sets = { { 4, bindings } } };
    struct cf_pipeline *p = cf_pipeline_create(&info);
    /* Ranges start at offsets, so "past the range" is still inside the buffer. */
    cf_bind(p, 0, 0, 0, bs, 256, S_LEN * 4);
    cf_bind(p, 0, 1, 0, bu, 512, U_LEN * 16);
    cf_bind(p, 0, 2, 0, bv, 1024, V_BYTES);
    cf_bind(p, 0, 3, 0, bo, 0, 0);
    cf_dispatch(p, NULL, G, 1, 1);
    const uint32_t *o = bo->map;
    const uint32_t *s_in = s + 64, *u_in = u + 128, *v_in = v + 256;
    for (uint32_t i = 0; i < T; i++) {
        const uint32_t *r = &o[i * 6];
        if (i < S_LEN) {
            if (r[0] != s_in[i])
                fail_msg("s[%u] in range: got 0x%x, want 0x%x", i, r[0], s_in[i]);
        } else if (r[0] && !contains(s_in, S_LEN, r[0]))
            fail_msg("s[%u] past the range read 0x%x: neither zero nor a value in range", i, r[0]);
        uint32_t k = i % 64;
        for (int c = 0; c < 2; c++) {
            uint32_t got = r[1 + c], comp = c ? 3 : 0;
            if (k < U_LEN) {
                if (got != u_in[k * 4 + comp])
                    fail_msg("u[%u] in range: got 0x%x, want 0x%x", k, got, u_in[k * 4 + comp]);
            } else if (got && !contains(u_in, U_LEN * 4, got))
                fail_msg("uniform u[%u] past the range read 0x%x", k, got);
        }
        uint32_t e = i / 2;
        for (int c = 0; c < 2; c++) {
            uint32_t got = r[3 + c], word = e * 4 + (c ? 3 : 0);
            if ((e + 1) * 16 <= V_BYTES) {
                if (got != v_in[word])
                    fail_msg("s4[%u] in range: got 0x%x, want 0x%x", e, got, v_in[word]);
            } else if (got && !contains(v_in, V_BYTES / 4, got))
                fail_msg("s4[%u] (past or straddling the end) read 0x%x", e, got);
        }
        if (i > 0 && r[5] && !contains(s_in, S_LEN, r[5]))
            fail_msg("s[%u * 1000003] read 0x%x", i, r[5]);
        if (i == 0 && r[5] != s_in[0])
            fail_msg("s[0] read 0x%x", r[5]);
    }
}

CF_TEST(robust_store)
{
    enum { G = 8, T = 32 * G, S_LEN = 37, V_BYTES = 136, A_LEN = 50 };
    struct cf_buffer *bs = cf_buffer(2048), *bv = cf_buffer(2048), *ba = cf_buffer(2048), *bi = cf_buffer(T * 4);
    memset(bs->map, 0xcd, 2048);
    memset(bv->map, 0xcd, 2048);
    memset(ba->map, 0, 2048);
    uint8_t *guard_a = ba->map;
    memset(guard_a, 0xcd, 2048);
    memset(guard_a + 512, 0, A_LEN * 4);
    struct cf_pipeline *p = cf_pipeline("robust_store", 4, 0, NULL);
    cf_bind(p, 0, 0, 0, bs, 256, S_LEN * 4);
    cf_bind(p, 0, 1, 0, bv, 512, V_BYTES);
    cf_bind(p, 0, 2, 0, ba, 512, A_LEN * 4);
    cf_bind(p, 0, 3, 0, bi, 0, 0);
    cf_dispatch(p, NULL, G, 1, 1);
    cf_expect_guard(bs, 256, 256 + S_LEN * 4, 0xcd, "scalar stores past the range");
    cf_expect_guard(bv, 512, 512 + V_BYTES, 0xcd, "vector stores past (and straddling) the range");
    cf_expect_guard(ba, 512, 512 + A_LEN * 4, 0xcd, "atomics past the range");
    /* In range: each element holds a value some store wrote (stores past
     * the range may land inside it). */
    const uint32_t *s = (const uint32_t *)((const uint8_t *)bs->map + 256);
    for (uint32_t k = 0; k < S_LEN; k++)
        if (s[k] != k + 1 && s[k] != 7 && !(s[k] >= 1 && s[k] <= T))
            fail_msg("s[%u] = 0x%x: written by no store", k, s[k]);
    const uint32_t *v = (const uint32_t *)((const uint8_t *)bv->map + 512);
    for (uint32_t k = 0; k < V_BYTES / 16; k++)
        for (uint32_t c = 0; c < 4; c++)
            if (v[k * 4 + c] % (c + 1) != 0 || v[k * 4 + c] / (c + 1) >= T)
                fail_msg("v[%u].%u = 0x%x: written by no store", k, c, v[k * 4 + c]);
    const uint32_t *a = (const uint32_t *)((const uint8_t *)ba->map + 512);
    for (uint32_t k = 0; k < A_LEN; k++) {
        uint32_t count = 0;
        for (uint32_t i = 0; i < T; i++)
            count += i % 200 == k;
        if (a[k] < count)
            fail_msg("a[%u] = %u after %u atomicAdd in range", k, a[k], count);
    }
    uint32_t *want = cf_calloc(T, 4);
    for (uint32_t i = 0; i < T; i++)
        want[i] = i * 5u;
    cf_expect_u32(bi->map, want, T, "in-bounds stores of the same invocations");
}

CF_TEST(robust_struct)
{
    enum { G = 2, T = 16 * G, RANGE = 16 + 32 * 9 + 20 }; /* 9 whole elements and 20 bytes of a 10th */
    struct cf_buffer *b = cf_buffer(1024);
    memset(b->map, 0xcd, 1024);
    struct cf_pipeline *p = cf_pipeline("robust_struct", 1, 0, NULL);
    cf_bind(p, 0, 0, 0, b, 256, RANGE);
    cf_dispatch(p, NULL, G, 1, 1);
    cf_expect_guard(b, 256, 256 + RANGE, 0xcd, "struct stores past the range");
    const uint32_t *w = (const uint32_t *)((const uint8_t *)b->map + 256);
    if (w[0] != 9)
        fail_msg("e.length() = %u, want 9", w[0]);
    for (uint32_t i = 0; i < 9; i++) {
        const uint32_t *e = w + 4 + i * 8;
        /* Element i's a, b and d; stores past the range could only rewrite
         * them with the values other invocations wrote. */
        if (e[1] != 9 || e[4] - e[0] != 1 || e[7] - e[0] != 4 || e[0] >= T)
            fail_msg("e[%u] = {%u, %u, d = %u..%u}", i, e[0], e[1], e[4], e[7]);
    }
}
