/* Subgroup operations (GL_KHR_shader_subgroup_*), against a model of
 * subgroups of W = gl_SubgroupSize lanes: the lane of an invocation is its
 * local index % W, its subgroup local index / W, and the last subgroup of a
 * workgroup is partial when W does not divide the workgroup size.  Every
 * shader runs its operations once converged and once inside
 * `if (lane % 3 != 0)`; results SPIR-V leaves undefined (reading a missing
 * or inactive lane) are not checked.  Each case runs with workgroups of 70
 * and 7 (partial subgroups) and 64 invocations.
 *
 * After the results, each case checks that the device reports
 * subgroupSize == W and the operations the shader uses. */
#include "cf.h"

#define SENTINEL 0xdeadbeefu

enum { GROUPS = 3, MAX_LOCAL = 70 };

struct sg_case {
    uint32_t W, L, K;
    uint32_t total;
    uint32_t *u;
    float *f;
    const uint32_t *out;
    uint32_t *want;
    uint8_t *care;
};

/* One subgroup: lanes 0..n-1 at global indices first..first+n-1. */
struct sg {
    uint32_t first, n, index;
    uint32_t all, divergent;
};

static struct sg subgroup(const struct sg_case *c, uint32_t group, uint32_t index)
{
    struct sg s = { group * c->L + index * c->W, 0, index, 0, 0 };
    s.n = c->L - index * c->W < c->W ? c->L - index * c->W : c->W;
    for (uint32_t l = 0; l < s.n; l++) {
        s.all |= 1u << l;
        if (l % 3 != 0)
            s.divergent |= 1u << l;
    }
    return s;
}

#define FOR_EACH_SUBGROUP(c, s)                                                        \
    for (uint32_t group_ = 0; group_ < GROUPS; group_++)                               \
        for (uint32_t index_ = 0; index_ * (c)->W < (c)->L; index_++)                  \
            for (struct sg s = subgroup((c), group_, index_), *once_ = &s; once_; once_ = NULL)

static void set(struct sg_case *c, const struct sg *s, uint32_t lane, uint32_t slot, uint32_t value)
{
    size_t at = (size_t)(s->first + lane) * c->K + slot;
    c->want[at] = value;
    c->care[at] = 1;
}

static void dont_care(struct sg_case *c, const struct sg *s, uint32_t lane, uint32_t slot)
{
    c->care[(size_t)(s->first + lane) * c->K + slot] = 0;
}

static uint32_t X(const struct sg_case *c, const struct sg *s, uint32_t lane)
{
    return c->u[s->first + lane];
}

static float F(const struct sg_case *c, const struct sg *s, uint32_t lane)
{
    return c->f[s->first + lane];
}

static bool in(uint32_t mask, uint32_t lane)
{
    return lane < 32 && ((mask >> lane) & 1u);
}

static void check(struct sg_case *c, const char *shader)
{
    size_t n = (size_t)c->total * c->K;
    for (size_t i = 0; i < n; i++) {
        if (!c->care[i] || c->out[i] == c->want[i])
            continue;
        uint32_t inv = (uint32_t)(i / c->K), slot = (uint32_t)(i % c->K);
        uint32_t local = inv % c->L;
        size_t bad = 0;
        for (size_t j = i; j < n; j++)
            bad += c->care[j] && c->out[j] != c->want[j];
        fail_msg("%s, W=%u, workgroup size %u: workgroup %u invocation %u (lane %u) slot %u = 0x%x (%d), want 0x%x "
                 "(%d); %zu wrong values",
                 shader, c->W, c->L, inv / c->L, local, local % c->W, slot, c->out[i], (int)c->out[i], c->want[i],
                 (int)c->want[i], bad);
    }
}

