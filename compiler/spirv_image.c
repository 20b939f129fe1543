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
 * Sampling (Vulkan "Texel Filtering" and "LOD Operation"): explicit LOD
 * or gradients, the sampler's bias and LOD clamp, mipmap NEAREST or
 * LINEAR over the view's levels (its level table), nearest and linear
 * filtering, every address mode but MIRROR_CLAMP_TO_EDGE, the three border
 * colours; 1D, 2D, 3D, arrays and cubes (seamless); gathers.  Depth
 * comparison and implicit LOD (fragment shaders) fail compilation with
 * their name. */
#include "spirv_names.h"
#include "spirv_private.h"

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

static LLVMValueRef image_field(struct tr *t, LLVMValueRef descriptor, unsigned offset, LLVMTypeRef scalar)
{
    return field(t, descriptor, VKMM_DESCRIPTOR_IMAGE + offset, scalar);
}

/* --- Coordinates and addresses ----------------------------------------------------- */

struct texel_coords {
    LLVMValueRef c[4]; /* x, y, z, layer: <W x i32> */
    LLVMValueRef sample; /* multisampled images: the sample, or NULL for sample 0 */
};

static LLVMValueRef component(struct tr *t, LLVMValueRef value, unsigned i, unsigned count)
{
    if (i >= count)
        return NULL;
    return LLVMGetTypeKind(LLVMTypeOf(value)) == LLVMArrayTypeKind ? LLVMBuildExtractValue(t->builder, value, i, "")
                                                                     : value;
}

static unsigned component_count(struct tr *t, uint32_t value_id)
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
    unsigned count = component_count(t, coord_id);
    int slot[4];
    coordinate_slots(image, slot);
    for (int i = 0; i < 4; i++)
        out.c[i] = tr_splat(t, LLVMConstInt(t->i32, 0, 0));
    out.sample = NULL;
    for (unsigned i = 0; i < 4; i++) {
        LLVMValueRef c = component(t, value, i, count);
        if (c && slot[i] >= 0)
            out.c[slot[i]] = c;
    }
    return out;
}

static const struct spv_image_type *image_type_of(struct tr *t, uint32_t value_id)
{
    const struct spv_type *type = spv_type(t->m, t->m->ids[value_id].type);
    if (type->kind == SPV_TYPE_POINTER)
        type = spv_type(t->m, type->element);
    if (type->kind == SPV_TYPE_SAMPLED_IMAGE)
        type = spv_type(t->m, type->element);
    return &type->image;
}

/* A texel: its address (0 when outside the view) and the bounds of the
 * view's bytes, for the loads and stores of lower_memory.c. */
struct texel {
    LLVMValueRef address, lo, hi;
    LLVMValueRef format, size; /* <W x i32> */
};

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
    LLVMValueRef table = image_field(t, descriptor, VKMM_IMAGE_LEVEL_TABLE, t->i64);
    LLVMValueRef levels = image_field(t, descriptor, VKMM_IMAGE_LEVELS, t->i32);
    LLVMValueRef ok = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntULT, level, levels, ""),
                                   LLVMBuildICmp(b, LLVMIntNE, table, spv_i64_splat(t, 0), ""), "");
    LLVMValueRef entry = LLVMBuildAdd(b, table, LLVMBuildMul(b, wide(t, level), spv_i64_splat(t, VKMM_LEVEL_SIZE), ""), "");
    return LLVMBuildSelect(b, ok, entry, spv_i64_splat(t, 0), "");
}

/* The texel at `at` of the view's base level, or of `level` (relative to
 * it; NULL: the base level). */
static struct texel texel_at(struct tr *t, LLVMValueRef descriptor, const struct texel_coords *at,
                             LLVMValueRef extra_ok, LLVMValueRef level)
{
    LLVMBuilderRef b = t->builder;
    struct texel out;
    LLVMValueRef base = field(t, descriptor, VKMM_DESCRIPTOR_BASE, t->i64);
    LLVMValueRef range = field(t, descriptor, VKMM_DESCRIPTOR_RANGE, t->i64);
    out.format = image_field(t, descriptor, VKMM_IMAGE_FORMAT, t->i32);
    out.size = image_field(t, descriptor, VKMM_IMAGE_TEXEL_SIZE, t->i32);
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
            limit[i] = image_field(t, descriptor, VKMM_IMAGE_EXTENT + 4 * i, t->i32);
        pitch[0] = image_field(t, descriptor, VKMM_IMAGE_LAYER_PITCH, t->i64);
        pitch[1] = wide(t, image_field(t, descriptor, VKMM_IMAGE_SLICE_PITCH, t->i32));
        pitch[2] = wide(t, image_field(t, descriptor, VKMM_IMAGE_ROW_PITCH, t->i32));
    }
    limit[3] = image_field(t, descriptor, VKMM_IMAGE_LAYERS, t->i32);
    LLVMValueRef ok = extra_ok ? extra_ok : tr_splat(t, LLVMConstInt(t->i1, 1, 0));
    for (int i = 0; i < 4; i++) /* unsigned: negative coordinates are outside too */
        ok = LLVMBuildAnd(b, ok, LLVMBuildICmp(b, LLVMIntULT, at->c[i], limit[i], ""), "");
    /* A texel's samples lie together: texels are size << samples_log2 apart. */
    LLVMValueRef samples_log2 = image_field(t, descriptor, VKMM_IMAGE_SAMPLES_LOG2, t->i32);
    LLVMValueRef stride = wide(t, LLVMBuildShl(b, out.size, samples_log2, ""));
    LLVMValueRef offset = LLVMBuildMul(b, wide(t, at->c[3]), pitch[0], "");
    offset = LLVMBuildAdd(b, offset, LLVMBuildMul(b, wide(t, at->c[2]), pitch[1], ""), "");
    offset = LLVMBuildAdd(b, offset, LLVMBuildMul(b, wide(t, at->c[1]), pitch[2], ""), "");
    offset = LLVMBuildAdd(b, offset, LLVMBuildMul(b, wide(t, at->c[0]), stride, ""), "");
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
        t->texel_scratch = LLVMBuildAlloca(entry, LLVMArrayType(t->i32, 9 * t->width), "texels");
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
static void load_raw(struct tr *t, uint32_t site, const struct texel *x, LLVMValueRef raw[4])
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
 * 4..7 the other, 8 the formats. */
