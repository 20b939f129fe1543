/* What the translation of the entry point (translate.c) works out before
 * it emits anything: which opcodes are atomics and where a subgroup may
 * stop, whether the module reads coherent memory or early stores apply,
 * which ids need slots, and the structured order of the blocks. */
#include <stdlib.h>
#include <string.h>

#include "spirv_names.h"
#include "spirv_private.h"

bool spv_is_atomic(uint16_t opcode)
{
    return (opcode >= SpvOpAtomicLoad && opcode <= SpvOpAtomicXor) || opcode == SpvOpAtomicFAddEXT ||
           opcode == SpvOpAtomicFMinEXT || opcode == SpvOpAtomicFMaxEXT;
}

/* Where a subgroup may stop and be resumed later: control barriers, and
 * atomics when the runtime asks (strict mode interleaves invocations there,
 * so a workgroup spinning on a flag set by another still progresses). */
bool tr_yields_at_loop(const struct tr *t, const struct spv_insn *insn)
{
    return t->yield_at_loops || (t->spin_loop && t->spin_loop[insn - t->m->insns]);
}

bool spv_is_suspension_point(const struct tr *t, const struct spv_insn *insn)
{
    return insn->opcode == SpvOpControlBarrier || (t->options->suspend_at_atomics && spv_is_atomic(insn->opcode)) ||
           (insn->opcode == SpvOpLoopMerge && tr_yields_at_loop(t, insn));
}

/* Does the module read memory another invocation may write while it runs
 * — a Coherent or Volatile variable or block member, or a NonPrivatePointer
 * access?  Then a loop may be waiting for such a write (a spin on a
 * coherent flag), and strict mode yields at every loop header so that the
 * writer gets to run (DESIGN §3.3). */
bool tr_reads_coherent_memory(const struct spv_module *m)
{
    for (uint32_t id = 1; id < m->bound; id++) {
        if (m->ids[id].coherent || m->ids[id].volatile_)
            return true;
        const struct spv_type *type = m->ids[id].kind == SPV_ID_TYPE ? m->ids[id].type_info : NULL;
        for (uint32_t i = 0; type && type->kind == SPV_TYPE_STRUCT && i < type->member_count; i++)
            if (type->members[i].coherent)
                return true;
    }
    for (uint32_t i = 0; i < m->insn_count; i++) {
        const struct spv_insn *insn = &m->insns[i];
        const uint32_t *w = spv_words(m, insn);
        if (insn->opcode == SpvOpLoad && insn->word_count > 4 && (w[4] & SpvMemoryAccessNonPrivatePointerMask))
            return true;
    }
    return false;
}

/* Whether stores may go early (early_stores.c): strict mode, where a
 * subgroup can stop between the early store and the load it passed. */
bool tr_early_stores(const struct tr *t)
{
    return t->options->suspend_at_atomics && t->options->monitor_device_memory && t->m->has_barrier;
}

/* Marks, once, the loads a later store of their block may pass
 * (t->early_load): the subgroup may stop between that store and the load,
 * so the load starts a segment and its operands live across. */
bool tr_find_early_loads(struct tr *t)
{
    struct spv_module *m = t->m;
    if (!tr_early_stores(t))
        return true;
    t->early_load = calloc(m->insn_count, sizeof(bool));
    if (!t->early_load)
        return spv_fail(t->error, "out of memory");
    struct spv_early_store e;
    for (uint32_t b = 0; b < m->block_count; b++)
        for (uint32_t i = m->blocks[b].first; i < m->blocks[b].last; i++)
            t->early_load[i] = spv_early_store_find(m, &m->blocks[b], i, &e);
    return true;
}

bool tr_stops_before(const struct tr *t, uint32_t index)
{
    return t->early_load && t->early_load[index];
}

/* Segment number of every instruction of the function: blocks and control
 * barriers start segments. */
