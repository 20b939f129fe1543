/* GLSL.std.450 extended instructions.
 *
 * Like the core arithmetic, each instruction works on <W x T> lane vectors,
 * component by component (tr_map) where it is a per-component function.
 * Where LLVM has an intrinsic it is used (the backend scalarises the
 * transcendental ones into libm calls, which are far more accurate than
 * Vulkan requires).  LLVM 19 has no intrinsic for atan2, asinh, acosh and
 * atanh: they are built from llvm.atan / llvm.log / llvm.sqrt with the
 * usual range splits (fdlibm style), so that they keep a relative error of
 * a few ULP where the naive formulas of the Vulkan precision table would
 * cancel (asinh and atanh near 0, acosh near 1) or overflow (x * x for
 * large x).  Half-precision inputs to those formulas, and to InverseSqrt,
 * are evaluated in single precision and rounded once.  Frexp works on the
 * bits: llvm.frexp cannot be legalised for every vector type.
 *
 * Operands whose results GLSL.std.450 leaves undefined (log of a negative
 * number, FClamp with minVal > maxVal, ...) give whatever the formulas give;
 * nothing here can trap. */
#include <math.h>

#include <spirv/unified1/GLSL.std.450.h>

#include "spirv_names.h"
#include "spirv_private.h"

/* --- Lane helpers ------------------------------------------------------------------ */

static LLVMTypeRef element_of(LLVMValueRef lanes)
{
    return LLVMGetElementType(LLVMTypeOf(lanes));
}

static LLVMValueRef splat_const(struct tr *t, LLVMValueRef scalar)
{
    LLVMValueRef lanes[16];
    for (unsigned i = 0; i < t->width; i++)
        lanes[i] = scalar;
    return LLVMConstVector(lanes, t->width);
}

/* A float constant with the lane type of `like`. */
static LLVMValueRef fconst(struct tr *t, LLVMValueRef like, double value)
{
    return splat_const(t, LLVMConstReal(element_of(like), value));
}

/* An integer constant with the lane type of `like`. */
static LLVMValueRef iconst(struct tr *t, LLVMValueRef like, uint64_t value)
{
    return splat_const(t, LLVMConstInt(element_of(like), value, 0));
}

static LLVMValueRef lane_iconst(struct tr *t, LLVMTypeRef element, uint64_t value)
{
    return splat_const(t, LLVMConstInt(element, value, 0));
}

static LLVMValueRef call1(struct tr *t, const char *name, LLVMValueRef a)
{
    LLVMTypeRef type = LLVMTypeOf(a);
    return tr_call_intrinsic(t, name, &type, 1, &a, 1);
}

static LLVMValueRef call2(struct tr *t, const char *name, LLVMValueRef a, LLVMValueRef b)
{
    LLVMTypeRef type = LLVMTypeOf(a);
    LLVMValueRef args[2] = { a, b };
    return tr_call_intrinsic(t, name, &type, 1, args, 2);
}

static LLVMValueRef call3(struct tr *t, const char *name, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
    LLVMTypeRef type = LLVMTypeOf(a);
    LLVMValueRef args[3] = { a, b, c };
    return tr_call_intrinsic(t, name, &type, 1, args, 3);
}

static LLVMValueRef f_add(struct tr *t, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildFAdd(t->builder, a, b, "");
}

static LLVMValueRef f_sub(struct tr *t, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildFSub(t->builder, a, b, "");
}

static LLVMValueRef f_mul(struct tr *t, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildFMul(t->builder, a, b, "");
}

static LLVMValueRef f_div(struct tr *t, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildFDiv(t->builder, a, b, "");
}

static LLVMValueRef fcmp(struct tr *t, LLVMRealPredicate predicate, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildFCmp(t->builder, predicate, a, b, "");
}

static LLVMValueRef sel(struct tr *t, LLVMValueRef condition, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(t->builder, condition, a, b, "");
}

static LLVMValueRef fabs_(struct tr *t, LLVMValueRef a)
{
    return call1(t, "llvm.fabs", a);
}

static LLVMValueRef copysign_(struct tr *t, LLVMValueRef magnitude, LLVMValueRef sign)
{
    return call2(t, "llvm.copysign", magnitude, sign);
}

static LLVMValueRef is_inf(struct tr *t, LLVMValueRef a)
{
    return fcmp(t, LLVMRealOEQ, fabs_(t, a), fconst(t, a, INFINITY));
}

/* The sign bit, set for -0 too. */
static LLVMValueRef sign_bit(struct tr *t, LLVMValueRef a)
{
    LLVMTypeRef bits = LLVMVectorType(LLVMIntTypeInContext(t->context, spv_float_bits(element_of(a))), t->width);
    LLVMValueRef as_int = LLVMBuildBitCast(t->builder, a, bits, "");
    return LLVMBuildICmp(t->builder, LLVMIntSLT, as_int, LLVMConstNull(bits), "");
}

static bool is_half(LLVMValueRef a)
{
    return LLVMGetTypeKind(element_of(a)) == LLVMHalfTypeKind;
}

/* Half-precision inputs of the formula-built functions are evaluated in
 * single precision. */
static LLVMValueRef widen(struct tr *t, LLVMValueRef a)
{
    return is_half(a) ? LLVMBuildFPExt(t->builder, a, LLVMVectorType(t->f32, t->width), "") : a;
}

static LLVMValueRef narrow_like(struct tr *t, LLVMValueRef value, LLVMValueRef like)
{
    return is_half(like) ? LLVMBuildFPTrunc(t->builder, value, LLVMTypeOf(like), "") : value;
}