static void call_hook(struct tr *t, unsigned hook, unsigned out_word, unsigned in_word)
{
    LLVMTypeRef params[4] = { t->ptr, t->ptr, t->ptr, t->i32 };
    LLVMTypeRef type = LLVMFunctionType(t->void_type, params, 4, 0);
    LLVMValueRef args[4] = { scratch(t, out_word * t->width), scratch(t, in_word * t->width),
                             scratch(t, 8 * t->width), LLVMConstInt(t->i32, t->width, 0) };
    LLVMBuildCall2(t->builder, type, tr_invocation_field(t, hook, t->ptr), args, 4, "");
}

static void decode(struct tr *t, const struct texel *x, LLVMValueRef raw[4], LLVMValueRef rgba[4])
{
    for (unsigned k = 0; k < 4; k++)
        spill(t, k * t->width, raw[k]);
    spill(t, 8 * t->width, x->format);
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
static void swizzle(struct tr *t, LLVMValueRef descriptor, LLVMValueRef rgba[4], bool is_float)
{
    LLVMValueRef word = image_field(t, descriptor, VKMM_IMAGE_SWIZZLE, t->i32);
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
static bool make_result(struct tr *t, uint32_t result_type, LLVMValueRef rgba[4], LLVMValueRef *out)
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

static bool result_is_float(struct tr *t, uint32_t result_type)
{
    const struct spv_type *type = spv_type(t->m, result_type);
    const struct spv_type *scalar = type->kind == SPV_TYPE_VECTOR ? spv_type(t->m, type->element) : type;
    return scalar->kind == SPV_TYPE_FLOAT;
}

/* The id accesses are reported under: the variable an image was loaded from. */
static uint32_t site_of(struct tr *t, uint32_t image_id)
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

/* --- Instructions ------------------------------------------------------------------ */

static LLVMValueRef image_descriptor(struct tr *t, uint32_t image_id)
{
    return LLVMBuildExtractValue(t->builder, tr_get(t, image_id), 0, "");
}

/* The image operands an instruction carries from word `at` on (SPIR-V
 * "Image Operands": each operand's ids follow the mask in the order of its
 * bits). */
struct image_operands {
    uint32_t lod, grad_x, grad_y, offset; /* ids, 0: absent (ConstOffset and Offset alike) */
    uint32_t sample;                      /* multisampled images: the Sample operand */
};

static bool parse_operands(struct tr *t, const struct spv_insn *insn, const uint32_t *w, unsigned at,
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
static void offset_components(struct tr *t, uint32_t offset_id, LLVMValueRef out[3])
{
    for (unsigned d = 0; d < 3; d++)
        out[d] = tr_splat(t, LLVMConstInt(t->i32, 0, 0));
    if (!offset_id)
        return;
    LLVMValueRef value = tr_get(t, offset_id);
    unsigned count = component_count(t, offset_id);
    for (unsigned d = 0; d < 3 && d < count; d++)
        out[d] = component(t, value, d, count);
}

static bool translate_read(struct tr *t, const struct spv_insn *insn, const uint32_t *w, bool sampled)
{
    const struct spv_image_type *image = image_type_of(t, w[3]);
    LLVMValueRef descriptor = image_descriptor(t, w[3]);
    struct texel_coords at = integer_coords(t, image, w[4]);
    struct image_operands operands;
    if (!parse_operands(t, insn, w, 5, &operands))
        return false;
    LLVMValueRef offset[3];
    offset_components(t, operands.offset, offset);
    for (unsigned d = 0; d < 3; d++)
        at.c[d] = LLVMBuildAdd(t->builder, at.c[d], offset[d], "");
    if (image->multisampled && operands.sample)
        at.sample = tr_get(t, operands.sample);
    /* OpImageFetch reads the level its Lod operand names; OpImageRead the
     * view's base level. */
    LLVMValueRef level = sampled && operands.lod ? tr_get(t, operands.lod) : NULL;
    struct texel x = texel_at(t, descriptor, &at, NULL, level);
    LLVMValueRef raw[4], rgba[4], result;
    load_raw(t, site_of(t, w[3]), &x, raw);
    decode(t, &x, raw, rgba);
    if (sampled && image->dim != SpvDimBuffer)
        swizzle(t, descriptor, rgba, result_is_float(t, w[1]));
    if (!make_result(t, w[1], rgba, &result))
        return false;
    tr_set(t, w[2], result);
    return true;
}

static bool translate_write(struct tr *t, const uint32_t *w)
{
    const struct spv_image_type *image = image_type_of(t, w[1]);
    LLVMValueRef descriptor = image_descriptor(t, w[1]);
    struct texel_coords at = integer_coords(t, image, w[2]);
    struct texel x = texel_at(t, descriptor, &at, NULL, NULL);
    LLVMValueRef value = tr_get(t, w[3]);
    unsigned count = component_count(t, w[3]);
    LLVMValueRef rgba[4], raw[4];
    for (unsigned c = 0; c < 4; c++) {
        LLVMValueRef v = component(t, value, c, count);
        if (v && LLVMGetElementType(LLVMTypeOf(v)) != t->i32 && LLVMGetElementType(LLVMTypeOf(v)) != t->f32)
            return spv_fail(t->error, "OpImageWrite of non-32-bit texels is not supported");
        rgba[c] = v ? LLVMBuildBitCast(t->builder, v, t->lane_i32, "") : tr_splat(t, LLVMConstInt(t->i32, 0, 0));
    }
    encode(t, &x, rgba, raw);
    store_raw(t, site_of(t, w[1]), &x, raw);
    return true;
}

static bool translate_texel_pointer(struct tr *t, const uint32_t *w)
{
    const struct spv_image_type *image = image_type_of(t, w[3]);
    LLVMValueRef descriptor = descriptor_of_pointer(t, w[3]);
    struct texel_coords at = integer_coords(t, image, w[4]);
    struct texel x = texel_at(t, descriptor, &at, NULL, NULL);
    /* Atomics need 4-byte texels (R32 formats); others reach nothing. */
    LLVMValueRef four = size_is(t, &x, LLVMIntEQ, 4);
    struct tr_pointer p = { LLVMBuildSelect(t->builder, four, x.address, spv_i64_splat(t, 0), ""), x.lo, x.hi };
    tr_set(t, w[2], spv_pack_pointer(t, p));
    return true;
}

static bool translate_query_size(struct tr *t, const uint32_t *w, bool with_lod)
{
    const struct spv_image_type *image = image_type_of(t, w[3]);
    LLVMValueRef descriptor = image_descriptor(t, w[3]);
    LLVMValueRef sizes[4];
    unsigned n = 0;
    LLVMValueRef lod = with_lod ? tr_get(t, w[4]) : tr_splat(t, LLVMConstInt(t->i32, 0, 0));
    unsigned dims = image->dim == SpvDim1D || image->dim == SpvDimBuffer ? 1 : image->dim == SpvDim3D ? 3 : 2;
    for (unsigned d = 0; d < dims; d++) {
        LLVMValueRef e = image_field(t, descriptor, VKMM_IMAGE_EXTENT + 4 * d, t->i32);
        LLVMValueRef shifted = LLVMBuildLShr(t->builder, e, lod, "");
        LLVMValueRef zero = LLVMBuildICmp(t->builder, LLVMIntEQ, shifted, tr_splat(t, LLVMConstInt(t->i32, 0, 0)), "");
        LLVMValueRef present = LLVMBuildICmp(t->builder, LLVMIntNE, e, tr_splat(t, LLVMConstInt(t->i32, 0, 0)), "");
        sizes[n++] = LLVMBuildSelect(t->builder, LLVMBuildAnd(t->builder, zero, present, ""),
                                     tr_splat(t, LLVMConstInt(t->i32, 1, 0)), shifted, "");
    }
    if (image->arrayed) {
        LLVMValueRef layers = image_field(t, descriptor, VKMM_IMAGE_LAYERS, t->i32);
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

/* --- Sampling ---------------------------------------------------------------------- */

/* Float to int per lane, saturating (NaN gives 0): coordinates from
 * arbitrary floats (NaN, a zero cube direction) must stay defined values,
 * so that the bounds checks of the texel access hold. */
static LLVMValueRef to_int(struct tr *t, LLVMValueRef v)
{
    LLVMTypeRef overloads[2] = { t->lane_i32, LLVMTypeOf(v) };
    return tr_call_intrinsic(t, "llvm.fptosi.sat", overloads, 2, &v, 1);
}


static LLVMValueRef i32_splat(struct tr *t, int32_t v)
{
    return tr_splat(t, LLVMConstInt(t->i32, (uint64_t)(uint32_t)v, 0));
}

static LLVMValueRef f32_splat(struct tr *t, float v)
{
    return tr_splat(t, LLVMConstReal(t->f32, v));
}

/* A texel index through the sampler's address mode; sets *inside false
 * where CLAMP_TO_BORDER leaves the image. */
static LLVMValueRef wrap(struct tr *t, LLVMValueRef i, LLVMValueRef size, LLVMValueRef mode, LLVMValueRef *inside)
{
    LLVMBuilderRef b = t->builder;
    LLVMValueRef safe = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, size, i32_splat(t, 0), ""), i32_splat(t, 1),
                                        size, "");
    LLVMValueRef rem = LLVMBuildSRem(b, i, safe, "");
    LLVMValueRef repeat = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, rem, i32_splat(t, 0), ""),
                                          LLVMBuildAdd(b, rem, safe, ""), rem, "");
    LLVMValueRef twice = LLVMBuildMul(b, safe, i32_splat(t, 2), "");
    LLVMValueRef m = LLVMBuildSRem(b, i, twice, "");
    m = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, m, i32_splat(t, 0), ""), LLVMBuildAdd(b, m, twice, ""), m, "");
    LLVMValueRef mirror = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, m, safe, ""), m,
                                          LLVMBuildSub(b, LLVMBuildSub(b, twice, i32_splat(t, 1), ""), m, ""), "");
    LLVMValueRef low = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, i, i32_splat(t, 0), ""), i32_splat(t, 0), i, "");
    LLVMValueRef last = LLVMBuildSub(b, safe, i32_splat(t, 1), "");
    LLVMValueRef clamp = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, low, last, ""), last, low, "");
    LLVMValueRef is_border = LLVMBuildICmp(b, LLVMIntEQ, mode, i32_splat(t, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER), "");
    LLVMValueRef outside = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntSLT, i, i32_splat(t, 0), ""),
                                       LLVMBuildICmp(b, LLVMIntSGE, i, safe, ""), "");
    *inside = LLVMBuildAnd(b, *inside, LLVMBuildNot(b, LLVMBuildAnd(b, is_border, outside, ""), ""), "");
    LLVMValueRef out = clamp;
    out = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, mode, i32_splat(t, VK_SAMPLER_ADDRESS_MODE_REPEAT), ""),
                          repeat, out, "");
    out = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, mode, i32_splat(t, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT), ""),
                          mirror, out, "");
    return out;
}

