/* The compiler's view of a SPIR-V module, and the translation context
 * shared by the spirv_<family>.c files.
 *
 * Invariants the translator relies on: the module has passed the SPIR-V
 * validator for Vulkan 1.3 and the normalising passes of spirv_tools.cpp, so
 * ids are defined before use (except forward references the validator
 * allows: OpPhi operands, branch targets, forward pointers), operand types
 * match their instructions, and there are no OpFunctionCall left.  Every
 * place that still checks is a check for what vkmm itself does not support,
 * and fails with a message naming the opcode or capability. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>
#include <spirv/unified1/spirv.h>

#include "compiler.h"

/* --- Module ------------------------------------------------------------ */

enum spv_type_kind {
    SPV_TYPE_NONE = 0,
    SPV_TYPE_VOID,
    SPV_TYPE_BOOL,
    SPV_TYPE_INT,
    SPV_TYPE_FLOAT,
    SPV_TYPE_VECTOR,
    SPV_TYPE_MATRIX,
    SPV_TYPE_ARRAY,
    SPV_TYPE_RUNTIME_ARRAY,
    SPV_TYPE_STRUCT,
    SPV_TYPE_POINTER,
    SPV_TYPE_FUNCTION,
    SPV_TYPE_IMAGE,         /* element: sampled type; image: the operands below */
    SPV_TYPE_SAMPLER,
    SPV_TYPE_SAMPLED_IMAGE, /* element: the image type */
};

/* OpTypeImage's operands. */
struct spv_image_type {
    uint32_t dim;      /* SpvDim */
    uint32_t depth;
    bool arrayed;
    bool multisampled;
    uint32_t sampled;  /* 1: with a sampler, 2: storage */
    uint32_t format;   /* SpvImageFormat */
};

struct spv_member {
    uint32_t type;
    uint32_t offset;        /* Offset decoration (explicit layouts) */
    uint32_t matrix_stride; /* MatrixStride decoration */
    bool row_major;
    bool has_offset;
    uint32_t builtin;       /* SpvBuiltInMax when none */
    bool coherent;          /* Coherent or Volatile member (GLSL `coherent buffer`) */
    bool non_readable;      /* NonReadable member (GLSL `writeonly buffer`) */
};

struct spv_type {
    enum spv_type_kind kind;
    uint32_t width;          /* bits, for BOOL (32 in memory), INT, FLOAT */
    bool is_signed;
    uint32_t count;          /* vector components, matrix columns, array length */
    uint32_t element;        /* component / column / element / pointee type id */
    uint32_t storage_class;  /* pointers */
    uint32_t array_stride;   /* ArrayStride decoration (arrays, pointers for PtrAccessChain) */
    uint32_t member_count;
    struct spv_member *members;
    struct spv_image_type image; /* SPV_TYPE_IMAGE */
    bool block;              /* Block or BufferBlock */
    bool buffer_block;
    /* Natural layout (for storage without explicit offsets). */
    uint32_t natural_size, natural_align;
    LLVMTypeRef value_type;  /* the SIMD value type (see spirv_types.c) */
};

enum spv_id_kind {
    SPV_ID_NONE = 0,
    SPV_ID_TYPE,
    SPV_ID_CONSTANT,
    SPV_ID_VARIABLE,  /* module-scope OpVariable */
    SPV_ID_VALUE,     /* result of an instruction inside a function */
    SPV_ID_LABEL,
    SPV_ID_FUNCTION,
    SPV_ID_EXT_INST_SET,
    SPV_ID_STRING,
};

struct spv_id {
    enum spv_id_kind kind;
    uint32_t insn;         /* index of the defining instruction */
    uint32_t type;         /* result type id */
    struct spv_type *type_info; /* for SPV_ID_TYPE */
    /* Decorations. */
    uint32_t builtin;      /* SpvBuiltInMax when none */
    uint32_t set, binding;
    bool has_binding;
    bool non_writable, non_readable, coherent, volatile_;
    uint32_t array_stride;
    uint8_t fp_rounding;   /* FPRoundingMode + 1 (SpvFPRoundingMode), 0 when none */
    const char *name;      /* OpName, for messages */
    /* Translation state. */
    uint32_t block;        /* defining block (function values) */
    bool needs_slot;       /* used outside its defining block */
    bool crosses_suspension; /* live at a suspension point: its slot must be in the subgroup state */
    LLVMValueRef constant; /* SIMD constant value, for constants */
    LLVMValueRef slot;     /* cross-block storage, for values */
    uint32_t variable;     /* index into module variables, for SPV_ID_VARIABLE */
};

