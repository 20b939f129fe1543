#include "spirv_mutator.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

/* Larger ids or modules are left alone: the tables below are per id. */
#define MAX_BOUND (1u << 20)

/* Opcodes that may replace each other: same operand shape, and (for the
 * validator to accept) the same operand and result type rules, or nearly. */
static const uint16_t int_binary[] = {
    SpvOpIAdd, SpvOpISub, SpvOpIMul, SpvOpUDiv, SpvOpSDiv, SpvOpUMod, SpvOpSRem, SpvOpSMod,
    SpvOpShiftRightLogical, SpvOpShiftRightArithmetic, SpvOpShiftLeftLogical, SpvOpBitwiseOr,
    SpvOpBitwiseXor, SpvOpBitwiseAnd, 0,
};
static const uint16_t float_binary[] = { SpvOpFAdd, SpvOpFSub, SpvOpFMul, SpvOpFDiv, SpvOpFRem, SpvOpFMod, 0 };
static const uint16_t int_compare[] = {
    SpvOpIEqual, SpvOpINotEqual, SpvOpUGreaterThan, SpvOpSGreaterThan, SpvOpUGreaterThanEqual,
    SpvOpSGreaterThanEqual, SpvOpULessThan, SpvOpSLessThan, SpvOpULessThanEqual, SpvOpSLessThanEqual, 0,
};
static const uint16_t float_compare[] = {
    SpvOpFOrdEqual, SpvOpFUnordEqual, SpvOpFOrdNotEqual, SpvOpFUnordNotEqual, SpvOpFOrdLessThan,
    SpvOpFUnordLessThan, SpvOpFOrdGreaterThan, SpvOpFUnordGreaterThan, SpvOpFOrdLessThanEqual,
    SpvOpFUnordLessThanEqual, SpvOpFOrdGreaterThanEqual, SpvOpFUnordGreaterThanEqual, 0,
};
static const uint16_t logical_binary[] = { SpvOpLogicalEqual, SpvOpLogicalNotEqual, SpvOpLogicalOr,
                                           SpvOpLogicalAnd, 0 };
static const uint16_t atomic_rmw[] = {
    SpvOpAtomicExchange, SpvOpAtomicIAdd, SpvOpAtomicISub, SpvOpAtomicSMin, SpvOpAtomicUMin,
    SpvOpAtomicSMax, SpvOpAtomicUMax, SpvOpAtomicAnd, SpvOpAtomicOr, SpvOpAtomicXor, 0,
};
static const uint16_t int_unary[] = { SpvOpSNegate, SpvOpNot, 0 };
static const uint16_t *const opcode_classes[] = {
    int_binary, float_binary, int_compare, float_compare, logical_binary, atomic_rmw, int_unary,
};

/* GLSL.std.450 instructions that may replace each other. */
static const uint16_t glsl_float_unary[] = {
    GLSLstd450Round, GLSLstd450RoundEven, GLSLstd450Trunc, GLSLstd450FAbs, GLSLstd450FSign, GLSLstd450Floor,
    GLSLstd450Ceil, GLSLstd450Fract, GLSLstd450Sin, GLSLstd450Cos, GLSLstd450Tan, GLSLstd450Exp,
    GLSLstd450Log, GLSLstd450Exp2, GLSLstd450Log2, GLSLstd450Sqrt, GLSLstd450InverseSqrt, 0,
};
static const uint16_t glsl_float_binary[] = { GLSLstd450Atan2, GLSLstd450Pow, GLSLstd450FMin, GLSLstd450FMax,
                                              GLSLstd450Step, GLSLstd450NMin, GLSLstd450NMax, 0 };
static const uint16_t glsl_int_binary[] = { GLSLstd450UMin, GLSLstd450SMin, GLSLstd450UMax, GLSLstd450SMax, 0 };
static const uint16_t *const glsl_classes[] = { glsl_float_unary, glsl_float_binary, glsl_int_binary };

struct module {
    uint32_t *words;
    size_t count;
    uint32_t bound;
    uint32_t *type_of;     /* result id -> its result type id (0: none) */
    uint32_t *def;         /* id -> word offset of its defining instruction (0: none) */
    uint32_t *offsets;     /* word offset of every instruction */
    size_t instructions;
    uint32_t glsl_set;     /* the GLSL.std.450 import's id, or 0 */
    uint64_t random;
};

