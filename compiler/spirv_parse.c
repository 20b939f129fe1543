/* Reads a (validated, normalised) SPIR-V module into struct spv_module:
 * ids with their decorations and types, the entry point's execution modes,
 * its one function's blocks, and the module's variables.  Operand shapes come
 * from SPIRV-Tools' spvBinaryParse, so no opcode table is written here. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv-tools/libspirv.h>

#include "spirv_private.h"

bool spv_fail(struct spv_error *error, const char *format, ...)
{
    if (error->failed)
        return false; /* keep the first, most specific message */
    va_list args;
    va_start(args, format);
    vsnprintf(error->message, sizeof(error->message), format, args);
    va_end(args);
    error->failed = true;
    return false;
}

struct parse_state {
    struct spv_module *m;
    struct spv_error *error;
    uint32_t insn_capacity;
    uint32_t operand_capacity;
};

static spv_result_t on_header(void *user, spv_endianness_t endian, uint32_t magic, uint32_t version,
                              uint32_t generator, uint32_t id_bound, uint32_t reserved)
{
    (void)endian, (void)magic, (void)version, (void)generator, (void)reserved;
    struct parse_state *p = user;
    p->m->bound = id_bound;
    p->m->ids = calloc(id_bound, sizeof(struct spv_id));
    return p->m->ids ? SPV_SUCCESS : SPV_ERROR_OUT_OF_MEMORY;
}

static bool grow(void **array, uint32_t *capacity, uint32_t needed, size_t element)
{
    if (needed <= *capacity)
        return true;
    uint32_t capacity2 = *capacity ? *capacity * 2 : 256;
    while (capacity2 < needed)
        capacity2 *= 2;
    void *bigger = realloc(*array, (size_t)capacity2 * element);
    if (!bigger)
        return false;
    *array = bigger;
    *capacity = capacity2;
    return true;
}

static bool is_id_operand(spv_operand_type_t type)
{
    return type == SPV_OPERAND_TYPE_ID || type == SPV_OPERAND_TYPE_TYPE_ID ||
           type == SPV_OPERAND_TYPE_SCOPE_ID || type == SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID;
}

static spv_result_t on_instruction(void *user, const spv_parsed_instruction_t *parsed)
{
    struct parse_state *p = user;
    struct spv_module *m = p->m;
    if (!grow((void **)&m->insns, &p->insn_capacity, m->insn_count + 1, sizeof(struct spv_insn)) ||
        !grow((void **)&m->id_operand_words, &p->operand_capacity, m->id_operand_word_count + parsed->num_operands,
              sizeof(uint32_t)))
        return SPV_ERROR_OUT_OF_MEMORY;
    struct spv_insn *insn = &m->insns[m->insn_count++];
    memset(insn, 0, sizeof(*insn));
    insn->opcode = parsed->opcode;
    insn->word_count = parsed->num_words;
    insn->offset = (uint32_t)(parsed->words - m->words);
    insn->result_type = parsed->type_id;
    insn->result_id = parsed->result_id;
    if (parsed->opcode == SpvOpExtInst) {
        if (parsed->ext_inst_type == SPV_EXT_INST_TYPE_GLSL_STD_450)
            insn->ext_inst_set = SPV_EXT_GLSL_STD_450;
        else if (parsed->ext_inst_type >= SPV_EXT_INST_TYPE_NONSEMANTIC_CLSPVREFLECTION)
            insn->ext_inst_set = SPV_EXT_NON_SEMANTIC;
        else
            insn->ext_inst_set = SPV_EXT_OTHER;
    }
    insn->id_operands = m->id_operand_word_count;
    for (uint16_t i = 0; i < parsed->num_operands; i++) {
        const spv_parsed_operand_t *op = &parsed->operands[i];
        if (is_id_operand(op->type) && parsed->words[op->offset] != parsed->result_id)
            m->id_operand_words[m->id_operand_word_count++] = op->offset;
    }
    insn->id_operand_count = (uint16_t)(m->id_operand_word_count - insn->id_operands);
    return SPV_SUCCESS;
}

/* --- Capabilities ---------------------------------------------------------- */

