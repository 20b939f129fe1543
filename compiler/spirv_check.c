/* Checks of valid-looking modules that SPIRV-Tools' validator (Debian 12's
 * 2023.1) leaves out and its optimiser relies on (spirv_check.h). */
#include "spirv_check.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <spirv/unified1/spirv.h>

enum { HEADER_WORDS = 5 };

/* What the checks know of the module's global instructions, by id. */
struct ids {
    uint32_t bound;
    const uint32_t **def; /* the instruction that defines a type or constant */
    uint32_t *type_of;    /* the result type of a constant */
};

static int fail(char *error, size_t error_size, const char *message, uint32_t id, uint32_t index)
{
    if (error && error_size)
        snprintf(error, error_size, "SPIR-V validation failed: OpSpecConstantOp %%%u: %s (index %u)", id, message,
                 index);
    return 1;
}

static bool has_result_type(uint32_t opcode)
{
    switch (opcode) {
    case SpvOpConstantTrue:
    case SpvOpConstantFalse:
    case SpvOpConstant:
    case SpvOpConstantComposite:
    case SpvOpConstantNull:
    case SpvOpSpecConstantTrue:
    case SpvOpSpecConstantFalse:
    case SpvOpSpecConstant:
    case SpvOpSpecConstantComposite:
    case SpvOpSpecConstantOp:
    case SpvOpUndef:
        return true;
    default:
        return false;
    }
}

static bool is_type(uint32_t opcode)
{
    return opcode >= SpvOpTypeVoid && opcode <= SpvOpTypeForwardPointer;
}

static const uint32_t *def(const struct ids *ids, uint32_t id)
{
    return id < ids->bound ? ids->def[id] : NULL;
}

/* The length of an array type whose length is a plain 32-bit constant;
 * UINT32_MAX when it is a specialization constant (not known here). */
static uint32_t array_length(const struct ids *ids, const uint32_t *array)
{
    const uint32_t *length = def(ids, array[3]);
    if (!length || (length[0] & 0xffffu) != SpvOpConstant || (length[0] >> 16) < 4)
        return UINT32_MAX;
    return length[3];
}

/* Walks `count` literal indices into `type`; false when one is out of
 * range (or walks into a type that has no members), with it in *bad. */
static bool walk(const struct ids *ids, uint32_t type, const uint32_t *indices, uint32_t count, uint32_t *bad)
{
    for (uint32_t i = 0; i < count; i++) {
        const uint32_t *t = def(ids, type);
        uint32_t opcode = t ? t[0] & 0xffffu : 0, words = t ? t[0] >> 16 : 0, index = indices[i];
        *bad = index;
        if ((opcode == SpvOpTypeVector || opcode == SpvOpTypeMatrix) && words >= 4 && index < t[3])
            type = t[2];
        else if (opcode == SpvOpTypeArray && words >= 4 && index < array_length(ids, t))
            type = t[2];
        else if (opcode == SpvOpTypeStruct && index < words - 2)
            type = t[2 + index];
        else
            return false;
    }
    return true;
}

static uint32_t vector_size(const struct ids *ids, uint32_t value)
{
    const uint32_t *t = value < ids->bound ? def(ids, ids->type_of[value]) : NULL;
    return t && (t[0] & 0xffffu) == SpvOpTypeVector && (t[0] >> 16) >= 4 ? t[3] : 0;
}

static int check_op(const struct ids *ids, const uint32_t *w, uint32_t count, char *error, size_t error_size)
{
    uint32_t id = w[2], op = w[3], bad = 0;
    if (op == SpvOpCompositeExtract && count >= 5 && w[4] < ids->bound &&
        !walk(ids, ids->type_of[w[4]], &w[5], count - 5, &bad))
        return fail(error, error_size, "CompositeExtract index out of range", id, bad);
    if (op == SpvOpCompositeInsert && count >= 6 && w[5] < ids->bound &&
        !walk(ids, ids->type_of[w[5]], &w[6], count - 6, &bad))
        return fail(error, error_size, "CompositeInsert index out of range", id, bad);
    if (op == SpvOpVectorShuffle && count >= 6) {
        uint32_t total = vector_size(ids, w[4]) + vector_size(ids, w[5]);
        for (uint32_t i = 6; i < count; i++)
            if (w[i] != 0xffffffffu && w[i] >= total)
                return fail(error, error_size, "VectorShuffle component out of range", id, w[i]);
    }
    return 0;
}

static bool is_constant(uint32_t opcode)
{
    return has_result_type(opcode) && opcode != SpvOpUndef;
}

/* OpExecutionModeId operands (LocalSizeId and the like) name constant
 * instructions: "must be the <id> of a constant instruction".  A module
 * naming a function's OpLoad there passed the validator and crashed the
 * optimiser's dead-code elimination (found by fuzz_spirv). */
static int check_execution_mode_ids(const struct ids *ids, const uint32_t *w, uint32_t count, char *error,
                                    size_t error_size)
{
    for (uint32_t i = 3; i < count; i++) {
        const uint32_t *operand = def(ids, w[i]);
        if (!operand || !is_constant(operand[0] & 0xffffu)) {
            if (error && error_size)
                snprintf(error, error_size,
                         "SPIR-V validation failed: OpExecutionModeId (mode %u) operand %%%u is not a constant "
                         "instruction",
                         w[2], w[i]);
            return 1;
        }
    }
    return 0;
}

int vkmm_spirv_check_unvalidated(const uint32_t *words, size_t word_count, char *error, size_t error_size)
{
    if (word_count < HEADER_WORDS)
        return 0;
    struct ids ids = { .bound = words[3] };
    ids.def = calloc(ids.bound ? ids.bound : 1, sizeof(*ids.def));
    ids.type_of = calloc(ids.bound ? ids.bound : 1, sizeof(*ids.type_of));
    int status = ids.def && ids.type_of ? 0 : 2;
    if (status && error && error_size)
        snprintf(error, error_size, "out of memory");
    for (size_t at = HEADER_WORDS; !status && at < word_count;) {
        const uint32_t *w = &words[at];
        uint32_t count = w[0] >> 16, opcode = w[0] & 0xffffu;
        if (!count || count > word_count - at || opcode == SpvOpFunction)
            break;
        if (is_type(opcode) && count >= 2 && w[1] < ids.bound)
            ids.def[w[1]] = w;
        if (has_result_type(opcode) && count >= 3 && w[2] < ids.bound) {
            ids.def[w[2]] = w;
            ids.type_of[w[2]] = w[1];
        }
        if (opcode == SpvOpSpecConstantOp && count >= 4)
            status = check_op(&ids, w, count, error, error_size);
        at += count;
    }
    /* Execution modes come before the constants they name: checked once
     * every global instruction is known. */
    for (size_t at = HEADER_WORDS; !status && at < word_count;) {
        const uint32_t *w = &words[at];
        uint32_t count = w[0] >> 16, opcode = w[0] & 0xffffu;
        if (!count || count > word_count - at || opcode == SpvOpFunction)
            break;
        if (opcode == SpvOpExecutionModeId)
            status = check_execution_mode_ids(&ids, w, count, error, error_size);
        at += count;
    }
    free(ids.def);
    free(ids.type_of);
    return status;
}
