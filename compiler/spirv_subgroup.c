/* Subgroup (GroupNonUniform) instructions: the subgroup is the W lanes of
 * one generated function call, so these are operations across the lanes of
 * a <W x T> vector under the execution mask. */
#include "spirv_private.h"

bool spv_translate_subgroup(struct tr *t, const struct spv_insn *insn, bool *handled)
{
    (void)t, (void)insn;
    *handled = false;
    return true;
}
