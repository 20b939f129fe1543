/* Subgroup (GroupNonUniform) instructions: the subgroup is the W lanes of
 * one generated function call, so these are operations across the lanes of
 * a <W x T> vector under the execution mask.
 *
 * The active invocations of SPIR-V are the lanes of t->exec; the others
 * hold garbage and never contribute.  Vector operands are handled component
 * by component (tr_map).  Where SPIR-V leaves a result undefined (a shuffle
 * or broadcast reading an inactive or missing lane, the LSB of an empty
 * ballot, a cluster wider than the subgroup) vkmm returns something
 * harmless and deterministic: the lane's own value, whatever the bit
 * arithmetic gives, or the reduction over the whole subgroup. */
#include "spirv_names.h"
#include "spirv_private.h"

/* --- Helpers ---------------------------------------------------------------- */

static LLVMValueRef splat_i32(struct tr *t, uint32_t value)
{
    return tr_splat(t, LLVMConstInt(t->i32, value, 0));
}

/* A constant vector of W copies of `scalar`. */
static LLVMValueRef splat_constant(struct tr *t, LLVMValueRef scalar)
{
    LLVMValueRef lanes[16];
    for (unsigned i = 0; i < t->width; i++)
        lanes[i] = scalar;
    return LLVMConstVector(lanes, t->width);
}

/* The bits of the subgroup's invocations in a ballot: the low W. */
static uint32_t group_bits(struct tr *t)
{
    return (1u << t->width) - 1u;
}

/* Value of an OpConstant (or OpConstantNull) of 32 bits or less. */
static bool constant_u32(struct tr *t, uint32_t id, uint32_t *value)
{
    const struct spv_id *c = &t->m->ids[id];
    if (c->kind != SPV_ID_CONSTANT)
        return false;
    const struct spv_insn *insn = &t->m->insns[c->insn];
    if (insn->opcode == SpvOpConstantNull) {
        *value = 0;
        return true;
    }
    if (insn->opcode != SpvOpConstant)
        return false;
    *value = spv_words(t->m, insn)[3];
    return true;
}

/* Vulkan allows only Subgroup scope here ("Scope for Non Uniform Group
 * Operations must be limited to Subgroup", standalone SPIR-V validation
 * rules of the Vulkan specification). */
static bool check_scope(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    uint32_t scope;
    if (!constant_u32(t, w[3], &scope))
        return spv_fail(t->error, "%s at word %u: execution scope is not a constant", spv_opcode_name(insn->opcode),
                        insn->offset);
    if (scope != SpvScopeSubgroup)
        return spv_fail(t->error, "%s at word %u with execution scope %u: only Subgroup scope is supported",
                        spv_opcode_name(insn->opcode), insn->offset, scope);
    return true;
}

/* Integer lanes resized to `element` (zero-extended or truncated). */
static LLVMValueRef resize_int(struct tr *t, LLVMValueRef lanes, LLVMTypeRef element)
{
    unsigned from = LLVMGetIntTypeWidth(LLVMGetElementType(LLVMTypeOf(lanes)));
    unsigned to = LLVMGetIntTypeWidth(element);
    LLVMTypeRef type = LLVMVectorType(element, t->width);
    if (from > to)
        return LLVMBuildTrunc(t->builder, lanes, type, "");
    if (from < to)
        return LLVMBuildZExt(t->builder, lanes, type, "");
    return lanes;
}

/* Lane ids as <W x i32>.  Ids wider than 32 bits that do not fit saturate,
 * so that they stay out of range. */
static LLVMValueRef lane_ids(struct tr *t, LLVMValueRef ids)
{
    LLVMTypeRef element = LLVMGetElementType(LLVMTypeOf(ids));
    if (LLVMGetIntTypeWidth(element) > 32) {
        LLVMValueRef limit = tr_splat(t, LLVMConstInt(element, 0xffffffffu, 0));
        LLVMValueRef big = LLVMBuildICmp(t->builder, LLVMIntUGT, ids, limit, "");
        ids = LLVMBuildSelect(t->builder, big, limit, ids, "");
    }
    return resize_int(t, ids, t->i32);
}

/* The lanes of a mask as the low W bits of an i32 (W <= 16). */
static LLVMValueRef mask_bits(struct tr *t, LLVMValueRef mask)
{
    LLVMValueRef bits = LLVMBuildBitCast(t->builder, mask, LLVMIntTypeInContext(t->context, t->width), "");
    return LLVMBuildZExt(t->builder, bits, t->i32, "");
}

/* A uvec4 ballot value whose first word is `word` (W <= 16 leaves the
 * others zero). */
