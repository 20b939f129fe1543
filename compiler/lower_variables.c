/* Variables: where each module-scope variable's storage is (descriptor
 * tables for buffers, the workgroup's shared memory, the lane-scaled private
 * area, push constants), the pointers lower_memory.c's accesses start from,
 * and the compute builtins, computed rather than read from memory. */
#include <stdlib.h>
#include <string.h>

#include "spirv_private.h"

/* --- Variables ------------------------------------------------------------------------ */

static LLVMValueRef byte_offset(struct tr *t, LLVMValueRef pointer, uint64_t offset)
{
    LLVMValueRef index = LLVMConstInt(t->i64, offset, 0);
    return LLVMBuildGEP2(t->builder, t->i8, pointer, &index, 1, "");
}

static LLVMValueRef descriptor_table(struct tr *t, uint32_t set)
{
    return tr_invocation_field(t, VKMM_INVOCATION_SETS + 8 * set, t->ptr);
}

const struct vkmm_compile_binding *spv_find_binding(struct tr *t, uint32_t set, uint32_t binding)
{
    if (set >= t->options->set_count)
        return NULL;
    const struct vkmm_compile_set *s = &t->options->sets[set];
    for (uint32_t i = 0; i < s->binding_count; i++) {
        if (s->bindings[i].binding == binding)
            return &s->bindings[i];
    }
    return NULL;
}

/* The pointer to the buffer of descriptor `first + index` of a set, per
 * lane; an index outside the binding gives a pointer that reaches nothing. */
struct tr_pointer spv_descriptor_pointer(struct tr *t, uint32_t set, uint32_t first, uint32_t count,
                                         LLVMValueRef index)
{
    LLVMValueRef table = LLVMBuildPtrToInt(t->builder, descriptor_table(t, set), t->i64, "");
    LLVMValueRef valid = LLVMBuildICmp(t->builder, LLVMIntULT, index, spv_i64_splat(t, count), "");
    LLVMValueRef element = LLVMBuildSelect(t->builder, valid, index, spv_i64_splat(t, 0), "");
    LLVMValueRef entry = LLVMBuildAdd(t->builder, tr_splat(t, table),
                                      LLVMBuildMul(t->builder, LLVMBuildAdd(t->builder, element,
                                                                            spv_i64_splat(t, first), ""),
                                                   spv_i64_splat(t, VKMM_DESCRIPTOR_SIZE), ""), "");
    LLVMTypeRef overloads[2] = { t->lane_i64, LLVMVectorType(t->ptr, t->width) };
    LLVMValueRef all = tr_splat(t, LLVMConstInt(t->i1, 1, 0));
    LLVMValueRef base_args[4] = { spv_to_pointers(t, entry), LLVMConstInt(t->i32, 8, 0), all, spv_i64_splat(t, 0) };
    LLVMValueRef base = tr_call_intrinsic(t, "llvm.masked.gather", overloads, 2, base_args, 4);
    LLVMValueRef range_entry = LLVMBuildAdd(t->builder, entry, spv_i64_splat(t, VKMM_DESCRIPTOR_RANGE), "");
    LLVMValueRef range_args[4] = { spv_to_pointers(t, range_entry), LLVMConstInt(t->i32, 8, 0), all, spv_i64_splat(t, 0) };
    LLVMValueRef range = tr_call_intrinsic(t, "llvm.masked.gather", overloads, 2, range_args, 4);
    range = LLVMBuildSelect(t->builder, valid, range, spv_i64_splat(t, 0), "");
    struct tr_pointer p = { base, base, LLVMBuildAdd(t->builder, base, range, "") };
    return p;
}

