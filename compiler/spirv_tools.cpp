// The one C++ file of vkmm: SPIRV-Tools' optimizer has only a C++ API in
// Debian 12's version (2023.1), and vkmm uses the library rather than
// re-implementing inlining and SSA construction.  No exception crosses the
// C boundary.
#include "spirv_tools.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include <spirv-tools/libspirv.h>
#include <spirv-tools/optimizer.hpp>

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

int optimize(const uint32_t *words, size_t word_count, const vkmm_spec_constant *spec, uint32_t spec_count,
             uint32_t **out_words, size_t *out_word_count, char *error, size_t error_size)
{
    std::string messages;
    spvtools::Optimizer optimizer(kEnv);
    optimizer.SetMessageConsumer([&messages](spv_message_level_t, const char *, const spv_position_t &,
                                             const char *message) {
        if (!messages.empty())
            messages += "; ";
        messages += message;
    });
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
        // The inliner refuses functions with early returns inside loops
        // until returns are merged into one.
        .RegisterPass(spvtools::CreateMergeReturnPass())
        .RegisterPass(spvtools::CreateInlineExhaustivePass())
        .RegisterPass(spvtools::CreateEliminateDeadFunctionsPass())
        .RegisterPass(spvtools::CreateLocalAccessChainConvertPass())
        .RegisterPass(spvtools::CreateLocalSingleBlockLoadStoreElimPass())
        .RegisterPass(spvtools::CreateLocalSingleStoreElimPass())
        .RegisterPass(spvtools::CreateScalarReplacementPass())
        .RegisterPass(spvtools::CreateSSARewritePass())
        .RegisterPass(spvtools::CreateAggressiveDCEPass())
        .RegisterPass(spvtools::CreateDeadBranchElimPass());
    spv_optimizer_options options = spvOptimizerOptionsCreate();
    spv_validator_options validator = make_validator_options();
    spvOptimizerOptionsSetValidatorOptions(options, validator);
    spvOptimizerOptionsSetRunValidator(options, false); // validated just before
    std::vector<uint32_t> result;
    bool ok = optimizer.Run(words, word_count, &result, options);
    spvOptimizerOptionsDestroy(options);
    spvValidatorOptionsDestroy(validator);
    if (!ok) {
        copy_message(error, error_size, "SPIR-V optimisation failed: " + messages);
        return 1;
    }
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

extern "C" int vkmm_spirv_prepare(const uint32_t *words, size_t word_count, const vkmm_spec_constant *spec,
                                  uint32_t spec_count, uint32_t **out_words, size_t *out_word_count, char *error,
                                  size_t error_size)
{
    try {
        if (validate(words, word_count, error, error_size) != 0)
            return 1;
        return optimize(words, word_count, spec, spec_count, out_words, out_word_count, error, error_size);
    } catch (...) {
        copy_message(error, error_size, "SPIR-V preparation failed: out of memory or internal error");
        return 2;
    }
}