/* Integer lanes converted to another width, sign- or zero-extending. */
static LLVMValueRef int_resize(struct tr *t, LLVMValueRef a, LLVMTypeRef element, bool is_signed)
{
    unsigned from = LLVMGetIntTypeWidth(element_of(a)), to = LLVMGetIntTypeWidth(element);
    LLVMTypeRef target = LLVMVectorType(element, t->width);
    if (from > to)
        return LLVMBuildTrunc(t->builder, a, target, "");
    if (from < to)
        return is_signed ? LLVMBuildSExt(t->builder, a, target, "") : LLVMBuildZExt(t->builder, a, target, "");
    return a;
}

/* --- Formula-built functions --------------------------------------------------------- */

/* log(1 + u) without losing u when it is small (Goldberg's trick: the
 * rounding error of 1 + u cancels in u / ((1 + u) - 1)). */
static LLVMValueRef log1p_(struct tr *t, LLVMValueRef u)
{
    LLVMValueRef w = f_add(t, fconst(t, u, 1.0), u);
    LLVMValueRef log_w = call1(t, "llvm.log", w);
    LLVMValueRef d = f_sub(t, w, fconst(t, u, 1.0));
    LLVMValueRef r = f_mul(t, log_w, f_div(t, u, d));
    r = sel(t, fcmp(t, LLVMRealOEQ, d, fconst(t, u, 0.0)), u, r);
    return sel(t, fcmp(t, LLVMRealOEQ, w, fconst(t, u, INFINITY)), log_w, r);
}

static LLVMValueRef asinh_(struct tr *t, LLVMValueRef x)
{
    LLVMValueRef a = fabs_(t, x);
    LLVMValueRef one = fconst(t, a, 1.0);
    LLVMValueRef a2 = f_mul(t, a, a);
    LLVMValueRef s = call1(t, "llvm.sqrt", f_add(t, a2, one));
    /* |x| > 2^28: sqrt(x^2 + 1) is |x|, and x^2 may overflow. */
    LLVMValueRef big = f_add(t, call1(t, "llvm.log", a), fconst(t, a, M_LN2));
    /* 2 < |x|: log(2|x| + 1 / (sqrt(x^2 + 1) + |x|)) */
    LLVMValueRef mid = call1(t, "llvm.log", f_add(t, f_mul(t, fconst(t, a, 2.0), a), f_div(t, one, f_add(t, s, a))));
    /* |x| <= 2: log1p(|x| + x^2 / (1 + sqrt(1 + x^2))) */
    LLVMValueRef small = log1p_(t, f_add(t, a, f_div(t, a2, f_add(t, one, s))));
    LLVMValueRef r = sel(t, fcmp(t, LLVMRealOGT, a, fconst(t, a, 0x1p28)), big,
                            sel(t, fcmp(t, LLVMRealOGT, a, fconst(t, a, 2.0)), mid, small));
    return copysign_(t, r, x);
}

static LLVMValueRef acosh_(struct tr *t, LLVMValueRef x)
{
    LLVMValueRef one = fconst(t, x, 1.0);
    LLVMValueRef big = f_add(t, call1(t, "llvm.log", x), fconst(t, x, M_LN2));
    LLVMValueRef root = call1(t, "llvm.sqrt", f_sub(t, f_mul(t, x, x), one));
    LLVMValueRef mid = call1(t, "llvm.log", f_sub(t, f_mul(t, fconst(t, x, 2.0), x), f_div(t, one, f_add(t, x, root))));
    /* x <= 2: with d = x - 1 (exact), log1p(d + sqrt(2d + d^2)). */
    LLVMValueRef d = f_sub(t, x, one);
    LLVMValueRef small = log1p_(t, f_add(t, d, call1(t, "llvm.sqrt", f_add(t, f_mul(t, fconst(t, x, 2.0), d),
                                                                          f_mul(t, d, d)))));
    return sel(t, fcmp(t, LLVMRealOGE, x, fconst(t, x, 0x1p28)), big,
                  sel(t, fcmp(t, LLVMRealOGT, x, fconst(t, x, 2.0)), mid, small));
}

static LLVMValueRef atanh_(struct tr *t, LLVMValueRef x)
{
    /* 0.5 * log((1 + a) / (1 - a)) = 0.5 * log1p(2a / (1 - a)) */
    LLVMValueRef a = fabs_(t, x);
    LLVMValueRef u = f_div(t, f_mul(t, fconst(t, a, 2.0), a), f_sub(t, fconst(t, a, 1.0), a));
    return copysign_(t, f_mul(t, fconst(t, a, 0.5), log1p_(t, u)), x);
}

static LLVMValueRef atan2_(struct tr *t, LLVMValueRef y, LLVMValueRef x)
{
    /* Divide the smaller magnitude by the larger so that the quotient
     * stays in [-1, 1]:
     *   |x| >= |y|: atan(y / x), plus copysign(pi, y) when x is negative;
     *   |y| >  |x|: copysign(pi / 2, y) - atan(x / y).
     * The quotients of 0 / 0 and inf / inf are given the limits libm
     * uses: atan2(+-0, +-0) is +-0 or +-pi, atan2(+-inf, +-inf) is
     * +-pi/4 or +-3pi/4. */
    LLVMValueRef ax = fabs_(t, x), ay = fabs_(t, y);
    LLVMValueRef x_major = fcmp(t, LLVMRealOGE, ax, ay);
    LLVMValueRef q = f_div(t, y, x);
    q = sel(t, fcmp(t, LLVMRealOEQ, x, fconst(t, x, 0.0)), y, q);
    q = sel(t, is_inf(t, y), copysign_(t, fconst(t, x, 1.0), f_mul(t, x, y)), q);
    LLVMValueRef r1 = call1(t, "llvm.atan", q);
    r1 = sel(t, sign_bit(t, x), f_add(t, r1, copysign_(t, fconst(t, x, M_PI), y)), r1);
    LLVMValueRef r2 = f_sub(t, copysign_(t, fconst(t, x, M_PI_2), y), call1(t, "llvm.atan", f_div(t, x, y)));
    return sel(t, x_major, r1, r2);
}

