/* Arithmetic, bit, relational, logical and conversion instructions.  Each
 * works component by component on <W x T> lane vectors (tr_map).  Integer
 * division by zero and the INT_MIN / -1 overflow, whose results SPIR-V
 * leaves undefined, are given divisor 1 so that no lane can trap. */
#include <string.h>

#include "spirv_private.h"

/* Component i of a value: an element of an aggregate, or the value itself
 * when it is a lane vector (a scalar operand used with every component). */
static LLVMValueRef component(struct tr *t, LLVMValueRef value, unsigned i)
{
    LLVMTypeKind kind = LLVMGetTypeKind(LLVMTypeOf(value));
    if (kind == LLVMArrayTypeKind || kind == LLVMStructTypeKind)
        return LLVMBuildExtractValue(t->builder, value, i, "");
    return value;
}

LLVMValueRef tr_map(struct tr *t, uint32_t result_type, LLVMValueRef *args, unsigned arg_count, tr_component_fn fn,
                    void *user)
{
    const struct spv_type *type = spv_type(t->m, result_type);
    if (type->kind != SPV_TYPE_VECTOR && type->kind != SPV_TYPE_MATRIX)
        return fn(t, args, user);
    LLVMValueRef result = LLVMGetUndef(type->value_type);
    for (unsigned i = 0; i < type->count; i++) {
        LLVMValueRef parts[4];
        for (unsigned a = 0; a < arg_count; a++)
            parts[a] = component(t, args[a], i);
        LLVMValueRef value = type->kind == SPV_TYPE_MATRIX ? tr_map(t, type->element, parts, arg_count, fn, user)
                                                           : fn(t, parts, user);
        result = LLVMBuildInsertValue(t->builder, result, value, i, "");
    }
    return result;
}

static LLVMTypeRef element_of(LLVMValueRef lanes)
{
    return LLVMGetElementType(LLVMTypeOf(lanes));
}

static LLVMValueRef splat_like(struct tr *t, LLVMValueRef lanes, uint64_t value)
{
    return tr_splat(t, LLVMConstInt(element_of(lanes), value, 0));
}

/* --- Component operations ----------------------------------------------------------- */

struct op {
    uint16_t opcode;
    LLVMTypeRef result; /* element type of the result, for conversions */
    uint8_t rounding;   /* the result's FPRoundingMode + 1, 0 when none */
};

static LLVMValueRef safe_divisor(struct tr *t, LLVMValueRef a, LLVMValueRef b, bool is_signed)
{
    LLVMValueRef zero = LLVMBuildICmp(t->builder, LLVMIntEQ, b, splat_like(t, b, 0), "");
    LLVMValueRef bad = zero;
    if (is_signed) {
        unsigned width = LLVMGetIntTypeWidth(element_of(a));
        LLVMValueRef min = splat_like(t, a, 1ull << (width - 1));
        LLVMValueRef overflow = LLVMBuildAnd(t->builder, LLVMBuildICmp(t->builder, LLVMIntEQ, a, min, ""),
                                             LLVMBuildICmp(t->builder, LLVMIntEQ, b, splat_like(t, b, ~0ull), ""), "");
        bad = LLVMBuildOr(t->builder, zero, overflow, "");
    }
    return LLVMBuildSelect(t->builder, bad, splat_like(t, b, 1), b, "");
}

/* Shift amounts may have another width than the base; amounts past the
 * width are undefined in SPIR-V and are taken modulo the width here. */
static LLVMValueRef shift_amount(struct tr *t, LLVMValueRef base, LLVMValueRef shift)
{
    LLVMTypeRef target = LLVMTypeOf(base);
    unsigned width = LLVMGetIntTypeWidth(element_of(base));
    unsigned shift_width = LLVMGetIntTypeWidth(element_of(shift));
    if (shift_width > width)
        shift = LLVMBuildTrunc(t->builder, shift, target, "");
    else if (shift_width < width)
        shift = LLVMBuildZExt(t->builder, shift, target, "");
    return LLVMBuildAnd(t->builder, shift, splat_like(t, base, width - 1), "");
}

