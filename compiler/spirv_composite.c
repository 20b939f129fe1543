/* Composite and matrix instructions.  Composites are LLVM aggregates of
 * lane vectors, so extraction and insertion with constant indices are
 * extractvalue/insertvalue; dynamic vector indices select per lane. */
#include "spirv_private.h"

static LLVMValueRef part(struct tr *t, LLVMValueRef value, unsigned i)
{
    return LLVMBuildExtractValue(t->builder, value, i, "");
}

static LLVMValueRef with(struct tr *t, LLVMValueRef aggregate, LLVMValueRef value, unsigned i)
{
    return LLVMBuildInsertValue(t->builder, aggregate, value, i, "");
}

static bool translate_construct(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    const struct spv_type *type = spv_type(t->m, w[1]);
    LLVMValueRef result = LLVMGetUndef(type->value_type);
    unsigned index = 0;
    for (uint32_t k = 3; k < insn->word_count; k++) {
        LLVMValueRef c = tr_get(t, w[k]);
        const struct spv_type *ctype = spv_type(t->m, t->m->ids[w[k]].type);
        if (type->kind == SPV_TYPE_VECTOR && ctype->kind == SPV_TYPE_VECTOR) {
            /* Vector constituents are flattened into the components. */
            for (unsigned i = 0; i < ctype->count; i++)
                result = with(t, result, part(t, c, i), index++);
        } else {
            result = with(t, result, c, index++);
        }
    }
    tr_set(t, w[2], result);
    return true;
}

static bool translate_extract(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    LLVMValueRef value = tr_get(t, w[3]);
    for (uint32_t k = 4; k < insn->word_count; k++)
        value = part(t, value, w[k]);
    tr_set(t, w[2], value);
    return true;
}

static LLVMValueRef insert_path(struct tr *t, LLVMValueRef aggregate, LLVMValueRef object, const uint32_t *indices,
                                unsigned count)
{
    if (count == 0)
        return object;
    LLVMValueRef inner = insert_path(t, part(t, aggregate, indices[0]), object, indices + 1, count - 1);
    return with(t, aggregate, inner, indices[0]);
}

static bool translate_insert(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    LLVMValueRef object = tr_get(t, w[3]);
    LLVMValueRef composite = tr_get(t, w[4]);
    tr_set(t, w[2], insert_path(t, composite, object, &w[5], insn->word_count - 5u));
    return true;
}

static bool translate_shuffle(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    const struct spv_type *type = spv_type(t->m, w[1]);
    const struct spv_type *first = spv_type(t->m, t->m->ids[w[3]].type);
    LLVMValueRef a = tr_get(t, w[3]), b = tr_get(t, w[4]);
    LLVMValueRef result = LLVMGetUndef(type->value_type);
    for (uint32_t k = 5; k < insn->word_count; k++) {
        uint32_t select = w[k];
        LLVMValueRef c;
        if (select == 0xffffffffu) /* undefined component */
            c = LLVMConstNull(LLVMGetElementType(type->value_type));
        else if (select < first->count)
            c = part(t, a, select);
        else
            c = part(t, b, select - first->count);
        result = with(t, result, c, k - 5);
    }
    tr_set(t, w[2], result);
    return true;
}

static LLVMValueRef index_equals(struct tr *t, LLVMValueRef index, unsigned i)
{
    return LLVMBuildICmp(t->builder, LLVMIntEQ, index,
                         tr_splat(t, LLVMConstInt(LLVMGetElementType(LLVMTypeOf(index)), i, 0)), "");
}

static bool translate_extract_dynamic(struct tr *t, const uint32_t *w)
{
    const struct spv_type *vector = spv_type(t->m, t->m->ids[w[3]].type);
    LLVMValueRef value = tr_get(t, w[3]), index = tr_get(t, w[4]);
    /* An index out of range gives component 0 (undefined in SPIR-V). */
    LLVMValueRef result = part(t, value, 0);
    for (unsigned i = 1; i < vector->count; i++)
        result = LLVMBuildSelect(t->builder, index_equals(t, index, i), part(t, value, i), result, "");
    tr_set(t, w[2], result);
    return true;
}

static bool translate_insert_dynamic(struct tr *t, const uint32_t *w)
{
    const struct spv_type *vector = spv_type(t->m, w[1]);
    LLVMValueRef value = tr_get(t, w[3]), component = tr_get(t, w[4]), index = tr_get(t, w[5]);
    for (unsigned i = 0; i < vector->count; i++) {
        LLVMValueRef old = part(t, value, i);
        value = with(t, value, LLVMBuildSelect(t->builder, index_equals(t, index, i), component, old, ""), i);
    }
    tr_set(t, w[2], value);
    return true;
}

/* --- Matrices and vectors ------------------------------------------------------- */

static LLVMValueRef fma_add(struct tr *t, LLVMValueRef sum, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef product = LLVMBuildFMul(t->builder, a, b, "");
    return sum ? LLVMBuildFAdd(t->builder, sum, product, "") : product;
}

static LLVMValueRef dot(struct tr *t, LLVMValueRef a, LLVMValueRef b, unsigned n)
{
    LLVMValueRef sum = NULL;
    for (unsigned i = 0; i < n; i++)
        sum = fma_add(t, sum, part(t, a, i), part(t, b, i));
    return sum;
}

