/* libFuzzer target: generated code, executed.  Each input is a SPIR-V
 * module — a corpus shader changed by the structure-aware mutator
 * (spirv_mutator.c) — that spirv-val must accept, or it is skipped.  The
 * module is compiled with optimisation at W = 8 with both kinds of code
 * generation (the fast kind, and the strict kind with access tracking,
 * memory monitors and loop polling): the process's mode (VKMM_MODE) through
 * the ICD, the other by vkmm_compile.  Then a few workgroups run on small
 * buffers through the ICD.  Wrong answers cannot be told for a mutated
 * module; what must hold is that nothing crashes, leaks or trips a
 * sanitizer — every access stays inside its binding — and that a runaway
 * dispatch ends by the watchdog (VK_ERROR_DEVICE_LOST: the device is then
 * made anew). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libspirv.h defines (not declares) a const in C: renamed here, as the
 * compiler's spirv_parse.c has the original. */
#define kDefaultMaxIdBound fuzz_exec_max_id_bound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound
#include <spirv/unified1/spirv.h>

#include "compiler.h"
#include "fuzz_vk.h"
#include "spirv_mutator.h"
#include "vkmm/vkmm.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

#define MAX_SETS 4
#define MAX_BINDINGS 8
#define BUFFER_SIZE 1024

static struct fuzz_vk vk;
static spv_context validator;

/* What the module's resources need: per (set, binding) a descriptor type
 * (0: unused), and whether it has push constants. */
struct resources {
    const char *entry_point;
    char entry_name[64];
    VkDescriptorType types[MAX_SETS][MAX_BINDINGS];
    bool used[MAX_SETS][MAX_BINDINGS];
    uint32_t set_count;
    bool push_constants;
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_vk_init(&vk, NULL);
    validator = spvContextCreate(SPV_ENV_VULKAN_1_3);
    return 0;
}

/* Only the instruction stream changes: byte-level mutations would make
 * nearly every module invalid (the validator's job is fuzz_spirv's). */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    (void)max_size;
    size_t mutated = spirv_mutate_bytes(data, size, seed);
    return mutated ? mutated : size;
}

static bool valid(const uint32_t *words, size_t count)
{
    spv_const_binary_t binary = { words, count };
    spv_diagnostic diagnostic = NULL;
    spv_result_t result = spvValidate(validator, &binary, &diagnostic);
    spvDiagnosticDestroy(diagnostic);
    return result == SPV_SUCCESS;
}

/* Per id, what the reflection below needs. */
struct ids {
    uint32_t *set, *binding;    /* decorations, +1 (0: none) */
    uint8_t *block;             /* 1 Block, 2 BufferBlock */
    uint32_t *pointer_class, *pointee; /* OpTypePointer */
    uint16_t *opcode;           /* defining opcode of types */
};

static bool reflect_variable(const struct ids *ids, const uint32_t *in, struct resources *r)
{
    uint32_t type = in[1], id = in[2], storage = in[3];
    if (storage == SpvStorageClassPushConstant) {
        r->push_constants = true;
        return true;
    }
    bool buffer = storage == SpvStorageClassStorageBuffer || storage == SpvStorageClassUniform;
    if (!buffer && storage != SpvStorageClassUniformConstant)
        return true;                  /* Private, Workgroup, Function, Input: no descriptor */
    if (!buffer || !ids->set[id] || !ids->binding[id])
        return false;                 /* images and samplers: not fuzzed here */
    uint32_t pointee = ids->pointee[type];
    if (ids->opcode[pointee] != SpvOpTypeStruct)
        return false;                 /* arrays of blocks */
    uint32_t set = ids->set[id] - 1, binding = ids->binding[id] - 1;
    if (set >= MAX_SETS || binding >= MAX_BINDINGS)
        return false;
    VkDescriptorType kind = storage == SpvStorageClassUniform && ids->block[pointee] == 1
                                ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    if (r->used[set][binding] && r->types[set][binding] != kind)
        return false;
    r->used[set][binding] = true;
    r->types[set][binding] = kind;
    if (set + 1 > r->set_count)
        r->set_count = set + 1;
    return true;
}

static void reflect_annotation(struct ids *ids, const uint32_t *in, uint16_t length, uint32_t bound,
                               struct resources *r)
{
    uint16_t op = in[0] & 0xffff;
    if (op == SpvOpEntryPoint && length >= 4 && in[1] == SpvExecutionModelGLCompute && !r->entry_point) {
        size_t room = (size_t)(length - 3) * 4;
        size_t n = strnlen((const char *)&in[3], room < sizeof(r->entry_name) ? room : sizeof(r->entry_name));
        if (n < sizeof(r->entry_name)) {
            memcpy(r->entry_name, &in[3], n);
            r->entry_name[n] = 0;
            r->entry_point = r->entry_name;
        }
    } else if (op == SpvOpDecorate && length >= 3 && in[1] < bound) {
        if (in[2] == SpvDecorationDescriptorSet && length >= 4)
            ids->set[in[1]] = in[3] + 1;
        else if (in[2] == SpvDecorationBinding && length >= 4)
            ids->binding[in[1]] = in[3] + 1;
        else if (in[2] == SpvDecorationBlock)
            ids->block[in[1]] = 1;
        else if (in[2] == SpvDecorationBufferBlock)
            ids->block[in[1]] = 2;
    } else if (op == SpvOpTypePointer && length >= 4 && in[1] < bound && in[3] < bound) {
        ids->pointer_class[in[1]] = in[2];
        ids->pointee[in[1]] = in[3];
        ids->opcode[in[1]] = op;
    } else if (op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer && length >= 2 && in[1] < bound) {
        ids->opcode[in[1]] = op;
    }
}