static void check_properties(VkSubgroupFeatureFlags needed)
{
    VkPhysicalDeviceSubgroupProperties sp = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES };
    VkPhysicalDeviceProperties2 p = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &sp };
    vkGetPhysicalDeviceProperties2(cf.t->physical_device, &p);
    if (sp.subgroupSize != cf_width())
        fail_msg("results are right, but the device reports subgroupSize %u while shaders run with %u lanes",
                 sp.subgroupSize, cf_width());
    if (!(sp.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) || (sp.supportedOperations & needed) != needed)
        fail_msg("results are right, but the device reports subgroup stages 0x%x, operations 0x%x (needs 0x%x)",
                 sp.supportedStages, sp.supportedOperations, needed);
}

/* Runs `shader` (set 0: u, [f,] out) with workgroup size L. */
static void run(struct sg_case *c, const char *shader, uint32_t L, uint32_t K, bool with_floats)
{
    c->W = cf_width();
    c->L = L;
    c->K = K;
    c->total = L * GROUPS;
    size_t words = (size_t)c->total * K;
    struct cf_buffer *bu = cf_buffer_from(c->u, c->total * 4), *bf = cf_buffer_from(c->f, c->total * 4);
    struct cf_buffer *bo = cf_buffer(words * 4);
    uint32_t *o = bo->map;
    for (size_t i = 0; i < words; i++)
        o[i] = SENTINEL;
    struct cf_pipeline *p = cf_pipeline(shader, with_floats ? 3 : 2, 0, cf_spec(1, NULL, &L));
    cf_bind(p, 0, 0, 0, bu, 0, 0);
    if (with_floats)
        cf_bind(p, 0, 1, 0, bf, 0, 0);
    cf_bind(p, 0, with_floats ? 2 : 1, 0, bo, 0, 0);
    cf_dispatch(p, NULL, GROUPS, 1, 1);
    c->out = o;
    c->want = cf_calloc(words, 4);
    c->care = cf_calloc(words, 1);
    for (size_t i = 0; i < words; i++)
        c->want[i] = SENTINEL;
    memset(c->care, 1, words);
}

/* Values in [0, 1200); every fourth subgroup uniform, every fourth in
 * [300, 400), so votes see both outcomes.  Floats: multiples of 1/64 below 16
 * in magnitude (sums exact in any order). */
static void make_data(struct sg_case *c, uint32_t L)
{
    uint32_t W = cf_width(), total = L * GROUPS;
    c->u = cf_calloc(total, 4);
    c->f = cf_calloc(total, 4);
    for (uint32_t i = 0; i < total; i++) {
        uint32_t sgi = (i % L) / W + (i / L) * 100;
        uint32_t mode = sgi % 4;
        uint32_t r = cf_rand();
        c->u[i] = mode == 1 ? 1000u + sgi % 50u : mode == 2 ? 300u + r % 100u : r % 1200u;
        c->f[i] = (float)((int32_t)(cf_rand() % 2001u) - 1000) / 64.0f;
    }
}

/* Workgroup sizes 70, 64 and 7. */
static const uint32_t sizes[3] = { 70, 64, 7 };
#define SIZES_LOOP(L) for (uint32_t L##_i = 0, L = sizes[0]; L##_i < 3; L##_i++, L = L##_i < 3 ? sizes[L##_i] : 0)

/* --- basic ------------------------------------------------------------------------ */