static bool capability_supported(uint32_t capability)
{
    switch (capability) {
    case SpvCapabilityShader:
    case SpvCapabilityMatrix:
    /* Float controls the device advertises (physical_device.c): what the
     * generated code does anyway.  DenormFlushToZero and RoundingModeRTZ
     * are not among them. */
    /* Float atomic add on buffers and shared memory (VK_EXT_shader_atomic_float). */
    case SpvCapabilityAtomicFloat32AddEXT:
    case SpvCapabilityAtomicFloat64AddEXT:
    case SpvCapabilityVariablePointers:
    case SpvCapabilityVariablePointersStorageBuffer:
    case SpvCapabilityDenormPreserve:
    case SpvCapabilitySignedZeroInfNanPreserve:
    case SpvCapabilityRoundingModeRTE:
    case SpvCapabilityInt8:
    case SpvCapabilityInt16:
    case SpvCapabilityInt64:
    case SpvCapabilityFloat16:
    case SpvCapabilityFloat64:
    case SpvCapabilityInt64Atomics:
    case SpvCapabilityStorageBuffer8BitAccess:
    case SpvCapabilityUniformAndStorageBuffer8BitAccess:
    case SpvCapabilityStoragePushConstant8:
    case SpvCapabilityStorageBuffer16BitAccess:
    case SpvCapabilityUniformAndStorageBuffer16BitAccess:
    case SpvCapabilityStoragePushConstant16:
    case SpvCapabilityVulkanMemoryModel:
    case SpvCapabilityVulkanMemoryModelDeviceScope:
    case SpvCapabilityGroupNonUniform:
    case SpvCapabilityGroupNonUniformVote:
    case SpvCapabilityGroupNonUniformArithmetic:
    case SpvCapabilityGroupNonUniformBallot:
    case SpvCapabilityGroupNonUniformShuffle:
    case SpvCapabilityGroupNonUniformShuffleRelative:
    case SpvCapabilityGroupNonUniformClustered:
    case SpvCapabilityGroupNonUniformQuad:
    case SpvCapabilityPhysicalStorageBufferAddresses:
    case SpvCapabilityShaderNonUniform:
    case SpvCapabilityRuntimeDescriptorArray:
    case SpvCapabilityStorageBufferArrayDynamicIndexing:
    case SpvCapabilityUniformBufferArrayDynamicIndexing:
    case SpvCapabilityStorageBufferArrayNonUniformIndexing:
    case SpvCapabilityUniformBufferArrayNonUniformIndexing:
    /* Declares that the shader may read DeviceIndex; lowering builtins
     * checks that one where it is read. */
    case SpvCapabilityDeviceGroup:
    /* Integer dot products (spirv_dot.c). */
    case SpvCapabilityDotProductInputAll:
    case SpvCapabilityDotProductInput4x8Bit:
    case SpvCapabilityDotProductInput4x8BitPacked:
    case SpvCapabilityDotProduct:
    /* Their instructions exist only in fragment shaders, which a compute
     * device never runs: declaring the capability is all a compute module
     * can do with it. */
    case SpvCapabilityDemoteToHelperInvocation:
    /* Images, samplers and texel buffers (spirv_image.c). */
    case SpvCapabilityImage1D:
    case SpvCapabilitySampled1D:
    case SpvCapabilityImageBuffer:
    case SpvCapabilitySampledBuffer:
    case SpvCapabilityImageQuery:
    case SpvCapabilityStorageImageExtendedFormats:
    case SpvCapabilityStorageImageReadWithoutFormat:
    case SpvCapabilityStorageImageWriteWithoutFormat:
    case SpvCapabilitySampledImageArrayDynamicIndexing:
    case SpvCapabilityStorageImageArrayDynamicIndexing:
    case SpvCapabilityImageCubeArray:
    case SpvCapabilitySampledCubeArray:
        return true;
    default:
        return false;
    }
}

static bool constituents_constant(const struct spv_module *m, const uint32_t *w, uint32_t word_count)
{
    for (uint32_t k = 3; k < word_count; k++) {
        if (w[k] >= m->bound || m->ids[w[k]].kind != SPV_ID_CONSTANT)
            return false;
    }
    return true;
}

/* --- Decorations ----------------------------------------------------------- */

