/* What lower_memory.c and lower_monitor.c share: where a leaf access goes,
 * and strict mode's hooks on it. */
#pragma once

#include "spirv_private.h"

struct place {
    struct tr_pointer pointer;
    enum spv_storage_kind kind;
    bool explicit_layout;
    bool uniform;        /* every lane's address is the same (known at compile time) */
    uint32_t pointer_id; /* the SPIR-V pointer accessed (for the workgroup monitor) */
};

/* The monitors' hooks before an access of Workgroup storage and of device
 * memory: they return the addresses the lanes must use. */
LLVMValueRef spv_monitor_workgroup_access(struct tr *t, uint32_t pointer_id, LLVMValueRef addresses, LLVMValueRef mask,
                                          unsigned size, unsigned flags);
LLVMValueRef spv_monitor_device_access(struct tr *t, uint32_t pointer_id, LLVMValueRef addresses, LLVMValueRef mask,
                                       unsigned size, unsigned flags);
/* Legacy Coherent accesses: availability after a store, visibility before
 * a load, at device scope. */
void spv_fence_coherent(struct tr *t, const struct place *at, bool store);
/* The constant an id names (scopes and semantics are constants). */
uint32_t spv_constant_of(const struct spv_module *m, uint32_t id);

/* Pointer values, layout and sizes (lower_memory.c), for the access
 * chains (lower_access_chain.c). */
struct tr_pointer spv_unpack_pointer(struct tr *t, LLVMValueRef value);
/* Natural offset of member `index` of a struct, and the natural stride of
 * an array of `element` (storage without explicit layout). */
uint32_t spv_natural_member_offset(struct tr *t, const struct spv_type *type, uint32_t index);
uint32_t spv_natural_stride(struct tr *t, uint32_t element);
/* Bytes of one scalar in memory (booleans take 4). */
unsigned spv_scalar_bytes(const struct spv_type *type);

/* OpAccessChain and its kin, OpArrayLength, and OpBitcast of pointers. */
bool spv_translate_access_chain(struct tr *t, const struct spv_insn *insn, const uint32_t *w);
bool spv_translate_array_length(struct tr *t, const uint32_t *w);
bool spv_translate_pointer_bitcast(struct tr *t, const uint32_t *w);
