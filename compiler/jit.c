#include "jit.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
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
    if (LLVMGetTargetFromTriple(triple, &target, &message) == 0)
        machine = LLVMCreateTargetMachine(target, triple, cpu, features, LLVMCodeGenLevelAggressive,
                                          LLVMRelocDefault, LLVMCodeModelJITDefault);
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

static void take_error(LLVMErrorRef error, char *out, size_t size)
{
    char *text = LLVMGetErrorMessage(error);
    snprintf(out, size, "JIT: %s", text);
    LLVMDisposeErrorMessage(text);
}

struct vkmm_jit_module *vkmm_jit_compile(LLVMOrcThreadSafeContextRef context, LLVMModuleRef module,
                                         const char *symbol, void **address, char *error, size_t error_size)
{
    struct vkmm_jit_module *jit = calloc(1, sizeof(*jit));
    LLVMOrcThreadSafeModuleRef safe_module = LLVMOrcCreateNewThreadSafeModule(module, context);
    /* The module keeps the context alive; our reference is no longer needed. */
    LLVMOrcDisposeThreadSafeContext(context);
    if (!jit) {
        LLVMOrcDisposeThreadSafeModule(safe_module);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    LLVMTargetMachineRef machine = vkmm_jit_target_machine();
    LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder,
                                                  LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(machine));
    LLVMErrorRef err = LLVMOrcCreateLLJIT(&jit->jit, builder);
    if (err) {
        take_error(err, error, error_size);
        LLVMOrcDisposeThreadSafeModule(safe_module);
        free(jit);
        return NULL;
    }
    LLVMOrcJITDylibRef dylib = LLVMOrcLLJITGetMainJITDylib(jit->jit);
    err = LLVMOrcLLJITAddLLVMIRModule(jit->jit, dylib, safe_module);
    if (err) {
        take_error(err, error, error_size);
        LLVMOrcDisposeThreadSafeModule(safe_module);
        vkmm_jit_module_free(jit);
        return NULL;
    }
    LLVMOrcExecutorAddress found = 0;
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