struct sample_state {
    LLVMValueRef descriptor, sampler;
    LLVMValueRef extent[3], mode[3]; /* at `level` */
    unsigned dims;
    bool cube;
    LLVMValueRef layer; /* cubes: the first face's layer (6 * cube index) */
    LLVMValueRef face;  /* cubes: 0..5 */
    LLVMValueRef level; /* relative to the view's base level */
    uint32_t site;
    LLVMValueRef dref;  /* the depth reference of a Dref instruction, or NULL */
};

static LLVMValueRef fabs_of(struct tr *t, LLVMValueRef v)
{
    LLVMTypeRef overload = LLVMVectorType(t->f32, t->width);
    return tr_call_intrinsic(t, "llvm.fabs", &overload, 1, &v, 1);
}

static LLVMValueRef select3(struct tr *t, LLVMValueRef is_x, LLVMValueRef is_y, LLVMValueRef x, LLVMValueRef y,
                            LLVMValueRef z)
{
    return LLVMBuildSelect(t->builder, is_x, x, LLVMBuildSelect(t->builder, is_y, y, z, ""), "");
}

/* Cube map face selection (Vulkan "Cube Map Face Selection"): the major
 * axis of (x, y, z) picks the face; sc and tc are the other two
 * coordinates as that face's table orients them, ma the major one.
 * Ties go to z, then y. */
struct cube_face {
    LLVMValueRef face, sc, tc, ma; /* face: <W x i32> 0..5; ma: |major coordinate| */
};