static LLVMValueRef smod(struct tr *t, LLVMValueRef a, LLVMValueRef b)
{
    /* SMod: the sign of the result follows the divisor. */
    LLVMValueRef divisor = safe_divisor(t, a, b, true);
    LLVMValueRef rem = LLVMBuildSRem(t->builder, a, divisor, "");
    LLVMValueRef zero = splat_like(t, a, 0);
    LLVMValueRef nonzero = LLVMBuildICmp(t->builder, LLVMIntNE, rem, zero, "");
    LLVMValueRef signs_differ = LLVMBuildICmp(t->builder, LLVMIntSLT, LLVMBuildXor(t->builder, rem, divisor, ""),
                                              zero, "");
    LLVMValueRef fix = LLVMBuildAnd(t->builder, nonzero, signs_differ, "");
    return LLVMBuildSelect(t->builder, fix, LLVMBuildAdd(t->builder, rem, divisor, ""), rem, "");
}

static LLVMValueRef fmod_glsl(struct tr *t, LLVMValueRef a, LLVMValueRef b)
{
    /* OpFMod: x - y * floor(x / y), sign of y. */
    LLVMValueRef quotient = LLVMBuildFDiv(t->builder, a, b, "");
    LLVMTypeRef type = LLVMTypeOf(a);
    LLVMValueRef floor = tr_call_intrinsic(t, "llvm.floor", &type, 1, &quotient, 1);
    return LLVMBuildFSub(t->builder, a, LLVMBuildFMul(t->builder, b, floor, ""), "");
}

static LLVMValueRef bit_count(struct tr *t, LLVMValueRef a, LLVMTypeRef result)
{
    LLVMTypeRef type = LLVMTypeOf(a);
    LLVMValueRef count = tr_call_intrinsic(t, "llvm.ctpop", &type, 1, &a, 1);
    LLVMTypeRef target = LLVMVectorType(result, t->width);
    unsigned from = LLVMGetIntTypeWidth(element_of(a)), to = LLVMGetIntTypeWidth(result);
    if (from > to)
        return LLVMBuildTrunc(t->builder, count, target, "");
    if (from < to)
        return LLVMBuildZExt(t->builder, count, target, "");
    return count;
}

static LLVMValueRef float_class(struct tr *t, LLVMValueRef a, bool nan)
{
    if (nan)
        return LLVMBuildFCmp(t->builder, LLVMRealUNO, a, a, "");
    LLVMTypeRef type = LLVMTypeOf(a);
    LLVMValueRef magnitude = tr_call_intrinsic(t, "llvm.fabs", &type, 1, &a, 1);
    LLVMValueRef infinity = tr_splat(t, LLVMConstReal(element_of(a), __builtin_inf()));
    return LLVMBuildFCmp(t->builder, LLVMRealOEQ, magnitude, infinity, "");
}

/* A narrowing OpFConvert decorated FPRoundingMode RTZ (Vulkan allows only
 * RTE and RTZ, VUID-StandaloneSpirv-FPRoundingMode-04675).  fptrunc rounds
 * to nearest even, so its result is either the truncated value or the next
 * one away from zero (Inf for a finite value past the largest); then one
 * step down of the magnitude bits gives the truncated value.  The wider type
 * holds the narrow result exactly, so comparing there tells which case it
 * is.  NaNs compare false and stay as they are. */
static LLVMValueRef narrow_toward_zero(struct tr *t, LLVMValueRef a, LLVMTypeRef element)
{
    LLVMBuilderRef b = t->builder;
    LLVMTypeRef target = LLVMVectorType(element, t->width);
    LLVMTypeRef wide = LLVMTypeOf(a);
    LLVMValueRef nearest = LLVMBuildFPTrunc(b, a, target, "");
    LLVMValueRef back = LLVMBuildFPExt(b, nearest, wide, "");
    LLVMValueRef magnitude[2] = { tr_call_intrinsic(t, "llvm.fabs", &wide, 1, &back, 1),
                                  tr_call_intrinsic(t, "llvm.fabs", &wide, 1, &a, 1) };
    LLVMValueRef away = LLVMBuildFCmp(b, LLVMRealOGT, magnitude[0], magnitude[1], "");
    LLVMTypeRef bits_type = LLVMVectorType(LLVMIntTypeInContext(t->context, spv_float_bits(element)), t->width);
    LLVMValueRef bits = LLVMBuildBitCast(b, nearest, bits_type, "");
    LLVMValueRef smaller = LLVMBuildSub(b, bits, tr_splat(t, LLVMConstInt(element_of(bits), 1, 0)), "");
    return LLVMBuildBitCast(b, LLVMBuildSelect(b, away, smaller, bits, ""), target, "");
}