static LLVMValueRef ballot_value(struct tr *t, uint32_t type_id, LLVMValueRef word)
{
    const struct spv_type *type = spv_type(t->m, type_id);
    word = resize_int(t, word, spv_scalar_llvm(t, spv_type(t->m, type->element)));
    LLVMValueRef result = LLVMGetUndef(type->value_type);
    for (unsigned i = 0; i < type->count; i++)
        result = LLVMBuildInsertValue(t->builder, result, i ? LLVMConstNull(LLVMTypeOf(word)) : word, i, "");
    return result;
}

/* The first word of a ballot operand, as i32 lanes. */
static LLVMValueRef ballot_word(struct tr *t, uint32_t id)
{
    return resize_int(t, LLVMBuildExtractValue(t->builder, tr_get(t, id), 0, ""), t->i32);
}

static void set_bool(struct tr *t, uint32_t id, LLVMValueRef scalar)
{
    tr_set(t, id, tr_splat(t, scalar));
}

/* --- Lane movement ---------------------------------------------------------- */

/* Every lane reads lane `source` of the operand (a uniform i32). */
static LLVMValueRef broadcast_component(struct tr *t, LLVMValueRef *args, void *user)
{
    return tr_splat(t, LLVMBuildExtractElement(t->builder, args[0], (LLVMValueRef)user, ""));
}

/* A permutation with per-lane source lanes.  `valid` marks the lanes whose
 * source is an active lane of the subgroup; the others keep their own value
 * (the result is undefined for them in SPIR-V). */
struct shuffle {
    LLVMValueRef source; /* <W x i32>, every element < W */
    LLVMValueRef valid;  /* <W x i1> */
};

static struct shuffle make_shuffle(struct tr *t, LLVMValueRef ids)
{
    LLVMBuilderRef b = t->builder;
    LLVMValueRef in_range = LLVMBuildICmp(b, LLVMIntULT, ids, splat_i32(t, t->width), "");
    LLVMValueRef source = LLVMBuildAnd(b, ids, splat_i32(t, t->width - 1), "");
    LLVMValueRef exec = tr_splat(t, mask_bits(t, t->exec));
    LLVMValueRef bit = LLVMBuildAnd(b, LLVMBuildLShr(b, exec, source, ""), splat_i32(t, 1), "");
    LLVMValueRef active = LLVMBuildICmp(b, LLVMIntNE, bit, splat_i32(t, 0), "");
    return (struct shuffle){ source, LLVMBuildAnd(b, in_range, active, "") };
}

static LLVMValueRef shuffle_component(struct tr *t, LLVMValueRef *args, void *user)
{
    const struct shuffle *s = user;
    LLVMBuilderRef b = t->builder;
    LLVMValueRef value = args[0];
    LLVMValueRef result = LLVMGetUndef(LLVMTypeOf(value));
    for (unsigned l = 0; l < t->width; l++) {
        LLVMValueRef lane = LLVMConstInt(t->i32, l, 0);
        LLVMValueRef from = LLVMBuildExtractElement(b, s->source, lane, "");
        result = LLVMBuildInsertElement(b, result, LLVMBuildExtractElement(b, value, from, ""), lane, "");
    }
    return LLVMBuildSelect(b, s->valid, result, value, "");
}

/* Result = Value of lane ids[l] in every lane l. */
static bool emit_shuffle(struct tr *t, const uint32_t *w, uint32_t value_id, LLVMValueRef ids)
{
    struct shuffle s = make_shuffle(t, ids);
    LLVMValueRef value = tr_get(t, value_id);
    tr_set(t, w[2], tr_map(t, w[1], &value, 1, shuffle_component, &s));
    return true;
}

/* OpGroupNonUniformBroadcast: "Id must be dynamically uniform" (SPIR-V 1.5
 * and later), so the first active lane's Id is everyone's.  Reading an
 * inactive lane is undefined; it gives the own value here. */
static bool translate_broadcast(struct tr *t, const uint32_t *w)
{
    LLVMValueRef ids = lane_ids(t, tr_get(t, w[5]));
    LLVMValueRef id = LLVMBuildExtractElement(t->builder, ids, tr_first_active_lane(t), "");
    return emit_shuffle(t, w, w[4], tr_splat(t, id));
}

static bool translate_broadcast_first(struct tr *t, const uint32_t *w)
{
    LLVMValueRef value = tr_get(t, w[4]);
    tr_set(t, w[2], tr_map(t, w[1], &value, 1, broadcast_component, tr_first_active_lane(t)));
    return true;
}

/* Shuffle (absolute Id), ShuffleXor (id ^ Mask), ShuffleUp (id - Delta),
 * ShuffleDown (id + Delta).  Ids out of the subgroup (including negative
 * ones, which wrap to large unsigned values) are undefined results. */
