#include "jit.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>

struct vkmm_jit_module {
    LLVMOrcLLJITRef jit;
};

static pthread_once_t initialized = PTHREAD_ONCE_INIT;

/* Half-precision conversions that LLVM lowers to libcalls on x86 (double to
 * half above all: no instruction does it in one correctly rounded step).
 * libgcc_s has them since GCC 12, but nothing may have loaded it with
 * global visibility, so they are looked up there and handed to each JIT. */
static const char *const half_libcalls[] = { "__truncdfhf2", "__truncsfhf2", "__extendhfsf2", "__extendhfdf2" };
#define HALF_LIBCALL_COUNT (sizeof(half_libcalls) / sizeof(half_libcalls[0]))
static void *half_libcall_address[HALF_LIBCALL_COUNT];

static void initialize(void)
{
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    void *libgcc = dlopen("libgcc_s.so.1", RTLD_NOW | RTLD_LOCAL);
    for (size_t i = 0; libgcc && i < HALF_LIBCALL_COUNT; i++)
        half_libcall_address[i] = dlsym(libgcc, half_libcalls[i]);
}

/* Defines the half conversion libcalls found in libgcc_s in `dylib`. */
static LLVMErrorRef define_half_libcalls(LLVMOrcLLJITRef jit, LLVMOrcJITDylibRef dylib)
{
    LLVMOrcCSymbolMapPair pairs[HALF_LIBCALL_COUNT];
    size_t count = 0;
    LLVMOrcExecutionSessionRef session = LLVMOrcLLJITGetExecutionSession(jit);
    for (size_t i = 0; i < HALF_LIBCALL_COUNT; i++) {
        if (!half_libcall_address[i])
            continue;
        pairs[count++] = (LLVMOrcCSymbolMapPair){
            .Name = LLVMOrcExecutionSessionIntern(session, half_libcalls[i]),
            .Sym = { .Address = (LLVMOrcExecutorAddress)(uintptr_t)half_libcall_address[i],
                     .Flags = { .GenericFlags = LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable } },
        };
    }
    if (!count)
        return NULL;
    /* The materialization unit takes the names' references. */
    return LLVMOrcJITDylibDefine(dylib, LLVMOrcAbsoluteSymbols(pairs, count));
}

LLVMTargetMachineRef vkmm_jit_target_machine(void)
{
    pthread_once(&initialized, initialize);
    char *triple = LLVMGetDefaultTargetTriple();
    char *cpu = LLVMGetHostCPUName();
    char *features = LLVMGetHostCPUFeatures();
    LLVMTargetRef target = NULL;
    char *message = NULL;
    LLVMTargetMachineRef machine = NULL;
    /* PIC: the linker reaches far symbols (libm) through a GOT. */
    if (LLVMGetTargetFromTriple(triple, &target, &message) == 0)
        machine = LLVMCreateTargetMachine(target, triple, cpu, features, LLVMCodeGenLevelAggressive, LLVMRelocPIC,
                                          LLVMCodeModelDefault);
    LLVMDisposeMessage(message);
    LLVMDisposeMessage(triple);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    return machine;
}

void vkmm_jit_optimize(LLVMModuleRef module, LLVMTargetMachineRef machine, int level)
{
    static const char *pipelines[] = { "default<O0>", "default<O1>", "default<O2>", "default<O3>" };
    if (level < 0)
        level = 0;
    if (level > 3)
        level = 3;
    LLVMPassBuilderOptionsRef options = LLVMCreatePassBuilderOptions();
    LLVMErrorRef error = LLVMRunPasses(module, pipelines[level], machine, options);
    if (error)
        LLVMConsumeError(error);
    LLVMDisposePassBuilderOptions(options);
}

int vkmm_jit_emit_object(LLVMModuleRef module, LLVMTargetMachineRef machine, void **object, size_t *size,
                         char *error, size_t error_size)
{
    char *message = NULL;
    LLVMMemoryBufferRef buffer = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(machine, module, LLVMObjectFile, &message, &buffer)) {
        snprintf(error, error_size, "code generation failed: %s", message ? message : "?");
        LLVMDisposeMessage(message);
        return -1;
    }
    *size = LLVMGetBufferSize(buffer);
    *object = malloc(*size);
    if (*object)
        memcpy(*object, LLVMGetBufferStart(buffer), *size);
    LLVMDisposeMemoryBuffer(buffer);
    if (!*object) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    return 0;
}

static void take_error(LLVMErrorRef error, char *out, size_t size)
{
    char *text = LLVMGetErrorMessage(error);
    snprintf(out, size, "JIT: %s", text);
    LLVMDisposeErrorMessage(text);
}

struct vkmm_jit_module *vkmm_jit_load_object(const void *object, size_t size, const char *symbol, void **address,
                                             char *error, size_t error_size)
{
    pthread_once(&initialized, initialize);
    struct vkmm_jit_module *jit = calloc(1, sizeof(*jit));
    if (!jit) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    LLVMErrorRef err = LLVMOrcCreateLLJIT(&jit->jit, NULL);
    if (err) {
        take_error(err, error, error_size);
        free(jit);
        return NULL;
    }
    LLVMOrcJITDylibRef dylib = LLVMOrcLLJITGetMainJITDylib(jit->jit);
    /* Generated code may call libm (sinf, ...) and memset/memcpy. */
    LLVMOrcDefinitionGeneratorRef generator = NULL;
    err = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&generator, LLVMOrcLLJITGetGlobalPrefix(jit->jit),
                                                               NULL, NULL);
    if (!err) {
        LLVMOrcJITDylibAddGenerator(dylib, generator);
        err = define_half_libcalls(jit->jit, dylib);
    }
    if (!err) {
        LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(object, size, "vkmm_shader");
        err = LLVMOrcLLJITAddObjectFile(jit->jit, dylib, buffer);
    }
    LLVMOrcExecutorAddress found = 0;
    if (!err)
        err = LLVMOrcLLJITLookup(jit->jit, &found, symbol);
    if (err) {
        take_error(err, error, error_size);
        vkmm_jit_module_free(jit);
        return NULL;
    }
    *address = (void *)(uintptr_t)found;
    return jit;
}

void vkmm_jit_module_free(struct vkmm_jit_module *jit)
{
    if (!jit)
        return;
    LLVMOrcDisposeLLJIT(jit->jit);
    free(jit);
}
