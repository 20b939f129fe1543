/* Strict mode's hooks in the generated code, at the one memory lowering
 * point (lower_memory.c): the calls into the workgroup- and device-memory
 * monitors with each access's scope and privacy (the device-memory
 * monitor's records are also the dispatch's exact accesses, DESIGN §3
 * "Exact accesses"), and the fences of memory semantics at their scope
 * (DESIGN §3.2). */
#include <stdio.h>
#include <stdlib.h>

#include "lower_memory.h"
#include "spirv_names.h"

/* --- Strict mode: the workgroup-memory monitor -------------------------------- */

/* The variable a pointer was derived from through access chains (or the
 * id where the chain stops: a function parameter, a loaded pointer). */
static uint32_t root_variable(struct tr *t, uint32_t pointer_id)
{
    struct spv_module *m = t->m;
    uint32_t id = pointer_id;
    for (unsigned depth = 0; depth < 64 && id < m->bound && m->ids[id].kind != SPV_ID_VARIABLE; depth++) {
        const struct spv_insn *insn = &m->insns[m->ids[id].insn];
        uint16_t op = insn->opcode;
        if (op != SpvOpAccessChain && op != SpvOpInBoundsAccessChain && op != SpvOpPtrAccessChain &&
            op != SpvOpCopyObject && op != SpvOpBitcast)
            break;
        id = spv_words(m, insn)[3];
    }
    return id;
}

/* Whether an OpLoad after the current instruction (in word order, program
 * order for straight-line code) reads through the same variable.  The
 * module's last load through each variable is found in one pass, at the
 * first question.  Out of memory: no (the read stays stale, the stalest
 * result). */
static bool read_again_later(struct tr *t, uint32_t pointer_id)
{
    struct spv_module *m = t->m;
    if (!t->current_insn || t->current_insn->opcode != SpvOpLoad)
        return false;
    if (!t->last_load) {
        t->last_load = calloc(m->bound, sizeof(*t->last_load));
        if (!t->last_load)
            return false;
        for (const struct spv_insn *insn = m->insns; insn < m->insns + m->insn_count; insn++) {
            uint32_t root = insn->opcode == SpvOpLoad ? root_variable(t, spv_words(m, insn)[3]) : m->bound;
            if (root < m->bound)
                t->last_load[root] = insn->offset + 1;
        }
    }
    uint32_t root = root_variable(t, pointer_id);
    return root < m->bound && t->last_load[root] > t->current_insn->offset + 1;
}

/* The entry function's OpStores with the variable each stores through,
 * found once per module.  False when out of memory. */
static bool list_stores(struct tr *t)
{
    struct spv_module *m = t->m;
    uint32_t count = 0;
    for (uint32_t b = 0; b < m->block_count; b++)
        for (uint32_t i = m->blocks[b].first; i < m->blocks[b].last; i++)
            count += m->insns[i].opcode == SpvOpStore && m->insns[i].word_count >= 3;
    t->stores = malloc((count ? count : 1) * sizeof(*t->stores));
    if (!t->stores)
        return false;
    for (uint32_t b = 0; b < m->block_count; b++) {
        for (uint32_t i = m->blocks[b].first; i < m->blocks[b].last; i++) {
            const struct spv_insn *insn = &m->insns[i];
            if (insn->opcode == SpvOpStore && insn->word_count >= 3)
                t->stores[t->store_count++] =
                    (struct spv_store_site){ root_variable(t, spv_words(m, insn)[1]), i, b };
        }
    }
    return true;
}

/* Can the store at instruction `store` (of block `store_block`) follow
 * the load at `load` (of `load_block`) in its invocation?  Later in one
 * block, or in a block the load's leads to without going round a loop
 * (block_reach.c): not a store in another branch than the load's (a
 * producer's store beside a consumer's load). */
static bool store_follows(struct tr *t, uint32_t load, uint32_t load_block, uint32_t store, uint32_t store_block)
{
    if (store_block == load_block)
        return store > load;
    return spv_block_reaches(t->m, &t->reach, load_block, store_block);
}

