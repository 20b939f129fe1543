/* The translation's values (translate.c): SPIR-V constants as LLVM
 * constants splatted across the W lanes, and the ids' values, as plain LLVM
 * values inside a segment and through slots written under the execution
 * mask across segments and blocks. */
#include "spirv_private.h"

/* select(mask, a, b) lane by lane, through aggregates. */
LLVMValueRef tr_select_lanes(struct tr *t, LLVMValueRef mask, LLVMValueRef a, LLVMValueRef b)
{
    LLVMTypeRef type = LLVMTypeOf(a);
    LLVMTypeKind kind = LLVMGetTypeKind(type);
    if (kind == LLVMVectorTypeKind)
        return LLVMBuildSelect(t->builder, mask, a, b, "");
    unsigned n = kind == LLVMArrayTypeKind ? LLVMGetArrayLength(type) : LLVMCountStructElementTypes(type);
    LLVMValueRef result = LLVMGetUndef(type);
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef ai = LLVMBuildExtractValue(t->builder, a, i, "");
        LLVMValueRef bi = LLVMBuildExtractValue(t->builder, b, i, "");
        result = LLVMBuildInsertValue(t->builder, result, tr_select_lanes(t, mask, ai, bi), i, "");
    }
    return result;
}

/* --- Constants ---------------------------------------------------------------- */

static LLVMValueRef zero_of(struct tr *t, const struct spv_type *type)
{
    (void)t;
    return LLVMConstNull(type->value_type);
}

LLVMValueRef tr_zero(struct tr *t, uint32_t type_id)
{
    return zero_of(t, spv_type(t->m, type_id));
}

static LLVMValueRef splat_constant(struct tr *t, LLVMValueRef scalar)
{
    LLVMValueRef lanes[16];
    for (unsigned i = 0; i < t->width; i++)
        lanes[i] = scalar;
    return LLVMConstVector(lanes, t->width);
}

static LLVMValueRef scalar_constant(struct tr *t, const struct spv_type *type, const uint32_t *value)
{
    LLVMTypeRef scalar = spv_scalar_llvm(t, type);
    uint64_t bits = value[0];
    if (type->width == 64)
        bits |= (uint64_t)value[1] << 32;
    if (type->kind == SPV_TYPE_INT)
        return LLVMConstInt(scalar, bits, 0);
    LLVMValueRef as_int = LLVMConstInt(LLVMIntTypeInContext(t->context, type->width), bits, 0);
    return LLVMConstBitCast(as_int, scalar);
}

static LLVMValueRef constant_value(struct tr *t, uint32_t id)
{
    struct spv_id *c = &t->m->ids[id];
    if (c->constant)
        return c->constant;
    const struct spv_insn *insn = &t->m->insns[c->insn];
    const uint32_t *w = spv_words(t->m, insn);
    const struct spv_type *type = spv_type(t->m, insn->result_type);
    LLVMValueRef value;
    switch (insn->opcode) {
    case SpvOpConstant:
        value = splat_constant(t, scalar_constant(t, type, &w[3]));
        break;
    case SpvOpConstantTrue:
    case SpvOpConstantFalse:
        value = splat_constant(t, LLVMConstInt(t->i1, insn->opcode == SpvOpConstantTrue, 0));
        break;
    case SpvOpConstantComposite:
    case SpvOpSpecConstantComposite: { /* of constants only (spirv_parse.c) */
        unsigned n = insn->word_count - 3u;
        LLVMValueRef parts[n ? n : 1];
        for (unsigned i = 0; i < n; i++)
            parts[i] = constant_value(t, w[3 + i]);
        if (type->kind == SPV_TYPE_STRUCT)
            value = LLVMConstNamedStruct(type->value_type, parts, n);
        else
            value = LLVMConstArray(LLVMTypeOf(parts[0]), parts, n);
        break;
    }
    default: /* OpConstantNull, OpUndef: vkmm makes undefined values zero */
        value = zero_of(t, type);
        break;
    }
    c->constant = value;
    return value;
}

/* --- Values ------------------------------------------------------------------ */

LLVMValueRef tr_get(struct tr *t, uint32_t id)
{
    struct spv_id *v = &t->m->ids[id];
    if (v->kind == SPV_ID_CONSTANT)
        return constant_value(t, id);
    if (v->kind == SPV_ID_VARIABLE)
        return v->constant; /* the variable's pointer, computed in the prologue */
    if (t->value_generation[id] == t->generation && t->values[id])
        return t->values[id];
    if (!v->slot) {
        spv_fail(t->error, "value %%%u used before its definition", id);
        return tr_zero(t, v->type);
    }
    LLVMValueRef loaded = LLVMBuildLoad2(t->builder, spv_type(t->m, v->type)->value_type, v->slot, "");
    t->values[id] = loaded;
    t->value_generation[id] = t->generation;
    return loaded;
}

void tr_set(struct tr *t, uint32_t id, LLVMValueRef value)
{
    struct spv_id *v = &t->m->ids[id];
    t->values[id] = value;
    t->value_generation[id] = t->generation;
    if (!v->slot)
        return;
    LLVMTypeRef type = LLVMTypeOf(value);
    LLVMValueRef old = LLVMBuildLoad2(t->builder, type, v->slot, "");
    LLVMBuildStore(t->builder, tr_select_lanes(t, t->exec, value, old), v->slot);
}

