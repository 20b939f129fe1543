/* Images, samplers and texel buffers.
 *
 * An image value is, per lane, the address of its descriptor (shader_abi.h:
 * base, range and struct vkmm_image_descriptor) and of its sampler's (the
 * same for a combined image sampler); 0 is a null descriptor.  Texels are
 * linear memory (runtime/image.h): a texel's address is computed here from
 * the descriptor's pitches, a coordinate outside the view's extent or
 * layers gives address 0, and the bytes are read and written through
 * lower_memory.c (spv_load_texel_bytes), which checks every lane against
 * the descriptor's [base, base + range) — out-of-range reads give zero,
 * writes are dropped, as robust access allows — and marks the bytes for
 * strict mode like any buffer access.  Texel conversions to and from the
 * view's format are C (texel_format.c), called through the invocation's
 * hooks once per instruction for all lanes.
 *
 * Sampling is spirv_sample.c; implicit LOD (fragment shaders) fails
 * compilation with its name. */
#include "spirv_image.h"

#include "spirv_names.h"

#include <vulkan/vulkan_core.h>

/* --- Descriptors ------------------------------------------------------------------ */

/* Descriptors a (possibly arrayed) UniformConstant type spans. */
static uint32_t descriptor_span(struct tr *t, uint32_t type_id)
{
    const struct spv_type *type = spv_type(t->m, type_id);
    if (type->kind == SPV_TYPE_ARRAY)
        return type->count * descriptor_span(t, type->element);
    return 1;
}

bool spv_image_variable_pointer(struct tr *t, const struct spv_variable *v, struct tr_pointer *out)
{
    const struct spv_id *id = &t->m->ids[v->id];
    const struct vkmm_compile_binding *binding = spv_find_binding(t, id->set, id->binding);
    if (!binding)
        return spv_fail(t->error, "variable %%%u uses set %u binding %u, which the pipeline layout lacks", v->id,
                        id->set, id->binding);
    LLVMValueRef table = LLVMBuildPtrToInt(
        t->builder, tr_invocation_field(t, VKMM_INVOCATION_SETS + 8 * id->set, t->ptr), t->i64, "");
    LLVMValueRef first = LLVMBuildAdd(t->builder, table,
                                      LLVMConstInt(t->i64, (uint64_t)binding->first * VKMM_DESCRIPTOR_SIZE, 0), "");
    LLVMValueRef end = LLVMBuildAdd(t->builder, first,
                                    LLVMConstInt(t->i64, (uint64_t)binding->count * VKMM_DESCRIPTOR_SIZE, 0), "");
    out->addr = out->lo = tr_splat(t, first);
    out->hi = tr_splat(t, end);
    return true;
}

static struct tr_pointer unpack(struct tr *t, LLVMValueRef value)
{
    struct tr_pointer p = {
        LLVMBuildExtractValue(t->builder, value, 0, ""),
        LLVMBuildExtractValue(t->builder, value, 1, ""),
        LLVMBuildExtractValue(t->builder, value, 2, ""),
    };
    return p;
}

static bool is_uniform_constant_pointer(struct tr *t, uint32_t id)
{
    const struct spv_type *type = id < t->m->bound ? spv_type(t->m, t->m->ids[id].type) : NULL;
    return type && type->kind == SPV_TYPE_POINTER && type->storage_class == SpvStorageClassUniformConstant;
}

/* An array index of the descriptors: addresses move by the element's span. */
static bool translate_access_chain(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    struct tr_pointer p = unpack(t, tr_get(t, w[3]));
    uint32_t type_id = spv_type(t->m, t->m->ids[w[3]].type)->element;
    for (uint32_t i = 4; i < insn->word_count; i++) {
        const struct spv_type *type = spv_type(t->m, type_id);
        if (type->kind != SPV_TYPE_ARRAY && type->kind != SPV_TYPE_RUNTIME_ARRAY)
            return spv_fail(t->error, "access chain into a non-array UniformConstant at word %u", insn->offset);
        type_id = type->element;
        LLVMValueRef index = tr_get(t, w[i]);
        index = LLVMGetElementType(LLVMTypeOf(index)) == t->i64 ? index
                                                                 : LLVMBuildSExt(t->builder, index, t->lane_i64, "");
        uint64_t stride = (uint64_t)descriptor_span(t, type_id) * VKMM_DESCRIPTOR_SIZE;
        p.addr = LLVMBuildAdd(t->builder, p.addr, LLVMBuildMul(t->builder, index, spv_i64_splat(t, stride), ""), "");
    }
    tr_set(t, w[2], spv_pack_pointer(t, p));
    return true;
}

/* The descriptor address of a UniformConstant pointer: 0 where the lane's
 * index left the binding (a null descriptor, never memory outside it). */
static LLVMValueRef descriptor_of_pointer(struct tr *t, uint32_t pointer_id)
{
    struct tr_pointer p = unpack(t, tr_get(t, pointer_id));
    LLVMValueRef ok = LLVMBuildAnd(t->builder, LLVMBuildICmp(t->builder, LLVMIntUGE, p.addr, p.lo, ""),
                                   LLVMBuildICmp(t->builder, LLVMIntULT, p.addr, p.hi, ""), "");
    return LLVMBuildSelect(t->builder, ok, p.addr, spv_i64_splat(t, 0), "");
}

