/* Unit tests of the subgroup (GroupNonUniform) instructions: GLSL shaders
 * using GL_KHR_shader_subgroup_* run directly through the generated function
 * for every subgroup width, against a CPU model of the subgroups.
 *
 * The model: a workgroup of LOCAL invocations is cut into subgroups of W
 * lanes (lane = local index % W, subgroup = local index / W; the last one
 * is partial when W does not divide LOCAL).  The shaders write per
 * invocation results into a buffer of STRIDE words per invocation, once in
 * converged control flow and once inside `if (lane % 3 != 0)`; words that
 * an invocation does not write keep the SENTINEL.  Results SPIR-V leaves
 * undefined (a shuffle reading an inactive or missing lane) are not checked
 * beyond "no crash". */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <cmocka.h>

#include "compiler_harness.h"

static const unsigned widths[] = { 1, 4, 8, 16 };

enum { LOCAL = 70, GROUPS = 3, TOTAL = LOCAL * GROUPS };
#define SENTINEL 0xdeadbeefu

/* --- Data and running ------------------------------------------------------ */

static uint32_t data_u[TOTAL];
static float data_f[TOTAL];

static uint32_t next_random(uint32_t *seed)
{
    *seed = *seed * 1664525u + 1013904223u;
    return *seed >> 8;
}

/* Workgroup 1 has even values below 900 (so that All and AllEqual find
 * uniform subgroups); the others range over [0, 1200).  Floats are
 * multiples of 1/64 below 16 in magnitude, so sums of up to 16 are exact in
 * any order. */
static void make_data(void)
{
    uint32_t seed = 12345;
    for (unsigned i = 0; i < TOTAL; i++) {
        uint32_t v = next_random(&seed);
        data_u[i] = i / LOCAL == 1 ? (v % 450u) * 2u : v % 1200u;
        data_f[i] = (float)((int)(next_random(&seed) % 2001u) - 1000) / 64.0f;
    }
}

struct run {
    const char *shader;
    unsigned width;
    unsigned stride;
    uint32_t *out;
};

static void run_shader(struct run *r)
{
    struct vkmm_compiled_shader shader;
    char error[512];
    if (compile_named(r->shader, r->width, 3, &shader, error, sizeof(error)) != 0)
        fail_msg("%s W=%u: compile failed: %s", r->shader, r->width, error);
    assert_int_equal(shader.local_size[0], LOCAL);
    size_t words = (size_t)TOTAL * r->stride;
    r->out = malloc(words * 4);
    for (size_t i = 0; i < words; i++)
        r->out[i] = SENTINEL;
    struct vkmm_descriptor set[3] = {
        { .base = (uint8_t *)data_u, .range = sizeof(data_u) },
        { .base = (uint8_t *)data_f, .range = sizeof(data_f) },
        { .base = (uint8_t *)r->out, .range = words * 4 },
    };
    run_workgroups(&shader, set, NULL, GROUPS, 1, 1);
    vkmm_compiled_shader_free(&shader);
}

/* One subgroup of the model. */
struct sg {
    const struct run *run;
    unsigned group;   /* workgroup */
    unsigned w;       /* width */
    unsigned n;       /* lanes that exist */
    unsigned first;   /* global index of lane 0 */
    uint32_t all;     /* mask of existing lanes */
    uint32_t divergent; /* lanes inside `if (lane % 3 != 0)` */
};

static struct sg subgroup_of(const struct run *r, unsigned group, unsigned index)
{
    struct sg s = { r, group, r->width, 0, group * LOCAL + index * r->width, 0, 0 };
    s.n = LOCAL - index * r->width < r->width ? LOCAL - index * r->width : r->width;
    s.all = (1u << s.n) - 1u;
    for (unsigned l = 0; l < s.n; l++)
        if (l % 3 != 0)
            s.divergent |= 1u << l;
    return s;
}

#define FOR_EACH_SUBGROUP(r, s)                                                            \
    for (unsigned group_ = 0; group_ < GROUPS; group_++)                                   \
        for (unsigned index_ = 0; index_ * (r)->width < LOCAL; index_++)                   \
            for (struct sg s = subgroup_of((r), group_, index_), *once_ = &s; once_; once_ = NULL)

static uint32_t X(const struct sg *s, unsigned lane)
{
    return data_u[s->first + lane];
}

