// The one C++ file of vkmm: SPIRV-Tools' optimizer has only a C++ API in
// Debian 12's version (2023.1), and vkmm uses the library rather than
// re-implementing inlining and SSA construction.  No exception crosses the
// C boundary.
#include "spirv_tools.h"

#include "spirv_check.h"
#include "spirv_rewrite.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include <spirv-tools/libspirv.h>
#include <spirv-tools/optimizer.hpp>
#include <spirv/unified1/spirv.h>

namespace {

constexpr spv_target_env kEnv = SPV_ENV_VULKAN_1_3;

void copy_message(char *error, size_t error_size, const std::string &text)
{
    if (error && error_size)
        std::snprintf(error, error_size, "%s", text.c_str());
}

spv_validator_options make_validator_options()
{
    spv_validator_options options = spvValidatorOptionsCreate();
    // vkmm supports scalarBlockLayout and uniformBufferStandardLayout, so
    // modules using those layouts are valid for it.
    spvValidatorOptionsSetScalarBlockLayout(options, true);
    spvValidatorOptionsSetUniformBufferStandardLayout(options, true);
    return options;
}

int validate(const uint32_t *words, size_t word_count, char *error, size_t error_size)
{
    spv_context context = spvContextCreate(kEnv);
    spv_validator_options options = make_validator_options();
    spv_const_binary_t binary = {words, word_count};
    spv_diagnostic diagnostic = nullptr;
    spv_result_t result = spvValidateWithOptions(context, options, &binary, &diagnostic);
    if (result != SPV_SUCCESS) {
        std::string text = diagnostic && diagnostic->error ? diagnostic->error : "invalid SPIR-V";
        if (diagnostic && !diagnostic->isTextSource)
            text = "word " + std::to_string(diagnostic->position.index) + ": " + text;
        copy_message(error, error_size, "SPIR-V validation failed: " + text);
    }
    spvDiagnosticDestroy(diagnostic);
    spvValidatorOptionsDestroy(options);
    spvContextDestroy(context);
    return result == SPV_SUCCESS ? 0 : 1;
}

// Runs `passes` (registered by the caller) on `in`; false with the
// optimiser's messages in `error`.
bool run_passes(spvtools::Optimizer &optimizer, const std::vector<uint32_t> &in, std::vector<uint32_t> *out,
                const std::string &messages, char *error, size_t error_size)
{
    spv_optimizer_options options = spvOptimizerOptionsCreate();
    spv_validator_options validator = make_validator_options();
    spvOptimizerOptionsSetValidatorOptions(options, validator);
    spvOptimizerOptionsSetRunValidator(options, false); // validated before
    bool ok = optimizer.Run(in.data(), in.size(), out, options);
    spvOptimizerOptionsDestroy(options);
    spvValidatorOptionsDestroy(validator);
    if (!ok)
        copy_message(error, error_size, "SPIR-V optimisation failed: " + messages);
    return ok;
}

void collect_messages(spvtools::Optimizer &optimizer, std::string *messages)
{
    optimizer.SetMessageConsumer([messages](spv_message_level_t, const char *, const spv_position_t &,
                                            const char *message) {
        if (!messages->empty())
            *messages += "; ";
        *messages += message;
    });
}

// A C rewrite (spirv_rewrite.h) of `module`, in place.
int rewrite(std::vector<uint32_t> *module,
            int (*function)(const uint32_t *, size_t, uint32_t **, size_t *, char *, size_t), char *error,
            size_t error_size)
{
    uint32_t *words = nullptr;
    size_t count = 0;
    int result = function(module->data(), module->size(), &words, &count, error, error_size);
    if (result == 0)
        module->assign(words, words + count);
    std::free(words);
    return result;
}

// Specialization, then one function: everything inlined into the entry
// point, whatever its function control says (DontInline is a hint; vkmm's
// translator needs one function).
bool specialize_and_inline(const std::vector<uint32_t> &in, std::vector<uint32_t> *out,
                           const vkmm_spec_constant *spec, uint32_t spec_count, char *error, size_t error_size)
{
    std::string messages;
    spvtools::Optimizer optimizer(kEnv);
    collect_messages(optimizer, &messages);
    std::unordered_map<uint32_t, std::vector<uint32_t>> values;
    for (uint32_t i = 0; i < spec_count; i++) {
        std::vector<uint32_t> bits{static_cast<uint32_t>(spec[i].value)};
        if (spec[i].size == 8)
            bits.push_back(static_cast<uint32_t>(spec[i].value >> 32));
        values[spec[i].id] = bits;
    }
    optimizer.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(values))
        .RegisterPass(spvtools::CreateFreezeSpecConstantValuePass())
        .RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass())
        // Merge-return refuses functions with unreachable blocks (valid
        // SPIR-V); dead-branch elimination removes them.
        .RegisterPass(spvtools::CreateDeadBranchElimPass())
        // The inliner refuses functions with early returns inside loops
        // until returns are merged into one.
        .RegisterPass(spvtools::CreateMergeReturnPass())
        .RegisterPass(spvtools::CreateRemoveDontInlinePass())
        .RegisterPass(spvtools::CreateInlineExhaustivePass())
        .RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
    return run_passes(optimizer, in, out, messages, error, error_size);
}