static LLVMValueRef image_value(struct tr *t, LLVMValueRef image, LLVMValueRef sampler)
{
    LLVMTypeRef lanes[2] = { t->lane_i64, t->lane_i64 };
    LLVMValueRef value = LLVMGetUndef(LLVMStructTypeInContext(t->context, lanes, 2, 0));
    value = LLVMBuildInsertValue(t->builder, value, image, 0, "");
    return LLVMBuildInsertValue(t->builder, value, sampler, 1, "");
}

/* A field of every active lane's descriptor (a null descriptor reads 0).
 * Only active lanes: an inactive lane's descriptor may be anything — in
 * strict mode, after a suspension, it is the state's fill pattern (a
 * workgroup of one invocation crashed reading through it). */
static LLVMValueRef field(struct tr *t, LLVMValueRef descriptor, unsigned offset, LLVMTypeRef scalar)
{
    LLVMTypeRef vector = LLVMVectorType(scalar, t->width);
    LLVMValueRef present = LLVMBuildAnd(
        t->builder, LLVMBuildICmp(t->builder, LLVMIntNE, descriptor, spv_i64_splat(t, 0), ""), t->exec, "");
    LLVMValueRef addresses = LLVMBuildAdd(t->builder, descriptor, spv_i64_splat(t, offset), "");
    LLVMTypeRef overloads[2] = { vector, LLVMVectorType(t->ptr, t->width) };
    LLVMValueRef args[4] = { spv_to_pointers(t, addresses), LLVMConstInt(t->i32, 4, 0), present,
                             LLVMConstNull(vector) };
    return tr_call_intrinsic(t, "llvm.masked.gather", overloads, 2, args, 4);
}

LLVMValueRef spv_image_field(struct tr *t, LLVMValueRef descriptor, unsigned offset, LLVMTypeRef scalar)
{
    return field(t, descriptor, VKMM_DESCRIPTOR_IMAGE + offset, scalar);
}

/* --- Coordinates and addresses ----------------------------------------------------- */

LLVMValueRef spv_image_component(struct tr *t, LLVMValueRef value, unsigned i, unsigned count)
{
    if (i >= count)
        return NULL;
    return LLVMGetTypeKind(LLVMTypeOf(value)) == LLVMArrayTypeKind ? LLVMBuildExtractValue(t->builder, value, i, "")
                                                                     : value;
}

unsigned spv_image_component_count(struct tr *t, uint32_t value_id)
{
    const struct spv_type *type = spv_type(t->m, t->m->ids[value_id].type);
    return type->kind == SPV_TYPE_VECTOR ? type->count : 1;
}

/* Where each coordinate component goes for the image's dimensionality
 * (cubes as 2D arrays of faces: face + 6 * layer). */
static void coordinate_slots(const struct spv_image_type *image, int slot[4])
{
    slot[0] = slot[1] = slot[2] = slot[3] = -1;
    switch (image->dim) {
    case SpvDim1D:
    case SpvDimBuffer:
        slot[0] = 0;
        if (image->arrayed)
            slot[1] = 3;
        break;
    case SpvDim3D:
        slot[0] = 0, slot[1] = 1, slot[2] = 2;
        break;
    case SpvDimCube:
        slot[0] = 0, slot[1] = 1, slot[2] = 3;
        break;
    default: /* 2D, Rect, SubpassData */
        slot[0] = 0, slot[1] = 1;
        if (image->arrayed)
            slot[2] = 3;
        break;
    }
}

static struct texel_coords integer_coords(struct tr *t, const struct spv_image_type *image, uint32_t coord_id)
{
    struct texel_coords out;
    LLVMValueRef value = tr_get(t, coord_id);
    unsigned count = spv_image_component_count(t, coord_id);
    int slot[4];
    coordinate_slots(image, slot);
    for (int i = 0; i < 4; i++)
        out.c[i] = tr_splat(t, LLVMConstInt(t->i32, 0, 0));
    out.sample = NULL;
    for (unsigned i = 0; i < 4; i++) {
        LLVMValueRef c = spv_image_component(t, value, i, count);
        if (c && slot[i] >= 0)
            out.c[slot[i]] = c;
    }
    return out;
}

const struct spv_image_type *spv_image_type_of(struct tr *t, uint32_t value_id)
{
    const struct spv_type *type = spv_type(t->m, t->m->ids[value_id].type);
    if (type->kind == SPV_TYPE_POINTER)
        type = spv_type(t->m, type->element);
    if (type->kind == SPV_TYPE_SAMPLED_IMAGE)
        type = spv_type(t->m, type->element);
    return &type->image;
}

static LLVMValueRef wide(struct tr *t, LLVMValueRef v)
{
    return LLVMBuildZExt(t->builder, v, t->lane_i64, "");
}

/* The view's level `level` (<W x i32>, relative to its base level): its
 * entry of the level table, 0 (every field reads 0, so every coordinate is
 * outside) where the view has no such level. */
