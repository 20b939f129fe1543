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
 * Strict mode's hooks on these accesses (the exact-access marks, the
 * workgroup- and device-memory monitors, fences at their scope) are
 * lower_monitor.c's. */
#include <stdio.h>

#include "spirv_names.h"
#include "lower_memory.h"
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

struct tr_pointer spv_unpack_pointer(struct tr *t, LLVMValueRef value)
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
uint32_t spv_natural_member_offset(struct tr *t, const struct spv_type *type, uint32_t index)
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

uint32_t spv_natural_stride(struct tr *t, uint32_t element)
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
    spv_fence_coherent(t, at, false);
    if (kind == SPV_STORAGE_EXPLICIT) {
        addresses = spv_monitor_device_access(t, at->pointer_id, addresses, mask, size, VKMM_WORKGROUP_READ);
    }
    if (kind == SPV_STORAGE_SHARED)
        addresses = spv_monitor_workgroup_access(t, at->pointer_id, addresses, mask, size, VKMM_WORKGROUP_READ);
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
    spv_fence_coherent(t, at, true);
    if (kind == SPV_STORAGE_EXPLICIT) {
        addresses = spv_monitor_device_access(t, at->pointer_id, addresses, mask, size, VKMM_WORKGROUP_WRITE);
    }
    if (kind == SPV_STORAGE_SHARED)
        addresses = spv_monitor_workgroup_access(t, at->pointer_id, addresses, mask, size, VKMM_WORKGROUP_WRITE);
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