CF_TEST(sg_basic)
{
    SIZES_LOOP(L)
    {
        struct sg_case c;
        make_data(&c, L);
        run(&c, "sg_basic", L, 16, false);
        uint32_t W = c.W, maskw = W >= 32 ? 0xffffffffu : (1u << W) - 1u;
        FOR_EACH_SUBGROUP(&c, s)
        {
            uint32_t div_count = (uint32_t)__builtin_popcount(s.divergent);
            for (uint32_t lane = 0; lane < s.n; lane++) {
                set(&c, &s, lane, 0, W);
                set(&c, &s, lane, 1, lane);
                set(&c, &s, lane, 2, (L + W - 1) / W);
                set(&c, &s, lane, 3, s.index);
                set(&c, &s, lane, 4, lane == 0);
                set(&c, &s, lane, 5, 1u << lane);
                uint32_t got_masks[4];
                for (int k = 0; k < 4; k++)
                    got_masks[k] = c.out[(size_t)(s.first + lane) * c.K + 6 + k] & maskw;
                uint32_t ge = maskw & ~((1u << lane) - 1u), gt = maskw & ~((2u << lane) - 1u);
                uint32_t le = (2u << lane) - 1u, lt = (1u << lane) - 1u;
                const uint32_t want_masks[4] = { ge, gt, le & maskw, lt };
                for (int k = 0; k < 4; k++)
                    if (got_masks[k] != want_masks[k])
                        fail_msg("W=%u L=%u lane %u: mask %d (Ge, Gt, Le, Lt) = 0x%x within the subgroup, want 0x%x", W,
                                 L, lane, k, got_masks[k], want_masks[k]);
                for (int k = 6; k < 10; k++)
                    dont_care(&c, &s, lane, (uint32_t)k);
                set(&c, &s, lane, 10, 0);
                set(&c, &s, lane, 11, X(&c, &s, (lane + 1) % s.n));
                if (in(s.divergent, lane)) {
                    set(&c, &s, lane, 12, lane == 1);
                    set(&c, &s, lane, 13, div_count);
                }
                if (lane >= W / 2)
                    set(&c, &s, lane, 14, lane == W / 2);
            }
        }
        check(&c, "sg_basic");
    }
    check_properties(VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT);
}

/* --- vote --------------------------------------------------------------------------- */

CF_TEST(sg_vote)
{
    SIZES_LOOP(L)
    {
        struct sg_case c;
        make_data(&c, L);
        run(&c, "sg_vote", L, 12, false);
        FOR_EACH_SUBGROUP(&c, s)
        {
            for (int region = 0; region < 2; region++) {
                uint32_t A = region ? s.divergent : s.all;
                if (!A)
                    continue;
                bool all = true, any = false, eq1 = true, eq2 = true, eq3 = true, eq4 = true;
                uint32_t first = X(&c, &s, (uint32_t)__builtin_ctz(A));
                for (uint32_t l = 0; l < s.n; l++) {
                    if (!in(A, l))
                        continue;
                    uint32_t x = X(&c, &s, l);
                    all &= x < 1000u;
                    any |= x >= 1100u;
                    eq1 &= x / 100u == first / 100u;
                    eq2 &= x / 200u == first / 200u;
                    eq3 &= x / 100u == first / 100u;
                    eq4 &= (x > 600u) == (first > 600u);
                }
                for (uint32_t lane = 0; lane < s.n; lane++) {
                    if (!in(A, lane))
                        continue;
                    const uint32_t v[6] = { all, any, eq1, eq2, eq3, eq4 };
                    for (uint32_t k = 0; k < 6; k++)
                        set(&c, &s, lane, region * 6 + k, v[k]);
                }
            }
        }
        check(&c, "sg_vote");
    }
    check_properties(VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT);
}

/* --- ballot ------------------------------------------------------------------------ */

static void expect_ballots(struct sg_case *c, const struct sg *s, uint32_t A, uint32_t base)
{
    uint32_t bal = 0;
    for (uint32_t l = 0; l < s->n; l++)
        if (in(A, l) && (X(c, s, l) & 1u))
            bal |= 1u << l;
    uint32_t first = X(c, s, (uint32_t)__builtin_ctz(A));
    for (uint32_t lane = 0; lane < s->n; lane++) {
        if (!in(A, lane))
            continue;
        uint32_t x = X(c, s, lane);
        set(c, s, lane, base + 0, bal);
        set(c, s, lane, base + 1, 0);
        set(c, s, lane, base + 2, (x >> lane) & 1u);
        set(c, s, lane, base + 3, (bal >> ((lane + 1) % c->W)) & 1u);
        set(c, s, lane, base + 4, (uint32_t)__builtin_popcount(bal));
        set(c, s, lane, base + 5, (uint32_t)__builtin_popcount(bal & ((2u << lane) - 1u)));
        set(c, s, lane, base + 6, (uint32_t)__builtin_popcount(bal & ((1u << lane) - 1u)));
        set(c, s, lane, base + 7, bal ? (uint32_t)__builtin_ctz(bal) : 999u);
        set(c, s, lane, base + 8, bal ? 31u - (uint32_t)__builtin_clz(bal) : 999u);
        set(c, s, lane, base + 9, first);
        set(c, s, lane, base + 10, cf_f32_as_u32((float)first));
        set(c, s, lane, base + 11, first > 500u);
    }
}

