/* Descriptor types and shapes: uniform buffers, dynamic uniform and storage
 * buffers with dynamic offsets, descriptor arrays, several sets, descriptor
 * updates between submissions. */
#include "cf.h"

CF_TEST_OPT(desc_ubo)
{
    enum { N = 64 * 6 };
    /* std140: transform@0 (64), table@64 (32 x 16), lights@576 (4 x 32:
     * color@0, dir@16, power@28), count@704. */
    float ubo[180];
    memset(ubo, 0, sizeof(ubo));
    for (int k = 0; k < 16 + 128; k++)
        ubo[k] = (float)cf_rand_range(-16, 16) * 0.5f;
    for (int l = 0; l < 4; l++)
        for (int k = 0; k < 8; k++)
            ubo[144 + l * 8 + k] = (float)cf_rand_range(-16, 16) * 0.25f;
    uint32_t count = 3;
    memcpy(&ubo[176], &count, 4);
    uint32_t *keys = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        keys[i] = cf_rand();
    struct cf_buffer *bu = cf_buffer_from(ubo, sizeof(ubo)), *bk = cf_buffer_from(keys, N * 4), *bo = cf_buffer(N * 16);
    struct cf_binding bindings[3] = {
        { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1 }, { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
        { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
    };
    struct cf_pipeline_info info = { .shader = "desc_ubo", .sets = { { 3, bindings } } };
    struct cf_pipeline *p = cf_pipeline_create(&info);
    cf_bind(p, 0, 0, 0, bu, 0, 0);
    cf_bind(p, 0, 1, 0, bk, 0, 0);
    cf_bind(p, 0, 2, 0, bo, 0, 0);
    cf_dispatch(p, NULL, N / 64, 1, 1);
    float *want = cf_calloc(N * 4, 4);
    for (int i = 0; i < N; i++) {
        uint32_t k = keys[i];
        const float *l = &ubo[144 + (k % count) * 8];
        const float *t = &ubo[16 + (k % 32) * 4];
        for (int r = 0; r < 4; r++) {
            float mt = ubo[r] * t[0] + ubo[4 + r] * t[1] + ubo[8 + r] * t[2] + ubo[12 + r] * t[3];
            want[i * 4 + r] = mt + l[r] * l[7] + (r < 3 ? l[4 + r] : 0.0f);
        }
    }
    /* Multiples of 1/16 with few terms: exact. */
    cf_expect_f32(bo->map, want, N * 4, 0, 0, "uniform buffer reads");
}

CF_TEST(desc_dynamic)
{
    enum { ROUNDS = 4, ELEMS = 96 };
    /* Parameters at 256-byte steps (any multiple of 16 is valid), data
     * windows of ELEMS words at 512-byte steps. */
    struct cf_buffer *params = cf_buffer(256 * ROUNDS), *data = cf_buffer(512 * ROUNDS + 512), *lens = cf_buffer(64);
    uint32_t *pw = params->map, *dw = data->map;
    uint32_t *init = cf_calloc(data->size / 4, 4);
    for (uint32_t k = 0; k < data->size / 4; k++)
        init[k] = dw[k] = cf_rand() % 1000u;
    for (uint32_t r = 0; r < ROUNDS; r++) {
        pw[r * 64 + 0] = r + 2;
        pw[r * 64 + 1] = 100 * r;
        pw[r * 64 + 2] = r;
    }
    struct cf_binding bindings[3] = {
        { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1 },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1 },
        { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
    };
    struct cf_pipeline_info info = { .shader = "desc_dynamic", .sets = { { 3, bindings } } };
    struct cf_pipeline *p = cf_pipeline_create(&info);
    cf_bind(p, 0, 0, 0, params, 0, 16);
    cf_bind(p, 0, 1, 0, data, 16, ELEMS * 4); /* static offset 16 plus the dynamic one */
    cf_bind(p, 0, 2, 0, lens, 0, 0);
    VkCommandBuffer cmd = cf_begin();
    /* Rounds 0..3 use windows 0, 1, 2, 3; round 3 again on window 1 after a barrier. */
    const uint32_t order[5][2] = { { 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 3 }, { 1, 1 } };
    for (int r = 0; r < 5; r++) {
        uint32_t offsets[2] = { order[r][0] * 256u, order[r][1] * 512u };
        cf_cmd_bind(cmd, p, NULL, 2, offsets);
        vkCmdDispatch(cmd, ELEMS / 32, 1, 1);
        cf_cmd_compute_barrier(cmd);
    }
    cf_submit(cmd);
    uint32_t *want = init;
    for (int r = 0; r < 5; r++) {
        uint32_t pr = order[r][0], window = (16 + order[r][1] * 512) / 4;
        for (uint32_t i = 0; i < ELEMS; i++)
            want[window + i] = want[window + i] * (pr + 2) + 100 * pr;
    }
    cf_expect_u32(data->map, want, data->size / 4, "dynamic storage windows");
    uint32_t wl[4] = { ELEMS, ELEMS, ELEMS, ELEMS };
    cf_expect_u32(lens->map, wl, 4, "length() through a dynamic storage buffer");
}

CF_TEST(desc_array_ssbo)
{
    enum { G = 10, NB = 5 };
    struct cf_buffer *bufs[NB], *bo = cf_buffer(G * 64 * 4);
    uint32_t counts[NB] = { 64, 10, 0, 63, 33 };
    uint32_t *init[NB];
    struct cf_binding bindings[2] = { { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NB }, { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 } };
    struct cf_pipeline_info info = { .shader = "desc_array_ssbo", .sets = { { 2, bindings } }, .push_size = 4 };
    struct cf_pipeline *p = cf_pipeline_create(&info);
    for (int b = 0; b < NB; b++) {
        uint32_t words = 1 + 256 + 10 * (uint32_t)b;
        bufs[b] = cf_buffer(words * 4);
        uint32_t *w = bufs[b]->map;
        w[0] = counts[b];
        for (uint32_t k = 1; k < words; k++)
            w[k] = (uint32_t)b * 1000u + k;
        init[b] = cf_calloc(words, 4);
        memcpy(init[b], w, words * 4);
        cf_bind(p, 0, 0, (uint32_t)b, bufs[b], 0, 0);
    }
    cf_bind(p, 0, 1, 0, bo, 0, 0);
    uint32_t which = 2;
    cf_dispatch(p, &which, G, 1, 1);
    uint32_t *want = cf_calloc(G * 64, 4);
    for (uint32_t g = 0; g < G; g++)
        for (uint32_t i = 0; i < 64; i++) {
            uint32_t b = g % NB, len = 256 + 10 * b;
            want[g * 64 + i] = (i < counts[b] ? init[b][1 + i] : 0) + len * 1000000u;
        }
    cf_expect_u32(bo->map, want, G * 64, "reads through the descriptor array");
    for (int b = 0; b < NB; b++) {
        uint32_t words = 1 + 256 + 10 * (uint32_t)b;
        if (b == 2)
            for (int i = 0; i < 64; i++)
                init[b][1 + 64 + i] += 1;
        if (b == 3)
            init[b][1 + 200] = 77;
        char what[64];
        snprintf(what, sizeof(what), "bufs[%d] after the writes", b);
        cf_expect_u32(bufs[b]->map, init[b], words, what);
    }
}

CF_TEST(desc_array_ubo)
{
    enum { G = 6 };
    struct cf_buffer *ubos[3], *bo = cf_buffer(G * 32 * 4);
    float data[3][36];
    struct cf_binding bindings[2] = { { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 3 }, { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 } };
    struct cf_pipeline_info info = { .shader = "desc_array_ubo", .sets = { { 2, bindings } }, .push_size = 4 };
    struct cf_pipeline *p = cf_pipeline_create(&info);
    for (int b = 0; b < 3; b++) {
        for (int k = 0; k < 36; k++)
            data[b][k] = (float)cf_rand_range(-32, 32) * 0.25f;
        data[b][32] = (float)(b + 1) * 0.5f;
        ubos[b] = cf_buffer_from(data[b], sizeof(data[b]));
        cf_bind(p, 0, 0, (uint32_t)b, ubos[b], 0, 0);
    }
    cf_bind(p, 0, 1, 0, bo, 0, 0);
    int32_t pick = 2;
    cf_dispatch(p, &pick, G, 1, 1);
    float *want = cf_calloc(G * 32, 4);
    for (int g = 0; g < G; g++)
        for (int i = 0; i < 32; i++) {
            const float *a = &data[g % 3][(i % 8) * 4], *bv = &data[pick][((i + 1) % 8) * 4];
            float d = a[0] * 1.0f + a[1] * 2.0f + a[2] * 3.0f + a[3] * 4.0f;
            want[g * 32 + i] = d * data[g % 3][32] + bv[1];
        }
    cf_expect_f32(bo->map, want, G * 32, 0, 0, "uniform descriptor array reads");
}

CF_TEST(desc_multi_set)
{
    enum { N = 64 * 5 };
    uint32_t *a = cf_calloc(N, 4), *b = cf_calloc(N, 4);
    for (int i = 0; i < N; i++) {
        a[i] = cf_rand();
        b[i] = cf_rand();
    }
    uint32_t k[4] = { 3, 5, 7, 0 };
    struct cf_buffer *ba = cf_buffer_from(a, N * 4), *bb = cf_buffer_from(b, N * 4), *bk = cf_buffer_from(k, 16);
    struct cf_buffer *bo = cf_buffer(N * 4);
    struct cf_binding set0[1] = { { 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 } };
    struct cf_binding set1[2] = { { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1 }, { 7, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 } };
    struct cf_binding set2[1] = { { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 } };
    struct cf_pipeline_info info = {
        .shader = "desc_multi_set",
        .set_count = 3,
        .sets = { { 1, set0 }, { 2, set1 }, { 1, set2 } },
    };
    struct cf_pipeline *p = cf_pipeline_create(&info);
    cf_bind(p, 0, 3, 0, ba, 0, 0);
    cf_bind(p, 1, 0, 0, bk, 0, 0);
    cf_bind(p, 1, 7, 0, bb, 0, 0);
    cf_bind(p, 2, 1, 0, bo, 0, 0);
    cf_dispatch(p, NULL, N / 64, 1, 1);
    uint32_t *want = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        want[i] = a[i] * 3u + b[i] * 5u + 7u;
    cf_expect_u32(bo->map, want, N, "three descriptor sets");
}

CF_TEST(desc_update_between_submits)
{
    enum { N = 64 * 2 };
    struct cf_buffer *in[3], *out[3];
    struct cf_binding set0[1] = { { 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 } };
    struct cf_binding set1[2] = { { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1 }, { 7, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 } };
    struct cf_binding set2[1] = { { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 } };
    struct cf_pipeline_info info = {
        .shader = "desc_multi_set",
        .set_count = 3,
        .sets = { { 1, set0 }, { 2, set1 }, { 1, set2 } },
    };
    struct cf_pipeline *p = cf_pipeline_create(&info);
    uint32_t k[4] = { 1, 0, 0, 0 };
    struct cf_buffer *bk = cf_buffer_from(k, 16), *zero = cf_buffer(N * 4);
    cf_bind(p, 1, 0, 0, bk, 0, 0);
    cf_bind(p, 1, 7, 0, zero, 0, 0);
    for (int r = 0; r < 3; r++) {
        in[r] = cf_buffer(N * 4);
        out[r] = cf_buffer(N * 4);
        uint32_t *w = in[r]->map;
        for (int i = 0; i < N; i++)
            w[i] = (uint32_t)(r * 100000 + i);
        cf_bind(p, 0, 3, 0, in[r], 0, 0);
        cf_bind(p, 2, 1, 0, out[r], 0, 0);
        cf_dispatch(p, NULL, N / 64, 1, 1);
    }
    for (int r = 0; r < 3; r++) {
        char what[32];
        snprintf(what, sizeof(what), "round %d", r);
        cf_expect_u32(out[r]->map, in[r]->map, N, what);
    }
}