static float F(const struct sg *s, unsigned lane)
{
    return data_f[s->first + lane];
}

static uint32_t got(const struct sg *s, unsigned lane, unsigned slot)
{
    return s->run->out[(size_t)(s->first + lane) * s->run->stride + slot];
}

static void expect_u32(const struct sg *s, unsigned lane, unsigned slot, uint32_t expected, int line)
{
    uint32_t value = got(s, lane, slot);
    if (value != expected)
        fail_msg("%s W=%u: workgroup %u invocation %u (lane %u) slot %u = 0x%x (%d), expected 0x%x (%d) [line %d]",
                 s->run->shader, s->w, s->group, s->first + lane - s->group * LOCAL, lane, slot, value, (int)value,
                 expected, (int)expected, line);
}

static uint32_t float_bits(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return bits;
}

static void expect_near(const struct sg *s, unsigned lane, unsigned slot, double expected, int line)
{
    uint32_t bits = got(s, lane, slot);
    float value;
    memcpy(&value, &bits, 4);
    bool ok = isinf(expected) ? value == expected : fabs(value - expected) <= 1e-5 * fmax(1.0, fabs(expected));
    if (!ok)
        fail_msg("%s W=%u: workgroup %u invocation %u (lane %u) slot %u = %.9g, expected %.9g [line %d]",
                 s->run->shader, s->w, s->group, s->first + lane - s->group * LOCAL, lane, slot, value, expected,
                 line);
}

#define EXPECT(s, lane, slot, expected) expect_u32((s), (lane), (slot), (uint32_t)(expected), __LINE__)
#define EXPECT_NEAR(s, lane, slot, expected) expect_near((s), (lane), (slot), (expected), __LINE__)

/* Words [from, to) of an invocation that did not run a region. */
static void expect_untouched(const struct sg *s, unsigned lane, unsigned from, unsigned to)
{
    for (unsigned slot = from; slot < to; slot++)
        EXPECT(s, lane, slot, SENTINEL);
}

static void expect_header(const struct sg *s, unsigned lane)
{
    EXPECT(s, lane, 0, s->w);
    EXPECT(s, lane, 1, lane);
}

/* Lanes of `among` whose value satisfies a predicate. */
#define LANES_WHERE(s, among, predicate)                                  \
    ({                                                                    \
        uint32_t mask_ = 0;                                               \
        for (unsigned l = 0; l < (s)->n; l++) {                           \
            uint32_t x = X((s), l);                                       \
            (void)x;                                                      \
            if (((among) >> l & 1u) && (predicate))                       \
                mask_ |= 1u << l;                                         \
        }                                                                 \
        mask_;                                                            \
    })

static bool is_set(uint32_t mask, unsigned lane)
{
    return lane < 32 && (mask >> lane & 1u);
}

static unsigned lowest(uint32_t mask)
{
    return (unsigned)__builtin_ctz(mask);
}

/* --- Reference folds ------------------------------------------------------- */

enum op { OP_ADD, OP_MUL, OP_UMIN, OP_UMAX, OP_SMIN, OP_SMAX, OP_AND, OP_OR, OP_XOR };
enum fop { FOP_ADD, FOP_MUL, FOP_MIN, FOP_MAX };
enum kind { REDUCE, INCLUSIVE, EXCLUSIVE };

static int64_t sext(uint64_t v, unsigned bits)
{
    return bits == 64 ? (int64_t)v : (int64_t)(int32_t)(uint32_t)v;
}

static uint64_t narrow(uint64_t v, unsigned bits)
{
    return bits == 64 ? v : v & 0xffffffffu;
}

static uint64_t identity(enum op op, unsigned bits)
{
    switch (op) {
    case OP_MUL: return 1;
    case OP_UMIN:
    case OP_AND: return narrow(~0ull, bits);
    case OP_SMIN: return narrow(bits == 64 ? INT64_MAX : INT32_MAX, bits);
    case OP_SMAX: return narrow(bits == 64 ? (uint64_t)INT64_MIN : (uint64_t)(uint32_t)INT32_MIN, bits);
    default: return 0;
    }
}