/* The pointer of a binding that is not an array: the same for all lanes. */
static struct tr_pointer single_descriptor_pointer(struct tr *t, uint32_t set, uint32_t first)
{
    LLVMValueRef entry = byte_offset(t, descriptor_table(t, set), (uint64_t)first * VKMM_DESCRIPTOR_SIZE);
    LLVMValueRef base = LLVMBuildLoad2(t->builder, t->i64, byte_offset(t, entry, VKMM_DESCRIPTOR_BASE), "");
    LLVMValueRef range = LLVMBuildLoad2(t->builder, t->i64, byte_offset(t, entry, VKMM_DESCRIPTOR_RANGE), "");
    struct tr_pointer p = { tr_splat(t, base), tr_splat(t, base),
                            tr_splat(t, LLVMBuildAdd(t->builder, base, range, "")) };
    return p;
}

bool spv_is_descriptor_array(struct tr *t, const struct spv_variable *v)
{
    const struct spv_type *type = spv_type(t->m, v->pointee);
    return spv_storage_kind(v->storage_class) == SPV_STORAGE_EXPLICIT && v->storage_class != SpvStorageClassPushConstant &&
           (type->kind == SPV_TYPE_ARRAY || type->kind == SPV_TYPE_RUNTIME_ARRAY);
}

static bool variable_pointer(struct tr *t, const struct spv_variable *v, struct tr_pointer *out)
{
    struct spv_id *id = &t->m->ids[v->id];
    switch (v->storage_class) {
    case SpvStorageClassWorkgroup: {
        LLVMValueRef base = LLVMBuildPtrToInt(t->builder,
                                              tr_invocation_field(t, VKMM_INVOCATION_SHARED_MEMORY, t->ptr), t->i64, "");
        LLVMValueRef start = LLVMBuildAdd(t->builder, base, LLVMConstInt(t->i64, v->offset, 0), "");
        out->addr = out->lo = tr_splat(t, start);
        out->hi = tr_splat(t, LLVMBuildAdd(t->builder, start, LLVMConstInt(t->i64, v->size, 0), ""));
        t->layouts[v->id].uniform = true;
        return true;
    }
    case SpvStorageClassFunction:
    case SpvStorageClassPrivate:
    case SpvStorageClassInput:
    case SpvStorageClassOutput: {
        LLVMValueRef start = LLVMBuildAdd(t->builder, t->private_base,
                                          LLVMConstInt(t->i64, (uint64_t)v->offset * t->width, 0), "");
        out->addr = out->lo = tr_splat(t, start);
        out->hi = tr_splat(t, LLVMBuildAdd(t->builder, start,
                                           LLVMConstInt(t->i64, (uint64_t)v->size * t->width, 0), ""));
        return true;
    }
    case SpvStorageClassPushConstant: {
        LLVMValueRef base = LLVMBuildPtrToInt(t->builder,
                                              tr_invocation_field(t, VKMM_INVOCATION_PUSH_CONSTANTS, t->ptr), t->i64, "");
        out->addr = out->lo = tr_splat(t, base);
        out->hi = tr_splat(t, LLVMBuildAdd(t->builder, base, LLVMConstInt(t->i64, 256, 0), ""));
        t->layouts[v->id].uniform = true;
        return true;
    }
    case SpvStorageClassStorageBuffer:
    case SpvStorageClassUniform: {
        const struct vkmm_compile_binding *binding = spv_find_binding(t, id->set, id->binding);
        if (!binding)
            return spv_fail(t->error, "variable %%%u uses set %u binding %u, which the pipeline layout lacks",
                            v->id, id->set, id->binding);
        if (spv_is_descriptor_array(t, v)) {
            /* Resolved by the access chain's first index. */
            out->addr = spv_i64_splat(t, 0);
            out->lo = out->hi = spv_i64_splat(t, 0);
            return true;
        }
        *out = single_descriptor_pointer(t, id->set, binding->first);
        t->layouts[v->id].uniform = true;
        return true;
    }
    case SpvStorageClassUniformConstant:
        return spv_image_variable_pointer(t, v, out);
    default:
        return spv_fail(t->error, "variables of storage class %u are not supported", v->storage_class);
    }
}