/* Whether the current OpLoad is followed in its invocation by an OpStore
 * through the same variable (store_follows): an in-place update
 * (`a[i] = a[i + 1] + 1`), whose author means every such read to come
 * before the neighbour's write.  The monitors let a racing read of this
 * kind see the newer bytes (DESIGN §3 "Manifest": the value the program
 * did not mean). */
static bool updated_after(struct tr *t, uint32_t pointer_id)
{
    struct spv_module *m = t->m;
    if (!t->current_insn || t->current_insn->opcode != SpvOpLoad || t->current_block >= m->block_count)
        return false;
    if (!t->stores && !list_stores(t))
        return false;
    uint32_t root = root_variable(t, pointer_id), load = (uint32_t)(t->current_insn - m->insns);
    for (uint32_t k = 0; k < t->store_count; k++) {
        const struct spv_store_site *store = &t->stores[k];
        if (store->root == root && store_follows(t, load, t->current_block, store->insn, store->block))
            return true;
    }
    return false;
}

/* The variable a pointer was derived from (through access chains), for the
 * monitor's reports: its OpName, or its id. */
static void root_variable_name(struct tr *t, uint32_t pointer_id, char *out, size_t size)
{
    struct spv_module *m = t->m;
    uint32_t id = root_variable(t, pointer_id);
    const char *name = id < m->bound ? m->ids[id].name : NULL;
    if (name && *name) {
        snprintf(out, size, "`%s`", name);
        return;
    }
    /* A GLSL block without an instance name: the block's name. */
    const struct spv_type *pointer = id < m->bound ? spv_type(m, m->ids[id].type) : NULL;
    uint32_t block = pointer ? pointer->element : 0;
    while (block && spv_type(m, block) &&
           (spv_type(m, block)->kind == SPV_TYPE_ARRAY || spv_type(m, block)->kind == SPV_TYPE_RUNTIME_ARRAY))
        block = spv_type(m, block)->element;
    const char *block_name = block && block < m->bound ? m->ids[block].name : NULL;
    if (block_name && *block_name)
        snprintf(out, size, "block `%s`", block_name);
    else
        snprintf(out, size, "%%%u", id);
}

/* "`tile` (OpLoad, line 18)": what the monitor says of the current
 * instruction, a constant string in the module. */
static LLVMValueRef monitor_site_text(struct tr *t, uint32_t pointer_id)
{
    char name[128], text[256];
    root_variable_name(t, pointer_id, name, sizeof(name));
    const struct spv_insn *insn = t->current_insn;
    const char *op = insn ? spv_opcode_name(insn->opcode) : "?";
    if (t->current_line)
        snprintf(text, sizeof(text), "%s (%s, line %u)", name, op, t->current_line);
    else
        snprintf(text, sizeof(text), "%s (%s at word %u)", name, op, insn ? insn->offset : 0);
    return LLVMBuildGlobalStringPtr(t->builder, text, "site");
}

/* GLSL's `coherent buffer B { ... }` decorates the block's members: the
 * variable's block (through arrays of blocks) with a Coherent member counts
 * as coherent. */
static bool block_has_coherent_member(struct tr *t, uint32_t pointer_id)
{
    struct spv_module *m = t->m;
    const struct spv_type *pointer = spv_type(m, m->ids[pointer_id].type);
    if (!pointer || pointer->kind != SPV_TYPE_POINTER)
        return false;
    const struct spv_type *type = pointer ? spv_type(m, pointer->element) : NULL;
    while (type && (type->kind == SPV_TYPE_ARRAY || type->kind == SPV_TYPE_RUNTIME_ARRAY))
        type = spv_type(m, type->element);
    if (!type || type->kind != SPV_TYPE_STRUCT)
        return false;
    for (uint32_t i = 0; i < type->member_count; i++)
        if (type->members[i].coherent)
            return true;
    return false;
}

/* Private accesses (000 "Private"): neither atomic, nor through a Coherent
 * or Volatile variable (GLSL450 memory model), nor with NonPrivatePointer
 * (Vulkan memory model).  They never communicate with another invocation
 * inside a command (DESIGN §3.2). */
