/* vkmm_compile: SPIR-V -> validated, normalised SPIR-V -> LLVM IR ->
 * optimised host code.  Debugging knobs: VKMM_DUMP_IR=1 prints the IR
 * before and after optimisation on stderr. */
#include "compiler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>

#include "jit.h"
#include "spirv_private.h"

static bool dump_ir(void)
{
    const char *dump = getenv("VKMM_DUMP_IR");
    return dump && *dump == '1';
}

/* VKMM_OPT_LEVEL=0..3 overrides LLVM's optimisation level (default 2). */
static int optimization_level(void)
{
    const char *text = getenv("VKMM_OPT_LEVEL");
    if (text && text[0] >= '0' && text[0] <= '3' && !text[1])
        return text[0] - '0';
    return 2;
}

/* Promoting the translation's slots (allocas) to registers puts a phi for
 * every slot at every merge point, and large control flow with many live
 * values turns into tens or hundreds of thousands of phis that the
 * optimiser, instruction selection and register allocation take seconds
 * to minutes over (CTS spirv_assembly opphi.nested: 226 slots, 1,557
 * blocks, 116,000 phis, two minutes; subgroups clustered i16vec4: 86 slots,
 * 980 blocks, 9 s per pipeline).  Past this product of slots and blocks
 * the module keeps its slots in memory: LLVM's O0 pipeline, then the usual
 * optimising code generator (under 1 s for those; the code is about a
 * quarter larger).  Ordinary kernels are far below it (the bench's under
 * 2,000, the image tests' under 27,000). */
#define PROMOTION_LIMIT 50000ull

static uint64_t promotion_cost(LLVMModuleRef module)
{
    uint64_t slots = 0, blocks = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(module); f; f = LLVMGetNextFunction(f)) {
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b)) {
            blocks++;
            for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
                slots += LLVMGetInstructionOpcode(i) == LLVMAlloca;
        }
    }
    return slots * blocks;
}

static int level_for(LLVMModuleRef module, bool optimize)
{
    if (!optimize)
        return 0;
    int level = optimization_level();
    if (level > 0 && promotion_cost(module) > PROMOTION_LIMIT)
        return 0;
    return level;
}

static void init_types(struct tr *t)
{
    t->i1 = LLVMInt1TypeInContext(t->context);
    t->i8 = LLVMInt8TypeInContext(t->context);
    t->i16 = LLVMInt16TypeInContext(t->context);
    t->i32 = LLVMInt32TypeInContext(t->context);
    t->i64 = LLVMInt64TypeInContext(t->context);
    t->f16 = LLVMHalfTypeInContext(t->context);
    t->f32 = LLVMFloatTypeInContext(t->context);
    t->f64 = LLVMDoubleTypeInContext(t->context);
    t->ptr = LLVMPointerTypeInContext(t->context, 0);
    t->void_type = LLVMVoidTypeInContext(t->context);
    t->mask_type = LLVMVectorType(t->i1, t->width);
    t->lane_i32 = LLVMVectorType(t->i32, t->width);
    t->lane_i64 = LLVMVectorType(t->i64, t->width);
}

static bool valid_width(unsigned width)
{
    return width == 1 || width == 4 || width == 8 || width == 16;
}

/* Builds, checks, optimises and JIT-compiles the module of `m`. */
/* Values live across a barrier, and Private and Function variables, are
 * kept in each subgroup's state, and a workgroup's states are one
 * allocation per resident workgroup at dispatch.  A shader whose states
 * would take more than this per workgroup is refused here, as a GPU driver
 * refuses a shader that does not fit (fuzz_exec found one that asked for
 * 32 GiB at its first dispatch). */
#define MAX_WORKGROUP_STATE (64ull << 20)

static bool state_fits(const struct spv_module *m, unsigned width, uint32_t state_size, struct spv_error *error)
{
    uint64_t invocations = (uint64_t)m->local_size[0] * m->local_size[1] * m->local_size[2];
    uint64_t bytes = (invocations + width - 1) / width * state_size;
    if (bytes <= MAX_WORKGROUP_STATE)
        return true;
    spv_fail(error, "the shader's variables and live values need %llu bytes per workgroup, more than the %llu vkmm "
                    "can give (%u invocations)",
             (unsigned long long)bytes, MAX_WORKGROUP_STATE, (unsigned)invocations);
    return false;
}