static struct cube_face cube_face_of(struct tr *t, LLVMValueRef x, LLVMValueRef y, LLVMValueRef z)
{
    LLVMBuilderRef b = t->builder;
    LLVMValueRef ax = fabs_of(t, x), ay = fabs_of(t, y), az = fabs_of(t, z);
    LLVMValueRef is_z = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOGE, az, ax, ""), LLVMBuildFCmp(b, LLVMRealOGE, az, ay, ""), "");
    LLVMValueRef is_y = LLVMBuildAnd(b, LLVMBuildNot(b, is_z, ""), LLVMBuildFCmp(b, LLVMRealOGE, ay, ax, ""), "");
    LLVMValueRef is_x = LLVMBuildNot(b, LLVMBuildOr(b, is_z, is_y, ""), "");
    LLVMValueRef zero = f32_splat(t, 0.0f);
    LLVMValueRef negative = select3(t, is_x, is_y, LLVMBuildFCmp(b, LLVMRealOLT, x, zero, ""),
                                    LLVMBuildFCmp(b, LLVMRealOLT, y, zero, ""), LLVMBuildFCmp(b, LLVMRealOLT, z, zero, ""));
    LLVMValueRef nx = LLVMBuildFNeg(b, x, ""), ny = LLVMBuildFNeg(b, y, ""), nz = LLVMBuildFNeg(b, z, "");
    /* +X: (-z, -y)  -X: (z, -y)  +Y: (x, z)  -Y: (x, -z)  +Z: (x, -y)  -Z: (-x, -y) */
    struct cube_face f;
    f.sc = select3(t, is_x, is_y, LLVMBuildSelect(b, negative, z, nz, ""), x, LLVMBuildSelect(b, negative, nx, x, ""));
    f.tc = select3(t, is_x, is_y, ny, LLVMBuildSelect(b, negative, nz, z, ""), ny);
    f.ma = select3(t, is_x, is_y, ax, ay, az);
    LLVMValueRef axis = select3(t, is_x, is_y, i32_splat(t, 0), i32_splat(t, 2), i32_splat(t, 4));
    f.face = LLVMBuildAdd(b, axis, LLVMBuildZExt(b, negative, t->lane_i32, ""), "");
    return f;
}

/* The direction through (sc, tc) of face `face` at distance 1: the
 * inverse of cube_face_of's table. */
static void cube_direction(struct tr *t, LLVMValueRef face, LLVMValueRef sc, LLVMValueRef tc, LLVMValueRef dir[3])
{
    LLVMBuilderRef b = t->builder;
    LLVMValueRef one = f32_splat(t, 1.0f), minus = f32_splat(t, -1.0f);
    LLVMValueRef nsc = LLVMBuildFNeg(b, sc, ""), ntc = LLVMBuildFNeg(b, tc, "");
    /* per face: x, y, z */
    LLVMValueRef table[6][3] = {
        { one, ntc, nsc }, { minus, ntc, sc }, { sc, one, tc },
        { sc, minus, ntc }, { sc, ntc, one }, { nsc, ntc, minus },
    };
    for (unsigned c = 0; c < 3; c++) {
        LLVMValueRef v = table[5][c];
        for (int f = 4; f >= 0; f--)
            v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, face, i32_splat(t, f), ""), table[f][c], v, "");
        dir[c] = v;
    }
}

/* Seamless cube edges (Vulkan "Cube Map Edge Handling"): a texel of the
 * filter footprint outside its face is the texel of the adjacent face
 * that the direction through its centre reaches. */
static void cube_edge(struct tr *t, const struct sample_state *s, LLVMValueRef *i, LLVMValueRef *j, LLVMValueRef *face)
{
    LLVMBuilderRef b = t->builder;
    LLVMValueRef size = s->extent[0];
    LLVMValueRef outside = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntUGE, *i, size, ""),
                                       LLVMBuildICmp(b, LLVMIntUGE, *j, size, ""), "");
    LLVMValueRef n = LLVMBuildUIToFP(b, size, LLVMVectorType(t->f32, t->width), "");
    LLVMValueRef two = f32_splat(t, 2.0f), half = f32_splat(t, 0.5f), one = f32_splat(t, 1.0f);
    /* The centre in face coordinates: 2 (i + 0.5) / n - 1. */
    LLVMValueRef sc = LLVMBuildFSub(b, LLVMBuildFDiv(b, LLVMBuildFMul(b, two, LLVMBuildFAdd(b, LLVMBuildSIToFP(b, *i, LLVMVectorType(t->f32, t->width), ""), half, ""), ""), n, ""), one, "");
    LLVMValueRef tc = LLVMBuildFSub(b, LLVMBuildFDiv(b, LLVMBuildFMul(b, two, LLVMBuildFAdd(b, LLVMBuildSIToFP(b, *j, LLVMVectorType(t->f32, t->width), ""), half, ""), ""), n, ""), one, "");
    LLVMValueRef dir[3];
    cube_direction(t, *face, sc, tc, dir);
    struct cube_face f = cube_face_of(t, dir[0], dir[1], dir[2]);
    LLVMValueRef last = LLVMBuildSub(b, size, i32_splat(t, 1), "");
    LLVMValueRef coord[2] = { f.sc, f.tc }, index[2];
    for (unsigned k = 0; k < 2; k++) {
        LLVMValueRef unit = LLVMBuildFMul(b, half, LLVMBuildFAdd(b, LLVMBuildFDiv(b, coord[k], f.ma, ""), one, ""), "");
        LLVMTypeRef overload = LLVMVectorType(t->f32, t->width);
        LLVMValueRef scaled = LLVMBuildFMul(b, unit, n, "");
        LLVMValueRef floored = tr_call_intrinsic(t, "llvm.floor", &overload, 1, &scaled, 1);
        LLVMValueRef v = to_int(t, floored);
        v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, v, i32_splat(t, 0), ""), i32_splat(t, 0), v, "");
        index[k] = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, v, last, ""), last, v, "");
    }
    *i = LLVMBuildSelect(b, outside, index[0], *i, "");
    *j = LLVMBuildSelect(b, outside, index[1], *j, "");
    *face = LLVMBuildSelect(b, outside, f.face, *face, "");
}

/* One texel (integer coordinates before wrapping), decoded, with the
 * border colour where it left a CLAMP_TO_BORDER image. */
static LLVMValueRef fmin_of(struct tr *t, LLVMValueRef x, LLVMValueRef y)
{
    LLVMTypeRef overload = LLVMVectorType(t->f32, t->width);
    LLVMValueRef args[2] = { x, y };
    return tr_call_intrinsic(t, "llvm.minnum", &overload, 1, args, 2);
}

static LLVMValueRef fmax_of(struct tr *t, LLVMValueRef x, LLVMValueRef y)
{
    LLVMTypeRef overload = LLVMVectorType(t->f32, t->width);
    LLVMValueRef args[2] = { x, y };
    return tr_call_intrinsic(t, "llvm.maxnum", &overload, 1, args, 2);
}

/* The spec's "Depth Compare Operation": 1.0 where `reference op texel`
 * holds (VkCompareOp's bits are LESS 1, EQUAL 2, GREATER 4), else 0.0,
 * taken per texel before filtering.  A fixed-point format's reference is
 * clamped to [0, 1] first. */
