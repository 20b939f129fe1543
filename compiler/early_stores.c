/* Early stores (strict mode): a load followed, in the same block, by a
 * store that depends on nothing the load returned may be performed in the
 * other order, store first.  The Vulkan memory model allows it when
 * neither access orders the other — the load is not an acquire (or the
 * store is private: an acquire orders only non-private accesses), the
 * store is not a release, and they touch different bytes (000: program
 * order alone orders nothing between invocations; only release/acquire and
 * barriers do) — and it is the only way an invocation's load can read a
 * store that another invocation makes after reading this invocation's
 * store: load buffering (LB), which a machine that performs each
 * invocation's accesses in program order never shows.
 *
 * This file finds the pairs; translate.c performs the store early for the
 * lanes whose bytes differ, when the runtime's seeded coin says so, and at
 * its place for the others. */
#include "lower_memory.h"
#include "spirv_private.h"

/* Instructions between the two that do nothing but compute. */
static bool computes_only(uint16_t op)
{
    switch (op) {
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain:
    case SpvOpPtrAccessChain:
    case SpvOpIAdd:
    case SpvOpISub:
    case SpvOpIMul:
    case SpvOpSNegate:
    case SpvOpShiftLeftLogical:
    case SpvOpShiftRightLogical:
    case SpvOpShiftRightArithmetic:
    case SpvOpBitwiseOr:
    case SpvOpBitwiseXor:
    case SpvOpBitwiseAnd:
    case SpvOpNot:
    case SpvOpIEqual:
    case SpvOpINotEqual:
    case SpvOpUGreaterThan:
    case SpvOpSGreaterThan:
    case SpvOpUGreaterThanEqual:
    case SpvOpSGreaterThanEqual:
    case SpvOpULessThan:
    case SpvOpSLessThan:
    case SpvOpULessThanEqual:
    case SpvOpSLessThanEqual:
    case SpvOpSelect:
    case SpvOpCompositeExtract:
    case SpvOpCompositeConstruct:
    case SpvOpCopyObject:
    case SpvOpBitcast:
    case SpvOpUConvert:
    case SpvOpSConvert:
    case SpvOpConvertUToF:
    case SpvOpConvertSToF:
    case SpvOpFAdd:
    case SpvOpFSub:
    case SpvOpFMul:
    case SpvOpFNegate:
        return true;
    default:
        return false;
    }
}

/* ... or reads the invocation's own Function or Private variables (no
 * store to them may come between: the search stops at any such store). */
static bool computes(const struct spv_module *m, const struct spv_insn *insn)
{
    if (computes_only(insn->opcode))
        return true;
    if (insn->opcode != SpvOpLoad)
        return false;
    const uint32_t *w = spv_words(m, insn);
    const struct spv_type *ptype = spv_type(m, m->ids[w[3]].type);
    return ptype->kind == SPV_TYPE_POINTER && spv_storage_kind(ptype->storage_class) == SPV_STORAGE_LANE_SCALED &&
           (insn->word_count <= 4 || !(w[4] & SpvMemoryAccessVolatileMask));
}

static bool orders(uint32_t semantics, uint32_t mask)
{
    return (semantics & (mask | SpvMemorySemanticsAcquireReleaseMask | SpvMemorySemanticsSequentiallyConsistentMask)) !=
           0;
}

/* A scalar in buffer or Workgroup memory, accessed without Volatile. */
static bool plain_scalar(const struct spv_module *m, uint32_t pointer_id, const uint32_t *w, uint32_t operands_at,
                         uint32_t word_count)
{
    const struct spv_type *ptype = spv_type(m, m->ids[pointer_id].type);
    if (ptype->kind != SPV_TYPE_POINTER || spv_storage_kind(ptype->storage_class) == SPV_STORAGE_LANE_SCALED)
        return false;
    const struct spv_type *element = spv_type(m, ptype->element);
    if (element->kind != SPV_TYPE_INT && element->kind != SPV_TYPE_FLOAT)
        return false;
    return word_count <= operands_at || !(w[operands_at] & SpvMemoryAccessVolatileMask);
}