static void decorate(struct spv_module *m, const uint32_t *w, uint32_t count)
{
    uint32_t target = w[1];
    if (target >= m->bound || count < 3)
        return;
    struct spv_id *id = &m->ids[target];
    switch (w[2]) {
    case SpvDecorationBuiltIn:
        id->builtin = w[3];
        break;
    case SpvDecorationDescriptorSet:
        id->set = w[3];
        id->has_binding = true;
        break;
    case SpvDecorationBinding:
        id->binding = w[3];
        id->has_binding = true;
        break;
    case SpvDecorationArrayStride:
        id->array_stride = w[3];
        break;
    case SpvDecorationNonWritable:
        id->non_writable = true;
        break;
    case SpvDecorationNonReadable:
        id->non_readable = true;
        break;
    case SpvDecorationCoherent:
        id->coherent = true;
        break;
    case SpvDecorationVolatile:
        id->volatile_ = true;
        break;
    case SpvDecorationFPRoundingMode:
        if (count > 3 && w[3] <= SpvFPRoundingModeRTN)
            id->fp_rounding = (uint8_t)(w[3] + 1);
        break;
    default:
        break;
    }
}

/* Member decorations are applied after the struct types exist. */
static void member_decorate(struct spv_module *m, const uint32_t *w)
{
    struct spv_type *type = spv_type(m, w[1]);
    if (!type || type->kind != SPV_TYPE_STRUCT || w[2] >= type->member_count)
        return;
    struct spv_member *member = &type->members[w[2]];
    switch (w[3]) {
    case SpvDecorationOffset:
        member->offset = w[4];
        member->has_offset = true;
        break;
    case SpvDecorationMatrixStride:
        member->matrix_stride = w[4];
        break;
    case SpvDecorationRowMajor:
        member->row_major = true;
        break;
    case SpvDecorationBuiltIn:
        member->builtin = w[4];
        break;
    case SpvDecorationCoherent:
    case SpvDecorationVolatile:
        member->coherent = true;
        break;
    case SpvDecorationNonReadable:
        member->non_readable = true;
        break;
    default:
        break;
    }
}

/* --- Types ------------------------------------------------------------------ */

static bool define_type(struct spv_module *m, const struct spv_insn *insn, struct spv_error *error)
{
    const uint32_t *w = spv_words(m, insn);
    uint32_t result = w[1];
    if (insn->opcode == SpvOpTypeForwardPointer)
        return true; /* the OpTypePointer comes later */
    struct spv_type *type = calloc(1, sizeof(*type));
    if (!type)
        return spv_fail(error, "out of memory");
    m->ids[result].kind = SPV_ID_TYPE;
    m->ids[result].type_info = type;
    switch (insn->opcode) {
    case SpvOpTypeVoid:
        type->kind = SPV_TYPE_VOID;
        break;
    case SpvOpTypeBool:
        type->kind = SPV_TYPE_BOOL;
        type->width = 32;
        break;
    case SpvOpTypeInt:
        type->kind = SPV_TYPE_INT;
        type->width = w[2];
        type->is_signed = w[3] != 0;
        break;
    case SpvOpTypeFloat:
        type->kind = SPV_TYPE_FLOAT;
        type->width = w[2];
        break;
    case SpvOpTypeVector:
    case SpvOpTypeMatrix:
        type->kind = insn->opcode == SpvOpTypeVector ? SPV_TYPE_VECTOR : SPV_TYPE_MATRIX;
        type->element = w[2];
        type->count = w[3];
        break;
    case SpvOpTypeArray: {
        type->kind = SPV_TYPE_ARRAY;
        type->element = w[2];
        /* The length is a constant (spec constants are frozen by now). */
        const struct spv_id *length = &m->ids[w[3]];
        if (length->kind != SPV_ID_CONSTANT || m->insns[length->insn].opcode != SpvOpConstant)
            return spv_fail(error, "array length %%%u is not a constant", w[3]);
        type->count = spv_words(m, &m->insns[length->insn])[3];
        type->array_stride = m->ids[result].array_stride;
        break;
    }
    case SpvOpTypeRuntimeArray:
        type->kind = SPV_TYPE_RUNTIME_ARRAY;
        type->element = w[2];
        type->array_stride = m->ids[result].array_stride;
        break;
    case SpvOpTypeStruct:
        type->kind = SPV_TYPE_STRUCT;
        type->member_count = insn->word_count - 2u;
        type->members = calloc(type->member_count ? type->member_count : 1, sizeof(struct spv_member));
        if (!type->members)
            return spv_fail(error, "out of memory");
        for (uint32_t i = 0; i < type->member_count; i++) {
            type->members[i].type = w[2 + i];
            type->members[i].builtin = SpvBuiltInMax;
        }
        break;
    case SpvOpTypePointer:
        type->kind = SPV_TYPE_POINTER;
        type->storage_class = w[2];
        type->element = w[3];
        type->array_stride = m->ids[result].array_stride;
        break;
    case SpvOpTypeFunction:
        type->kind = SPV_TYPE_FUNCTION;
        type->element = w[2];
        break;
    case SpvOpTypeImage:
        type->kind = SPV_TYPE_IMAGE;
        type->element = w[2];
        type->image = (struct spv_image_type){ w[3], w[4], w[5] != 0, w[6] != 0, w[7], w[8] };
        break;
    case SpvOpTypeSampler:
        type->kind = SPV_TYPE_SAMPLER;
        break;
    case SpvOpTypeSampledImage:
        type->kind = SPV_TYPE_SAMPLED_IMAGE;
        type->element = w[2];
        break;
    default:
        return spv_fail(error, "unsupported type instruction Op%u at word %u (vkmm supports compute types only)",
                        insn->opcode, insn->offset);
    }
    return true;
}