enum spv_ext_set {
    SPV_EXT_NONE = 0,
    SPV_EXT_GLSL_STD_450,
    SPV_EXT_NON_SEMANTIC, /* debug printf, shader debug info: no effect on execution */
    SPV_EXT_OTHER,
};

struct spv_insn {
    uint16_t opcode;
    uint16_t word_count;
    uint32_t offset;        /* of the first word in the module */
    uint32_t result_type;
    uint32_t result_id;
    uint16_t ext_inst_set;  /* enum spv_ext_set, for OpExtInst */
    uint32_t line;          /* OpLine in effect (0: none) */
    uint32_t id_operands;   /* index into module.id_operand_words */
    uint16_t id_operand_count;
};

struct spv_block {
    uint32_t label;         /* id */
    uint32_t first, last;   /* instruction range [first, last]; last is the terminator */
    uint32_t merge;         /* OpSelectionMerge / OpLoopMerge merge block, or 0 */
    uint32_t continue_target;
    uint32_t order;         /* position in the structured order (dispatch number) */
    LLVMBasicBlockRef llvm;
};

/* Which blocks each block leads to without a loop's back edge
 * (block_reach.c), walked for a block when first asked. */
struct spv_reach {
    uint32_t words;   /* 64-bit words per block's set */
    uint64_t *sets;   /* per block */
    bool *walked;     /* per block: its set is made */
    uint32_t *stack;
};

/* An OpStore: the variable it stores through (its pointer's root), its
 * instruction and its block. */
struct spv_store_site {
    uint32_t root, insn, block;
};

/* Global variables other than builtin inputs, with where their storage is. */
struct spv_variable {
    uint32_t id;
    uint32_t storage_class;
    uint32_t pointee;        /* type id */
    uint32_t offset;         /* Workgroup: in shared memory; Private/Function: in the private area */
    uint32_t size;           /* natural size */
};

struct spv_module {
    const uint32_t *words;
    size_t word_count;
    uint32_t bound;
    struct spv_id *ids;
    struct spv_insn *insns;
    uint32_t insn_count;
    uint32_t *id_operand_words; /* word offsets (within the instruction) of id operands */
    uint32_t id_operand_word_count;
    /* The entry point. */
    uint32_t entry_function;
    uint32_t local_size[3];
    uint32_t local_size_ids[3]; /* LocalSizeId operands, 0 when literal */
    uint32_t workgroup_size_constant; /* WorkgroupSize builtin constant, or 0 */
    bool uses_vulkan_memory_model;
    /* Function body of the entry point. */
    struct spv_block *blocks;
    uint32_t block_count;
    uint32_t *block_of_label; /* label id -> block index + 1 (0: none) */
    struct spv_variable *variables;
    uint32_t variable_count;
    uint32_t workgroup_size_bytes;
    uint32_t private_size_bytes; /* natural bytes per invocation */
    bool has_barrier;
    uint32_t glsl_std_450;   /* id of the GLSL.std.450 import, or 0 */
    /* OpLine strings, for reports. */
};

/* Error reporting: a message into the compile result; translation then
 * unwinds by returning false up to vkmm_compile. */
struct spv_error {
    char message[512];
    bool failed;
};

bool spv_fail(struct spv_error *error, const char *format, ...) __attribute__((format(printf, 2, 3)));

bool spv_module_parse(struct spv_module *m, const uint32_t *words, size_t word_count, const char *entry_name,
                      struct spv_error *error);
void spv_module_free(struct spv_module *m);

/* Bits of a float LLVM type (half, float, double). */
static inline unsigned spv_float_bits(LLVMTypeRef element)
{
    LLVMTypeKind kind = LLVMGetTypeKind(element);
    return kind == LLVMHalfTypeKind ? 16 : kind == LLVMFloatTypeKind ? 32 : 64;
}

static inline const uint32_t *spv_words(const struct spv_module *m, const struct spv_insn *insn)
{
    return m->words + insn->offset;
}