/* --- Per-component instructions --------------------------------------------------------- */

struct component_op {
    uint32_t inst;
    LLVMTypeRef result; /* element type of the result */
};

static LLVMValueRef fsign(struct tr *t, LLVMValueRef x)
{
    /* 1 for x > 0, -1 for x < 0, x itself for +-0 (and NaN). */
    LLVMValueRef zero = fconst(t, x, 0.0);
    return sel(t, fcmp(t, LLVMRealOGT, x, zero), fconst(t, x, 1.0),
                  sel(t, fcmp(t, LLVMRealOLT, x, zero), fconst(t, x, -1.0), x));
}

static LLVMValueRef clamp_f(struct tr *t, LLVMValueRef x, LLVMValueRef lo, LLVMValueRef hi)
{
    return call2(t, "llvm.minnum", call2(t, "llvm.maxnum", x, lo), hi);
}

static LLVMValueRef ldexp_(struct tr *t, LLVMValueRef x, LLVMValueRef e)
{
    /* llvm.ldexp takes an i32 exponent; wider exponents are saturated
     * (anything past +-2^31 over- or underflows every format alike). */
    if (LLVMGetIntTypeWidth(element_of(e)) > 32) {
        e = call2(t, "llvm.smax", call2(t, "llvm.smin", e, iconst(t, e, INT32_MAX)), iconst(t, e, (uint64_t)INT32_MIN));
        e = LLVMBuildTrunc(t->builder, e, t->lane_i32, "");
    } else {
        e = int_resize(t, e, t->i32, true);
    }
    LLVMTypeRef overloads[2] = { LLVMTypeOf(x), t->lane_i32 };
    LLVMValueRef args[2] = { x, e };
    return tr_call_intrinsic(t, "llvm.ldexp", overloads, 2, args, 2);
}

static LLVMValueRef find_msb(struct tr *t, LLVMValueRef x, bool is_signed)
{
    /* width - 1 - ctlz(v), which is -1 for v = 0; FindSMsb looks for the
     * first bit that differs from the sign (v = x ^ (x >> (width - 1))). */
    unsigned width = LLVMGetIntTypeWidth(element_of(x));
    LLVMValueRef v = x;
    if (is_signed)
        v = LLVMBuildXor(t->builder, x, LLVMBuildAShr(t->builder, x, iconst(t, x, width - 1), ""), "");
    LLVMValueRef zeros = call2(t, "llvm.ctlz", v, LLVMConstInt(t->i1, 0, 0));
    return LLVMBuildSub(t->builder, iconst(t, x, width - 1), zeros, "");
}