/* OpQuantizeToF16: "If Value is positive with a magnitude too small to
 * represent as a normalized 16-bit floating-point value, it is converted to
 * positive zero" (negative: negative zero); fptrunc alone keeps
 * denormals. */
static LLVMValueRef quantize_to_f16(struct tr *t, LLVMValueRef a)
{
    LLVMBuilderRef b = t->builder;
    LLVMTypeRef type = LLVMTypeOf(a);
    LLVMValueRef half = LLVMBuildFPTrunc(b, a, LLVMVectorType(t->f16, t->width), "");
    LLVMValueRef value = LLVMBuildFPExt(b, half, type, "");
    LLVMValueRef magnitude = tr_call_intrinsic(t, "llvm.fabs", &type, 1, &value, 1);
    LLVMValueRef smallest_normal = tr_splat(t, LLVMConstReal(element_of(a), 0x1p-14));
    LLVMValueRef tiny = LLVMBuildFCmp(b, LLVMRealOLT, magnitude, smallest_normal, "");
    LLVMValueRef signs[2] = { LLVMConstNull(type), a };
    LLVMValueRef zero = tr_call_intrinsic(t, "llvm.copysign", &type, 1, signs, 2);
    return LLVMBuildSelect(b, tiny, zero, value, "");
}

static LLVMValueRef convert(struct tr *t, const struct op *op, LLVMValueRef a)
{
    uint16_t opcode = op->opcode;
    LLVMTypeRef element = op->result;
    LLVMTypeRef target = LLVMVectorType(element, t->width);
    LLVMTypeRef from = LLVMTypeOf(a);
    switch (opcode) {
    case SpvOpConvertFToU:
    case SpvOpConvertFToS: {
        /* Saturating: out-of-range values (undefined in SPIR-V) convert
         * deterministically. */
        LLVMTypeRef overloads[2] = { target, from };
        return tr_call_intrinsic(t, opcode == SpvOpConvertFToU ? "llvm.fptoui.sat" : "llvm.fptosi.sat", overloads, 2,
                                 &a, 1);
    }
    case SpvOpConvertSToF:
        return LLVMBuildSIToFP(t->builder, a, target, "");
    case SpvOpConvertUToF:
        return LLVMBuildUIToFP(t->builder, a, target, "");
    case SpvOpUConvert:
    case SpvOpSConvert: {
        unsigned fw = LLVMGetIntTypeWidth(element_of(a)), tw = LLVMGetIntTypeWidth(element);
        if (fw == tw)
            return a;
        if (fw > tw)
            return LLVMBuildTrunc(t->builder, a, target, "");
        return opcode == SpvOpSConvert ? LLVMBuildSExt(t->builder, a, target, "")
                                       : LLVMBuildZExt(t->builder, a, target, "");
    }
    case SpvOpFConvert:
        if (op->rounding == SpvFPRoundingModeRTZ + 1 && spv_float_bits(element) < spv_float_bits(element_of(a)))
            return narrow_toward_zero(t, a, element);
        return LLVMBuildFPCast(t->builder, a, target, "");
    case SpvOpQuantizeToF16:
        return quantize_to_f16(t, a);
    default:
        return a;
    }
}