/* Value of a compute builtin for every lane. */
static bool builtin_value(struct tr *t, uint32_t builtin, uint32_t type_id, LLVMValueRef *out)
{
    struct spv_module *m = t->m;
    LLVMBuilderRef b = t->builder;
    LLVMValueRef subgroup = tr_invocation_field(t, VKMM_INVOCATION_SUBGROUP_ID, t->i32);
    LLVMValueRef lane = tr_lane_index(t);
    LLVMValueRef index = LLVMBuildAdd(b, tr_splat(t, LLVMBuildMul(b, subgroup, LLVMConstInt(t->i32, t->width, 0), "")),
                                      lane, "");
    LLVMValueRef size[3], local[3], group[3], count[3];
    for (int i = 0; i < 3; i++) {
        size[i] = tr_splat(t, LLVMConstInt(t->i32, m->local_size[i], 0));
        group[i] = tr_splat(t, tr_invocation_field(t, VKMM_INVOCATION_WORKGROUP_ID + 4 * i, t->i32));
        count[i] = tr_splat(t, tr_invocation_field(t, VKMM_INVOCATION_NUM_WORKGROUPS + 4 * i, t->i32));
    }
    local[0] = LLVMBuildURem(b, index, size[0], "");
    local[1] = LLVMBuildURem(b, LLVMBuildUDiv(b, index, size[0], ""), size[1], "");
    local[2] = LLVMBuildUDiv(b, index, LLVMBuildMul(b, size[0], size[1], ""), "");
    LLVMValueRef vec[4] = { 0 };
    unsigned n = 1;
    switch (builtin) {
    case SpvBuiltInLocalInvocationId:
        memcpy(vec, local, sizeof(local));
        n = 3;
        break;
    case SpvBuiltInWorkgroupId:
        memcpy(vec, group, sizeof(group));
        n = 3;
        break;
    case SpvBuiltInNumWorkgroups:
        memcpy(vec, count, sizeof(count));
        n = 3;
        break;
    case SpvBuiltInWorkgroupSize:
        memcpy(vec, size, sizeof(size));
        n = 3;
        break;
    case SpvBuiltInGlobalInvocationId:
        for (int i = 0; i < 3; i++)
            vec[i] = LLVMBuildAdd(b, LLVMBuildMul(b, group[i], size[i], ""), local[i], "");
        n = 3;
        break;
    case SpvBuiltInLocalInvocationIndex:
        vec[0] = index;
        break;
    case SpvBuiltInSubgroupId:
        vec[0] = tr_splat(t, subgroup);
        break;
    case SpvBuiltInNumSubgroups: {
        uint32_t total = m->local_size[0] * m->local_size[1] * m->local_size[2];
        vec[0] = tr_splat(t, LLVMConstInt(t->i32, (total + t->width - 1) / t->width, 0));
        break;
    }
    case SpvBuiltInSubgroupSize:
        vec[0] = tr_splat(t, LLVMConstInt(t->i32, t->width, 0));
        break;
    case SpvBuiltInSubgroupLocalInvocationId:
        vec[0] = lane;
        break;
    case SpvBuiltInSubgroupEqMask:
    case SpvBuiltInSubgroupGeMask:
    case SpvBuiltInSubgroupGtMask:
    case SpvBuiltInSubgroupLeMask:
    case SpvBuiltInSubgroupLtMask: {
        /* Lane l's mask over the W lanes; only the first word can be set. */
        LLVMValueRef one = tr_splat(t, LLVMConstInt(t->i32, 1, 0));
        LLVMValueRef bit = LLVMBuildShl(b, one, lane, "");
        LLVMValueRef all = tr_splat(t, LLVMConstInt(t->i32, t->width >= 32 ? 0xffffffffu : (1u << t->width) - 1, 0));
        LLVMValueRef below = LLVMBuildSub(b, bit, one, "");
        LLVMValueRef word;
        if (builtin == SpvBuiltInSubgroupEqMask)
            word = bit;
        else if (builtin == SpvBuiltInSubgroupLtMask)
            word = below;
        else if (builtin == SpvBuiltInSubgroupLeMask)
            word = LLVMBuildOr(b, below, bit, "");
        else if (builtin == SpvBuiltInSubgroupGtMask)
            word = LLVMBuildAnd(b, all, LLVMBuildNot(b, LLVMBuildOr(b, below, bit, ""), ""), "");
        else
            word = LLVMBuildAnd(b, all, LLVMBuildNot(b, below, ""), "");
        vec[0] = word;
        vec[1] = vec[2] = vec[3] = tr_splat(t, LLVMConstInt(t->i32, 0, 0));
        n = 4;
        break;
    }
    case SpvBuiltInDeviceIndex:
        /* vkmm's device groups have one physical device. */
        vec[0] = tr_splat(t, LLVMConstInt(t->i32, 0, 0));
        break;
    default:
        return spv_fail(t->error, "builtin %u is not a compute builtin vkmm supports", builtin);
    }
    const struct spv_type *type = spv_type(m, type_id);
    if (type->kind != SPV_TYPE_VECTOR) {
        *out = vec[0];
        return true;
    }
    LLVMValueRef value = LLVMGetUndef(type->value_type);
    for (unsigned i = 0; i < n && i < type->count; i++)
        value = LLVMBuildInsertValue(b, value, vec[i], i, "");
    *out = value;
    return true;
}