static LLVMValueRef component(struct tr *t, LLVMValueRef *x, void *user)
{
    const struct component_op *op = user;
    LLVMBuilderRef b = t->builder;
    LLVMValueRef a = x[0];
    switch (op->inst) {
    case GLSLstd450Round: return call1(t, "llvm.round", a);
    case GLSLstd450RoundEven: return call1(t, "llvm.roundeven", a);
    case GLSLstd450Trunc: return call1(t, "llvm.trunc", a);
    case GLSLstd450FAbs: return fabs_(t, a);
    case GLSLstd450SAbs: return call2(t, "llvm.abs", a, LLVMConstInt(t->i1, 0, 0));
    case GLSLstd450FSign: return fsign(t, a);
    case GLSLstd450SSign:
        return call2(t, "llvm.smax", call2(t, "llvm.smin", a, iconst(t, a, 1)), iconst(t, a, ~0ull));
    case GLSLstd450Floor: return call1(t, "llvm.floor", a);
    case GLSLstd450Ceil: return call1(t, "llvm.ceil", a);
    case GLSLstd450Fract: return f_sub(t, a, call1(t, "llvm.floor", a));
    case GLSLstd450Radians: return f_mul(t, a, fconst(t, a, M_PI / 180.0));
    case GLSLstd450Degrees: return f_mul(t, a, fconst(t, a, 180.0 / M_PI));
    case GLSLstd450Sin: return call1(t, "llvm.sin", a);
    case GLSLstd450Cos: return call1(t, "llvm.cos", a);
    case GLSLstd450Tan: return call1(t, "llvm.tan", a);
    case GLSLstd450Asin: return call1(t, "llvm.asin", a);
    case GLSLstd450Acos: return call1(t, "llvm.acos", a);
    case GLSLstd450Atan: return call1(t, "llvm.atan", a);
    case GLSLstd450Sinh: return call1(t, "llvm.sinh", a);
    case GLSLstd450Cosh: return call1(t, "llvm.cosh", a);
    case GLSLstd450Tanh: return call1(t, "llvm.tanh", a);
    case GLSLstd450Asinh: return narrow_like(t, asinh_(t, widen(t, a)), a);
    case GLSLstd450Acosh: return narrow_like(t, acosh_(t, widen(t, a)), a);
    case GLSLstd450Atanh: return narrow_like(t, atanh_(t, widen(t, a)), a);
    case GLSLstd450Atan2: return narrow_like(t, atan2_(t, widen(t, a), widen(t, x[1])), a);
    case GLSLstd450Pow: return call2(t, "llvm.pow", a, x[1]);
    case GLSLstd450Exp: return call1(t, "llvm.exp", a);
    case GLSLstd450Log: return call1(t, "llvm.log", a);
    case GLSLstd450Exp2: return call1(t, "llvm.exp2", a);
    case GLSLstd450Log2: return call1(t, "llvm.log2", a);
    case GLSLstd450Sqrt: return call1(t, "llvm.sqrt", a);
    case GLSLstd450InverseSqrt: { /* in single precision for halves: rounded once */
        LLVMValueRef wide = widen(t, a);
        return narrow_like(t, f_div(t, fconst(t, wide, 1.0), call1(t, "llvm.sqrt", wide)), a);
    }
    case GLSLstd450FMin:
    case GLSLstd450NMin: return call2(t, "llvm.minnum", a, x[1]);
    case GLSLstd450FMax:
    case GLSLstd450NMax: return call2(t, "llvm.maxnum", a, x[1]);
    case GLSLstd450UMin: return call2(t, "llvm.umin", a, x[1]);
    case GLSLstd450SMin: return call2(t, "llvm.smin", a, x[1]);
    case GLSLstd450UMax: return call2(t, "llvm.umax", a, x[1]);
    case GLSLstd450SMax: return call2(t, "llvm.smax", a, x[1]);
    case GLSLstd450FClamp:
    case GLSLstd450NClamp: return clamp_f(t, a, x[1], x[2]);
    case GLSLstd450UClamp: return call2(t, "llvm.umin", call2(t, "llvm.umax", a, x[1]), x[2]);
    case GLSLstd450SClamp: return call2(t, "llvm.smin", call2(t, "llvm.smax", a, x[1]), x[2]);
    case GLSLstd450FMix: /* x * (1 - a) + y * a */
        return f_add(t, f_mul(t, a, f_sub(t, fconst(t, a, 1.0), x[2])), f_mul(t, x[1], x[2]));
    case GLSLstd450Step: /* 0 if x < edge, else 1 */
        return sel(t, fcmp(t, LLVMRealOLT, x[1], a), fconst(t, a, 0.0), fconst(t, a, 1.0));
    case GLSLstd450SmoothStep: {
        LLVMValueRef s = f_div(t, f_sub(t, x[2], a), f_sub(t, x[1], a));
        s = clamp_f(t, s, fconst(t, s, 0.0), fconst(t, s, 1.0));
        return f_mul(t, f_mul(t, s, s), f_sub(t, fconst(t, s, 3.0), f_mul(t, fconst(t, s, 2.0), s)));
    }
    case GLSLstd450Fma: return call3(t, "llvm.fma", a, x[1], x[2]);
    case GLSLstd450Ldexp: return ldexp_(t, a, x[1]);
    case GLSLstd450FindILsb: {
        LLVMValueRef zeros = call2(t, "llvm.cttz", a, LLVMConstInt(t->i1, 0, 0));
        LLVMValueRef none = LLVMBuildICmp(b, LLVMIntEQ, a, iconst(t, a, 0), "");
        return int_resize(t, sel(t, none, iconst(t, a, ~0ull), zeros), op->result, true);
    }
    case GLSLstd450FindSMsb: return int_resize(t, find_msb(t, a, true), op->result, true);
    case GLSLstd450FindUMsb: return int_resize(t, find_msb(t, a, false), op->result, true);
    default: return a;
    }
}

/* --- Vectors as component lists ----------------------------------------------------------- */

enum { MAX_COMPONENTS = 16 };

/* The components of a scalar or vector value (a scalar is one). */
static unsigned split(struct tr *t, LLVMValueRef value, LLVMValueRef *out)
{
    if (LLVMGetTypeKind(LLVMTypeOf(value)) != LLVMArrayTypeKind) {
        out[0] = value;
        return 1;
    }
    unsigned n = LLVMGetArrayLength(LLVMTypeOf(value));
    for (unsigned i = 0; i < n && i < MAX_COMPONENTS; i++)
        out[i] = LLVMBuildExtractValue(t->builder, value, i, "");
    return n;
}

static LLVMValueRef join(struct tr *t, uint32_t type_id, LLVMValueRef *parts, unsigned n)
{
    const struct spv_type *type = spv_type(t->m, type_id);
    if (type->kind != SPV_TYPE_VECTOR)
        return parts[0];
    LLVMValueRef value = LLVMGetUndef(type->value_type);
    for (unsigned i = 0; i < n; i++)
        value = LLVMBuildInsertValue(t->builder, value, parts[i], i, "");
    return value;
}

static LLVMValueRef dot(struct tr *t, LLVMValueRef *a, LLVMValueRef *b, unsigned n)
{
    LLVMValueRef sum = f_mul(t, a[0], b[0]);
    for (unsigned i = 1; i < n; i++)
        sum = f_add(t, sum, f_mul(t, a[i], b[i]));
    return sum;
}

static LLVMValueRef length_of(struct tr *t, LLVMValueRef *a, unsigned n)
{
    if (n == 1)
        return fabs_(t, a[0]);
    return call1(t, "llvm.sqrt", dot(t, a, a, n));
}