static LLVMValueRef apply(struct tr *t, LLVMValueRef *x, void *user)
{
    const struct op *op = user;
    LLVMBuilderRef b = t->builder;
    LLVMValueRef a = x[0], c = x[1];
    switch (op->opcode) {
    case SpvOpSNegate: return LLVMBuildNeg(b, a, "");
    case SpvOpFNegate: return LLVMBuildFNeg(b, a, "");
    case SpvOpNot:
    case SpvOpLogicalNot: return LLVMBuildNot(b, a, "");
    case SpvOpIAdd: return LLVMBuildAdd(b, a, c, "");
    case SpvOpISub: return LLVMBuildSub(b, a, c, "");
    case SpvOpIMul: return LLVMBuildMul(b, a, c, "");
    case SpvOpUDiv: return LLVMBuildUDiv(b, a, safe_divisor(t, a, c, false), "");
    case SpvOpSDiv: return LLVMBuildSDiv(b, a, safe_divisor(t, a, c, true), "");
    case SpvOpUMod: return LLVMBuildURem(b, a, safe_divisor(t, a, c, false), "");
    case SpvOpSRem: return LLVMBuildSRem(b, a, safe_divisor(t, a, c, true), "");
    case SpvOpSMod: return smod(t, a, c);
    case SpvOpFAdd: return LLVMBuildFAdd(b, a, c, "");
    case SpvOpFSub: return LLVMBuildFSub(b, a, c, "");
    case SpvOpFMul: return LLVMBuildFMul(b, a, c, "");
    case SpvOpFDiv: return LLVMBuildFDiv(b, a, c, "");
    case SpvOpFRem: return LLVMBuildFRem(b, a, c, "");
    case SpvOpFMod: return fmod_glsl(t, a, c);
    case SpvOpShiftLeftLogical: return LLVMBuildShl(b, a, shift_amount(t, a, c), "");
    case SpvOpShiftRightLogical: return LLVMBuildLShr(b, a, shift_amount(t, a, c), "");
    case SpvOpShiftRightArithmetic: return LLVMBuildAShr(b, a, shift_amount(t, a, c), "");
    case SpvOpBitwiseAnd:
    case SpvOpLogicalAnd: return LLVMBuildAnd(b, a, c, "");
    case SpvOpBitwiseOr:
    case SpvOpLogicalOr: return LLVMBuildOr(b, a, c, "");
    case SpvOpBitwiseXor:
    case SpvOpLogicalNotEqual: return LLVMBuildXor(b, a, c, "");
    case SpvOpLogicalEqual: return LLVMBuildNot(b, LLVMBuildXor(b, a, c, ""), "");
    case SpvOpBitReverse: {
        LLVMTypeRef type = LLVMTypeOf(a);
        return tr_call_intrinsic(t, "llvm.bitreverse", &type, 1, &a, 1);
    }
    case SpvOpBitCount: return bit_count(t, a, op->result);
    case SpvOpIsNan: return float_class(t, a, true);
    case SpvOpIsInf: return float_class(t, a, false);
    case SpvOpIEqual: return LLVMBuildICmp(b, LLVMIntEQ, a, c, "");
    case SpvOpINotEqual: return LLVMBuildICmp(b, LLVMIntNE, a, c, "");
    case SpvOpUGreaterThan: return LLVMBuildICmp(b, LLVMIntUGT, a, c, "");
    case SpvOpSGreaterThan: return LLVMBuildICmp(b, LLVMIntSGT, a, c, "");
    case SpvOpUGreaterThanEqual: return LLVMBuildICmp(b, LLVMIntUGE, a, c, "");
    case SpvOpSGreaterThanEqual: return LLVMBuildICmp(b, LLVMIntSGE, a, c, "");
    case SpvOpULessThan: return LLVMBuildICmp(b, LLVMIntULT, a, c, "");
    case SpvOpSLessThan: return LLVMBuildICmp(b, LLVMIntSLT, a, c, "");
    case SpvOpULessThanEqual: return LLVMBuildICmp(b, LLVMIntULE, a, c, "");
    case SpvOpSLessThanEqual: return LLVMBuildICmp(b, LLVMIntSLE, a, c, "");
    case SpvOpFOrdEqual: return LLVMBuildFCmp(b, LLVMRealOEQ, a, c, "");
    case SpvOpFUnordEqual: return LLVMBuildFCmp(b, LLVMRealUEQ, a, c, "");
    case SpvOpFOrdNotEqual: return LLVMBuildFCmp(b, LLVMRealONE, a, c, "");
    case SpvOpFUnordNotEqual: return LLVMBuildFCmp(b, LLVMRealUNE, a, c, "");
    case SpvOpFOrdLessThan: return LLVMBuildFCmp(b, LLVMRealOLT, a, c, "");
    case SpvOpFUnordLessThan: return LLVMBuildFCmp(b, LLVMRealULT, a, c, "");
    case SpvOpFOrdGreaterThan: return LLVMBuildFCmp(b, LLVMRealOGT, a, c, "");
    case SpvOpFUnordGreaterThan: return LLVMBuildFCmp(b, LLVMRealUGT, a, c, "");
    case SpvOpFOrdLessThanEqual: return LLVMBuildFCmp(b, LLVMRealOLE, a, c, "");
    case SpvOpFUnordLessThanEqual: return LLVMBuildFCmp(b, LLVMRealULE, a, c, "");
    case SpvOpFOrdGreaterThanEqual: return LLVMBuildFCmp(b, LLVMRealOGE, a, c, "");
    case SpvOpFUnordGreaterThanEqual: return LLVMBuildFCmp(b, LLVMRealUGE, a, c, "");
    case SpvOpSelect: return LLVMBuildSelect(b, a, c, x[2], "");
    default: return convert(t, op, a);
    }
}

