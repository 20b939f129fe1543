/* The conformance suite: GLSL compute shaders (shaders/NAME.comp) run through
 * the Vulkan loader with the validation layer, every output compared with a
 * CPU reference.  One CMocka case per test; one device for all of them.
 *
 * Usage: conformance [PATTERN]  (runs only the cases matching PATTERN, with
 * CMocka's * and ? wildcards, e.g. 'cf_test_sg_*').  VKMM_SUBGROUP_SIZE
 * selects the subgroup width the driver compiles for, and the one the
 * subgroup references model.  CF_TIMING=1 prints each case's time;
 * VKMM_CONFORMANCE_SLOW=1 also runs the cases skipped for their cost.
 * Names ending in _opt run the spirv-opt compiled shader (CF_TEST_OPT). */
#include "cf.h"

#define ARITH_CASES(X)                                                                             \
    X(arith_int_basic) X(arith_int_basic_opt) X(arith_div_mod) X(arith_div_mod_opt) X(arith_shifts) \
    X(arith_bitops) X(arith_bitfield) X(arith_bitfield_opt) X(arith_bitcount) X(arith_extended)    \
    X(arith_int_minmax) X(arith_float_basic) X(arith_float_basic_opt) X(arith_float_compare)       \
    X(arith_conversions) X(arith_int8) X(arith_int16) X(arith_int64) X(arith_int64_opt)            \
    X(arith_int_widths) X(arith_float16) X(arith_float64) X(arith_float_widths)

#define GLSL450_CASES(X)                                                                            \
    X(glsl_trig) X(glsl_hyperbolic) X(glsl_exp_log) X(glsl_pow_sqrt) X(glsl_rounding)              \
    X(glsl_mod_modf) X(glsl_minmax_mix) X(glsl_abs_sign_fma) X(glsl_geometric)                     \
    X(glsl_reflect_refract) X(glsl_pack) X(glsl_double) X(glsl_half) X(glsl_relational)           \
    X(glsl_nan_inf) X(glsl_int_vector)

#define TYPES_CASES(X)                                                                              \
    X(types_vec2) X(types_vec3) X(types_vec3_opt) X(types_vec4) X(types_swizzle_write)             \
    X(types_vec_dynamic_index) X(types_vec_dynamic_index_opt) X(types_mat2) X(types_mat3)          \
    X(types_mat3_opt) X(types_mat4) X(types_mat_transpose_outer) X(types_mat_inverse)              \
    X(types_mat_nonsquare) X(types_dmat) X(types_mat_construct) X(types_bitcast) X(types_bitcast64) \
    X(types_struct) X(types_struct_opt) X(types_private_array) X(types_private_array_opt)          \
    X(types_nested_structs) X(types_nested_structs_opt) X(types_array_of_arrays)                   \
    X(types_const_array) X(types_const_array_opt) X(types_small_vectors) X(types_bool)         \
    X(types_bool_buffer)

#define LAYOUT_CASES(X)                                                                             \
    X(layout_std430_vec3) X(layout_std140_ubo) X(layout_std140_ubo_opt) X(layout_std140_std430)     \
    X(layout_scalar) X(layout_scalar_opt) X(layout_row_major) X(layout_explicit_offset)            \
    X(layout_small_types) X(layout_byte_stores) X(layout_runtime_length) X(layout_push_types)      \
    X(layout_push_arrays) X(layout_push_arrays_opt) X(layout_push_update) X(layout_ubo_matrices)   \
    X(layout_ubo_matrices_opt)

#define MEMORY_CASES(X)                                                                             \
    X(mem_gather_scatter) X(mem_gather_scatter_opt) X(mem_aliased_bindings) X(mem_struct_copy)     \
    X(mem_struct_copy_opt) X(mem_qualifiers) X(bda_basic) X(bda_linked_list) X(bda_linked_list_opt) \
    X(bda_pointer_math) X(bda_struct) X(bda_atomics) X(robust_load) X(robust_store) X(robust_struct)

#define DESCRIPTORS_CASES(X)                                                                        \
    X(desc_ubo) X(desc_ubo_opt) X(desc_dynamic) X(desc_array_ssbo) X(desc_array_ubo)               \
    X(desc_multi_set) X(desc_update_between_submits)

#define CONTROL_FLOW_CASES(X)                                                                       \
    X(cf_if_else) X(cf_if_else_opt) X(cf_loop_phi) X(cf_loop_phi_opt) X(cf_while_do)               \
    X(cf_while_do_opt) X(cf_nested_loops) X(cf_nested_loops_opt) X(cf_switch) X(cf_switch_opt)     \
    X(cf_switch_loop) X(cf_switch_loop_opt) X(cf_early_return) X(cf_early_return_opt)              \
    X(cf_functions) X(cf_functions_opt) X(cf_call_chain) X(cf_call_chain_opt)                      \
    X(cf_call_chain_heavy) X(cf_divergent) X(cf_divergent_opt) X(cf_short_circuit)                 \
    X(cf_short_circuit_opt) X(cf_sliding_window) X(cf_sliding_window_opt) X(cf_phi_types)         \
    X(cf_phi_types_opt) X(cf_uint_loops) X(cf_uint_loops_opt) X(cf_big_private)                    \
    X(cf_big_private_opt)

