/* Which blocks of the entry function one block leads to without going
 * round a loop, for the in-place update mark (lower_monitor.c,
 * VKMM_ACCESS_UPDATED_AFTER): a store in a block that a load's block leads
 * to can follow that load in its invocation (`x = a[i + 1]; if (c) a[i] =
 * x;`, `x = c ? a[i + 1] : 0; barrier(); a[i] = x;`); a store in another
 * branch of a selection than the load's cannot (a producer's store beside
 * a consumer's load).  Edges to a block no later in the structured order
 * are a loop's back edges (SPIR-V orders blocks so that each comes after
 * its dominators) and are not followed. */
#include <stdlib.h>
#include <string.h>

#include "spirv_private.h"

/* Beyond this many blocks the sets (n² bits) are not built: the mark then
 * looks at the load's block only. */
#define REACH_MAX_BLOCKS 4096

uint32_t spv_block_successors(const struct spv_module *m, uint32_t block, uint32_t *out)
{
    const struct spv_insn *term = &m->insns[m->blocks[block].last];
    const uint32_t *w = spv_words(m, term);
    uint32_t n = 0;
    if (term->opcode == SpvOpBranch)
        out[n++] = w[1];
    else if (term->opcode == SpvOpBranchConditional) {
        out[n++] = w[2];
        out[n++] = w[3];
    } else if (term->opcode == SpvOpSwitch) {
        out[n++] = w[2];
        unsigned literal_words = (term->word_count - 3u) % 2 == 0 ? 1 : 2;
        for (uint32_t k = 3 + literal_words; k < term->word_count && n < SPV_MAX_SUCCESSORS; k += literal_words + 1)
            out[n++] = w[k];
    }
    for (uint32_t i = 0; i < n; i++)
        out[i] = m->block_of_label[out[i]] ? m->block_of_label[out[i]] - 1 : UINT32_MAX;
    return n;
}

static bool has_block(const uint64_t *set, uint32_t block)
{
    return set[block / 64] >> (block % 64) & 1;
}

/* The blocks `from` leads to along forward edges (itself included), by a
 * depth-first walk. */
static bool walk(const struct spv_module *m, uint32_t from, uint64_t *set, uint32_t *stack)
{
    uint32_t depth = 0, succ[SPV_MAX_SUCCESSORS];
    set[from / 64] |= 1ull << (from % 64);
    stack[depth++] = from;
    while (depth) {
        uint32_t b = stack[--depth], count = spv_block_successors(m, b, succ);
        for (uint32_t s = 0; s < count; s++) {
            uint32_t next = succ[s];
            if (next == UINT32_MAX || next <= b || has_block(set, next))
                continue;
            set[next / 64] |= 1ull << (next % 64);
            stack[depth++] = next; /* each block once: the stack holds at most block_count */
        }
    }
    return true;
}

bool spv_block_reaches(const struct spv_module *m, struct spv_reach *r, uint32_t from, uint32_t to)
{
    uint32_t n = m->block_count;
    if (from >= n || to >= n || n > REACH_MAX_BLOCKS)
        return from == to;
    if (!r->sets) {
        r->words = (n + 63) / 64;
        r->sets = calloc((size_t)n * r->words, sizeof(*r->sets));
        r->walked = calloc(n, sizeof(*r->walked));
        r->stack = malloc(n * sizeof(*r->stack));
        if (!r->sets || !r->walked || !r->stack) {
            spv_reach_free(r);
            return from == to;
        }
    }
    uint64_t *set = r->sets + (size_t)from * r->words;
    if (!r->walked[from])
        r->walked[from] = walk(m, from, set, r->stack);
    return has_block(set, to);
}

void spv_reach_free(struct spv_reach *r)
{
    free(r->sets);
    free(r->walked);
    free(r->stack);
    memset(r, 0, sizeof(*r));
}
