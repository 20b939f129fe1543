/* A structure-aware SPIR-V mutator (Debian 12's SPIRV-Tools ships no
 * spirv-fuzz): it edits a module's instruction stream in ways that keep it
 * well-formed and mostly valid, so mutated corpus shaders get past the
 * validator into the translator, code generation and execution —
 * constants (loop bounds, sizes, scopes), operands of the same type,
 * opcodes of the same class (IAdd <-> SDiv, FOrdLessThan <-> FUnordEqual,
 * AtomicIAdd <-> AtomicUMax, GLSL.std.450 Sin <-> Sqrt), branch targets and
 * the workgroup size.  The caller validates the result: some mutations
 * (a constant array length of 0, a swapped loop exit) make invalid modules,
 * which is what the validator is for. */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Applies 1 to 4 mutations chosen by `seed` to the module in `words`
 * (`count` words; its length never changes).  Returns how many it applied:
 * 0 when the words are no SPIR-V module or nothing mutable was found. */
unsigned spirv_mutate(uint32_t *words, size_t count, uint32_t seed);

/* libFuzzer's custom-mutator shape over bytes: the whole words of `data`
 * mutated in place; returns the new size (whole words), or 0 when the data
 * is no module (the caller falls back to byte-level mutation). */
size_t spirv_mutate_bytes(uint8_t *data, size_t size, uint32_t seed);
