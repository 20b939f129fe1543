/* Integer dot products (SPV_KHR_integer_dot_product; Vulkan 1.3's
 * shaderIntegerDotProduct): OpSDot, OpUDot, OpSUDot and their AccSat forms,
 * on integer vectors or on 32-bit scalars holding four 8-bit components
 * (PackedVectorFormat4x8Bit).  The products and their sum are computed
 * exactly, in 128 bits: the plain forms keep the low bits ("the low-order
 * N bits of the correct result"), the AccSat forms add the accumulator and
 * saturate to the result type. */
#include "spirv_private.h"

/* Component i of an operand, extended to 128 bits. */
static LLVMValueRef component(struct tr *t, uint32_t id, bool packed, bool is_signed, unsigned i)
{
    LLVMTypeRef wide = LLVMVectorType(LLVMInt128TypeInContext(t->context), t->width);
    LLVMValueRef value = tr_get(t, id);
    if (packed) {
        LLVMValueRef shifted = LLVMBuildLShr(t->builder, value, tr_splat(t, LLVMConstInt(t->i32, 8 * i, 0)), "");
        value = LLVMBuildTrunc(t->builder, shifted, LLVMVectorType(LLVMInt8TypeInContext(t->context), t->width), "");
    } else {
        value = LLVMBuildExtractValue(t->builder, value, i, "");
    }
    return is_signed ? LLVMBuildSExt(t->builder, value, wide, "") : LLVMBuildZExt(t->builder, value, wide, "");
}

static LLVMValueRef wide_constant(struct tr *t, __int128 v)
{
    LLVMTypeRef i128 = LLVMInt128TypeInContext(t->context);
    uint64_t words[2] = { (uint64_t)v, (uint64_t)((unsigned __int128)v >> 64) };
    return tr_splat(t, LLVMConstIntOfArbitraryPrecision(i128, 2, words));
}

/* Saturates an exact 128-bit sum to `bits` bits. */
static LLVMValueRef saturate(struct tr *t, LLVMValueRef sum, unsigned bits, bool is_signed)
{
    __int128 max = is_signed ? (((__int128)1 << (bits - 1)) - 1) : (__int128)(((unsigned __int128)1 << bits) - 1);
    __int128 min = is_signed ? -((__int128)1 << (bits - 1)) : 0;
    LLVMValueRef hi = wide_constant(t, max), lo = wide_constant(t, min);
    sum = LLVMBuildSelect(t->builder, LLVMBuildICmp(t->builder, LLVMIntSGT, sum, hi, ""), hi, sum, "");
    return LLVMBuildSelect(t->builder, LLVMBuildICmp(t->builder, LLVMIntSLT, sum, lo, ""), lo, sum, "");
}

static bool translate_dot(struct tr *t, const struct spv_insn *insn, const uint32_t *w, bool first_signed,
                          bool second_signed, bool accumulate)
{
    const struct spv_module *m = t->m;
    const struct spv_type *result = spv_type(m, w[1]);
    const struct spv_type *operand = spv_type(m, m->ids[w[3]].type);
    unsigned format_word = accumulate ? 6 : 5;
    bool packed = insn->word_count > format_word;
    if (result->kind != SPV_TYPE_INT || (packed ? operand->kind != SPV_TYPE_INT || operand->width != 32
                                                : operand->kind != SPV_TYPE_VECTOR))
        return spv_fail(t->error, "integer dot product with unsupported operand types at word %u", insn->offset);
    unsigned count = packed ? 4 : operand->count;
    LLVMValueRef sum = NULL;
    for (unsigned i = 0; i < count; i++) {
        LLVMValueRef product = LLVMBuildMul(t->builder, component(t, w[3], packed, first_signed, i),
                                            component(t, w[4], packed, second_signed, i), "");
        sum = sum ? LLVMBuildAdd(t->builder, sum, product, "") : product;
    }
    /* UDot's result is unsigned; SDot's and SUDot's signed. */
    bool signed_result = first_signed || second_signed;
    if (accumulate) {
        LLVMValueRef acc = tr_get(t, w[5]);
        LLVMTypeRef wide = LLVMTypeOf(sum);
        acc = signed_result ? LLVMBuildSExt(t->builder, acc, wide, "") : LLVMBuildZExt(t->builder, acc, wide, "");
        sum = saturate(t, LLVMBuildAdd(t->builder, sum, acc, ""), result->width, signed_result);
    }
    tr_set(t, w[2], LLVMBuildTrunc(t->builder, sum, result->value_type, ""));
    return true;
}

bool spv_translate_dot(struct tr *t, const struct spv_insn *insn, bool *handled)
{
    const uint32_t *w = spv_words(t->m, insn);
    *handled = true;
    switch (insn->opcode) {
    case SpvOpSDot:
        return translate_dot(t, insn, w, true, true, false);
    case SpvOpUDot:
        return translate_dot(t, insn, w, false, false, false);
    case SpvOpSUDot:
        return translate_dot(t, insn, w, true, false, false);
    case SpvOpSDotAccSat:
        return translate_dot(t, insn, w, true, true, true);
    case SpvOpUDotAccSat:
        return translate_dot(t, insn, w, false, false, true);
    case SpvOpSUDotAccSat:
        return translate_dot(t, insn, w, true, false, true);
    default:
        *handled = false;
        return true;
    }
}