/* Length, Distance, Cross, Normalize, FaceForward, Reflect, Refract. */
static bool translate_geometric(struct tr *t, uint32_t inst, const uint32_t *w, unsigned word_count)
{
    LLVMValueRef a[MAX_COMPONENTS] = { 0 }, c[MAX_COMPONENTS] = { 0 }, d[MAX_COMPONENTS] = { 0 }, r[MAX_COMPONENTS] = { 0 };
    unsigned n = split(t, tr_get(t, w[5]), a);
    if (n > MAX_COMPONENTS)
        return spv_fail(t->error, "GLSL.std.450 %s of %u components is not supported", spv_glsl450_name(inst), n);
    if (word_count > 6)
        split(t, tr_get(t, w[6]), c);
    switch (inst) {
    case GLSLstd450Length:
        tr_set(t, w[2], length_of(t, a, n));
        return true;
    case GLSLstd450Distance:
        for (unsigned i = 0; i < n; i++)
            r[i] = f_sub(t, a[i], c[i]);
        tr_set(t, w[2], length_of(t, r, n));
        return true;
    case GLSLstd450Cross:
        r[0] = f_sub(t, f_mul(t, a[1], c[2]), f_mul(t, c[1], a[2]));
        r[1] = f_sub(t, f_mul(t, a[2], c[0]), f_mul(t, c[2], a[0]));
        r[2] = f_sub(t, f_mul(t, a[0], c[1]), f_mul(t, c[0], a[1]));
        break;
    case GLSLstd450Normalize: {
        LLVMValueRef length = length_of(t, a, n);
        for (unsigned i = 0; i < n; i++)
            r[i] = f_div(t, a[i], length);
        break;
    }
    case GLSLstd450FaceForward: { /* dot(Nref, I) < 0 ? N : -N */
        split(t, tr_get(t, w[7]), d);
        LLVMValueRef facing = fcmp(t, LLVMRealOLT, dot(t, d, c, n), fconst(t, a[0], 0.0));
        for (unsigned i = 0; i < n; i++)
            r[i] = sel(t, facing, a[i], LLVMBuildFNeg(t->builder, a[i], ""));
        break;
    }
    case GLSLstd450Reflect: { /* I - 2 dot(N, I) N */
        LLVMValueRef twice = f_mul(t, fconst(t, a[0], 2.0), dot(t, c, a, n));
        for (unsigned i = 0; i < n; i++)
            r[i] = f_sub(t, a[i], f_mul(t, twice, c[i]));
        break;
    }
    case GLSLstd450Refract: {
        /* k = 1 - eta^2 (1 - dot(N, I)^2); k < 0 ? 0 : eta I - (eta dot(N, I) + sqrt(k)) N */
        LLVMValueRef eta = tr_get(t, w[7]);
        if (element_of(eta) != element_of(a[0]))
            eta = LLVMBuildFPCast(t->builder, eta, LLVMTypeOf(a[0]), "");
        LLVMValueRef one = fconst(t, a[0], 1.0), zero = fconst(t, a[0], 0.0);
        LLVMValueRef ni = dot(t, c, a, n);
        LLVMValueRef k = f_sub(t, one, f_mul(t, f_mul(t, eta, eta), f_sub(t, one, f_mul(t, ni, ni))));
        LLVMValueRef total = fcmp(t, LLVMRealOLT, k, zero);
        LLVMValueRef scale = f_add(t, f_mul(t, eta, ni), call1(t, "llvm.sqrt", k));
        for (unsigned i = 0; i < n; i++)
            r[i] = sel(t, total, zero, f_sub(t, f_mul(t, eta, a[i]), f_mul(t, scale, c[i])));
        break;
    }
    default:
        return false;
    }
    tr_set(t, w[2], join(t, w[1], r, n));
    return true;
}

/* --- Matrices -------------------------------------------------------------------------- */

/* Determinant of the n x n submatrix of e (row-major) with the given rows
 * and columns, by cofactor expansion along its first row. */
static LLVMValueRef minor_det(struct tr *t, LLVMValueRef e[4][4], const unsigned *rows, const unsigned *cols,
                              unsigned n)
{
    if (n == 1)
        return e[rows[0]][cols[0]];
    if (n == 2)
        return f_sub(t, f_mul(t, e[rows[0]][cols[0]], e[rows[1]][cols[1]]),
                    f_mul(t, e[rows[0]][cols[1]], e[rows[1]][cols[0]]));
    LLVMValueRef sum = NULL;
    for (unsigned k = 0; k < n; k++) {
        unsigned sub_cols[4], m = 0;
        for (unsigned j = 0; j < n; j++)
            if (j != k)
                sub_cols[m++] = cols[j];
        LLVMValueRef term = f_mul(t, e[rows[0]][cols[k]], minor_det(t, e, rows + 1, sub_cols, n - 1));
        sum = !sum ? term : (k & 1) ? f_sub(t, sum, term) : f_add(t, sum, term);
    }
    return sum;
}

/* Cofactor of element (row, col): (-1)^(row + col) times the determinant
 * without that row and column. */
static LLVMValueRef cofactor(struct tr *t, LLVMValueRef e[4][4], unsigned n, unsigned row, unsigned col)
{
    unsigned rows[4], cols[4], r = 0, c = 0;
    for (unsigned i = 0; i < n; i++) {
        if (i != row)
            rows[r++] = i;
        if (i != col)
            cols[c++] = i;
    }
    LLVMValueRef minor = minor_det(t, e, rows, cols, n - 1);
    return (row + col) & 1 ? LLVMBuildFNeg(t->builder, minor, "") : minor;
}