static LLVMValueRef level_entry(struct tr *t, LLVMValueRef descriptor, LLVMValueRef level)
{
    LLVMBuilderRef b = t->builder;
    LLVMValueRef table = spv_image_field(t, descriptor, VKMM_IMAGE_LEVEL_TABLE, t->i64);
    LLVMValueRef levels = spv_image_field(t, descriptor, VKMM_IMAGE_LEVELS, t->i32);
    LLVMValueRef ok = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntULT, level, levels, ""),
                                   LLVMBuildICmp(b, LLVMIntNE, table, spv_i64_splat(t, 0), ""), "");
    LLVMValueRef entry = LLVMBuildAdd(b, table, LLVMBuildMul(b, wide(t, level), spv_i64_splat(t, VKMM_LEVEL_SIZE), ""), "");
    return LLVMBuildSelect(b, ok, entry, spv_i64_splat(t, 0), "");
}

/* The texel at `at` of the view's base level, or of `level` (relative to
 * it; NULL: the base level). */
/* v / d and v - (v / d) * d per lane, for block dimensions d of 1 to 12
 * (the descriptor's VKMM_IMAGE_BLOCK): a float reciprocal with one
 * correction step, exact below 2^24, where a vector udiv would be a
 * division per lane on every image access. */
static void divide_small(struct tr *t, LLVMValueRef v, LLVMValueRef d, LLVMValueRef *quotient, LLVMValueRef *rest)
{
    LLVMBuilderRef b = t->builder;
    LLVMTypeRef lane_f32 = LLVMVectorType(t->f32, t->width);
    LLVMValueRef df = LLVMBuildUIToFP(b, d, lane_f32, "");
    LLVMValueRef inverse = LLVMBuildFDiv(b, tr_splat(t, LLVMConstReal(t->f32, 1.0)), df, "");
    LLVMValueRef q = LLVMBuildFPToUI(b, LLVMBuildFMul(b, LLVMBuildUIToFP(b, v, lane_f32, ""), inverse, ""), t->lane_i32, "");
    LLVMValueRef r = LLVMBuildSub(b, v, LLVMBuildMul(b, q, d, ""), "");
    LLVMValueRef one = spv_image_i32_splat(t, 1);
    LLVMValueRef under = LLVMBuildICmp(b, LLVMIntSLT, r, spv_image_i32_splat(t, 0), "");
    LLVMValueRef over = LLVMBuildICmp(b, LLVMIntSGE, r, d, "");
    q = LLVMBuildSelect(b, under, LLVMBuildSub(b, q, one, ""), LLVMBuildSelect(b, over, LLVMBuildAdd(b, q, one, ""), q, ""), "");
    *quotient = q;
    *rest = LLVMBuildSub(b, v, LLVMBuildMul(b, q, d, ""), "");
}

/* A compressed view's block coordinates of (x, y) and the texel's place
 * in its block; (x, y) and place 0 for the other formats. */
static LLVMValueRef block_coords(struct tr *t, LLVMValueRef descriptor, LLVMValueRef *x, LLVMValueRef *y)
{
    LLVMBuilderRef b = t->builder;
    LLVMValueRef block = spv_image_field(t, descriptor, VKMM_IMAGE_BLOCK, t->i32);
    LLVMValueRef mask = spv_image_i32_splat(t, 0xff), one = spv_image_i32_splat(t, 1);
    LLVMValueRef width = LLVMBuildAnd(b, block, mask, "");
    LLVMValueRef height = LLVMBuildAnd(b, LLVMBuildLShr(b, block, spv_image_i32_splat(t, 8), ""), mask, "");
    LLVMValueRef none = LLVMBuildICmp(b, LLVMIntEQ, block, spv_image_i32_splat(t, 0), "");
    width = LLVMBuildSelect(b, none, one, width, "");
    height = LLVMBuildSelect(b, none, one, height, "");
    LLVMValueRef in_x, in_y;
    divide_small(t, *x, width, x, &in_x);
    divide_small(t, *y, height, y, &in_y);
    return LLVMBuildOr(b, in_x, LLVMBuildShl(b, in_y, spv_image_i32_splat(t, 8), ""), "");
}