/* --- Instructions ---------------------------------------------------------------------- */

static unsigned operand_count(uint16_t opcode)
{
    switch (opcode) {
    case SpvOpSNegate:
    case SpvOpFNegate:
    case SpvOpNot:
    case SpvOpLogicalNot:
    case SpvOpBitReverse:
    case SpvOpBitCount:
    case SpvOpIsNan:
    case SpvOpIsInf:
    case SpvOpConvertFToU:
    case SpvOpConvertFToS:
    case SpvOpConvertSToF:
    case SpvOpConvertUToF:
    case SpvOpUConvert:
    case SpvOpSConvert:
    case SpvOpFConvert:
    case SpvOpQuantizeToF16:
        return 1;
    case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpUDiv: case SpvOpSDiv: case SpvOpUMod:
    case SpvOpSRem: case SpvOpSMod: case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv:
    case SpvOpFRem: case SpvOpFMod: case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical:
    case SpvOpShiftRightArithmetic: case SpvOpBitwiseAnd: case SpvOpBitwiseOr: case SpvOpBitwiseXor:
    case SpvOpLogicalAnd: case SpvOpLogicalOr: case SpvOpLogicalEqual: case SpvOpLogicalNotEqual:
    case SpvOpIEqual: case SpvOpINotEqual: case SpvOpUGreaterThan: case SpvOpSGreaterThan:
    case SpvOpUGreaterThanEqual: case SpvOpSGreaterThanEqual: case SpvOpULessThan: case SpvOpSLessThan:
    case SpvOpULessThanEqual: case SpvOpSLessThanEqual: case SpvOpFOrdEqual: case SpvOpFUnordEqual:
    case SpvOpFOrdNotEqual: case SpvOpFUnordNotEqual: case SpvOpFOrdLessThan: case SpvOpFUnordLessThan:
    case SpvOpFOrdGreaterThan: case SpvOpFUnordGreaterThan: case SpvOpFOrdLessThanEqual:
    case SpvOpFUnordLessThanEqual: case SpvOpFOrdGreaterThanEqual: case SpvOpFUnordGreaterThanEqual:
        return 2;
    case SpvOpSelect:
        return 3;
    default:
        return 0;
    }
}

static LLVMTypeRef result_element(struct tr *t, uint32_t type_id)
{
    const struct spv_type *type = spv_type(t->m, type_id);
    while (type->kind == SPV_TYPE_VECTOR || type->kind == SPV_TYPE_MATRIX)
        type = spv_type(t->m, type->element);
    return spv_scalar_llvm(t, type);
}

/* Select with a scalar condition and composite operands chooses whole
 * objects; with a vector condition it chooses per component. */
static LLVMValueRef select_whole(struct tr *t, LLVMValueRef condition, LLVMValueRef a, LLVMValueRef b)
{
    LLVMTypeKind kind = LLVMGetTypeKind(LLVMTypeOf(a));
    if (kind == LLVMVectorTypeKind)
        return LLVMBuildSelect(t->builder, condition, a, b, "");
    LLVMTypeRef type = LLVMTypeOf(a);
    unsigned n = kind == LLVMArrayTypeKind ? LLVMGetArrayLength(type) : LLVMCountStructElementTypes(type);
    LLVMValueRef result = LLVMGetUndef(type);
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef part = select_whole(t, condition, LLVMBuildExtractValue(t->builder, a, i, ""),
                                         LLVMBuildExtractValue(t->builder, b, i, ""));
        result = LLVMBuildInsertValue(t->builder, result, part, i, "");
    }
    return result;
}

