/* Word-level rewrites between SPIRV-Tools' pass lists (spirv_rewrite.h).
 * The module has passed the validator, so instructions are well formed and
 * in the order the SPIR-V spec's logical layout gives; the walks still stop
 * at a cut instruction rather than read past the end. */
#include "spirv_rewrite.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

enum { HEADER_WORDS = 5 };

struct insn {
    const uint32_t *w;
    uint32_t count;
    uint32_t opcode;
};

/* The instruction at word `at`; false at the end or at a cut instruction. */
static bool insn_at(const uint32_t *words, size_t word_count, size_t at, struct insn *insn)
{
    if (at >= word_count)
        return false;
    insn->w = &words[at];
    insn->count = words[at] >> 16;
    insn->opcode = words[at] & 0xffffu;
    return insn->count && insn->count <= word_count - at;
}

static int fail(char *error, size_t error_size, int code, const char *message)
{
    if (error && error_size)
        snprintf(error, error_size, "%s", message);
    return code;
}

static int copy_module(const uint32_t *words, size_t word_count, uint32_t **out, size_t *out_count, char *error,
                       size_t error_size)
{
    *out = malloc(word_count * sizeof(uint32_t));
    if (!*out)
        return fail(error, error_size, 2, "out of memory");
    memcpy(*out, words, word_count * sizeof(uint32_t));
    *out_count = word_count;
    return 0;
}

static void append(uint32_t *out, size_t *n, const struct insn *insn)
{
    memcpy(&out[*n], insn->w, insn->count * sizeof(uint32_t));
    *n += insn->count;
}

/* --- One entry point ------------------------------------------------------------------ */

/* Vulkan names a shader stage's entry point by its name and execution
 * model, so only a GLCompute entry point of that name is the pipeline's. */
static bool is_entry(const struct insn *insn, const char *name)
{
    if (insn->opcode != SpvOpEntryPoint || insn->count < 4 || insn->w[1] != SpvExecutionModelGLCompute)
        return false;
    size_t room = (insn->count - 3) * sizeof(uint32_t);
    const char *literal = (const char *)&insn->w[3];
    return strnlen(literal, room) == strlen(name) && strncmp(literal, name, room) == 0;
}

static uint32_t entry_function(const uint32_t *words, size_t word_count, const char *name)
{
    struct insn insn;
    for (size_t at = HEADER_WORDS; insn_at(words, word_count, at, &insn); at += insn.count) {
        if (is_entry(&insn, name))
            return insn.w[2];
        if (insn.opcode == SpvOpFunction)
            break;
    }
    return 0;
}

static bool other_entry_point(const struct insn *insn, const char *name, uint32_t kept)
{
    switch (insn->opcode) {
    case SpvOpEntryPoint:
        return !is_entry(insn, name);
    case SpvOpExecutionMode:
    case SpvOpExecutionModeId:
        return insn->count >= 2 && insn->w[1] != kept;
    default:
        return false;
    }
}

int vkmm_spirv_keep_entry_point(const uint32_t *words, size_t word_count, const char *name, uint32_t **out,
                                size_t *out_count, char *error, size_t error_size)
{
    uint32_t kept = word_count > HEADER_WORDS ? entry_function(words, word_count, name) : 0;
    if (!kept)
        return copy_module(words, word_count, out, out_count, error, error_size);
    *out = malloc(word_count * sizeof(uint32_t));
    if (!*out)
        return fail(error, error_size, 2, "out of memory");
    memcpy(*out, words, HEADER_WORDS * sizeof(uint32_t));
    size_t n = HEADER_WORDS;
    struct insn insn;
    for (size_t at = HEADER_WORDS; insn_at(words, word_count, at, &insn); at += insn.count) {
        if (!other_entry_point(&insn, name, kept))
            append(*out, &n, &insn);
    }
    *out_count = n;
    return 0;
}

/* --- Specialization constants the optimiser left ------------------------------------- */

struct hoist {
    bool *hoisted;       /* by id: this constant becomes an instruction */
    uint32_t bound;
    size_t first_function; /* word offset of the first OpFunction */
    size_t insert_at;    /* word offset where the instructions go */
    uint32_t functions;
    uint32_t count;      /* hoisted instructions */
};

static bool is_hoisted(const struct hoist *h, uint32_t id)
{
    return id < h->bound && h->hoisted[id];
}

/* An OpSpecConstantComposite left after folding is built from a constant
 * that was not folded; one built from folded constants stays a constant. */
static bool uses_hoisted(const struct hoist *h, const struct insn *insn, uint32_t first_operand)
{
    for (uint32_t k = first_operand; k < insn->count; k++) {
        if (is_hoisted(h, insn->w[k]))
            return true;
    }
    return false;
}

/* A module-level use that needs a constant instruction (an array length,
 * a variable's initializer, LocalSizeId, the WorkgroupSize builtin): such a
 * module keeps its constant and parsing reports it. */