static inline struct spv_type *spv_type(const struct spv_module *m, uint32_t id)
{
    return m->ids[id].type_info;
}

/* --- Translation --------------------------------------------------------- */

/* A pointer value: per lane, the address and the bounds of the memory it
 * may reach.  For lane-scaled storage (Function, Private, Input) the
 * address is that of lane 0's copy and lane l adds l * leaf size (see
 * lower_memory.c). */
struct tr_pointer {
    LLVMValueRef addr; /* <W x i64> */
    LLVMValueRef lo;   /* <W x i64> */
    LLVMValueRef hi;   /* <W x i64> */
};

/* Layout facts a pointer's type does not carry: the MatrixStride and
 * RowMajor decorations of the struct member an access chain went through. */
struct tr_layout {
    uint32_t matrix_stride;
    bool row_major;
    bool uniform;   /* the same address in every lane */
};

struct tr {
    struct spv_module *m;
    const struct vkmm_compile_options *options;
    struct spv_error *error;
    unsigned width;                /* lanes W */
    LLVMContextRef context;
    LLVMModuleRef module;
    LLVMBuilderRef builder;
    LLVMValueRef function;
    LLVMValueRef state;            /* ptr: struct vkmm_subgroup_state */
    LLVMValueRef invocation;       /* ptr: struct vkmm_shader_invocation */
    LLVMBasicBlockRef dispatcher;
    LLVMBasicBlockRef entry_block;
    /* Lane state. */
    LLVMValueRef exec;             /* <W x i1> lanes running the current block */
    LLVMValueRef alive_slot;       /* ptr to <W x i1> */
    LLVMValueRef next_slot;        /* ptr to <W x i32> */
    LLVMValueRef private_base;     /* i64: lane-scaled private storage base */
    LLVMValueRef shared_base;      /* i64 */
    /* Values of ids in the current segment (value_generation[id] ==
     * generation), see translate.c. */
    LLVMValueRef *values;
    uint32_t *value_generation;
    uint32_t generation;
    LLVMValueRef exec_slot;        /* ptr to <W x i8>: the mask a block starts with */
    LLVMBasicBlockRef *resume_blocks; /* resume point number -> block */
    uint32_t resume_count;
    uint32_t state_size;           /* bytes of subgroup state */
    struct tr_layout *layouts;     /* per pointer id */
    /* For the in-place update mark (lower_monitor.c), made at its first
     * question: the entry function's stores and where its blocks lead. */
    struct spv_store_site *stores;
    uint32_t store_count;
    struct spv_reach reach;
    uint32_t *last_load;           /* per root variable id: word offset + 1 of the module's last OpLoad
                                      through it (lower_monitor.c, built at first use), 0: none */
    uint32_t *builtin_variable;    /* per pointer id: the builtin input variable it points into, or 0 */
    uint32_t *builtin_component;   /* per pointer id: component + 1 of a builtin vector, or 0 */
    uint32_t current_block;
    uint32_t current_line;
    const struct spv_insn *current_insn;
    bool yield_at_loops;            /* strict mode, coherent reads: every loop header is a suspension point */
    bool *spin_loop;                /* strict mode: per instruction, an OpLoopMerge of a spin loop (spin_loops.c) */
    bool has_atomics;               /* the dispatcher rotates after spin-wait steps */
    LLVMValueRef loop_passes;       /* ptr to i32: loop-header passes, for the watchdog's poll */
    LLVMValueRef early_slot;        /* ptr to <W x i8> in the state: lanes whose store went early
                                       (early_stores.c), NULL when stores never go early */
    bool no_suspension;             /* translating one copy of an early store: no scheduling point */
    bool early_copy;                /* translating the copy that goes early: its accesses say so */
    bool *early_load;               /* per instruction: a load a later store of its block may pass
                                       (early_stores.c); NULL when stores never go early */
    bool workgroup_fences;          /* an OpMemoryBarrier acquires or releases Workgroup memory */
    bool shared_store_buffers;      /* strict mode, every atomic on Workgroup storage: its atomic stores wait in
                                       store buffers (runtime/strict/workgroup_store_buffer.h) */
    bool shared_atomic_sync;        /* strict mode, a fence or an atomic acquires or releases Workgroup memory:
                                       the workgroup monitor follows them (VKMM_WORKGROUP_SYNC) */
    LLVMValueRef monitor_addresses; /* [W x i64] alloca: the lanes' addresses for the workgroup monitor */
    LLVMValueRef texel_scratch;     /* [10W x i32] alloca in the entry block: texel conversions (spirv_image.c) */
    /* Handy types. */
    LLVMTypeRef i1, i8, i16, i32, i64, f16, f32, f64, ptr, void_type;
    LLVMTypeRef mask_type;         /* <W x i1> */
    LLVMTypeRef lane_i32, lane_i64;
};