/* Bitcast between types of the same size per lane: component counts may
 * differ (uvec2 <-> uint64_t), so go through one integer per lane. */
static LLVMValueRef to_lane_bits(struct tr *t, LLVMValueRef value, const struct spv_type *type, unsigned *bits)
{
    if (type->kind != SPV_TYPE_VECTOR) {
        *bits = type->width;
        return LLVMBuildBitCast(t->builder, value, LLVMVectorType(LLVMIntTypeInContext(t->context, type->width),
                                                                  t->width), "");
    }
    const struct spv_type *e = spv_type(t->m, type->element);
    *bits = e->width * type->count;
    LLVMTypeRef wide = LLVMVectorType(LLVMIntTypeInContext(t->context, *bits), t->width);
    LLVMValueRef result = LLVMConstNull(wide);
    for (unsigned i = 0; i < type->count; i++) {
        unsigned part_bits;
        LLVMValueRef part = to_lane_bits(t, LLVMBuildExtractValue(t->builder, value, i, ""), e, &part_bits);
        part = LLVMBuildZExt(t->builder, part, wide, "");
        part = LLVMBuildShl(t->builder, part, tr_splat(t, LLVMConstInt(LLVMGetElementType(wide), i * e->width, 0)), "");
        result = LLVMBuildOr(t->builder, result, part, "");
    }
    return result;
}

static LLVMValueRef from_lane_bits(struct tr *t, LLVMValueRef bits, const struct spv_type *type)
{
    if (type->kind != SPV_TYPE_VECTOR) {
        LLVMTypeRef narrow = LLVMVectorType(LLVMIntTypeInContext(t->context, type->width), t->width);
        LLVMValueRef value = LLVMBuildTrunc(t->builder, bits, narrow, "");
        return LLVMBuildBitCast(t->builder, value, type->value_type, "");
    }
    const struct spv_type *e = spv_type(t->m, type->element);
    LLVMValueRef result = LLVMGetUndef(type->value_type);
    for (unsigned i = 0; i < type->count; i++) {
        LLVMValueRef shifted = LLVMBuildLShr(t->builder, bits,
                                             tr_splat(t, LLVMConstInt(LLVMGetElementType(LLVMTypeOf(bits)),
                                                                      i * e->width, 0)), "");
        result = LLVMBuildInsertValue(t->builder, result, from_lane_bits(t, shifted, e), i, "");
    }
    return result;
}

static bool translate_bitcast(struct tr *t, const uint32_t *w)
{
    struct spv_module *m = t->m;
    const struct spv_type *to = spv_type(m, w[1]);
    const struct spv_type *from = spv_type(m, m->ids[w[3]].type);
    LLVMValueRef value = tr_get(t, w[3]);
    unsigned bits;
    LLVMValueRef lanes = to_lane_bits(t, value, from, &bits);
    tr_set(t, w[2], from_lane_bits(t, lanes, to));
    return true;
}

/* OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended: a struct of
 * two results. */
static LLVMValueRef extended(struct tr *t, LLVMValueRef *x, void *user)
{
    uint16_t opcode = *(uint16_t *)user;
    LLVMBuilderRef b = t->builder;
    LLVMValueRef a = x[0], c = x[1];
    LLVMTypeRef type = LLVMTypeOf(a);
    unsigned width = LLVMGetIntTypeWidth(element_of(a));
    LLVMValueRef low, high;
    if (opcode == SpvOpIAddCarry) {
        low = LLVMBuildAdd(b, a, c, "");
        high = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntULT, low, a, ""), type, "");
    } else if (opcode == SpvOpISubBorrow) {
        low = LLVMBuildSub(b, a, c, "");
        high = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntULT, a, c, ""), type, "");
    } else {
        LLVMTypeRef wide = LLVMVectorType(LLVMIntTypeInContext(t->context, width * 2), t->width);
        bool is_signed = opcode == SpvOpSMulExtended;
        LLVMValueRef wa = is_signed ? LLVMBuildSExt(b, a, wide, "") : LLVMBuildZExt(b, a, wide, "");
        LLVMValueRef wc = is_signed ? LLVMBuildSExt(b, c, wide, "") : LLVMBuildZExt(b, c, wide, "");
        LLVMValueRef product = LLVMBuildMul(b, wa, wc, "");
        low = LLVMBuildTrunc(b, product, type, "");
        high = LLVMBuildTrunc(b, LLVMBuildLShr(b, product, tr_splat(t, LLVMConstInt(LLVMGetElementType(wide), width, 0)),
                                               ""), type, "");
    }
    /* Returned as a two-element array; the caller splits it. */
    LLVMValueRef pair = LLVMGetUndef(LLVMArrayType(type, 2));
    pair = LLVMBuildInsertValue(b, pair, low, 0, "");
    return LLVMBuildInsertValue(b, pair, high, 1, "");
}