CF_TEST(sg_ballot)
{
    SIZES_LOOP(L)
    {
        struct sg_case c;
        make_data(&c, L);
        run(&c, "sg_ballot", L, 28, false);
        FOR_EACH_SUBGROUP(&c, s)
        {
            expect_ballots(&c, &s, s.all, 0);
            if (s.divergent)
                expect_ballots(&c, &s, s.divergent, 14);
            for (uint32_t lane = 0; lane < s.n; lane++) {
                set(&c, &s, lane, 12, X(&c, &s, 0));
                if (c.W >= 4) {
                    if (s.n > 3)
                        set(&c, &s, lane, 13, X(&c, &s, 3) * 2u);
                    else
                        dont_care(&c, &s, lane, 13);
                }
                if (c.W >= 2 && in(s.divergent, lane))
                    set(&c, &s, lane, 26, X(&c, &s, 1));
            }
        }
        check(&c, "sg_ballot");
    }
    check_properties(VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT);
}

/* --- arithmetic --------------------------------------------------------------------- */

enum sg_op { ADD, MUL, UMIN, UMAX, AND, OR, XOR, SADD, SMUL, SMIN, SMAX };

static uint32_t identity(enum sg_op op)
{
    switch (op) {
    case MUL: case SMUL: return 1;
    case UMIN: case AND: return 0xffffffffu;
    case SMIN: return 0x7fffffffu;
    case SMAX: return 0x80000000u;
    default: return 0;
    }
}

static uint32_t apply(enum sg_op op, uint32_t a, uint32_t b)
{
    switch (op) {
    case ADD: case SADD: return a + b;
    case MUL: case SMUL: return a * b;
    case UMIN: return a < b ? a : b;
    case UMAX: return a > b ? a : b;
    case AND: return a & b;
    case OR: return a | b;
    case XOR: return a ^ b;
    case SMIN: return (int32_t)a < (int32_t)b ? a : b;
    case SMAX: return (int32_t)a > (int32_t)b ? a : b;
    }
    return 0;
}

/* Fold over the lanes of A (all of them, or those <= / < lane). */
enum fold_kind { REDUCE, INCLUSIVE, EXCLUSIVE };

static uint32_t fold(const struct sg *s, uint32_t A, enum fold_kind kind, uint32_t lane, enum sg_op op,
                     uint32_t (*value)(uint32_t x), const struct sg_case *c)
{
    uint32_t acc = identity(op);
    for (uint32_t l = 0; l < s->n; l++) {
        if (!in(A, l))
            continue;
        if ((kind == INCLUSIVE && l > lane) || (kind == EXCLUSIVE && l >= lane))
            continue;
        acc = apply(op, acc, value(X(c, s, l)));
    }
    return acc;
}

static uint32_t v_x(uint32_t x) { return x; }
static uint32_t v_m(uint32_t x) { return x % 3u + 1u; }
static uint32_t v_or_f00(uint32_t x) { return x | 0xf00u; }
static uint32_t v_s(uint32_t x) { return (uint32_t)((int32_t)x - 600); }
static uint32_t v_m2(uint32_t x) { return (uint32_t)((int32_t)(x % 3u + 1u) - 2); }

enum float_op { FADD, FMUL_POW2, FMIN, FMAX };

static float ffold(const struct sg_case *c, const struct sg *s, uint32_t A, enum fold_kind kind, uint32_t lane,
                   enum float_op op)
{
    float acc = op == FADD ? 0.0f : op == FMUL_POW2 ? 1.0f : op == FMIN ? INFINITY : -INFINITY;
    for (uint32_t l = 0; l < s->n; l++) {
        if (!in(A, l) || (kind == INCLUSIVE && l > lane) || (kind == EXCLUSIVE && l >= lane))
            continue;
        float y = op == FMUL_POW2 ? (float)(1u << (X(c, s, l) % 3u)) * 0.5f : F(c, s, l);
        acc = op == FADD ? acc + y : op == FMUL_POW2 ? acc * y : op == FMIN ? fminf(acc, y) : fmaxf(acc, y);
    }
    return acc;
}

