/* Code generation for the host CPU: an optimised module becomes an object
 * file (kept by the pipeline cache), and objects are loaded into ORC LLJIT. */
#pragma once

#include <stddef.h>

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

struct vkmm_jit_module;

/* A target machine for the host CPU (with all its vector features). */
LLVMTargetMachineRef vkmm_jit_target_machine(void);
/* Optimises `module` (level 0..3) for the host. */
void vkmm_jit_optimize(LLVMModuleRef module, LLVMTargetMachineRef machine, int level);
/* Emits `module` as an object file into a malloc'ed buffer. */
int vkmm_jit_emit_object(LLVMModuleRef module, LLVMTargetMachineRef machine, void **object, size_t *size,
                         char *error, size_t error_size);
/* Links an object file and returns the address of `symbol`. */
struct vkmm_jit_module *vkmm_jit_load_object(const void *object, size_t size, const char *symbol, void **address,
                                             char *error, size_t error_size);
void vkmm_jit_module_free(struct vkmm_jit_module *jit);
