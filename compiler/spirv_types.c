/* SPIR-V types as SIMD values and as memory.
 *
 * Values are structure-of-arrays: a scalar of one invocation becomes a
 * <W x T> vector holding all lanes, and composites are LLVM aggregates of
 * those (a vec4 is [4 x <W x float>]).  Memory keeps the SPIR-V layout: the
 * explicit Offset/ArrayStride/MatrixStride decorations for buffers, and a
 * natural layout (every scalar aligned to its size) for storage no one
 * outside the shader sees. */
#include "spirv_private.h"

LLVMTypeRef spv_scalar_llvm(struct tr *t, const struct spv_type *type)
{
    switch (type->kind) {
    case SPV_TYPE_BOOL:
        return t->i1;
    case SPV_TYPE_INT:
        return LLVMIntTypeInContext(t->context, type->width);
    case SPV_TYPE_FLOAT:
        return type->width == 16 ? t->f16 : type->width == 64 ? t->f64 : t->f32;
    default:
        return NULL;
    }
}

static uint32_t align_up(uint32_t value, uint32_t align)
{
    return align ? (value + align - 1) / align * align : value;
}

static bool lower_type(struct tr *t, uint32_t id);

static bool lower_members(struct tr *t, struct spv_type *type)
{
    LLVMTypeRef fields[type->member_count ? type->member_count : 1];
    uint32_t size = 0, align = 1;
    for (uint32_t i = 0; i < type->member_count; i++) {
        if (!lower_type(t, type->members[i].type))
            return false;
        const struct spv_type *member = spv_type(t->m, type->members[i].type);
        fields[i] = member->value_type ? member->value_type : LLVMArrayType(t->i32, 0);
        size = align_up(size, member->natural_align) + member->natural_size;
        if (member->natural_align > align)
            align = member->natural_align;
    }
    type->value_type = LLVMStructTypeInContext(t->context, fields, type->member_count, 0);
    type->natural_size = align_up(size, align);
    type->natural_align = align;
    return true;
}

static bool lower_type(struct tr *t, uint32_t id)
{
    struct spv_type *type = spv_type(t->m, id);
    if (!type)
        return spv_fail(t->error, "%%%u is not a type", id);
    if (type->value_type || type->kind == SPV_TYPE_VOID || type->kind == SPV_TYPE_FUNCTION ||
        (type->kind == SPV_TYPE_RUNTIME_ARRAY && type->natural_size))
        return true;
    switch (type->kind) {
    case SPV_TYPE_BOOL:
    case SPV_TYPE_INT:
    case SPV_TYPE_FLOAT:
        type->value_type = LLVMVectorType(spv_scalar_llvm(t, type), t->width);
        type->natural_size = type->natural_align = type->width / 8;
        return true;
    case SPV_TYPE_VECTOR:
    case SPV_TYPE_MATRIX:
    case SPV_TYPE_ARRAY: {
        if (!lower_type(t, type->element))
            return false;
        const struct spv_type *element = spv_type(t->m, type->element);
        type->value_type = LLVMArrayType(element->value_type, type->count);
        type->natural_align = element->natural_align;
        type->natural_size = type->count * align_up(element->natural_size, element->natural_align);
        return true;
    }
    case SPV_TYPE_RUNTIME_ARRAY: {
        if (!lower_type(t, type->element))
            return false;
        const struct spv_type *element = spv_type(t->m, type->element);
        type->natural_align = element->natural_align;
        type->natural_size = align_up(element->natural_size, element->natural_align);
        return true;
    }
    case SPV_TYPE_STRUCT:
        return lower_members(t, type);
    case SPV_TYPE_POINTER: {
        LLVMTypeRef lanes[3] = { t->lane_i64, t->lane_i64, t->lane_i64 };
        type->value_type = LLVMStructTypeInContext(t->context, lanes, 3, 0);
        /* In memory a PhysicalStorageBuffer pointer is its address; a
         * logical one (variable pointers) also keeps its bounds. */
        type->natural_align = 8;
        type->natural_size = type->storage_class == SpvStorageClassPhysicalStorageBuffer ? 8 : 24;
        /* The pointee is lowered on demand: a buffer reference may point at
         * a struct that contains the pointer itself. */
        return true;
    }
    case SPV_TYPE_IMAGE:
    case SPV_TYPE_SAMPLER:
    case SPV_TYPE_SAMPLED_IMAGE: {
        /* Per lane, the addresses of the image's and the sampler's
         * descriptors (spirv_image.c). */
        LLVMTypeRef lanes[2] = { t->lane_i64, t->lane_i64 };
        type->value_type = LLVMStructTypeInContext(t->context, lanes, 2, 0);
        type->natural_size = type->natural_align = 8;
        return true;
    }
    default:
        return spv_fail(t->error, "type %%%u cannot be lowered", id);
    }
}

bool spv_types_lower(struct tr *t)
{
    for (uint32_t id = 1; id < t->m->bound; id++) {
        if (t->m->ids[id].kind == SPV_ID_TYPE && !lower_type(t, id))
            return false;
    }
    /* Pointees after pointers, now that every type has a record. */
    for (uint32_t id = 1; id < t->m->bound; id++) {
        const struct spv_type *type = spv_type(t->m, id);
        if (type && type->kind == SPV_TYPE_POINTER && !lower_type(t, type->element))
            return false;
    }
    return true;
}

uint32_t spv_type_size(struct tr *t, uint32_t type_id, bool explicit_layout)
{
    const struct spv_type *type = spv_type(t->m, type_id);
    if (!explicit_layout)
        return type->natural_size;
    switch (type->kind) {
    case SPV_TYPE_ARRAY:
        return type->count * type->array_stride;
    case SPV_TYPE_RUNTIME_ARRAY:
        return 0;
    case SPV_TYPE_STRUCT: {
        uint32_t end = 0;
        for (uint32_t i = 0; i < type->member_count; i++) {
            const struct spv_member *member = &type->members[i];
            const struct spv_type *mt = spv_type(t->m, member->type);
            uint32_t size;
            if (mt->kind == SPV_TYPE_MATRIX)
                size = mt->count * member->matrix_stride; /* an upper bound; row-major is no larger */
            else
                size = spv_type_size(t, member->type, true);
            if (member->offset + size > end)
                end = member->offset + size;
        }
        return end;
    }
    case SPV_TYPE_MATRIX:
        return type->natural_size; /* only reached outside structs, where layout is natural */
    default:
        return type->natural_size;
    }
}