static uint32_t next(struct module *m)
{
    m->random ^= m->random << 13;
    m->random ^= m->random >> 7;
    m->random ^= m->random << 17;
    return (uint32_t)(m->random >> 16);
}

static uint32_t below(struct module *m, uint32_t n)
{
    return n ? next(m) % n : 0;
}

static uint16_t opcode_at(const struct module *m, uint32_t at)
{
    return (uint16_t)(m->words[at] & 0xffff);
}

static uint16_t length_at(const struct module *m, uint32_t at)
{
    return (uint16_t)(m->words[at] >> 16);
}

/* SPIRV-Headers' utility function is `inline` only; this file provides
 * its external definition. */
extern void SpvHasResultAndType(SpvOp opcode, bool *hasResult, bool *hasResultType);

static bool parse(struct module *m)
{
    if (m->count < 5 || m->words[0] != SpvMagicNumber || m->words[3] == 0 || m->words[3] > MAX_BOUND)
        return false;
    m->bound = m->words[3];
    m->type_of = calloc(m->bound, sizeof(uint32_t));
    m->def = calloc(m->bound, sizeof(uint32_t));
    m->offsets = malloc(m->count * sizeof(uint32_t));
    if (!m->type_of || !m->def || !m->offsets)
        return false;
    for (size_t at = 5; at < m->count;) {
        uint16_t length = length_at(m, (uint32_t)at), opcode = opcode_at(m, (uint32_t)at);
        if (length == 0 || at + length > m->count)
            return false;
        m->offsets[m->instructions++] = (uint32_t)at;
        bool has_result = false, has_type = false;
        SpvHasResultAndType((SpvOp)opcode, &has_result, &has_type);
        uint32_t result_word = has_type ? 2 : 1;
        if (has_result && length > result_word) {
            uint32_t id = m->words[at + result_word];
            if (id && id < m->bound) {
                m->def[id] = (uint32_t)at;
                m->type_of[id] = has_type ? m->words[at + 1] : 0;
            }
        }
        if (opcode == SpvOpExtInstImport && length >= 3 && memcmp(&m->words[at + 2], "GLSL.std.450", 12) == 0)
            m->glsl_set = m->words[at + 1];
        at += length;
    }
    return true;
}

static uint16_t type_opcode(const struct module *m, uint32_t type)
{
    return type && type < m->bound && m->def[type] ? opcode_at(m, m->def[type]) : 0;
}

/* The width of a scalar int/float type, or 0. */
static uint32_t scalar_width(const struct module *m, uint32_t type)
{
    uint16_t op = type_opcode(m, type);
    return op == SpvOpTypeInt || op == SpvOpTypeFloat ? m->words[m->def[type] + 2] : 0;
}

/* Picks an instruction satisfying `accept`, starting at a random one. */
static uint32_t pick(struct module *m, bool (*accept)(const struct module *, uint32_t))
{
    if (!m->instructions)
        return 0;
    size_t start = below(m, (uint32_t)m->instructions);
    for (size_t i = 0; i < m->instructions; i++) {
        uint32_t at = m->offsets[(start + i) % m->instructions];
        if (accept(m, at))
            return at;
    }
    return 0;
}

static bool is_scalar_constant(const struct module *m, uint32_t at)
{
    if ((opcode_at(m, at) != SpvOpConstant && opcode_at(m, at) != SpvOpSpecConstant) || length_at(m, at) < 4)
        return false;
    uint32_t width = scalar_width(m, m->words[at + 1]);
    return width && length_at(m, at) == 3 + (width + 31) / 32;
}

static uint32_t new_int_value(struct module *m, uint32_t old)
{
    static const uint32_t interesting[] = { 0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 33, 63, 64, 255, 256, 1023, 1024,
                                            0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe };
    switch (below(m, 5)) {
    case 0: return old + 1;
    case 1: return old - 1;
    case 2: return old ^ (1u << below(m, 32));
    case 3: return next(m);
    default: return interesting[below(m, sizeof(interesting) / sizeof(interesting[0]))];
    }
}