static LLVMValueRef depth_compare(struct tr *t, const struct sample_state *s, LLVMValueRef texel_bits)
{
    LLVMBuilderRef b = t->builder;
    LLVMTypeRef f32v = LLVMVectorType(t->f32, t->width);
    LLVMValueRef texel = LLVMBuildBitCast(b, texel_bits, f32v, "");
    LLVMValueRef format = image_field(t, s->descriptor, VKMM_IMAGE_FORMAT, t->i32);
    LLVMValueRef fixed = LLVMBuildICmp(b, LLVMIntNE, format, i32_splat(t, VK_FORMAT_D32_SFLOAT), "");
    LLVMValueRef clamped = fmin_of(t, fmax_of(t, s->dref, f32_splat(t, 0.0f)), f32_splat(t, 1.0f));
    LLVMValueRef ref = LLVMBuildSelect(b, fixed, clamped, s->dref, "");
    LLVMValueRef op = LLVMBuildAnd(b, LLVMBuildLShr(b, s->sampler, i32_splat(t, VKMM_SAMPLER_COMPARE_OP_SHIFT), ""),
                                   i32_splat(t, 7), "");
    LLVMValueRef zero = i32_splat(t, 0);
    LLVMValueRef less = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOLT, ref, texel, ""),
                                     LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, op, i32_splat(t, 1), ""), zero, ""), "");
    LLVMValueRef equal = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOEQ, ref, texel, ""),
                                      LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, op, i32_splat(t, 2), ""), zero, ""), "");
    LLVMValueRef greater = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOGT, ref, texel, ""),
                                        LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, op, i32_splat(t, 4), ""), zero, ""), "");
    LLVMValueRef always = LLVMBuildICmp(b, LLVMIntEQ, op, i32_splat(t, 7), "");
    LLVMValueRef pass = LLVMBuildOr(b, LLVMBuildOr(b, less, equal, ""), LLVMBuildOr(b, greater, always, ""), "");
    return LLVMBuildSelect(b, pass, i32_splat(t, 0x3f800000), zero, "");
}

static void sample_texel(struct tr *t, const struct sample_state *s, LLVMValueRef index[3], LLVMValueRef rgba[4],
                         bool is_float)
{
    LLVMValueRef inside = tr_splat(t, LLVMConstInt(t->i1, 1, 0));
    struct texel_coords at = { .sample = NULL };
    if (s->cube) {
        /* Address modes do not apply to cube maps: edges are seamless. */
        LLVMValueRef i = index[0], j = index[1], face = s->face;
        cube_edge(t, s, &i, &j, &face);
        at.c[0] = i, at.c[1] = j, at.c[2] = i32_splat(t, 0);
        at.c[3] = LLVMBuildAdd(t->builder, s->layer, face, "");
    } else {
        for (unsigned d = 0; d < 3; d++)
            at.c[d] = d < s->dims ? wrap(t, index[d], s->extent[d], s->mode[d], &inside) : i32_splat(t, 0);
        at.c[3] = s->layer;
    }
    struct texel x = texel_at(t, s->descriptor, &at, inside, s->level);
    LLVMValueRef raw[4];
    load_raw(t, s->site, &x, raw);
    decode(t, &x, raw, rgba);
    swizzle(t, s->descriptor, rgba, is_float);
    /* VkBorderColor: odd values are integer, 0-1 transparent black, 2-3
     * opaque black, 4-5 opaque white. */
    LLVMValueRef border = LLVMBuildLShr(t->builder, LLVMBuildAnd(t->builder, s->sampler, i32_splat(t, 7 << VKMM_SAMPLER_BORDER_SHIFT), ""),
                                        i32_splat(t, VKMM_SAMPLER_BORDER_SHIFT), "");
    LLVMValueRef white = LLVMBuildICmp(t->builder, LLVMIntUGE, border, i32_splat(t, 4), "");
    LLVMValueRef opaque = LLVMBuildICmp(t->builder, LLVMIntUGE, border, i32_splat(t, 2), "");
    LLVMValueRef one = i32_splat(t, is_float ? 0x3f800000 : 1);
    for (unsigned c = 0; c < 4; c++) {
        LLVMValueRef b = LLVMBuildSelect(t->builder, c < 3 ? white : opaque, one, i32_splat(t, 0), "");
        rgba[c] = LLVMBuildSelect(t->builder, inside, rgba[c], b, "");
    }
    if (s->dref)
        rgba[0] = depth_compare(t, s, rgba[0]);
}

static LLVMValueRef to_float(struct tr *t, LLVMValueRef v)
{
    return LLVMBuildBitCast(t->builder, v, LLVMVectorType(t->f32, t->width), "");
}

static LLVMValueRef sampler_bit(struct tr *t, LLVMValueRef sampler, uint32_t bit)
{
    return LLVMBuildICmp(t->builder, LLVMIntNE, LLVMBuildAnd(t->builder, sampler, i32_splat(t, (int32_t)bit), ""),
                         i32_splat(t, 0), "");
}

/* The filter footprint's texels at one level: coordinates u[d] in texels,
 * integer offsets added after rounding (ConstOffset/Offset). */
struct footprint {
    LLVMValueRef i0[3], frac[3];
};

static struct footprint footprint_of(struct tr *t, const struct sample_state *s, LLVMValueRef coord[3],
                                     LLVMValueRef unnormalized, LLVMValueRef linear, LLVMValueRef offset[3])
{
    LLVMBuilderRef b = t->builder;
    struct footprint f;
    for (unsigned d = 0; d < s->dims; d++) {
        LLVMValueRef scaled = LLVMBuildFMul(b, coord[d], LLVMBuildUIToFP(b, s->extent[d], LLVMVectorType(t->f32, t->width), ""), "");
        LLVMValueRef u = LLVMBuildSelect(b, unnormalized, coord[d], scaled, "");
        /* Linear: the texels around u - 0.5; nearest: floor(u). */
        LLVMValueRef shifted = LLVMBuildSelect(b, linear, LLVMBuildFSub(b, u, f32_splat(t, 0.5f), ""), u, "");
        LLVMTypeRef overload = LLVMVectorType(t->f32, t->width);
        LLVMValueRef floored = tr_call_intrinsic(t, "llvm.floor", &overload, 1, &shifted, 1);
        f.frac[d] = LLVMBuildFSub(b, shifted, floored, "");
        f.i0[d] = LLVMBuildAdd(b, to_int(t, floored), offset[d], "");
    }
    return f;
}