static void expect_reductions(struct sg_case *c, const struct sg *s, uint32_t A, uint32_t base)
{
    for (uint32_t lane = 0; lane < s->n; lane++) {
        if (!in(A, lane))
            continue;
        set(c, s, lane, base + 0, fold(s, A, REDUCE, lane, ADD, v_x, c));
        set(c, s, lane, base + 1, fold(s, A, REDUCE, lane, MUL, v_m, c));
        set(c, s, lane, base + 2, fold(s, A, REDUCE, lane, UMIN, v_x, c));
        set(c, s, lane, base + 3, fold(s, A, REDUCE, lane, UMAX, v_x, c));
        set(c, s, lane, base + 4, fold(s, A, REDUCE, lane, AND, v_or_f00, c));
        set(c, s, lane, base + 5, fold(s, A, REDUCE, lane, OR, v_x, c));
        set(c, s, lane, base + 6, fold(s, A, REDUCE, lane, XOR, v_x, c));
        set(c, s, lane, base + 7, fold(s, A, REDUCE, lane, SADD, v_s, c));
        set(c, s, lane, base + 8, fold(s, A, REDUCE, lane, SMUL, v_m2, c));
        set(c, s, lane, base + 9, fold(s, A, REDUCE, lane, SMIN, v_s, c));
        set(c, s, lane, base + 10, fold(s, A, REDUCE, lane, SMAX, v_s, c));
        set(c, s, lane, base + 11, cf_f32_as_u32(ffold(c, s, A, REDUCE, lane, FADD)));
        set(c, s, lane, base + 12, cf_f32_as_u32(ffold(c, s, A, REDUCE, lane, FMUL_POW2)));
        set(c, s, lane, base + 13, cf_f32_as_u32(ffold(c, s, A, REDUCE, lane, FMIN)));
        set(c, s, lane, base + 14, cf_f32_as_u32(ffold(c, s, A, REDUCE, lane, FMAX)));
        set(c, s, lane, base + 15, (uint32_t)__builtin_popcount(A));
    }
}

/* +0.0 and -0.0 are the same sum. */
static void zero_sign_agnostic(struct sg_case *c, uint32_t slot_a, uint32_t slot_b)
{
    for (size_t i = 0; i < c->total; i++)
        for (uint32_t slot = slot_a; slot <= slot_b; slot++) {
            size_t at = i * c->K + slot;
            if ((c->out[at] & 0x7fffffffu) == 0 && (c->want[at] & 0x7fffffffu) == 0)
                c->care[at] = 0;
        }
}

CF_TEST(sg_reduce)
{
    SIZES_LOOP(L)
    {
        struct sg_case c;
        make_data(&c, L);
        run(&c, "sg_reduce", L, 32, true);
        FOR_EACH_SUBGROUP(&c, s)
        {
            expect_reductions(&c, &s, s.all, 0);
            if (s.divergent)
                expect_reductions(&c, &s, s.divergent, 16);
        }
        zero_sign_agnostic(&c, 11, 11);
        zero_sign_agnostic(&c, 27, 27);
        check(&c, "sg_reduce");
    }
    check_properties(VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT);
}