struct texel spv_image_texel_at(struct tr *t, LLVMValueRef descriptor, const struct texel_coords *at,
                             LLVMValueRef extra_ok, LLVMValueRef level)
{
    LLVMBuilderRef b = t->builder;
    struct texel out;
    LLVMValueRef base = field(t, descriptor, VKMM_DESCRIPTOR_BASE, t->i64);
    LLVMValueRef range = field(t, descriptor, VKMM_DESCRIPTOR_RANGE, t->i64);
    out.format = spv_image_field(t, descriptor, VKMM_IMAGE_FORMAT, t->i32);
    out.size = spv_image_field(t, descriptor, VKMM_IMAGE_TEXEL_SIZE, t->i32);
    LLVMValueRef limit[4], pitch[3], start = base;
    if (level) {
        LLVMValueRef entry = level_entry(t, descriptor, level);
        for (int i = 0; i < 3; i++)
            limit[i] = field(t, entry, VKMM_LEVEL_EXTENT + 4 * i, t->i32);
        pitch[0] = field(t, entry, VKMM_LEVEL_LAYER_PITCH, t->i64);
        pitch[1] = wide(t, field(t, entry, VKMM_LEVEL_SLICE_PITCH, t->i32));
        pitch[2] = wide(t, field(t, entry, VKMM_LEVEL_ROW_PITCH, t->i32));
        start = LLVMBuildAdd(b, base, field(t, entry, VKMM_LEVEL_OFFSET, t->i64), "");
    } else {
        for (int i = 0; i < 3; i++)
            limit[i] = spv_image_field(t, descriptor, VKMM_IMAGE_EXTENT + 4 * i, t->i32);
        pitch[0] = spv_image_field(t, descriptor, VKMM_IMAGE_LAYER_PITCH, t->i64);
        pitch[1] = wide(t, spv_image_field(t, descriptor, VKMM_IMAGE_SLICE_PITCH, t->i32));
        pitch[2] = wide(t, spv_image_field(t, descriptor, VKMM_IMAGE_ROW_PITCH, t->i32));
    }
    limit[3] = spv_image_field(t, descriptor, VKMM_IMAGE_LAYERS, t->i32);
    LLVMValueRef ok = extra_ok ? extra_ok : tr_splat(t, LLVMConstInt(t->i1, 1, 0));
    for (int i = 0; i < 4; i++) /* unsigned: negative coordinates are outside too */
        ok = LLVMBuildAnd(b, ok, LLVMBuildICmp(b, LLVMIntULT, at->c[i], limit[i], ""), "");
    /* A texel's samples lie together: texels are size << samples_log2 apart. */
    LLVMValueRef samples_log2 = spv_image_field(t, descriptor, VKMM_IMAGE_SAMPLES_LOG2, t->i32);
    LLVMValueRef stride = wide(t, LLVMBuildShl(b, out.size, samples_log2, ""));
    LLVMValueRef column = at->c[0], row = at->c[1];
    out.place = block_coords(t, descriptor, &column, &row);
    LLVMValueRef offset = LLVMBuildMul(b, wide(t, at->c[3]), pitch[0], "");
    offset = LLVMBuildAdd(b, offset, LLVMBuildMul(b, wide(t, at->c[2]), pitch[1], ""), "");
    offset = LLVMBuildAdd(b, offset, LLVMBuildMul(b, wide(t, row), pitch[2], ""), "");
    offset = LLVMBuildAdd(b, offset, LLVMBuildMul(b, wide(t, column), stride, ""), "");
    if (at->sample) {
        LLVMValueRef samples = LLVMBuildShl(b, tr_splat(t, LLVMConstInt(t->i32, 1, 0)), samples_log2, "");
        ok = LLVMBuildAnd(b, ok, LLVMBuildICmp(b, LLVMIntULT, at->sample, samples, ""), "");
        offset = LLVMBuildAdd(b, offset, LLVMBuildMul(b, wide(t, at->sample), wide(t, out.size), ""), "");
    }
    out.address = LLVMBuildSelect(b, ok, LLVMBuildAdd(b, start, offset, ""), spv_i64_splat(t, 0), "");
    out.lo = base;
    out.hi = LLVMBuildAdd(b, base, range, "");
    return out;
}

/* --- Texel bytes and conversions --------------------------------------------------- */

static LLVMValueRef scratch(struct tr *t, unsigned word)
{
    if (!t->texel_scratch) {
        LLVMBuilderRef entry = LLVMCreateBuilderInContext(t->context);
        LLVMValueRef first = LLVMGetFirstInstruction(t->entry_block);
        if (first)
            LLVMPositionBuilderBefore(entry, first);
        else
            LLVMPositionBuilderAtEnd(entry, t->entry_block);
        t->texel_scratch = LLVMBuildAlloca(entry, LLVMArrayType(t->i32, 10 * t->width), "texels");
        LLVMSetAlignment(t->texel_scratch, 64);
        LLVMDisposeBuilder(entry);
    }
    LLVMValueRef index = LLVMConstInt(t->i64, (uint64_t)word * 4, 0);
    return LLVMBuildGEP2(t->builder, t->i8, t->texel_scratch, &index, 1, "");
}

static void spill(struct tr *t, unsigned word, LLVMValueRef vector)
{
    LLVMValueRef store = LLVMBuildStore(t->builder, vector, scratch(t, word));
    LLVMSetAlignment(store, 4);
}

static LLVMValueRef reload(struct tr *t, unsigned word)
{
    LLVMValueRef value = LLVMBuildLoad2(t->builder, t->lane_i32, scratch(t, word), "");
    LLVMSetAlignment(value, 4);
    return value;
}

/* Lanes whose texel has `size` bytes or more keep their address, others get 0. */
static LLVMValueRef address_if(struct tr *t, const struct texel *x, LLVMValueRef condition, unsigned offset)
{
    LLVMValueRef moved = LLVMBuildAdd(t->builder, x->address, spv_i64_splat(t, offset), "");
    LLVMValueRef live = LLVMBuildAnd(t->builder, condition,
                                     LLVMBuildICmp(t->builder, LLVMIntNE, x->address, spv_i64_splat(t, 0), ""), "");
    return LLVMBuildSelect(t->builder, live, moved, spv_i64_splat(t, 0), "");
}