static int generate(struct spv_module *m, const struct vkmm_compile_options *options,
                    struct vkmm_compiled_shader *out, struct spv_error *error)
{
    LLVMOrcThreadSafeContextRef safe_context = LLVMOrcCreateNewThreadSafeContext();
    struct tr t = {
        .m = m,
        .options = options,
        .error = error,
        .width = options->subgroup_width,
        .context = LLVMOrcThreadSafeContextGetContext(safe_context),
    };
    t.module = LLVMModuleCreateWithNameInContext("vkmm_shader", t.context);
    t.builder = LLVMCreateBuilderInContext(t.context);
    LLVMTargetMachineRef machine = vkmm_jit_target_machine();
    if (!machine) {
        spv_fail(error, "no LLVM target for the host CPU");
        goto fail;
    }
    LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(machine);
    LLVMSetModuleDataLayout(t.module, layout);
    LLVMDisposeTargetData(layout);
    char *triple = LLVMGetTargetMachineTriple(machine);
    LLVMSetTarget(t.module, triple);
    LLVMDisposeMessage(triple);
    init_types(&t);

    bool translated = spv_translate(&t);
    free(t.layouts);
    free(t.last_load);
    free(t.stores);
    free(t.spin_loop);
    spv_reach_free(&t.reach);
    free(t.builtin_variable);
    free(t.builtin_component);
    t.layouts = NULL;
    if (!translated)
        goto fail;
    if (!state_fits(m, options->subgroup_width, t.state_size, error))
        goto fail;
    if (dump_ir()) {
        fprintf(stderr, "=== vkmm IR (before optimisation) ===\n");
        LLVMDumpModule(t.module);
    }
    char *message = NULL;
    if (LLVMVerifyModule(t.module, LLVMReturnStatusAction, &message)) {
        spv_fail(error, "internal compiler error: invalid IR: %.400s", message);
        LLVMDisposeMessage(message);
        goto fail;
    }
    LLVMDisposeMessage(message);
    vkmm_jit_optimize(t.module, machine, level_for(t.module, options->optimize));
    if (dump_ir()) {
        fprintf(stderr, "=== vkmm IR (optimised) ===\n");
        LLVMDumpModule(t.module);
    }
    char jit_error[256];
    int emitted = vkmm_jit_emit_object(t.module, machine, &out->object, &out->object_size, jit_error,
                                       sizeof(jit_error));
    LLVMDisposeBuilder(t.builder);
    LLVMDisposeModule(t.module);
    LLVMOrcDisposeThreadSafeContext(safe_context);
    LLVMDisposeTargetMachine(machine);
    if (emitted != 0)
        return spv_fail(error, "%s", jit_error), -1;
    out->state_size = t.state_size;
    return 0;

fail:
    if (machine)
        LLVMDisposeTargetMachine(machine);
    LLVMDisposeBuilder(t.builder);
    LLVMDisposeModule(t.module);
    LLVMOrcDisposeThreadSafeContext(safe_context);
    return -1;
}

/* What a module needs to run, read from the parsed module alone. */
static void shape_of(const struct spv_module *module, const struct vkmm_compile_options *options,
                     struct vkmm_shader_shape *shape)
{
    memset(shape, 0, sizeof(*shape));
    memcpy(shape->local_size, module->local_size, sizeof(shape->local_size));
    uint32_t invocations = module->local_size[0] * module->local_size[1] * module->local_size[2];
    shape->subgroup_width = options->subgroup_width;
    shape->subgroup_count = (invocations + options->subgroup_width - 1) / options->subgroup_width;
    shape->shared_memory_size = module->workgroup_size_bytes;
    for (uint32_t id = 1; id < module->bound; id++) {
        const struct spv_type *type = module->ids[id].type_info;
        if (type && type->kind == SPV_TYPE_POINTER && type->storage_class == SpvStorageClassPhysicalStorageBuffer)
            shape->uses_buffer_references = 1;
    }
}

static void apply_shape(struct vkmm_compiled_shader *out, const struct vkmm_shader_shape *shape)
{
    memcpy(out->local_size, shape->local_size, sizeof(out->local_size));
    out->subgroup_width = shape->subgroup_width;
    out->subgroup_count = shape->subgroup_count;
    out->shared_memory_size = shape->shared_memory_size;
    out->uses_buffer_references = shape->uses_buffer_references;
}

/* Validates, specialises and parses the module: the steps both compiling
 * and checking a cached shape take.  On success `module` and `prepared`
 * belong to the caller. */
static int parse_prepared(const uint32_t *words, size_t word_count, const struct vkmm_compile_options *options,
                          struct spv_module *module, uint32_t **prepared, struct spv_error *failure, char *error,
                          size_t error_size)
{
    memset(module, 0, sizeof(*module));
    *prepared = NULL;
    if (!valid_width(options->subgroup_width)) {
        snprintf(error, error_size, "subgroup width %u is not 1, 4, 8 or 16", options->subgroup_width);
        return -1;
    }
    size_t prepared_count = 0;
    if (vkmm_spirv_prepare(words, word_count, options->entry_point, options->spec, options->spec_count, prepared,
                           &prepared_count, error, error_size) != 0)
        return -1;
    if (!spv_module_parse(module, *prepared, prepared_count, options->entry_point, failure)) {
        snprintf(error, error_size, "%s", failure->message);
        return -1;
    }
    return 0;
}

