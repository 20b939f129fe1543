#include "jit.h"

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

static void initialize(void)
{
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
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