unsigned spv_scalar_bytes(const struct spv_type *type)
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
    spv_fence_coherent(t, at, false);
    if (at->kind == SPV_STORAGE_EXPLICIT) {
        /* The monitor moves the active lanes only (a racing read sees the
         * bytes from before the dispatch): the first active lane's address. */
        LLVMValueRef splat = tr_splat(t, address);
        LLVMValueRef moved = spv_monitor_device_access(t, at->pointer_id, splat, t->exec, size, VKMM_WORKGROUP_READ);
        if (moved != splat) /* strict mode's monitor is there */
            address = LLVMBuildExtractElement(t->builder, moved, tr_first_active_lane(t), "");
    }
    if (at->kind == SPV_STORAGE_SHARED)
        address = first_lane(t, spv_monitor_workgroup_access(t, at->pointer_id, tr_splat(t, address), t->exec, size,
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
    unsigned size = spv_scalar_bytes(type);
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
    store_leaf(t, at, extra, value, spv_scalar_bytes(type));
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
        if (type->storage_class == SpvStorageClassPhysicalStorageBuffer) {
            if (value) {
                store_leaf(t, at, extra, LLVMBuildExtractValue(t->builder, value, 0, ""), 8);
                return NULL;
            }
            return spv_memory_address_pointer(t, load_leaf(t, at, extra, t->i64, 8));
        }
        /* A logical pointer (variable pointers: only Function and Private
         * variables hold one) keeps its bounds in memory: address, low and
         * high, 8 bytes each (spirv_types.c). */
        {
            LLVMValueRef parts[3];
            for (unsigned k = 0; k < 3; k++) {
                LLVMValueRef at_part = LLVMBuildAdd(t->builder, extra, spv_i64_splat(t, 8 * k), "");
                if (value)
                    store_leaf(t, at, at_part, LLVMBuildExtractValue(t->builder, value, k, ""), 8);
                else
                    parts[k] = load_leaf(t, at, at_part, t->i64, 8);
            }
            return value ? NULL : spv_pack_pointer(t, (struct tr_pointer){ parts[0], parts[1], parts[2] });
        }
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
            offset = at->explicit_layout ? member->offset : spv_natural_member_offset(t, type, i);
            inner.matrix_stride = member->matrix_stride;
            inner.row_major = member->row_major;
        } else if (type->kind == SPV_TYPE_ARRAY) {
            offset = i * (at->explicit_layout ? type->array_stride : spv_natural_stride(t, element));
        } else if (type->kind == SPV_TYPE_MATRIX) {
            const struct spv_type *column = spv_type(t->m, element);
            unsigned scalar = spv_scalar_bytes(spv_type(t->m, column->element));
            if (at->explicit_layout && layout.row_major)
                offset = i * scalar; /* column i starts at element (0, i) */
            else
                offset = i * (at->explicit_layout ? layout.matrix_stride : spv_natural_stride(t, element));
            /* The column's components are matrix_stride apart when row-major. */
            inner.row_major = layout.row_major;
            inner.matrix_stride = at->explicit_layout && layout.row_major ? layout.matrix_stride : 0;
        } else if (type->kind == SPV_TYPE_VECTOR) {
            unsigned scalar = spv_scalar_bytes(spv_type(t->m, element));
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
    spv_fence_coherent(t, at, false);
    if (at->kind == SPV_STORAGE_EXPLICIT) {
        addresses = spv_monitor_device_access(t, at->pointer_id, addresses, t->exec, size, VKMM_WORKGROUP_READ);
    }
    if (at->kind == SPV_STORAGE_SHARED)
        addresses = spv_monitor_workgroup_access(t, at->pointer_id, addresses, t->exec, size, VKMM_WORKGROUP_READ);
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
    spv_fence_coherent(t, at, true);
    if (at->kind == SPV_STORAGE_EXPLICIT) {
        addresses = spv_monitor_device_access(t, at->pointer_id, addresses, t->exec, size, VKMM_WORKGROUP_WRITE);
    }
    if (at->kind == SPV_STORAGE_SHARED)
        addresses = spv_monitor_workgroup_access(t, at->pointer_id, addresses, t->exec, size, VKMM_WORKGROUP_WRITE);
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
    at.pointer = spv_unpack_pointer(t, tr_get(t, pointer_id));
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

LLVMValueRef spv_lane_addresses(struct tr *t, uint32_t pointer_id, unsigned *size, enum spv_storage_kind *kind)
{
    const struct spv_type *ptype = spv_type(t->m, t->m->ids[pointer_id].type);
    struct place at = place_of(t, pointer_id);
    *size = spv_type(t->m, ptype->element)->width / 8;
    *kind = at.kind;
    return leaf_addresses(t, &at.pointer, spv_i64_splat(t, 0), *size, at.kind);
}

void spv_store_pointer(struct tr *t, uint32_t pointer_id, LLVMValueRef value)
{
    store_through(t, pointer_id, value);
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
    uint32_t scope = spv_constant_of(m, is_store ? w[2] : w[4]);
    uint32_t semantics = spv_constant_of(m, is_store ? w[3] : w[5]);
    if (op == SpvOpAtomicCompareExchange)
        semantics |= spv_constant_of(m, w[6]);
    spv_device_fence(t, scope, semantics, true, false);
    spv_monitor_workgroup_sync(t, scope, semantics, true, op != SpvOpAtomicLoad, !is_store);
    if (at.kind == SPV_STORAGE_EXPLICIT) {
        addresses = spv_monitor_device_access(t, pointer_id, addresses, mask, size,
                                   VKMM_WORKGROUP_ATOMIC | (is_store ? 0 : VKMM_WORKGROUP_READ) |
                                       (op == SpvOpAtomicLoad ? 0 : VKMM_WORKGROUP_WRITE));
    }
    if (at.kind == SPV_STORAGE_SHARED)
        addresses = spv_monitor_workgroup_access(t, pointer_id, addresses, mask, size,
                                   VKMM_WORKGROUP_ATOMIC | (is_store ? 0 : VKMM_WORKGROUP_READ) |
                                       (op == SpvOpAtomicLoad ? 0 : VKMM_WORKGROUP_WRITE) |
                                       (scope == SpvScopeSubgroup || scope == SpvScopeInvocation
                                            ? VKMM_ACCESS_NARROW_ATOMIC
                                            : 0));
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
    spv_device_fence_kind(t, scope, semantics, false, true,
                          at.kind == SPV_STORAGE_EXPLICIT ? VKMM_FENCE_ATOMIC
                          : at.kind == SPV_STORAGE_SHARED ? VKMM_FENCE_SHARED_ATOMIC
                                                          : 0);
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

/* OpPtrDiff: (a - b) in elements of the pointee, with the stride
 * OpPtrAccessChain would use (lower_access_chain.c). */
static bool translate_pointer_difference(struct tr *t, const uint32_t *w)
{
    const struct spv_type *pointer = spv_type(t->m, t->m->ids[w[3]].type);
    uint32_t stride = pointer->array_stride ? pointer->array_stride : spv_natural_stride(t, pointer->element);
    LLVMValueRef a = LLVMBuildExtractValue(t->builder, tr_get(t, w[3]), 0, "");
    LLVMValueRef b = LLVMBuildExtractValue(t->builder, tr_get(t, w[4]), 0, "");
    LLVMValueRef bytes = LLVMBuildSub(t->builder, a, b, "");
    LLVMValueRef elements = LLVMBuildSDiv(t->builder, bytes, spv_i64_splat(t, stride ? stride : 1), "");
    const struct spv_type *result = spv_type(t->m, w[1]);
    LLVMTypeRef lane = LLVMVectorType(LLVMIntTypeInContext(t->context, result->width), t->width);
    tr_set(t, w[2], LLVMBuildIntCast2(t->builder, elements, lane, 1, ""));
    return true;
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
        return spv_translate_access_chain(t, insn, w);
    case SpvOpArrayLength:
        return spv_translate_array_length(t, w);
    case SpvOpConvertUToPtr:
        tr_set(t, w[2], spv_memory_address_pointer(t, tr_get(t, w[3])));
        return true;
    case SpvOpPtrEqual:
    case SpvOpPtrNotEqual: {
        LLVMValueRef a = LLVMBuildExtractValue(t->builder, tr_get(t, w[3]), 0, "");
        LLVMValueRef b = LLVMBuildExtractValue(t->builder, tr_get(t, w[4]), 0, "");
        tr_set(t, w[2], LLVMBuildICmp(t->builder, insn->opcode == SpvOpPtrEqual ? LLVMIntEQ : LLVMIntNE, a, b, ""));
        return true;
    }
    case SpvOpPtrDiff:
        return translate_pointer_difference(t, w);
    case SpvOpConvertPtrToU:
        tr_set(t, w[2], LLVMBuildExtractValue(t->builder, tr_get(t, w[3]), 0, ""));
        return true;
    case SpvOpBitcast:
        return spv_translate_pointer_bitcast(t, w);
    case SpvOpMemoryBarrier:
        memory_barrier(t, w[1], w[2]);
        spv_device_fence(t, spv_constant_of(t->m, w[1]), spv_constant_of(t->m, w[2]), true, true);
        spv_monitor_workgroup_fence(t, spv_constant_of(t->m, w[2]));
        spv_monitor_workgroup_sync(t, spv_constant_of(t->m, w[1]), spv_constant_of(t->m, w[2]), false, false, false);
        return true;
    case SpvOpControlBarrier:
        /* The visibility half comes after the barrier (translate.c). */
        memory_barrier(t, w[2], w[3]);
        spv_device_fence(t, spv_constant_of(t->m, w[2]), spv_constant_of(t->m, w[3]), true, false);
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