static bool access_is_private(struct tr *t, uint32_t pointer_id)
{
    struct spv_module *m = t->m;
    const struct spv_insn *insn = t->current_insn;
    if (!insn)
        return false;
    if (insn->opcode == SpvOpLoad || insn->opcode == SpvOpStore) {
        const uint32_t *w = spv_words(m, insn);
        unsigned operand = insn->opcode == SpvOpLoad ? 4 : 3;
        if (insn->word_count > operand && (w[operand] & SpvMemoryAccessNonPrivatePointerMask))
            return false;
    } else if (insn->opcode != SpvOpCopyMemory) {
        return false; /* atomics; anything else is not a plain access */
    }
    uint32_t id = pointer_id;
    for (unsigned depth = 0; depth < 64 && id < m->bound; depth++) {
        if (m->ids[id].coherent || m->ids[id].volatile_)
            return false;
        if (m->ids[id].kind == SPV_ID_VARIABLE)
            return !block_has_coherent_member(t, id);
        const struct spv_insn *def = &m->insns[m->ids[id].insn];
        if (def->opcode != SpvOpAccessChain && def->opcode != SpvOpInBoundsAccessChain &&
            def->opcode != SpvOpPtrAccessChain && def->opcode != SpvOpCopyObject)
            return !block_has_coherent_member(t, id); /* a buffer reference: its pointee's members */
        id = spv_words(m, def)[3];
    }
    return true;
}

/* The constant an id names (scopes and semantics are constants). */
uint32_t spv_constant_of(const struct spv_module *m, uint32_t id)
{
    const struct spv_insn *insn = &m->insns[m->ids[id].insn];
    return insn->word_count > 3 ? spv_words(m, insn)[3] : 0;
}

/* A SPIR-V scope as a level of the dispatch (dispatch_levels.h). */
static unsigned level_of_scope(uint32_t scope)
{
    switch (scope) {
    case SpvScopeWorkgroup: return VKMM_SCOPE_WORKGROUP;
    case SpvScopeSubgroup:
    case SpvScopeInvocation: return VKMM_SCOPE_SUBGROUP;
    default: return VKMM_SCOPE_DEVICE; /* Device, QueueFamily, CrossDevice */
    }
}

/* The level a non-private access of the current instruction reaches: an
 * atomic's scope; for a NonPrivatePointer load or store the scope of its
 * MakePointerVisible / MakePointerAvailable (none without); device scope
 * for legacy Coherent/Volatile accesses and everything else (000
 * "Per-Instruction Availability and Visibility Semantics"; DESIGN §3.2
 * legacy row). */
static unsigned access_level(struct tr *t)
{
    const struct spv_module *m = t->m;
    const struct spv_insn *insn = t->current_insn;
    if (!insn)
        return VKMM_SCOPE_DEVICE;
    const uint32_t *w = spv_words(m, insn);
    if (insn->opcode == SpvOpAtomicStore)
        return level_of_scope(spv_constant_of(m, w[2]));
    if (insn->opcode >= SpvOpAtomicLoad && insn->opcode <= SpvOpAtomicXor && insn->word_count > 4)
        return level_of_scope(spv_constant_of(m, w[4]));
    if (insn->opcode == SpvOpAtomicFAddEXT || insn->opcode == SpvOpAtomicFMinEXT || insn->opcode == SpvOpAtomicFMaxEXT)
        return level_of_scope(spv_constant_of(m, w[4]));
    if (insn->opcode != SpvOpLoad && insn->opcode != SpvOpStore)
        return VKMM_SCOPE_DEVICE;
    unsigned operand = insn->opcode == SpvOpLoad ? 4 : 3;
    uint32_t access = insn->word_count > operand ? w[operand] : 0;
    if (!(access & SpvMemoryAccessNonPrivatePointerMask) || (access & SpvMemoryAccessVolatileMask))
        return VKMM_SCOPE_DEVICE;
    unsigned next = operand + 1 + ((access & SpvMemoryAccessAlignedMask) ? 1 : 0);
    if (access & SpvMemoryAccessMakePointerAvailableMask) {
        if (insn->opcode == SpvOpStore && next < insn->word_count)
            return level_of_scope(spv_constant_of(m, w[next]));
        next++;
    }
    if ((access & SpvMemoryAccessMakePointerVisibleMask) && insn->opcode == SpvOpLoad && next < insn->word_count)
        return level_of_scope(spv_constant_of(m, w[next]));
    return VKMM_SCOPE_NONE;
}