static uint32_t new_float_value(struct module *m, uint32_t old)
{
    static const uint32_t interesting[] = { 0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000,
                                            0x7fc00000, 0x7f800000, 0xff800000, 0x00000001, 0x7f7fffff,
                                            0x4b800000, 0x40490fdb };
    switch (below(m, 4)) {
    case 0: return old ^ (1u << below(m, 32));
    case 1: return old ^ 0x80000000u;
    default: return interesting[below(m, sizeof(interesting) / sizeof(interesting[0]))];
    }
}

/* A new value for an integer or float constant (loop bounds, sizes,
 * scopes and semantics are such constants). */
static bool mutate_constant(struct module *m)
{
    uint32_t at = pick(m, is_scalar_constant);
    if (!at)
        return false;
    uint32_t type = m->words[at + 1], width = scalar_width(m, type);
    bool is_float = type_opcode(m, type) == SpvOpTypeFloat;
    uint32_t word = at + 3 + (width > 32 ? below(m, 2) : 0);
    uint32_t value = is_float && width == 32 ? new_float_value(m, m->words[word]) : new_int_value(m, m->words[word]);
    if (width < 32) {
        /* Narrow literals are sign- or zero-extended to 32 bits. */
        bool is_signed = !is_float && m->words[m->def[type] + 3];
        uint32_t mask = (1u << width) - 1;
        value &= mask;
        if (is_signed && (value >> (width - 1)))
            value |= ~mask;
    }
    m->words[word] = value;
    return true;
}

static const uint16_t *class_of(uint16_t opcode, const uint16_t *const *classes, size_t class_count)
{
    for (size_t c = 0; c < class_count; c++) {
        for (const uint16_t *op = classes[c]; *op; op++) {
            if (*op == opcode)
                return classes[c];
        }
    }
    return NULL;
}

static bool in_opcode_class(const struct module *m, uint32_t at)
{
    return class_of(opcode_at(m, at), opcode_classes, sizeof(opcode_classes) / sizeof(opcode_classes[0])) != NULL;
}

static uint16_t other_in_class(struct module *m, const uint16_t *class)
{
    size_t n = 0;
    while (class[n])
        n++;
    return class[below(m, (uint32_t)n)];
}

static bool mutate_opcode(struct module *m)
{
    uint32_t at = pick(m, in_opcode_class);
    if (!at)
        return false;
    const uint16_t *class =
        class_of(opcode_at(m, at), opcode_classes, sizeof(opcode_classes) / sizeof(opcode_classes[0]));
    m->words[at] = (m->words[at] & 0xffff0000u) | other_in_class(m, class);
    return true;
}

static bool is_glsl_call(const struct module *m, uint32_t at)
{
    return opcode_at(m, at) == SpvOpExtInst && length_at(m, at) >= 6 && m->glsl_set &&
           m->words[at + 3] == m->glsl_set &&
           class_of((uint16_t)m->words[at + 4], glsl_classes, sizeof(glsl_classes) / sizeof(glsl_classes[0]));
}

static bool mutate_glsl(struct module *m)
{
    uint32_t at = pick(m, is_glsl_call);
    if (!at)
        return false;
    const uint16_t *class =
        class_of((uint16_t)m->words[at + 4], glsl_classes, sizeof(glsl_classes) / sizeof(glsl_classes[0]));
    m->words[at + 4] = other_in_class(m, class);
    return true;
}

static bool is_binary(const struct module *m, uint32_t at)
{
    return length_at(m, at) == 5 && in_opcode_class(m, at);
}

/* Swaps the operands of a binary instruction whose operands have one type
 * (a - b -> b - a, x < n -> n < x). */
static bool swap_operands(struct module *m)
{
    uint32_t at = pick(m, is_binary);
    if (!at)
        return false;
    uint32_t a = m->words[at + 3], b = m->words[at + 4];
    if (a >= m->bound || b >= m->bound || m->type_of[a] != m->type_of[b] || a == b)
        return false;
    m->words[at + 3] = b;
    m->words[at + 4] = a;
    return true;
}