static bool translate_matrix(struct tr *t, uint32_t inst, const uint32_t *w)
{
    const struct spv_type *type = spv_type(t->m, t->m->ids[w[5]].type);
    unsigned n = type->count;
    if (type->kind != SPV_TYPE_MATRIX || n < 2 || n > 4 || spv_type(t->m, type->element)->count != n)
        return spv_fail(t->error, "GLSL.std.450 %s needs a square matrix of 2 to 4 columns",
                        spv_glsl450_name(inst));
    LLVMValueRef matrix = tr_get(t, w[5]);
    LLVMValueRef e[4][4]; /* e[row][column] */
    for (unsigned c = 0; c < n; c++) {
        LLVMValueRef column = LLVMBuildExtractValue(t->builder, matrix, c, "");
        for (unsigned r = 0; r < n; r++)
            e[r][c] = LLVMBuildExtractValue(t->builder, column, r, "");
    }
    static const unsigned all[4] = { 0, 1, 2, 3 };
    if (inst == GLSLstd450Determinant) {
        tr_set(t, w[2], minor_det(t, e, all, all, n));
        return true;
    }
    /* inverse = adjugate / determinant; the adjugate is the transposed
     * cofactor matrix, and the determinant its expansion along row 0. */
    LLVMValueRef cof[4][4];
    for (unsigned r = 0; r < n; r++)
        for (unsigned c = 0; c < n; c++)
            cof[r][c] = cofactor(t, e, n, r, c);
    LLVMValueRef det = f_mul(t, e[0][0], cof[0][0]);
    for (unsigned c = 1; c < n; c++)
        det = f_add(t, det, f_mul(t, e[0][c], cof[0][c]));
    const struct spv_type *result = spv_type(t->m, w[1]);
    const struct spv_type *column_type = spv_type(t->m, result->element);
    LLVMValueRef value = LLVMGetUndef(result->value_type);
    for (unsigned c = 0; c < n; c++) {
        LLVMValueRef column = LLVMGetUndef(column_type->value_type);
        for (unsigned r = 0; r < n; r++) /* inverse(r, c) = cofactor(c, r) / det */
            column = LLVMBuildInsertValue(t->builder, column, f_div(t, cof[c][r], det), r, "");
        value = LLVMBuildInsertValue(t->builder, value, column, c, "");
    }
    tr_set(t, w[2], value);
    return true;
}

/* --- Two results: Modf, ModfStruct, Frexp, FrexpStruct ------------------------------------- */

/* Fraction and whole part, both with the sign of x; modf(+-inf) is
 * (+-0, +-inf). */
static void modf_(struct tr *t, LLVMValueRef x, LLVMValueRef *fraction, LLVMValueRef *whole)
{
    *whole = call1(t, "llvm.trunc", x);
    LLVMValueRef f = sel(t, is_inf(t, x), fconst(t, x, 0.0), f_sub(t, x, *whole));
    *fraction = copysign_(t, f, x);
}

/* x = mantissa * 2^exponent with |mantissa| in [0.5, 1), from the bits
 * (llvm.frexp is not legalised for every vector type by LLVM 19: <4 x half>,
 * and <4 x double> without AVX).  Zero, inf and NaN are returned as they
 * are with exponent 0. */
static void frexp_(struct tr *t, LLVMValueRef x, LLVMTypeRef exponent_element, LLVMValueRef *mantissa,
                   LLVMValueRef *exponent)
{
    LLVMBuilderRef b = t->builder;
    unsigned bits = spv_float_bits(element_of(x));
    unsigned fraction_bits = bits == 16 ? 10 : bits == 32 ? 23 : 52;
    uint64_t bias = bits == 16 ? 15 : bits == 32 ? 127 : 1023;
    uint64_t exponent_mask = ((1ull << (bits - 1 - fraction_bits)) - 1) << fraction_bits;
    LLVMTypeRef int_type = LLVMVectorType(LLVMIntTypeInContext(t->context, bits), t->width);
    LLVMValueRef magnitude = LLVMBuildBitCast(b, fabs_(t, x), int_type, "");
    /* Subnormals are scaled into the normal range first. */
    LLVMValueRef subnormal = LLVMBuildICmp(b, LLVMIntULT, magnitude, lane_iconst(t, element_of(magnitude),
                                                                                 1ull << fraction_bits), "");
    LLVMValueRef scaled = sel(t, subnormal, f_mul(t, x, fconst(t, x, ldexp(1.0, (int)fraction_bits + 1))), x);
    LLVMValueRef adjust = sel(t, subnormal, iconst(t, magnitude, (uint64_t)-(int64_t)(fraction_bits + 1)),
                              iconst(t, magnitude, 0));
    LLVMValueRef value_bits = LLVMBuildBitCast(b, scaled, int_type, "");
    LLVMValueRef field = LLVMBuildLShr(b, LLVMBuildAnd(b, value_bits, iconst(t, value_bits, exponent_mask), ""),
                                       iconst(t, value_bits, fraction_bits), "");
    LLVMValueRef e = LLVMBuildAdd(b, LLVMBuildSub(b, field, iconst(t, field, bias - 1), ""), adjust, "");
    LLVMValueRef m_bits = LLVMBuildOr(b, LLVMBuildAnd(b, value_bits, iconst(t, value_bits, ~exponent_mask), ""),
                                      iconst(t, value_bits, (bias - 1) << fraction_bits), "");
    LLVMValueRef m = LLVMBuildBitCast(b, m_bits, LLVMTypeOf(x), "");
    /* zero, inf, NaN: unchanged, exponent 0 */
    LLVMValueRef special = LLVMBuildOr(b, fcmp(t, LLVMRealOEQ, x, fconst(t, x, 0.0)),
                                       fcmp(t, LLVMRealUEQ, fabs_(t, x), fconst(t, x, INFINITY)), "");
    *mantissa = sel(t, special, x, m);
    e = sel(t, special, iconst(t, e, 0), e);
    *exponent = int_resize(t, e, exponent_element, true);
}

static LLVMTypeRef scalar_element(struct tr *t, uint32_t type_id)
{
    const struct spv_type *type = spv_type(t->m, type_id);
    while (type->kind == SPV_TYPE_VECTOR || type->kind == SPV_TYPE_MATRIX)
        type = spv_type(t->m, type->element);
    return spv_scalar_llvm(t, type);
}