static bool translate_shuffle(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    LLVMBuilderRef b = t->builder;
    LLVMValueRef operand = lane_ids(t, tr_get(t, w[5]));
    LLVMValueRef lane = tr_lane_index(t);
    LLVMValueRef ids;
    switch (insn->opcode) {
    case SpvOpGroupNonUniformShuffleXor:
        ids = LLVMBuildXor(b, lane, operand, "");
        break;
    case SpvOpGroupNonUniformShuffleUp:
        ids = LLVMBuildSub(b, lane, operand, "");
        break;
    case SpvOpGroupNonUniformShuffleDown:
        ids = LLVMBuildAdd(b, lane, operand, "");
        break;
    default:
        ids = operand;
        break;
    }
    return emit_shuffle(t, w, w[4], ids);
}

/* Quads are lanes 4k..4k+3.  QuadBroadcast reads quad lane Index (values of
 * 4 or more are undefined: taken modulo 4); QuadSwap exchanges with the
 * horizontal (Direction 0: lane ^ 1), vertical (1: lane ^ 2) or diagonal
 * (2: lane ^ 3) neighbour.  With W = 1 the neighbours do not exist and a
 * lane sees its own value. */
static bool translate_quad(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    LLVMBuilderRef b = t->builder;
    LLVMValueRef operand = lane_ids(t, tr_get(t, w[5]));
    LLVMValueRef lane = tr_lane_index(t);
    LLVMValueRef ids;
    if (insn->opcode == SpvOpGroupNonUniformQuadBroadcast) {
        LLVMValueRef quad = LLVMBuildAnd(b, lane, splat_i32(t, ~3u), "");
        ids = LLVMBuildOr(b, quad, LLVMBuildAnd(b, operand, splat_i32(t, 3), ""), "");
    } else {
        LLVMValueRef flip = LLVMBuildAnd(b, LLVMBuildAdd(b, operand, splat_i32(t, 1), ""), splat_i32(t, 3), "");
        ids = LLVMBuildXor(b, lane, flip, "");
    }
    return emit_shuffle(t, w, w[4], ids);
}

/* --- Votes ---------------------------------------------------------------------- */

/* OpGroupNonUniformElect: true only in the active invocation with the
 * lowest id. */
static bool translate_elect(struct tr *t, const uint32_t *w)
{
    LLVMValueRef first = tr_splat(t, tr_first_active_lane(t));
    tr_set(t, w[2], LLVMBuildICmp(t->builder, LLVMIntEQ, tr_lane_index(t), first, ""));
    return true;
}

static bool translate_all_any(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    LLVMBuilderRef b = t->builder;
    LLVMValueRef predicate = tr_get(t, w[4]);
    if (insn->opcode == SpvOpGroupNonUniformAll)
        set_bool(t, w[2], tr_all(t, LLVMBuildOr(b, predicate, LLVMBuildNot(b, t->exec, ""), "")));
    else
        set_bool(t, w[2], tr_any(t, LLVMBuildAnd(b, predicate, t->exec, "")));
    return true;
}

/* OpGroupNonUniformAllEqual: every component of every active lane equals
 * the first active lane's.  Floats compare as OpFOrdEqual (a NaN is equal to
 * nothing). */
static bool translate_all_equal(struct tr *t, const uint32_t *w)
{
    LLVMBuilderRef b = t->builder;
    const struct spv_type *type = spv_type(t->m, t->m->ids[w[4]].type);
    LLVMValueRef value = tr_get(t, w[4]);
    LLVMValueRef first = tr_first_active_lane(t);
    unsigned count = type->kind == SPV_TYPE_VECTOR ? type->count : 1;
    LLVMValueRef equal = LLVMConstAllOnes(t->mask_type);
    for (unsigned i = 0; i < count; i++) {
        LLVMValueRef lanes = type->kind == SPV_TYPE_VECTOR ? LLVMBuildExtractValue(b, value, i, "") : value;
        LLVMValueRef reference = tr_splat(t, LLVMBuildExtractElement(b, lanes, first, ""));
        bool is_float = LLVMGetTypeKind(LLVMGetElementType(LLVMTypeOf(lanes))) != LLVMIntegerTypeKind;
        LLVMValueRef same = is_float ? LLVMBuildFCmp(b, LLVMRealOEQ, lanes, reference, "")
                                     : LLVMBuildICmp(b, LLVMIntEQ, lanes, reference, "");
        equal = LLVMBuildAnd(b, equal, same, "");
    }
    equal = LLVMBuildOr(b, equal, LLVMBuildNot(b, t->exec, ""), "");
    set_bool(t, w[2], tr_all(t, equal));
    return true;
}

