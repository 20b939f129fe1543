/* Workgroups: built-ins over many shapes (spec-constant and literal sizes),
 * barriers and shared memory, specialization constants, dispatch base,
 * indirect dispatch, chains of dependent dispatches. */
#include "cf.h"

static void run_builtins(uint32_t lx, uint32_t ly, uint32_t lz, uint32_t gx, uint32_t gy, uint32_t gz)
{
    uint32_t nx = lx * gx, ny = ly * gy, nz = lz * gz, total = nx * ny * nz;
    struct cf_buffer *bo = cf_buffer((VkDeviceSize)total * 64);
    memset(bo->map, 0xcd, bo->size);
    const uint32_t sizes[3] = { lx, ly, lz };
    struct cf_pipeline *p = cf_pipeline("wg_builtins", 1, 0, cf_spec(3, NULL, sizes));
    cf_bind_all(p, 1, &bo);
    cf_dispatch(p, NULL, gx, gy, gz);
    uint32_t *want = cf_calloc((size_t)total * 16, 4);
    for (uint32_t z = 0; z < nz; z++)
        for (uint32_t y = 0; y < ny; y++)
            for (uint32_t x = 0; x < nx; x++) {
                uint32_t *w = &want[(x + nx * (y + ny * z)) * 16];
                uint32_t l[3] = { x % lx, y % ly, z % lz };
                const uint32_t v[16] = { gx, gy, gz, x / lx, y / ly, z / lz, l[0], l[1], l[2], x, y, z,
                                         l[0] + lx * (l[1] + ly * l[2]), lx, ly, lz };
                memcpy(w, v, 64);
            }
    char what[64];
    snprintf(what, sizeof(what), "built-ins of %ux%ux%u groups of %ux%ux%u", gx, gy, gz, lx, ly, lz);
    cf_expect_u32(bo->map, want, (size_t)total * 16, what);
}

CF_TEST(wg_builtins_1x1x1) { run_builtins(1, 1, 1, 5, 3, 2); }
CF_TEST(wg_builtins_7x1x1) { run_builtins(7, 1, 1, 9, 1, 1); }
CF_TEST(wg_builtins_32x1x1) { run_builtins(32, 1, 1, 4, 2, 1); }
CF_TEST(wg_builtins_8x8x1) { run_builtins(8, 8, 1, 3, 2, 1); }
CF_TEST(wg_builtins_4x4x4) { run_builtins(4, 4, 4, 2, 2, 2); }
CF_TEST(wg_builtins_10x10x1) { run_builtins(10, 10, 1, 2, 1, 3); }
CF_TEST(wg_builtins_3x5x7) { run_builtins(3, 5, 7, 2, 3, 1); }
CF_TEST(wg_builtins_1024x1x1) { run_builtins(1024, 1, 1, 2, 1, 1); }
CF_TEST(wg_builtins_1x1x64) { run_builtins(1, 1, 64, 1, 2, 2); }
CF_TEST(wg_builtins_16x4x2) { run_builtins(16, 4, 2, 1, 3, 2); }
CF_TEST(wg_builtins_5x1x3) { run_builtins(5, 1, 3, 7, 1, 2); }
CF_TEST(wg_builtins_1x100x1) { run_builtins(1, 100, 1, 2, 2, 1); }

CF_TEST(wg_builtins_fixed)
{
    enum { GX = 3, GY = 2, GZ = 4, NX = 6 * GX, NY = 4 * GY, NZ = 2 * GZ, T = NX * NY * NZ };
    struct cf_buffer *bo = cf_buffer(T * 8);
    CF_RUN("wg_builtins_fixed", NULL, 0, GX, GY, GZ, bo);
    uint32_t *want = cf_calloc(T * 2, 4);
    for (uint32_t z = 0; z < NZ; z++)
        for (uint32_t y = 0; y < NY; y++)
            for (uint32_t x = 0; x < NX; x++) {
                uint32_t f = x + NX * (y + NY * z);
                want[f * 2] = 1;
                want[f * 2 + 1] = x / 6 + 100 * (y / 4) + 10000 * (z / 2);
            }
    cf_expect_u32(bo->map, want, T * 2, "consistency of built-ins (1 = consistent), workgroup IDs");
}