int vkmm_compile(const uint32_t *words, size_t word_count, const struct vkmm_compile_options *options,
                 struct vkmm_compiled_shader *out, char *error, size_t error_size)
{
    struct spv_error failure = { .failed = false };
    memset(out, 0, sizeof(*out));
    struct spv_module module;
    uint32_t *prepared = NULL;
    int result = -1;
    if (parse_prepared(words, word_count, options, &module, &prepared, &failure, error, error_size) != 0) {
        /* nothing more to do: `error` says why */
    } else if (generate(&module, options, out, &failure) == 0) {
        struct vkmm_shader_shape shape;
        shape_of(&module, options, &shape);
        apply_shape(out, &shape);
        result = vkmm_compiled_shader_load(out, error, error_size);
    } else {
        snprintf(error, error_size, "%s", failure.message);
    }
    spv_module_free(&module);
    free(prepared);
    return result;
}

int vkmm_shader_shape(const uint32_t *words, size_t word_count, const struct vkmm_compile_options *options,
                      struct vkmm_shader_shape *shape, char *error, size_t error_size)
{
    struct spv_error failure = { .failed = false };
    struct spv_module module;
    uint32_t *prepared = NULL;
    int result = parse_prepared(words, word_count, options, &module, &prepared, &failure, error, error_size);
    if (result == 0)
        shape_of(&module, options, shape);
    spv_module_free(&module);
    free(prepared);
    return result;
}

/* Is the buffer variable `id` never read: NonReadable itself, or a block
 * (or array of blocks) all of whose members are? */
static bool never_read(const struct spv_module *m, uint32_t id)
{
    if (m->ids[id].non_readable)
        return true;
    const struct spv_type *pointer = spv_type(m, m->ids[id].type);
    if (!pointer || pointer->kind != SPV_TYPE_POINTER ||
        (pointer->storage_class != SpvStorageClassStorageBuffer && pointer->storage_class != SpvStorageClassUniform))
        return false;
    const struct spv_type *type = spv_type(m, pointer->element);
    while (type && (type->kind == SPV_TYPE_ARRAY || type->kind == SPV_TYPE_RUNTIME_ARRAY))
        type = spv_type(m, type->element);
    if (!type || type->kind != SPV_TYPE_STRUCT || !type->member_count)
        return false;
    for (uint32_t i = 0; i < type->member_count; i++)
        if (!type->members[i].non_readable)
            return false;
    return true;
}

uint32_t vkmm_shader_unread_bindings(const uint32_t *words, size_t word_count,
                                     const struct vkmm_compile_options *options, struct vkmm_shader_binding *out,
                                     uint32_t capacity)
{
    char error[256];
    struct spv_error failure = { .failed = false };
    struct spv_module module;
    uint32_t *prepared = NULL, count = 0;
    if (parse_prepared(words, word_count, options, &module, &prepared, &failure, error, sizeof(error)) == 0) {
        for (uint32_t id = 1; id < module.bound && count < capacity; id++)
            if (module.ids[id].kind == SPV_ID_VARIABLE && module.ids[id].has_binding && never_read(&module, id))
                out[count++] = (struct vkmm_shader_binding){ module.ids[id].set, module.ids[id].binding };
    }
    spv_module_free(&module);
    free(prepared);
    return count;
}

uint32_t vkmm_shader_atomic_storage(const uint32_t *words, size_t word_count,
                                    const struct vkmm_compile_options *options)
{
    char error[sizeof(((struct spv_error *)0)->message)];
    struct spv_error failure = { .failed = false };
    struct spv_module module;
    uint32_t *prepared = NULL;
    uint32_t storage = VKMM_ATOMICS_OFF_WORKGROUP | VKMM_ATOMICS_UNMONITORED;
    if (parse_prepared(words, word_count, options, &module, &prepared, &failure, error, sizeof(error)) == 0)
        storage = (spv_atomics_on_workgroup_only(&module) ? 0 : VKMM_ATOMICS_OFF_WORKGROUP) |
                  (spv_atomics_on_monitored_storage_only(&module) ? 0 : VKMM_ATOMICS_UNMONITORED);
    spv_module_free(&module);
    free(prepared);
    return storage;
}

int vkmm_compiled_shader_load(struct vkmm_compiled_shader *shader, char *error, size_t error_size)
{
    void *address = NULL;
    shader->jit = vkmm_jit_load_object(shader->object, shader->object_size, "vkmm_subgroup_main", &address, error,
                                       error_size);
    if (!shader->jit)
        return -1;
    shader->function = (vkmm_shader_function)address;
    return 0;
}

void vkmm_compiled_shader_free(struct vkmm_compiled_shader *shader)
{
    vkmm_jit_module_free(shader->jit);
    free(shader->object);
    memset(shader, 0, sizeof(*shader));
}
