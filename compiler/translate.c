/* Translation of the entry point into one LLVM function that runs a
 * subgroup of W lanes (DESIGN §4).
 *
 * Control flow: every lane has a "next block" number (the block's position
 * in a structured order: a construct's blocks come before its merge block).
 * A dispatcher picks the smallest number among live lanes and runs that
 * block with the lanes waiting there as the execution mask, so divergent
 * lanes reconverge at merge blocks.  When all live lanes run a block and
 * its branch is uniform, the branch jumps straight to the successor's code,
 * so converged code is ordinary LLVM control flow (loops stay loops).
 *
 * Values: an id used only in its defining block is a plain LLVM value;
 * one used elsewhere (or an OpPhi) also has a slot written under the
 * execution mask.  Slots are allocas, or live in the subgroup's state
 * memory when the shader has control barriers: a barrier returns to the
 * runtime (VKMM_SHADER_AT_BARRIER) and the next call resumes after it, so
 * the subgroups of a workgroup are coroutines.  A barrier splits its block
 * into segments; values crossing a segment boundary get slots too.  Strict
 * mode will add suspension points the same way (a flag per opcode). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Target.h>

#include "spirv_names.h"
#include "spirv_private.h"

#define EXIT_BLOCK 0x7fffffffu

/* Layout of the subgroup state (all offsets in bytes). */
enum {
    STATE_STATUS = 0,     /* i32: 0 fresh, 1 suspended */
    STATE_PENDING = 4,    /* i32: resume point number */
    STATE_SPIN = 8,       /* i32: the lanes (bits) of an atomic that changed nothing: a spin-wait step */
    STATE_LOOP_PASSES = 12, /* i32: loop-header passes, for the watchdog's poll (kept across suspensions) */
    STATE_LANES = 64,     /* next: <W x i32>, then alive: <W x i8> */
};

/* --- Small helpers --------------------------------------------------------- */

LLVMValueRef tr_splat(struct tr *t, LLVMValueRef scalar)
{
    LLVMTypeRef vector = LLVMVectorType(LLVMTypeOf(scalar), t->width);
    LLVMValueRef single = LLVMBuildInsertElement(t->builder, LLVMGetUndef(vector), scalar,
                                                 LLVMConstInt(t->i32, 0, 0), "");
    LLVMValueRef zeros[16] = { 0 };
    for (unsigned i = 0; i < t->width; i++)
        zeros[i] = LLVMConstInt(t->i32, 0, 0);
    return LLVMBuildShuffleVector(t->builder, single, LLVMGetUndef(vector), LLVMConstVector(zeros, t->width), "");
}

LLVMValueRef tr_lane_index(struct tr *t)
{
    LLVMValueRef lanes[16];
    for (unsigned i = 0; i < t->width; i++)
        lanes[i] = LLVMConstInt(t->i32, i, 0);
    return LLVMConstVector(lanes, t->width);
}

LLVMValueRef tr_call_intrinsic(struct tr *t, const char *name, LLVMTypeRef *overloads, unsigned overload_count,
                               LLVMValueRef *args, unsigned arg_count)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(t->module, id, overloads, overload_count);
    LLVMTypeRef type = LLVMIntrinsicGetType(t->context, id, overloads, overload_count);
    return LLVMBuildCall2(t->builder, type, fn, args, arg_count, "");
}

LLVMValueRef tr_any(struct tr *t, LLVMValueRef mask)
{
    LLVMTypeRef type = t->mask_type;
    return tr_call_intrinsic(t, "llvm.vector.reduce.or", &type, 1, &mask, 1);
}

/* Index (i32) of the lowest active lane.  A block never runs with an empty
 * mask; the final AND keeps even that case inside the subgroup. */
LLVMValueRef tr_first_active_lane(struct tr *t)
{
    LLVMValueRef bits = LLVMBuildBitCast(t->builder, t->exec, LLVMIntTypeInContext(t->context, t->width), "");
    LLVMValueRef args[2] = { LLVMBuildZExt(t->builder, bits, t->i32, ""), LLVMConstInt(t->i1, 0, 0) };
    LLVMTypeRef type = t->i32;
    LLVMValueRef lane = tr_call_intrinsic(t, "llvm.cttz", &type, 1, args, 2);
    return LLVMBuildAnd(t->builder, lane, LLVMConstInt(t->i32, t->width - 1, 0), "");
}

LLVMValueRef tr_all(struct tr *t, LLVMValueRef mask)
{
    LLVMTypeRef type = t->mask_type;
    return tr_call_intrinsic(t, "llvm.vector.reduce.and", &type, 1, &mask, 1);
}

static LLVMValueRef byte_ptr(struct tr *t, LLVMValueRef base, unsigned offset)
{
    LLVMValueRef index = LLVMConstInt(t->i64, offset, 0);
    return LLVMBuildGEP2(t->builder, t->i8, base, &index, 1, "");
}

LLVMValueRef tr_invocation_field(struct tr *t, unsigned field, LLVMTypeRef type)
{
    return LLVMBuildLoad2(t->builder, type, byte_ptr(t, t->invocation, field), "");
}

LLVMValueRef tr_state_field_ptr(struct tr *t, unsigned field)
{
    return byte_ptr(t, t->state, field);
}

/* Starts a new segment: values of earlier segments are read from slots. */
static void new_segment(struct tr *t)
{
    t->generation++;
}

/* --- Lane state --------------------------------------------------------------- */

static LLVMValueRef load_mask(struct tr *t, LLVMValueRef slot)
{
    LLVMTypeRef bytes = LLVMVectorType(t->i8, t->width);
    LLVMValueRef value = LLVMBuildLoad2(t->builder, bytes, slot, "");
    return LLVMBuildTrunc(t->builder, value, t->mask_type, "");
}