CF_TEST_OPT(wg_barrier_reverse)
{
    enum { G = 12, T = 100 * G };
    uint32_t *x = cf_calloc(T, 4);
    for (int i = 0; i < T; i++)
        x[i] = cf_rand() % 100000u;
    struct cf_buffer *bx = cf_buffer_from(x, T * 4), *bo = cf_buffer(T * 8);
    CF_RUN("wg_barrier_reverse", NULL, 0, G, 1, 1, bx, bo);
    uint32_t *want = cf_calloc(T * 2, 4);
    for (int g = 0; g < G; g++) {
        const uint32_t *v = &x[g * 100];
        uint32_t rot = v[0] % 100u, s[100];
        for (int l = 0; l < 100; l++)
            s[(l + rot) % 100] = v[99 - l] * 2u;
        for (int l = 0; l < 100; l++) {
            want[(g * 100 + l) * 2] = v[99 - l];
            want[(g * 100 + l) * 2 + 1] = s[l];
        }
    }
    cf_expect_u32(bo->map, want, T * 2, "shared exchange");
}

CF_TEST_OPT(wg_barrier_loop)
{
    enum { G = 5, T = 128 * G };
    int32_t *x = cf_calloc(T, 4);
    for (int i = 0; i < T; i++)
        x[i] = cf_rand_range(-100000, 100000);
    struct cf_buffer *bx = cf_buffer_from(x, T * 4), *bo = cf_buffer(T * 4);
    const uint32_t steps = 9;
    CF_RUN("wg_barrier_loop", &steps, 4, G, 1, 1, bx, bo);
    int32_t *want = cf_calloc(T, 4);
    for (int g = 0; g < G; g++) {
        int32_t a[128], b[128];
        memcpy(a, &x[g * 128], sizeof(a));
        for (uint32_t k = 0; k < steps; k++) {
            for (int l = 0; l < 128; l++)
                b[l] = (a[(l + 127) % 128] + 2 * a[l] + a[(l + 1) % 128]) / 4 + (int32_t)k;
            for (int l = 0; l < 128; l++)
                a[l] = b[l] - (l % 2 == 0 ? 1 : 0);
        }
        memcpy(&want[g * 128], a, sizeof(a));
    }
    cf_expect_i32(bo->map, want, T, "iterated stencil");
}

CF_TEST_OPT(wg_matmul)
{
    const uint32_t M = 50, N = 70, K = 37;
    float *a = cf_calloc(M * K, 4), *b = cf_calloc(K * N, 4);
    for (uint32_t i = 0; i < M * K; i++)
        a[i] = (float)cf_rand_range(-8, 8) * 0.5f;
    for (uint32_t i = 0; i < K * N; i++)
        b[i] = (float)cf_rand_range(-8, 8) * 0.25f;
    struct cf_buffer *ba = cf_buffer_from(a, M * K * 4), *bb = cf_buffer_from(b, K * N * 4), *bc = cf_buffer(M * N * 4);
    const uint32_t push[3] = { M, N, K };
    CF_RUN("wg_matmul", push, 12, (N + 15) / 16, (M + 15) / 16, 1, ba, bb, bc);
    float *want = cf_calloc(M * N, 4);
    for (uint32_t r = 0; r < M; r++)
        for (uint32_t c = 0; c < N; c++) {
            float s = 0;
            for (uint32_t k = 0; k < K; k++)
                s += a[r * K + k] * b[k * N + c];
            want[r * N + c] = s;
        }
    /* Products are multiples of 1/8 below 2^8: every partial sum is exact. */
    cf_expect_f32(bc->map, want, M * N, 0, 0, "tiled matrix product");
}

CF_TEST_OPT(wg_scan)
{
    enum { G = 4 };
    uint32_t *x = cf_calloc(G * 512, 4);
    for (int i = 0; i < G * 512; i++)
        x[i] = cf_rand() % 1000u;
    struct cf_buffer *bx = cf_buffer_from(x, G * 512 * 4), *bi = cf_buffer(G * 256 * 4), *be = cf_buffer(G * 512 * 4);
    CF_RUN("wg_scan", NULL, 0, G, 1, 1, bx, bi, be);
    uint32_t *wi = cf_calloc(G * 256, 4), *we = cf_calloc(G * 512, 4);
    for (int g = 0; g < G; g++) {
        uint32_t s = 0;
        for (int l = 0; l < 256; l++) {
            s += x[g * 512 + l];
            wi[g * 256 + l] = s;
        }
        s = 0;
        for (int l = 0; l < 512; l++) {
            we[g * 512 + l] = s;
            s += x[g * 512 + l];
        }
    }
    cf_expect_u32(bi->map, wi, G * 256, "Hillis-Steele inclusive scan");
    cf_expect_u32(be->map, we, G * 512, "Blelloch exclusive scan");
}