static bool is_constant(const struct module *m, uint32_t id)
{
    if (!id || id >= m->bound || !m->def[id])
        return false;
    uint16_t op = opcode_at(m, m->def[id]);
    return op == SpvOpConstant || op == SpvOpConstantTrue || op == SpvOpConstantFalse ||
           op == SpvOpConstantComposite || op == SpvOpConstantNull;
}

/* Instructions whose value operands may be any value of their type. */
static bool has_value_operands(const struct module *m, uint32_t at)
{
    uint16_t op = opcode_at(m, at);
    return in_opcode_class(m, at) || op == SpvOpSelect || op == SpvOpStore || op == SpvOpCompositeConstruct;
}

/* Replaces a value operand by a constant of the same type (constants are
 * global, so dominance stays valid): a stored value becomes 0, a loop's
 * comparison meets a literal, a divisor becomes 0 or -1. */
static bool operand_to_constant(struct module *m)
{
    uint32_t at = pick(m, has_value_operands);
    if (!at)
        return false;
    uint16_t op = opcode_at(m, at), length = length_at(m, at);
    uint32_t first = op == SpvOpStore ? 2 : 3;
    if (length <= first)
        return false;
    uint32_t word = at + first + below(m, length - first);
    uint32_t id = m->words[word];
    if (id >= m->bound || !m->type_of[id])
        return false;
    uint32_t start = below(m, m->bound);
    for (uint32_t i = 0; i < m->bound; i++) {
        uint32_t candidate = (start + i) % m->bound;
        if (candidate != id && is_constant(m, candidate) && m->type_of[candidate] == m->type_of[id]) {
            m->words[word] = candidate;
            return true;
        }
    }
    return false;
}

static bool is_conditional_branch(const struct module *m, uint32_t at)
{
    return opcode_at(m, at) == SpvOpBranchConditional && length_at(m, at) >= 4;
}

/* Swaps the targets of a conditional branch: an if's arms, or a loop's
 * exit test (the watchdog ends the endless ones). */
static bool swap_branch(struct module *m)
{
    uint32_t at = pick(m, is_conditional_branch);
    if (!at)
        return false;
    uint32_t t = m->words[at + 2];
    m->words[at + 2] = m->words[at + 3];
    m->words[at + 3] = t;
    return true;
}

static bool is_local_size(const struct module *m, uint32_t at)
{
    return opcode_at(m, at) == SpvOpExecutionMode && length_at(m, at) == 6 &&
           m->words[at + 2] == SpvExecutionModeLocalSize;
}

/* A new workgroup size: partial subgroups, one lane, several subgroups. */
static bool mutate_local_size(struct module *m)
{
    static const uint32_t x_sizes[] = { 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 32, 64 };
    uint32_t at = pick(m, is_local_size);
    if (!at)
        return false;
    m->words[at + 3] = x_sizes[below(m, sizeof(x_sizes) / sizeof(x_sizes[0]))];
    m->words[at + 4] = 1 + below(m, 3);
    m->words[at + 5] = 1 + below(m, 2);
    return true;
}

unsigned spirv_mutate(uint32_t *words, size_t count, uint32_t seed)
{
    struct module m = { .words = words, .count = count, .random = seed * 0x9e3779b97f4a7c15ull + 1 };
    unsigned applied = 0;
    if (parse(&m)) {
        static bool (*const mutations[])(struct module *) = {
            mutate_constant, mutate_constant, mutate_opcode, mutate_glsl, swap_operands,
            operand_to_constant, swap_branch, mutate_local_size,
        };
        unsigned wanted = 1 + below(&m, 4);
        for (unsigned tries = 0; applied < wanted && tries < 16; tries++)
            applied += mutations[below(&m, sizeof(mutations) / sizeof(mutations[0]))](&m);
    }
    free(m.type_of);
    free(m.def);
    free(m.offsets);
    return applied;
}

size_t spirv_mutate_bytes(uint8_t *data, size_t size, uint32_t seed)
{
    size_t count = size / 4;
    uint32_t *words = malloc(count ? count * 4 : 4);
    if (!words)
        return 0;
    memcpy(words, data, count * 4);
    unsigned applied = spirv_mutate(words, count, seed);
    if (applied)
        memcpy(data, words, count * 4);
    free(words);
    return applied ? count * 4 : 0;
}