static LLVMValueRef size_is(struct tr *t, const struct texel *x, LLVMIntPredicate op, unsigned size)
{
    return LLVMBuildICmp(t->builder, op, x->size, tr_splat(t, LLVMConstInt(t->i32, size, 0)), "");
}

/* The texel's bytes as 4 words (1- and 2-byte texels in word 0): only the
 * texel's own bytes are read. */
void spv_image_load_raw(struct tr *t, uint32_t site, const struct texel *x, LLVMValueRef raw[4])
{
    for (unsigned k = 0; k < 4; k++)
        raw[k] = spv_load_texel_bytes(t, site, address_if(t, x, size_is(t, x, LLVMIntUGE, 4 * k + 4), 4 * k), x->lo,
                                      x->hi, 4);
    LLVMValueRef half = spv_load_texel_bytes(t, site, address_if(t, x, size_is(t, x, LLVMIntEQ, 2), 0), x->lo, x->hi, 2);
    LLVMValueRef byte = spv_load_texel_bytes(t, site, address_if(t, x, size_is(t, x, LLVMIntEQ, 1), 0), x->lo, x->hi, 1);
    raw[0] = LLVMBuildOr(t->builder, raw[0], LLVMBuildZExt(t->builder, half, t->lane_i32, ""), "");
    raw[0] = LLVMBuildOr(t->builder, raw[0], LLVMBuildZExt(t->builder, byte, t->lane_i32, ""), "");
}

static void store_raw(struct tr *t, uint32_t site, const struct texel *x, LLVMValueRef raw[4])
{
    for (unsigned k = 0; k < 4; k++)
        spv_store_texel_bytes(t, site, address_if(t, x, size_is(t, x, LLVMIntUGE, 4 * k + 4), 4 * k), x->lo, x->hi,
                              raw[k], 4);
    LLVMValueRef half = LLVMBuildTrunc(t->builder, raw[0], LLVMVectorType(t->i16, t->width), "");
    spv_store_texel_bytes(t, site, address_if(t, x, size_is(t, x, LLVMIntEQ, 2), 0), x->lo, x->hi, half, 2);
    LLVMValueRef byte = LLVMBuildTrunc(t->builder, raw[0], LLVMVectorType(t->i8, t->width), "");
    spv_store_texel_bytes(t, site, address_if(t, x, size_is(t, x, LLVMIntEQ, 1), 0), x->lo, x->hi, byte, 1);
}

/* Calls a texel hook (shader_abi.h) on the scratch: words 0..3 one side,
 * 4..7 the other, 8 the formats, 9 the texels' places in their blocks. */
static void call_hook(struct tr *t, unsigned hook, unsigned out_word, unsigned in_word)
{
    LLVMTypeRef params[4] = { t->ptr, t->ptr, t->ptr, t->i32 };
    LLVMTypeRef type = LLVMFunctionType(t->void_type, params, 4, 0);
    LLVMValueRef args[4] = { scratch(t, out_word * t->width), scratch(t, in_word * t->width),
                             scratch(t, 8 * t->width), LLVMConstInt(t->i32, t->width, 0) };
    LLVMBuildCall2(t->builder, type, tr_invocation_field(t, hook, t->ptr), args, 4, "");
}

void spv_image_decode(struct tr *t, const struct texel *x, LLVMValueRef raw[4], LLVMValueRef rgba[4])
{
    for (unsigned k = 0; k < 4; k++)
        spill(t, k * t->width, raw[k]);
    spill(t, 8 * t->width, x->format);
    spill(t, 9 * t->width, x->place);
    call_hook(t, VKMM_INVOCATION_TEXEL_DECODE, 4, 0);
    for (unsigned k = 0; k < 4; k++)
        rgba[k] = reload(t, (4 + k) * t->width);
}

static void encode(struct tr *t, const struct texel *x, LLVMValueRef rgba[4], LLVMValueRef raw[4])
{
    for (unsigned k = 0; k < 4; k++)
        spill(t, (4 + k) * t->width, rgba[k]);
    spill(t, 8 * t->width, x->format);
    call_hook(t, VKMM_INVOCATION_TEXEL_ENCODE, 0, 4);
    for (unsigned k = 0; k < 4; k++)
        raw[k] = reload(t, k * t->width);
}

/* The view's component swizzle (sampled images; 4 bits per channel). */
void spv_image_swizzle(struct tr *t, LLVMValueRef descriptor, LLVMValueRef rgba[4], bool is_float)
{
    LLVMValueRef word = spv_image_field(t, descriptor, VKMM_IMAGE_SWIZZLE, t->i32);
    LLVMValueRef in[4] = { rgba[0], rgba[1], rgba[2], rgba[3] };
    LLVMValueRef one = tr_splat(t, LLVMConstInt(t->i32, is_float ? 0x3f800000u : 1, 0));
    for (unsigned c = 0; c < 4; c++) {
        LLVMValueRef s = LLVMBuildAnd(t->builder, LLVMBuildLShr(t->builder, word, tr_splat(t, LLVMConstInt(t->i32, 4 * c, 0)), ""),
                                      tr_splat(t, LLVMConstInt(t->i32, 15, 0)), "");
        LLVMValueRef v = in[c]; /* 0 (a null descriptor's word): identity */
        LLVMValueRef choices[6] = { tr_splat(t, LLVMConstInt(t->i32, 0, 0)), one, in[0], in[1], in[2], in[3] };
        for (unsigned k = 0; k < 6; k++) {
            LLVMValueRef is = LLVMBuildICmp(t->builder, LLVMIntEQ, s, tr_splat(t, LLVMConstInt(t->i32, k + 1, 0)), "");
            v = LLVMBuildSelect(t->builder, is, choices[k], v, "");
        }
        rgba[c] = v;
    }
}