CF_TEST_OPT(wg_reduce)
{
    enum { G = 3 };
    uint32_t *x = cf_calloc(G * 1024, 4);
    for (int i = 0; i < G * 1024; i++)
        x[i] = cf_rand();
    struct cf_buffer *bx = cf_buffer_from(x, G * 1024 * 4), *bo = cf_buffer(G * 12);
    CF_RUN("wg_reduce", NULL, 0, G, 1, 1, bx, bo);
    uint32_t want[G * 3];
    for (int g = 0; g < G; g++) {
        uint32_t sum = 0, mx = 0;
        float f = 0;
        for (int l = 0; l < 1024; l++) {
            uint32_t v = x[g * 1024 + l];
            sum += v;
            mx = (v ^ 0x5555u) > mx ? (v ^ 0x5555u) : mx;
            f += (float)(v & 0xffu) * 0.5f; /* exact: below 2^18 in halves */
        }
        want[g * 3] = sum;
        want[g * 3 + 1] = mx;
        want[g * 3 + 2] = cf_f32_as_u32(f);
    }
    cf_expect_u32(bo->map, want, G * 3, "reductions (sum, max, float sum bits)");
}

CF_TEST(wg_shared_types)
{
    enum { G = 3, T = 64 * G };
    uint32_t *x = cf_calloc(T, 4);
    for (int i = 0; i < T; i++)
        x[i] = cf_rand() & 0x00ffffffu;
    struct cf_buffer *bx = cf_buffer_from(x, T * 4), *bo = cf_buffer(T * 32);
    CF_RUN("wg_shared_types", NULL, 0, G, 1, 1, bx, bo);
    uint32_t *want = cf_calloc(T * 8, 4);
    for (int g = 0; g < G; g++)
        for (uint32_t l = 0; l < 64; l++) {
            uint32_t p = (l * 37u + 11u) % 64u, v = x[g * 64 + p];
            uint32_t *w = &want[(g * 64 + l) * 8];
            w[0] = v & 0xffu;
            w[1] = (v >> 8) & 0xffffu;
            w[2] = cf_f32_as_u32(cf_f16_to_f32(cf_f32_to_f16((float)(v & 0x3ffu) * 0.25f)));
            w[3] = (uint32_t)((double)v * 0.5 * 2.0) ^ (uint32_t)(((uint64_t)v << 24) >> 24);
            w[4] = cf_f32_as_u32((float)(v & 0xffu) + (float)((v >> 8) & 0xffu) * 256.0f + -1.0f);
            w[5] = v + ((p * 3u) & 0xffu) + p;
            w[6] = cf_f32_as_u32((float)p * (float)(v & 7u) - 2.0f);
            w[7] = (uint32_t)(((uint64_t)v << 24) >> 32);
        }
    cf_expect_u32(bo->map, want, T * 8, "shared variables of many types");
}

CF_TEST(wg_buffer_barrier)
{
    enum { G = 6, T = 64 * G };
    struct cf_buffer *scratch = cf_buffer(T * 4), *bo = cf_buffer(T * 4);
    CF_RUN("wg_buffer_barrier", NULL, 0, G, 1, 1, scratch, bo);
    uint32_t *want = cf_calloc(T, 4);
    for (uint32_t g = 0; g < G; g++) {
        uint32_t v[64], nv[64];
        for (uint32_t l = 0; l < 64; l++)
            v[l] = g * 1000u + l;
        for (uint32_t round = 0; round < 3; round++) {
            for (uint32_t l = 0; l < 64; l++)
                nv[l] = v[(l + 1 + round) % 64] + 1;
            memcpy(v, nv, sizeof(v));
        }
        memcpy(&want[g * 64], v, sizeof(v));
    }
    cf_expect_u32(bo->map, want, T, "values passed through the buffer");
}