/* Builtins are also written to their variable's (lane-scaled) storage, for
 * the rare access that is not a plain load (see spv_load_builtin): one plain
 * vector store per component, in bounds by construction. */
static void write_builtin(struct tr *t, const struct spv_variable *v, LLVMValueRef value)
{
    const struct spv_type *type = spv_type(t->m, v->pointee);
    unsigned n = type->kind == SPV_TYPE_VECTOR ? type->count : 1;
    for (unsigned c = 0; c < n; c++) {
        LLVMValueRef component = type->kind == SPV_TYPE_VECTOR ? LLVMBuildExtractValue(t->builder, value, c, "") : value;
        uint64_t offset = ((uint64_t)v->offset + 4u * c) * t->width;
        LLVMValueRef address = LLVMBuildAdd(t->builder, t->private_base, LLVMConstInt(t->i64, offset, 0), "");
        LLVMValueRef store = LLVMBuildStore(t->builder, component, spv_to_pointer(t, address));
        LLVMSetAlignment(store, 4);
    }
}

/* The type of the builtin variable that `pointer` points into. */
const struct spv_type *spv_builtin_type(struct tr *t, uint32_t pointer)
{
    struct spv_module *m = t->m;
    return spv_type(m, m->variables[m->ids[t->builtin_variable[pointer]].variable].pointee);
}

/* A load of a builtin input, or of one component of it, computes the value
 * instead of reading memory. */
bool spv_load_builtin(struct tr *t, const uint32_t *w)
{
    struct spv_module *m = t->m;
    uint32_t pointer = w[3];
    uint32_t variable = t->builtin_variable[pointer];
    if (!variable)
        return false;
    LLVMValueRef value = NULL;
    if (!builtin_value(t, m->ids[variable].builtin, m->variables[m->ids[variable].variable].pointee, &value))
        return true;
    uint32_t component = t->builtin_component[pointer];
    if (component)
        value = LLVMBuildExtractValue(t->builder, value, component - 1, "");
    tr_set(t, w[2], value);
    return true;
}