/* The filtered value at s->level: nearest or (bi/tri)linear. */
static void filter(struct tr *t, const struct sample_state *s, const struct footprint *f, LLVMValueRef linear,
                   bool is_float, LLVMValueRef out[4])
{
    LLVMBuilderRef b = t->builder;
    /* Every corner of the linear footprint; nearest uses corner 0 only
     * (its weight is 1 there). */
    LLVMValueRef sum[4] = { f32_splat(t, 0), f32_splat(t, 0), f32_splat(t, 0), f32_splat(t, 0) };
    LLVMValueRef nearest[4] = { 0 };
    for (unsigned corner = 0; corner < (1u << s->dims); corner++) {
        LLVMValueRef index[3], weight = f32_splat(t, 1.0f);
        for (unsigned d = 0; d < s->dims; d++) {
            bool high = corner >> d & 1;
            index[d] = high ? LLVMBuildAdd(b, f->i0[d], i32_splat(t, 1), "") : f->i0[d];
            weight = LLVMBuildFMul(b, weight, high ? f->frac[d] : LLVMBuildFSub(b, f32_splat(t, 1.0f), f->frac[d], ""), "");
        }
        LLVMValueRef rgba[4];
        sample_texel(t, s, index, rgba, is_float);
        for (unsigned c = 0; c < 4; c++) {
            if (corner == 0)
                nearest[c] = rgba[c];
            if (is_float)
                sum[c] = LLVMBuildFAdd(b, sum[c], LLVMBuildFMul(b, to_float(t, rgba[c]), weight, ""), "");
        }
    }
    for (unsigned c = 0; c < 4; c++)
        out[c] = is_float ? LLVMBuildSelect(b, linear, LLVMBuildBitCast(b, sum[c], t->lane_i32, ""), nearest[c], "")
                          : nearest[c];
}

/* s->extent at s->level: each dimension of the base level halved per
 * level, at least 1. */
static void level_extents(struct tr *t, struct sample_state *s)
{
    LLVMBuilderRef b = t->builder;
    for (unsigned d = 0; d < s->dims; d++) {
        LLVMValueRef base = image_field(t, s->descriptor, VKMM_IMAGE_EXTENT + 4 * d, t->i32);
        LLVMValueRef shifted = LLVMBuildLShr(b, base, s->level, "");
        s->extent[d] = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, shifted, i32_splat(t, 0), ""), i32_splat(t, 1),
                                       shifted, "");
    }
}

static LLVMValueRef log2_of(struct tr *t, LLVMValueRef v)
{
    LLVMTypeRef overload = LLVMVectorType(t->f32, t->width);
    return tr_call_intrinsic(t, "llvm.log2", &overload, 1, &v, 1);
}

/* λbase from explicit gradients (Vulkan "Scale Factor Operation"):
 * log2 of the larger of the two derivative vectors' lengths in texels.
 * Cubes: the derivatives of the face coordinates (s, t) = (sc/ma + 1)/2. */
static LLVMValueRef lod_from_gradients(struct tr *t, const struct sample_state *s, uint32_t grad_x, uint32_t grad_y,
                                       const struct cube_face *face)
{
    LLVMBuilderRef b = t->builder;
    uint32_t ids[2] = { grad_x, grad_y };
    LLVMValueRef rho = f32_splat(t, 0.0f);
    for (unsigned k = 0; k < 2; k++) {
        LLVMValueRef value = tr_get(t, ids[k]);
        unsigned count = component_count(t, ids[k]);
        LLVMValueRef dd[3];
        for (unsigned d = 0; d < 3; d++)
            dd[d] = d < count ? component(t, value, d, count) : f32_splat(t, 0.0f);
        LLVMValueRef deriv[3];
        unsigned dims = s->dims;
        if (s->cube) {
            /* d(sc/ma) = (dsc * ma - sc * dma) / ma^2, with dsc, dtc and
             * dma the gradient's components as the face orients them
             * (ma's sign folded in: the face's normal). */
            LLVMValueRef normal[3], dsc, dtc, dma;
            cube_direction(t, face->face, f32_splat(t, 0.0f), f32_splat(t, 0.0f), normal);
            LLVMValueRef axis = LLVMBuildUDiv(b, face->face, i32_splat(t, 2), "");
            LLVMValueRef is_x = LLVMBuildICmp(b, LLVMIntEQ, axis, i32_splat(t, 0), "");
            LLVMValueRef is_y = LLVMBuildICmp(b, LLVMIntEQ, axis, i32_splat(t, 1), "");
            dma = LLVMBuildFMul(b, select3(t, is_x, is_y, normal[0], normal[1], normal[2]),
                                select3(t, is_x, is_y, dd[0], dd[1], dd[2]), "");
            /* sc, tc per face: +X (-z,-y) -X (z,-y) +Y (x,z) -Y (x,-z) +Z (x,-y) -Z (-x,-y) */
            LLVMValueRef nx = LLVMBuildFNeg(b, dd[0], ""), ny = LLVMBuildFNeg(b, dd[1], ""), nz = LLVMBuildFNeg(b, dd[2], "");
            LLVMValueRef sc_of[6] = { nz, dd[2], dd[0], dd[0], dd[0], nx };
            LLVMValueRef tc_of[6] = { ny, ny, dd[2], nz, ny, ny };
            dsc = sc_of[5], dtc = tc_of[5];
            for (int f = 4; f >= 0; f--) {
                LLVMValueRef is = LLVMBuildICmp(b, LLVMIntEQ, face->face, i32_splat(t, f), "");
                dsc = LLVMBuildSelect(b, is, sc_of[f], dsc, "");
                dtc = LLVMBuildSelect(b, is, tc_of[f], dtc, "");
            }
            LLVMValueRef ma2 = LLVMBuildFMul(b, face->ma, face->ma, "");
            LLVMValueRef half = f32_splat(t, 0.5f);
            deriv[0] = LLVMBuildFMul(b, half, LLVMBuildFDiv(b, LLVMBuildFSub(b, LLVMBuildFMul(b, dsc, face->ma, ""), LLVMBuildFMul(b, face->sc, dma, ""), ""), ma2, ""), "");
            deriv[1] = LLVMBuildFMul(b, half, LLVMBuildFDiv(b, LLVMBuildFSub(b, LLVMBuildFMul(b, dtc, face->ma, ""), LLVMBuildFMul(b, face->tc, dma, ""), ""), ma2, ""), "");
            dims = 2;
        } else {
            for (unsigned d = 0; d < 3; d++)
                deriv[d] = dd[d];
        }
        LLVMValueRef length2 = f32_splat(t, 0.0f);
        for (unsigned d = 0; d < dims; d++) {
            LLVMValueRef texels = LLVMBuildFMul(b, deriv[d], LLVMBuildUIToFP(b, s->extent[d], LLVMVectorType(t->f32, t->width), ""), "");
            length2 = LLVMBuildFAdd(b, length2, LLVMBuildFMul(b, texels, texels, ""), "");
        }
        rho = fmax_of(t, rho, length2);
    }
    /* log2(sqrt(r)) = log2(r) / 2 */
    return LLVMBuildFMul(b, log2_of(t, rho), f32_splat(t, 0.5f), "");
}