static void store_mask(struct tr *t, LLVMValueRef slot, LLVMValueRef mask)
{
    LLVMTypeRef bytes = LLVMVectorType(t->i8, t->width);
    LLVMBuildStore(t->builder, LLVMBuildZExt(t->builder, mask, bytes, ""), slot);
}

static LLVMValueRef load_next(struct tr *t)
{
    return LLVMBuildLoad2(t->builder, t->lane_i32, t->next_slot, "");
}

static LLVMValueRef block_number(struct tr *t, uint32_t label)
{
    uint32_t b = t->m->block_of_label[label];
    return LLVMConstInt(t->i32, b ? t->m->blocks[b - 1].order : EXIT_BLOCK, 0);
}

/* Lanes in `mask` will run block `label` next. */
static void set_next(struct tr *t, LLVMValueRef mask, uint32_t label)
{
    LLVMValueRef next = LLVMBuildSelect(t->builder, mask, tr_splat(t, block_number(t, label)), load_next(t), "");
    LLVMBuildStore(t->builder, next, t->next_slot);
}

static void jump_to(struct tr *t, uint32_t label, LLVMValueRef exec)
{
    LLVMBuildStore(t->builder, LLVMBuildZExt(t->builder, exec, LLVMVectorType(t->i8, t->width), ""), t->exec_slot);
    LLVMBuildBr(t->builder, t->m->blocks[t->m->block_of_label[label] - 1].llvm);
}

/* Parallel copy into the phis of `target` for the lanes in `mask` coming
 * from the current block. */
static void store_phis(struct tr *t, uint32_t target, LLVMValueRef mask)
{
    struct spv_module *m = t->m;
    const struct spv_block *b = &m->blocks[m->block_of_label[target] - 1];
    uint32_t current_label = m->blocks[t->current_block].label;
    uint32_t count = 0;
    for (uint32_t i = b->first; i <= b->last && m->insns[i].opcode == SpvOpPhi; i++)
        count++;
    if (!count)
        return;
    LLVMValueRef incoming[count];
    for (uint32_t i = 0; i < count; i++) {
        const struct spv_insn *phi = &m->insns[b->first + i];
        const uint32_t *w = spv_words(m, phi);
        incoming[i] = NULL;
        for (uint32_t k = 3; k + 1 < phi->word_count; k += 2) {
            if (w[k + 1] == current_label)
                incoming[i] = tr_get(t, w[k]);
        }
    }
    for (uint32_t i = 0; i < count; i++) {
        const struct spv_insn *phi = &m->insns[b->first + i];
        if (!incoming[i])
            continue;
        LLVMValueRef slot = m->ids[phi->result_id].slot;
        LLVMValueRef old = LLVMBuildLoad2(t->builder, LLVMTypeOf(incoming[i]), slot, "");
        LLVMBuildStore(t->builder, tr_select_lanes(t, mask, incoming[i], old), slot);
    }
}

/* all(exec == alive): every live lane runs this block. */
static LLVMValueRef converged(struct tr *t)
{
    LLVMValueRef alive = load_mask(t, t->alive_slot);
    LLVMValueRef same = LLVMBuildICmp(t->builder, LLVMIntEQ, t->exec, alive, "");
    return tr_all(t, same);
}

static LLVMBasicBlockRef append_block(struct tr *t, const char *name)
{
    return LLVMAppendBasicBlockInContext(t->context, t->function, name);
}

static void emit_branch(struct tr *t, const uint32_t *w)
{
    uint32_t target = w[1];
    store_phis(t, target, t->exec);
    set_next(t, t->exec, target);
    LLVMBasicBlockRef direct = append_block(t, "direct");
    LLVMBuildCondBr(t->builder, converged(t), direct, t->dispatcher);
    LLVMPositionBuilderAtEnd(t->builder, direct);
    jump_to(t, target, t->exec);
}

static void emit_branch_conditional(struct tr *t, const uint32_t *w)
{
    LLVMValueRef condition = tr_get(t, w[1]);
    LLVMValueRef taken = LLVMBuildAnd(t->builder, t->exec, condition, "");
    LLVMValueRef not_taken = LLVMBuildAnd(t->builder, t->exec, LLVMBuildNot(t->builder, condition, ""), "");
    store_phis(t, w[2], taken);
    store_phis(t, w[3], not_taken);
    set_next(t, taken, w[2]);
    set_next(t, not_taken, w[3]);
    /* Converged and uniform: an ordinary branch. */
    LLVMValueRef exec = t->exec;
    LLVMBasicBlockRef check = append_block(t, "uniform.check");
    LLVMBasicBlockRef to_true = append_block(t, "uniform.true");
    LLVMBasicBlockRef check_false = append_block(t, "uniform.check.false");
    LLVMBasicBlockRef to_false = append_block(t, "uniform.false");
    LLVMBuildCondBr(t->builder, converged(t), check, t->dispatcher);
    LLVMPositionBuilderAtEnd(t->builder, check);
    LLVMBuildCondBr(t->builder, tr_any(t, not_taken), check_false, to_true);
    LLVMPositionBuilderAtEnd(t->builder, to_true);
    jump_to(t, w[2], exec);
    LLVMPositionBuilderAtEnd(t->builder, check_false);
    LLVMBuildCondBr(t->builder, tr_any(t, taken), t->dispatcher, to_false);
    LLVMPositionBuilderAtEnd(t->builder, to_false);
    jump_to(t, w[3], exec);
}