static void check_spec_constants(const uint32_t *o, int32_t si, uint32_t su, float sf, uint32_t sb, uint32_t len,
                                 double sd, const char *what)
{
    enum { N = 64 };
    uint32_t want[N * 8];
    for (uint32_t i = 0; i < N; i++) {
        uint32_t sum = 0;
        for (uint32_t k = 0; k < len; k++)
            sum += k * su + i;
        uint32_t *w = &want[i * 8];
        w[0] = (uint32_t)si;
        w[1] = su;
        w[2] = cf_f32_as_u32(sf * (float)i);
        w[3] = sb;
        w[4] = sum;
        w[5] = su * 2u + (uint32_t)si + len;
        w[6] = sb ? 1000u : len;
        w[7] = (uint32_t)(sd * 1000.0);
    }
    cf_expect_u32(o, want, N * 8, what);
}

CF_TEST_OPT(wg_spec_constants)
{
    struct cf_buffer *bo = cf_buffer(64 * 32);
    /* Defaults. */
    CF_RUN("wg_spec_constants", NULL, 0, 2, 1, 1, bo);
    check_spec_constants(bo->map, -3, 7, 1.5f, 0, 4, 0.25, "default values");
    /* Specialized: int, uint, float, bool (VkBool32), length, double. */
    struct {
        int32_t si;
        uint32_t su;
        float sf;
        VkBool32 sb;
        uint32_t len;
        double sd;
    } data = { 100, 3, -0.75f, VK_TRUE, 9, 2.5 };
    VkSpecializationMapEntry entries[6] = {
        { 0, offsetof(__typeof__(data), si), 4 }, { 1, offsetof(__typeof__(data), su), 4 },
        { 2, offsetof(__typeof__(data), sf), 4 }, { 3, offsetof(__typeof__(data), sb), 4 },
        { 4, offsetof(__typeof__(data), len), 4 }, { 5, offsetof(__typeof__(data), sd), 8 },
    };
    VkSpecializationInfo spec = { 6, entries, sizeof(data), &data };
    struct cf_pipeline *p = cf_pipeline("wg_spec_constants", 1, 0, &spec);
    cf_bind_all(p, 1, &bo);
    cf_dispatch(p, NULL, 2, 1, 1);
    check_spec_constants(bo->map, 100, 3, -0.75f, 1, 9, 2.5, "specialized values");
    /* Only some constants specialized (IDs 1 and 4), out of order. */
    uint32_t partial[2] = { 1, 5 };
    const uint32_t ids[2] = { 4, 1 };
    p = cf_pipeline("wg_spec_constants", 1, 0, cf_spec(2, ids, partial));
    cf_bind_all(p, 1, &bo);
    cf_dispatch(p, NULL, 2, 1, 1);
    check_spec_constants(bo->map, -3, 5, 1.5f, 0, 1, 0.25, "partially specialized");
}

static void run_spec_shared(uint32_t size, uint32_t extra, uint32_t groups)
{
    uint32_t T = size * groups;
    uint32_t *x = cf_calloc(T, 4);
    for (uint32_t i = 0; i < T; i++)
        x[i] = cf_rand() % 100000u;
    struct cf_buffer *bx = cf_buffer_from(x, T * 4), *bo = cf_buffer(groups * 12);
    const uint32_t values[2] = { size, extra };
    struct cf_pipeline *p = cf_pipeline("wg_spec_shared", 2, 0, cf_spec(2, NULL, values));
    struct cf_buffer *bufs[2] = { bx, bo };
    cf_bind_all(p, 2, bufs);
    cf_dispatch(p, NULL, groups, 1, 1);
    uint32_t *want = cf_calloc(groups * 3, 4);
    for (uint32_t g = 0; g < groups; g++) {
        uint32_t sum = 0, tsum = 0;
        for (uint32_t l = 0; l < size; l++) {
            sum += x[g * size + l];
            tsum += l;
        }
        for (uint32_t l = 0; l < extra && l < size; l++)
            tsum += 1000u * (l + 1);
        want[g * 3] = sum;
        want[g * 3 + 1] = tsum;
        want[g * 3 + 2] = size + extra;
    }
    char what[64];
    snprintf(what, sizeof(what), "workgroup size %u, extra %u", size, extra);
    cf_expect_u32(bo->map, want, groups * 3, what);
}