/* --- Ballots ---------------------------------------------------------------------- */

/* OpGroupNonUniformBallot: bit l of the result is set when lane l is active
 * and its Predicate is true. */
static bool translate_ballot(struct tr *t, const uint32_t *w)
{
    LLVMValueRef lanes = LLVMBuildAnd(t->builder, tr_get(t, w[4]), t->exec, "");
    tr_set(t, w[2], ballot_value(t, w[1], tr_splat(t, mask_bits(t, lanes))));
    return true;
}

/* OpGroupNonUniformInverseBallot: the bit of the own invocation id. */
static bool translate_inverse_ballot(struct tr *t, const uint32_t *w)
{
    LLVMBuilderRef b = t->builder;
    LLVMValueRef bit = LLVMBuildAnd(b, LLVMBuildLShr(b, ballot_word(t, w[4]), tr_lane_index(t), ""), splat_i32(t, 1),
                                    "");
    tr_set(t, w[2], LLVMBuildICmp(b, LLVMIntNE, bit, splat_i32(t, 0), ""));
    return true;
}

/* OpGroupNonUniformBallotBitExtract: bit Index of the 128-bit Value, per
 * lane (Index need not be uniform; 128 and above is undefined and wraps). */
static bool translate_ballot_bit_extract(struct tr *t, const uint32_t *w)
{
    LLVMBuilderRef b = t->builder;
    const struct spv_type *type = spv_type(t->m, t->m->ids[w[4]].type);
    LLVMValueRef value = tr_get(t, w[4]);
    LLVMValueRef index = lane_ids(t, tr_get(t, w[5]));
    LLVMValueRef which = LLVMBuildAnd(b, LLVMBuildLShr(b, index, splat_i32(t, 5), ""), splat_i32(t, 3), "");
    LLVMValueRef word = resize_int(t, LLVMBuildExtractValue(b, value, 0, ""), t->i32);
    for (unsigned i = 1; i < type->count; i++) {
        LLVMValueRef is = LLVMBuildICmp(b, LLVMIntEQ, which, splat_i32(t, i), "");
        word = LLVMBuildSelect(b, is, resize_int(t, LLVMBuildExtractValue(b, value, i, ""), t->i32), word, "");
    }
    LLVMValueRef shift = LLVMBuildAnd(b, index, splat_i32(t, 31), "");
    LLVMValueRef bit = LLVMBuildAnd(b, LLVMBuildLShr(b, word, shift, ""), splat_i32(t, 1), "");
    tr_set(t, w[2], LLVMBuildICmp(b, LLVMIntNE, bit, splat_i32(t, 0), ""));
    return true;
}

/* OpGroupNonUniformBallotBitCount: the set bits of Value among the group's
 * invocations (Reduce), those with id <= the own (InclusiveScan) or < the
 * own (ExclusiveScan). */
static bool translate_ballot_bit_count(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    LLVMBuilderRef b = t->builder;
    LLVMValueRef word = LLVMBuildAnd(b, ballot_word(t, w[5]), splat_i32(t, group_bits(t)), "");
    LLVMValueRef below = LLVMBuildSub(b, LLVMBuildShl(b, splat_i32(t, 1), tr_lane_index(t), ""), splat_i32(t, 1), "");
    switch (w[4]) {
    case SpvGroupOperationReduce:
        break;
    case SpvGroupOperationInclusiveScan:
        word = LLVMBuildAnd(b, word, LLVMBuildOr(b, LLVMBuildShl(b, below, splat_i32(t, 1), ""), splat_i32(t, 1), ""),
                            "");
        break;
    case SpvGroupOperationExclusiveScan:
        word = LLVMBuildAnd(b, word, below, "");
        break;
    default:
        return spv_fail(t->error, "%s at word %u: group operation %u is not supported", spv_opcode_name(insn->opcode),
                        insn->offset, w[4]);
    }
    LLVMTypeRef type = t->lane_i32;
    LLVMValueRef count = tr_call_intrinsic(t, "llvm.ctpop", &type, 1, &word, 1);
    tr_set(t, w[2], resize_int(t, count, LLVMGetElementType(spv_type(t->m, w[1])->value_type)));
    return true;
}

/* OpGroupNonUniformBallotFindLSB / FindMSB over the group's bits of Value.
 * With no bit set the result is undefined: 32 (LSB) or 0xffffffff (MSB). */