// Does the module read memory that other invocations may write while it
// runs (Coherent or Volatile decorations, NonPrivatePointer or Volatile
// loads)?  Aggressive dead-code elimination deletes loops without side
// effects, so it would turn a spin on such a flag into no wait at all.
bool reads_coherent_memory(const std::vector<uint32_t> &words)
{
    for (size_t at = 5; at < words.size();) {
        uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
        if (count == 0 || at + count > words.size())
            break;
        if (opcode == SpvOpDecorate && count > 2 &&
            (words[at + 2] == SpvDecorationCoherent || words[at + 2] == SpvDecorationVolatile))
            return true;
        if (opcode == SpvOpMemberDecorate && count > 3 &&
            (words[at + 3] == SpvDecorationCoherent || words[at + 3] == SpvDecorationVolatile))
            return true;
        if (opcode == SpvOpLoad && count > 4 &&
            (words[at + 4] & (SpvMemoryAccessNonPrivatePointerMask | SpvMemoryAccessVolatileMask)))
            return true;
        at += count;
    }
    return false;
}

// Does the module have a loop, and memory that another invocation may write
// (StorageBuffer, Uniform, Workgroup or PhysicalStorageBuffer)?  A loop that
// only reads such memory may wait for another invocation even through plain
// loads (a racing spin on a non-coherent flag): dead-code elimination would
// delete it, and strict mode could not report that it can never end.
bool may_wait_in_a_loop(const std::vector<uint32_t> &words)
{
    bool loop = false, shared = false;
    for (size_t at = 5; at < words.size();) {
        uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
        if (count == 0 || at + count > words.size())
            break;
        loop |= opcode == SpvOpLoopMerge;
        if (opcode == SpvOpTypePointer && count > 2) {
            uint32_t storage = words[at + 2];
            shared |= storage == SpvStorageClassStorageBuffer || storage == SpvStorageClassUniform ||
                      storage == SpvStorageClassWorkgroup || storage == SpvStorageClassPhysicalStorageBuffer;
        }
        at += count;
    }
    return loop && shared;
}

// Function variables to SSA values where possible, dead code removed (not
// loops that may wait for another invocation).
bool to_ssa(const std::vector<uint32_t> &in, std::vector<uint32_t> *out, char *error, size_t error_size)
{
    std::string messages;
    spvtools::Optimizer optimizer(kEnv);
    collect_messages(optimizer, &messages);
    optimizer.RegisterPass(spvtools::CreateLocalAccessChainConvertPass())
        .RegisterPass(spvtools::CreateLocalSingleBlockLoadStoreElimPass())
        .RegisterPass(spvtools::CreateLocalSingleStoreElimPass())
        .RegisterPass(spvtools::CreateScalarReplacementPass())
        .RegisterPass(spvtools::CreateSSARewritePass());
    if (!reads_coherent_memory(in) && !may_wait_in_a_loop(in))
        optimizer.RegisterPass(spvtools::CreateAggressiveDCEPass());
    optimizer.RegisterPass(spvtools::CreateDeadBranchElimPass());
    return run_passes(optimizer, in, out, messages, error, error_size);
}

int optimize(const uint32_t *words, size_t word_count, const char *entry_point, const vkmm_spec_constant *spec,
             uint32_t spec_count, uint32_t **out_words, size_t *out_word_count, char *error, size_t error_size)
{
    std::vector<uint32_t> module;
    {
        uint32_t *kept = nullptr;
        size_t kept_count = 0;
        // Other entry points may use bindings this pipeline's layout lacks:
        // without them, their functions and variables are dead code.
        int result = vkmm_spirv_keep_entry_point(words, word_count, entry_point, &kept, &kept_count, error,
                                                 error_size);
        if (result != 0)
            return result;
        module.assign(kept, kept + kept_count);
        std::free(kept);
    }
    std::vector<uint32_t> inlined, result;
    if (!specialize_and_inline(module, &inlined, spec, spec_count, error, error_size))
        return 1;
    // The folding pass of SPIRV-Tools 2023.1 leaves some operations
    // (FConvert, shifts of other widths than 32 bits, vector operations).
    int status = rewrite(&inlined, vkmm_spirv_hoist_spec_constants, error, error_size);
    if (status != 0)
        return status;
    if (!to_ssa(inlined, &result, error, error_size))
        return 1;
    uint32_t *copy = static_cast<uint32_t *>(std::malloc(result.size() * sizeof(uint32_t)));
    if (!copy) {
        copy_message(error, error_size, "out of memory");
        return 2;
    }
    std::memcpy(copy, result.data(), result.size() * sizeof(uint32_t));
    *out_words = copy;
    *out_word_count = result.size();
    return 0;
}

} // namespace

extern "C" int vkmm_spirv_validate(const uint32_t *words, size_t word_count, char *error, size_t error_size)
{
    try {
        return validate(words, word_count, error, error_size);
    } catch (...) {
        copy_message(error, error_size, "SPIR-V validation failed: internal error");
        return 1;
    }
}

extern "C" int vkmm_spirv_prepare(const uint32_t *words, size_t word_count, const char *entry_point,
                                  const vkmm_spec_constant *spec, uint32_t spec_count, uint32_t **out_words,
                                  size_t *out_word_count, char *error, size_t error_size)
{
    try {
        if (validate(words, word_count, error, error_size) != 0)
            return 1;
        int checked = vkmm_spirv_check_unvalidated(words, word_count, error, error_size);
        if (checked != 0)
            return checked;
        return optimize(words, word_count, entry_point, spec, spec_count, out_words, out_word_count, error,
                        error_size);
    } catch (...) {
        copy_message(error, error_size, "SPIR-V preparation failed: out of memory or internal error");
        return 2;
    }
}