/* The first n channels as the result type (32-bit floats or integers). */
bool spv_image_make_result(struct tr *t, uint32_t result_type, LLVMValueRef rgba[4], LLVMValueRef *out)
{
    const struct spv_type *type = spv_type(t->m, result_type);
    const struct spv_type *scalar = type->kind == SPV_TYPE_VECTOR ? spv_type(t->m, type->element) : type;
    if (scalar->width != 32)
        return spv_fail(t->error, "image results of %u-bit components are not supported", scalar->width);
    LLVMTypeRef lane = LLVMVectorType(scalar->kind == SPV_TYPE_FLOAT ? t->f32 : t->i32, t->width);
    if (type->kind != SPV_TYPE_VECTOR) {
        *out = LLVMBuildBitCast(t->builder, rgba[0], lane, "");
        return true;
    }
    LLVMValueRef value = LLVMGetUndef(type->value_type);
    for (unsigned c = 0; c < type->count && c < 4; c++)
        value = LLVMBuildInsertValue(t->builder, value, LLVMBuildBitCast(t->builder, rgba[c], lane, ""), c, "");
    *out = value;
    return true;
}

bool spv_image_result_is_float(struct tr *t, uint32_t result_type)
{
    const struct spv_type *type = spv_type(t->m, result_type);
    const struct spv_type *scalar = type->kind == SPV_TYPE_VECTOR ? spv_type(t->m, type->element) : type;
    return scalar->kind == SPV_TYPE_FLOAT;
}

/* The id accesses are reported under: the variable an image was loaded from. */
uint32_t spv_image_site_of(struct tr *t, uint32_t image_id)
{
    const struct spv_module *m = t->m;
    for (unsigned depth = 0; depth < 8 && image_id < m->bound && m->ids[image_id].kind == SPV_ID_VALUE; depth++) {
        const struct spv_insn *insn = &m->insns[m->ids[image_id].insn];
        if (insn->opcode == SpvOpLoad)
            return spv_words(m, insn)[3];
        if (insn->opcode != SpvOpImage && insn->opcode != SpvOpSampledImage && insn->opcode != SpvOpCopyObject)
            break;
        image_id = spv_words(m, insn)[3];
    }
    return image_id;
}

LLVMValueRef spv_image_i32_splat(struct tr *t, int32_t v)
{
    return tr_splat(t, LLVMConstInt(t->i32, (uint64_t)(uint32_t)v, 0));
}

/* --- Instructions ------------------------------------------------------------------ */

static LLVMValueRef image_descriptor(struct tr *t, uint32_t image_id)
{
    return LLVMBuildExtractValue(t->builder, tr_get(t, image_id), 0, "");
}

bool spv_image_parse_operands(struct tr *t, const struct spv_insn *insn, const uint32_t *w, unsigned at,
                           struct image_operands *out)
{
    *out = (struct image_operands){ 0 };
    if (insn->word_count <= at)
        return true;
    uint32_t mask = w[at], next = at + 1;
    static const struct { uint32_t bit, ids; } layout[] = {
        { SpvImageOperandsBiasMask, 1 },          { SpvImageOperandsLodMask, 1 },
        { SpvImageOperandsGradMask, 2 },          { SpvImageOperandsConstOffsetMask, 1 },
        { SpvImageOperandsOffsetMask, 1 },        { SpvImageOperandsConstOffsetsMask, 1 },
        { SpvImageOperandsSampleMask, 1 },        { SpvImageOperandsMinLodMask, 1 },
        { SpvImageOperandsMakeTexelAvailableMask, 1 }, { SpvImageOperandsMakeTexelVisibleMask, 1 },
        { SpvImageOperandsOffsetsMask, 1 },
    };
    for (unsigned i = 0; i < sizeof(layout) / sizeof(*layout); i++) {
        if (!(mask & layout[i].bit))
            continue;
        if (next + layout[i].ids > insn->word_count)
            return spv_fail(t->error, "image operands at word %u lack their ids", insn->offset);
        switch (layout[i].bit) {
        case SpvImageOperandsLodMask:
            out->lod = w[next];
            break;
        case SpvImageOperandsGradMask:
            out->grad_x = w[next], out->grad_y = w[next + 1];
            break;
        case SpvImageOperandsConstOffsetMask:
        case SpvImageOperandsOffsetMask:
            out->offset = w[next];
            break;
        case SpvImageOperandsSampleMask:
            out->sample = w[next];
            break;
        case SpvImageOperandsBiasMask:
        case SpvImageOperandsConstOffsetsMask:
        case SpvImageOperandsMinLodMask:
        case SpvImageOperandsOffsetsMask:
            /* Bias belongs to implicit-LOD sampling (fragment shaders);
             * the others need capabilities vkmm does not declare. */
            return spv_fail(t->error, "image operand 0x%x at word %u is not supported", layout[i].bit,
                            insn->offset);
        default:
            break;
        }
        next += layout[i].ids;
    }
    return true;
}