static bool translate_ballot_find(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    LLVMBuilderRef b = t->builder;
    LLVMValueRef word = LLVMBuildAnd(b, ballot_word(t, w[4]), splat_i32(t, group_bits(t)), "");
    LLVMValueRef args[2] = { word, LLVMConstInt(t->i1, 0, 0) };
    LLVMTypeRef type = t->lane_i32;
    LLVMValueRef result;
    if (insn->opcode == SpvOpGroupNonUniformBallotFindLSB) {
        result = tr_call_intrinsic(t, "llvm.cttz", &type, 1, args, 2);
    } else {
        LLVMValueRef leading = tr_call_intrinsic(t, "llvm.ctlz", &type, 1, args, 2);
        result = LLVMBuildSub(b, splat_i32(t, 31), leading, "");
    }
    tr_set(t, w[2], resize_int(t, result, LLVMGetElementType(spv_type(t->m, w[1])->value_type)));
    return true;
}

/* --- Arithmetic ---------------------------------------------------------------------- */

struct group_op {
    uint16_t opcode;
    uint32_t operation; /* GroupOperation */
    unsigned cluster;   /* lanes per cluster for Reduce / ClusteredReduce */
};

/* The identity I of each operation (SPIR-V 3.3.22, OpGroupNonUniformIAdd
 * and the following): inactive lanes contribute it. */
static LLVMValueRef identity(uint16_t opcode, LLVMTypeRef element)
{
    bool is_float = LLVMGetTypeKind(element) != LLVMIntegerTypeKind;
    unsigned width = is_float ? 0 : LLVMGetIntTypeWidth(element);
    switch (opcode) {
    case SpvOpGroupNonUniformFAdd:
        return LLVMConstReal(element, 0.0);
    case SpvOpGroupNonUniformFMul:
        return LLVMConstReal(element, 1.0);
    case SpvOpGroupNonUniformFMin:
        return LLVMConstReal(element, __builtin_inf());
    case SpvOpGroupNonUniformFMax:
        return LLVMConstReal(element, -__builtin_inf());
    case SpvOpGroupNonUniformIMul:
        return LLVMConstInt(element, 1, 0);
    case SpvOpGroupNonUniformSMin:
        return LLVMConstInt(element, (1ull << (width - 1)) - 1, 0);
    case SpvOpGroupNonUniformSMax:
        return LLVMConstInt(element, 1ull << (width - 1), 0);
    case SpvOpGroupNonUniformUMin:
    case SpvOpGroupNonUniformBitwiseAnd:
    case SpvOpGroupNonUniformLogicalAnd:
        return LLVMConstAllOnes(element);
    default: /* IAdd, UMax, BitwiseOr/Xor, LogicalOr/Xor */
        return LLVMConstNull(element);
    }
}

static LLVMValueRef min_max(struct tr *t, const char *intrinsic, LLVMValueRef a, LLVMValueRef c)
{
    LLVMTypeRef type = LLVMTypeOf(a);
    LLVMValueRef args[2] = { a, c };
    return tr_call_intrinsic(t, intrinsic, &type, 1, args, 2);
}

/* FMin / FMax choose the non-NaN operand when one is a NaN (minnum/maxnum),
 * as the SPIR-V specification asks. */
static LLVMValueRef combine(struct tr *t, uint16_t opcode, LLVMValueRef a, LLVMValueRef c)
{
    LLVMBuilderRef b = t->builder;
    switch (opcode) {
    case SpvOpGroupNonUniformIAdd: return LLVMBuildAdd(b, a, c, "");
    case SpvOpGroupNonUniformFAdd: return LLVMBuildFAdd(b, a, c, "");
    case SpvOpGroupNonUniformIMul: return LLVMBuildMul(b, a, c, "");
    case SpvOpGroupNonUniformFMul: return LLVMBuildFMul(b, a, c, "");
    case SpvOpGroupNonUniformSMin: return min_max(t, "llvm.smin", a, c);
    case SpvOpGroupNonUniformUMin: return min_max(t, "llvm.umin", a, c);
    case SpvOpGroupNonUniformFMin: return min_max(t, "llvm.minnum", a, c);
    case SpvOpGroupNonUniformSMax: return min_max(t, "llvm.smax", a, c);
    case SpvOpGroupNonUniformUMax: return min_max(t, "llvm.umax", a, c);
    case SpvOpGroupNonUniformFMax: return min_max(t, "llvm.maxnum", a, c);
    case SpvOpGroupNonUniformBitwiseAnd:
    case SpvOpGroupNonUniformLogicalAnd: return LLVMBuildAnd(b, a, c, "");
    case SpvOpGroupNonUniformBitwiseOr:
    case SpvOpGroupNonUniformLogicalOr: return LLVMBuildOr(b, a, c, "");
    default: /* BitwiseXor, LogicalXor */ return LLVMBuildXor(b, a, c, "");
    }
}

static LLVMValueRef shuffle_constant(struct tr *t, LLVMValueRef a, LLVMValueRef c, const unsigned *indices)
{
    LLVMValueRef mask[16];
    for (unsigned l = 0; l < t->width; l++)
        mask[l] = LLVMConstInt(t->i32, indices[l], 0);
    return LLVMBuildShuffleVector(t->builder, a, c, LLVMConstVector(mask, t->width), "");
}

/* Lane l gets lane l - k of `lanes`, or `fill` for l < k. */
static LLVMValueRef shift_up(struct tr *t, LLVMValueRef lanes, LLVMValueRef fill, unsigned k)
{
    unsigned indices[16];
    for (unsigned l = 0; l < t->width; l++)
        indices[l] = l >= k ? l - k : t->width + l;
    return shuffle_constant(t, lanes, fill, indices);
}

/* Clusters of `cluster` lanes, reduced with a butterfly: after the step
 * with distance k every lane holds its 2k-lane group's value, so all lanes
 * of a cluster end with the cluster's reduction. */
static LLVMValueRef butterfly(struct tr *t, uint16_t opcode, LLVMValueRef lanes, unsigned cluster)
{
    for (unsigned k = 1; k < cluster; k <<= 1) {
        unsigned indices[16];
        for (unsigned l = 0; l < t->width; l++)
            indices[l] = l ^ k;
        lanes = combine(t, opcode, lanes, shuffle_constant(t, lanes, lanes, indices));
    }
    return lanes;
}

/* Inclusive prefix (Hillis-Steele): log2(W) shifted combinations. */
static LLVMValueRef inclusive_scan(struct tr *t, uint16_t opcode, LLVMValueRef lanes, LLVMValueRef fill)
{
    for (unsigned k = 1; k < t->width; k <<= 1)
        lanes = combine(t, opcode, lanes, shift_up(t, lanes, fill, k));
    return lanes;
}

static LLVMValueRef group_component(struct tr *t, LLVMValueRef *args, void *user)
{
    const struct group_op *op = user;
    LLVMValueRef fill = splat_constant(t, identity(op->opcode, LLVMGetElementType(LLVMTypeOf(args[0]))));
    LLVMValueRef lanes = LLVMBuildSelect(t->builder, t->exec, args[0], fill, "");
    switch (op->operation) {
    case SpvGroupOperationInclusiveScan:
        return inclusive_scan(t, op->opcode, lanes, fill);
    case SpvGroupOperationExclusiveScan:
        /* The exclusive scan of lane l is the inclusive scan of l - 1, and
         * I for the first lane. */
        return inclusive_scan(t, op->opcode, shift_up(t, lanes, fill, 1), fill);
    default: /* Reduce, ClusteredReduce */
        return butterfly(t, op->opcode, lanes, op->cluster);
    }
}

/* OpGroupNonUniform<Op> Execution Operation Value [ClusterSize].
 * "ClusterSize ... must be a power of 2 ... If ClusterSize is greater than
 * the size of the group, executing this instruction results in undefined
 * behavior": vkmm reduces over the whole subgroup then. */
/* The scalar kind an arithmetic group operation works on: F* on floats,
 * Logical* on booleans, the others on integers. */
static enum spv_type_kind arithmetic_kind(uint16_t opcode)
{
    switch (opcode) {
    case SpvOpGroupNonUniformFAdd:
    case SpvOpGroupNonUniformFMul:
    case SpvOpGroupNonUniformFMin:
    case SpvOpGroupNonUniformFMax:
        return SPV_TYPE_FLOAT;
    case SpvOpGroupNonUniformLogicalAnd:
    case SpvOpGroupNonUniformLogicalOr:
    case SpvOpGroupNonUniformLogicalXor:
        return SPV_TYPE_BOOL;
    default:
        return SPV_TYPE_INT;
    }
}

/* Whether the result type is a scalar or vector of the kind the operation
 * works on.  spirv-val (2023.1) lets OpGroupNonUniformFAdd on integers
 * through (found by fuzz_spirv), and building a float add of integers
 * crashed LLVM. */
static bool arithmetic_type_fits(struct tr *t, uint16_t opcode, uint32_t result_type)
{
    const struct spv_type *type = spv_type(t->m, result_type);
    if (type && type->kind == SPV_TYPE_VECTOR)
        type = spv_type(t->m, type->element);
    return type && type->kind == arithmetic_kind(opcode);
}