CF_TEST(wg_spec_shared)
{
    run_spec_shared(1, 1, 5);
    run_spec_shared(7, 3, 4);
    run_spec_shared(100, 5, 3);
    run_spec_shared(256, 2, 2);
}

CF_TEST(wg_dispatch_base)
{
    const uint32_t lx = 4, ly = 3, lz = 2, base[3] = { 2, 1, 3 }, count[3] = { 3, 2, 2 };
    const uint32_t nx = lx * (base[0] + count[0]), ny = ly * (base[1] + count[1]), nz = lz * (base[2] + count[2]);
    /* The shader's flat index uses gl_NumWorkGroups (the count, without the
     * base): size the buffer for the largest index the base can produce. */
    uint32_t fx = lx * count[0], fy = ly * count[1];
    size_t max_flat = (size_t)(nx - 1) + fx * ((ny - 1) + (size_t)fy * (nz - 1)) + 1;
    struct cf_buffer *bo = cf_buffer(max_flat * 64);
    memset(bo->map, 0xcd, bo->size);
    const uint32_t sizes[3] = { lx, ly, lz };
    struct cf_pipeline_info info = {
        .shader = "wg_builtins",
        .sets = { { 1, NULL } },
        .spec = cf_spec(3, NULL, sizes),
        .flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT,
    };
    struct cf_pipeline *p = cf_pipeline_create(&info);
    cf_bind_all(p, 1, &bo);
    VkCommandBuffer cmd = cf_begin();
    cf_cmd_bind(cmd, p, NULL, 0, NULL);
    vkCmdDispatchBase(cmd, base[0], base[1], base[2], count[0], count[1], count[2]);
    cf_submit(cmd);
    uint32_t *want = cf_calloc(max_flat * 16, 4);
    memset(want, 0xcd, max_flat * 64);
    for (uint32_t z = base[2] * lz; z < nz; z++)
        for (uint32_t y = base[1] * ly; y < ny; y++)
            for (uint32_t x = base[0] * lx; x < nx; x++) {
                uint32_t *w = &want[(x + fx * (y + fy * z)) * 16];
                uint32_t l[3] = { x % lx, y % ly, z % lz };
                const uint32_t v[16] = { count[0], count[1], count[2], x / lx, y / ly, z / lz, l[0], l[1], l[2],
                                         x, y, z, l[0] + lx * (l[1] + ly * l[2]), lx, ly, lz };
                memcpy(w, v, 64);
            }
    cf_expect_u32(bo->map, want, max_flat * 16, "built-ins with a dispatch base");
}

CF_TEST(wg_dispatch_indirect)
{
    /* A first dispatch writes the arguments (at offset 16) and data; a
     * barrier; an indirect dispatch uses both. */
    struct cf_buffer *args = cf_buffer(64), *data = cf_buffer(64 * 4 * 4);
    const uint32_t lx = 5, ly = 2, lz = 1;
    const uint32_t groups[4] = { 3, 2, 2, 0 };
    uint32_t total = lx * groups[0] * ly * groups[1] * lz * groups[2];
    struct cf_buffer *bo = cf_buffer(total * 64);
    struct cf_pipeline *make = cf_pipeline("wg_make_indirect", 2, 16, NULL);
    struct cf_buffer *mb[2] = { args, data };
    cf_bind_all(make, 2, mb);
    const uint32_t sizes[3] = { lx, ly, lz };
    struct cf_pipeline *p = cf_pipeline("wg_builtins", 1, 0, cf_spec(3, NULL, sizes));
    cf_bind_all(p, 1, &bo);
    VkCommandBuffer cmd = cf_begin();
    cf_cmd_dispatch(cmd, make, groups, 4, 1, 1);
    cf_cmd_compute_barrier(cmd); /* includes INDIRECT_COMMAND_READ at DRAW_INDIRECT */
    cf_cmd_bind(cmd, p, NULL, 0, NULL);
    vkCmdDispatchIndirect(cmd, args->buffer, 16);
    cf_cmd_compute_barrier(cmd);
    /* A dispatch of zero workgroups: the arguments at offset 0 are the
     * unwritten (zero) pad words. */
    vkCmdDispatchIndirect(cmd, args->buffer, 0);
    cf_submit(cmd);
    const uint32_t *a = args->map;
    uint32_t want_args[7] = { 0, 0, 0, 0, groups[0], groups[1], groups[2] };
    cf_expect_u32(a, want_args, 7, "indirect arguments written by the first dispatch");
    uint32_t *want_data = cf_calloc(256, 4);
    for (int i = 0; i < 256; i++)
        want_data[i] = (uint32_t)i * 3u;
    cf_expect_u32(data->map, want_data, 256, "data of the first dispatch");
    uint32_t nx = lx * groups[0], ny = ly * groups[1];
    uint32_t *want = cf_calloc(total * 16, 4);
    for (uint32_t z = 0; z < lz * groups[2]; z++)
        for (uint32_t y = 0; y < ny; y++)
            for (uint32_t x = 0; x < nx; x++) {
                uint32_t l[3] = { x % lx, y % ly, z % lz };
                const uint32_t v[16] = { groups[0], groups[1], groups[2], x / lx, y / ly, z / lz, l[0], l[1], l[2],
                                         x, y, z, l[0] + lx * (l[1] + ly * l[2]), lx, ly, lz };
                memcpy(&want[(x + nx * (y + ny * z)) * 16], v, 64);
            }
    cf_expect_u32(bo->map, want, total * 16, "built-ins of the indirect dispatch");
}