static uint64_t apply(enum op op, uint64_t a, uint64_t b, unsigned bits)
{
    switch (op) {
    case OP_ADD: return narrow(a + b, bits);
    case OP_MUL: return narrow(a * b, bits);
    case OP_UMIN: return a < b ? a : b;
    case OP_UMAX: return a > b ? a : b;
    case OP_SMIN: return sext(a, bits) < sext(b, bits) ? a : b;
    case OP_SMAX: return sext(a, bits) > sext(b, bits) ? a : b;
    case OP_AND: return a & b;
    case OP_OR: return a | b;
    default: return a ^ b;
    }
}

/* Fold over the lanes [lo, hi) of `active`. */
static uint64_t fold(enum op op, unsigned bits, const uint64_t *v, uint32_t active, unsigned lo, unsigned hi)
{
    uint64_t result = identity(op, bits);
    for (unsigned l = lo; l < hi; l++)
        if (is_set(active, l))
            result = apply(op, result, narrow(v[l], bits), bits);
    return result;
}

static double ffold(enum fop op, const float *v, uint32_t active, unsigned lo, unsigned hi)
{
    double result = op == FOP_ADD ? 0.0 : op == FOP_MUL ? 1.0 : op == FOP_MIN ? INFINITY : -INFINITY;
    for (unsigned l = lo; l < hi; l++) {
        if (!is_set(active, l))
            continue;
        switch (op) {
        case FOP_ADD: result += v[l]; break;
        case FOP_MUL: result *= v[l]; break;
        case FOP_MIN: result = fmin(result, v[l]); break;
        case FOP_MAX: result = fmax(result, v[l]); break;
        }
    }
    return result;
}

/* The lanes a reduction or scan of `lane` covers. */
static void range_of(enum kind kind, unsigned lane, unsigned w, unsigned *lo, unsigned *hi)
{
    *lo = 0;
    *hi = kind == REDUCE ? w : kind == INCLUSIVE ? lane + 1 : lane;
}

static void cluster_range(unsigned cluster, unsigned lane, unsigned w, unsigned *lo, unsigned *hi)
{
    /* vkmm reduces over the whole subgroup when the cluster is wider
     * (undefined behaviour in SPIR-V). */
    if (cluster > w)
        cluster = w;
    *lo = lane & ~(cluster - 1);
    *hi = *lo + cluster;
}

/* Source lane of a permutation: its value when defined (an active lane of
 * the subgroup), otherwise nothing is checked. */
static bool source_ok(const struct sg *s, uint32_t active, uint32_t source)
{
    return source < s->w && is_set(active, source);
}

/* --- Basic, vote and ballot ------------------------------------------------------ */

enum { VB_STRIDE = 40 };

static unsigned popcount(uint32_t v)
{
    return (unsigned)__builtin_popcount(v);
}

static uint32_t loop_acc_ballot(const struct sg *s, unsigned lane)
{
    uint32_t acc = 0;
    for (uint32_t k = 0; k < X(s, lane) % 5u; k++)
        acc += popcount(LANES_WHERE(s, s->all, x % 5u > k)) * (k + 1u);
    return acc;
}