static void emit_switch(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    LLVMValueRef selector = tr_get(t, w[1]);
    LLVMTypeRef element = LLVMGetElementType(LLVMTypeOf(selector));
    unsigned width = LLVMGetIntTypeWidth(element);
    unsigned literal_words = width > 32 ? 2 : 1;
    LLVMValueRef matched = LLVMConstNull(t->mask_type);
    /* Cases in order; later duplicates of a target merge their masks. */
    for (uint32_t k = 3; k + literal_words < insn->word_count; k += literal_words + 1) {
        uint64_t literal = w[k];
        if (literal_words == 2)
            literal |= (uint64_t)w[k + 1] << 32;
        uint32_t target = w[k + literal_words];
        LLVMValueRef is = LLVMBuildICmp(t->builder, LLVMIntEQ, selector,
                                        tr_splat(t, LLVMConstInt(element, literal, 0)), "");
        LLVMValueRef lanes = LLVMBuildAnd(t->builder, t->exec, LLVMBuildAnd(t->builder, is,
                                          LLVMBuildNot(t->builder, matched, ""), ""), "");
        matched = LLVMBuildOr(t->builder, matched, is, "");
        store_phis(t, target, lanes);
        set_next(t, lanes, target);
    }
    LLVMValueRef rest = LLVMBuildAnd(t->builder, t->exec, LLVMBuildNot(t->builder, matched, ""), "");
    store_phis(t, w[2], rest);
    set_next(t, rest, w[2]);
    /* The dispatcher takes it from here: switches are rare in hot loops. */
    LLVMBuildBr(t->builder, t->dispatcher);
}

static void emit_return(struct tr *t)
{
    LLVMValueRef alive = load_mask(t, t->alive_slot);
    store_mask(t, t->alive_slot, LLVMBuildAnd(t->builder, alive, LLVMBuildNot(t->builder, t->exec, ""), ""));
    set_next(t, t->exec, 0);
    LLVMBuildBr(t->builder, t->dispatcher);
}

/* --- Barriers (suspension points) --------------------------------------- */

/* A control barrier with Workgroup execution scope suspends the subgroup
 * when every live lane reached it (the spec requires uniform control flow);
 * otherwise the lanes just go on. */
/* Returns `status` to the runtime with the lane state saved; the next call
 * continues right here.  With `converged_only`, only when every live lane
 * got here (a control barrier; the spec requires uniform control flow for
 * it, and lanes that diverge anyway just go on). */
static void emit_suspension(struct tr *t, enum vkmm_shader_status status, bool converged_only)
{
    LLVMBasicBlockRef resume = append_block(t, "resume");
    uint32_t number = ++t->resume_count;
    t->resume_blocks[number] = resume;
    LLVMBasicBlockRef suspend = append_block(t, "suspend");
    if (converged_only)
        LLVMBuildCondBr(t->builder, converged(t), suspend, resume);
    else
        LLVMBuildBr(t->builder, suspend);
    LLVMPositionBuilderAtEnd(t->builder, suspend);
    LLVMBuildStore(t->builder, LLVMConstInt(t->i32, 1, 0), tr_state_field_ptr(t, STATE_STATUS));
    LLVMBuildStore(t->builder, LLVMConstInt(t->i32, number, 0), tr_state_field_ptr(t, STATE_PENDING));
    LLVMBuildStore(t->builder, LLVMBuildZExt(t->builder, t->exec, LLVMVectorType(t->i8, t->width), ""), t->exec_slot);
    LLVMBuildRet(t->builder, LLVMConstInt(t->i32, status, 0));
    LLVMPositionBuilderAtEnd(t->builder, resume);
    t->exec = load_mask(t, t->exec_slot);
    new_segment(t);
}

/* Did the atomic leave a lane's memory as it was?  Loads, failed
 * compare-exchanges, and read-modify-writes whose operation changes nothing
 * (atomicAdd(x, 0), atomicOr(x, 0), atomicMax with a smaller value): the
 * shapes of spin-wait loops. */
/* Float atomics (exchange: VK_EXT_shader_atomic_float) compare bitwise. */
static LLVMValueRef integer_bits(struct tr *t, LLVMValueRef v)
{
    LLVMTypeRef type = LLVMTypeOf(v);
    LLVMTypeRef element = LLVMGetElementType(type);
    LLVMTypeKind kind = LLVMGetTypeKind(element);
    if (kind != LLVMHalfTypeKind && kind != LLVMFloatTypeKind && kind != LLVMDoubleTypeKind)
        return v;
    LLVMTypeRef integer = LLVMVectorType(LLVMIntTypeInContext(t->context, spv_float_bits(element)),
                                         LLVMGetVectorSize(type));
    return LLVMBuildBitCast(t->builder, v, integer, "");
}

static LLVMValueRef atomic_unchanged(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    LLVMBuilderRef b = t->builder;
    uint16_t op = insn->opcode;
    if (op == SpvOpAtomicLoad)
        return tr_splat(t, LLVMConstInt(t->i1, 1, 0));
    if (op == SpvOpAtomicStore || op == SpvOpAtomicIIncrement || op == SpvOpAtomicIDecrement ||
        op == SpvOpAtomicFAddEXT || op == SpvOpAtomicFMinEXT || op == SpvOpAtomicFMaxEXT)
        return tr_splat(t, LLVMConstInt(t->i1, 0, 0));
    LLVMValueRef old = tr_get(t, w[2]);
    if (op == SpvOpAtomicCompareExchange)
        return LLVMBuildICmp(b, LLVMIntNE, old, tr_get(t, w[8]), "");
    LLVMValueRef value = tr_get(t, w[6]);
    LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(value));
    switch (op) {
    case SpvOpAtomicIAdd:
    case SpvOpAtomicISub:
    case SpvOpAtomicXor:
        return LLVMBuildICmp(b, LLVMIntEQ, value, zero, "");
    case SpvOpAtomicOr:
        return LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildOr(b, old, value, ""), old, "");
    case SpvOpAtomicAnd:
        return LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, old, value, ""), old, "");
    case SpvOpAtomicExchange:
        return LLVMBuildICmp(b, LLVMIntEQ, integer_bits(t, value), integer_bits(t, old), "");
    case SpvOpAtomicUMin:
        return LLVMBuildICmp(b, LLVMIntUGE, value, old, "");
    case SpvOpAtomicSMin:
        return LLVMBuildICmp(b, LLVMIntSGE, value, old, "");
    case SpvOpAtomicUMax:
        return LLVMBuildICmp(b, LLVMIntULE, value, old, "");
    case SpvOpAtomicSMax:
        return LLVMBuildICmp(b, LLVMIntSLE, value, old, "");
    default:
        return tr_splat(t, LLVMConstInt(t->i1, 0, 0));
    }
}