bool tr_mark_slots(struct tr *t)
{
    struct spv_module *m = t->m;
    uint32_t *segment_of = calloc(m->bound, sizeof(uint32_t));
    if (!segment_of)
        return spv_fail(t->error, "out of memory");
    uint32_t segment = 0;
    /* First pass: where each value is defined. */
    for (uint32_t b = 0; b < m->block_count; b++) {
        segment++;
        for (uint32_t i = m->blocks[b].first; i <= m->blocks[b].last; i++) {
            const struct spv_insn *insn = &m->insns[i];
            segment += tr_stops_before(t, i);
            if (insn->result_id)
                segment_of[insn->result_id] = segment;
            if (insn->opcode == SpvOpPhi)
                m->ids[insn->result_id].needs_slot = true;
            /* A suspension point ends its segment after its own result. */
            if (spv_is_suspension_point(t, insn))
                segment++;
        }
    }
    /* Second pass: uses in other segments.  A phi operand is used at the
     * end of its predecessor block. */
    segment = 0;
    for (uint32_t b = 0; b < m->block_count; b++) {
        segment++;
        for (uint32_t i = m->blocks[b].first; i <= m->blocks[b].last; i++) {
            const struct spv_insn *insn = &m->insns[i];
            const uint32_t *w = spv_words(m, insn);
            segment += tr_stops_before(t, i);
            if (insn->opcode == SpvOpPhi) {
                for (uint32_t k = 3; k + 1 < insn->word_count; k += 2) {
                    uint32_t value = w[k], parent = w[k + 1];
                    uint32_t parent_block = m->block_of_label[parent];
                    if (m->ids[value].kind != SPV_ID_VALUE || !parent_block)
                        continue;
                    /* Defined in the parent's last segment only if same
                     * block and no barrier after it: approximate by block. */
                    if (m->ids[value].block != parent_block - 1 || m->ids[value].insn > m->blocks[parent_block - 1].last)
                        m->ids[value].needs_slot = true;
                    else {
                        for (uint32_t j = m->ids[value].insn; j <= m->blocks[parent_block - 1].last; j++)
                            if (spv_is_suspension_point(t, &m->insns[j]))
                                m->ids[value].needs_slot = true;
                    }
                }
                continue;
            }
            for (uint16_t k = 0; k < insn->id_operand_count; k++) {
                uint32_t used = w[m->id_operand_words[insn->id_operands + k]];
                if (used < m->bound && m->ids[used].kind == SPV_ID_VALUE && segment_of[used] != segment)
                    m->ids[used].needs_slot = true;
            }
            if (spv_is_suspension_point(t, insn))
                segment++;
        }
    }
    free(segment_of);
    return true;
}

static void visit(struct spv_module *m, uint32_t block, bool *seen, uint32_t *postorder, uint32_t *count);

static void visit_label(struct spv_module *m, uint32_t label, bool *seen, uint32_t *postorder, uint32_t *count)
{
    uint32_t child = m->block_of_label[label];
    if (child && !seen[child - 1])
        visit(m, child - 1, seen, postorder, count);
}

/* Successors in the order the structured order needs (merge, continue,
 * then the branch targets last to first), visited directly: a switch may
 * have any number of targets. */
static void visit(struct spv_module *m, uint32_t block, bool *seen, uint32_t *postorder, uint32_t *count)
{
    seen[block] = true;
    const struct spv_block *b = &m->blocks[block];
    if (b->merge)
        visit_label(m, b->merge, seen, postorder, count);
    if (b->continue_target)
        visit_label(m, b->continue_target, seen, postorder, count);
    const struct spv_insn *term = &m->insns[b->last];
    const uint32_t *w = spv_words(m, term);
    switch (term->opcode) {
    case SpvOpBranch:
        visit_label(m, w[1], seen, postorder, count);
        break;
    case SpvOpBranchConditional:
        visit_label(m, w[3], seen, postorder, count);
        visit_label(m, w[2], seen, postorder, count);
        break;
    case SpvOpSwitch:
        for (uint32_t k = term->word_count - 1u; k >= 4; k -= 2)
            visit_label(m, w[k], seen, postorder, count);
        visit_label(m, w[2], seen, postorder, count);
        break;
    default:
        break;
    }
    postorder[(*count)++] = block;
}

bool tr_order_blocks(struct tr *t)
{
    struct spv_module *m = t->m;
    bool *seen = calloc(m->block_count, sizeof(bool));
    uint32_t *postorder = calloc(m->block_count, sizeof(uint32_t));
    if (!seen || !postorder) {
        free(seen);
        free(postorder);
        return spv_fail(t->error, "out of memory");
    }
    uint32_t count = 0;
    visit(m, 0, seen, postorder, &count);
    for (uint32_t i = 0; i < count; i++)
        m->blocks[postorder[count - 1 - i]].order = i + 1;
    free(seen);
    free(postorder);
    return true;
}