/* --- Module walk --------------------------------------------------------------- */

static bool find_entry_point(struct spv_module *m, const char *entry_name, struct spv_error *error)
{
    for (uint32_t i = 0; i < m->insn_count; i++) {
        const struct spv_insn *insn = &m->insns[i];
        if (insn->opcode != SpvOpEntryPoint)
            continue;
        const uint32_t *w = spv_words(m, insn);
        const char *name = (const char *)&w[3];
        size_t max = (insn->word_count - 3u) * 4u;
        if (w[1] == SpvExecutionModelGLCompute && strnlen(name, max) < max && strcmp(name, entry_name) == 0) {
            m->entry_function = w[2];
            return true;
        }
    }
    return spv_fail(error, "no GLCompute entry point named '%s'", entry_name);
}

static void execution_mode(struct spv_module *m, const struct spv_insn *insn)
{
    const uint32_t *w = spv_words(m, insn);
    if (w[1] != m->entry_function)
        return;
    if (w[2] == SpvExecutionModeLocalSize) {
        for (int i = 0; i < 3; i++)
            m->local_size[i] = w[3 + i];
    } else if (w[2] == SpvExecutionModeLocalSizeId) {
        for (int i = 0; i < 3; i++)
            m->local_size_ids[i] = w[3 + i];
    }
}

static bool is_block_terminator(uint16_t opcode)
{
    switch (opcode) {
    case SpvOpBranch:
    case SpvOpBranchConditional:
    case SpvOpSwitch:
    case SpvOpReturn:
    case SpvOpReturnValue:
    case SpvOpUnreachable:
    case SpvOpKill:
    case SpvOpTerminateInvocation:
        return true;
    default:
        return false;
    }
}

static bool add_variable(struct spv_module *m, uint32_t id, uint32_t pointer_type, struct spv_error *error)
{
    struct spv_variable *grown = realloc(m->variables, (m->variable_count + 1) * sizeof(*grown));
    if (!grown)
        return spv_fail(error, "out of memory");
    m->variables = grown;
    const struct spv_type *type = spv_type(m, pointer_type);
    m->ids[id].variable = m->variable_count;
    m->variables[m->variable_count++] = (struct spv_variable){
        .id = id,
        .storage_class = type->storage_class,
        .pointee = type->element,
    };
    return true;
}