static void check_vote_ballot(const struct sg *s)
{
    uint32_t b = LANES_WHERE(s, s->all, (x & 1u) != 0);
    uint32_t d = LANES_WHERE(s, s->divergent, x % 3u == 1u);
    uint32_t nested = LANES_WHERE(s, s->all, x % 2u == 0u) & ~3u;
    uint32_t odd_all = LANES_WHERE(s, s->all, x % 2u == 1u);
    uint32_t odd_div = LANES_WHERE(s, s->divergent, x % 2u == 1u);
    for (unsigned l = 0; l < s->n; l++) {
        uint32_t x = X(s, l);
        expect_header(s, l);
        EXPECT(s, l, 2, l == 0);
        EXPECT(s, l, 3, X(s, 0));
        EXPECT(s, l, 4, LANES_WHERE(s, s->all, x < 1000u) == s->all);
        EXPECT(s, l, 5, LANES_WHERE(s, s->all, x % 7u == 0u) != 0);
        EXPECT(s, l, 6, odd_all == 0 || odd_all == s->all);
        EXPECT(s, l, 7, b);
        EXPECT(s, l, 8, 0);
        EXPECT(s, l, 9, popcount(b));
        EXPECT(s, l, 10, popcount(b & ((2u << l) - 1u)));
        EXPECT(s, l, 11, popcount(b & ((1u << l) - 1u)));
        if (b) {
            EXPECT(s, l, 12, lowest(b));
            EXPECT(s, l, 13, 31 - __builtin_clz(b));
        }
        EXPECT(s, l, 14, is_set(b, (l + 1) % s->w));
        EXPECT(s, l, 15, ((0x5a5au ^ s->group) >> l) & 1u);
        uint32_t constant[4] = { 0u, 0x80000000u, 0x10u, 0u };
        EXPECT(s, l, 16, constant[(x % 128u) / 32u] >> (x % 32u) & 1u);
        EXPECT(s, l, 17, 1);
        if (is_set(s->divergent, l)) {
            unsigned first = lowest(s->divergent);
            EXPECT(s, l, 18, l == first);
            EXPECT(s, l, 19, LANES_WHERE(s, s->divergent, x < 900u) == s->divergent);
            EXPECT(s, l, 20, LANES_WHERE(s, s->divergent, x % 11u == 0u) != 0);
            EXPECT(s, l, 21, odd_div == 0 || odd_div == s->divergent);
            EXPECT(s, l, 22, X(s, first));
            EXPECT(s, l, 23, d);
            EXPECT(s, l, 24, popcount(d & ((2u << l) - 1u)));
            EXPECT(s, l, 25, popcount(d & ((1u << l) - 1u)));
            EXPECT(s, l, 26, popcount(d));
            if (is_set(s->divergent, 1))
                EXPECT(s, l, 27, X(s, 1));
            EXPECT(s, l, 28, float_bits(-F(s, first)));
            EXPECT(s, l, 29, odd_div == 0 || odd_div == s->divergent);
            EXPECT(s, l, 30, 1);
            if (d) {
                EXPECT(s, l, 31, lowest(d));
                EXPECT(s, l, 32, 31 - __builtin_clz(d));
            }
            EXPECT(s, l, 33, X(s, first) % 5u == 0u);
        } else {
            expect_untouched(s, l, 18, 34);
        }
        if (is_set(nested, l)) {
            EXPECT(s, l, 34, nested);
            EXPECT(s, l, 35, l == lowest(nested));
        } else {
            expect_untouched(s, l, 34, 36);
        }
        EXPECT(s, l, 36, loop_acc_ballot(s, l));
        EXPECT(s, l, 37, s->all);
    }
}

static void test_subgroup_vote_and_ballot(void **state)
{
    (void)state;
    for (unsigned w = 0; w < 4; w++) {
        struct run r = { "subgroup_vote_ballot", widths[w], VB_STRIDE, NULL };
        run_shader(&r);
        FOR_EACH_SUBGROUP(&r, s)
            check_vote_ballot(&s);
        free(r.out);
    }
}

/* --- Arithmetic ------------------------------------------------------------------ */

enum { AR_STRIDE = 128, AR_REGION = 60 };

/* The derived values the arithmetic shaders compute from x. */
struct lanes {
    uint64_t x[16], m[16], h[16], sx[16], neg_sx[16], wide[16], wide_signed[16];
    uint64_t b5[16], b7[16], b2[16];
    float f[16], fm[16];
};

static void derive(const struct sg *s, struct lanes *v)
{
    memset(v, 0, sizeof(*v));
    for (unsigned l = 0; l < s->n; l++) {
        uint32_t x = X(s, l);
        int32_t sx = (int32_t)x - 500;
        v->x[l] = x;
        v->m[l] = x % 4u + 1u;
        v->h[l] = (uint32_t)(x * 2654435761u);
        v->sx[l] = (uint32_t)sx;
        v->neg_sx[l] = (uint32_t)-sx;
        v->wide[l] = (uint64_t)x << 30;
        v->wide_signed[l] = (uint64_t)((int64_t)sx * 3000000000ll);
        v->b5[l] = x % 5u != 0u;
        v->b7[l] = x % 7u == 0u;
        v->b2[l] = x % 2u == 1u;
        v->f[l] = F(s, l);
        v->fm[l] = 0.75f + (float)(x % 64u) / 128.0f;
    }
}