CF_TEST(wg_dispatch_chain)
{
    /* Four dependent dispatches ping-ponging between two buffers, with
     * different push constants, then a copy and one more dispatch. */
    enum { N = 1000 };
    uint32_t *x = cf_calloc(N, 4);
    for (int i = 0; i < N; i++)
        x[i] = cf_rand() % 1000u;
    struct cf_buffer *b0 = cf_buffer_from(x, N * 4), *b1 = cf_buffer(N * 4), *b2 = cf_buffer(N * 4);
    struct cf_pipeline *fwd = cf_pipeline("wg_chain_step", 2, 4, NULL);
    struct cf_pipeline *bwd = cf_pipeline("wg_chain_step", 2, 4, NULL);
    struct cf_pipeline *last = cf_pipeline("wg_chain_step", 2, 4, NULL);
    struct cf_buffer *f[2] = { b0, b1 }, *bk[2] = { b1, b0 }, *l[2] = { b2, b1 };
    cf_bind_all(fwd, 2, f);
    cf_bind_all(bwd, 2, bk);
    cf_bind_all(last, 2, l);
    VkCommandBuffer cmd = cf_begin();
    const uint32_t k[5] = { 2, 3, 5, 7, 11 };
    for (int s = 0; s < 4; s++) {
        cf_cmd_dispatch(cmd, s % 2 ? bwd : fwd, &k[s], (N + 31) / 32, 1, 1);
        cf_cmd_compute_barrier(cmd);
    }
    /* Copy b0 -> b2 with a transfer, then b1 = b2 + rev(b2) * 11. */
    VkBufferCopy region = { 0, 0, N * 4 };
    VkMemoryBarrier to_transfer = { VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_SHADER_WRITE_BIT,
                                    VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &to_transfer,
                         0, NULL, 0, NULL);
    vkCmdCopyBuffer(cmd, b0->buffer, b2->buffer, 1, &region);
    VkMemoryBarrier to_compute = { VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_TRANSFER_WRITE_BIT,
                                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &to_compute,
                         0, NULL, 0, NULL);
    cf_cmd_dispatch(cmd, last, &k[4], (N + 31) / 32, 1, 1);
    cf_submit(cmd);
    uint32_t *cur = cf_calloc(N, 4), *nxt = cf_calloc(N, 4);
    memcpy(cur, x, N * 4);
    for (int s = 0; s < 5; s++) {
        for (int i = 0; i < N; i++)
            nxt[i] = cur[i] + cur[N - 1 - i] * k[s];
        memcpy(cur, nxt, N * 4);
    }
    cf_expect_u32(b1->map, cur, N, "result of the chain");
}