/* An atomic that changed nothing in any active lane is a spin-wait step:
 * the dispatcher's next choice then goes to lanes that were not spinning
 * (rotate_after_spin), so a lane holding a lock that its subgroup's other
 * lanes spin on gets to release it — the independent forward progress of
 * GPUs that schedule diverged lanes apart. */
static void note_spin(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    LLVMValueRef changed = LLVMBuildAnd(t->builder, LLVMBuildNot(t->builder, atomic_unchanged(t, insn, w), ""),
                                        t->exec, "");
    LLVMValueRef spin = LLVMBuildNot(t->builder, tr_any(t, changed), "");
    LLVMValueRef lanes = LLVMBuildZExt(
        t->builder, LLVMBuildBitCast(t->builder, t->exec, LLVMIntTypeInContext(t->context, t->width), ""), t->i32, "");
    LLVMValueRef bits = LLVMBuildSelect(t->builder, spin, lanes, LLVMConstInt(t->i32, 0, 0), "");
    LLVMBuildStore(t->builder, bits, tr_state_field_ptr(t, STATE_SPIN));
}

static void emit_control_barrier(struct tr *t, const uint32_t *w)
{
    struct spv_module *m = t->m;
    uint32_t scope = spv_words(m, &m->insns[m->ids[w[1]].insn])[3];
    if (scope == SpvScopeWorkgroup)
        emit_suspension(t, VKMM_SHADER_AT_BARRIER, true);
    /* The barrier's visibility operation, after it (000). */
    const struct spv_insn *memory_scope = &m->insns[m->ids[w[2]].insn];
    const struct spv_insn *semantics = &m->insns[m->ids[w[3]].insn];
    spv_device_fence(t, memory_scope->word_count > 3 ? spv_words(m, memory_scope)[3] : 0,
                     semantics->word_count > 3 ? spv_words(m, semantics)[3] : 0, false, true);
}

/* --- Blocks ------------------------------------------------------------------ */

static bool translate_instruction(struct tr *t, const struct spv_insn *insn)
{
    const uint32_t *w = spv_words(t->m, insn);
    bool handled = false;
    switch (insn->opcode) {
    case SpvOpNop:
    case SpvOpLoopMerge:
        /* The end of a loop header: strict mode lets other work run here
         * when the module reads coherent memory. */
        if (tr_yields_at_loop(t, insn))
            emit_suspension(t, VKMM_SHADER_YIELDED, false);
        return true;
    case SpvOpLine:
    case SpvOpNoLine:
    case SpvOpSelectionMerge:
    case SpvOpPhi:
    case SpvOpName:
    case SpvOpUndef:
        return true;
    case SpvOpControlBarrier:
        /* Memory semantics first, then the execution barrier. */
        if (!spv_translate_memory(t, insn, &handled))
            return false;
        emit_control_barrier(t, w);
        return true;
    case SpvOpExtInst:
        if (insn->ext_inst_set == SPV_EXT_GLSL_STD_450)
            return spv_translate_glsl450(t, insn, &handled) &&
                   (handled || spv_fail(t->error, "unsupported GLSL.std.450 instruction %s at word %u",
                                        spv_glsl450_name(spv_words(t->m, insn)[4]), insn->offset));
        /* Non-semantic instructions (debug printf, shader debug info) have
         * no effect on execution. */
        if (insn->ext_inst_set == SPV_EXT_NON_SEMANTIC)
            return true;
        return spv_fail(t->error, "unsupported extended instruction set at word %u", insn->offset);
    default:
        break;
    }
    if (spv_is_atomic(insn->opcode)) {
        if (!spv_translate_memory(t, insn, &handled))
            return false;
        note_spin(t, insn, w);
        if (t->options->suspend_at_atomics && !t->no_suspension)
            emit_suspension(t, VKMM_SHADER_YIELDED, false);
        return true;
    }
    if (!spv_translate_image(t, insn, &handled) || handled)
        return !t->error->failed;
    if (!spv_translate_arith(t, insn, &handled) || handled)
        return !t->error->failed;
    if (!spv_translate_composite(t, insn, &handled) || handled)
        return !t->error->failed;
    if (!spv_translate_dot(t, insn, &handled) || handled)
        return !t->error->failed;
    if (!spv_translate_memory(t, insn, &handled) || handled)
        return !t->error->failed;
    if (!spv_translate_subgroup(t, insn, &handled) || handled)
        return !t->error->failed;
    return spv_fail(t->error, "unsupported SPIR-V instruction %s at word %u", spv_opcode_name(insn->opcode),
                    insn->offset);
}

/* A loop header counts down to the next watchdog poll (shader_abi.h): a
 * dispatch that never ends — a spin on a value it can never see — ends when
 * its time is up, and the report names the loop. */