static bool translate_two_results(struct tr *t, uint32_t inst, const uint32_t *w)
{
    bool is_struct = inst == GLSLstd450ModfStruct || inst == GLSLstd450FrexpStruct;
    bool is_modf = inst == GLSLstd450Modf || inst == GLSLstd450ModfStruct;
    const struct spv_type *result = spv_type(t->m, w[1]);
    uint32_t first_type = is_struct ? result->members[0].type : w[1];
    uint32_t second_type = is_struct ? result->members[1].type
                                     : spv_type(t->m, t->m->ids[w[6]].type)->element; /* pointee */
    LLVMTypeRef exponent_element = scalar_element(t, second_type);
    LLVMValueRef x[MAX_COMPONENTS] = { 0 }, first[MAX_COMPONENTS] = { 0 }, second[MAX_COMPONENTS] = { 0 };
    unsigned n = split(t, tr_get(t, w[5]), x);
    if (n > MAX_COMPONENTS)
        return spv_fail(t->error, "GLSL.std.450 %s of %u components is not supported", spv_glsl450_name(inst), n);
    for (unsigned i = 0; i < n; i++) {
        if (is_modf)
            modf_(t, x[i], &first[i], &second[i]);
        else
            frexp_(t, x[i], exponent_element, &first[i], &second[i]);
    }
    LLVMValueRef a = join(t, first_type, first, n), b = join(t, second_type, second, n);
    if (is_struct) {
        LLVMValueRef value = LLVMGetUndef(result->value_type);
        value = LLVMBuildInsertValue(t->builder, value, a, 0, "");
        tr_set(t, w[2], LLVMBuildInsertValue(t->builder, value, b, 1, ""));
    } else {
        spv_store_pointer(t, w[6], b);
        tr_set(t, w[2], a);
    }
    return true;
}

/* --- Packing ------------------------------------------------------------------------------ */

/* Pack*: the components of a vector into one 32-bit integer, component 0
 * in the least significant bits. */
static bool translate_pack(struct tr *t, uint32_t inst, const uint32_t *w)
{
    LLVMBuilderRef b = t->builder;
    LLVMValueRef v[MAX_COMPONENTS] = { 0 };
    unsigned n = split(t, tr_get(t, w[5]), v);
    if (inst == GLSLstd450PackDouble2x32) {
        LLVMValueRef lo = LLVMBuildZExt(b, v[0], t->lane_i64, "");
        LLVMValueRef hi = LLVMBuildShl(b, LLVMBuildZExt(b, v[1], t->lane_i64, ""), lane_iconst(t, t->i64, 32), "");
        tr_set(t, w[2], LLVMBuildBitCast(b, LLVMBuildOr(b, lo, hi, ""), LLVMVectorType(t->f64, t->width), ""));
        return true;
    }
    unsigned bits = n == 4 ? 8 : 16;
    LLVMValueRef packed = LLVMConstNull(t->lane_i32);
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef c = v[i], field;
        if (inst == GLSLstd450PackHalf2x16) {
            LLVMValueRef half = LLVMBuildFPTrunc(b, c, LLVMVectorType(t->f16, t->width), "");
            field = LLVMBuildZExt(b, LLVMBuildBitCast(b, half, LLVMVectorType(t->i16, t->width), ""), t->lane_i32, "");
        } else {
            /* round(clamp(c, lo, 1) * scale), rounding to nearest even */
            bool snorm = inst == GLSLstd450PackSnorm4x8 || inst == GLSLstd450PackSnorm2x16;
            double scale = snorm ? (bits == 8 ? 127.0 : 32767.0) : (bits == 8 ? 255.0 : 65535.0);
            c = clamp_f(t, c, fconst(t, c, snorm ? -1.0 : 0.0), fconst(t, c, 1.0));
            c = call1(t, "llvm.roundeven", f_mul(t, c, fconst(t, c, scale)));
            field = LLVMBuildFPToSI(b, c, t->lane_i32, "");
            field = LLVMBuildAnd(b, field, lane_iconst(t, t->i32, (1u << bits) - 1), "");
        }
        packed = LLVMBuildOr(b, packed, LLVMBuildShl(b, field, lane_iconst(t, t->i32, i * bits), ""), "");
    }
    tr_set(t, w[2], packed);
    return true;
}

static bool translate_unpack(struct tr *t, uint32_t inst, const uint32_t *w)
{
    LLVMBuilderRef b = t->builder;
    LLVMValueRef packed = tr_get(t, w[5]);
    LLVMValueRef parts[4];
    if (inst == GLSLstd450UnpackDouble2x32) {
        LLVMValueRef bits = LLVMBuildBitCast(b, packed, t->lane_i64, "");
        parts[0] = LLVMBuildTrunc(b, bits, t->lane_i32, "");
        parts[1] = LLVMBuildTrunc(b, LLVMBuildLShr(b, bits, lane_iconst(t, t->i64, 32), ""), t->lane_i32, "");
        tr_set(t, w[2], join(t, w[1], parts, 2));
        return true;
    }
    const struct spv_type *result = spv_type(t->m, w[1]);
    unsigned n = result->count, bits = n == 4 ? 8 : 16;
    LLVMTypeRef field_type = LLVMVectorType(LLVMIntTypeInContext(t->context, bits), t->width);
    LLVMTypeRef float_type = LLVMVectorType(t->f32, t->width);
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef field = LLVMBuildTrunc(b, LLVMBuildLShr(b, packed, lane_iconst(t, t->i32, i * bits), ""),
                                            field_type, "");
        if (inst == GLSLstd450UnpackHalf2x16) {
            LLVMValueRef half = LLVMBuildBitCast(b, field, LLVMVectorType(t->f16, t->width), "");
            parts[i] = LLVMBuildFPExt(b, half, float_type, "");
            continue;
        }
        bool snorm = inst == GLSLstd450UnpackSnorm4x8 || inst == GLSLstd450UnpackSnorm2x16;
        double scale = snorm ? (bits == 8 ? 127.0 : 32767.0) : (bits == 8 ? 255.0 : 65535.0);
        LLVMValueRef f = snorm ? LLVMBuildSIToFP(b, field, float_type, "") : LLVMBuildUIToFP(b, field, float_type, "");
        f = f_div(t, f, fconst(t, f, scale));
        /* snorm: clamp(f / scale, -1, 1) (the most negative code is -1 too) */
        parts[i] = snorm ? clamp_f(t, f, fconst(t, f, -1.0), fconst(t, f, 1.0)) : f;
    }
    tr_set(t, w[2], join(t, w[1], parts, n));
    return true;
}