/* Is the current instruction an OpStore with MakePointerAvailable?  Its
 * availability operation is the store's own (000 "Per-Instruction
 * Availability and Visibility Semantics"), which strict mode's levels may
 * complete late: by the next release at the same scope. */
static bool store_makes_available(const struct tr *t)
{
    const struct spv_insn *insn = t->current_insn;
    if (!insn || insn->opcode != SpvOpStore || insn->word_count <= 3)
        return false;
    return (spv_words(t->m, insn)[3] & SpvMemoryAccessMakePointerAvailableMask) != 0;
}

/* Do the semantics release (Release, AcquireRelease or SequentiallyConsistent)? */
static bool release_semantics(uint32_t semantics)
{
    return (semantics & (SpvMemorySemanticsReleaseMask | SpvMemorySemanticsAcquireReleaseMask |
                         SpvMemorySemanticsSequentiallyConsistentMask)) != 0;
}

/* The availability (before) or visibility (after) part of a barrier's or
 * an atomic's semantics on device memory, for strict mode's levels
 * (dispatch_levels.h).  With the Vulkan memory model only MakeAvailable /
 * MakeVisible perform them (000 "Availability and Visibility Semantics");
 * legacy modules' release and acquire imply them (DESIGN §3.2).  A release
 * without MakeAvailable still orders the atomic stores before it. */
void spv_device_fence(struct tr *t, uint32_t scope, uint32_t semantics, bool available, bool visible)
{
    spv_device_fence_kind(t, scope, semantics, available, visible, 0);
}

/* The same, `extra` VKMM_FENCE_* bits added (VKMM_FENCE_ATOMIC for the
 * acquire half of a device-memory atomic).  An acquire that names no
 * device memory, or has Subgroup scope, still reaches the levels as
 * VKMM_FENCE_SYNC: it may order atomic loads of device memory after it
 * (atomic_history.h keeps invocations' views). */
void spv_device_fence_kind(struct tr *t, uint32_t scope, uint32_t semantics, bool available, bool visible,
                           unsigned extra)
{
    if (!t->options->monitor_device_memory)
        return;
    const uint32_t device_memory = SpvMemorySemanticsUniformMemoryMask | SpvMemorySemanticsCrossWorkgroupMemoryMask |
                                   SpvMemorySemanticsAtomicCounterMemoryMask | SpvMemorySemanticsImageMemoryMask;
    bool acquire = (semantics & (SpvMemorySemanticsAcquireMask | SpvMemorySemanticsAcquireReleaseMask |
                                 SpvMemorySemanticsSequentiallyConsistentMask)) != 0;
    unsigned level = level_of_scope(scope);
    unsigned kind;
    if (!(semantics & device_memory) || level < VKMM_SCOPE_WORKGROUP) {
        if (!(visible && acquire))
            return;
        kind = level | VKMM_FENCE_SYNC;
    } else {
        bool release = release_semantics(semantics);
        bool vmm = t->m->uses_vulkan_memory_model;
        bool av = available && release && (!vmm || (semantics & SpvMemorySemanticsMakeAvailableMask));
        bool vis = visible && acquire && (!vmm || (semantics & SpvMemorySemanticsMakeVisibleMask));
        bool orders = available && release && !av;
        bool acquires = visible && acquire && !vis;
        if (!av && !vis && !orders && !acquires)
            return;
        kind = level | (av ? VKMM_FENCE_AVAILABLE : 0) | (vis ? VKMM_FENCE_VISIBLE : 0) |
               (orders ? VKMM_FENCE_RELEASE : 0) | (acquires ? VKMM_FENCE_ACQUIRE : 0) | (visible ? extra : 0);
    }
    spv_call_device_fence(t, kind);
}