static void emit_loop_poll(struct tr *t, const struct spv_block *b)
{
    const struct spv_insn *merge = NULL;
    for (uint32_t i = b->first; i < b->last && !merge; i++)
        if (t->m->insns[i].opcode == SpvOpLoopMerge)
            merge = &t->m->insns[i];
    if (!t->options->poll_loops || !merge)
        return;
    LLVMValueRef passes_ptr = t->loop_passes;
    LLVMValueRef passes = LLVMBuildAdd(t->builder, LLVMBuildLoad2(t->builder, t->i32, passes_ptr, ""),
                                       LLVMConstInt(t->i32, 1, 0), "");
    LLVMBuildStore(t->builder, passes, passes_ptr);
    LLVMBasicBlockRef poll = append_block(t, "poll");
    LLVMBasicBlockRef abort = append_block(t, "poll.abort");
    LLVMBasicBlockRef go_on = append_block(t, "poll.go_on");
    LLVMValueRef due = LLVMBuildAnd(t->builder, passes, LLVMConstInt(t->i32, VKMM_POLL_ITERATIONS - 1, 0), "");
    LLVMBuildCondBr(t->builder, LLVMBuildICmp(t->builder, LLVMIntEQ, due, LLVMConstInt(t->i32, 0, 0), ""), poll,
                    go_on);
    LLVMPositionBuilderAtEnd(t->builder, poll);
    char text[96];
    if (merge->line)
        snprintf(text, sizeof(text), "the loop at line %u (OpLoopMerge at word %u)", merge->line, merge->offset);
    else
        snprintf(text, sizeof(text), "the loop at word %u (OpLoopMerge)", merge->offset);
    LLVMTypeRef params[3] = { t->ptr, t->ptr, t->ptr };
    LLVMTypeRef type = LLVMFunctionType(t->i32, params, 3, 0);
    LLVMValueRef args[3] = { tr_invocation_field(t, VKMM_INVOCATION_POLL_CONTEXT, t->ptr), t->invocation,
                             LLVMBuildGlobalStringPtr(t->builder, text, "loop") };
    LLVMValueRef over = LLVMBuildCall2(t->builder, type, tr_invocation_field(t, VKMM_INVOCATION_POLL, t->ptr), args,
                                       3, "");
    LLVMBuildCondBr(t->builder, LLVMBuildICmp(t->builder, LLVMIntNE, over, LLVMConstInt(t->i32, 0, 0), ""), abort,
                    go_on);
    LLVMPositionBuilderAtEnd(t->builder, abort);
    LLVMBuildRet(t->builder, LLVMConstInt(t->i32, VKMM_SHADER_ABORTED, 0));
    LLVMPositionBuilderAtEnd(t->builder, go_on);
}

/* --- Early stores (early_stores.c) ------------------------------------------------- */

/* One copy of the pair's store, for the lanes in `lanes` only, with no
 * scheduling point after it; `early`: the copy before the load (the
 * monitors let a racing read see what it stores, DESIGN §3 "Manifest"). */
static bool translate_store_copy(struct tr *t, const struct spv_early_store *e, LLVMValueRef lanes, bool early)
{
    LLVMValueRef exec = t->exec;
    const struct spv_insn *store = &t->m->insns[e->store];
    const struct spv_insn *at = t->current_insn;
    t->exec = lanes;
    t->current_insn = store;
    t->no_suspension = true;
    t->early_copy = early;
    bool ok = translate_instruction(t, store);
    t->no_suspension = false;
    t->early_copy = false;
    t->current_insn = at;
    t->exec = exec;
    return ok;
}

/* Lanes whose `size_a` bytes at `a` and `size_b` bytes at `b` do not
 * overlap (different storage never does). */
static LLVMValueRef apart(struct tr *t, uint32_t pointer_a, uint32_t pointer_b)
{
    unsigned size_a, size_b;
    enum spv_storage_kind kind_a, kind_b;
    LLVMValueRef a = spv_lane_addresses(t, pointer_a, &size_a, &kind_a);
    LLVMValueRef b = spv_lane_addresses(t, pointer_b, &size_b, &kind_b);
    if (kind_a != kind_b)
        return tr_splat(t, LLVMConstInt(t->i1, 1, 0));
    LLVMValueRef a_end = LLVMBuildAdd(t->builder, a, spv_i64_splat(t, size_a), "");
    LLVMValueRef b_end = LLVMBuildAdd(t->builder, b, spv_i64_splat(t, size_b), "");
    return LLVMBuildOr(t->builder, LLVMBuildICmp(t->builder, LLVMIntULE, a_end, b, ""),
                       LLVMBuildICmp(t->builder, LLVMIntULE, b_end, a, ""), "");
}

/* Before the load: what the store needs is computed (again later, at its
 * place: values computed here do not live past the load's scheduling
 * point), and the lanes whose store touches none of the load's bytes, nor
 * those of the stores it passes, store now if the runtime's coin says so.
 * The lanes that stored are kept for the store's place. */
static bool translate_early_store(struct tr *t, const struct spv_block *b, const struct spv_early_store *e)
{
    const struct spv_module *m = t->m;
    const struct spv_insn *load = t->current_insn;
    for (uint32_t i = e->load + 1; i < e->store && i < b->last; i++) {
        if (!spv_early_store_hoists(m, e, i))
            continue;
        t->current_insn = &m->insns[i];
        if (!translate_instruction(t, &m->insns[i]))
            return false;
    }
    t->current_insn = load;
    const uint32_t *store = spv_words(m, &m->insns[e->store]);
    LLVMValueRef lanes = LLVMBuildAnd(t->builder, t->exec, apart(t, store[1], spv_words(m, load)[3]), "");
    for (uint32_t k = 0; k < e->passed_count; k++)
        lanes = LLVMBuildAnd(t->builder, lanes, apart(t, store[1], spv_words(m, &m->insns[e->passed[k]])[1]), "");
    LLVMValueRef coin = spv_call_device_fence(t, VKMM_FENCE_EARLY_STORE);
    LLVMValueRef go = LLVMBuildICmp(t->builder, LLVMIntNE, coin, LLVMConstInt(t->i32, 0, 0), "");
    lanes = LLVMBuildAnd(t->builder, lanes, tr_splat(t, go), "");
    store_mask(t, t->early_slot, lanes);
    if (!translate_store_copy(t, e, lanes, true))
        return false;
    /* Another agent may run between the early store and the load. */
    emit_suspension(t, VKMM_SHADER_YIELDED, false);
    return true;
}

/* The store's place: the lanes that did not store early store now, then
 * the scheduling point an atomic store has. */