static bool translate_arithmetic(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    struct group_op op = { insn->opcode, w[4], t->width };
    if (!arithmetic_type_fits(t, insn->opcode, w[1]))
        return spv_fail(t->error, "%s at word %u: the result type does not fit the operation",
                        spv_opcode_name(insn->opcode), insn->offset);
    switch (op.operation) {
    case SpvGroupOperationReduce:
    case SpvGroupOperationInclusiveScan:
    case SpvGroupOperationExclusiveScan:
        break;
    case SpvGroupOperationClusteredReduce: {
        uint32_t cluster = 0;
        if (insn->word_count < 7 || !constant_u32(t, w[6], &cluster) || !cluster || (cluster & (cluster - 1)))
            return spv_fail(t->error, "%s at word %u: ClusterSize is not a constant power of two",
                            spv_opcode_name(insn->opcode), insn->offset);
        if (cluster < op.cluster)
            op.cluster = cluster;
        break;
    }
    default:
        return spv_fail(t->error, "%s at word %u: group operation %u is not supported", spv_opcode_name(insn->opcode),
                        insn->offset, op.operation);
    }
    LLVMValueRef value = tr_get(t, w[5]);
    tr_set(t, w[2], tr_map(t, w[1], &value, 1, group_component, &op));
    return true;
}

/* --- Dispatch ---------------------------------------------------------------------- */

static bool is_arithmetic(uint16_t opcode)
{
    return opcode >= SpvOpGroupNonUniformIAdd && opcode <= SpvOpGroupNonUniformLogicalXor;
}

static bool is_subgroup(uint16_t opcode)
{
    return opcode >= SpvOpGroupNonUniformElect && opcode <= SpvOpGroupNonUniformQuadSwap;
}

/* The type of the value operand word `index` names; NULL if none. */
static const struct spv_type *operand_type(struct tr *t, const struct spv_insn *insn, const uint32_t *w,
                                           unsigned index)
{
    if (insn->word_count <= index || w[index] >= t->m->bound)
        return NULL;
    return spv_type(t->m, t->m->ids[w[index]].type);
}

/* Whether operand word `index` names a value of `kind` (and, for vectors,
 * of `count` integer components).  spirv-val lets some mistyped operands
 * through (a pointer as a shuffle Id), which must fail, not crash LLVM. */
static bool type_is(struct tr *t, const struct spv_type *type, enum spv_type_kind kind, uint32_t count)
{
    if (!type || type->kind != kind)
        return false;
    if (kind != SPV_TYPE_VECTOR)
        return true;
    const struct spv_type *component = spv_type(t->m, type->element);
    return type->count == count && component && component->kind == SPV_TYPE_INT;
}

static bool operand_is(struct tr *t, const struct spv_insn *insn, const uint32_t *w, unsigned index,
                       enum spv_type_kind kind, uint32_t count)
{
    return type_is(t, operand_type(t, insn, w, index), kind, count);
}

/* Whether operand word `index` has the instruction's result type ("The type
 * of Value must be the same as Result Type"). */
static bool operand_has_result_type(struct tr *t, const struct spv_insn *insn, const uint32_t *w, unsigned index)
{
    return insn->word_count > index && w[index] < t->m->bound && t->m->ids[w[index]].type == w[1];
}

/* Whether the result type is `kind` (a vector: of `count` integers).
 * spirv-val (2023.1) lets OpGroupNonUniformAllEqual with a uvec4 result
 * through (found by fuzz_spirv), and taking a component of the boolean
 * vkmm computes crashed LLVM. */
static bool result_is(struct tr *t, const uint32_t *w, enum spv_type_kind kind, uint32_t count)
{
    return type_is(t, spv_type(t->m, w[1]), kind, count);
}

/* The result types the translators below build: votes and bit tests are
 * booleans, ballots uvec4, counts and bit indices integers. */
static bool check_result(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    bool ok = true;
    switch (insn->opcode) {
    case SpvOpGroupNonUniformElect:
    case SpvOpGroupNonUniformAll:
    case SpvOpGroupNonUniformAny:
    case SpvOpGroupNonUniformAllEqual:
    case SpvOpGroupNonUniformInverseBallot:
    case SpvOpGroupNonUniformBallotBitExtract:
        ok = result_is(t, w, SPV_TYPE_BOOL, 0);
        break;
    case SpvOpGroupNonUniformBallot:
        ok = result_is(t, w, SPV_TYPE_VECTOR, 4);
        break;
    case SpvOpGroupNonUniformBallotBitCount:
    case SpvOpGroupNonUniformBallotFindLSB:
    case SpvOpGroupNonUniformBallotFindMSB:
        ok = result_is(t, w, SPV_TYPE_INT, 0);
        break;
    default:
        break;
    }
    if (!ok)
        return spv_fail(t->error, "%s at word %u: the result type does not fit the operation",
                        spv_opcode_name(insn->opcode), insn->offset);
    return true;
}