/* The descriptor layout a (valid) module needs, or false when it uses
 * what this target does not provide. */
static bool reflect(const uint32_t *words, size_t count, struct resources *r)
{
    uint32_t bound = words[3];
    if (bound > (1u << 20))
        return false;
    struct ids ids = {
        calloc(bound, 4), calloc(bound, 4), calloc(bound, 1), calloc(bound, 4), calloc(bound, 4), calloc(bound, 2),
    };
    bool ok = ids.set && ids.binding && ids.block && ids.pointer_class && ids.pointee && ids.opcode;
    for (size_t at = 5; ok && at < count; at += words[at] >> 16) {
        uint16_t length = words[at] >> 16;
        if ((words[at] & 0xffff) == SpvOpVariable && length >= 4 && words[at + 1] < bound && words[at + 2] < bound)
            ok = reflect_variable(&ids, &words[at], r);
        else
            reflect_annotation(&ids, &words[at], length, bound, r);
    }
    free(ids.set), free(ids.binding), free(ids.block), free(ids.pointer_class), free(ids.pointee), free(ids.opcode);
    return ok && r->entry_point;
}

/* The Vulkan objects of one input. */
struct run {
    VkShaderModule module;
    VkDescriptorSetLayout set_layouts[MAX_SETS];
    VkPipelineLayout layout;
    VkDescriptorPool pool;
    VkDescriptorSet sets[MAX_SETS];
    struct fuzz_buffer buffers[MAX_SETS][MAX_BINDINGS];
    VkPipeline pipeline;
};

static void create_layouts(const struct resources *r, struct run *run)
{
    for (uint32_t s = 0; s < r->set_count; s++) {
        VkDescriptorSetLayoutBinding bindings[MAX_BINDINGS];
        uint32_t n = 0;
        for (uint32_t b = 0; b < MAX_BINDINGS; b++) {
            if (r->used[s][b])
                bindings[n++] = (VkDescriptorSetLayoutBinding){ b, r->types[s][b], 1, VK_SHADER_STAGE_COMPUTE_BIT,
                                                                NULL };
        }
        VkDescriptorSetLayoutCreateInfo info = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = n, .pBindings = bindings,
        };
        FUZZ_CHECK(vkCreateDescriptorSetLayout(vk.device, &info, NULL, &run->set_layouts[s]));
    }
    VkPushConstantRange push = { VK_SHADER_STAGE_COMPUTE_BIT, 0, vk.properties.limits.maxPushConstantsSize };
    VkPipelineLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = r->set_count,
        .pSetLayouts = run->set_layouts, .pushConstantRangeCount = r->push_constants, .pPushConstantRanges = &push,
    };
    FUZZ_CHECK(vkCreatePipelineLayout(vk.device, &info, NULL, &run->layout));
}

/* Buffers of small numbers, from the input's hash: data-dependent loop
 * bounds and indices stay modest. */
static void fill(void *mapped, uint32_t seed)
{
    uint32_t *words = mapped;
    for (uint32_t i = 0; i < BUFFER_SIZE / 4; i++)
        words[i] = (seed + i * 2654435761u) >> 28;
}

static void create_sets(const struct resources *r, struct run *run, uint32_t seed)
{
    VkDescriptorPoolSize sizes[2] = { { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, MAX_SETS * MAX_BINDINGS },
                                      { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, MAX_SETS * MAX_BINDINGS } };
    VkDescriptorPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = MAX_SETS, .poolSizeCount = 2,
        .pPoolSizes = sizes,
    };
    FUZZ_CHECK(vkCreateDescriptorPool(vk.device, &pool, NULL, &run->pool));
    if (r->set_count) {
        VkDescriptorSetAllocateInfo alloc = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = run->pool,
            .descriptorSetCount = r->set_count, .pSetLayouts = run->set_layouts,
        };
        FUZZ_CHECK(vkAllocateDescriptorSets(vk.device, &alloc, run->sets));
    }
    for (uint32_t s = 0; s < r->set_count; s++) {
        for (uint32_t b = 0; b < MAX_BINDINGS; b++) {
            if (!r->used[s][b])
                continue;
            struct fuzz_buffer *buffer = &run->buffers[s][b];
            fuzz_buffer_create(&vk, BUFFER_SIZE,
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, buffer);
            fill(buffer->mapped, seed + s * MAX_BINDINGS + b);
            VkDescriptorBufferInfo info = { buffer->buffer, 0, VK_WHOLE_SIZE };
            VkWriteDescriptorSet write = {
                .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = run->sets[s], .dstBinding = b,
                .descriptorCount = 1, .descriptorType = r->types[s][b], .pBufferInfo = &info,
            };
            vkUpdateDescriptorSets(vk.device, 1, &write, 0, NULL);
        }
    }
}

