/* libFuzzer target: arbitrary bytes as a SPIR-V module through the whole
 * compiler (validation, normalisation, reader, translator, code generation).
 * Whatever the input, vkmm_compile must return (0 or an error message)
 * without crashing, hanging or leaking.
 *
 * Built twice: fuzz_spirv mutates bytes (libFuzzer's mutators), and
 * fuzz_spirv_structured (FUZZ_STRUCTURED) mutates the instruction stream of
 * the corpus shaders (spirv_mutator.c), so most inputs stay valid and reach
 * the translator, with a byte-level mutation now and then for modules
 * just short of valid. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "spirv_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef FUZZ_STRUCTURED
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    size_t mutated = seed % 8 == 0 ? 0 : spirv_mutate_bytes(data, size, seed);
    return mutated ? mutated : LLVMFuzzerMutate(data, size, max_size);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t words = size / 4;
    if (words > (1u << 16))
        return 0;
    uint32_t *module = malloc(words ? words * 4 : 4);
    if (!module)
        return 0;
    memcpy(module, data, words * 4);
    struct vkmm_compile_binding bindings[8];
    for (uint32_t i = 0; i < 8; i++)
        bindings[i] = (struct vkmm_compile_binding){ i, i, 1 };
    struct vkmm_compile_set set = { 8, bindings };
    struct vkmm_compile_options options = {
        .entry_point = "main",
        .subgroup_width = 4,
        .set_count = 1,
        .sets = &set,
        .optimize = 0,
    };
#ifdef FUZZ_STRUCTURED
    /* Valid modules reach code generation: optimised, W = 8, with strict
     * mode's hooks (fuzz_exec compiles and runs both kinds). */
    options.subgroup_width = 8;
    options.optimize = 1;
    options.monitor_workgroup_memory = options.monitor_device_memory = 1;
    options.poll_loops = 1;
#endif
    struct vkmm_compiled_shader shader;
    char error[512];
    if (vkmm_compile(module, words, &options, &shader, error, sizeof(error)) == 0)
        vkmm_compiled_shader_free(&shader);
    free(module);
    return 0;
}
