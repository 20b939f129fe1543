/* Word-level rewrites of a SPIR-V module that SPIRV-Tools' optimiser
 * (Debian 12's 2023.1) has no pass for; spirv_tools.cpp runs them between
 * its pass lists.  Each returns 0 and a malloc'ed module in *out, or 2
 * with a message in `error` when out of memory.  A module a rewrite does
 * not apply to is copied unchanged: parsing then says what is wrong. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Drops every OpEntryPoint but the GLCompute one named `name`, with the
 * other entry points' execution modes, so that dead-function and dead-code
 * elimination remove what only those entry points use.  A module without
 * that entry point is copied unchanged (parsing reports it). */
int vkmm_spirv_keep_entry_point(const uint32_t *words, size_t word_count, const char *name, uint32_t **out,
                                size_t *out_count, char *error, size_t error_size);

/* Turns the specialization-constant instructions the optimiser could not
 * fold (OpSpecConstantOp, and OpSpecConstantComposite built from them)
 * into the same operations at the top of the module's one function, where
 * the translator handles them like any instruction.  Expects specialization
 * to be applied and frozen, and every function inlined. */
int vkmm_spirv_hoist_spec_constants(const uint32_t *words, size_t word_count, uint32_t **out, size_t *out_count,
                                    char *error, size_t error_size);

#ifdef __cplusplus
}
#endif