static void destroy_run(struct run *run)
{
    vkDestroyPipeline(vk.device, run->pipeline, NULL);
    for (uint32_t s = 0; s < MAX_SETS; s++) {
        for (uint32_t b = 0; b < MAX_BINDINGS; b++) {
            if (run->buffers[s][b].buffer)
                fuzz_buffer_destroy(&vk, &run->buffers[s][b]);
        }
        vkDestroyDescriptorSetLayout(vk.device, run->set_layouts[s], NULL);
    }
    vkDestroyDescriptorPool(vk.device, run->pool, NULL);
    vkDestroyPipelineLayout(vk.device, run->layout, NULL);
    vkDestroyShaderModule(vk.device, run->module, NULL);
}

/* The other mode's code generation, straight through the compiler (the
 * ICD generates only its process's mode), with the pipeline's options. */
static void compile_other_mode(const uint32_t *words, size_t count, const struct resources *r)
{
    struct vkmm_compile_binding bindings[MAX_SETS][MAX_BINDINGS];
    struct vkmm_compile_set sets[MAX_SETS];
    uint32_t first = 0;
    for (uint32_t s = 0; s < r->set_count; s++) {
        sets[s] = (struct vkmm_compile_set){ 0, bindings[s] };
        for (uint32_t b = 0; b < MAX_BINDINGS; b++) {
            if (r->used[s][b])
                bindings[s][sets[s].binding_count++] = (struct vkmm_compile_binding){ b, first++, 1 };
        }
    }
    int strict = vkmm_mode() != VKMM_MODE_STRICT;
    struct vkmm_compile_options options = {
        .entry_point = r->entry_point,
        .subgroup_width = 8,
        .set_count = r->set_count,
        .sets = sets,
        .optimize = 1,
        .suspend_at_atomics = strict,
        .monitor_workgroup_memory = strict,
        .monitor_device_memory = strict,
        .poll_loops = 1,
    };
    struct vkmm_compiled_shader shader;
    char error[512];
    if (vkmm_compile(words, count, &options, &shader, error, sizeof(error)) == 0)
        vkmm_compiled_shader_free(&shader);
}

static uint32_t hash(const uint8_t *data, size_t size)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 16777619u;
    return h;
}

/* Creates the pipeline and runs 2 x 2 x 1 workgroups; false when the
 * device was lost (the watchdog ended a runaway dispatch). */
static bool execute(const uint32_t *words, size_t count, const struct resources *r, uint32_t seed)
{
    struct run run = { 0 };
    VkShaderModuleCreateInfo module = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = count * 4,
                                        .pCode = words };
    FUZZ_CHECK(vkCreateShaderModule(vk.device, &module, NULL, &run.module));
    create_layouts(r, &run);
    create_sets(r, &run, seed);
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = run.module, .pName = r->entry_point },
        .layout = run.layout,
    };
    /* vkmm may lack something a valid module uses (an extended instruction,
     * a capability): VK_ERROR_UNKNOWN, with its message. */
    VkResult result = vkCreateComputePipelines(vk.device, VK_NULL_HANDLE, 1, &info, NULL, &run.pipeline);
    FUZZ_ASSERT(result == VK_SUCCESS || result == VK_ERROR_UNKNOWN, "vkCreateComputePipelines returned %d",
                (int)result);
    if (result == VK_SUCCESS) {
        uint32_t push[64];
        for (uint32_t i = 0; i < 64; i++)
            push[i] = (seed + i * 40503u) >> 28;
        uint32_t push_size = vk.properties.limits.maxPushConstantsSize < sizeof(push)
                                 ? vk.properties.limits.maxPushConstantsSize
                                 : sizeof(push);
        result = fuzz_dispatch(&vk, run.layout, run.sets, r->set_count, run.pipeline, push,
                               r->push_constants ? push_size : 0, 2, 2, 1);
    }
    destroy_run(&run);
    return result != VK_ERROR_DEVICE_LOST;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t count = size / 4;
    if (count < 5 || count > (1u << 16))
        return 0;
    uint32_t *words = malloc(count * 4);
    if (!words)
        return 0;
    memcpy(words, data, count * 4);
    struct resources r = { 0 };
    if (words[0] == SpvMagicNumber && valid(words, count) && reflect(words, count, &r)) {
        compile_other_mode(words, count, &r);
        if (!execute(words, count, &r, hash(data, size))) {
            fuzz_vk_destroy_device(&vk);
            fuzz_vk_create_device(&vk);
        }
    }
    free(words);
    return 0;
}