static bool translate_extended(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    const struct spv_type *result = spv_type(t->m, w[1]);
    const struct spv_type *member = spv_type(t->m, result->members[0].type);
    LLVMValueRef a = tr_get(t, w[3]), c = tr_get(t, w[4]);
    LLVMValueRef low = LLVMGetUndef(member->value_type), high = LLVMGetUndef(member->value_type);
    uint16_t opcode = insn->opcode;
    unsigned n = member->kind == SPV_TYPE_VECTOR ? member->count : 1;
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef args[2] = { component(t, a, i), component(t, c, i) };
        LLVMValueRef pair = extended(t, args, &opcode);
        LLVMValueRef l = LLVMBuildExtractValue(t->builder, pair, 0, "");
        LLVMValueRef h = LLVMBuildExtractValue(t->builder, pair, 1, "");
        if (member->kind == SPV_TYPE_VECTOR) {
            low = LLVMBuildInsertValue(t->builder, low, l, i, "");
            high = LLVMBuildInsertValue(t->builder, high, h, i, "");
        } else {
            low = l;
            high = h;
        }
    }
    LLVMValueRef value = LLVMGetUndef(result->value_type);
    value = LLVMBuildInsertValue(t->builder, value, low, 0, "");
    tr_set(t, w[2], LLVMBuildInsertValue(t->builder, value, high, 1, ""));
    return true;
}

/* BitFieldInsert / SExtract / UExtract with scalar offset and count. */
struct bitfield {
    uint16_t opcode;
    LLVMValueRef offset, count;
};

static LLVMValueRef bitfield(struct tr *t, LLVMValueRef *x, void *user)
{
    const struct bitfield *f = user;
    LLVMBuilderRef b = t->builder;
    LLVMValueRef base = x[0];
    LLVMTypeRef type = LLVMTypeOf(base);
    unsigned width = LLVMGetIntTypeWidth(element_of(base));
    LLVMValueRef offset = LLVMBuildZExtOrBitCast(b, f->offset, type, "");
    LLVMValueRef count = LLVMBuildZExtOrBitCast(b, f->count, type, "");
    if (LLVMGetIntTypeWidth(element_of(f->offset)) > width) {
        offset = LLVMBuildTrunc(b, f->offset, type, "");
        count = LLVMBuildTrunc(b, f->count, type, "");
    }
    /* mask = count == width ? ~0 : (1 << count) - 1, without shifting by
     * the width. */
    LLVMValueRef all = splat_like(t, base, ~0ull);
    LLVMValueRef full = LLVMBuildICmp(b, LLVMIntUGE, count, splat_like(t, base, width), "");
    LLVMValueRef safe_count = LLVMBuildAnd(b, count, splat_like(t, base, width - 1), "");
    LLVMValueRef mask = LLVMBuildSelect(b, full, all,
                                        LLVMBuildSub(b, LLVMBuildShl(b, splat_like(t, base, 1), safe_count, ""),
                                                     splat_like(t, base, 1), ""), "");
    LLVMValueRef safe_offset = LLVMBuildAnd(b, offset, splat_like(t, base, width - 1), "");
    if (f->opcode == SpvOpBitFieldInsert) {
        LLVMValueRef insert = x[1];
        LLVMValueRef shifted_mask = LLVMBuildShl(b, mask, safe_offset, "");
        LLVMValueRef kept = LLVMBuildAnd(b, base, LLVMBuildNot(b, shifted_mask, ""), "");
        LLVMValueRef placed = LLVMBuildAnd(b, LLVMBuildShl(b, insert, safe_offset, ""), shifted_mask, "");
        LLVMValueRef result = LLVMBuildOr(b, kept, placed, "");
        LLVMValueRef zero_count = LLVMBuildICmp(b, LLVMIntEQ, count, splat_like(t, base, 0), "");
        return LLVMBuildSelect(b, zero_count, base, result, "");
    }
    LLVMValueRef field = LLVMBuildAnd(b, LLVMBuildLShr(b, base, safe_offset, ""), mask, "");
    LLVMValueRef zero_count = LLVMBuildICmp(b, LLVMIntEQ, count, splat_like(t, base, 0), "");
    if (f->opcode == SpvOpBitFieldUExtract)
        return LLVMBuildSelect(b, zero_count, splat_like(t, base, 0), field, "");
    /* Sign-extend from bit count-1: shift left then arithmetic right. */
    LLVMValueRef up = LLVMBuildSub(b, splat_like(t, base, width), count, "");
    LLVMValueRef safe_up = LLVMBuildAnd(b, up, splat_like(t, base, width - 1), "");
    LLVMValueRef extended_field = LLVMBuildAShr(b, LLVMBuildShl(b, field, safe_up, ""), safe_up, "");
    return LLVMBuildSelect(b, zero_count, splat_like(t, base, 0), extended_field, "");
}