/* The integer offset operand's components (0 where absent). */
void spv_image_offset_components(struct tr *t, uint32_t offset_id, LLVMValueRef out[3])
{
    for (unsigned d = 0; d < 3; d++)
        out[d] = tr_splat(t, LLVMConstInt(t->i32, 0, 0));
    if (!offset_id)
        return;
    LLVMValueRef value = tr_get(t, offset_id);
    unsigned count = spv_image_component_count(t, offset_id);
    for (unsigned d = 0; d < 3 && d < count; d++)
        out[d] = spv_image_component(t, value, d, count);
}

static bool translate_read(struct tr *t, const struct spv_insn *insn, const uint32_t *w, bool sampled)
{
    const struct spv_image_type *image = spv_image_type_of(t, w[3]);
    LLVMValueRef descriptor = image_descriptor(t, w[3]);
    struct texel_coords at = integer_coords(t, image, w[4]);
    struct image_operands operands;
    if (!spv_image_parse_operands(t, insn, w, 5, &operands))
        return false;
    LLVMValueRef offset[3];
    spv_image_offset_components(t, operands.offset, offset);
    for (unsigned d = 0; d < 3; d++)
        at.c[d] = LLVMBuildAdd(t->builder, at.c[d], offset[d], "");
    if (image->multisampled && operands.sample)
        at.sample = tr_get(t, operands.sample);
    /* OpImageFetch reads the level its Lod operand names; OpImageRead the
     * view's base level. */
    LLVMValueRef level = sampled && operands.lod ? tr_get(t, operands.lod) : NULL;
    struct texel x = spv_image_texel_at(t, descriptor, &at, NULL, level);
    LLVMValueRef raw[4], rgba[4], result;
    spv_image_load_raw(t, spv_image_site_of(t, w[3]), &x, raw);
    spv_image_decode(t, &x, raw, rgba);
    if (sampled && image->dim != SpvDimBuffer)
        spv_image_swizzle(t, descriptor, rgba, spv_image_result_is_float(t, w[1]));
    if (!spv_image_make_result(t, w[1], rgba, &result))
        return false;
    tr_set(t, w[2], result);
    return true;
}

static bool translate_write(struct tr *t, const uint32_t *w)
{
    const struct spv_image_type *image = spv_image_type_of(t, w[1]);
    LLVMValueRef descriptor = image_descriptor(t, w[1]);
    struct texel_coords at = integer_coords(t, image, w[2]);
    struct texel x = spv_image_texel_at(t, descriptor, &at, NULL, NULL);
    LLVMValueRef value = tr_get(t, w[3]);
    unsigned count = spv_image_component_count(t, w[3]);
    LLVMValueRef rgba[4], raw[4];
    for (unsigned c = 0; c < 4; c++) {
        LLVMValueRef v = spv_image_component(t, value, c, count);
        if (v && LLVMGetElementType(LLVMTypeOf(v)) != t->i32 && LLVMGetElementType(LLVMTypeOf(v)) != t->f32)
            return spv_fail(t->error, "OpImageWrite of non-32-bit texels is not supported");
        rgba[c] = v ? LLVMBuildBitCast(t->builder, v, t->lane_i32, "") : tr_splat(t, LLVMConstInt(t->i32, 0, 0));
    }
    encode(t, &x, rgba, raw);
    store_raw(t, spv_image_site_of(t, w[1]), &x, raw);
    return true;
}

static bool translate_texel_pointer(struct tr *t, const uint32_t *w)
{
    const struct spv_image_type *image = spv_image_type_of(t, w[3]);
    LLVMValueRef descriptor = descriptor_of_pointer(t, w[3]);
    struct texel_coords at = integer_coords(t, image, w[4]);
    struct texel x = spv_image_texel_at(t, descriptor, &at, NULL, NULL);
    /* Atomics need 4-byte texels (R32 formats); others reach nothing. */
    LLVMValueRef four = size_is(t, &x, LLVMIntEQ, 4);
    struct tr_pointer p = { LLVMBuildSelect(t->builder, four, x.address, spv_i64_splat(t, 0), ""), x.lo, x.hi };
    tr_set(t, w[2], spv_pack_pointer(t, p));
    return true;
}

