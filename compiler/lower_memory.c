/* The one lowering point for memory (DESIGN §4): variables, pointers,
 * access chains, loads, stores, atomics and barriers.  Every access of
 * every lane is bounds-checked against the memory its pointer came from
 * (a descriptor's range, a variable), so a shader never touches host memory
 * outside its bindings: out-of-bounds loads read zero, stores are dropped.
 *
 * Storage kinds:
 *  - explicit: buffers and push constants, laid out by Offset/ArrayStride/
 *    MatrixStride decorations;
 *  - shared: Workgroup variables in the workgroup's memory, natural layout;
 *  - lane-scaled: Function/Private/Input variables, one copy per lane.  A
 *    scalar at natural offset o of lane l lives at base + W*o + l*size, so
 *    the lanes of one scalar are adjacent and a uniform access is one vector
 *    load or store.
 *
 * Where each variable's storage is, and the builtins, are lower_variables.c's.
 *
 * Strict mode marks the bytes of every device-memory access (mark_accesses)
 * so that a dispatch's accesses are exact; the memory machine inside a
 * dispatch (a later issue) routes the leaf accesses and barriers below
 * through the memory-model engine, and plugs in here too. */
#include <stdio.h>

#include "spirv_names.h"
#include "spirv_private.h"

enum spv_storage_kind spv_storage_kind(uint32_t storage_class)
{
    switch (storage_class) {
    case SpvStorageClassWorkgroup:
        return SPV_STORAGE_SHARED;
    case SpvStorageClassFunction:
    case SpvStorageClassPrivate:
    case SpvStorageClassInput:
    case SpvStorageClassOutput:
        return SPV_STORAGE_LANE_SCALED;
    default:
        return SPV_STORAGE_EXPLICIT;
    }
}

static uint32_t align_up(uint32_t value, uint32_t align)
{
    return align ? (value + align - 1) / align * align : value;
}

/* --- Pointer values ------------------------------------------------------------- */

static LLVMTypeRef pointer_struct(struct tr *t)
{
    LLVMTypeRef lanes[3] = { t->lane_i64, t->lane_i64, t->lane_i64 };
    return LLVMStructTypeInContext(t->context, lanes, 3, 0);
}

LLVMValueRef spv_pack_pointer(struct tr *t, struct tr_pointer p)
{
    LLVMValueRef value = LLVMGetUndef(pointer_struct(t));
    value = LLVMBuildInsertValue(t->builder, value, p.addr, 0, "");
    value = LLVMBuildInsertValue(t->builder, value, p.lo, 1, "");
    return LLVMBuildInsertValue(t->builder, value, p.hi, 2, "");
}

static struct tr_pointer unpack_pointer(struct tr *t, LLVMValueRef value)
{
    struct tr_pointer p;
    p.addr = LLVMBuildExtractValue(t->builder, value, 0, "");
    p.lo = LLVMBuildExtractValue(t->builder, value, 1, "");
    p.hi = LLVMBuildExtractValue(t->builder, value, 2, "");
    return p;
}

LLVMValueRef spv_i64_splat(struct tr *t, uint64_t value)
{
    return tr_splat(t, LLVMConstInt(t->i64, value, 0));
}

/* A buffer-reference (PhysicalStorageBuffer) pointer made from a device
 * address: it may reach any device memory, and nothing else. */
LLVMValueRef spv_memory_address_pointer(struct tr *t, LLVMValueRef address)
{
    struct tr_pointer p = {
        address,
        tr_splat(t, tr_invocation_field(t, VKMM_INVOCATION_DEVICE_MEMORY_BASE, t->i64)),
        tr_splat(t, tr_invocation_field(t, VKMM_INVOCATION_DEVICE_MEMORY_END, t->i64)),
    };
    return spv_pack_pointer(t, p);
}

/* --- Layout ----------------------------------------------------------------------- */

/* Natural offset of member `index` of a struct. */
static uint32_t natural_member_offset(struct tr *t, const struct spv_type *type, uint32_t index)
{
    uint32_t offset = 0;
    for (uint32_t i = 0; i <= index; i++) {
        const struct spv_type *member = spv_type(t->m, type->members[i].type);
        offset = align_up(offset, member->natural_align);
        if (i < index)
            offset += member->natural_size;
    }
    return offset;
}

static uint32_t natural_stride(struct tr *t, uint32_t element)
{
    const struct spv_type *e = spv_type(t->m, element);
    return align_up(e->natural_size, e->natural_align);
}

bool spv_memory_layout(struct tr *t)
{
    struct spv_module *m = t->m;
    uint32_t shared = 0, private_bytes = 0;
    for (uint32_t i = 0; i < m->variable_count; i++) {
        struct spv_variable *v = &m->variables[i];
        const struct spv_type *type = spv_type(m, v->pointee);
        switch (spv_storage_kind(v->storage_class)) {
        case SPV_STORAGE_SHARED:
            shared = align_up(shared, type->natural_align ? type->natural_align : 1);
            v->offset = shared;
            v->size = type->natural_size;
            shared += v->size;
            break;
        case SPV_STORAGE_LANE_SCALED:
            /* Aligned to 16 so that W * offset keeps vector loads aligned. */
            private_bytes = align_up(private_bytes, 16);
            v->offset = private_bytes;
            v->size = type->natural_size;
            private_bytes += v->size;
            break;
        default:
            break;
        }
    }
    m->workgroup_size_bytes = align_up(shared, 16);
    m->private_size_bytes = align_up(private_bytes, 16);
    if (m->workgroup_size_bytes > 32768)
        return spv_fail(t->error, "Workgroup variables need %u bytes, above maxComputeSharedMemorySize 32768",
                        m->workgroup_size_bytes);
    return true;
}

/* --- Leaf accesses ------------------------------------------------------------------ */

/* Per-lane byte addresses of a scalar of `size` bytes at AoS offset `extra`
 * from the pointer. */
static LLVMValueRef leaf_addresses(struct tr *t, const struct tr_pointer *p, LLVMValueRef extra, unsigned size,
                                   enum spv_storage_kind kind)
{
    if (kind != SPV_STORAGE_LANE_SCALED)
        return LLVMBuildAdd(t->builder, p->addr, extra, "");
    LLVMValueRef scaled = LLVMBuildMul(t->builder, extra, spv_i64_splat(t, t->width), "");
    LLVMValueRef lanes = LLVMBuildZExt(t->builder, tr_lane_index(t), t->lane_i64, "");
    LLVMValueRef lane_offset = LLVMBuildMul(t->builder, lanes, spv_i64_splat(t, size), "");
    return LLVMBuildAdd(t->builder, LLVMBuildAdd(t->builder, p->addr, scaled, ""), lane_offset, "");
}

static LLVMValueRef in_bounds(struct tr *t, const struct tr_pointer *p, LLVMValueRef addresses, unsigned size)
{
    LLVMValueRef end = LLVMBuildAdd(t->builder, addresses, spv_i64_splat(t, size), "");
    LLVMValueRef low_ok = LLVMBuildICmp(t->builder, LLVMIntUGE, addresses, p->lo, "");
    LLVMValueRef high_ok = LLVMBuildICmp(t->builder, LLVMIntULE, end, p->hi, "");
    /* end < address: the addition wrapped around. */
    LLVMValueRef no_wrap = LLVMBuildICmp(t->builder, LLVMIntUGE, end, addresses, "");
    LLVMValueRef ok = LLVMBuildAnd(t->builder, LLVMBuildAnd(t->builder, low_ok, high_ok, ""), no_wrap, "");
    return LLVMBuildAnd(t->builder, ok, t->exec, "");
}

static LLVMValueRef first_lane(struct tr *t, LLVMValueRef vector)
{
    return LLVMBuildExtractElement(t->builder, vector, LLVMConstInt(t->i32, 0, 0), "");
}

/* all(addresses == addresses[0] + lane * stride) */
static LLVMValueRef lanes_strided(struct tr *t, LLVMValueRef addresses, unsigned stride)
{
    LLVMValueRef lanes = LLVMBuildZExt(t->builder, tr_lane_index(t), t->lane_i64, "");
    LLVMValueRef expected = LLVMBuildAdd(t->builder, tr_splat(t, first_lane(t, addresses)),
                                         LLVMBuildMul(t->builder, lanes, spv_i64_splat(t, stride), ""), "");
    return tr_all(t, LLVMBuildICmp(t->builder, LLVMIntEQ, addresses, expected, ""));
}