/* The operands the translators below take apart: values have the result
 * type, lane Ids are integer scalars, ballots are uvec4, predicates bools. */
static bool check_operands(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    bool ok = true;
    if (is_arithmetic(insn->opcode))
        ok = operand_has_result_type(t, insn, w, 5);
    switch (insn->opcode) {
    case SpvOpGroupNonUniformAll:
    case SpvOpGroupNonUniformAny:
    case SpvOpGroupNonUniformBallot:
        ok = operand_is(t, insn, w, 4, SPV_TYPE_BOOL, 0);
        break;
    case SpvOpGroupNonUniformAllEqual: {
        /* Any scalar or vector: only its kind matters here. */
        const struct spv_type *type = operand_type(t, insn, w, 4);
        ok = type && (type->kind == SPV_TYPE_BOOL || type->kind == SPV_TYPE_INT || type->kind == SPV_TYPE_FLOAT ||
                      type->kind == SPV_TYPE_VECTOR);
        break;
    }
    case SpvOpGroupNonUniformBroadcastFirst:
        ok = operand_has_result_type(t, insn, w, 4);
        break;
    default:
        break;
    }
    switch (insn->opcode) {
    case SpvOpGroupNonUniformBroadcast:
    case SpvOpGroupNonUniformShuffle:
    case SpvOpGroupNonUniformShuffleXor:
    case SpvOpGroupNonUniformShuffleUp:
    case SpvOpGroupNonUniformShuffleDown:
    case SpvOpGroupNonUniformQuadBroadcast:
    case SpvOpGroupNonUniformQuadSwap:
        ok = operand_has_result_type(t, insn, w, 4) && operand_is(t, insn, w, 5, SPV_TYPE_INT, 0);
        break;
    case SpvOpGroupNonUniformBallotBitExtract:
        ok = operand_is(t, insn, w, 4, SPV_TYPE_VECTOR, 4) && operand_is(t, insn, w, 5, SPV_TYPE_INT, 0);
        break;
    case SpvOpGroupNonUniformInverseBallot:
    case SpvOpGroupNonUniformBallotFindLSB:
    case SpvOpGroupNonUniformBallotFindMSB:
        ok = operand_is(t, insn, w, 4, SPV_TYPE_VECTOR, 4);
        break;
    case SpvOpGroupNonUniformBallotBitCount:
        ok = operand_is(t, insn, w, 5, SPV_TYPE_VECTOR, 4);
        break;
    default:
        break;
    }
    if (!ok)
        return spv_fail(t->error, "%s at word %u: an operand has the wrong type", spv_opcode_name(insn->opcode),
                        insn->offset);
    return true;
}

bool spv_translate_subgroup(struct tr *t, const struct spv_insn *insn, bool *handled)
{
    const uint32_t *w = spv_words(t->m, insn);
    *handled = is_subgroup(insn->opcode);
    if (!*handled)
        return true;
    if (!check_scope(t, insn, w) || !check_result(t, insn, w) || !check_operands(t, insn, w))
        return false;
    if (is_arithmetic(insn->opcode))
        return translate_arithmetic(t, insn, w);
    switch (insn->opcode) {
    case SpvOpGroupNonUniformElect:
        return translate_elect(t, w);
    case SpvOpGroupNonUniformAll:
    case SpvOpGroupNonUniformAny:
        return translate_all_any(t, insn, w);
    case SpvOpGroupNonUniformAllEqual:
        return translate_all_equal(t, w);
    case SpvOpGroupNonUniformBroadcast:
        return translate_broadcast(t, w);
    case SpvOpGroupNonUniformBroadcastFirst:
        return translate_broadcast_first(t, w);
    case SpvOpGroupNonUniformBallot:
        return translate_ballot(t, w);
    case SpvOpGroupNonUniformInverseBallot:
        return translate_inverse_ballot(t, w);
    case SpvOpGroupNonUniformBallotBitExtract:
        return translate_ballot_bit_extract(t, w);
    case SpvOpGroupNonUniformBallotBitCount:
        return translate_ballot_bit_count(t, insn, w);
    case SpvOpGroupNonUniformBallotFindLSB:
    case SpvOpGroupNonUniformBallotFindMSB:
        return translate_ballot_find(t, insn, w);
    case SpvOpGroupNonUniformShuffle:
    case SpvOpGroupNonUniformShuffleXor:
    case SpvOpGroupNonUniformShuffleUp:
    case SpvOpGroupNonUniformShuffleDown:
        return translate_shuffle(t, insn, w);
    default: /* QuadBroadcast, QuadSwap */
        return translate_quad(t, insn, w);
    }
}
