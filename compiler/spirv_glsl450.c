/* GLSL.std.450 extended instructions. */
#include "spirv_private.h"

bool spv_translate_glsl450(struct tr *t, const struct spv_insn *insn, bool *handled)
{
    (void)t, (void)insn;
    *handled = false;
    return true;
}