static bool read_function(struct spv_module *m, uint32_t start, struct spv_error *error)
{
    uint32_t line = 0;
    struct spv_block *current = NULL;
    m->blocks = calloc(m->insn_count, sizeof(struct spv_block));
    m->block_of_label = calloc(m->bound, sizeof(uint32_t));
    if (!m->blocks || !m->block_of_label)
        return spv_fail(error, "out of memory");
    for (uint32_t i = start; i < m->insn_count; i++) {
        struct spv_insn *insn = &m->insns[i];
        const uint32_t *w = spv_words(m, insn);
        insn->line = line;
        switch (insn->opcode) {
        case SpvOpFunctionEnd:
            return true;
        case SpvOpFunctionCall:
            return spv_fail(error, "OpFunctionCall at word %u survived inlining (recursion is not supported)",
                            insn->offset);
        case SpvOpLine:
            line = w[2];
            continue;
        case SpvOpNoLine:
            line = 0;
            continue;
        case SpvOpLabel:
            current = &m->blocks[m->block_count++];
            current->label = w[1];
            current->first = i + 1;
            m->block_of_label[w[1]] = m->block_count;
            m->ids[w[1]].kind = SPV_ID_LABEL;
            continue;
        case SpvOpSelectionMerge:
            if (current)
                current->merge = w[1];
            break;
        case SpvOpLoopMerge:
            if (current) {
                current->merge = w[1];
                current->continue_target = w[2];
            }
            break;
        case SpvOpVariable:
            if (!add_variable(m, w[2], w[1], error))
                return false;
            m->ids[w[2]].kind = SPV_ID_VARIABLE;
            break;
        default:
            break;
        }
        if (insn->result_id && m->ids[insn->result_id].kind == SPV_ID_NONE) {
            m->ids[insn->result_id].kind = SPV_ID_VALUE;
            m->ids[insn->result_id].insn = i;
            m->ids[insn->result_id].type = insn->result_type;
            m->ids[insn->result_id].block = current ? (uint32_t)(current - m->blocks) : 0;
        }
        if (current && is_block_terminator(insn->opcode))
            current->last = i;
    }
    return spv_fail(error, "function without OpFunctionEnd");
}

static bool walk(struct spv_module *m, struct spv_error *error)
{
    for (uint32_t i = 0; i < m->insn_count; i++) {
        struct spv_insn *insn = &m->insns[i];
        const uint32_t *w = spv_words(m, insn);
        if (insn->result_id) {
            m->ids[insn->result_id].insn = i;
            m->ids[insn->result_id].type = insn->result_type;
        }
        switch (insn->opcode) {
        case SpvOpCapability:
            if (!capability_supported(w[1]))
                return spv_fail(error, "unsupported SPIR-V capability %u at word %u", w[1], insn->offset);
            break;
        case SpvOpExtInstImport:
            m->ids[w[1]].kind = SPV_ID_EXT_INST_SET;
            if (strcmp((const char *)&w[2], "GLSL.std.450") == 0)
                m->glsl_std_450 = w[1];
            break;
        case SpvOpMemoryModel:
            m->uses_vulkan_memory_model = w[2] == SpvMemoryModelVulkan;
            break;
        case SpvOpExecutionMode:
        case SpvOpExecutionModeId:
            execution_mode(m, insn);
            break;
        case SpvOpName:
            if (w[1] < m->bound)
                m->ids[w[1]].name = (const char *)&w[2];
            break;
        case SpvOpString:
            m->ids[w[1]].kind = SPV_ID_STRING;
            break;
        case SpvOpDecorate:
            decorate(m, w, insn->word_count);
            break;
        case SpvOpConstant:
        case SpvOpConstantTrue:
        case SpvOpConstantFalse:
        case SpvOpConstantComposite:
        case SpvOpConstantNull:
        case SpvOpUndef:
            m->ids[w[2]].kind = SPV_ID_CONSTANT;
            break;
        case SpvOpSpecConstantComposite:
            /* SPIRV-Tools folds no composite with an OpUndef constituent
             * (CTS opundef.undefined_spec_constant_composite): one whose
             * constituents are all constants is a constant composite. */
            if (constituents_constant(m, w, insn->word_count)) {
                m->ids[w[2]].kind = SPV_ID_CONSTANT;
                break;
            }
            /* fall through */
        case SpvOpSpecConstant:
        case SpvOpSpecConstantTrue:
        case SpvOpSpecConstantFalse:
        case SpvOpSpecConstantOp:
            return spv_fail(error, "specialization constant %%%u at word %u was not folded (unsupported operation)",
                            w[2], insn->offset);
        case SpvOpVariable:
            m->ids[w[2]].kind = SPV_ID_VARIABLE;
            if (!add_variable(m, w[2], w[1], error))
                return false;
            break;
        case SpvOpFunction:
            m->ids[w[2]].kind = SPV_ID_FUNCTION;
            if (w[2] == m->entry_function && !read_function(m, i + 1, error))
                return false;
            break;
        default:
            if (insn->opcode >= SpvOpTypeVoid && insn->opcode <= SpvOpTypeForwardPointer &&
                !define_type(m, insn, error))
                return false;
            break;
        }
    }
    return true;
}