static LLVMValueRef scale(struct tr *t, LLVMValueRef vector, LLVMValueRef scalar, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        vector = with(t, vector, LLVMBuildFMul(t->builder, part(t, vector, i), scalar, ""), i);
    return vector;
}

/* matrix (columns x rows) times vector (columns) -> vector (rows) */
static LLVMValueRef matrix_times_vector(struct tr *t, LLVMValueRef matrix, LLVMValueRef vector, unsigned columns,
                                        unsigned rows, LLVMTypeRef result_type)
{
    LLVMValueRef result = LLVMGetUndef(result_type);
    for (unsigned r = 0; r < rows; r++) {
        LLVMValueRef sum = NULL;
        for (unsigned c = 0; c < columns; c++)
            sum = fma_add(t, sum, part(t, part(t, matrix, c), r), part(t, vector, c));
        result = with(t, result, sum, r);
    }
    return result;
}

static bool translate_matrix(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    struct spv_module *m = t->m;
    const struct spv_type *result = spv_type(m, w[1]);
    const struct spv_type *left = spv_type(m, m->ids[w[3]].type);
    LLVMValueRef a = tr_get(t, w[3]);
    LLVMValueRef b = insn->word_count > 4 ? tr_get(t, w[4]) : NULL;
    LLVMValueRef value;
    switch (insn->opcode) {
    case SpvOpDot:
        value = dot(t, a, b, left->count);
        break;
    case SpvOpVectorTimesScalar:
        value = scale(t, a, b, left->count);
        break;
    case SpvOpMatrixTimesScalar: {
        const struct spv_type *column = spv_type(m, left->element);
        value = a;
        for (unsigned c = 0; c < left->count; c++)
            value = with(t, value, scale(t, part(t, a, c), b, column->count), c);
        break;
    }
    case SpvOpMatrixTimesVector: {
        const struct spv_type *column = spv_type(m, left->element);
        value = matrix_times_vector(t, a, b, left->count, column->count, result->value_type);
        break;
    }
    case SpvOpVectorTimesMatrix: {
        /* result[c] = dot(vector, matrix column c) */
        const struct spv_type *matrix = spv_type(m, m->ids[w[4]].type);
        value = LLVMGetUndef(result->value_type);
        for (unsigned c = 0; c < matrix->count; c++)
            value = with(t, value, dot(t, a, part(t, b, c), left->count), c);
        break;
    }
    case SpvOpMatrixTimesMatrix: {
        const struct spv_type *column = spv_type(m, left->element);
        const struct spv_type *right = spv_type(m, m->ids[w[4]].type);
        const struct spv_type *result_column = spv_type(m, result->element);
        value = LLVMGetUndef(result->value_type);
        for (unsigned c = 0; c < right->count; c++)
            value = with(t, value, matrix_times_vector(t, a, part(t, b, c), left->count, column->count,
                                                       result_column->value_type), c);
        break;
    }
    case SpvOpOuterProduct: {
        /* result column c = a * b[c] */
        const struct spv_type *right = spv_type(m, m->ids[w[4]].type);
        value = LLVMGetUndef(result->value_type);
        for (unsigned c = 0; c < right->count; c++)
            value = with(t, value, scale(t, a, part(t, b, c), left->count), c);
        break;
    }
    case SpvOpTranspose: {
        const struct spv_type *column = spv_type(m, left->element);
        const struct spv_type *result_column = spv_type(m, result->element);
        value = LLVMGetUndef(result->value_type);
        for (unsigned r = 0; r < column->count; r++) {
            LLVMValueRef row = LLVMGetUndef(result_column->value_type);
            for (unsigned c = 0; c < left->count; c++)
                row = with(t, row, part(t, part(t, a, c), r), c);
            value = with(t, value, row, r);
        }
        break;
    }
    default:
        return false;
    }
    tr_set(t, w[2], value);
    return true;
}

bool spv_translate_composite(struct tr *t, const struct spv_insn *insn, bool *handled)
{
    const uint32_t *w = spv_words(t->m, insn);
    *handled = true;
    switch (insn->opcode) {
    case SpvOpCompositeConstruct:
        return translate_construct(t, insn, w);
    case SpvOpCompositeExtract:
        return translate_extract(t, insn, w);
    case SpvOpCompositeInsert:
        return translate_insert(t, insn, w);
    case SpvOpVectorShuffle:
        return translate_shuffle(t, insn, w);
    case SpvOpVectorExtractDynamic:
        return translate_extract_dynamic(t, w);
    case SpvOpVectorInsertDynamic:
        return translate_insert_dynamic(t, w);
    case SpvOpCopyObject:
    case SpvOpCopyLogical:
        tr_set(t, w[2], tr_get(t, w[3]));
        if (t->m->ids[w[3]].type && spv_type(t->m, t->m->ids[w[3]].type)->kind == SPV_TYPE_POINTER)
            t->layouts[w[2]] = t->layouts[w[3]];
        return true;
    case SpvOpDot:
    case SpvOpVectorTimesScalar:
    case SpvOpMatrixTimesScalar:
    case SpvOpMatrixTimesVector:
    case SpvOpVectorTimesMatrix:
    case SpvOpMatrixTimesMatrix:
    case SpvOpOuterProduct:
    case SpvOpTranspose:
        return translate_matrix(t, insn, w);
    default:
        *handled = false;
        return true;
    }
}