bool spv_memory_init_function(struct tr *t)
{
    struct spv_module *m = t->m;
    t->layouts = calloc(m->bound, sizeof(struct tr_layout));
    t->builtin_variable = calloc(m->bound, sizeof(uint32_t));
    t->builtin_component = calloc(m->bound, sizeof(uint32_t));
    if (!t->layouts || !t->builtin_variable || !t->builtin_component)
        return spv_fail(t->error, "out of memory");
    LLVMValueRef saved_exec = t->exec;
    t->exec = tr_splat(t, LLVMConstInt(t->i1, 1, 0));
    for (uint32_t i = 0; i < m->variable_count; i++) {
        const struct spv_variable *v = &m->variables[i];
        struct tr_pointer p;
        if (!variable_pointer(t, v, &p))
            return false;
        m->ids[v->id].constant = spv_pack_pointer(t, p);
        uint32_t builtin = m->ids[v->id].builtin;
        if (v->storage_class == SpvStorageClassInput && builtin != SpvBuiltInMax) {
            t->builtin_variable[v->id] = v->id;
            LLVMValueRef value = NULL;
            if (!builtin_value(t, builtin, v->pointee, &value))
                return false;
            write_builtin(t, v, value);
        }
    }
    t->exec = saved_exec;
    return true;
}

/* shaderZeroInitializeWorkgroupMemory: a Workgroup variable with an
 * initializer (OpConstantNull, VUID-StandaloneSpirv-OpVariable-04734)
 * holds zeros before any invocation runs.  Subgroup 0 starts first in
 * every workgroup (runtime/dispatch.c), so it clears the variable on its
 * fresh start — directly, not as a store of its invocations (no invocation
 * wrote it: nothing to race with). */
static void zero_workgroup_variable(struct tr *t, const struct spv_variable *v)
{
    struct spv_module *m = t->m;
    const struct spv_type *pointer = spv_type(m, m->ids[v->id].type);
    uint32_t size = spv_type_size(t, pointer->element, false);
    if (!size)
        return;
    LLVMValueRef addresses = LLVMBuildExtractValue(t->builder, m->ids[v->id].constant, 0, "");
    LLVMValueRef base = LLVMBuildExtractElement(t->builder, addresses, LLVMConstInt(t->i32, 0, 0), "");
    LLVMValueRef first = LLVMBuildICmp(t->builder, LLVMIntEQ,
                                       tr_invocation_field(t, VKMM_INVOCATION_SUBGROUP_ID, t->i32),
                                       LLVMConstInt(t->i32, 0, 0), "");
    LLVMBasicBlockRef clear = LLVMAppendBasicBlockInContext(t->context, t->function, "zero_init");
    LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(t->context, t->function, "zero_init.done");
    LLVMBuildCondBr(t->builder, first, clear, after);
    LLVMPositionBuilderAtEnd(t->builder, clear);
    LLVMBuildMemSet(t->builder, LLVMBuildIntToPtr(t->builder, base, t->ptr, ""), LLVMConstInt(t->i8, 0, 0),
                    LLVMConstInt(t->i64, size, 0), 1);
    LLVMBuildBr(t->builder, after);
    LLVMPositionBuilderAtEnd(t->builder, after);
}

bool spv_memory_init_variables(struct tr *t)
{
    struct spv_module *m = t->m;
    LLVMValueRef saved_exec = t->exec;
    t->exec = tr_splat(t, LLVMConstInt(t->i1, 1, 0));
    for (uint32_t i = 0; i < m->variable_count; i++) {
        const struct spv_variable *v = &m->variables[i];
        const struct spv_insn *insn = &m->insns[m->ids[v->id].insn];
        if (insn->opcode != SpvOpVariable || insn->word_count < 5)
            continue;
        if (v->storage_class == SpvStorageClassWorkgroup) {
            zero_workgroup_variable(t, v);
            continue;
        }
        if (spv_storage_kind(v->storage_class) != SPV_STORAGE_LANE_SCALED)
            continue;
        spv_store_pointer(t, v->id, tr_get(t, spv_words(m, insn)[4]));
    }
    t->exec = saved_exec;
    return true;
}

