/* Access chains, array lengths and pointer bitcasts: pointers into the
 * storage kinds of lower_memory.c, with the bounds every later access is
 * checked against (a descriptor's range, a variable). */
#include "lower_memory.h"

/* --- Access chains ---------------------------------------------------------------- */

static LLVMValueRef index_i64(struct tr *t, uint32_t id)
{
    LLVMValueRef index = tr_get(t, id);
    unsigned width = LLVMGetIntTypeWidth(LLVMGetElementType(LLVMTypeOf(index)));
    if (width == 64)
        return index;
    /* The spec: access chain indexes are treated as signed. */
    return LLVMBuildSExt(t->builder, index, t->lane_i64, "");
}

static bool constant_index(struct tr *t, uint32_t id, uint32_t *out)
{
    const struct spv_id *c = &t->m->ids[id];
    if (c->kind != SPV_ID_CONSTANT || t->m->insns[c->insn].opcode != SpvOpConstant)
        return false;
    *out = spv_words(t->m, &t->m->insns[c->insn])[3];
    return true;
}

bool spv_translate_access_chain(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    struct spv_module *m = t->m;
    uint32_t base_id = w[3];
    const struct spv_type *base_type = spv_type(m, m->ids[base_id].type);
    enum spv_storage_kind kind = spv_storage_kind(base_type->storage_class);
    bool explicit_layout = kind == SPV_STORAGE_EXPLICIT;
    struct tr_pointer p = spv_unpack_pointer(t, tr_get(t, base_id));
    struct tr_layout layout = t->layouts[base_id];
    uint32_t type_id = base_type->element;
    uint32_t first = 4;
    LLVMValueRef offset = spv_i64_splat(t, 0);
    bool uniform = layout.uniform && insn->opcode != SpvOpPtrAccessChain;
    for (uint32_t k = 4; k < insn->word_count; k++) {
        uint32_t ignored;
        uniform &= constant_index(t, w[k], &ignored);
    }

    if (insn->opcode == SpvOpPtrAccessChain) {
        /* The pointer type's ArrayStride; without one (Workgroup or
         * Function memory of no explicit layout) the pointee's natural
         * stride. */
        uint32_t stride = base_type->array_stride ? base_type->array_stride : spv_natural_stride(t, type_id);
        offset = LLVMBuildMul(t->builder, index_i64(t, w[4]), spv_i64_splat(t, stride), "");
        first = 5;
    }
    const struct spv_id *base = &m->ids[base_id];
    if (base->kind == SPV_ID_VARIABLE && spv_is_descriptor_array(t, &m->variables[base->variable]) &&
        first < insn->word_count) {
        const struct vkmm_compile_binding *binding = spv_find_binding(t, base->set, base->binding);
        p = spv_descriptor_pointer(t, base->set, binding->first, binding->count, index_i64(t, w[first]));
        type_id = spv_type(m, type_id)->element;
        first++;
    }
    for (uint32_t k = first; k < insn->word_count; k++) {
        const struct spv_type *type = spv_type(m, type_id);
        uint32_t constant;
        switch (type->kind) {
        case SPV_TYPE_STRUCT: {
            if (!constant_index(t, w[k], &constant) || constant >= type->member_count)
                return spv_fail(t->error, "struct index at word %u is not a constant member", insn->offset);
            const struct spv_member *member = &type->members[constant];
            uint32_t member_offset = explicit_layout ? member->offset : spv_natural_member_offset(t, type, constant);
            offset = LLVMBuildAdd(t->builder, offset, spv_i64_splat(t, member_offset), "");
            layout.matrix_stride = member->matrix_stride;
            layout.row_major = member->row_major;
            type_id = member->type;
            break;
        }
        case SPV_TYPE_ARRAY:
        case SPV_TYPE_RUNTIME_ARRAY: {
            uint32_t stride = explicit_layout ? type->array_stride : spv_natural_stride(t, type->element);
            offset = LLVMBuildAdd(t->builder, offset,
                                  LLVMBuildMul(t->builder, index_i64(t, w[k]), spv_i64_splat(t, stride), ""), "");
            type_id = type->element;
            break;
        }
        case SPV_TYPE_MATRIX: {
            const struct spv_type *column = spv_type(m, type->element);
            unsigned scalar = spv_scalar_bytes(spv_type(m, column->element));
            uint32_t stride;
            if (explicit_layout && layout.row_major)
                stride = scalar;
            else
                stride = explicit_layout ? layout.matrix_stride : spv_natural_stride(t, type->element);
            offset = LLVMBuildAdd(t->builder, offset,
                                  LLVMBuildMul(t->builder, index_i64(t, w[k]), spv_i64_splat(t, stride), ""), "");
            if (!(explicit_layout && layout.row_major))
                layout.matrix_stride = 0;
            type_id = type->element;
            break;
        }
        case SPV_TYPE_VECTOR: {
            unsigned scalar = spv_scalar_bytes(spv_type(m, type->element));
            uint32_t stride = layout.row_major && layout.matrix_stride ? layout.matrix_stride : scalar;
            offset = LLVMBuildAdd(t->builder, offset,
                                  LLVMBuildMul(t->builder, index_i64(t, w[k]), spv_i64_splat(t, stride), ""), "");
            layout.row_major = false;
            layout.matrix_stride = 0;
            type_id = type->element;
            break;
        }
        default:
            return spv_fail(t->error, "access chain into a scalar at word %u", insn->offset);
        }
    }
    if (kind == SPV_STORAGE_LANE_SCALED)
        offset = LLVMBuildMul(t->builder, offset, spv_i64_splat(t, t->width), "");
    p.addr = LLVMBuildAdd(t->builder, p.addr, offset, "");
    uint32_t component;
    const struct spv_type *vector = t->builtin_variable[base_id] ? spv_builtin_type(t, base_id) : NULL;
    if (vector && vector->kind == SPV_TYPE_VECTOR && !t->builtin_component[base_id] && insn->word_count == 5 &&
        constant_index(t, w[4], &component)) {
        /* A constant index past the vector's end is valid SPIR-V whose
         * result is undefined: component 0 is as good a value as any. */
        if (component >= vector->count)
            component = 0;
        t->builtin_variable[w[2]] = t->builtin_variable[base_id];
        t->builtin_component[w[2]] = component + 1;
    }
    layout.uniform = uniform;
    t->layouts[w[2]] = layout;
    tr_set(t, w[2], spv_pack_pointer(t, p));
    return true;
}