LLVMValueRef spv_call_device_fence(struct tr *t, unsigned kind)
{
    LLVMTypeRef params[4] = { t->ptr, t->i32, t->i32, t->i32 };
    LLVMTypeRef type = LLVMFunctionType(t->i32, params, 4, 0);
    LLVMValueRef args[4] = {
        tr_invocation_field(t, VKMM_INVOCATION_DEVICE_MONITOR, t->ptr),
        tr_invocation_field(t, VKMM_INVOCATION_WORKGROUP_TAG, t->i32),
        tr_invocation_field(t, VKMM_INVOCATION_SUBGROUP_ID, t->i32),
        LLVMConstInt(t->i32, kind, 0),
    };
    return LLVMBuildCall2(t->builder, type, tr_invocation_field(t, VKMM_INVOCATION_DEVICE_FENCE, t->ptr), args, 4,
                          "");
}

/* Calls a monitor hook (shader_abi.h) with the lanes' addresses spilled to
 * memory; returns its result.  The device hook takes the subgroup too
 * (`subgroup`, NULL for the workgroup hook). */
static LLVMValueRef call_monitor(struct tr *t, unsigned monitor_field, unsigned hook_field, LLVMValueRef who,
                                 uint32_t pointer_id, LLVMValueRef addresses, LLVMValueRef mask, unsigned size,
                                 unsigned flags, LLVMValueRef subgroup)
{
    LLVMValueRef spill = LLVMBuildStore(t->builder, addresses, t->monitor_addresses);
    LLVMSetAlignment(spill, 8); /* the alloca is an [W x i64] array, not a vector */
    LLVMValueRef bits = LLVMBuildBitCast(t->builder, mask, LLVMIntTypeInContext(t->context, t->width), "");
    LLVMValueRef lanes = LLVMBuildZExt(t->builder, bits, t->i64, "");
    uint64_t site = (uint64_t)(t->current_insn ? t->current_insn->offset : 0) << 32 | t->current_line;
    LLVMTypeRef params[8] = { t->ptr, t->ptr, t->i64, t->i32, t->i32, t->i64, t->ptr, t->i32 };
    unsigned count = subgroup ? 8 : 7;
    LLVMTypeRef type = LLVMFunctionType(t->i64, params, count, 0);
    LLVMValueRef args[8] = {
        tr_invocation_field(t, monitor_field, t->ptr),
        t->monitor_addresses,
        lanes,
        LLVMConstInt(t->i32, size | flags << 16, 0),
        who,
        LLVMConstInt(t->i64, site, 0),
        monitor_site_text(t, pointer_id),
        subgroup,
    };
    return LLVMBuildCall2(t->builder, type, tr_invocation_field(t, hook_field, t->ptr), args, count, "");
}

/* Is the current instruction an atomic store with Release semantics? */
static bool releases(const struct tr *t)
{
    const struct spv_insn *insn = t->current_insn;
    if (!insn || insn->opcode != SpvOpAtomicStore || insn->word_count < 5)
        return false;
    return release_semantics(spv_constant_of(t->m, spv_words(t->m, insn)[3]));
}

/* Does strict mode's workgroup monitor see this module's Workgroup memory? */
static bool workgroup_monitored(const struct tr *t)
{
    return t->options->monitor_workgroup_memory;
}

/* Before an access to Workgroup storage: the monitor records it, finds
 * races, and returns how far to move the lanes' addresses (0 unless a racing
 * read must see another value, held in the monitor's view).  Returns the
 * addresses to use. */
LLVMValueRef spv_monitor_workgroup_access(struct tr *t, uint32_t pointer_id, LLVMValueRef addresses, LLVMValueRef mask,
                                          unsigned size, unsigned flags)
{
    if (!workgroup_monitored(t) || !t->monitor_addresses || !pointer_id)
        return addresses;
    if (t->shared_store_buffers)
        flags |= VKMM_ACCESS_STORE_BUFFER | (releases(t) ? VKMM_ACCESS_RELEASE : 0);
    flags |= t->shared_atomic_sync ? VKMM_ACCESS_ATOMIC_SYNC : 0;
    flags |= read_again_later(t, pointer_id) ? VKMM_ACCESS_READ_AGAIN : 0;
    flags |= updated_after(t, pointer_id) ? VKMM_ACCESS_UPDATED_AFTER : 0;
    flags |= t->early_copy ? VKMM_ACCESS_EARLY_STORE : 0;
    LLVMValueRef delta = call_monitor(t, VKMM_INVOCATION_WORKGROUP_MONITOR, VKMM_INVOCATION_WORKGROUP_ACCESS,
                                      tr_invocation_field(t, VKMM_INVOCATION_SUBGROUP_ID, t->i32), pointer_id,
                                      addresses, mask, size, flags, NULL);
    return LLVMBuildAdd(t->builder, addresses, tr_splat(t, delta), "");
}

