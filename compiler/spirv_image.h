/* What image instructions (spirv_image.c) and sampling (spirv_sample.c)
 * share: texel coordinates and addresses, descriptor fields, image
 * operands, and the texel loads and conversions. */
#pragma once

#include "spirv_private.h"

/* Integer texel coordinates, per lane. */
struct texel_coords {
    LLVMValueRef c[4];   /* x, y, z, layer: <W x i32> */
    LLVMValueRef sample; /* multisampled images: the sample, or NULL for sample 0 */
};

/* A texel: its address (0 when outside the view) and the bounds of the
 * view's bytes, for the loads and stores of lower_memory.c. */
struct texel {
    LLVMValueRef address, lo, hi;
    LLVMValueRef format, size; /* <W x i32> */
    /* Compressed formats: the texel's place in its block, x | y << 8
     * (the address is the block's); 0 otherwise. */
    LLVMValueRef place;
};

/* The image operands an instruction carries from word `at` on (SPIR-V
 * "Image Operands": each operand's ids follow the mask in the order of its
 * bits). */
struct image_operands {
    uint32_t lod, grad_x, grad_y, offset; /* ids, 0: absent (ConstOffset and Offset alike) */
    uint32_t sample;                      /* multisampled images: the Sample operand */
};

enum spv_sample_kind { SPV_SAMPLE_EXPLICIT_LOD, SPV_SAMPLE_GATHER };

/* A field of the image descriptor (shader_abi.h, VKMM_IMAGE_*) per lane. */
LLVMValueRef spv_image_field(struct tr *t, LLVMValueRef descriptor, unsigned offset, LLVMTypeRef scalar);
/* Component i of a scalar or vector value (NULL past its count). */
LLVMValueRef spv_image_component(struct tr *t, LLVMValueRef value, unsigned i, unsigned count);
unsigned spv_image_component_count(struct tr *t, uint32_t value_id);
/* The image type of an image, sampled image or pointer to one. */
const struct spv_image_type *spv_image_type_of(struct tr *t, uint32_t value_id);
/* The texel at `at` of the view's base level, or of `level` (relative to
 * it; NULL: the base level); `extra_ok` (or NULL) also guards the address. */
struct texel spv_image_texel_at(struct tr *t, LLVMValueRef descriptor, const struct texel_coords *at,
                                LLVMValueRef extra_ok, LLVMValueRef level);
/* The texel's bytes as 4 words; their conversion to RGBA values (float
 * bits or integers) through the invocation's texel hook. */
void spv_image_load_raw(struct tr *t, uint32_t site, const struct texel *x, LLVMValueRef raw[4]);
void spv_image_decode(struct tr *t, const struct texel *x, LLVMValueRef raw[4], LLVMValueRef rgba[4]);
/* The view's component swizzle (sampled images). */
void spv_image_swizzle(struct tr *t, LLVMValueRef descriptor, LLVMValueRef rgba[4], bool is_float);
/* The first channels as the result type; whether that type holds floats. */
bool spv_image_make_result(struct tr *t, uint32_t result_type, LLVMValueRef rgba[4], LLVMValueRef *out);
bool spv_image_result_is_float(struct tr *t, uint32_t result_type);
/* The id accesses are reported under: the variable an image was loaded from. */
uint32_t spv_image_site_of(struct tr *t, uint32_t image_id);
/* `value` in every lane, as <W x i32>. */
LLVMValueRef spv_image_i32_splat(struct tr *t, int32_t v);
bool spv_image_parse_operands(struct tr *t, const struct spv_insn *insn, const uint32_t *w, unsigned at,
                              struct image_operands *out);
/* The integer offset operand's components (0 where absent). */
void spv_image_offset_components(struct tr *t, uint32_t offset_id, LLVMValueRef out[3]);

/* OpImageSample*ExplicitLod and OpImage*Gather (spirv_sample.c): `dref`
 * for the Dref forms, `proj` for the Proj forms. */
bool spv_translate_sample(struct tr *t, const struct spv_insn *insn, const uint32_t *w, enum spv_sample_kind kind,
                          bool dref, bool proj);