CF_TEST(wg_many_groups)
{
    /* 1-invocation workgroups over a large 3D grid, and a zero-sized dispatch. */
    const uint32_t gx = 37, gy = 9, gz = 5, T = gx * gy * gz;
    struct cf_buffer *bo = cf_buffer(T * 64);
    const uint32_t sizes[3] = { 1, 1, 1 };
    struct cf_pipeline *p = cf_pipeline("wg_builtins", 1, 0, cf_spec(3, NULL, sizes));
    cf_bind_all(p, 1, &bo);
    VkCommandBuffer cmd = cf_begin();
    cf_cmd_bind(cmd, p, NULL, 0, NULL);
    vkCmdDispatch(cmd, gx, gy, gz);
    cf_cmd_compute_barrier(cmd);
    vkCmdDispatch(cmd, 0, 4, 4); /* nothing */
    cf_submit(cmd);
    uint32_t *want = cf_calloc(T * 16, 4);
    for (uint32_t z = 0; z < gz; z++)
        for (uint32_t y = 0; y < gy; y++)
            for (uint32_t x = 0; x < gx; x++) {
                const uint32_t v[16] = { gx, gy, gz, x, y, z, 0, 0, 0, x, y, z, 0, 1, 1, 1 };
                memcpy(&want[(x + gx * (y + gy * z)) * 16], v, 64);
            }
    cf_expect_u32(bo->map, want, T * 16, "built-ins of 1665 workgroups");
}

CF_TEST_OPT(wg_barrier_3d)
{
    enum { G = 5, T = 64 * G };
    uint32_t *x = cf_calloc(T, 4);
    for (int i = 0; i < T; i++)
        x[i] = cf_rand() % 1000000u;
    struct cf_buffer *bx = cf_buffer_from(x, T * 4), *bo = cf_buffer(T * 4);
    CF_RUN("wg_barrier_3d", NULL, 0, G, 1, 1, bx, bo);
    uint32_t *want = cf_calloc(T, 4);
    for (uint32_t g = 0; g < G; g++)
        for (uint32_t lz = 0; lz < 4; lz++)
            for (uint32_t ly = 0; ly < 4; ly++)
                for (uint32_t lx = 0; lx < 4; lx++) {
                    const uint32_t *in = &x[g * 64];
                    uint32_t a = in[ly + 4 * lz + 16 * lx];
                    uint32_t a2 = in[lz + 4 * lx + 16 * ly];
                    want[g * 64 + lx + 4 * ly + 16 * lz] = (a2 + 1u) * 2u + a;
                }
    cf_expect_u32(bo->map, want, T, "3D shared transposes");
}

CF_TEST_OPT(wg_barrier_function)
{
    enum { G = 7, T = 48 * G };
    uint32_t *x = cf_calloc(T, 4);
    for (int i = 0; i < T; i++)
        x[i] = cf_rand() % 100000u;
    struct cf_buffer *bx = cf_buffer_from(x, T * 4), *bo = cf_buffer(T * 12);
    CF_RUN("wg_barrier_function", NULL, 0, G, 1, 1, bx, bo);
    uint32_t *want = cf_calloc(T * 3, 4);
    for (uint32_t g = 0; g < G; g++) {
        uint32_t a[48], b[48], nxt[48], odd = 0;
        for (uint32_t l = 0; l < 48; l++) {
            a[l] = x[g * 48 + l];
            odd += a[l] & 1u;
        }
        /* neighbour_sum(v, 2), then neighbour_sum(a ^ 0x55, 3). */
        for (uint32_t r = 0; r < 2; r++) {
            for (uint32_t l = 0; l < 48; l++)
                nxt[l] = a[l] + a[(l + 1 + r) % 48];
            memcpy(a, nxt, sizeof(a));
        }
        for (uint32_t l = 0; l < 48; l++)
            b[l] = a[l] ^ 0x55u;
        for (uint32_t r = 0; r < 3; r++) {
            for (uint32_t l = 0; l < 48; l++)
                nxt[l] = b[l] + b[(l + 1 + r) % 48];
            memcpy(b, nxt, sizeof(b));
        }
        for (uint32_t l = 0; l < 48; l++) {
            want[(g * 48 + l) * 3] = a[l] * 7u + b[l];
            want[(g * 48 + l) * 3 + 1] = x[g * 48 + l] & 1u;
            want[(g * 48 + l) * 3 + 2] = odd;
        }
    }
    cf_expect_u32(bo->map, want, T * 3, "barriers inside functions");
}