/* Push constants live in the invocation, never in device memory: the
 * monitor would only find every lane outside it (the streaming triad's two
 * push-constant loads were 40% of its monitor calls). */
static bool is_push_constant(struct tr *t, uint32_t pointer_id)
{
    const struct spv_type *type = spv_type(t->m, t->m->ids[pointer_id].type);
    return type && type->storage_class == SpvStorageClassPushConstant;
}

/* Before an access to device memory: the device-memory monitor records it
 * with the workgroup's tag and whether it is private, and may send some
 * lanes' reads elsewhere (to the bytes as they were before the dispatch).
 * Returns the addresses to use. */
LLVMValueRef spv_monitor_device_access(struct tr *t, uint32_t pointer_id, LLVMValueRef addresses, LLVMValueRef mask,
                                       unsigned size, unsigned flags)
{
    if (!t->options->monitor_device_memory || !t->monitor_addresses || !pointer_id || is_push_constant(t, pointer_id))
        return addresses;
    if (access_is_private(t, pointer_id))
        flags |= VKMM_ACCESS_PRIVATE | (read_again_later(t, pointer_id) ? VKMM_ACCESS_READ_AGAIN : 0);
    else
        flags |= access_level(t) << VKMM_ACCESS_SCOPE_SHIFT | (store_makes_available(t) ? VKMM_ACCESS_MADE_AVAILABLE : 0);
    flags |= updated_after(t, pointer_id) ? VKMM_ACCESS_UPDATED_AFTER : 0;
    flags |= t->early_copy ? VKMM_ACCESS_EARLY_STORE : 0;
    LLVMValueRef moved = call_monitor(t, VKMM_INVOCATION_DEVICE_MONITOR, VKMM_INVOCATION_DEVICE_ACCESS,
                                      tr_invocation_field(t, VKMM_INVOCATION_WORKGROUP_TAG, t->i32), pointer_id,
                                      addresses, mask, size, flags,
                                      tr_invocation_field(t, VKMM_INVOCATION_SUBGROUP_ID, t->i32));
    LLVMValueRef reloaded = LLVMBuildLoad2(t->builder, t->lane_i64, t->monitor_addresses, "");
    LLVMSetAlignment(reloaded, 8);
    LLVMValueRef any = LLVMBuildICmp(t->builder, LLVMIntNE, moved, LLVMConstInt(t->i64, 0, 0), "");
    return LLVMBuildSelect(t->builder, any, reloaded, addresses, "");
}

/* A coherent access (not private, not atomic) to device memory must not
 * be merged with others or moved out of a loop: a spin on a coherent flag
 * must see another invocation's write.  A fence before it (acquire for a
 * load, release for a store) keeps LLVM from doing either; on x86 it emits
 * no instruction. */
void spv_fence_coherent(struct tr *t, const struct place *at, bool store)
{
    if (at->kind != SPV_STORAGE_EXPLICIT || !at->pointer_id || access_is_private(t, at->pointer_id))
        return;
    LLVMBuildFence(t->builder, store ? LLVMAtomicOrderingRelease : LLVMAtomicOrderingAcquire, 0, "");
}

/* Calls the workgroup monitor's barrier hook with `kind`. */
static void call_workgroup_barrier(struct tr *t, unsigned kind)
{
    LLVMTypeRef params[3] = { t->ptr, t->i32, t->i32 };
    LLVMTypeRef type = LLVMFunctionType(t->void_type, params, 3, 0);
    LLVMValueRef args[3] = {
        tr_invocation_field(t, VKMM_INVOCATION_WORKGROUP_MONITOR, t->ptr),
        tr_invocation_field(t, VKMM_INVOCATION_SUBGROUP_ID, t->i32),
        LLVMConstInt(t->i32, kind, 0),
    };
    LLVMValueRef hook = tr_invocation_field(t, VKMM_INVOCATION_WORKGROUP_BARRIER, t->ptr);
    LLVMBuildCall2(t->builder, type, hook, args, 3, "");
}