static bool translate_late_store(struct tr *t, const struct spv_early_store *e)
{
    LLVMValueRef early = load_mask(t, t->early_slot);
    LLVMValueRef late = LLVMBuildAnd(t->builder, t->exec, LLVMBuildNot(t->builder, early, ""), "");
    if (!translate_store_copy(t, e, late, false))
        return false;
    if (t->m->insns[e->store].opcode == SpvOpAtomicStore && t->options->suspend_at_atomics)
        emit_suspension(t, VKMM_SHADER_YIELDED, false);
    return true;
}

static bool translate_block(struct tr *t, uint32_t index)
{
    struct spv_module *m = t->m;
    const struct spv_block *b = &m->blocks[index];
    t->current_block = index;
    LLVMPositionBuilderAtEnd(t->builder, b->llvm);
    t->exec = load_mask(t, t->exec_slot);
    emit_loop_poll(t, b);
    new_segment(t);
    struct spv_early_store early = { 0 };
    for (uint32_t i = b->first; i < b->last; i++) {
        t->current_line = m->insns[i].line;
        t->current_insn = &m->insns[i];
        if (early.store == i) {
            if (!translate_late_store(t, &early))
                return false;
            early.store = 0;
            continue;
        }
        if (tr_stops_before(t, i) && !early.store && spv_early_store_find(m, b, i, &early) &&
            !translate_early_store(t, b, &early))
            return false;
        if (!translate_instruction(t, &m->insns[i]))
            return false;
    }
    const struct spv_insn *term = &m->insns[b->last];
    const uint32_t *w = spv_words(m, term);
    switch (term->opcode) {
    case SpvOpBranch:
        emit_branch(t, w);
        return true;
    case SpvOpBranchConditional:
        emit_branch_conditional(t, w);
        return true;
    case SpvOpSwitch:
        emit_switch(t, term, w);
        return true;
    case SpvOpReturn:
    case SpvOpReturnValue:
    case SpvOpUnreachable:
    case SpvOpKill:
    case SpvOpTerminateInvocation:
        emit_return(t);
        return true;
    default:
        return spv_fail(t->error, "block %%%u ends with %s", b->label, spv_opcode_name(term->opcode));
    }
}

/* --- Function ------------------------------------------------------------------ */

/* Storage for a value that must outlive a block: an alloca (promoted to
 * registers by LLVM) unless the subgroup can suspend, when it must live in
 * the state memory. */
static LLVMValueRef make_slot(struct tr *t, LLVMTypeRef type, bool in_state, uint32_t *state_offset)
{
    if (!in_state)
        return LLVMBuildAlloca(t->builder, type, "");
    LLVMTargetDataRef layout = LLVMGetModuleDataLayout(t->module);
    uint64_t size = LLVMABISizeOfType(layout, type);
    *state_offset = (*state_offset + 63u) & ~63u;
    LLVMValueRef pointer = tr_state_field_ptr(t, *state_offset);
    *state_offset += (uint32_t)size;
    return pointer;
}

/* Does the block hold an instruction that waits for, or counts, every lane
 * of the subgroup: a workgroup control barrier or a subgroup operation?
 * Lanes that rotate_after_spin lets run ahead must not enter it: a barrier
 * executed by a part of the subgroup would open for the lanes still
 * spinning before them (Vulkan: a barrier is executed by every invocation
 * of the workgroup, in uniform control flow). */
static bool block_needs_every_lane(const struct spv_module *m, const struct spv_block *b)
{
    for (uint32_t i = b->first; i < b->last; i++) {
        uint16_t op = m->insns[i].opcode;
        if (op == SpvOpControlBarrier || (op >= SpvOpGroupAll && op <= SpvOpGroupSMax) ||
            (op >= SpvOpGroupNonUniformElect && op <= SpvOpGroupNonUniformQuadSwap) ||
            op == SpvOpGroupNonUniformRotateKHR || op == SpvOpSubgroupBallotKHR ||
            op == SpvOpSubgroupFirstInvocationKHR || op == SpvOpSubgroupAllKHR || op == SpvOpSubgroupAnyKHR ||
            op == SpvOpSubgroupAllEqualKHR || op == SpvOpSubgroupReadInvocationKHR)
            return true;
    }
    return false;
}

/* Lanes whose next block needs every lane of the subgroup. */
static LLVMValueRef next_needs_every_lane(struct tr *t, LLVMValueRef next)
{
    LLVMValueRef waiting = tr_splat(t, LLVMConstInt(t->i1, 0, 0));
    for (uint32_t b = 0; b < t->m->block_count; b++) {
        const struct spv_block *block = &t->m->blocks[b];
        if (!block->order || !block_needs_every_lane(t->m, block))
            continue;
        LLVMValueRef at = LLVMBuildICmp(t->builder, LLVMIntEQ, next,
                                        tr_splat(t, LLVMConstInt(t->i32, block->order, 0)), "");
        waiting = LLVMBuildOr(t->builder, waiting, at, "");
    }
    return waiting;
}

/* The dispatcher normally runs the lowest block number among live lanes,
 * which reconverges lanes at merge blocks.  Right after a spin-wait step it
 * runs the lowest block among the lanes that were not spinning, if any, so
 * they advance one step for every turn of the spin. */
