/* libFuzzer target: arbitrary bytes as a SPIR-V module through the whole
 * compiler (validation, normalisation, reader, translator, code generation).
 * Whatever the input, vkmm_compile must return (0 or an error message)
 * without crashing, hanging or leaking. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
    struct vkmm_compiled_shader shader;
    char error[512];
    if (vkmm_compile(module, words, &options, &shader, error, sizeof(error)) == 0)
        vkmm_compiled_shader_free(&shader);
    free(module);
    return 0;
}