static void check_arith_region(const struct sg *s, const struct lanes *v, uint32_t active, unsigned lane,
                               unsigned base)
{
    static const struct { unsigned slot; enum op op; size_t value; } int_ops[] = {
        { 0, OP_ADD, offsetof(struct lanes, x) },   { 3, OP_MUL, offsetof(struct lanes, m) },
        { 6, OP_UMIN, offsetof(struct lanes, x) },  { 9, OP_UMAX, offsetof(struct lanes, x) },
        { 12, OP_AND, offsetof(struct lanes, h) },  { 15, OP_OR, offsetof(struct lanes, h) },
        { 18, OP_XOR, offsetof(struct lanes, h) },  { 21, OP_SMIN, offsetof(struct lanes, sx) },
        { 24, OP_SMAX, offsetof(struct lanes, sx) }, { 27, OP_ADD, offsetof(struct lanes, sx) },
        { 42, OP_AND, offsetof(struct lanes, b5) }, { 45, OP_OR, offsetof(struct lanes, b7) },
        { 48, OP_XOR, offsetof(struct lanes, b2) },
    };
    static const struct { unsigned slot; enum fop op; size_t value; } float_ops[] = {
        { 30, FOP_ADD, offsetof(struct lanes, f) }, { 33, FOP_MUL, offsetof(struct lanes, fm) },
        { 36, FOP_MIN, offsetof(struct lanes, f) }, { 39, FOP_MAX, offsetof(struct lanes, f) },
    };
    unsigned lo, hi;
    for (enum kind kind = REDUCE; kind <= EXCLUSIVE; kind++) {
        range_of(kind, lane, s->w, &lo, &hi);
        for (size_t i = 0; i < sizeof(int_ops) / sizeof(int_ops[0]); i++) {
            const uint64_t *values = (const uint64_t *)((const char *)v + int_ops[i].value);
            uint64_t expected = fold(int_ops[i].op, 32, values, active, lo, hi);
            if (int_ops[i].slot >= 42) /* booleans: the shader writes 0 or 1 */
                expected = expected & 1u;
            EXPECT(s, lane, base + int_ops[i].slot + kind, expected);
        }
        for (size_t i = 0; i < sizeof(float_ops) / sizeof(float_ops[0]); i++) {
            const float *values = (const float *)((const char *)v + float_ops[i].value);
            EXPECT_NEAR(s, lane, base + float_ops[i].slot + kind, ffold(float_ops[i].op, values, active, lo, hi));
        }
    }
    range_of(REDUCE, lane, s->w, &lo, &hi);
    uint32_t sum = (uint32_t)fold(OP_ADD, 32, v->sx, active, lo, hi);
    EXPECT(s, lane, base + 51, sum);
    EXPECT(s, lane, base + 52, 2u * sum);
    EXPECT(s, lane, base + 53, -sum);
    uint64_t smallest = fold(OP_SMIN, 64, v->wide_signed, active, lo, hi);
    EXPECT(s, lane, base + 58, smallest);
    EXPECT(s, lane, base + 59, smallest >> 32);
    range_of(INCLUSIVE, lane, s->w, &lo, &hi);
    EXPECT(s, lane, base + 54, fold(OP_UMAX, 32, v->h, active, lo, hi));
    uint64_t prefix = fold(OP_ADD, 64, v->wide, active, lo, hi);
    EXPECT(s, lane, base + 56, prefix);
    EXPECT(s, lane, base + 57, prefix >> 32);
    range_of(EXCLUSIVE, lane, s->w, &lo, &hi);
    EXPECT_NEAR(s, lane, base + 55, ffold(FOP_MUL, v->fm, active, lo, hi));
}

static uint32_t loop_acc_add(const struct sg *s, unsigned lane)
{
    uint32_t acc = 0;
    for (uint32_t k = 0; k < X(s, lane) % 5u; k++) {
        uint32_t sum = 0;
        for (unsigned l = 0; l < s->n; l++)
            if (X(s, l) % 5u > k)
                sum += k + 1u + X(s, l) % 3u;
        acc += sum * (k + 1u);
    }
    return acc;
}

static void check_arith(const struct sg *s)
{
    struct lanes v;
    derive(s, &v);
    for (unsigned l = 0; l < s->n; l++) {
        expect_header(s, l);
        check_arith_region(s, &v, s->all, l, 2);
        if (is_set(s->divergent, l))
            check_arith_region(s, &v, s->divergent, l, 2 + AR_REGION);
        else
            expect_untouched(s, l, 2 + AR_REGION, 2 + 2 * AR_REGION);
        EXPECT(s, l, 2 + 2 * AR_REGION, loop_acc_add(s, l));
    }
}