static bool translate_bitfield(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    bool insert = insn->opcode == SpvOpBitFieldInsert;
    struct bitfield f = { insn->opcode, tr_get(t, w[insert ? 5 : 4]), tr_get(t, w[insert ? 6 : 5]) };
    LLVMValueRef args[2] = { tr_get(t, w[3]), insert ? tr_get(t, w[4]) : NULL };
    tr_set(t, w[2], tr_map(t, w[1], args, insert ? 2 : 1, bitfield, &f));
    return true;
}

static bool translate_any_all(struct tr *t, const uint32_t *w, bool all)
{
    const struct spv_type *type = spv_type(t->m, t->m->ids[w[3]].type);
    LLVMValueRef vector = tr_get(t, w[3]);
    LLVMValueRef result = component(t, vector, 0);
    for (unsigned i = 1; i < type->count; i++) {
        LLVMValueRef c = component(t, vector, i);
        result = all ? LLVMBuildAnd(t->builder, result, c, "") : LLVMBuildOr(t->builder, result, c, "");
    }
    tr_set(t, w[2], result);
    return true;
}

bool spv_translate_arith(struct tr *t, const struct spv_insn *insn, bool *handled)
{
    const uint32_t *w = spv_words(t->m, insn);
    *handled = true;
    switch (insn->opcode) {
    case SpvOpBitcast: {
        struct spv_module *m = t->m;
        if (spv_type(m, w[1])->kind == SPV_TYPE_POINTER || spv_type(m, m->ids[w[3]].type)->kind == SPV_TYPE_POINTER) {
            *handled = false; /* lower_memory.c */
            return true;
        }
        return translate_bitcast(t, w);
    }
    case SpvOpIAddCarry:
    case SpvOpISubBorrow:
    case SpvOpUMulExtended:
    case SpvOpSMulExtended:
        return translate_extended(t, insn, w);
    case SpvOpBitFieldInsert:
    case SpvOpBitFieldSExtract:
    case SpvOpBitFieldUExtract:
        return translate_bitfield(t, insn, w);
    case SpvOpAny:
    case SpvOpAll:
        return translate_any_all(t, w, insn->opcode == SpvOpAll);
    default:
        break;
    }
    unsigned n = operand_count(insn->opcode);
    if (!n) {
        *handled = false;
        return true;
    }
    LLVMValueRef args[3];
    for (unsigned i = 0; i < n; i++)
        args[i] = tr_get(t, w[3 + i]);
    if (insn->opcode == SpvOpSelect) {
        const struct spv_type *condition = spv_type(t->m, t->m->ids[w[3]].type);
        if (condition->kind == SPV_TYPE_BOOL) {
            tr_set(t, w[2], select_whole(t, args[0], args[1], args[2]));
            return true;
        }
    }
    struct op op = { insn->opcode, result_element(t, w[1]), t->m->ids[w[2]].fp_rounding };
    tr_set(t, w[2], tr_map(t, w[1], args, n, apply, &op));
    return true;
}