static void expect_scans(struct sg_case *c, const struct sg *s, uint32_t A, uint32_t base)
{
    static const struct { enum sg_op op; uint32_t (*v)(uint32_t); } ops[10] = {
        { ADD, v_x }, { MUL, v_m }, { UMIN, v_x }, { UMAX, v_x }, { AND, v_or_f00 },
        { OR, v_x },  { XOR, v_x }, { SADD, v_s }, { SMIN, v_s }, { SMAX, v_s },
    };
    for (uint32_t lane = 0; lane < s->n; lane++) {
        if (!in(A, lane))
            continue;
        for (uint32_t k = 0; k < 10; k++) {
            set(c, s, lane, base + 2 * k, fold(s, A, INCLUSIVE, lane, ops[k].op, ops[k].v, c));
            set(c, s, lane, base + 2 * k + 1, fold(s, A, EXCLUSIVE, lane, ops[k].op, ops[k].v, c));
        }
        set(c, s, lane, base + 20, cf_f32_as_u32(ffold(c, s, A, INCLUSIVE, lane, FADD)));
        set(c, s, lane, base + 21, cf_f32_as_u32(ffold(c, s, A, EXCLUSIVE, lane, FADD)));
        set(c, s, lane, base + 22, cf_f32_as_u32(ffold(c, s, A, INCLUSIVE, lane, FMIN)));
        set(c, s, lane, base + 23, cf_f32_as_u32(ffold(c, s, A, EXCLUSIVE, lane, FMAX)));
    }
}

CF_TEST(sg_scan)
{
    SIZES_LOOP(L)
    {
        struct sg_case c;
        make_data(&c, L);
        run(&c, "sg_scan", L, 48, true);
        FOR_EACH_SUBGROUP(&c, s)
        {
            expect_scans(&c, &s, s.all, 0);
            if (s.divergent)
                expect_scans(&c, &s, s.divergent, 24);
        }
        zero_sign_agnostic(&c, 20, 21);
        zero_sign_agnostic(&c, 44, 45);
        check(&c, "sg_scan");
    }
    check_properties(VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT);
}

/* Fold over the lanes of A in lane's cluster of `size`. */
static uint32_t cfold(const struct sg_case *c, const struct sg *s, uint32_t A, uint32_t lane, uint32_t size,
                      enum sg_op op, uint32_t (*value)(uint32_t))
{
    uint32_t start = lane / size * size, cluster = 0;
    for (uint32_t l = start; l < start + size && l < 32; l++)
        cluster |= 1u << l;
    return fold(s, A & cluster, REDUCE, lane, op, value, c);
}

static void expect_clusters(struct sg_case *c, const struct sg *s, uint32_t A, uint32_t base)
{
    uint32_t W = c->W;
    for (uint32_t lane = 0; lane < s->n; lane++) {
        if (!in(A, lane))
            continue;
        set(c, s, lane, base + 0, X(c, s, lane));
        if (W >= 2) {
            set(c, s, lane, base + 1, cfold(c, s, A, lane, 2, ADD, v_x));
            set(c, s, lane, base + 2, cfold(c, s, A, lane, 2, UMAX, v_x));
        }
        if (W >= 4) {
            set(c, s, lane, base + 3, cfold(c, s, A, lane, 4, ADD, v_x));
            set(c, s, lane, base + 4, cfold(c, s, A, lane, 4, MUL, v_m));
            set(c, s, lane, base + 5, cfold(c, s, A, lane, 4, UMIN, v_x));
            set(c, s, lane, base + 6, cfold(c, s, A, lane, 4, AND, v_or_f00));
            set(c, s, lane, base + 7, cfold(c, s, A, lane, 4, OR, v_x));
            set(c, s, lane, base + 8, cfold(c, s, A, lane, 4, XOR, v_x));
            set(c, s, lane, base + 9, cfold(c, s, A, lane, 4, SMIN, v_s));
        }
        if (W >= 8)
            set(c, s, lane, base + 10, cfold(c, s, A, lane, 8, ADD, v_x));
        if (W >= 16) {
            uint32_t start = lane / 16 * 16;
            float sum = 0;
            for (uint32_t l = start; l < start + 16 && l < s->n; l++)
                if (in(A, l))
                    sum += (float)X(c, s, l) * 0.25f;
            set(c, s, lane, base + 11, cf_f32_as_u32(sum));
        }
    }
}

CF_TEST(sg_clustered)
{
    SIZES_LOOP(L)
    {
        struct sg_case c;
        make_data(&c, L);
        run(&c, "sg_clustered", L, 24, false);
        FOR_EACH_SUBGROUP(&c, s)
        {
            expect_clusters(&c, &s, s.all, 0);
            if (s.divergent)
                expect_clusters(&c, &s, s.divergent, 12);
        }
        check(&c, "sg_clustered");
    }
    check_properties(VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_CLUSTERED_BIT);
}