static void test_subgroup_arithmetic(void **state)
{
    (void)state;
    for (unsigned w = 0; w < 4; w++) {
        struct run r = { "subgroup_arith", widths[w], AR_STRIDE, NULL };
        run_shader(&r);
        FOR_EACH_SUBGROUP(&r, s)
            check_arith(&s);
        free(r.out);
    }
}

/* --- Clustered ------------------------------------------------------------------- */

static void check_cluster_region(const struct sg *s, const struct lanes *v, uint32_t active, unsigned lane,
                                 unsigned base)
{
    for (unsigned c = 0; c < 5; c++) {
        unsigned cluster = 1u << c, slot = base + 12 * c, lo, hi;
        cluster_range(cluster, lane, s->w, &lo, &hi);
        EXPECT(s, lane, slot + 0, fold(OP_ADD, 32, v->x, active, lo, hi));
        EXPECT(s, lane, slot + 1, fold(OP_MUL, 32, v->m, active, lo, hi));
        EXPECT(s, lane, slot + 2, fold(OP_UMIN, 32, v->x, active, lo, hi));
        EXPECT(s, lane, slot + 3, fold(OP_SMAX, 32, v->sx, active, lo, hi));
        EXPECT(s, lane, slot + 4, fold(OP_AND, 32, v->h, active, lo, hi));
        EXPECT(s, lane, slot + 5, fold(OP_OR, 32, v->h, active, lo, hi));
        EXPECT(s, lane, slot + 6, fold(OP_XOR, 32, v->h, active, lo, hi));
        EXPECT_NEAR(s, lane, slot + 7, ffold(FOP_ADD, v->f, active, lo, hi));
        EXPECT_NEAR(s, lane, slot + 8, ffold(FOP_MAX, v->f, active, lo, hi));
        EXPECT(s, lane, slot + 9, fold(OP_AND, 32, v->b5, active, lo, hi) & 1u);
        EXPECT(s, lane, slot + 10, fold(OP_OR, 32, v->b7, active, lo, hi));
        EXPECT(s, lane, slot + 11, fold(OP_SMIN, 32, v->neg_sx, active, lo, hi));
    }
}

static void check_clustered(const struct sg *s)
{
    struct lanes v;
    derive(s, &v);
    for (unsigned l = 0; l < s->n; l++) {
        expect_header(s, l);
        check_cluster_region(s, &v, s->all, l, 2);
        if (is_set(s->divergent, l))
            check_cluster_region(s, &v, s->divergent, l, 2 + AR_REGION);
        else
            expect_untouched(s, l, 2 + AR_REGION, 2 + 2 * AR_REGION);
    }
}

static void test_subgroup_clustered(void **state)
{
    (void)state;
    for (unsigned w = 0; w < 4; w++) {
        struct run r = { "subgroup_clustered", widths[w], AR_STRIDE, NULL };
        run_shader(&r);
        FOR_EACH_SUBGROUP(&r, s)
            check_clustered(&s);
        free(r.out);
    }
}

/* --- Shuffles --------------------------------------------------------------------- */

enum { SH_STRIDE = 40, SH_REGION = 16 };

static void expect_from(const struct sg *s, uint32_t active, unsigned lane, unsigned slot, uint32_t source)
{
    if (source_ok(s, active, source))
        EXPECT(s, lane, slot, X(s, source));
}