static LLVMBasicBlockRef new_block(struct tr *t, const char *name)
{
    return LLVMAppendBasicBlockInContext(t->context, t->function, name);
}

LLVMValueRef spv_to_pointer(struct tr *t, LLVMValueRef address)
{
    return LLVMBuildIntToPtr(t->builder, address, t->ptr, "");
}

LLVMValueRef spv_to_pointers(struct tr *t, LLVMValueRef addresses)
{
    return LLVMBuildIntToPtr(t->builder, addresses, LLVMVectorType(t->ptr, t->width), "");
}

/* Strict mode's exact accesses (DESIGN §3 "Exact accesses"): for every
 * lane in `mask` whose `size` bytes at `addresses` lie in device memory, a
 * 1 in each byte of the read or write marks (shader_abi.h).  Push
 * constants, shared and lane-scaled storage are not device memory and are
 * never marked.  Stores of a constant, so no lane's mark depends on
 * another's. */
static void mark_accesses(struct tr *t, LLVMValueRef addresses, LLVMValueRef mask, unsigned size, bool write)
{
    if (!t->options->track_accesses)
        return;
    LLVMValueRef base = tr_splat(t, tr_invocation_field(t, VKMM_INVOCATION_DEVICE_MEMORY_BASE, t->i64));
    LLVMValueRef end = tr_splat(t, tr_invocation_field(t, VKMM_INVOCATION_DEVICE_MEMORY_END, t->i64));
    LLVMValueRef last = LLVMBuildAdd(t->builder, addresses, spv_i64_splat(t, size), "");
    LLVMValueRef in_device = LLVMBuildAnd(t->builder, LLVMBuildICmp(t->builder, LLVMIntUGE, addresses, base, ""),
                                          LLVMBuildICmp(t->builder, LLVMIntULE, last, end, ""), "");
    LLVMValueRef lanes = LLVMBuildAnd(t->builder, mask, in_device, "");
    int field = write ? VKMM_INVOCATION_WRITE_MARKS_DELTA : VKMM_INVOCATION_READ_MARKS_DELTA;
    LLVMValueRef marks = LLVMBuildAdd(t->builder, addresses, tr_splat(t, tr_invocation_field(t, field, t->i64)), "");
    for (unsigned at = 0; at < size;) {
        unsigned chunk = size - at >= 8 ? 8 : size - at >= 4 ? 4 : size - at >= 2 ? 2 : 1;
        LLVMTypeRef scalar = LLVMIntTypeInContext(t->context, chunk * 8);
        LLVMValueRef ones = LLVMConstInt(scalar, 0x0101010101010101ull, 0);
        LLVMTypeRef vector = LLVMVectorType(scalar, t->width);
        LLVMValueRef targets = LLVMBuildAdd(t->builder, marks, spv_i64_splat(t, at), "");
        LLVMTypeRef overloads[2] = { vector, LLVMVectorType(t->ptr, t->width) };
        LLVMValueRef args[4] = { tr_splat(t, ones), spv_to_pointers(t, targets), LLVMConstInt(t->i32, 1, 0), lanes };
        tr_call_intrinsic(t, "llvm.masked.scatter", overloads, 2, args, 4);
        at += chunk;
    }
}

struct place {
    struct tr_pointer pointer;
    enum spv_storage_kind kind;
    bool explicit_layout;
    bool uniform;        /* every lane's address is the same (known at compile time) */
    uint32_t pointer_id; /* the SPIR-V pointer accessed (for the workgroup monitor) */
};

/* --- Strict mode: the workgroup-memory monitor -------------------------------- */

/* The variable a pointer was derived from (through access chains), for the
 * monitor's reports: its OpName, or its id. */
static void root_variable_name(struct tr *t, uint32_t pointer_id, char *out, size_t size)
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
static uint32_t constant_of(const struct spv_module *m, uint32_t id)
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
        return level_of_scope(constant_of(m, w[2]));
    if (insn->opcode >= SpvOpAtomicLoad && insn->opcode <= SpvOpAtomicXor && insn->word_count > 4)
        return level_of_scope(constant_of(m, w[4]));
    if (insn->opcode == SpvOpAtomicFAddEXT || insn->opcode == SpvOpAtomicFMinEXT || insn->opcode == SpvOpAtomicFMaxEXT)
        return level_of_scope(constant_of(m, w[4]));
    if (insn->opcode != SpvOpLoad && insn->opcode != SpvOpStore)
        return VKMM_SCOPE_DEVICE;
    unsigned operand = insn->opcode == SpvOpLoad ? 4 : 3;
    uint32_t access = insn->word_count > operand ? w[operand] : 0;
    if (!(access & SpvMemoryAccessNonPrivatePointerMask) || (access & SpvMemoryAccessVolatileMask))
        return VKMM_SCOPE_DEVICE;
    unsigned next = operand + 1 + ((access & SpvMemoryAccessAlignedMask) ? 1 : 0);
    if (access & SpvMemoryAccessMakePointerAvailableMask) {
        if (insn->opcode == SpvOpStore && next < insn->word_count)
            return level_of_scope(constant_of(m, w[next]));
        next++;
    }
    if ((access & SpvMemoryAccessMakePointerVisibleMask) && insn->opcode == SpvOpLoad && next < insn->word_count)
        return level_of_scope(constant_of(m, w[next]));
    return VKMM_SCOPE_NONE;
}

/* The availability (before) or visibility (after) part of a barrier's or
 * an atomic's semantics on device memory, for strict mode's levels
 * (dispatch_levels.h).  With the Vulkan memory model only MakeAvailable /
 * MakeVisible perform them (000 "Availability and Visibility Semantics");
 * legacy modules' release and acquire imply them (DESIGN §3.2).  A release
 * without MakeAvailable still orders the atomic stores before it. */
void spv_device_fence(struct tr *t, uint32_t scope, uint32_t semantics, bool available, bool visible)
{
    if (!t->options->monitor_device_memory)
        return;
    const uint32_t device_memory = SpvMemorySemanticsUniformMemoryMask | SpvMemorySemanticsCrossWorkgroupMemoryMask |
                                   SpvMemorySemanticsAtomicCounterMemoryMask | SpvMemorySemanticsImageMemoryMask;
    if (!(semantics & device_memory))
        return;
    bool release = (semantics & (SpvMemorySemanticsReleaseMask | SpvMemorySemanticsAcquireReleaseMask |
                                 SpvMemorySemanticsSequentiallyConsistentMask)) != 0;
    bool acquire = (semantics & (SpvMemorySemanticsAcquireMask | SpvMemorySemanticsAcquireReleaseMask |
                                 SpvMemorySemanticsSequentiallyConsistentMask)) != 0;
    bool vmm = t->m->uses_vulkan_memory_model;
    bool av = available && release && (!vmm || (semantics & SpvMemorySemanticsMakeAvailableMask));
    bool vis = visible && acquire && (!vmm || (semantics & SpvMemorySemanticsMakeVisibleMask));
    bool orders = available && release && !av;
    bool acquires = visible && acquire && !vis;
    unsigned level = level_of_scope(scope);
    if ((!av && !vis && !orders && !acquires) || level < VKMM_SCOPE_WORKGROUP)
        return;
    unsigned kind = level | (av ? VKMM_FENCE_AVAILABLE : 0) | (vis ? VKMM_FENCE_VISIBLE : 0) |
                    (orders ? VKMM_FENCE_RELEASE : 0) | (acquires ? VKMM_FENCE_ACQUIRE : 0);
    LLVMTypeRef params[4] = { t->ptr, t->i32, t->i32, t->i32 };
    LLVMTypeRef type = LLVMFunctionType(t->void_type, params, 4, 0);
    LLVMValueRef args[4] = {
        tr_invocation_field(t, VKMM_INVOCATION_DEVICE_MONITOR, t->ptr),
        tr_invocation_field(t, VKMM_INVOCATION_WORKGROUP_TAG, t->i32),
        tr_invocation_field(t, VKMM_INVOCATION_SUBGROUP_ID, t->i32),
        LLVMConstInt(t->i32, kind, 0),
    };
    LLVMBuildCall2(t->builder, type, tr_invocation_field(t, VKMM_INVOCATION_DEVICE_FENCE, t->ptr), args, 4, "");
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

/* Before an access to Workgroup storage: the monitor records it, finds
 * races, and returns how far to move the lanes' addresses (0 unless a racing
 * read must see another value, held in the monitor's view).  Returns the
 * addresses to use. */
static LLVMValueRef monitor_access(struct tr *t, uint32_t pointer_id, LLVMValueRef addresses, LLVMValueRef mask,
                                   unsigned size, unsigned flags)
{
    if (!t->options->monitor_workgroup_memory || !t->monitor_addresses || !pointer_id || t->has_atomics)
        return addresses;
    LLVMValueRef delta = call_monitor(t, VKMM_INVOCATION_WORKGROUP_MONITOR, VKMM_INVOCATION_WORKGROUP_ACCESS,
                                      tr_invocation_field(t, VKMM_INVOCATION_SUBGROUP_ID, t->i32), pointer_id,
                                      addresses, mask, size, flags, NULL);
    return LLVMBuildAdd(t->builder, addresses, tr_splat(t, delta), "");
}

/* Before an access to device memory: the device-memory monitor records it
 * with the workgroup's tag and whether it is private, and may send some
 * lanes' reads elsewhere (to the bytes as they were before the dispatch).
 * Returns the addresses to use. */
static LLVMValueRef monitor_device(struct tr *t, uint32_t pointer_id, LLVMValueRef addresses, LLVMValueRef mask,
                                   unsigned size, unsigned flags)
{
    if (!t->options->monitor_device_memory || !t->monitor_addresses || !pointer_id)
        return addresses;
    if (access_is_private(t, pointer_id))
        flags |= VKMM_ACCESS_PRIVATE;
    else
        flags |= access_level(t) << VKMM_ACCESS_SCOPE_SHIFT;
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
static void fence_coherent(struct tr *t, const struct place *at, bool store)
{
    if (at->kind != SPV_STORAGE_EXPLICIT || !at->pointer_id || access_is_private(t, at->pointer_id))
        return;
    LLVMBuildFence(t->builder, store ? LLVMAtomicOrderingRelease : LLVMAtomicOrderingAcquire, 0, "");
}

/* A control barrier tells the monitor what it synchronizes (before the
 * subgroup suspends at it).  Vulkan memory model: Workgroup memory is
 * synchronized only with WorkgroupMemory in the semantics and an acquire or
 * release; legacy GLSL450 modules: every barrier does (DESIGN §3.2, and
 * docs/memory-model.md "Inside a dispatch"). */
void spv_monitor_control_barrier(struct tr *t, uint32_t execution_scope, uint32_t semantics)
{
    if (!t->options->monitor_workgroup_memory || t->has_atomics)
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
    else
        return;
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

/* Loads one scalar of every active lane: a vector load when the lanes are
 * adjacent, a scalar load when they share an address, a masked gather
 * otherwise.  Inactive or out-of-bounds lanes read zero. */
static LLVMValueRef load_leaf(struct tr *t, const struct place *at, LLVMValueRef extra, LLVMTypeRef scalar,
                              unsigned size)
{
    const struct tr_pointer *p = &at->pointer;
    enum spv_storage_kind kind = at->kind;
    LLVMTypeRef vector = LLVMVectorType(scalar, t->width);
    LLVMValueRef addresses = leaf_addresses(t, p, extra, size, kind);
    LLVMValueRef mask = in_bounds(t, p, addresses, size);
    fence_coherent(t, at, false);
    if (kind == SPV_STORAGE_EXPLICIT) {
        mark_accesses(t, addresses, mask, size, false);
        addresses = monitor_device(t, at->pointer_id, addresses, mask, size, VKMM_WORKGROUP_READ);
    }
    if (kind == SPV_STORAGE_SHARED)
        addresses = monitor_access(t, at->pointer_id, addresses, mask, size, VKMM_WORKGROUP_READ);
    LLVMValueRef full = tr_all(t, mask);
    LLVMBasicBlockRef check = new_block(t, "load.check");
    LLVMBasicBlockRef contiguous = new_block(t, "load.vector");
    LLVMBasicBlockRef check_uniform = new_block(t, "load.check.uniform");
    LLVMBasicBlockRef uniform = new_block(t, "load.uniform");
    LLVMBasicBlockRef gather = new_block(t, "load.gather");
    LLVMBasicBlockRef join = new_block(t, "load.join");
    LLVMBuildCondBr(t->builder, full, check, gather);

    LLVMPositionBuilderAtEnd(t->builder, check);
    LLVMBuildCondBr(t->builder, lanes_strided(t, addresses, size), contiguous, check_uniform);

    LLVMPositionBuilderAtEnd(t->builder, contiguous);
    LLVMValueRef loaded = LLVMBuildLoad2(t->builder, vector, spv_to_pointer(t, first_lane(t, addresses)), "");
    LLVMSetAlignment(loaded, 1);
    LLVMBuildBr(t->builder, join);

    LLVMPositionBuilderAtEnd(t->builder, check_uniform);
    LLVMBuildCondBr(t->builder, lanes_strided(t, addresses, 0), uniform, gather);

    LLVMPositionBuilderAtEnd(t->builder, uniform);
    LLVMValueRef one = LLVMBuildLoad2(t->builder, scalar, spv_to_pointer(t, first_lane(t, addresses)), "");
    LLVMSetAlignment(one, 1);
    LLVMValueRef splat = tr_splat(t, one);
    LLVMBuildBr(t->builder, join);

    LLVMPositionBuilderAtEnd(t->builder, gather);
    LLVMTypeRef overloads[2] = { vector, LLVMVectorType(t->ptr, t->width) };
    LLVMValueRef args[4] = { spv_to_pointers(t, addresses), LLVMConstInt(t->i32, 1, 0), mask, LLVMConstNull(vector) };
    LLVMValueRef gathered = tr_call_intrinsic(t, "llvm.masked.gather", overloads, 2, args, 4);
    LLVMBuildBr(t->builder, join);

    LLVMPositionBuilderAtEnd(t->builder, join);
    LLVMValueRef phi = LLVMBuildPhi(t->builder, vector, "");
    LLVMValueRef values[3] = { loaded, splat, gathered };
    LLVMBasicBlockRef from[3] = { contiguous, uniform, gather };
    LLVMAddIncoming(phi, values, from, 3);
    return phi;
}

/* Stores one scalar of every active, in-bounds lane. */
static void store_leaf(struct tr *t, const struct place *at, LLVMValueRef extra, LLVMValueRef value, unsigned size)
{
    const struct tr_pointer *p = &at->pointer;
    enum spv_storage_kind kind = at->kind;
    LLVMTypeRef vector = LLVMTypeOf(value);
    LLVMValueRef addresses = leaf_addresses(t, p, extra, size, kind);
    LLVMValueRef mask = in_bounds(t, p, addresses, size);
    fence_coherent(t, at, true);
    if (kind == SPV_STORAGE_EXPLICIT) {
        mark_accesses(t, addresses, mask, size, true);
        addresses = monitor_device(t, at->pointer_id, addresses, mask, size, VKMM_WORKGROUP_WRITE);
    }
    if (kind == SPV_STORAGE_SHARED)
        addresses = monitor_access(t, at->pointer_id, addresses, mask, size, VKMM_WORKGROUP_WRITE);
    LLVMBasicBlockRef check = new_block(t, "store.check");
    LLVMBasicBlockRef contiguous = new_block(t, "store.vector");
    LLVMBasicBlockRef masked = new_block(t, "store.masked");
    LLVMBasicBlockRef scatter = new_block(t, "store.scatter");
    LLVMBasicBlockRef join = new_block(t, "store.join");
    LLVMBuildCondBr(t->builder, lanes_strided(t, addresses, size), check, scatter);

    LLVMPositionBuilderAtEnd(t->builder, check);
    LLVMBuildCondBr(t->builder, tr_all(t, mask), contiguous, masked);

    LLVMPositionBuilderAtEnd(t->builder, contiguous);
    LLVMValueRef store = LLVMBuildStore(t->builder, value, spv_to_pointer(t, first_lane(t, addresses)));
    LLVMSetAlignment(store, 1);
    LLVMBuildBr(t->builder, join);

    LLVMPositionBuilderAtEnd(t->builder, masked);
    LLVMTypeRef overloads[2] = { vector, t->ptr };
    LLVMValueRef args[4] = { value, spv_to_pointer(t, first_lane(t, addresses)), LLVMConstInt(t->i32, 1, 0), mask };
    tr_call_intrinsic(t, "llvm.masked.store", overloads, 2, args, 4);
    LLVMBuildBr(t->builder, join);

    LLVMPositionBuilderAtEnd(t->builder, scatter);
    LLVMTypeRef scatter_overloads[2] = { vector, LLVMVectorType(t->ptr, t->width) };
    LLVMValueRef scatter_args[4] = { value, spv_to_pointers(t, addresses), LLVMConstInt(t->i32, 1, 0), mask };
    tr_call_intrinsic(t, "llvm.masked.scatter", scatter_overloads, 2, scatter_args, 4);
    LLVMBuildBr(t->builder, join);

    LLVMPositionBuilderAtEnd(t->builder, join);
}

/* --- Image texels ------------------------------------------------------------------ */

/* Texels are device memory reached like a buffer's bytes: the same leaf
 * accesses, so bounds checks, strict mode's marks and the device-memory
 * monitor see them (spirv_image.c computes the addresses). */
static struct place texel_place(uint32_t pointer_id, LLVMValueRef addresses, LLVMValueRef lo, LLVMValueRef hi)
{
    struct place at = {
        .pointer = { addresses, lo, hi },
        .kind = SPV_STORAGE_EXPLICIT,
        .explicit_layout = true,
        .pointer_id = pointer_id,
    };
    return at;
}

LLVMValueRef spv_load_texel_bytes(struct tr *t, uint32_t pointer_id, LLVMValueRef addresses, LLVMValueRef lo,
                                  LLVMValueRef hi, unsigned size)
{
    struct place at = texel_place(pointer_id, addresses, lo, hi);
    return load_leaf(t, &at, spv_i64_splat(t, 0), LLVMIntTypeInContext(t->context, size * 8), size);
}

void spv_store_texel_bytes(struct tr *t, uint32_t pointer_id, LLVMValueRef addresses, LLVMValueRef lo,
                           LLVMValueRef hi, LLVMValueRef value, unsigned size)
{
    struct place at = texel_place(pointer_id, addresses, lo, hi);
    store_leaf(t, &at, spv_i64_splat(t, 0), value, size);
}

/* --- Whole values ------------------------------------------------------------------ */

static unsigned scalar_bytes(const struct spv_type *type)
{
    return type->kind == SPV_TYPE_BOOL ? 4 : type->width / 8;
}

/* A load every lane makes from one address (push constants, uniform
 * scalars): one bounds check and one scalar load, broadcast.  Loads have no
 * side effects, so inactive lanes may share it. */
static LLVMValueRef load_uniform_leaf(struct tr *t, const struct place *at, LLVMValueRef extra, LLVMTypeRef scalar,
                                     unsigned size)
{
    LLVMValueRef address = first_lane(t, LLVMBuildAdd(t->builder, at->pointer.addr, extra, ""));
    LLVMValueRef lo = first_lane(t, at->pointer.lo), hi = first_lane(t, at->pointer.hi);
    LLVMValueRef end = LLVMBuildAdd(t->builder, address, LLVMConstInt(t->i64, size, 0), "");
    LLVMValueRef ok = LLVMBuildAnd(t->builder, LLVMBuildICmp(t->builder, LLVMIntUGE, address, lo, ""),
                                   LLVMBuildAnd(t->builder, LLVMBuildICmp(t->builder, LLVMIntULE, end, hi, ""),
                                                LLVMBuildICmp(t->builder, LLVMIntUGE, end, address, ""), ""), "");
    LLVMBasicBlockRef load = new_block(t, "uniform.load");
    LLVMBasicBlockRef join = new_block(t, "uniform.join");
    LLVMBasicBlockRef from = LLVMGetInsertBlock(t->builder);
    LLVMBuildCondBr(t->builder, ok, load, join);
    LLVMPositionBuilderAtEnd(t->builder, load);
    fence_coherent(t, at, false);
    if (at->kind == SPV_STORAGE_EXPLICIT) {
        mark_accesses(t, tr_splat(t, address), t->exec, size, false);
        address = first_lane(t, monitor_device(t, at->pointer_id, tr_splat(t, address), t->exec, size,
                                               VKMM_WORKGROUP_READ));
    }
    if (at->kind == SPV_STORAGE_SHARED)
        address = first_lane(t, monitor_access(t, at->pointer_id, tr_splat(t, address), t->exec, size,
                                               VKMM_WORKGROUP_READ));
    LLVMValueRef value = LLVMBuildLoad2(t->builder, scalar, spv_to_pointer(t, address), "");
    LLVMSetAlignment(value, 1);
    LLVMBuildBr(t->builder, join);
    LLVMPositionBuilderAtEnd(t->builder, join);
    LLVMValueRef phi = LLVMBuildPhi(t->builder, scalar, "");
    LLVMValueRef values[2] = { LLVMConstNull(scalar), value };
    LLVMBasicBlockRef blocks[2] = { from, load };
    LLVMAddIncoming(phi, values, blocks, 2);
    return tr_splat(t, phi);
}

static LLVMValueRef load_scalar(struct tr *t, const struct place *at, LLVMValueRef extra, const struct spv_type *type)
{
    unsigned size = scalar_bytes(type);
    if (at->uniform && at->kind != SPV_STORAGE_LANE_SCALED && type->kind != SPV_TYPE_BOOL)
        return load_uniform_leaf(t, at, extra, spv_scalar_llvm(t, type), size);
    if (type->kind == SPV_TYPE_BOOL) {
        LLVMValueRef word = load_leaf(t, at, extra, t->i32, 4);
        return LLVMBuildICmp(t->builder, LLVMIntNE, word, LLVMConstNull(LLVMTypeOf(word)), "");
    }
    return load_leaf(t, at, extra, spv_scalar_llvm(t, type), size);
}

static void store_scalar(struct tr *t, const struct place *at, LLVMValueRef extra, const struct spv_type *type,
                         LLVMValueRef value)
{
    if (type->kind == SPV_TYPE_BOOL)
        value = LLVMBuildZExt(t->builder, value, t->lane_i32, "");
    store_leaf(t, at, extra, value, scalar_bytes(type));
}

/* Walks a value of `type_id` at AoS offset `extra`; `layout` carries the
 * matrix decorations of the member it came from.  With `value` NULL it
 * loads, otherwise it stores `value`. */
static LLVMValueRef access_value(struct tr *t, const struct place *at, LLVMValueRef extra, uint32_t type_id,
                                 struct tr_layout layout, LLVMValueRef value);

/* Walks a value component by component down to scalar leaves. */
static LLVMValueRef access_components(struct tr *t, const struct place *at, LLVMValueRef extra, uint32_t type_id,
                                 struct tr_layout layout, LLVMValueRef value)
{
    const struct spv_type *type = spv_type(t->m, type_id);
    switch (type->kind) {
    case SPV_TYPE_BOOL:
    case SPV_TYPE_INT:
    case SPV_TYPE_FLOAT:
        if (value) {
            store_scalar(t, at, extra, type, value);
            return NULL;
        }
        return load_scalar(t, at, extra, type);
    case SPV_TYPE_POINTER:
        if (value) {
            store_leaf(t, at, extra, LLVMBuildExtractValue(t->builder, value, 0, ""), 8);
            return NULL;
        }
        return spv_memory_address_pointer(t, load_leaf(t, at, extra, t->i64, 8));
    default:
        break;
    }
    unsigned count = type->kind == SPV_TYPE_STRUCT ? type->member_count : type->count;
    LLVMValueRef result = value ? NULL : LLVMGetUndef(type->value_type);
    for (unsigned i = 0; i < count; i++) {
        uint32_t element = type->element;
        uint32_t offset = 0;
        struct tr_layout inner = layout;
        if (type->kind == SPV_TYPE_STRUCT) {
            const struct spv_member *member = &type->members[i];
            element = member->type;
            offset = at->explicit_layout ? member->offset : natural_member_offset(t, type, i);
            inner.matrix_stride = member->matrix_stride;
            inner.row_major = member->row_major;
        } else if (type->kind == SPV_TYPE_ARRAY) {
            offset = i * (at->explicit_layout ? type->array_stride : natural_stride(t, element));
        } else if (type->kind == SPV_TYPE_MATRIX) {
            const struct spv_type *column = spv_type(t->m, element);
            unsigned scalar = scalar_bytes(spv_type(t->m, column->element));
            if (at->explicit_layout && layout.row_major)
                offset = i * scalar; /* column i starts at element (0, i) */
            else
                offset = i * (at->explicit_layout ? layout.matrix_stride : natural_stride(t, element));
            /* The column's components are matrix_stride apart when row-major. */
            inner.row_major = layout.row_major;
            inner.matrix_stride = at->explicit_layout && layout.row_major ? layout.matrix_stride : 0;
        } else if (type->kind == SPV_TYPE_VECTOR) {
            unsigned scalar = scalar_bytes(spv_type(t->m, element));
            offset = i * (layout.row_major && layout.matrix_stride ? layout.matrix_stride : scalar);
            inner.row_major = false;
            inner.matrix_stride = 0;
        }
        LLVMValueRef at_offset = LLVMBuildAdd(t->builder, extra, spv_i64_splat(t, offset), "");
        if (value) {
            access_value(t, at, at_offset, element, inner, LLVMBuildExtractValue(t->builder, value, i, ""));
        } else {
            LLVMValueRef part = access_value(t, at, at_offset, element, inner, NULL);
            result = LLVMBuildInsertValue(t->builder, result, part, i, "");
        }
    }
    return result;
}

/* --- Whole vectors of adjacent lanes ------------------------------------------ */

/* Lanes whose vectors sit side by side (a[i] with vec4 elements) are one
 * block of W*n scalars: one load plus a shuffle per component instead of n
 * strided accesses. */
static LLVMValueRef shuffle_mask(struct tr *t, unsigned count, unsigned first, unsigned step)
{
    LLVMValueRef indices[64];
    for (unsigned i = 0; i < count; i++)
        indices[i] = LLVMConstInt(t->i32, first + i * step, 0);
    return LLVMConstVector(indices, count);
}

/* [c0 lanes][c1 lanes]... as one <n*W> vector (n <= 4). */
static LLVMValueRef planar(struct tr *t, LLVMValueRef *parts, unsigned n)
{
    LLVMValueRef pair01 = LLVMBuildShuffleVector(t->builder, parts[0], n > 1 ? parts[1] : LLVMGetUndef(LLVMTypeOf(parts[0])),
                                                 shuffle_mask(t, 2 * t->width, 0, 1), "");
    if (n <= 2)
        return pair01;
    LLVMValueRef pair23 = LLVMBuildShuffleVector(t->builder, parts[2], n > 3 ? parts[3] : LLVMGetUndef(LLVMTypeOf(parts[2])),
                                                 shuffle_mask(t, 2 * t->width, 0, 1), "");
    return LLVMBuildShuffleVector(t->builder, pair01, pair23, shuffle_mask(t, 4 * t->width, 0, 1), "");
}

static bool block_candidate(struct tr *t, const struct place *at, const struct spv_type *type, struct tr_layout layout)
{
    if (type->kind != SPV_TYPE_VECTOR || at->kind == SPV_STORAGE_LANE_SCALED || type->count > 4 || t->width == 1)
        return false;
    if (layout.row_major && layout.matrix_stride)
        return false; /* components of a row-major column are not adjacent */
    const struct spv_type *e = spv_type(t->m, type->element);
    return e->kind == SPV_TYPE_INT || e->kind == SPV_TYPE_FLOAT;
}

/* Loads a vector: the block path when every lane is active, in bounds and
 * adjacent, the per-component path otherwise. */
static LLVMValueRef load_vector(struct tr *t, const struct place *at, LLVMValueRef extra, const struct spv_type *type,
                                struct tr_layout layout, LLVMValueRef (*slow)(struct tr *, const struct place *,
                                                                              LLVMValueRef, uint32_t, struct tr_layout,
                                                                              LLVMValueRef),
                                uint32_t type_id)
{
    const struct spv_type *e = spv_type(t->m, type->element);
    unsigned n = type->count, size = n * e->width / 8;
    LLVMTypeRef scalar = spv_scalar_llvm(t, e);
    LLVMValueRef addresses = leaf_addresses(t, &at->pointer, extra, size, at->kind);
    LLVMValueRef fast = LLVMBuildAnd(t->builder, tr_all(t, in_bounds(t, &at->pointer, addresses, size)),
                                     lanes_strided(t, addresses, size), "");
    LLVMBasicBlockRef block = new_block(t, "vector.block");
    LLVMBasicBlockRef each = new_block(t, "vector.each");
    LLVMBasicBlockRef join = new_block(t, "vector.join");
    LLVMBuildCondBr(t->builder, fast, block, each);

    LLVMPositionBuilderAtEnd(t->builder, block);
    fence_coherent(t, at, false);
    if (at->kind == SPV_STORAGE_EXPLICIT) {
        mark_accesses(t, addresses, t->exec, size, false);
        addresses = monitor_device(t, at->pointer_id, addresses, t->exec, size, VKMM_WORKGROUP_READ);
    }
    if (at->kind == SPV_STORAGE_SHARED)
        addresses = monitor_access(t, at->pointer_id, addresses, t->exec, size, VKMM_WORKGROUP_READ);
    LLVMValueRef all = LLVMBuildLoad2(t->builder, LLVMVectorType(scalar, n * t->width),
                                      spv_to_pointer(t, first_lane(t, addresses)), "");
    LLVMSetAlignment(all, 1);
    LLVMValueRef from_block = LLVMGetUndef(type->value_type);
    for (unsigned c = 0; c < n; c++) {
        LLVMValueRef component = LLVMBuildShuffleVector(t->builder, all, LLVMGetUndef(LLVMTypeOf(all)),
                                                        shuffle_mask(t, t->width, c, n), "");
        from_block = LLVMBuildInsertValue(t->builder, from_block, component, c, "");
    }
    LLVMBasicBlockRef block_end = LLVMGetInsertBlock(t->builder);
    LLVMBuildBr(t->builder, join);

    LLVMPositionBuilderAtEnd(t->builder, each);
    LLVMValueRef from_each = slow(t, at, extra, type_id, layout, NULL);
    LLVMBasicBlockRef each_end = LLVMGetInsertBlock(t->builder);
    LLVMBuildBr(t->builder, join);

    LLVMPositionBuilderAtEnd(t->builder, join);
    LLVMValueRef phi = LLVMBuildPhi(t->builder, type->value_type, "");
    LLVMValueRef values[2] = { from_block, from_each };
    LLVMBasicBlockRef blocks[2] = { block_end, each_end };
    LLVMAddIncoming(phi, values, blocks, 2);
    return phi;
}

static void store_vector(struct tr *t, const struct place *at, LLVMValueRef extra, const struct spv_type *type,
                         struct tr_layout layout, LLVMValueRef value,
                         LLVMValueRef (*slow)(struct tr *, const struct place *, LLVMValueRef, uint32_t,
                                              struct tr_layout, LLVMValueRef),
                         uint32_t type_id)
{
    const struct spv_type *e = spv_type(t->m, type->element);
    unsigned n = type->count, size = n * e->width / 8;
    LLVMValueRef addresses = leaf_addresses(t, &at->pointer, extra, size, at->kind);
    LLVMValueRef fast = LLVMBuildAnd(t->builder, tr_all(t, in_bounds(t, &at->pointer, addresses, size)),
                                     lanes_strided(t, addresses, size), "");
    LLVMBasicBlockRef block = new_block(t, "vector.block");
    LLVMBasicBlockRef each = new_block(t, "vector.each");
    LLVMBasicBlockRef join = new_block(t, "vector.join");
    LLVMBuildCondBr(t->builder, fast, block, each);

    LLVMPositionBuilderAtEnd(t->builder, block);
    fence_coherent(t, at, true);
    if (at->kind == SPV_STORAGE_EXPLICIT) {
        mark_accesses(t, addresses, t->exec, size, true);
        addresses = monitor_device(t, at->pointer_id, addresses, t->exec, size, VKMM_WORKGROUP_WRITE);
    }
    if (at->kind == SPV_STORAGE_SHARED)
        addresses = monitor_access(t, at->pointer_id, addresses, t->exec, size, VKMM_WORKGROUP_WRITE);
    LLVMValueRef parts[4];
    for (unsigned c = 0; c < n; c++)
        parts[c] = LLVMBuildExtractValue(t->builder, value, c, "");
    LLVMValueRef flat = planar(t, parts, n);
    /* element l*n + c of the block is component c of lane l */
    LLVMValueRef indices[64];
    for (unsigned l = 0; l < t->width; l++)
        for (unsigned c = 0; c < n; c++)
            indices[l * n + c] = LLVMConstInt(t->i32, c * t->width + l, 0);
    LLVMValueRef interleaved = LLVMBuildShuffleVector(t->builder, flat, LLVMGetUndef(LLVMTypeOf(flat)),
                                                      LLVMConstVector(indices, n * t->width), "");
    LLVMValueRef store = LLVMBuildStore(t->builder, interleaved, spv_to_pointer(t, first_lane(t, addresses)));
    LLVMSetAlignment(store, 1);
    LLVMBuildBr(t->builder, join);

    LLVMPositionBuilderAtEnd(t->builder, each);
    slow(t, at, extra, type_id, layout, value);
    LLVMBuildBr(t->builder, join);
    LLVMPositionBuilderAtEnd(t->builder, join);
}

static LLVMValueRef access_value(struct tr *t, const struct place *at, LLVMValueRef extra, uint32_t type_id,
                                 struct tr_layout layout, LLVMValueRef value)
{
    const struct spv_type *type = spv_type(t->m, type_id);
    if (!block_candidate(t, at, type, layout))
        return access_components(t, at, extra, type_id, layout, value);
    if (value) {
        store_vector(t, at, extra, type, layout, value, access_components, type_id);
        return NULL;
    }
    return load_vector(t, at, extra, type, layout, access_components, type_id);
}

static struct place place_of(struct tr *t, uint32_t pointer_id)
{
    const struct spv_type *ptype = spv_type(t->m, t->m->ids[pointer_id].type);
    struct place at;
    at.pointer = unpack_pointer(t, tr_get(t, pointer_id));
    at.kind = spv_storage_kind(ptype->storage_class);
    at.explicit_layout = at.kind == SPV_STORAGE_EXPLICIT;
    at.uniform = t->layouts[pointer_id].uniform;
    at.pointer_id = pointer_id;
    return at;
}

static LLVMValueRef load_through(struct tr *t, uint32_t pointer_id)
{
    const struct spv_type *ptype = spv_type(t->m, t->m->ids[pointer_id].type);
    struct place at = place_of(t, pointer_id);
    return access_value(t, &at, spv_i64_splat(t, 0), ptype->element, t->layouts[pointer_id], NULL);
}

static void store_through(struct tr *t, uint32_t pointer_id, LLVMValueRef value)
{
    const struct spv_type *ptype = spv_type(t->m, t->m->ids[pointer_id].type);
    struct place at = place_of(t, pointer_id);
    access_value(t, &at, spv_i64_splat(t, 0), ptype->element, t->layouts[pointer_id], value);
}

void spv_store_pointer(struct tr *t, uint32_t pointer_id, LLVMValueRef value)
{
    store_through(t, pointer_id, value);
}

/* --- Access chains ---------------------------------------------------------------- */

static LLVMValueRef index_i64(struct tr *t, uint32_t id)
{
    LLVMValueRef index = tr_get(t, id);
    unsigned width = LLVMGetIntTypeWidth(LLVMGetElementType(LLVMTypeOf(index)));
    if (width == 64)
        return index;
    /* The spec: access chain indexes are treated as signed. */
    return LLVMBuildSExt(t->builder, index, t->lane_i64, "");
}

static bool constant_index(struct tr *t, uint32_t id, uint32_t *out)
{
    const struct spv_id *c = &t->m->ids[id];
    if (c->kind != SPV_ID_CONSTANT || t->m->insns[c->insn].opcode != SpvOpConstant)
        return false;
    *out = spv_words(t->m, &t->m->insns[c->insn])[3];
    return true;
}

static bool translate_access_chain(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    struct spv_module *m = t->m;
    uint32_t base_id = w[3];
    const struct spv_type *base_type = spv_type(m, m->ids[base_id].type);
    enum spv_storage_kind kind = spv_storage_kind(base_type->storage_class);
    bool explicit_layout = kind == SPV_STORAGE_EXPLICIT;
    struct tr_pointer p = unpack_pointer(t, tr_get(t, base_id));
    struct tr_layout layout = t->layouts[base_id];
    uint32_t type_id = base_type->element;
    uint32_t first = 4;
    LLVMValueRef offset = spv_i64_splat(t, 0);
    bool uniform = layout.uniform && insn->opcode != SpvOpPtrAccessChain;
    for (uint32_t k = 4; k < insn->word_count; k++) {
        uint32_t ignored;
        uniform &= constant_index(t, w[k], &ignored);
    }

    if (insn->opcode == SpvOpPtrAccessChain) {
        uint32_t stride = base_type->array_stride;
        offset = LLVMBuildMul(t->builder, index_i64(t, w[4]), spv_i64_splat(t, stride), "");
        first = 5;
    }
    const struct spv_id *base = &m->ids[base_id];
    if (base->kind == SPV_ID_VARIABLE && spv_is_descriptor_array(t, &m->variables[base->variable]) &&
        first < insn->word_count) {
        const struct vkmm_compile_binding *binding = spv_find_binding(t, base->set, base->binding);
        p = spv_descriptor_pointer(t, base->set, binding->first, binding->count, index_i64(t, w[first]));
        type_id = spv_type(m, type_id)->element;
        first++;
    }
    for (uint32_t k = first; k < insn->word_count; k++) {
        const struct spv_type *type = spv_type(m, type_id);
        uint32_t constant;
        switch (type->kind) {
        case SPV_TYPE_STRUCT: {
            if (!constant_index(t, w[k], &constant) || constant >= type->member_count)
                return spv_fail(t->error, "struct index at word %u is not a constant member", insn->offset);
            const struct spv_member *member = &type->members[constant];
            uint32_t member_offset = explicit_layout ? member->offset : natural_member_offset(t, type, constant);
            offset = LLVMBuildAdd(t->builder, offset, spv_i64_splat(t, member_offset), "");
            layout.matrix_stride = member->matrix_stride;
            layout.row_major = member->row_major;
            type_id = member->type;
            break;
        }
        case SPV_TYPE_ARRAY:
        case SPV_TYPE_RUNTIME_ARRAY: {
            uint32_t stride = explicit_layout ? type->array_stride : natural_stride(t, type->element);
            offset = LLVMBuildAdd(t->builder, offset,
                                  LLVMBuildMul(t->builder, index_i64(t, w[k]), spv_i64_splat(t, stride), ""), "");
            type_id = type->element;
            break;
        }
        case SPV_TYPE_MATRIX: {
            const struct spv_type *column = spv_type(m, type->element);
            unsigned scalar = scalar_bytes(spv_type(m, column->element));
            uint32_t stride;
            if (explicit_layout && layout.row_major)
                stride = scalar;
            else
                stride = explicit_layout ? layout.matrix_stride : natural_stride(t, type->element);
            offset = LLVMBuildAdd(t->builder, offset,
                                  LLVMBuildMul(t->builder, index_i64(t, w[k]), spv_i64_splat(t, stride), ""), "");
            if (!(explicit_layout && layout.row_major))
                layout.matrix_stride = 0;
            type_id = type->element;
            break;
        }
        case SPV_TYPE_VECTOR: {
            unsigned scalar = scalar_bytes(spv_type(m, type->element));
            uint32_t stride = layout.row_major && layout.matrix_stride ? layout.matrix_stride : scalar;
            offset = LLVMBuildAdd(t->builder, offset,
                                  LLVMBuildMul(t->builder, index_i64(t, w[k]), spv_i64_splat(t, stride), ""), "");
            layout.row_major = false;
            layout.matrix_stride = 0;
            type_id = type->element;
            break;
        }
        default:
            return spv_fail(t->error, "access chain into a scalar at word %u", insn->offset);
        }
    }
    if (kind == SPV_STORAGE_LANE_SCALED)
        offset = LLVMBuildMul(t->builder, offset, spv_i64_splat(t, t->width), "");
    p.addr = LLVMBuildAdd(t->builder, p.addr, offset, "");
    uint32_t component;
    const struct spv_type *vector = t->builtin_variable[base_id] ? spv_builtin_type(t, base_id) : NULL;
    if (vector && vector->kind == SPV_TYPE_VECTOR && !t->builtin_component[base_id] && insn->word_count == 5 &&
        constant_index(t, w[4], &component)) {
        /* A constant index past the vector's end is valid SPIR-V whose
         * result is undefined: component 0 is as good a value as any. */
        if (component >= vector->count)
            component = 0;
        t->builtin_variable[w[2]] = t->builtin_variable[base_id];
        t->builtin_component[w[2]] = component + 1;
    }
    layout.uniform = uniform;
    t->layouts[w[2]] = layout;
    tr_set(t, w[2], spv_pack_pointer(t, p));
    return true;
}

static bool translate_array_length(struct tr *t, const uint32_t *w)
{
    struct spv_module *m = t->m;
    const struct spv_type *ptype = spv_type(m, m->ids[w[3]].type);
    const struct spv_type *block = spv_type(m, ptype->element);
    const struct spv_member *member = &block->members[w[4]];
    const struct spv_type *array = spv_type(m, member->type);
    struct tr_pointer p = unpack_pointer(t, tr_get(t, w[3]));
    LLVMValueRef start = LLVMBuildAdd(t->builder, p.addr, spv_i64_splat(t, member->offset), "");
    LLVMValueRef has_room = LLVMBuildICmp(t->builder, LLVMIntUGT, p.hi, start, "");
    LLVMValueRef bytes = LLVMBuildSelect(t->builder, has_room, LLVMBuildSub(t->builder, p.hi, start, ""),
                                         spv_i64_splat(t, 0), "");
    LLVMValueRef length = LLVMBuildUDiv(t->builder, bytes,
                                        spv_i64_splat(t, array->array_stride ? array->array_stride : 1), "");
    tr_set(t, w[2], LLVMBuildTrunc(t->builder, length, t->lane_i32, ""));
    return true;
}

/* Bitcasts that involve a pointer: to or from a 64-bit integer or a uvec2
 * (other bitcasts are arithmetic's). */
static bool translate_pointer_bitcast(struct tr *t, const uint32_t *w)
{
    struct spv_module *m = t->m;
    const struct spv_type *to = spv_type(m, w[1]);
    const struct spv_type *from = spv_type(m, m->ids[w[3]].type);
    LLVMValueRef value = tr_get(t, w[3]);
    if (to->kind == SPV_TYPE_POINTER && from->kind == SPV_TYPE_POINTER) {
        tr_set(t, w[2], value);
        return true;
    }
    if (to->kind == SPV_TYPE_POINTER) {
        if (from->kind == SPV_TYPE_VECTOR) {
            LLVMValueRef low = LLVMBuildZExt(t->builder, LLVMBuildExtractValue(t->builder, value, 0, ""), t->lane_i64, "");
            LLVMValueRef high = LLVMBuildZExt(t->builder, LLVMBuildExtractValue(t->builder, value, 1, ""), t->lane_i64, "");
            value = LLVMBuildOr(t->builder, low, LLVMBuildShl(t->builder, high, spv_i64_splat(t, 32), ""), "");
        }
        tr_set(t, w[2], spv_memory_address_pointer(t, value));
        return true;
    }
    LLVMValueRef address = LLVMBuildExtractValue(t->builder, value, 0, "");
    if (to->kind == SPV_TYPE_VECTOR) {
        LLVMValueRef pair = LLVMGetUndef(to->value_type);
        pair = LLVMBuildInsertValue(t->builder, pair, LLVMBuildTrunc(t->builder, address, t->lane_i32, ""), 0, "");
        LLVMValueRef high = LLVMBuildTrunc(t->builder, LLVMBuildLShr(t->builder, address, spv_i64_splat(t, 32), ""),
                                           t->lane_i32, "");
        tr_set(t, w[2], LLVMBuildInsertValue(t->builder, pair, high, 1, ""));
        return true;
    }
    tr_set(t, w[2], address);
    return true;
}

/* --- Atomics ---------------------------------------------------------------------- */

static LLVMAtomicRMWBinOp rmw_op(uint16_t opcode, bool *handled)
{
    *handled = true;
    switch (opcode) {
    case SpvOpAtomicExchange: return LLVMAtomicRMWBinOpXchg;
    case SpvOpAtomicIAdd:
    case SpvOpAtomicIIncrement: return LLVMAtomicRMWBinOpAdd;
    case SpvOpAtomicISub:
    case SpvOpAtomicIDecrement: return LLVMAtomicRMWBinOpSub;
    case SpvOpAtomicSMin: return LLVMAtomicRMWBinOpMin;
    case SpvOpAtomicUMin: return LLVMAtomicRMWBinOpUMin;
    case SpvOpAtomicSMax: return LLVMAtomicRMWBinOpMax;
    case SpvOpAtomicUMax: return LLVMAtomicRMWBinOpUMax;
    case SpvOpAtomicAnd: return LLVMAtomicRMWBinOpAnd;
    case SpvOpAtomicOr: return LLVMAtomicRMWBinOpOr;
    case SpvOpAtomicXor: return LLVMAtomicRMWBinOpXor;
    case SpvOpAtomicFAddEXT: return LLVMAtomicRMWBinOpFAdd;
    case SpvOpAtomicFMinEXT: return LLVMAtomicRMWBinOpFMin;
    case SpvOpAtomicFMaxEXT: return LLVMAtomicRMWBinOpFMax;
    default:
        *handled = false;
        return LLVMAtomicRMWBinOpXchg;
    }
}

/* Atomics run lane by lane (lane order is one of the orders the model
 * allows), each on its own bounds-checked address; inactive and
 * out-of-bounds lanes do nothing and return zero. */
static bool translate_atomic(struct tr *t, const struct spv_insn *insn, const uint32_t *w)
{
    struct spv_module *m = t->m;
    uint16_t op = insn->opcode;
    bool is_store = op == SpvOpAtomicStore;
    uint32_t pointer_id = is_store ? w[1] : w[3];
    const struct spv_type *ptype = spv_type(m, m->ids[pointer_id].type);
    const struct spv_type *scalar = spv_type(m, ptype->element);
    LLVMTypeRef element = spv_scalar_llvm(t, scalar);
    unsigned size = scalar->width / 8;
    struct place at = place_of(t, pointer_id);
    LLVMValueRef addresses = leaf_addresses(t, &at.pointer, spv_i64_splat(t, 0), size, at.kind);
    LLVMValueRef mask = in_bounds(t, &at.pointer, addresses, size);
    uint32_t scope = constant_of(m, is_store ? w[2] : w[4]);
    uint32_t semantics = constant_of(m, is_store ? w[3] : w[5]);
    if (op == SpvOpAtomicCompareExchange)
        semantics |= constant_of(m, w[6]);
    spv_device_fence(t, scope, semantics, true, false);
    if (at.kind == SPV_STORAGE_EXPLICIT) {
        if (!is_store)
            mark_accesses(t, addresses, mask, size, false);
        if (op != SpvOpAtomicLoad)
            mark_accesses(t, addresses, mask, size, true);
        addresses = monitor_device(t, pointer_id, addresses, mask, size,
                                   VKMM_WORKGROUP_ATOMIC | (is_store ? 0 : VKMM_WORKGROUP_READ) |
                                       (op == SpvOpAtomicLoad ? 0 : VKMM_WORKGROUP_WRITE));
    }
    if (at.kind == SPV_STORAGE_SHARED)
        addresses = monitor_access(t, pointer_id, addresses, mask, size,
                                   VKMM_WORKGROUP_ATOMIC | (is_store ? 0 : VKMM_WORKGROUP_READ) |
                                       (op == SpvOpAtomicLoad ? 0 : VKMM_WORKGROUP_WRITE));
    LLVMValueRef operand = NULL, comparator = NULL;
    if (is_store)
        operand = tr_get(t, w[4]);
    else if (op == SpvOpAtomicCompareExchange) {
        operand = tr_get(t, w[7]);
        comparator = tr_get(t, w[8]);
    } else if (op == SpvOpAtomicIIncrement || op == SpvOpAtomicIDecrement) {
        operand = tr_splat(t, LLVMConstInt(element, 1, 0));
    } else if (op != SpvOpAtomicLoad) {
        operand = tr_get(t, w[6]);
    }
    LLVMValueRef result = LLVMConstNull(LLVMVectorType(element, t->width));
    for (unsigned lane = 0; lane < t->width; lane++) {
        LLVMValueRef index = LLVMConstInt(t->i32, lane, 0);
        LLVMValueRef active = LLVMBuildExtractElement(t->builder, mask, index, "");
        LLVMBasicBlockRef run = new_block(t, "atomic.lane");
        LLVMBasicBlockRef skip = new_block(t, "atomic.next");
        LLVMBasicBlockRef from = LLVMGetInsertBlock(t->builder);
        LLVMBuildCondBr(t->builder, active, run, skip);
        LLVMPositionBuilderAtEnd(t->builder, run);
        LLVMValueRef address = spv_to_pointer(t, LLVMBuildExtractElement(t->builder, addresses, index, ""));
        LLVMValueRef lane_operand = operand ? LLVMBuildExtractElement(t->builder, operand, index, "") : NULL;
        LLVMValueRef old;
        if (op == SpvOpAtomicLoad) {
            old = LLVMBuildLoad2(t->builder, element, address, "");
            LLVMSetOrdering(old, LLVMAtomicOrderingSequentiallyConsistent);
            LLVMSetAlignment(old, size);
        } else if (is_store) {
            LLVMValueRef store = LLVMBuildStore(t->builder, lane_operand, address);
            LLVMSetOrdering(store, LLVMAtomicOrderingSequentiallyConsistent);
            LLVMSetAlignment(store, size);
            old = LLVMConstNull(element);
        } else if (op == SpvOpAtomicCompareExchange) {
            LLVMValueRef lane_comparator = LLVMBuildExtractElement(t->builder, comparator, index, "");
            LLVMValueRef pair = LLVMBuildAtomicCmpXchg(t->builder, address, lane_comparator, lane_operand,
                                                       LLVMAtomicOrderingSequentiallyConsistent,
                                                       LLVMAtomicOrderingSequentiallyConsistent, 0);
            old = LLVMBuildExtractValue(t->builder, pair, 0, "");
        } else {
            bool known;
            LLVMAtomicRMWBinOp rmw = rmw_op(op, &known);
            if (!known)
                return spv_fail(t->error, "unsupported atomic %s at word %u", spv_opcode_name(op), insn->offset);
            old = LLVMBuildAtomicRMW(t->builder, rmw, address, lane_operand, LLVMAtomicOrderingSequentiallyConsistent, 0);
        }
        LLVMValueRef updated = LLVMBuildInsertElement(t->builder, result, old, index, "");
        LLVMBasicBlockRef run_end = LLVMGetInsertBlock(t->builder);
        LLVMBuildBr(t->builder, skip);
        LLVMPositionBuilderAtEnd(t->builder, skip);
        LLVMValueRef phi = LLVMBuildPhi(t->builder, LLVMTypeOf(result), "");
        LLVMValueRef values[2] = { result, updated };
        LLVMBasicBlockRef blocks[2] = { from, run_end };
        LLVMAddIncoming(phi, values, blocks, 2);
        result = phi;
    }
    spv_device_fence(t, scope, semantics, false, true);
    if (!is_store)
        tr_set(t, w[2], result);
    return true;
}

/* --- Barriers --------------------------------------------------------------------- */

/* Memory semantics of OpMemoryBarrier / OpControlBarrier.  Work of one
 * workgroup runs on one thread, so only device-scope semantics need a
 * hardware fence (other workgroups run on other threads). */
static void memory_barrier(struct tr *t, uint32_t scope_id, uint32_t semantics_id)
{
    struct spv_module *m = t->m;
    uint32_t scope = spv_words(m, &m->insns[m->ids[scope_id].insn])[3];
    uint32_t semantics = spv_words(m, &m->insns[m->ids[semantics_id].insn])[3];
    if (!(semantics & ~0x1fu) || scope == SpvScopeWorkgroup || scope == SpvScopeSubgroup || scope == SpvScopeInvocation)
        return;
    LLVMBuildFence(t->builder, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
}

/* --- Dispatch ---------------------------------------------------------------------- */

bool spv_translate_memory(struct tr *t, const struct spv_insn *insn, bool *handled)
{
    const uint32_t *w = spv_words(t->m, insn);
    *handled = true;
    switch (insn->opcode) {
    case SpvOpVariable:
        return true; /* storage assigned in spv_memory_layout */
    case SpvOpLoad:
        if (!spv_load_builtin(t, w))
            tr_set(t, w[2], load_through(t, w[3]));
        return true;
    case SpvOpStore:
        store_through(t, w[1], tr_get(t, w[2]));
        return true;
    case SpvOpCopyMemory: {
        LLVMValueRef value = load_through(t, w[2]);
        store_through(t, w[1], value);
        return true;
    }
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain:
    case SpvOpPtrAccessChain:
        return translate_access_chain(t, insn, w);
    case SpvOpArrayLength:
        return translate_array_length(t, w);
    case SpvOpConvertUToPtr:
        tr_set(t, w[2], spv_memory_address_pointer(t, tr_get(t, w[3])));
        return true;
    case SpvOpConvertPtrToU:
        tr_set(t, w[2], LLVMBuildExtractValue(t->builder, tr_get(t, w[3]), 0, ""));
        return true;
    case SpvOpBitcast:
        return translate_pointer_bitcast(t, w);
    case SpvOpMemoryBarrier:
        memory_barrier(t, w[1], w[2]);
        spv_device_fence(t, constant_of(t->m, w[1]), constant_of(t->m, w[2]), true, true);
        return true;
    case SpvOpControlBarrier:
        /* The visibility half comes after the barrier (translate.c). */
        memory_barrier(t, w[2], w[3]);
        spv_device_fence(t, constant_of(t->m, w[2]), constant_of(t->m, w[3]), true, false);
        spv_monitor_control_barrier(t, spv_words(t->m, &t->m->insns[t->m->ids[w[1]].insn])[3],
                                    spv_words(t->m, &t->m->insns[t->m->ids[w[3]].insn])[3]);
        return true;
    case SpvOpAtomicLoad:
    case SpvOpAtomicStore:
    case SpvOpAtomicExchange:
    case SpvOpAtomicCompareExchange:
    case SpvOpAtomicIIncrement:
    case SpvOpAtomicIDecrement:
    case SpvOpAtomicIAdd:
    case SpvOpAtomicISub:
    case SpvOpAtomicSMin:
    case SpvOpAtomicUMin:
    case SpvOpAtomicSMax:
    case SpvOpAtomicUMax:
    case SpvOpAtomicAnd:
    case SpvOpAtomicOr:
    case SpvOpAtomicXor:
    case SpvOpAtomicFAddEXT:
    case SpvOpAtomicFMinEXT:
    case SpvOpAtomicFMaxEXT:
        return translate_atomic(t, insn, w);
    default:
        *handled = false;
        return true;
    }
}