static bool needs_constant(const struct hoist *h, const struct insn *insn)
{
    switch (insn->opcode) {
    case SpvOpTypeArray:
        return insn->count > 3 && is_hoisted(h, insn->w[3]);
    case SpvOpVariable:
        return insn->count > 4 && is_hoisted(h, insn->w[4]);
    case SpvOpExecutionModeId:
        return uses_hoisted(h, insn, 3);
    case SpvOpDecorate:
        return insn->count > 3 && insn->w[2] == SpvDecorationBuiltIn && is_hoisted(h, insn->w[1]);
    default:
        return false;
    }
}

/* Marks the constants to hoist and checks nothing at module level needs
 * them; finds where the function's first block ends its variables. */
static bool plan_hoist(const uint32_t *words, size_t word_count, struct hoist *h)
{
    struct insn insn;
    bool in_first_block = false;
    for (size_t at = HEADER_WORDS; insn_at(words, word_count, at, &insn); at += insn.count) {
        if (insn.opcode == SpvOpFunction) {
            if (!h->functions++)
                h->first_function = at;
        } else if (!h->functions) {
            bool op = insn.opcode == SpvOpSpecConstantOp;
            bool composite = insn.opcode == SpvOpSpecConstantComposite && uses_hoisted(h, &insn, 3);
            if ((op || composite) && insn.count > 3 && insn.w[2] < h->bound) {
                h->hoisted[insn.w[2]] = true;
                h->count++;
            } else if (needs_constant(h, &insn)) {
                return false;
            }
        } else if (insn.opcode == SpvOpLabel && h->functions == 1 && !h->insert_at) {
            in_first_block = true;
            h->insert_at = at + insn.count;
        } else if (in_first_block && insn.opcode == SpvOpVariable) {
            /* OpVariable must open the block: the operations go after. */
            h->insert_at = at + insn.count;
        } else if (in_first_block && insn.opcode == SpvOpLabel) {
            in_first_block = false;
        }
    }
    /* The uses of a constant are in any function; only the one function
     * left after inlining is sure to run the operations before them. */
    return h->count && h->functions == 1 && h->insert_at;
}

/* OpSpecConstantOp %T %r Opcode operands... -> Opcode %T %r operands...;
 * OpSpecConstantComposite -> OpCompositeConstruct. */
static void append_as_instruction(uint32_t *out, size_t *n, const struct insn *insn)
{
    if (insn->opcode == SpvOpSpecConstantComposite) {
        out[*n] = insn->count << 16 | SpvOpCompositeConstruct;
        memcpy(&out[*n + 1], &insn->w[1], (insn->count - 1) * sizeof(uint32_t));
        *n += insn->count;
        return;
    }
    out[*n] = (insn->count - 1) << 16 | (insn->w[3] & 0xffffu);
    out[*n + 1] = insn->w[1];
    out[*n + 2] = insn->w[2];
    memcpy(&out[*n + 3], &insn->w[4], (insn->count - 4) * sizeof(uint32_t));
    *n += insn->count - 1;
}

static void emit_hoisted(const uint32_t *words, size_t word_count, const struct hoist *h, uint32_t *out,
                         size_t *n)
{
    struct insn insn;
    for (size_t at = HEADER_WORDS; at < h->first_function && insn_at(words, word_count, at, &insn);
         at += insn.count) {
        if (insn.count > 3 && is_hoisted(h, insn.w[2]) &&
            (insn.opcode == SpvOpSpecConstantOp || insn.opcode == SpvOpSpecConstantComposite))
            append_as_instruction(out, n, &insn);
    }
}

int vkmm_spirv_hoist_spec_constants(const uint32_t *words, size_t word_count, uint32_t **out, size_t *out_count,
                                    char *error, size_t error_size)
{
    if (word_count <= HEADER_WORDS)
        return copy_module(words, word_count, out, out_count, error, error_size);
    struct hoist h = { .bound = words[3] };
    h.hoisted = calloc(h.bound ? h.bound : 1, sizeof(bool));
    if (!h.hoisted)
        return fail(error, error_size, 2, "out of memory");
    if (!plan_hoist(words, word_count, &h)) {
        free(h.hoisted);
        return copy_module(words, word_count, out, out_count, error, error_size);
    }
    /* Every rewritten instruction is no longer than the constant it was. */
    *out = malloc(word_count * sizeof(uint32_t));
    if (!*out) {
        free(h.hoisted);
        return fail(error, error_size, 2, "out of memory");
    }
    memcpy(*out, words, HEADER_WORDS * sizeof(uint32_t));
    size_t n = HEADER_WORDS;
    struct insn insn;
    for (size_t at = HEADER_WORDS; insn_at(words, word_count, at, &insn); at += insn.count) {
        if (at == h.insert_at)
            emit_hoisted(words, word_count, &h, *out, &n);
        bool moved = at < h.first_function && insn.count > 3 && is_hoisted(&h, insn.w[2]) &&
                     (insn.opcode == SpvOpSpecConstantOp || insn.opcode == SpvOpSpecConstantComposite);
        if (!moved)
            append(*out, &n, &insn);
    }
    free(h.hoisted);
    *out_count = n;
    return 0;
}