/* --- Dispatch ------------------------------------------------------------------------------ */

static unsigned component_operands(uint32_t inst)
{
    switch (inst) {
    case GLSLstd450Round: case GLSLstd450RoundEven: case GLSLstd450Trunc: case GLSLstd450FAbs:
    case GLSLstd450SAbs: case GLSLstd450FSign: case GLSLstd450SSign: case GLSLstd450Floor:
    case GLSLstd450Ceil: case GLSLstd450Fract: case GLSLstd450Radians: case GLSLstd450Degrees:
    case GLSLstd450Sin: case GLSLstd450Cos: case GLSLstd450Tan: case GLSLstd450Asin: case GLSLstd450Acos:
    case GLSLstd450Atan: case GLSLstd450Sinh: case GLSLstd450Cosh: case GLSLstd450Tanh:
    case GLSLstd450Asinh: case GLSLstd450Acosh: case GLSLstd450Atanh: case GLSLstd450Exp:
    case GLSLstd450Log: case GLSLstd450Exp2: case GLSLstd450Log2: case GLSLstd450Sqrt:
    case GLSLstd450InverseSqrt: case GLSLstd450FindILsb: case GLSLstd450FindSMsb: case GLSLstd450FindUMsb:
        return 1;
    case GLSLstd450Atan2: case GLSLstd450Pow: case GLSLstd450FMin: case GLSLstd450UMin: case GLSLstd450SMin:
    case GLSLstd450FMax: case GLSLstd450UMax: case GLSLstd450SMax: case GLSLstd450Step: case GLSLstd450Ldexp:
    case GLSLstd450NMin: case GLSLstd450NMax:
        return 2;
    case GLSLstd450FClamp: case GLSLstd450UClamp: case GLSLstd450SClamp: case GLSLstd450FMix:
    case GLSLstd450SmoothStep: case GLSLstd450Fma: case GLSLstd450NClamp:
        return 3;
    default:
        return 0;
    }
}

bool spv_translate_glsl450(struct tr *t, const struct spv_insn *insn, bool *handled)
{
    const uint32_t *w = spv_words(t->m, insn);
    uint32_t inst = w[4];
    *handled = true;
    unsigned n = component_operands(inst);
    if (n) {
        if (insn->word_count < 5 + n)
            return spv_fail(t->error, "GLSL.std.450 %s with too few operands", spv_glsl450_name(inst));
        LLVMValueRef args[3];
        for (unsigned i = 0; i < n; i++)
            args[i] = tr_get(t, w[5 + i]);
        struct component_op op = { inst, scalar_element(t, w[1]) };
        tr_set(t, w[2], tr_map(t, w[1], args, n, component, &op));
        return true;
    }
    switch (inst) {
    case GLSLstd450Determinant:
    case GLSLstd450MatrixInverse:
        return translate_matrix(t, inst, w);
    case GLSLstd450Modf:
    case GLSLstd450ModfStruct:
    case GLSLstd450Frexp:
    case GLSLstd450FrexpStruct:
        return translate_two_results(t, inst, w);
    case GLSLstd450PackSnorm4x8:
    case GLSLstd450PackUnorm4x8:
    case GLSLstd450PackSnorm2x16:
    case GLSLstd450PackUnorm2x16:
    case GLSLstd450PackHalf2x16:
    case GLSLstd450PackDouble2x32:
        return translate_pack(t, inst, w);
    case GLSLstd450UnpackSnorm2x16:
    case GLSLstd450UnpackUnorm2x16:
    case GLSLstd450UnpackHalf2x16:
    case GLSLstd450UnpackSnorm4x8:
    case GLSLstd450UnpackUnorm4x8:
    case GLSLstd450UnpackDouble2x32:
        return translate_unpack(t, inst, w);
    case GLSLstd450Length:
    case GLSLstd450Distance:
    case GLSLstd450Cross:
    case GLSLstd450Normalize:
    case GLSLstd450FaceForward:
    case GLSLstd450Reflect:
    case GLSLstd450Refract:
        return translate_geometric(t, inst, w, insn->word_count);
    case GLSLstd450InterpolateAtCentroid:
    case GLSLstd450InterpolateAtSample:
    case GLSLstd450InterpolateAtOffset:
        return spv_fail(t->error, "GLSL.std.450 %s is for fragment shaders; compute shaders cannot use it",
                        spv_glsl450_name(inst));
    default: {
        const char *name = spv_glsl450_name(inst);
        return spv_fail(t->error, "unsupported GLSL.std.450 instruction %s (%u)", name ? name : "?", inst);
    }
    }
}
