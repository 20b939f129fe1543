/* What can order a module's Workgroup-memory accesses between invocations
 * (strict mode's workgroup monitor, runtime/strict/workgroup_monitor.h):
 * control barriers always; fences and atomics whose semantics acquire or
 * release Workgroup memory, too (000 "Synchronizes-With": a relaxed atomic
 * synchronizes only through such a fence).  The monitor follows control
 * barriers only, so it judges a module's shared memory when nothing else
 * can order it; relaxed atomics on Workgroup storage (a shared histogram's
 * atomicAdd) do not race with each other and order nothing. */
#include "lower_memory.h"
#include "spirv_private.h"

/* Do the semantics acquire or release Workgroup memory? */
static bool orders_workgroup_memory(uint32_t semantics)
{
    return (semantics & SpvMemorySemanticsWorkgroupMemoryMask) &&
           (semantics & (SpvMemorySemanticsAcquireMask | SpvMemorySemanticsReleaseMask |
                         SpvMemorySemanticsAcquireReleaseMask | SpvMemorySemanticsSequentiallyConsistentMask));
}

bool spv_fences_workgroup_memory(const struct spv_module *m, const struct spv_insn *insn)
{
    return insn->opcode == SpvOpMemoryBarrier && orders_workgroup_memory(spv_constant_of(m, spv_words(m, insn)[2]));
}

/* The pointer an atomic works on (0 when malformed). */
static uint32_t atomic_pointer(const struct spv_module *m, const struct spv_insn *insn)
{
    uint32_t at = insn->opcode == SpvOpAtomicStore ? 1 : 3;
    return insn->word_count > at ? spv_words(m, insn)[at] : 0;
}

/* The storage class a pointer points into, or UINT32_MAX (malformed). */
static uint32_t pointer_storage(const struct spv_module *m, uint32_t pointer)
{
    if (!pointer || pointer >= m->bound || !m->ids[pointer].type)
        return UINT32_MAX;
    const struct spv_type *type = spv_type(m, m->ids[pointer].type);
    return type && type->kind == SPV_TYPE_POINTER ? type->storage_class : UINT32_MAX;
}

static bool on_workgroup_storage(const struct spv_module *m, uint32_t pointer)
{
    return pointer_storage(m, pointer) == SpvStorageClassWorkgroup;
}

/* Is the pointer into storage strict mode's monitors see: of explicit
 * layout (buffers, physical storage buffers, image texels), or Workgroup? */
static bool on_monitored_storage(const struct spv_module *m, uint32_t pointer)
{
    uint32_t storage = pointer_storage(m, pointer);
    return storage != UINT32_MAX && spv_storage_kind(storage) != SPV_STORAGE_LANE_SCALED;
}

/* Does every atomic of the module work on storage `on` accepts? */
static bool every_atomic_on(const struct spv_module *m, bool (*on)(const struct spv_module *, uint32_t))
{
    for (uint32_t i = 0; i < m->insn_count; i++) {
        const struct spv_insn *insn = &m->insns[i];
        if (spv_is_atomic(insn->opcode) && insn->word_count >= 4 && !on(m, atomic_pointer(m, insn)))
            return false;
    }
    return true;
}

bool spv_atomics_on_monitored_storage_only(const struct spv_module *m)
{
    return every_atomic_on(m, on_monitored_storage);
}

bool spv_atomics_on_workgroup_only(const struct spv_module *m)
{
    return every_atomic_on(m, on_workgroup_storage);
}

/* The semantics of an atomic (both of a compare-exchange), ORed. */
static uint32_t atomic_semantics(const struct spv_module *m, const struct spv_insn *insn)
{
    const uint32_t *w = spv_words(m, insn);
    if (insn->opcode == SpvOpAtomicStore)
        return insn->word_count > 3 ? spv_constant_of(m, w[3]) : 0;
    uint32_t semantics = insn->word_count > 5 ? spv_constant_of(m, w[5]) : 0;
    if ((insn->opcode == SpvOpAtomicCompareExchange || insn->opcode == SpvOpAtomicCompareExchangeWeak) &&
        insn->word_count > 6)
        semantics |= spv_constant_of(m, w[6]);
    return semantics;
}

bool spv_workgroup_ordered_by_barriers_only(const struct spv_module *m)
{
    for (uint32_t i = 0; i < m->insn_count; i++) {
        const struct spv_insn *insn = &m->insns[i];
        if (spv_fences_workgroup_memory(m, insn))
            return false;
        if (spv_is_atomic(insn->opcode) && orders_workgroup_memory(atomic_semantics(m, insn)))
            return false;
    }
    return true;
}