#define ATOMICS_CASES(X)                                                                            \
    X(atomic_add) X(atomic_minmax) X(atomic_bitwise) X(atomic_exchange) X(atomic_compswap)         \
    X(atomic_shared) X(atomic_int64) X(atomic_append)

#define WORKGROUP_CASES(X)                                                                          \
    X(wg_builtins_1x1x1) X(wg_builtins_7x1x1) X(wg_builtins_32x1x1) X(wg_builtins_8x8x1)           \
    X(wg_builtins_4x4x4) X(wg_builtins_10x10x1) X(wg_builtins_3x5x7) X(wg_builtins_1024x1x1)       \
    X(wg_builtins_1x1x64) X(wg_builtins_16x4x2) X(wg_builtins_5x1x3) X(wg_builtins_1x100x1)        \
    X(wg_builtins_fixed) X(wg_barrier_reverse) X(wg_barrier_reverse_opt) X(wg_barrier_loop)        \
    X(wg_barrier_loop_opt) X(wg_matmul) X(wg_matmul_opt) X(wg_scan) X(wg_scan_opt) X(wg_reduce)    \
    X(wg_reduce_opt) X(wg_shared_types) X(wg_buffer_barrier) X(wg_spec_constants)                  \
    X(wg_spec_constants_opt) X(wg_spec_shared) X(wg_dispatch_base) X(wg_dispatch_indirect)         \
    X(wg_dispatch_chain) X(wg_many_groups) X(wg_barrier_3d) X(wg_barrier_3d_opt)                   \
    X(wg_barrier_function) X(wg_barrier_function_opt) X(wg_uniform_break) X(wg_uniform_break_opt) \
    X(wg_shared_limit) X(wg_barrier_atomics) X(wg_barrier_atomics_opt)

#define SUBGROUP_CASES(X)                                                                           \
    X(sg_basic) X(sg_vote) X(sg_ballot) X(sg_reduce) X(sg_scan) X(sg_clustered) X(sg_shuffle)      \
    X(sg_quad) X(sg_waterfall) X(sg_loops)

#define MISC_CASES(X)                                                                               \
    X(misc_large_2d_dispatch) X(misc_staging) X(misc_secondary) X(misc_spec_variants)              \
    X(misc_transfer_then_dispatch) X(misc_memory_model) X(misc_pipeline_cache) X(misc_two_queues)  \
    X(misc_events)

#define ALL_CASES(X) ARITH_CASES(X) GLSL450_CASES(X) TYPES_CASES(X) LAYOUT_CASES(X) MEMORY_CASES(X) \
    DESCRIPTORS_CASES(X) CONTROL_FLOW_CASES(X) ATOMICS_CASES(X) WORKGROUP_CASES(X) SUBGROUP_CASES(X) \
    MISC_CASES(X)

#define DECLARE(name) void cf_test_##name(void **state);
ALL_CASES(DECLARE)

#define ENTRY(name) cmocka_unit_test_setup_teardown(cf_test_##name, cf_case_setup, cf_case_teardown),

int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest arith[] = { ARITH_CASES(ENTRY) };
    const struct CMUnitTest glsl450[] = { GLSL450_CASES(ENTRY) };
    const struct CMUnitTest types[] = { TYPES_CASES(ENTRY) };
    const struct CMUnitTest layout[] = { LAYOUT_CASES(ENTRY) };
    const struct CMUnitTest memory[] = { MEMORY_CASES(ENTRY) DESCRIPTORS_CASES(ENTRY) };
    const struct CMUnitTest control_flow[] = { CONTROL_FLOW_CASES(ENTRY) };
    const struct CMUnitTest atomics[] = { ATOMICS_CASES(ENTRY) };
    const struct CMUnitTest workgroup[] = { WORKGROUP_CASES(ENTRY) };
    const struct CMUnitTest subgroup[] = { SUBGROUP_CASES(ENTRY) };
    const struct CMUnitTest misc[] = { MISC_CASES(ENTRY) };
    int failed = 0;
    failed += cmocka_run_group_tests_name("arith", arith, cf_group_setup, cf_group_teardown);
    failed += cmocka_run_group_tests_name("glsl450", glsl450, cf_group_setup, cf_group_teardown);
    failed += cmocka_run_group_tests_name("types", types, cf_group_setup, cf_group_teardown);
    failed += cmocka_run_group_tests_name("layout", layout, cf_group_setup, cf_group_teardown);
    failed += cmocka_run_group_tests_name("memory and descriptors", memory, cf_group_setup, cf_group_teardown);
    failed += cmocka_run_group_tests_name("control flow", control_flow, cf_group_setup, cf_group_teardown);
    failed += cmocka_run_group_tests_name("atomics", atomics, cf_group_setup, cf_group_teardown);
    failed += cmocka_run_group_tests_name("workgroup", workgroup, cf_group_setup, cf_group_teardown);
    failed += cmocka_run_group_tests_name("subgroup", subgroup, cf_group_setup, cf_group_teardown);
    failed += cmocka_run_group_tests_name("misc", misc, cf_group_setup, cf_group_teardown);
    cf_shutdown();
    return failed ? 1 : 0;
}