static bool translate_query_size(struct tr *t, const uint32_t *w, bool with_lod)
{
    const struct spv_image_type *image = spv_image_type_of(t, w[3]);
    LLVMValueRef descriptor = image_descriptor(t, w[3]);
    LLVMValueRef sizes[4];
    unsigned n = 0;
    LLVMValueRef lod = with_lod ? tr_get(t, w[4]) : tr_splat(t, LLVMConstInt(t->i32, 0, 0));
    unsigned dims = image->dim == SpvDim1D || image->dim == SpvDimBuffer ? 1 : image->dim == SpvDim3D ? 3 : 2;
    for (unsigned d = 0; d < dims; d++) {
        LLVMValueRef e = spv_image_field(t, descriptor, VKMM_IMAGE_EXTENT + 4 * d, t->i32);
        LLVMValueRef shifted = LLVMBuildLShr(t->builder, e, lod, "");
        LLVMValueRef zero = LLVMBuildICmp(t->builder, LLVMIntEQ, shifted, tr_splat(t, LLVMConstInt(t->i32, 0, 0)), "");
        LLVMValueRef present = LLVMBuildICmp(t->builder, LLVMIntNE, e, tr_splat(t, LLVMConstInt(t->i32, 0, 0)), "");
        sizes[n++] = LLVMBuildSelect(t->builder, LLVMBuildAnd(t->builder, zero, present, ""),
                                     tr_splat(t, LLVMConstInt(t->i32, 1, 0)), shifted, "");
    }
    if (image->arrayed) {
        LLVMValueRef layers = spv_image_field(t, descriptor, VKMM_IMAGE_LAYERS, t->i32);
        if (image->dim == SpvDimCube)
            layers = LLVMBuildUDiv(t->builder, layers, tr_splat(t, LLVMConstInt(t->i32, 6, 0)), "");
        sizes[n++] = layers;
    }
    const struct spv_type *type = spv_type(t->m, w[1]);
    if (type->kind != SPV_TYPE_VECTOR) {
        tr_set(t, w[2], sizes[0]);
        return true;
    }
    LLVMValueRef value = LLVMGetUndef(type->value_type);
    for (unsigned c = 0; c < type->count && c < n; c++)
        value = LLVMBuildInsertValue(t->builder, value, sizes[c], c, "");
    tr_set(t, w[2], value);
    return true;
}

bool spv_translate_image(struct tr *t, const struct spv_insn *insn, bool *handled)
{
    const uint32_t *w = spv_words(t->m, insn);
    *handled = true;
    switch (insn->opcode) {
    case SpvOpLoad:
        if (!is_uniform_constant_pointer(t, w[3]))
            break;
        {
            LLVMValueRef descriptor = descriptor_of_pointer(t, w[3]);
            tr_set(t, w[2], image_value(t, descriptor, descriptor));
        }
        return true;
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain:
        if (!is_uniform_constant_pointer(t, w[3]))
            break;
        return translate_access_chain(t, insn, w);
    case SpvOpSampledImage:
        tr_set(t, w[2], image_value(t, image_descriptor(t, w[3]), LLVMBuildExtractValue(t->builder, tr_get(t, w[4]), 0, "")));
        return true;
    case SpvOpImage: {
        LLVMValueRef descriptor = image_descriptor(t, w[3]);
        tr_set(t, w[2], image_value(t, descriptor, descriptor));
        return true;
    }
    case SpvOpImageRead:
        return translate_read(t, insn, w, false);
    case SpvOpImageFetch:
        return translate_read(t, insn, w, true);
    case SpvOpImageWrite:
        return translate_write(t, w);
    case SpvOpImageTexelPointer:
        return translate_texel_pointer(t, w);
    case SpvOpImageQuerySize:
        return translate_query_size(t, w, false);
    case SpvOpImageQuerySizeLod:
        return translate_query_size(t, w, true);
    case SpvOpImageQueryLevels:
        tr_set(t, w[2], spv_image_field(t, image_descriptor(t, w[3]), VKMM_IMAGE_LEVELS, t->i32));
        return true;
    case SpvOpImageQuerySamples:
        tr_set(t, w[2], LLVMBuildShl(t->builder, spv_image_i32_splat(t, 1),
                                     spv_image_field(t, image_descriptor(t, w[3]), VKMM_IMAGE_SAMPLES_LOG2, t->i32), ""));
        return true;
    case SpvOpImageSampleExplicitLod:
        return spv_translate_sample(t, insn, w, SPV_SAMPLE_EXPLICIT_LOD, false, false);
    case SpvOpImageSampleDrefExplicitLod:
        return spv_translate_sample(t, insn, w, SPV_SAMPLE_EXPLICIT_LOD, true, false);
    case SpvOpImageSampleProjExplicitLod:
        return spv_translate_sample(t, insn, w, SPV_SAMPLE_EXPLICIT_LOD, false, true);
    case SpvOpImageSampleProjDrefExplicitLod:
        return spv_translate_sample(t, insn, w, SPV_SAMPLE_EXPLICIT_LOD, true, true);
    case SpvOpImageGather:
        return spv_translate_sample(t, insn, w, SPV_SAMPLE_GATHER, false, false);
    case SpvOpImageDrefGather:
        return spv_translate_sample(t, insn, w, SPV_SAMPLE_GATHER, true, false);
    default:
        if ((insn->opcode >= SpvOpImageSampleImplicitLod && insn->opcode <= SpvOpImageDrefGather) ||
            (insn->opcode >= SpvOpImageSparseSampleImplicitLod && insn->opcode <= SpvOpImageSparseRead) ||
            insn->opcode == SpvOpImageQueryLod)
            return spv_fail(t->error, "%s at word %u is not supported (vkmm samples with explicit LOD or gradients, "
                            "and gathers; implicit LOD needs derivatives, which compute shaders lack)",
                            spv_opcode_name(insn->opcode), insn->offset);
        break;
    }
    *handled = false;
    return true;
}
