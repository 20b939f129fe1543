/* The SPIRV-Tools steps of compilation: validation for the Vulkan 1.3
 * environment, then normalising optimisation passes (specialisation,
 * inlining, SSA form) so the translator sees a smaller language. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct vkmm_spec_constant {
    uint32_t id;
    uint32_t size;     /* bytes: 1, 2, 4 or 8 */
    uint64_t value;    /* little-endian bits */
};

/* Validates `words` (rejecting the module with the validator's message in
 * `error`), keeps only the GLCompute entry point `entry_point`, applies the
 * specialization constants and runs the normalising passes.  On success
 * returns 0 and a malloc'ed module in *out_words. */
int vkmm_spirv_prepare(const uint32_t *words, size_t word_count, const char *entry_point,
                       const struct vkmm_spec_constant *spec, uint32_t spec_count, uint32_t **out_words,
                       size_t *out_word_count, char *error, size_t error_size);

/* Validation only (vkCreateShaderModule): 0 when valid. */
int vkmm_spirv_validate(const uint32_t *words, size_t word_count, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif
