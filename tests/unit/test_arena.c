/* Unit tests of runtime/arena.c: the command recording allocator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "alloc.h"
#include "arena.h"

static int live_allocations;

static void *VKAPI_PTR counting_alloc(void *user, size_t size, size_t align, VkSystemAllocationScope scope)
{
    live_allocations++;
    return vkmm_default_allocator.pfnAllocation(user, size, align, scope);
}

static void VKAPI_PTR counting_free(void *user, void *memory)
{
    if (memory)
        live_allocations--;
    vkmm_default_allocator.pfnFree(user, memory);
}

static const VkAllocationCallbacks counting = {
    .pfnAllocation = counting_alloc,
    .pfnReallocation = NULL,
    .pfnFree = counting_free,
};

static void test_arena_alloc_is_aligned_zeroed_and_distinct(void **state)
{
    (void)state;
    struct vkmm_arena_free_list list = { .allocator = &counting };
    struct vkmm_arena arena;
    vkmm_arena_init(&arena, &list);
    unsigned char *previous = NULL;
    for (int i = 1; i < 500; i++) {
        unsigned char *p = vkmm_arena_alloc(&arena, (size_t)i);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 16, 0);
        for (int k = 0; k < i; k++)
            assert_int_equal(p[k], 0);
        memset(p, 0xAB, (size_t)i);
        assert_ptr_not_equal(p, previous);
        previous = p;
    }
    vkmm_arena_reset(&arena);
    vkmm_arena_free_list_trim(&list);
    assert_int_equal(live_allocations, 0);
}

static void test_arena_large_allocation_gets_its_own_block(void **state)
{
    (void)state;
    struct vkmm_arena_free_list list = { .allocator = &counting };
    struct vkmm_arena arena;
    vkmm_arena_init(&arena, &list);
    unsigned char *big = vkmm_arena_alloc(&arena, 1 << 20);
    assert_non_null(big);
    memset(big, 1, 1 << 20);
    assert_int_equal(live_allocations, 1);
    vkmm_arena_reset(&arena);
    vkmm_arena_free_list_trim(&list);
    assert_int_equal(live_allocations, 0);
}

static void test_arena_reset_reuses_blocks_until_trim(void **state)
{
    (void)state;
    struct vkmm_arena_free_list list = { .allocator = &counting };
    struct vkmm_arena arena;
    vkmm_arena_init(&arena, &list);
    for (int i = 0; i < 100; i++)
        assert_non_null(vkmm_arena_alloc(&arena, 1000));
    int blocks = live_allocations;
    assert_true(blocks > 1);
    vkmm_arena_reset(&arena);
    assert_int_equal(live_allocations, blocks); /* kept on the free list */
    for (int i = 0; i < 100; i++)
        assert_non_null(vkmm_arena_alloc(&arena, 1000));
    assert_int_equal(live_allocations, blocks); /* reused, none new */
    vkmm_arena_reset(&arena);
    vkmm_arena_free_list_trim(&list);
    assert_int_equal(live_allocations, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arena_alloc_is_aligned_zeroed_and_distinct),
        cmocka_unit_test(test_arena_large_allocation_gets_its_own_block),
        cmocka_unit_test(test_arena_reset_reuses_blocks_until_trim),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