/* --- shuffles and quads ------------------------------------------------------------ */

/* Slot gets source lane src's value when src exists and is active. */
static void expect_from(struct sg_case *c, const struct sg *s, uint32_t A, uint32_t lane, uint32_t slot, int64_t src,
                        uint32_t value)
{
    if (src >= 0 && src < (int64_t)s->n && in(A, (uint32_t)src))
        set(c, s, lane, slot, value);
    else
        dont_care(c, s, lane, slot);
}

static void expect_shuffles(struct sg_case *c, const struct sg *s, uint32_t A, uint32_t base)
{
    uint32_t W = c->W;
    for (uint32_t lane = 0; lane < s->n; lane++) {
        if (!in(A, lane))
            continue;
        uint32_t x = X(c, s, lane);
#define FROM(slot, src)                                                                                   \
    do {                                                                                                  \
        int64_t src_ = (src);                                                                             \
        expect_from(c, s, A, lane, base + (slot), src_,                                                   \
                    src_ >= 0 && src_ < (int64_t)s->n ? X(c, s, (uint32_t)src_) : 0);                    \
    } while (0)
        FROM(0, (int64_t)W - 1 - lane);
        FROM(1, x % W);
        FROM(2, lane ^ (1u % W));
        FROM(3, lane ^ ((W - 1) & 6u));
        FROM(4, (int64_t)lane - 1);
        FROM(5, (int64_t)lane - 3);
        FROM(6, lane + 1 < W ? (int64_t)lane + 1 : -1);
        FROM(7, lane + 2 < W ? (int64_t)lane + 2 : -1);
#undef FROM
        expect_from(c, s, A, lane, base + 8, 0, cf_f32_as_u32(-(float)X(c, s, 0)));
        uint32_t xs = lane ^ (1u % W);
        expect_from(c, s, A, lane, base + 9, xs, xs < s->n ? X(c, s, xs) > 500u : 0);
    }
}

CF_TEST(sg_shuffle)
{
    SIZES_LOOP(L)
    {
        struct sg_case c;
        make_data(&c, L);
        run(&c, "sg_shuffle", L, 20, false);
        FOR_EACH_SUBGROUP(&c, s)
        {
            expect_shuffles(&c, &s, s.all, 0);
            if (s.divergent)
                expect_shuffles(&c, &s, s.divergent, 10);
        }
        check(&c, "sg_shuffle");
    }
    check_properties(VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_BIT |
                     VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT);
}

static void expect_quads(struct sg_case *c, const struct sg *s, uint32_t A, uint32_t base)
{
    for (uint32_t lane = 0; lane < s->n; lane++) {
        if (!in(A, lane))
            continue;
        uint32_t q = lane / 4 * 4;
        const uint32_t src[7] = { q, q + 1, q + 2, q + 3, lane ^ 1u, lane ^ 2u, lane ^ 3u };
        for (uint32_t k = 0; k < 7; k++)
            expect_from(c, s, A, lane, base + k, src[k], src[k] < s->n ? X(c, s, src[k]) : 0);
        expect_from(c, s, A, lane, base + 7, lane ^ 3u, (lane ^ 3u) < s->n ? cf_f32_as_u32((float)X(c, s, lane ^ 3u)) : 0);
    }
}

CF_TEST(sg_quad)
{
    if (cf_width() < 4) {
        /* Quad operations need subgroups of at least 4. */
        skip();
    }
    SIZES_LOOP(L)
    {
        struct sg_case c;
        make_data(&c, L);
        run(&c, "sg_quad", L, 16, false);
        FOR_EACH_SUBGROUP(&c, s)
        {
            expect_quads(&c, &s, s.all, 0);
            if (s.divergent)
                expect_quads(&c, &s, s.divergent, 8);
        }
        check(&c, "sg_quad");
    }
    check_properties(VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_QUAD_BIT);
}

