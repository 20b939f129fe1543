/* Checks of modules the validator accepted: what SPIRV-Tools' validator
 * (Debian 12's 2023.1) leaves unchecked and its optimiser relies on.
 * Fuzzing found modules that pass spvValidate and crash the optimiser
 * (FoldSpecConstantOpAndCompositePass); these checks turn them into an
 * error message instead. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The literal indices of OpSpecConstantOp's CompositeExtract,
 * CompositeInsert and VectorShuffle lie inside their operands' types (the
 * rule the validator checks for the ordinary instructions), and the
 * operands of OpExecutionModeId are constant instructions.  0, or 1 with a
 * message in `error` (2 when out of memory). */
int vkmm_spirv_check_unvalidated(const uint32_t *words, size_t word_count, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif
