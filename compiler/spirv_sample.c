/* Sampling (Vulkan "Texel Filtering", "LOD Operation", "Depth Compare
 * Operation", "Projection Operation"): explicit LOD or gradients, the
 * sampler's bias and LOD clamp, mipmap NEAREST or LINEAR over the view's
 * levels (its level table), nearest and linear filtering, every address
 * mode but MIRROR_CLAMP_TO_EDGE, the three border colours; 1D, 2D, 3D,
 * arrays and cubes (seamless); gathers; depth comparison and the Proj
 * forms.  Implicit LOD (fragment shaders: derivatives) fails compilation
 * with its name (spirv_image.c). */
#include "spirv_image.h"

#include <vulkan/vulkan_core.h>

#include "spirv_names.h"
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
    return spv_image_i32_splat(t, v);
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
    LLVMValueRef format = spv_image_field(t, s->descriptor, VKMM_IMAGE_FORMAT, t->i32);
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
    struct texel x = spv_image_texel_at(t, s->descriptor, &at, inside, s->level);
    LLVMValueRef raw[4];
    spv_image_load_raw(t, s->site, &x, raw);
    spv_image_decode(t, &x, raw, rgba);
    spv_image_swizzle(t, s->descriptor, rgba, is_float);
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
        LLVMValueRef base = spv_image_field(t, s->descriptor, VKMM_IMAGE_EXTENT + 4 * d, t->i32);
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
        unsigned count = spv_image_component_count(t, ids[k]);
        LLVMValueRef dd[3];
        for (unsigned d = 0; d < 3; d++)
            dd[d] = d < count ? spv_image_component(t, value, d, count) : f32_splat(t, 0.0f);
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

/* OpImageSample*ExplicitLod and OpImage*Gather: `dref` for the Dref forms
 * (w[5] the depth reference), `proj` for the Proj forms (the coordinates
 * divided by their last component). */
bool spv_translate_sample(struct tr *t, const struct spv_insn *insn, const uint32_t *w, enum spv_sample_kind kind,
                          bool dref, bool proj)
{
    const struct spv_image_type *image = spv_image_type_of(t, w[3]);
    LLVMBuilderRef b = t->builder;
    LLVMValueRef value = tr_get(t, w[3]);
    struct sample_state s = { .descriptor = LLVMBuildExtractValue(b, value, 0, ""), .site = spv_image_site_of(t, w[3]) };
    LLVMValueRef sampler_descriptor = LLVMBuildExtractValue(b, value, 1, "");
    s.sampler = spv_image_field(t, sampler_descriptor, VKMM_IMAGE_SAMPLER, t->i32);
    s.cube = image->dim == SpvDimCube;
    s.dims = image->dim == SpvDim1D ? 1 : image->dim == SpvDim3D ? 3 : 2;
    bool is_float = spv_image_result_is_float(t, w[1]);
    s.dref = dref ? tr_get(t, w[5]) : NULL;
    struct image_operands operands;
    if (!spv_image_parse_operands(t, insn, w, kind == SPV_SAMPLE_GATHER || dref ? 6 : 5, &operands))
        return false;
    LLVMValueRef offset[3];
    spv_image_offset_components(t, s.cube ? 0 : operands.offset, offset);
    LLVMValueRef coords = tr_get(t, w[4]);
    unsigned count = spv_image_component_count(t, w[4]);
    LLVMValueRef unnormalized = sampler_bit(t, s.sampler, VKMM_SAMPLER_UNNORMALIZED);
    static const unsigned shifts[3] = { VKMM_SAMPLER_ADDRESS_U_SHIFT, VKMM_SAMPLER_ADDRESS_V_SHIFT,
                                        VKMM_SAMPLER_ADDRESS_W_SHIFT };
    LLVMValueRef coord[3], raw[3] = { 0 };
    struct cube_face face = { 0 };
    if (s.cube) {
        for (unsigned d = 0; d < 3; d++)
            raw[d] = spv_image_component(t, coords, d, count);
        face = cube_face_of(t, raw[0], raw[1], raw[2]);
        LLVMValueRef half = f32_splat(t, 0.5f), one = f32_splat(t, 1.0f);
        coord[0] = LLVMBuildFMul(b, half, LLVMBuildFAdd(b, LLVMBuildFDiv(b, face.sc, face.ma, ""), one, ""), "");
        coord[1] = LLVMBuildFMul(b, half, LLVMBuildFAdd(b, LLVMBuildFDiv(b, face.tc, face.ma, ""), one, ""), "");
        s.face = face.face;
        unnormalized = tr_splat(t, LLVMConstInt(t->i1, 0, 0)); /* cubes take normalized coordinates only */
    } else {
        /* Proj: no arrays or cubes (the spec), q follows the coordinates. */
        LLVMValueRef q = proj ? spv_image_component(t, coords, s.dims, count) : NULL;
        for (unsigned d = 0; d < s.dims; d++) {
            coord[d] = spv_image_component(t, coords, d, count);
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
        LLVMValueRef c = spv_image_component(t, coords, at, count);
        LLVMTypeRef overload = LLVMVectorType(t->f32, t->width);
        LLVMValueRef rounded = tr_call_intrinsic(t, "llvm.roundeven", &overload, 1, &c, 1);
        LLVMValueRef layer = to_int(t, rounded);
        LLVMValueRef layers = spv_image_field(t, s.descriptor, VKMM_IMAGE_LAYERS, t->i32);
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
    if (kind == SPV_SAMPLE_GATHER) {
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
        lambda = LLVMBuildFAdd(b, lambda, spv_image_field(t, sampler_descriptor, VKMM_IMAGE_LOD_BIAS, t->f32), "");
        lambda = fmax_of(t, lambda, spv_image_field(t, sampler_descriptor, VKMM_IMAGE_MIN_LOD, t->f32));
        lambda = fmin_of(t, lambda, spv_image_field(t, sampler_descriptor, VKMM_IMAGE_MAX_LOD, t->f32));
        /* Unnormalized coordinates sample level 0 (their λ must be 0). */
        lambda = LLVMBuildSelect(b, unnormalized, f32_splat(t, 0.0f), lambda, "");
        LLVMValueRef magnified = LLVMBuildFCmp(b, LLVMRealULE, lambda, f32_splat(t, 0.0f), "");
        LLVMValueRef linear = LLVMBuildSelect(b, magnified, sampler_bit(t, s.sampler, VKMM_SAMPLER_MAG_LINEAR),
                                              sampler_bit(t, s.sampler, VKMM_SAMPLER_MIN_LINEAR), "");
        /* d' = clamp(λ, 0, q) over the view's levels. */
        LLVMValueRef levels = spv_image_field(t, s.descriptor, VKMM_IMAGE_LEVELS, t->i32);
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
    if (!spv_image_make_result(t, w[1], rgba, &result))
        return false;
    tr_set(t, w[2], result);
    return true;
}