/* spirv_types.c */
/* workgroup_ordering.c: what can order Workgroup-memory accesses. */
bool spv_is_atomic(uint16_t opcode); /* translate_analysis.c */
/* An OpMemoryBarrier that acquires or releases Workgroup memory: with a
 * control barrier between two such fences, invocations synchronize. */
bool spv_fences_workgroup_memory(const struct spv_module *m, const struct spv_insn *insn);
/* Do all the module's atomics work on Workgroup storage?  Then strict mode
 * may hold its atomic stores in store buffers: no atomic on device memory
 * can carry a release of Workgroup memory past them
 * (workgroup_store_buffer.h). */
bool spv_atomics_on_workgroup_only(const struct spv_module *m);
/* Is every atomic on storage of explicit layout or Workgroup storage (none
 * on private storage)? */
bool spv_atomics_on_monitored_storage_only(const struct spv_module *m);
/* Can nothing but a control barrier order the module's Workgroup-memory
 * accesses: no atomic on Workgroup storage, no fence or atomic whose
 * semantics acquire or release Workgroup memory?  (A shared-memory
 * reduction whose result goes out through an atomicAdd on a buffer.) */
bool spv_workgroup_ordered_by_barriers_only(const struct spv_module *m);
bool spv_types_lower(struct tr *t);
LLVMTypeRef spv_scalar_llvm(struct tr *t, const struct spv_type *type); /* element type of one lane */
/* Layout of `type` in memory with explicit decorations (buffers) or the
 * natural layout; scalar leaves only. */
uint32_t spv_type_size(struct tr *t, uint32_t type_id, bool explicit_layout);

/* Values: tr_get, tr_set, tr_zero, tr_select_lanes in translate_values.c, the lane helpers in translate.c */
LLVMValueRef tr_get(struct tr *t, uint32_t id);
/* select(mask, a, b) lane by lane, through aggregates. */
LLVMValueRef tr_select_lanes(struct tr *t, LLVMValueRef mask, LLVMValueRef a, LLVMValueRef b);
void tr_set(struct tr *t, uint32_t id, LLVMValueRef value);
LLVMValueRef tr_splat(struct tr *t, LLVMValueRef scalar);
LLVMValueRef tr_lane_index(struct tr *t); /* <W x i32> 0..W-1 */
LLVMValueRef tr_any(struct tr *t, LLVMValueRef mask);
LLVMValueRef tr_all(struct tr *t, LLVMValueRef mask);
LLVMValueRef tr_first_active_lane(struct tr *t);
LLVMValueRef tr_call_intrinsic(struct tr *t, const char *name, LLVMTypeRef *overloads, unsigned overload_count,
                               LLVMValueRef *args, unsigned arg_count);
LLVMValueRef tr_zero(struct tr *t, uint32_t type_id);
/* Per component map over vectors/matrices: applies fn to every scalar lane
 * vector of the operands. */
typedef LLVMValueRef (*tr_component_fn)(struct tr *t, LLVMValueRef *args, void *user);
LLVMValueRef tr_map(struct tr *t, uint32_t result_type, LLVMValueRef *args, unsigned arg_count,
                    tr_component_fn fn, void *user);
LLVMValueRef tr_invocation_field(struct tr *t, unsigned field, LLVMTypeRef type);
LLVMValueRef tr_state_field_ptr(struct tr *t, unsigned field);

/* The opcode families.  Each returns true when it handled the opcode
 * (false with t->error unset: not its opcode). */