/* --- subgroup-driven loops ----------------------------------------------------------- */

CF_TEST(sg_waterfall)
{
    SIZES_LOOP(L)
    {
        struct sg_case c;
        make_data(&c, L);
        run(&c, "sg_waterfall", L, 4, false);
        FOR_EACH_SUBGROUP(&c, s)
        {
            /* Keys are handled in the order of their first lane. */
            int32_t order[5] = { -1, -1, -1, -1, -1 };
            uint32_t next = 0, count[5] = { 0 };
            for (uint32_t l = 0; l < s.n; l++) {
                uint32_t key = X(&c, &s, l) % 5u;
                if (order[key] < 0)
                    order[key] = (int32_t)next++;
                count[key]++;
            }
            for (uint32_t lane = 0; lane < s.n; lane++) {
                uint32_t key = X(&c, &s, lane) % 5u;
                set(&c, &s, lane, 0, (uint32_t)order[key] + 1u);
                set(&c, &s, lane, 1, count[key]);
                dont_care(&c, &s, lane, 2); /* checked below */
                set(&c, &s, lane, 3, 1);
            }
        }
        check(&c, "sg_waterfall");
        /* Turns: a permutation of 0..L-1 per workgroup, increasing with the
         * lane within each subgroup. */
        for (uint32_t g = 0; g < GROUPS; g++) {
            uint8_t seen[MAX_LOCAL] = { 0 };
            for (uint32_t l = 0; l < L; l++) {
                uint32_t turn = c.out[(g * L + l) * 4 + 2];
                if (turn >= L || seen[turn])
                    fail_msg("W=%u L=%u workgroup %u invocation %u: turn %u repeated or out of range", c.W, L, g, l,
                             turn);
                seen[turn] = 1;
                if (l % c.W && c.out[(g * L + l - 1) * 4 + 2] >= turn)
                    fail_msg("W=%u L=%u workgroup %u invocation %u: elected before the lane below it", c.W, L, g, l);
            }
        }
    }
    check_properties(VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT);
}

CF_TEST(sg_loops)
{
    SIZES_LOOP(L)
    {
        struct sg_case c;
        make_data(&c, L);
        run(&c, "sg_loops", L, 12, false);
        FOR_EACH_SUBGROUP(&c, s)
        {
            /* Iteration k runs on the lanes whose trip count exceeds k. */
            for (uint32_t k = 0; k < 6; k++) {
                uint32_t active = 0;
                for (uint32_t l = 0; l < s.n; l++)
                    if (X(&c, &s, l) % 6u > k)
                        active |= 1u << l;
                uint32_t count = (uint32_t)__builtin_popcount(active);
                for (uint32_t l = 0; l < s.n; l++)
                    if (in(active, l))
                        set(&c, &s, l, k, (k + 1) * count * 100u + count);
            }
            uint32_t r = 0, r2 = 0;
            for (uint32_t l = 0; l < s.n; l++)
                if (X(&c, &s, l) % 4u != 0) {
                    r |= 1u << l;
                    if (l % 2 == 0)
                        r2 |= 1u << l;
                }
            uint32_t mx = 0, mn = 0xffffffffu;
            for (uint32_t l = 0; l < s.n; l++) {
                if (in(r, l))
                    mx = X(&c, &s, l) > mx ? X(&c, &s, l) : mx;
                if (in(r2, l))
                    mn = X(&c, &s, l) < mn ? X(&c, &s, l) : mn;
            }
            for (uint32_t l = 0; l < s.n; l++) {
                if (!in(r, l))
                    continue;
                set(&c, &s, l, 6, (uint32_t)__builtin_popcount(r));
                set(&c, &s, l, 7, mx);
                set(&c, &s, l, 8, (uint32_t)__builtin_popcount(r & ((1u << l) - 1u)));
                if (in(r2, l)) {
                    set(&c, &s, l, 9, mn);
                    set(&c, &s, l, 10, (uint32_t)__builtin_ctz(r2));
                }
            }
        }
        check(&c, "sg_loops");
    }
    check_properties(VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT);
}