static void check_shuffle_region(const struct sg *s, uint32_t active, unsigned lane, unsigned base)
{
    unsigned w = s->w;
    uint32_t x = X(s, lane);
    expect_from(s, active, lane, base + 0, (lane * 5u + 3u) % w);
    expect_from(s, active, lane, base + 1, w - 1u - lane);
    expect_from(s, active, lane, base + 2, lane ^ 1u);
    expect_from(s, active, lane, base + 3, lane ^ 2u);
    expect_from(s, active, lane, base + 4, lane ^ 5u);
    expect_from(s, active, lane, base + 5, lane - 1u);
    expect_from(s, active, lane, base + 6, lane - 3u);
    expect_from(s, active, lane, base + 7, lane + 1u);
    expect_from(s, active, lane, base + 8, lane + 2u);
    expect_from(s, active, lane, base + 9, lane - x % 4u);
    uint32_t next = (lane + 1u) % w;
    if (source_ok(s, active, next))
        EXPECT(s, lane, base + 10, float_bits(2.0f * F(s, next)));
    if (source_ok(s, active, lane ^ 1u))
        EXPECT(s, lane, base + 11, X(s, lane ^ 1u) % 3u == 0u);
    expect_from(s, active, lane, base + 12, x % 16u);
    expect_from(s, active, lane, base + 13, 2u);
    expect_from(s, active, lane, base + 14, (s->group + 1u) & (w - 1u));
    uint32_t beyond = got(s, lane, base + 15);
    if (beyond != x && beyond != 0)
        fail_msg("%s W=%u: an out-of-range shuffle gave 0x%x, neither 0 nor the own value", s->run->shader, w, beyond);
}

static void check_shuffle(const struct sg *s)
{
    for (unsigned l = 0; l < s->n; l++) {
        expect_header(s, l);
        check_shuffle_region(s, s->all, l, 2);
        if (is_set(s->divergent, l))
            check_shuffle_region(s, s->divergent, l, 2 + SH_REGION);
        else
            expect_untouched(s, l, 2 + SH_REGION, 2 + 2 * SH_REGION);
    }
}

static void test_subgroup_shuffle(void **state)
{
    (void)state;
    for (unsigned w = 0; w < 4; w++) {
        struct run r = { "subgroup_shuffle", widths[w], SH_STRIDE, NULL };
        run_shader(&r);
        FOR_EACH_SUBGROUP(&r, s)
            check_shuffle(&s);
        free(r.out);
    }
}

/* --- Quads ------------------------------------------------------------------------ */

enum { QD_STRIDE = 24, QD_REGION = 10 };

static void check_quad_region(const struct sg *s, uint32_t active, unsigned lane, unsigned base)
{
    unsigned quad = lane & ~3u;
    for (unsigned i = 0; i < 4; i++)
        expect_from(s, active, lane, base + i, quad + i);
    expect_from(s, active, lane, base + 4, lane ^ 1u);
    expect_from(s, active, lane, base + 5, lane ^ 2u);
    expect_from(s, active, lane, base + 6, lane ^ 3u);
    if (source_ok(s, active, lane ^ 3u))
        EXPECT(s, lane, base + 7, float_bits(-F(s, lane ^ 3u)));
    if (source_ok(s, active, quad + 2u))
        EXPECT(s, lane, base + 8, X(s, quad + 2u) % 3u == 0u);
    if (source_ok(s, active, lane ^ 2u))
        EXPECT(s, lane, base + 9, -(int32_t)X(s, lane ^ 2u));
}

static void check_quad(const struct sg *s)
{
    for (unsigned l = 0; l < s->n; l++) {
        expect_header(s, l);
        check_quad_region(s, s->all, l, 2);
        if (is_set(s->divergent, l))
            check_quad_region(s, s->divergent, l, 2 + QD_REGION);
        else
            expect_untouched(s, l, 2 + QD_REGION, 2 + 2 * QD_REGION);
    }
}

static void test_subgroup_quad(void **state)
{
    (void)state;
    for (unsigned w = 0; w < 4; w++) {
        struct run r = { "subgroup_quad", widths[w], QD_STRIDE, NULL };
        run_shader(&r);
        FOR_EACH_SUBGROUP(&r, s)
            check_quad(&s);
        free(r.out);
    }
}

/* --- Other widths and barriers ------------------------------------------------------ */

enum { TY_STRIDE = 24 };

/* Value of the invocation at local index `local` of the subgroup's
 * workgroup. */
static uint32_t X_local(const struct sg *s, unsigned local)
{
    return data_u[s->group * LOCAL + local];
}

static void check_types_region(const struct sg *s, uint32_t active, unsigned lane)
{
    int8_t max8 = INT8_MIN;
    float min_h = INFINITY;
    uint16_t max16 = 0;
    for (unsigned l = 0; l < lane; l++) {
        if (!is_set(active, l))
            continue;
        int8_t b8 = (int8_t)((int)(X(s, l) % 200u) - 100);
        max8 = b8 > max8 ? b8 : max8;
        max16 = (uint16_t)X(s, l) > max16 ? (uint16_t)X(s, l) : max16;
    }
    for (unsigned l = 0; l < s->n; l++)
        if (is_set(active, l))
            min_h = fminf(min_h, F(s, l));
    EXPECT(s, lane, 16, (int32_t)max8);
    EXPECT(s, lane, 17, float_bits(min_h));
    EXPECT(s, lane, 18, max16);
    EXPECT(s, lane, 19, active);
}