bool spv_translate_arith(struct tr *t, const struct spv_insn *insn, bool *handled);
bool spv_translate_composite(struct tr *t, const struct spv_insn *insn, bool *handled);
bool spv_translate_dot(struct tr *t, const struct spv_insn *insn, bool *handled);
bool spv_translate_memory(struct tr *t, const struct spv_insn *insn, bool *handled);
/* lower_memory.c: a control barrier's effect on the workgroup-memory monitor (strict mode). */
void spv_monitor_control_barrier(struct tr *t, uint32_t execution_scope, uint32_t semantics);
void spv_monitor_workgroup_fence(struct tr *t, uint32_t semantics);
void spv_monitor_workgroup_sync(struct tr *t, uint32_t scope, uint32_t semantics, bool atomic, bool writes,
                                bool reads);
void spv_device_fence(struct tr *t, uint32_t scope, uint32_t semantics, bool available, bool visible);
void spv_device_fence_kind(struct tr *t, uint32_t scope, uint32_t semantics, bool available, bool visible,
                           unsigned extra);
/* The device_fence hook with `kind` (shader_abi.h); its i32 answer. */
LLVMValueRef spv_call_device_fence(struct tr *t, unsigned kind);
bool spv_translate_glsl450(struct tr *t, const struct spv_insn *insn, bool *handled);
bool spv_translate_subgroup(struct tr *t, const struct spv_insn *insn, bool *handled);
/* spirv_image.c: image, sampler and texel-buffer instructions, and loads
 * and access chains of their (UniformConstant) variables. */
bool spv_translate_image(struct tr *t, const struct spv_insn *insn, bool *handled);
/* The pointer of a UniformConstant variable: per lane, the address of its
 * first descriptor, bounded by the binding's descriptors. */
bool spv_image_variable_pointer(struct tr *t, const struct spv_variable *v, struct tr_pointer *out);
/* lower_memory.c, for image texels: loads (stores) a `size`-byte integer
 * per lane at `addresses`, for lanes whose bytes lie in [lo, hi) (others
 * read 0, write nothing): bounds-checked, marked in strict mode and seen by
 * the device-memory monitor like every buffer access.  `pointer_id` names
 * the accessed variable in reports. */
LLVMValueRef spv_load_texel_bytes(struct tr *t, uint32_t pointer_id, LLVMValueRef addresses, LLVMValueRef lo,
                                  LLVMValueRef hi, unsigned size);
void spv_store_texel_bytes(struct tr *t, uint32_t pointer_id, LLVMValueRef addresses, LLVMValueRef lo,
                           LLVMValueRef hi, LLVMValueRef value, unsigned size);

/* lower_memory.c and lower_variables.c entry points used by translate.c */
/* Assigns Workgroup and private offsets to variables (before code). */
bool spv_memory_layout(struct tr *t);
/* Computes every variable's pointer and writes builtin inputs (each call). */
bool spv_memory_init_function(struct tr *t);
/* Runs variable initialisers (first call of a workgroup only). */
bool spv_memory_init_variables(struct tr *t);
/* Stores `value` through the pointer `pointer_id` for the active lanes (the
 * out-parameters of GLSL.std.450 Modf and Frexp, variable initialisers). */
void spv_store_pointer(struct tr *t, uint32_t pointer_id, LLVMValueRef value);

/* A buffer-reference pointer value from <W x i64> device addresses. */
LLVMValueRef spv_memory_address_pointer(struct tr *t, LLVMValueRef address);

/* early_stores.c: a store performed before an earlier load (strict mode). */
#define SPV_EARLY_STORE_SPAN 32  /* instructions from the load to the store, at most */
#define SPV_EARLY_STORE_PASSED 4 /* stores of the load's value between them, at most */
struct spv_early_store {
    uint32_t load, store; /* instruction indices */
    uint32_t passed[SPV_EARLY_STORE_PASSED]; /* OpStores between them (of what the load returned) */
    uint32_t passed_count;
    uint32_t dependent[SPV_EARLY_STORE_SPAN + 1]; /* result ids that depend on the load's */
    uint32_t dependent_count;
    bool acquire; /* the load is an acquire: only a private store passes it */
};
/* Whether instruction `load` of block `b` is a load a later store of the
 * block may pass (the pair in *out). */
bool spv_early_store_find(const struct spv_module *m, const struct spv_block *b, uint32_t load,
                          struct spv_early_store *out);