enum sample_kind { SAMPLE_EXPLICIT_LOD, SAMPLE_GATHER };

/* OpImageSample*ExplicitLod and OpImage*Gather: `dref` for the Dref forms
 * (w[5] the depth reference), `proj` for the Proj forms (the coordinates
 * divided by their last component). */
static bool translate_sample(struct tr *t, const struct spv_insn *insn, const uint32_t *w, enum sample_kind kind,
                             bool dref, bool proj)
{
    const struct spv_image_type *image = image_type_of(t, w[3]);
    LLVMBuilderRef b = t->builder;
    LLVMValueRef value = tr_get(t, w[3]);
    struct sample_state s = { .descriptor = LLVMBuildExtractValue(b, value, 0, ""), .site = site_of(t, w[3]) };
    LLVMValueRef sampler_descriptor = LLVMBuildExtractValue(b, value, 1, "");
    s.sampler = image_field(t, sampler_descriptor, VKMM_IMAGE_SAMPLER, t->i32);
    s.cube = image->dim == SpvDimCube;
    s.dims = image->dim == SpvDim1D ? 1 : image->dim == SpvDim3D ? 3 : 2;
    bool is_float = result_is_float(t, w[1]);
    s.dref = dref ? tr_get(t, w[5]) : NULL;
    struct image_operands operands;
    if (!parse_operands(t, insn, w, kind == SAMPLE_GATHER || dref ? 6 : 5, &operands))
        return false;
    LLVMValueRef offset[3];
    offset_components(t, s.cube ? 0 : operands.offset, offset);
    LLVMValueRef coords = tr_get(t, w[4]);
    unsigned count = component_count(t, w[4]);
    LLVMValueRef unnormalized = sampler_bit(t, s.sampler, VKMM_SAMPLER_UNNORMALIZED);
    static const unsigned shifts[3] = { VKMM_SAMPLER_ADDRESS_U_SHIFT, VKMM_SAMPLER_ADDRESS_V_SHIFT,
                                        VKMM_SAMPLER_ADDRESS_W_SHIFT };
    LLVMValueRef coord[3], raw[3] = { 0 };
    struct cube_face face = { 0 };
    if (s.cube) {
        for (unsigned d = 0; d < 3; d++)
            raw[d] = component(t, coords, d, count);
        face = cube_face_of(t, raw[0], raw[1], raw[2]);
        LLVMValueRef half = f32_splat(t, 0.5f), one = f32_splat(t, 1.0f);
        coord[0] = LLVMBuildFMul(b, half, LLVMBuildFAdd(b, LLVMBuildFDiv(b, face.sc, face.ma, ""), one, ""), "");
        coord[1] = LLVMBuildFMul(b, half, LLVMBuildFAdd(b, LLVMBuildFDiv(b, face.tc, face.ma, ""), one, ""), "");
        s.face = face.face;
        unnormalized = tr_splat(t, LLVMConstInt(t->i1, 0, 0)); /* cubes take normalized coordinates only */
    } else {
        /* Proj: no arrays or cubes (the spec), q follows the coordinates. */
        LLVMValueRef q = proj ? component(t, coords, s.dims, count) : NULL;
        for (unsigned d = 0; d < s.dims; d++) {
            coord[d] = component(t, coords, d, count);
            if (q)
                coord[d] = LLVMBuildFDiv(b, coord[d], q, "");
            if (q && d == 0 && s.dref) /* the spec's "Projection Operation": Dref too */
                s.dref = LLVMBuildFDiv(b, s.dref, q, "");
            s.mode[d] = LLVMBuildAnd(b, LLVMBuildLShr(b, s.sampler, i32_splat(t, shifts[d]), ""), i32_splat(t, 7), "");
        }
    }
    s.layer = i32_splat(t, 0);
    if (image->arrayed) {
        /* The layer: round(coordinate), clamped to the view's layers
         * (cube arrays: the cube, 6 layers each). */
        unsigned at = s.cube ? 3 : s.dims;
        LLVMValueRef c = component(t, coords, at, count);
        LLVMTypeRef overload = LLVMVectorType(t->f32, t->width);
        LLVMValueRef rounded = tr_call_intrinsic(t, "llvm.roundeven", &overload, 1, &c, 1);
        LLVMValueRef layer = to_int(t, rounded);
        LLVMValueRef layers = image_field(t, s.descriptor, VKMM_IMAGE_LAYERS, t->i32);
        if (s.cube)
            layers = LLVMBuildUDiv(b, layers, i32_splat(t, 6), "");
        LLVMValueRef last = LLVMBuildSub(b, layers, i32_splat(t, 1), "");
        layer = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, layer, i32_splat(t, 0), ""), i32_splat(t, 0), layer, "");
        s.layer = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, layer, last, ""), last, layer, "");
        if (s.cube)
            s.layer = LLVMBuildMul(b, s.layer, i32_splat(t, 6), "");
    }
    if (s.cube)
        s.dims = 2;
    s.level = i32_splat(t, 0);
    level_extents(t, &s);

    LLVMValueRef rgba[4], result;
    if (kind == SAMPLE_GATHER) {
        /* The 2x2 footprint of linear filtering at the base level, the
         * component w[5] of each texel (Dref: its comparison) in the order
         * (i0,j1), (i1,j1), (i1,j0), (i0,j0). */
        LLVMValueRef linear = tr_splat(t, LLVMConstInt(t->i1, 1, 0));
        struct footprint f = footprint_of(t, &s, coord, unnormalized, linear, offset);
        LLVMValueRef component_index = dref ? i32_splat(t, 0) : tr_get(t, w[5]);
        static const unsigned corners[4][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 }, { 0, 0 } };
        for (unsigned k = 0; k < 4; k++) {
            LLVMValueRef index[3] = { f.i0[0], f.i0[1], i32_splat(t, 0) };
            for (unsigned d = 0; d < 2; d++)
                if (corners[k][d])
                    index[d] = LLVMBuildAdd(b, index[d], i32_splat(t, 1), "");
            LLVMValueRef texel[4];
            sample_texel(t, &s, index, texel, is_float);
            LLVMValueRef v = texel[3];
            for (int c = 2; c >= 0; c--)
                v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, component_index, i32_splat(t, c), ""), texel[c], v, "");
            rgba[k] = v;
        }
    } else {
        /* Level of detail (Vulkan "LOD Operation"): λ from the Lod
         * operand or the gradients, plus the sampler's bias, clamped to
         * its [minLod, maxLod]; magnified (λ <= 0) uses magFilter. */
        LLVMValueRef lambda = f32_splat(t, 0.0f);
        if (operands.lod)
            lambda = tr_get(t, operands.lod);
        else if (operands.grad_x && operands.grad_y)
            lambda = lod_from_gradients(t, &s, operands.grad_x, operands.grad_y, &face);
        lambda = LLVMBuildFAdd(b, lambda, image_field(t, sampler_descriptor, VKMM_IMAGE_LOD_BIAS, t->f32), "");
        lambda = fmax_of(t, lambda, image_field(t, sampler_descriptor, VKMM_IMAGE_MIN_LOD, t->f32));
        lambda = fmin_of(t, lambda, image_field(t, sampler_descriptor, VKMM_IMAGE_MAX_LOD, t->f32));
        /* Unnormalized coordinates sample level 0 (their λ must be 0). */
        lambda = LLVMBuildSelect(b, unnormalized, f32_splat(t, 0.0f), lambda, "");
        LLVMValueRef magnified = LLVMBuildFCmp(b, LLVMRealULE, lambda, f32_splat(t, 0.0f), "");
        LLVMValueRef linear = LLVMBuildSelect(b, magnified, sampler_bit(t, s.sampler, VKMM_SAMPLER_MAG_LINEAR),
                                              sampler_bit(t, s.sampler, VKMM_SAMPLER_MIN_LINEAR), "");
        /* d' = clamp(λ, 0, q) over the view's levels. */
        LLVMValueRef levels = image_field(t, s.descriptor, VKMM_IMAGE_LEVELS, t->i32);
        LLVMValueRef q = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, levels, i32_splat(t, 0), ""), i32_splat(t, 0),
                                         LLVMBuildSub(b, levels, i32_splat(t, 1), ""), "");
        LLVMValueRef qf = LLVMBuildUIToFP(b, q, LLVMVectorType(t->f32, t->width), "");
        LLVMValueRef d = fmin_of(t, fmax_of(t, lambda, f32_splat(t, 0.0f)), qf);
        LLVMTypeRef overload = LLVMVectorType(t->f32, t->width);
        LLVMValueRef mip_linear = sampler_bit(t, s.sampler, VKMM_SAMPLER_MIPMAP_LINEAR);
        /* Nearest: ceil(d' + 0.5) - 1; linear: floor(d') and the next. */
        LLVMValueRef up = LLVMBuildFAdd(b, d, f32_splat(t, 0.5f), "");
        LLVMValueRef nearest_level = LLVMBuildFSub(b, tr_call_intrinsic(t, "llvm.ceil", &overload, 1, &up, 1), f32_splat(t, 1.0f), "");
        LLVMValueRef low = tr_call_intrinsic(t, "llvm.floor", &overload, 1, &d, 1);
        LLVMValueRef delta = LLVMBuildFSub(b, d, low, "");
        LLVMValueRef first = to_int(t, LLVMBuildSelect(b, mip_linear, low, fmax_of(t, nearest_level, f32_splat(t, 0.0f)), ""));
        LLVMValueRef second = LLVMBuildAdd(b, first, i32_splat(t, 1), "");
        second = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, second, q, ""), q, second, "");
        s.level = first;
        level_extents(t, &s);
        struct footprint f = footprint_of(t, &s, coord, unnormalized, linear, offset);
        filter(t, &s, &f, linear, is_float, rgba);
        if (is_float) {
            /* Mipmap linear: the second level, weighted by frac(d'). */
            LLVMValueRef blend = LLVMBuildAnd(b, mip_linear, LLVMBuildFCmp(b, LLVMRealOGT, delta, f32_splat(t, 0.0f), ""), "");
            s.level = second;
            level_extents(t, &s);
            struct footprint g = footprint_of(t, &s, coord, unnormalized, linear, offset);
            LLVMValueRef next[4];
            filter(t, &s, &g, linear, is_float, next);
            for (unsigned c = 0; c < 4; c++) {
                LLVMValueRef mixed = LLVMBuildFAdd(b, LLVMBuildFMul(b, to_float(t, rgba[c]), LLVMBuildFSub(b, f32_splat(t, 1.0f), delta, ""), ""),
                                                   LLVMBuildFMul(b, to_float(t, next[c]), delta, ""), "");
                rgba[c] = LLVMBuildSelect(b, blend, LLVMBuildBitCast(b, mixed, t->lane_i32, ""), rgba[c], "");
            }
        }
    }
    if (!make_result(t, w[1], rgba, &result))
        return false;
    tr_set(t, w[2], result);
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
        tr_set(t, w[2], image_field(t, image_descriptor(t, w[3]), VKMM_IMAGE_LEVELS, t->i32));
        return true;
    case SpvOpImageQuerySamples:
        tr_set(t, w[2], LLVMBuildShl(t->builder, i32_splat(t, 1),
                                     image_field(t, image_descriptor(t, w[3]), VKMM_IMAGE_SAMPLES_LOG2, t->i32), ""));
        return true;
    case SpvOpImageSampleExplicitLod:
        return translate_sample(t, insn, w, SAMPLE_EXPLICIT_LOD, false, false);
    case SpvOpImageSampleDrefExplicitLod:
        return translate_sample(t, insn, w, SAMPLE_EXPLICIT_LOD, true, false);
    case SpvOpImageSampleProjExplicitLod:
        return translate_sample(t, insn, w, SAMPLE_EXPLICIT_LOD, false, true);
    case SpvOpImageSampleProjDrefExplicitLod:
        return translate_sample(t, insn, w, SAMPLE_EXPLICIT_LOD, true, true);
    case SpvOpImageGather:
        return translate_sample(t, insn, w, SAMPLE_GATHER, false, false);
    case SpvOpImageDrefGather:
        return translate_sample(t, insn, w, SAMPLE_GATHER, true, false);
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