/* Is `insn` a load the store may pass?  Its result id in *result; an
 * atomic acquire sets *acquire (Vulkan memory model only: there a private
 * store is one without NonPrivatePointer, and 000's acquire orders only
 * non-private accesses after it — private ones of two invocations need
 * system-synchronizes-with, Khronos `privwar`). */
static bool passable_load(const struct spv_module *m, const struct spv_insn *insn, uint32_t *result, bool *acquire)
{
    const uint32_t *w = spv_words(m, insn);
    if (insn->opcode == SpvOpLoad && plain_scalar(m, w[3], w, 4, insn->word_count)) {
        *result = w[2];
        return true;
    }
    if (insn->opcode != SpvOpAtomicLoad || !plain_scalar(m, w[3], w, 6, 0))
        return false;
    *acquire = orders(spv_constant_of(m, w[5]), SpvMemorySemanticsAcquireMask);
    *result = w[2];
    return !*acquire || m->uses_vulkan_memory_model;
}

/* A private OpStore of the Vulkan memory model: no NonPrivatePointer (nor
 * MakePointerAvailable, which needs it). */
static bool private_store(const struct spv_module *m, const struct spv_insn *insn)
{
    const uint32_t *w = spv_words(m, insn);
    return insn->opcode == SpvOpStore && m->uses_vulkan_memory_model &&
           (insn->word_count <= 3 || !(w[3] & SpvMemoryAccessNonPrivatePointerMask));
}

/* A store (OpStore or a non-release OpAtomicStore of a scalar); its
 * pointer and value ids. */
static bool plain_store(const struct spv_module *m, const struct spv_insn *insn, uint32_t *pointer, uint32_t *value)
{
    const uint32_t *w = spv_words(m, insn);
    if (insn->opcode == SpvOpStore && plain_scalar(m, w[1], w, 3, insn->word_count)) {
        *pointer = w[1];
        *value = w[2];
        return true;
    }
    if (insn->opcode == SpvOpAtomicStore && plain_scalar(m, w[1], w, 4, 0) &&
        !orders(spv_constant_of(m, w[3]), SpvMemorySemanticsReleaseMask)) {
        *pointer = w[1];
        *value = w[4];
        return true;
    }
    return false;
}

static bool depends(const struct spv_early_store *e, uint32_t id)
{
    for (uint32_t k = 0; k < e->dependent_count; k++)
        if (e->dependent[k] == id)
            return true;
    return false;
}

bool spv_early_store_find(const struct spv_module *m, const struct spv_block *b, uint32_t load,
                          struct spv_early_store *out)
{
    struct spv_early_store e = { .load = load };
    uint32_t result;
    if (!passable_load(m, &m->insns[load], &result, &e.acquire))
        return false;
    e.dependent[e.dependent_count++] = result;
    for (uint32_t i = load + 1; i < b->last && i <= load + SPV_EARLY_STORE_SPAN; i++) {
        const struct spv_insn *insn = &m->insns[i];
        const uint32_t *w = spv_words(m, insn);
        if (insn->opcode == SpvOpLine || insn->opcode == SpvOpNoLine)
            continue;
        uint32_t pointer, value;
        if (plain_store(m, insn, &pointer, &value)) {
            if (depends(&e, pointer))
                return false;
            if (!depends(&e, value)) {
                if (e.acquire && !private_store(m, insn))
                    return false;
                e.store = i;
                *out = e;
                return true;
            }
            /* A store of what the load returned: the early store passes it
             * too, when their bytes differ (checked at run time). */
            if (insn->opcode != SpvOpStore || e.passed_count == SPV_EARLY_STORE_PASSED)
                return false;
            e.passed[e.passed_count++] = i;
            continue;
        }
        if (!computes(m, insn) || insn->word_count < 3)
            return false;
        for (uint32_t k = 3; k < insn->word_count; k++) {
            if (depends(&e, w[k])) {
                if (e.dependent_count == SPV_EARLY_STORE_SPAN + 1)
                    return false;
                e.dependent[e.dependent_count++] = w[2];
                break;
            }
        }
    }
    return false;
}

bool spv_early_store_hoists(const struct spv_module *m, const struct spv_early_store *e, uint32_t index)
{
    const struct spv_insn *insn = &m->insns[index];
    if (!computes(m, insn))
        return false;
    return !depends(e, spv_words(m, insn)[2]);
}