static void check_types(const struct sg *s)
{
    int8_t max8 = INT8_MIN;
    float min_h = INFINITY;
    int16_t sum16 = 0;
    double sum_d = 0;
    uint32_t sum_y = 0, greater = 0;
    for (unsigned l = 0; l < s->n; l++) {
        int8_t b8 = (int8_t)((int)(X(s, l) % 200u) - 100);
        max8 = b8 > max8 ? b8 : max8;
        min_h = fminf(min_h, F(s, l));
        sum16 = (int16_t)(sum16 + (int16_t)((int)X(s, l) - 600));
        sum_d += (double)F(s, l) * 1.5;
        unsigned local = s->first + l - s->group * LOCAL;
        uint32_t y = X_local(s, LOCAL - 1 - local);
        sum_y += y;
        greater += y > X(s, l);
    }
    uint64_t sum_bits;
    memcpy(&sum_bits, &sum_d, 8);
    float max_h = -INFINITY;
    int8_t min8 = INT8_MAX;
    uint8_t min_u8 = UINT8_MAX;
    int16_t min16 = INT16_MAX;
    uint32_t prefix = 0;
    for (unsigned l = 0; l < s->n; l++) {
        uint32_t x = X(s, l);
        expect_header(s, l);
        /* Exclusive scans first, then this lane joins the inclusive ones. */
        EXPECT(s, l, 6, min_u8);
        EXPECT(s, l, 8, (int32_t)min16);
        int8_t b8 = (int8_t)((int)(x % 200u) - 100);
        max_h = fmaxf(max_h, F(s, l));
        min8 = b8 < min8 ? b8 : min8;
        min_u8 = (uint8_t)x < min_u8 ? (uint8_t)x : min_u8;
        min16 = (int16_t)((int)x - 600) < min16 ? (int16_t)((int)x - 600) : min16;
        prefix += x;
        EXPECT(s, l, 2, float_bits(min_h));
        EXPECT(s, l, 3, float_bits(max_h));
        EXPECT(s, l, 4, (int32_t)max8);
        EXPECT(s, l, 5, (int32_t)min8);
        EXPECT(s, l, 7, (int32_t)sum16);
        EXPECT(s, l, 9, (uint32_t)sum_bits);
        EXPECT(s, l, 10, (uint32_t)(sum_bits >> 32));
        unsigned mirror = s->w - 1 - l;
        if (mirror < s->n) {
            double d = (double)F(s, mirror) * 1.5;
            uint64_t bits;
            memcpy(&bits, &d, 8);
            EXPECT(s, l, 11, (uint32_t)(bits >> 32));
        }
        EXPECT(s, l, 12, (int32_t)X(s, 0) - 600);
        EXPECT(s, l, 13, 1);
        EXPECT(s, l, 14, sum_y);
        EXPECT(s, l, 15, prefix);
        if (is_set(s->divergent, l))
            check_types_region(s, s->divergent, l);
        else
            expect_untouched(s, l, 16, 20);
        EXPECT(s, l, 20, greater);
    }
}

static void test_subgroup_small_and_wide_types_across_barriers(void **state)
{
    (void)state;
    for (unsigned w = 0; w < 4; w++) {
        struct run r = { "subgroup_types", widths[w], TY_STRIDE, NULL };
        run_shader(&r);
        FOR_EACH_SUBGROUP(&r, s)
            check_types(&s);
        free(r.out);
    }
}

static int setup(void **state)
{
    (void)state;
    make_data();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_subgroup_vote_and_ballot),
        cmocka_unit_test(test_subgroup_arithmetic),
        cmocka_unit_test(test_subgroup_clustered),
        cmocka_unit_test(test_subgroup_shuffle),
        cmocka_unit_test(test_subgroup_quad),
        cmocka_unit_test(test_subgroup_small_and_wide_types_across_barriers),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
