/* Which values of a function live across its suspension points
 * (translate.c's control barriers, and atomics and loop headers where
 * strict mode interleaves): only those go to the subgroup's state memory. */
#include <stdlib.h>
#include <string.h>

#include "spirv_private.h"

/* Which slot values are live across a suspension point: only those need
 * the subgroup's state memory; the others stay allocas, which LLVM keeps
 * in registers.  Classic backward liveness over blocks on bitsets, with
 * phi operands used at the end of the predecessor and phi results defined
 * at the start of their block. */
struct liveness {
    uint32_t words;      /* 64-bit words per set */
    uint64_t *gen, *kill, *in, *out; /* block_count sets each */
    uint32_t *index_of;  /* id -> candidate index + 1 */
};

static void set_bit(uint64_t *set, uint32_t i) { set[i / 64] |= 1ull << (i % 64); }
static bool has_bit(const uint64_t *set, uint32_t i) { return (set[i / 64] >> (i % 64)) & 1; }

/* Calls use(index) for every candidate the instruction reads. */
static void for_each_use(const struct spv_module *m, const struct liveness *l, const struct spv_insn *insn,
                         uint64_t *set)
{
    const uint32_t *w = spv_words(m, insn);
    for (uint16_t k = 0; k < insn->id_operand_count; k++) {
        uint32_t used = w[m->id_operand_words[insn->id_operands + k]];
        if (used < m->bound && l->index_of[used])
            set_bit(set, l->index_of[used] - 1);
    }
}

/* Phi operands that `block` feeds into its successors' phis. */
static void phi_uses(const struct spv_module *m, const struct liveness *l, uint32_t block, uint64_t *set)
{
    uint32_t succ[SPV_MAX_SUCCESSORS];
    uint32_t n = spv_block_successors(m, block, succ);
    for (uint32_t s = 0; s < n; s++) {
        if (succ[s] == UINT32_MAX)
            continue;
        const struct spv_block *b = &m->blocks[succ[s]];
        for (uint32_t i = b->first; i <= b->last && m->insns[i].opcode == SpvOpPhi; i++) {
            const uint32_t *w = spv_words(m, &m->insns[i]);
            for (uint32_t k = 3; k + 1 < m->insns[i].word_count; k += 2) {
                if (w[k + 1] == m->blocks[block].label && w[k] < m->bound && l->index_of[w[k]])
                    set_bit(set, l->index_of[w[k]] - 1);
            }
        }
    }
}

static void local_sets(const struct tr *t, const struct liveness *l, uint32_t block)
{
    const struct spv_module *m = t->m;
    uint64_t *gen = &l->gen[block * l->words], *kill = &l->kill[block * l->words];
    uint64_t used[l->words];
    for (uint32_t i = m->blocks[block].first; i <= m->blocks[block].last; i++) {
        const struct spv_insn *insn = &m->insns[i];
        if (insn->opcode != SpvOpPhi) {
            memset(used, 0, sizeof(used));
            for_each_use(m, l, insn, used);
            for (uint32_t k = 0; k < l->words; k++)
                gen[k] |= used[k] & ~kill[k];
        }
        if (insn->result_id && l->index_of[insn->result_id])
            set_bit(kill, l->index_of[insn->result_id] - 1);
    }
    memset(used, 0, sizeof(used));
    phi_uses(m, l, block, used);
    for (uint32_t k = 0; k < l->words; k++)
        gen[k] |= used[k] & ~kill[k];
}

static void solve(const struct tr *t, struct liveness *l)
{
    const struct spv_module *m = t->m;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t b = m->block_count; b-- > 0;) {
            uint64_t *out = &l->out[b * l->words], *in = &l->in[b * l->words];
            uint32_t succ[SPV_MAX_SUCCESSORS];
            uint32_t n = spv_block_successors(m, b, succ);
            for (uint32_t s = 0; s < n; s++) {
                if (succ[s] == UINT32_MAX)
                    continue;
                for (uint32_t k = 0; k < l->words; k++)
                    out[k] |= l->in[succ[s] * l->words + k];
            }
            for (uint32_t k = 0; k < l->words; k++) {
                uint64_t next = l->gen[b * l->words + k] | (out[k] & ~l->kill[b * l->words + k]);
                changed |= next != in[k];
                in[k] = next;
            }
        }
    }
}

/* At each suspension point of a block: values live afterwards that were
 * defined before it. */
static void mark_crossing(struct tr *t, const struct liveness *l, uint32_t block)
{
    struct spv_module *m = t->m;
    const struct spv_block *b = &m->blocks[block];
    uint64_t live[l->words], defined_after[l->words];
    memcpy(live, &l->out[block * l->words], sizeof(live));
    phi_uses(m, l, block, live);
    memset(defined_after, 0, sizeof(defined_after));
    for (uint32_t i = b->last + 1; i-- > b->first;) {
        const struct spv_insn *insn = &m->insns[i];
        if (spv_is_suspension_point(t, insn)) {
            for (uint32_t id = 1; id < m->bound; id++) {
                uint32_t k = l->index_of[id];
                if (k && has_bit(live, k - 1) && !has_bit(defined_after, k - 1))
                    m->ids[id].crosses_suspension = true;
            }
            /* The suspension point's own result is defined before it stops. */
        }
        if (insn->result_id && l->index_of[insn->result_id] && !spv_is_suspension_point(t, insn))
            set_bit(defined_after, l->index_of[insn->result_id] - 1);
        if (insn->opcode != SpvOpPhi)
            for_each_use(m, l, insn, live);
    }
}

bool spv_mark_suspension_liveness(struct tr *t)
{
    struct spv_module *m = t->m;
    if (!m->has_barrier)
        return true;
    /* Suspensions in divergent code (strict mode's atomics and loop
     * headers): after one, the dispatcher may run a sibling block whose
     * lanes wait there — a block the CFG does not reach from the suspension
     * point — so a value such a block uses must survive too.  Control
     * barriers are in uniform control flow (the spec requires it): the CFG
     * liveness below is exact for them. */
    if (t->options->suspend_at_atomics || t->yield_at_loops) {
        for (uint32_t id = 1; id < m->bound; id++)
            if (m->ids[id].kind == SPV_ID_VALUE && m->ids[id].needs_slot)
                m->ids[id].crosses_suspension = true;
        return true;
    }
    struct liveness l = { 0 };
    l.index_of = calloc(m->bound, sizeof(uint32_t));
    uint32_t count = 0;
    for (uint32_t id = 1; l.index_of && id < m->bound; id++) {
        if (m->ids[id].kind == SPV_ID_VALUE && m->ids[id].needs_slot)
            l.index_of[id] = ++count;
    }
    l.words = (count + 63) / 64 ? (count + 63) / 64 : 1;
    size_t set_bytes = (size_t)m->block_count * l.words * sizeof(uint64_t);
    l.gen = calloc(1, set_bytes);
    l.kill = calloc(1, set_bytes);
    l.in = calloc(1, set_bytes);
    l.out = calloc(1, set_bytes);
    bool ok = l.index_of && l.gen && l.kill && l.in && l.out;
    if (ok) {
        for (uint32_t b = 0; b < m->block_count; b++)
            local_sets(t, &l, b);
        solve(t, &l);
        for (uint32_t b = 0; b < m->block_count; b++)
            mark_crossing(t, &l, b);
    }
    free(l.index_of);
    free(l.gen);
    free(l.kill);
    free(l.in);
    free(l.out);
    return ok || spv_fail(t->error, "out of memory");
}

/* Structured order: reverse post-order of a depth-first walk that visits a
 * header's merge block first and its continue target next, so both come
 * after the construct's other blocks. */