/* Decorations on types (ArrayStride) must reach the type records, and
 * member decorations need the struct records: a second pass. */
static void apply_type_decorations(struct spv_module *m)
{
    for (uint32_t i = 0; i < m->insn_count; i++) {
        const struct spv_insn *insn = &m->insns[i];
        const uint32_t *w = spv_words(m, insn);
        if (insn->opcode == SpvOpMemberDecorate)
            member_decorate(m, w);
        if (insn->opcode == SpvOpDecorate && spv_type(m, w[1])) {
            struct spv_type *type = spv_type(m, w[1]);
            if (w[2] == SpvDecorationArrayStride)
                type->array_stride = w[3];
            if (w[2] == SpvDecorationBlock)
                type->block = true;
            if (w[2] == SpvDecorationBufferBlock)
                type->buffer_block = true;
        }
    }
}

/* WorkgroupSize builtin constants and LocalSizeId override LocalSize. */
static bool resolve_local_size(struct spv_module *m, struct spv_error *error)
{
    for (uint32_t id = 1; id < m->bound; id++) {
        if (m->ids[id].kind == SPV_ID_CONSTANT && m->ids[id].builtin == SpvBuiltInWorkgroupSize)
            m->workgroup_size_constant = id;
    }
    uint32_t components[3] = { m->local_size_ids[0], m->local_size_ids[1], m->local_size_ids[2] };
    if (m->workgroup_size_constant) {
        const uint32_t *w = spv_words(m, &m->insns[m->ids[m->workgroup_size_constant].insn]);
        for (int i = 0; i < 3; i++)
            components[i] = w[3 + i];
    }
    for (int i = 0; i < 3; i++) {
        if (!components[i])
            continue;
        const struct spv_id *c = &m->ids[components[i]];
        if (c->kind != SPV_ID_CONSTANT || m->insns[c->insn].opcode != SpvOpConstant)
            return spv_fail(error, "workgroup size component %d is not a constant", i);
        m->local_size[i] = spv_words(m, &m->insns[c->insn])[3];
    }
    uint64_t total = (uint64_t)m->local_size[0] * m->local_size[1] * m->local_size[2];
    if (total == 0 || total > 1024)
        return spv_fail(error, "workgroup size %ux%ux%u is outside 1..1024 invocations", m->local_size[0],
                        m->local_size[1], m->local_size[2]);
    return true;
}

bool spv_module_parse(struct spv_module *m, const uint32_t *words, size_t word_count, const char *entry_name,
                      struct spv_error *error)
{
    memset(m, 0, sizeof(*m));
    m->words = words;
    m->word_count = word_count;
    struct parse_state state = { .m = m, .error = error };
    spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_3);
    spv_diagnostic diagnostic = NULL;
    spv_result_t result = spvBinaryParse(context, &state, words, word_count, on_header, on_instruction, &diagnostic);
    if (result != SPV_SUCCESS)
        spv_fail(error, "SPIR-V parse failed: %s", diagnostic && diagnostic->error ? diagnostic->error : "error");
    spvDiagnosticDestroy(diagnostic);
    spvContextDestroy(context);
    if (result != SPV_SUCCESS)
        return false;
    for (uint32_t id = 0; id < m->bound; id++)
        m->ids[id].builtin = SpvBuiltInMax;
    if (!find_entry_point(m, entry_name, error) || !walk(m, error))
        return false;
    apply_type_decorations(m);
    if (!m->block_count)
        return spv_fail(error, "entry point has no body");
    return resolve_local_size(m, error);
}

void spv_module_free(struct spv_module *m)
{
    if (m->ids) {
        for (uint32_t id = 0; id < m->bound; id++) {
            if (m->ids[id].type_info) {
                free(m->ids[id].type_info->members);
                free(m->ids[id].type_info);
            }
        }
    }
    free(m->ids);
    free(m->insns);
    free(m->id_operand_words);
    free(m->blocks);
    free(m->block_of_label);
    free(m->variables);
    memset(m, 0, sizeof(*m));
}
