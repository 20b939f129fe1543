/* Spin loops (strict mode, DESIGN §3.3): a loop whose exit depends on a
 * plain load of memory another invocation may write — `while (flag[0] ==
 * 0) {}` on a buffer or a `shared` variable — waits for another invocation.
 * Strict mode runs one subgroup at a time until it suspends, so such a
 * loop's header becomes a suspension point: the writer gets to run, and
 * the device monitor sees whether the spin can ever end.  Atomics suspend
 * already, and a module with coherent reads yields at every loop header
 * (tr_reads_coherent_memory); ordinary loops (`for (k = 0; k < p.count;
 * k++)`, whose exit also depends on a value the loop changes) do not
 * yield, which would cost them a return to the dispatcher per pass. */
#include <stdlib.h>

#include "spirv_private.h"

/* How deep the exit condition's operands are followed inside the loop. */
#define SPIN_TRACE_DEPTH 16

/* Memory another invocation may write while this one runs. */
static bool shared_storage(const struct spv_module *m, uint32_t pointer)
{
    if (pointer >= m->bound)
        return false;
    const struct spv_type *type = spv_type(m, m->ids[pointer].type);
    if (!type)
        return false;
    uint32_t storage = type->storage_class;
    return storage == SpvStorageClassStorageBuffer || storage == SpvStorageClassUniform ||
           storage == SpvStorageClassWorkgroup || storage == SpvStorageClassPhysicalStorageBuffer;
}

struct trace {
    uint32_t first, end; /* the loop's instructions */
    uint32_t header_first, header_last;
    bool loads, changes; /* found a load of shared storage; a value the loop carries (a header phi) */
};

/* Follows `id`'s definition while it lies inside the loop. */
static void trace(const struct spv_module *m, struct trace *t, uint32_t id, unsigned depth)
{
    if (id >= m->bound || depth > SPIN_TRACE_DEPTH || m->ids[id].kind != SPV_ID_VALUE)
        return;
    uint32_t at = m->ids[id].insn;
    if (at < t->first || at >= t->end)
        return; /* defined before the loop: the same on every pass */
    const struct spv_insn *insn = &m->insns[at];
    const uint32_t *w = spv_words(m, insn);
    if (insn->opcode == SpvOpPhi) {
        t->changes |= at >= t->header_first && at <= t->header_last;
        return;
    }
    if (insn->opcode == SpvOpLoad && insn->word_count >= 4) {
        t->loads |= shared_storage(m, w[3]);
        return;
    }
    for (uint16_t k = 0; k < insn->id_operand_count && !t->changes; k++)
        trace(m, t, w[m->id_operand_words[insn->id_operands + k]], depth + 1);
}

/* Is the loop headed by block `header` (merge block `merge`) a spin? */
static bool spins(const struct spv_module *m, uint32_t header, uint32_t merge)
{
    uint32_t merge_label = m->blocks[merge].label;
    struct trace t = {
        .first = m->blocks[header].first,
        .end = m->blocks[merge].first,
        .header_first = m->blocks[header].first,
        .header_last = m->blocks[header].last,
    };
    bool exits = false;
    for (uint32_t b = header; b < merge && b < m->block_count; b++) {
        const struct spv_insn *term = &m->insns[m->blocks[b].last];
        const uint32_t *w = spv_words(m, term);
        if (term->opcode != SpvOpBranchConditional || (w[2] != merge_label && w[3] != merge_label))
            continue;
        exits = true;
        trace(m, &t, w[1], 0);
    }
    return exits && t.loads && !t.changes;
}

bool tr_find_spin_loops(struct tr *t)
{
    struct spv_module *m = t->m;
    t->spin_loop = calloc(m->insn_count ? m->insn_count : 1, sizeof(*t->spin_loop));
    if (!t->spin_loop)
        return false;
    for (uint32_t b = 0; b < m->block_count; b++) {
        const struct spv_insn *merge_insn = NULL;
        for (uint32_t i = m->blocks[b].first; i <= m->blocks[b].last; i++)
            if (m->insns[i].opcode == SpvOpLoopMerge)
                merge_insn = &m->insns[i];
        if (!merge_insn || merge_insn->word_count < 3)
            continue;
        uint32_t merge = m->block_of_label[spv_words(m, merge_insn)[1]];
        if (merge && merge - 1 > b && spins(m, b, merge - 1))
            t->spin_loop[merge_insn - m->insns] = true;
    }
    return true;
}