/* Whether instruction `index`, between the two, only computes something
 * the load's value does not feed: it is computed before the load too. */
bool spv_early_store_hoists(const struct spv_module *m, const struct spv_early_store *e, uint32_t index);
/* lower_memory.c, shared with lower_variables.c */
/* How storage is addressed (see lower_memory.c). */
enum spv_storage_kind {
    SPV_STORAGE_EXPLICIT,
    SPV_STORAGE_SHARED,
    SPV_STORAGE_LANE_SCALED,
};
/* The storage kind of a storage class. */
enum spv_storage_kind spv_storage_kind(uint32_t storage_class);
/* lower_memory.c: per-lane addresses of a scalar pointer's bytes (*size of
 * them), and how its storage is addressed. */
LLVMValueRef spv_lane_addresses(struct tr *t, uint32_t pointer_id, unsigned *size, enum spv_storage_kind *kind);
/* `value` in every lane, as <W x i64>. */
LLVMValueRef spv_i64_splat(struct tr *t, uint64_t value);
/* A pointer value packed into one LLVM value ({addr, lo, hi}). */
LLVMValueRef spv_pack_pointer(struct tr *t, struct tr_pointer p);
/* An i64 address as a ptr. */
LLVMValueRef spv_to_pointer(struct tr *t, LLVMValueRef address);
/* <W x i64> addresses as <W x ptr>. */
LLVMValueRef spv_to_pointers(struct tr *t, LLVMValueRef addresses);

/* lower_variables.c, shared with lower_memory.c (access chains, loads) */
/* The pipeline layout's binding `binding` of set `set`, or NULL. */
const struct vkmm_compile_binding *spv_find_binding(struct tr *t, uint32_t set, uint32_t binding);
/* Per lane, the buffer of descriptor `first + index` of a set (outside `count`: reaches nothing). */
struct tr_pointer spv_descriptor_pointer(struct tr *t, uint32_t set, uint32_t first, uint32_t count,
                                         LLVMValueRef index);
/* Whether a buffer variable is an array of descriptors (its access chain's first index picks one). */
bool spv_is_descriptor_array(struct tr *t, const struct spv_variable *v);
/* The type of the builtin input variable that `pointer` points into. */
const struct spv_type *spv_builtin_type(struct tr *t, uint32_t pointer);
/* OpLoad `w` of a builtin input or a component of it: computes the value (false: not a builtin). */
bool spv_load_builtin(struct tr *t, const uint32_t *w);

/* translate.c */
bool spv_translate(struct tr *t);
/* translate_analysis.c: what the translation works out first. */
bool tr_reads_coherent_memory(const struct spv_module *m);
bool tr_early_stores(const struct tr *t);
bool tr_find_early_loads(struct tr *t);
/* Instruction `index` of its block stops the subgroup before it runs. */
bool tr_stops_before(const struct tr *t, uint32_t index);
bool tr_mark_slots(struct tr *t);
bool tr_order_blocks(struct tr *t);
/* Strict mode: marks the loop headers of loops that wait for another
 * invocation through plain loads (spin_loops.c).  False: out of memory. */
bool tr_find_spin_loops(struct tr *t);
/* Does the subgroup yield at this OpLoopMerge (strict mode)? */
bool tr_yields_at_loop(const struct tr *t, const struct spv_insn *insn);
/* Where a subgroup may stop and be resumed later (translate_analysis.c). */
bool spv_is_suspension_point(const struct tr *t, const struct spv_insn *insn);
/* Marks the slots whose values live across a suspension point, which must
 * be kept in the subgroup's state (suspension_liveness.c). */
bool spv_mark_suspension_liveness(struct tr *t);
/* The entry function's control flow (block_reach.c): a block's successors
 * as block indices (UINT32_MAX: a label that is no block), and whether
 * block `from` leads to block `to` along forward edges (a block leads to
 * itself; past 4,096 blocks or out of memory only to itself). */
#define SPV_MAX_SUCCESSORS 256
uint32_t spv_block_successors(const struct spv_module *m, uint32_t block, uint32_t *out);
bool spv_block_reaches(const struct spv_module *m, struct spv_reach *r, uint32_t from, uint32_t to);
void spv_reach_free(struct spv_reach *r);
