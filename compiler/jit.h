/* ORC LLJIT code generation for the host CPU. */
#pragma once

#include <llvm-c/Core.h>
#include <llvm-c/Orc.h>
#include <llvm-c/TargetMachine.h>

struct vkmm_jit_module;

/* A target machine for the host CPU (with all its vector features). */
LLVMTargetMachineRef vkmm_jit_target_machine(void);
/* Optimises `module` (level 0..3) for the host. */
void vkmm_jit_optimize(LLVMModuleRef module, LLVMTargetMachineRef machine, int level);
/* Compiles a module (taking ownership of it and its thread-safe context)
 * and returns the address of `symbol`; NULL and a message on failure. */
struct vkmm_jit_module *vkmm_jit_compile(LLVMOrcThreadSafeContextRef context, LLVMModuleRef module,
                                         const char *symbol, void **address, char *error, size_t error_size);
void vkmm_jit_module_free(struct vkmm_jit_module *jit);