static void run_uniform_break(uint32_t extra)
{
    enum { G = 6, T = 64 * G };
    uint32_t *x = cf_calloc(G * 2, 4);
    for (int i = 0; i < G * 2; i++)
        x[i] = cf_rand() | (cf_rand() << 16);
    x[0] = 0xffffffffu; /* one long component: many iterations */
    x[1] = 0x7fffffffu;
    x[2] = 0;           /* no links: one iteration */
    x[3] = 0;
    struct cf_buffer *bx = cf_buffer_from(x, G * 8), *bo = cf_buffer(T * 8);
    CF_RUN("wg_uniform_break", &extra, 4, G, 1, 1, bx, bo);
    uint32_t *want = cf_calloc(T * 2, 4);
    for (uint32_t g = 0; g < G; g++) {
        uint64_t mask = (uint64_t)x[g * 2] | (uint64_t)x[g * 2 + 1] << 32;
        uint32_t label[64], best[64], iterations = 0;
        for (uint32_t l = 0; l < 64; l++)
            label[l] = l;
        for (;;) {
            bool changed = false;
            for (uint32_t l = 0; l < 64; l++) {
                best[l] = label[l];
                if (l < 63 && ((mask >> l) & 1u) && label[l + 1] < best[l])
                    best[l] = label[l + 1];
                if (l > 0 && ((mask >> (l - 1)) & 1u) && label[l - 1] < best[l])
                    best[l] = label[l - 1];
            }
            for (uint32_t l = 0; l < 64; l++) {
                changed |= best[l] != label[l];
                label[l] = best[l];
            }
            iterations++;
            if (!changed)
                break;
        }
        if (extra) {
            for (uint32_t l = 0; l < 64; l++)
                label[l] += extra;
            for (uint32_t l = 0; l < 64; l++)
                best[l] = label[63 - l] + 1;
            memcpy(label, best, sizeof(label));
        }
        for (uint32_t l = 0; l < 64; l++) {
            want[(g * 64 + l) * 2] = label[l];
            want[(g * 64 + l) * 2 + 1] = iterations;
        }
    }
    cf_expect_u32(bo->map, want, T * 2, extra ? "labels (with the uniform branch)" : "labels and iteration counts");
}

CF_TEST_OPT(wg_uniform_break)
{
    run_uniform_break(0);
    run_uniform_break(1000);
}

CF_TEST(wg_shared_limit)
{
    enum { G = 3 };
    struct cf_buffer *bo = cf_buffer(G * 1024 * 4);
    CF_RUN("wg_shared_limit", NULL, 0, G, 1, 1, bo);
    uint32_t *want = cf_calloc(G * 1024, 4);
    for (uint32_t g = 0; g < G; g++)
        for (uint32_t l = 0; l < 1024; l++) {
            uint32_t sum = 0;
            for (uint32_t k = 0; k < 8; k++) {
                uint32_t idx = (l * 8 + k * 977) % 8192, kk = idx / 1024, ll = idx % 1024;
                sum += ll * 8 + kk + g;
            }
            want[g * 1024 + l] = sum;
        }
    cf_expect_u32(bo->map, want, G * 1024, "32 KiB of shared memory");
}

CF_TEST_OPT(wg_barrier_atomics)
{
    enum { G = 4, T = 96 * G };
    uint32_t *x = cf_calloc(T, 4);
    for (int i = 0; i < T; i++)
        x[i] = cf_rand();
    struct cf_buffer *bx = cf_buffer_from(x, T * 4), *bc = cf_buffer(G * 4), *bo = cf_buffer(T * 8);
    CF_RUN("wg_barrier_atomics", NULL, 0, G, 1, 1, bx, bc, bo);
    uint32_t *want = cf_calloc(T * 2, 4), want_c[G];
    for (uint32_t g = 0; g < G; g++) {
        uint32_t count = 0, sum = 0;
        for (uint32_t l = 0; l < 96; l++) {
            count += (l / 16) % 2 == 0;
            for (uint32_t k = 0; k < x[g * 96 + l] % 5u; k++)
                sum += k + 1;
        }
        for (uint32_t l = 0; l < 96; l++) {
            want[(g * 96 + l) * 2] = count;
            want[(g * 96 + l) * 2 + 1] = sum;
        }
        want_c[g] = 6;
    }
    cf_expect_u32(bc->map, want_c, G, "buffer atomics");
    cf_expect_u32(bo->map, want, T * 2, "shared counters seen after the barrier (count, sum)");
}