static LLVMValueRef rotate_after_spin(struct tr *t, LLVMValueRef alive, LLVMValueRef next, LLVMValueRef lowest)
{
    LLVMValueRef spin_ptr = tr_state_field_ptr(t, STATE_SPIN);
    LLVMValueRef bits = LLVMBuildLoad2(t->builder, t->i32, spin_ptr, "");
    LLVMValueRef lane_bits = LLVMBuildShl(t->builder, tr_splat(t, LLVMConstInt(t->i32, 1, 0)), tr_lane_index(t), "");
    LLVMValueRef spinning = LLVMBuildICmp(t->builder, LLVMIntNE,
                                          LLVMBuildAnd(t->builder, tr_splat(t, bits), lane_bits, ""),
                                          tr_splat(t, LLVMConstInt(t->i32, 0, 0)), "");
    /* Only while some lanes spin do the others wait short of a block that
     * needs every lane; otherwise the usual lowest block runs. */
    LLVMValueRef some_spin = LLVMBuildICmp(t->builder, LLVMIntNE, bits, LLVMConstInt(t->i32, 0, 0), "");
    LLVMValueRef held = LLVMBuildAnd(t->builder, next_needs_every_lane(t, next), tr_splat(t, some_spin), "");
    LLVMValueRef free_lanes = LLVMBuildNot(t->builder, LLVMBuildOr(t->builder, spinning, held, ""), "");
    LLVMValueRef others = LLVMBuildAnd(t->builder, alive, free_lanes, "");
    LLVMValueRef candidates = LLVMBuildSelect(t->builder, others, next,
                                              tr_splat(t, LLVMConstInt(t->i32, EXIT_BLOCK, 0)), "");
    LLVMTypeRef lane_i32 = t->lane_i32;
    LLVMValueRef other = tr_call_intrinsic(t, "llvm.vector.reduce.umin", &lane_i32, 1, &candidates, 1);
    LLVMValueRef pick = LLVMBuildSelect(t->builder, tr_any(t, others), other, lowest, "");
    LLVMBuildStore(t->builder, LLVMConstInt(t->i32, 0, 0), spin_ptr);
    return pick;
}

static void emit_dispatcher(struct tr *t)
{
    LLVMPositionBuilderAtEnd(t->builder, t->dispatcher);
    LLVMValueRef alive = load_mask(t, t->alive_slot);
    LLVMBasicBlockRef pick = append_block(t, "dispatch.pick");
    LLVMBasicBlockRef done = append_block(t, "done");
    LLVMBuildCondBr(t->builder, tr_any(t, alive), pick, done);

    LLVMPositionBuilderAtEnd(t->builder, done);
    LLVMBuildStore(t->builder, LLVMConstInt(t->i32, 0, 0), tr_state_field_ptr(t, STATE_STATUS));
    LLVMBuildRet(t->builder, LLVMConstInt(t->i32, VKMM_SHADER_DONE, 0));

    LLVMPositionBuilderAtEnd(t->builder, pick);
    LLVMValueRef next = load_next(t);
    LLVMValueRef candidates = LLVMBuildSelect(t->builder, alive, next,
                                              tr_splat(t, LLVMConstInt(t->i32, EXIT_BLOCK, 0)), "");
    LLVMTypeRef lane_i32 = t->lane_i32;
    LLVMValueRef lowest = tr_call_intrinsic(t, "llvm.vector.reduce.umin", &lane_i32, 1, &candidates, 1);
    if (t->has_atomics)
        lowest = rotate_after_spin(t, alive, next, lowest);
    LLVMValueRef exec = LLVMBuildAnd(t->builder, alive,
                                     LLVMBuildICmp(t->builder, LLVMIntEQ, next, tr_splat(t, lowest), ""), "");
    LLVMBuildStore(t->builder, LLVMBuildZExt(t->builder, exec, LLVMVectorType(t->i8, t->width), ""), t->exec_slot);
    LLVMValueRef sw = LLVMBuildSwitch(t->builder, lowest, done, t->m->block_count);
    for (uint32_t b = 0; b < t->m->block_count; b++) {
        if (t->m->blocks[b].order)
            LLVMAddCase(sw, LLVMConstInt(t->i32, t->m->blocks[b].order, 0), t->m->blocks[b].llvm);
    }
}

/* The entry: fresh call → initialise lanes and builtins and run the first
 * block; resumed call → continue after the pending barrier. */
static void emit_entry(struct tr *t, LLVMBasicBlockRef start, LLVMBasicBlockRef resume_switch)
{
    LLVMValueRef status = LLVMBuildLoad2(t->builder, t->i32, tr_state_field_ptr(t, STATE_STATUS), "");
    LLVMBuildCondBr(t->builder, LLVMBuildICmp(t->builder, LLVMIntEQ, status, LLVMConstInt(t->i32, 0, 0), ""),
                    start, resume_switch);
}