bool spv_translate_array_length(struct tr *t, const uint32_t *w)
{
    struct spv_module *m = t->m;
    const struct spv_type *ptype = spv_type(m, m->ids[w[3]].type);
    const struct spv_type *block = spv_type(m, ptype->element);
    const struct spv_member *member = &block->members[w[4]];
    const struct spv_type *array = spv_type(m, member->type);
    struct tr_pointer p = spv_unpack_pointer(t, tr_get(t, w[3]));
    LLVMValueRef start = LLVMBuildAdd(t->builder, p.addr, spv_i64_splat(t, member->offset), "");
    LLVMValueRef has_room = LLVMBuildICmp(t->builder, LLVMIntUGT, p.hi, start, "");
    LLVMValueRef bytes = LLVMBuildSelect(t->builder, has_room, LLVMBuildSub(t->builder, p.hi, start, ""),
                                         spv_i64_splat(t, 0), "");
    LLVMValueRef length = LLVMBuildUDiv(t->builder, bytes,
                                        spv_i64_splat(t, array->array_stride ? array->array_stride : 1), "");
    tr_set(t, w[2], LLVMBuildTrunc(t->builder, length, t->lane_i32, ""));
    return true;
}

/* Bitcasts that involve a pointer: to or from a 64-bit integer or a uvec2
 * (other bitcasts are arithmetic's). */
bool spv_translate_pointer_bitcast(struct tr *t, const uint32_t *w)
{
    struct spv_module *m = t->m;
    const struct spv_type *to = spv_type(m, w[1]);
    const struct spv_type *from = spv_type(m, m->ids[w[3]].type);
    LLVMValueRef value = tr_get(t, w[3]);
    if (to->kind == SPV_TYPE_POINTER && from->kind == SPV_TYPE_POINTER) {
        tr_set(t, w[2], value);
        return true;
    }
    if (to->kind == SPV_TYPE_POINTER) {
        if (from->kind == SPV_TYPE_VECTOR) {
            LLVMValueRef low = LLVMBuildZExt(t->builder, LLVMBuildExtractValue(t->builder, value, 0, ""), t->lane_i64, "");
            LLVMValueRef high = LLVMBuildZExt(t->builder, LLVMBuildExtractValue(t->builder, value, 1, ""), t->lane_i64, "");
            value = LLVMBuildOr(t->builder, low, LLVMBuildShl(t->builder, high, spv_i64_splat(t, 32), ""), "");
        }
        tr_set(t, w[2], spv_memory_address_pointer(t, value));
        return true;
    }
    LLVMValueRef address = LLVMBuildExtractValue(t->builder, value, 0, "");
    if (to->kind == SPV_TYPE_VECTOR) {
        LLVMValueRef pair = LLVMGetUndef(to->value_type);
        pair = LLVMBuildInsertValue(t->builder, pair, LLVMBuildTrunc(t->builder, address, t->lane_i32, ""), 0, "");
        LLVMValueRef high = LLVMBuildTrunc(t->builder, LLVMBuildLShr(t->builder, address, spv_i64_splat(t, 32), ""),
                                           t->lane_i32, "");
        tr_set(t, w[2], LLVMBuildInsertValue(t->builder, pair, high, 1, ""));
        return true;
    }
    tr_set(t, w[2], address);
    return true;
}