/* A control barrier tells the monitor what it synchronizes (before the
 * subgroup suspends at it).  Vulkan memory model: Workgroup memory is
 * synchronized only with WorkgroupMemory in the semantics and an acquire or
 * release; legacy GLSL450 modules: every barrier does (DESIGN §3.2, and
 * docs/memory-model.md "Inside a dispatch"). */
void spv_monitor_control_barrier(struct tr *t, uint32_t execution_scope, uint32_t semantics)
{
    if (!workgroup_monitored(t))
        return;
    bool ordering = (semantics & (SpvMemorySemanticsAcquireMask | SpvMemorySemanticsReleaseMask |
                                  SpvMemorySemanticsAcquireReleaseMask |
                                  SpvMemorySemanticsSequentiallyConsistentMask)) != 0;
    /* A release fence, a control barrier and an acquire fence synchronize
     * too (000 "Synchronizes-With"): with such fences in the module every
     * workgroup barrier counts. */
    bool synchronizes = !t->m->uses_vulkan_memory_model || t->workgroup_fences ||
                        (ordering && (semantics & SpvMemorySemanticsWorkgroupMemoryMask));
    unsigned kind;
    if (execution_scope == SpvScopeWorkgroup)
        kind = synchronizes ? VKMM_WORKGROUP_BARRIER_MEMORY : VKMM_WORKGROUP_BARRIER_EXECUTION;
    else if (execution_scope == SpvScopeSubgroup && synchronizes)
        kind = VKMM_SUBGROUP_BARRIER_MEMORY;
    else if (!t->shared_store_buffers)
        return;
    else
        kind = VKMM_SUBGROUP_BARRIER_EXECUTION;
    /* The store buffers empty at every control barrier: it is passed by
     * every invocation together, after its release. */
    kind |= t->shared_store_buffers ? VKMM_BARRIER_STORE_BUFFER : 0;
    call_workgroup_barrier(t, kind);
}

/* A fence (atomic false) or an atomic that may order Workgroup memory, in a
 * module whose fences or atomics may (000 "Synchronizes-With"): the
 * workgroup monitor follows its release and acquire, and for an atomic
 * whether it writes and reads, before the access. */
void spv_monitor_workgroup_sync(struct tr *t, uint32_t scope, uint32_t semantics, bool atomic, bool writes,
                                bool reads)
{
    if (!t->shared_atomic_sync)
        return;
    bool workgroup = (semantics & SpvMemorySemanticsWorkgroupMemoryMask) != 0;
    bool acquire = (semantics & (SpvMemorySemanticsAcquireMask | SpvMemorySemanticsAcquireReleaseMask |
                                 SpvMemorySemanticsSequentiallyConsistentMask)) != 0;
    unsigned kind = (workgroup && release_semantics(semantics) && (!atomic || writes) ? VKMM_SYNC_RELEASE : 0) |
                    (workgroup && acquire && (!atomic || reads) ? VKMM_SYNC_ACQUIRE : 0) |
                    (atomic && writes ? VKMM_SYNC_ATOMIC_WRITE : 0) | (atomic && reads ? VKMM_SYNC_ATOMIC_READ : 0) |
                    (level_of_scope(scope) < VKMM_SCOPE_WORKGROUP ? VKMM_SYNC_NARROW : 0);
    if (kind)
        call_workgroup_barrier(t, VKMM_WORKGROUP_SYNC | kind);
}

/* An OpMemoryBarrier releasing Workgroup memory in a store-buffer module:
 * the subgroup's atomic stores before it are performed before those after
 * it (000 "Synchronizes-With", fence release). */
void spv_monitor_workgroup_fence(struct tr *t, uint32_t semantics)
{
    if (t->shared_store_buffers && release_semantics(semantics) &&
        (semantics & SpvMemorySemanticsWorkgroupMemoryMask))
        call_workgroup_barrier(t, VKMM_WORKGROUP_FENCE_RELEASE | VKMM_BARRIER_STORE_BUFFER);
}