static bool build_function(struct tr *t)
{
    struct spv_module *m = t->m;
    LLVMTypeRef params[2] = { t->ptr, t->ptr };
    LLVMTypeRef fn_type = LLVMFunctionType(t->i32, params, 2, 0);
    t->function = LLVMAddFunction(t->module, "vkmm_subgroup_main", fn_type);
    unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
    for (unsigned i = 1; i <= 2; i++)
        LLVMAddAttributeAtIndex(t->function, i, LLVMCreateEnumAttribute(t->context, noalias, 0));
    t->state = LLVMGetParam(t->function, 0);
    t->invocation = LLVMGetParam(t->function, 1);

    t->entry_block = append_block(t, "entry");
    LLVMPositionBuilderAtEnd(t->builder, t->entry_block);
    uint32_t state_offset = STATE_LANES;
    LLVMTypeRef mask_bytes = LLVMVectorType(t->i8, t->width);
    bool suspends = m->has_barrier;
    t->next_slot = make_slot(t, t->lane_i32, suspends, &state_offset);
    t->alive_slot = make_slot(t, mask_bytes, suspends, &state_offset);
    t->exec_slot = make_slot(t, mask_bytes, suspends, &state_offset);
    if (tr_early_stores(t))
        t->early_slot = make_slot(t, mask_bytes, true, &state_offset);
    if (t->options->monitor_workgroup_memory || t->options->monitor_device_memory)
        t->monitor_addresses = LLVMBuildAlloca(t->builder, LLVMArrayType(t->i64, t->width), "");
    /* Loop passes for the watchdog: a register unless the subgroup can
     * suspend (then in the state header, which a fresh state has cleared). */
    if (suspends) {
        t->loop_passes = tr_state_field_ptr(t, STATE_LOOP_PASSES);
    } else {
        t->loop_passes = LLVMBuildAlloca(t->builder, t->i32, "");
        LLVMBuildStore(t->builder, LLVMConstInt(t->i32, 0, 0), t->loop_passes);
    }
    for (uint32_t id = 1; id < m->bound; id++) {
        struct spv_id *v = &m->ids[id];
        if (v->kind == SPV_ID_VALUE && v->needs_slot && v->type && spv_type(m, v->type)->value_type)
            v->slot = make_slot(t, spv_type(m, v->type)->value_type, v->crosses_suspension, &state_offset);
    }
    /* Lane-scaled private storage after the slots. */
    state_offset = (state_offset + 63u) & ~63u;
    t->private_base = LLVMBuildPtrToInt(t->builder, tr_state_field_ptr(t, state_offset), t->i64, "");
    state_offset += m->private_size_bytes * t->width;
    t->state_size = (state_offset + 63u) & ~63u;
    if (!spv_memory_init_function(t))
        return false;

    t->dispatcher = append_block(t, "dispatcher");
    for (uint32_t b = 0; b < m->block_count; b++)
        m->blocks[b].llvm = append_block(t, "block");
    LLVMBasicBlockRef start = append_block(t, "start");
    LLVMBasicBlockRef resume_switch = append_block(t, "resume.switch");
    emit_entry(t, start, resume_switch);

    /* Start: every lane of the subgroup that exists is alive. */
    LLVMPositionBuilderAtEnd(t->builder, start);
    if (!spv_memory_init_variables(t))
        return false;
    uint32_t invocations = m->local_size[0] * m->local_size[1] * m->local_size[2];
    LLVMValueRef subgroup = tr_invocation_field(t, VKMM_INVOCATION_SUBGROUP_ID, t->i32);
    LLVMValueRef first = LLVMBuildMul(t->builder, subgroup, LLVMConstInt(t->i32, t->width, 0), "");
    LLVMValueRef index = LLVMBuildAdd(t->builder, tr_splat(t, first), tr_lane_index(t), "");
    LLVMValueRef alive = LLVMBuildICmp(t->builder, LLVMIntULT, index,
                                       tr_splat(t, LLVMConstInt(t->i32, invocations, 0)), "");
    store_mask(t, t->alive_slot, alive);
    LLVMBuildStore(t->builder, tr_splat(t, LLVMConstInt(t->i32, m->blocks[0].order, 0)), t->next_slot);
    store_mask(t, t->exec_slot, alive);
    LLVMBuildBr(t->builder, m->blocks[0].llvm);

    uint32_t barriers = 0;
    for (uint32_t i = 0; i < m->insn_count; i++)
        barriers += spv_is_suspension_point(t, &m->insns[i]);
    for (uint32_t i = 0; i < m->insn_count; i++)
        barriers += tr_stops_before(t, i);
    t->resume_blocks = calloc(barriers + 1, sizeof(LLVMBasicBlockRef));
    t->resume_count = 0;
    if (!t->resume_blocks)
        return spv_fail(t->error, "out of memory");
    for (uint32_t b = 0; b < m->block_count; b++) {
        if (!m->blocks[b].order) {
            /* Unreachable block: never dispatched. */
            LLVMPositionBuilderAtEnd(t->builder, m->blocks[b].llvm);
            LLVMBuildUnreachable(t->builder);
            continue;
        }
        if (!translate_block(t, b)) {
            free(t->resume_blocks);
            return false;
        }
    }
    emit_dispatcher(t);

    /* Resume: continue after the barrier with the lanes that were there. */
    LLVMPositionBuilderAtEnd(t->builder, resume_switch);
    LLVMValueRef pending = LLVMBuildLoad2(t->builder, t->i32, tr_state_field_ptr(t, STATE_PENDING), "");
    LLVMValueRef sw = LLVMBuildSwitch(t->builder, pending, t->dispatcher, t->resume_count);
    for (uint32_t r = 1; r <= t->resume_count; r++)
        LLVMAddCase(sw, LLVMConstInt(t->i32, r, 0), t->resume_blocks[r]);
    free(t->resume_blocks);
    return true;
}

bool spv_translate(struct tr *t)
{
    struct spv_module *m = t->m;
    t->yield_at_loops = t->options->suspend_at_atomics && tr_reads_coherent_memory(m);
    if (t->options->suspend_at_atomics && !t->yield_at_loops && !tr_find_spin_loops(t))
        return spv_fail(t->error, "out of host memory");
    for (uint32_t i = 0; i < m->insn_count; i++) {
        m->has_barrier |= spv_is_suspension_point(t, &m->insns[i]);
        t->has_atomics |= spv_is_atomic(m->insns[i].opcode);
        t->workgroup_fences |= spv_fences_workgroup_memory(m, &m->insns[i]);
    }
    t->shared_store_buffers =
        t->options->monitor_workgroup_memory && t->has_atomics && spv_atomics_on_workgroup_only(m);
    t->shared_atomic_sync =
        t->options->monitor_workgroup_memory && t->has_atomics && !spv_workgroup_ordered_by_barriers_only(m);
    t->values = calloc(m->bound, sizeof(LLVMValueRef));
    t->value_generation = calloc(m->bound, sizeof(uint32_t));
    t->generation = 1;
    bool ok = t->values && t->value_generation && spv_types_lower(t) && spv_memory_layout(t) && tr_order_blocks(t) &&
              tr_find_early_loads(t) && tr_mark_slots(t) && spv_mark_suspension_liveness(t) && build_function(t);
    if (!t->values || !t->value_generation)
        spv_fail(t->error, "out of memory");
    free(t->values);
    free(t->value_generation);
    free(t->early_load);
    t->early_load = NULL;
    t->values = NULL;
    t->value_generation = NULL;
    return ok;
}
