/* Unit tests of runtime/memmodel/bulk.c: the engine's large copies and
 * comparisons spread over threads.  Pieces are run here in reverse order
 * (a pool may run them in any), and the engine must give exactly what it
 * gives on one thread: the same bytes copied, the same equality answers,
 * and, through its public calls on a memory larger than a span, the same
 * views, reads and reports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "memmodel/memmodel_internal.h"

struct pieces {
    uint64_t calls, pieces;
};

/* Runs the pieces last first. */
static void reversed(void *user, uint64_t count, vkmm_mm_parallel_fn fn, void *context)
{
    struct pieces *p = user;
    p->calls++;
    p->pieces += count;
    for (uint64_t i = count; i-- > 0;)
        fn(context, i);
}

static void fill(uint8_t *bytes, uint64_t size, uint32_t seed)
{
    for (uint64_t i = 0; i < size; i++)
        bytes[i] = (uint8_t)(((i + seed * 7919u) * 2654435761u) >> 13);
}

/* Sizes below the threshold, at it, and past it by less than a piece. */
static const uint64_t sizes[] = { 4096, (1u << 20) - 1, 1u << 20, (1u << 20) + 1, (5u << 20) + 3 };

static void test_bulk_copy_and_compare_match_libc_at_every_size(void **state)
{
    (void)state;
    struct vkmm_mm_engine *e = vkmm_mm_engine_create(NULL, NULL, 0);
    assert_non_null(e);
    struct pieces p = { 0 };
    vkmm_mm_set_parallel(e, reversed, &p);
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        uint64_t size = sizes[s];
        uint8_t *src = malloc(size), *dst = calloc(1, size);
        assert_non_null(src);
        assert_non_null(dst);
        fill(src, size, (uint32_t)s);
        uint64_t calls = p.calls;
        vkmm_mm_copy(e, dst, src, size);
        assert_memory_equal(dst, src, size);
        /* Large ones went to the threads, in pieces covering every byte. */
        assert_int_equal(p.calls - calls, size >= (1u << 20) ? 1 : 0);
        assert_true(vkmm_mm_same(e, dst, src, size));
        /* A difference anywhere: first byte, middle, last. */
        uint64_t at[3] = { 0, size / 2, size - 1 };
        for (int k = 0; k < 3; k++) {
            dst[at[k]] ^= 0x40;
            assert_false(vkmm_mm_same(e, dst, src, size));
            dst[at[k]] ^= 0x40;
        }
        free(src);
        free(dst);
    }
    /* Five calls per large size (a copy, four comparisons) of 4, 5 and 21
     * pieces of 256 KiB. */
    assert_int_equal(p.pieces, 5 * (4 + 5 + 21));
    vkmm_mm_engine_destroy(e);
}

/* --- The engine's calls on one thread and spread ---------------------------------------- */

struct side {
    struct vkmm_mm_engine *e;
    struct vkmm_mm_memory *m;
    uint64_t hazards;
};

static void count_hazard(void *user, const struct vkmm_mm_hazard *hazard)
{
    (void)hazard;
    ((struct side *)user)->hazards++;
}

enum { BIG = (9u << 20) + 4100 };

static const struct vkmm_mm_agent dispatch_cmd = { .queue = 0, .submission = 1, .command = 0, .kind = "vkCmdDispatch" };
static const struct vkmm_mm_agent next_cmd = { .queue = 0, .submission = 1, .command = 1, .kind = "vkCmdDispatch" };

/* A host-coherent memory larger than two spans: the host fills it, a
 * submission, a device write over most of it made available, a host
 * wait, the host changes a few bytes, another submission, a device write
 * of its first bytes and another command's read of all of it with no
 * barrier between (a stale read: reported). */
static void run_story(struct side *s, struct pieces *p, uint8_t *read_back)
{
    s->e = vkmm_mm_engine_create(count_hazard, s, 7);
    assert_non_null(s->e);
    if (p)
        vkmm_mm_set_parallel(s->e, reversed, p);
    s->m = vkmm_mm_memory_create(s->e, 1, BIG, true, true);
    assert_non_null(s->m);
    vkmm_mm_set_host_wait_reads(s->e, true);
    uint8_t *view = vkmm_mm_host_view(s->m);
    fill(view, BIG, 1);
    vkmm_mm_submit(s->e);
    uint8_t *data = malloc(BIG);
    assert_non_null(data);
    fill(data, BIG, 2);
    vkmm_mm_write(s->e, s->m, 4096, BIG - 8192, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, &dispatch_cmd, data + 4096);
    const struct vkmm_mm_dependency to_host = {
        .src_stages = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        .src_access = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
        .dst_stages = VK_PIPELINE_STAGE_2_HOST_BIT,
        .dst_access = VK_ACCESS_2_HOST_READ_BIT,
    };
    vkmm_mm_dependency(s->e, &to_host);
    vkmm_mm_host_wait(s->e);
    view[5u << 20] ^= 1;
    view[BIG - 1] ^= 1;
    vkmm_mm_submit(s->e);
    vkmm_mm_write(s->e, s->m, 0, 64, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                  &dispatch_cmd, data);
    vkmm_mm_read(s->e, s->m, 0, BIG, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                 &next_cmd, read_back);
    free(data);
}

static void test_bulk_engine_gives_what_one_thread_gives(void **state)
{
    (void)state;
    struct side one = { 0 }, spread = { 0 };
    struct pieces p = { 0 };
    uint8_t *read_one = malloc(BIG), *read_spread = malloc(BIG);
    assert_non_null(read_one);
    assert_non_null(read_spread);
    run_story(&one, NULL, read_one);
    run_story(&spread, &p, read_spread);
    assert_true(p.calls > 0); /* the story's copies and comparisons were large */
    assert_memory_equal(read_one, read_spread, BIG);
    assert_memory_equal(vkmm_mm_host_view(one.m), vkmm_mm_host_view(spread.m), BIG);
    assert_int_equal(one.hazards, spread.hazards);
    assert_true(one.hazards > 0); /* the last read missed the write before it */
    assert_memory_equal(read_one, vkmm_mm_host_view(one.m), 64); /* and read the bytes from before it */
    vkmm_mm_memory_destroy(one.m);
    vkmm_mm_memory_destroy(spread.m);
    vkmm_mm_engine_destroy(one.e);
    vkmm_mm_engine_destroy(spread.e);
    free(read_one);
    free(read_spread);
}

static const struct vkmm_mm_agent copy_cmd = { .queue = 0, .submission = 1, .command = 2, .kind = "vkCmdCopyBuffer" };

/* A landing of megabytes takes its history's snapshots on the engine's
 * threads (levels.c): some granules of the memory hold bytes of two
 * seqs first (short writes made available to the shader's reads only), a
 * write of nearly all of it is made available to the host only, and a
 * transfer read with no visibility operation since the submission reads
 * the versions from before both: from the histories. */
static void run_history_story(struct side *s, struct pieces *p, uint8_t *stale_read)
{
    s->e = vkmm_mm_engine_create(count_hazard, s, 7);
    assert_non_null(s->e);
    if (p)
        vkmm_mm_set_parallel(s->e, reversed, p);
    s->m = vkmm_mm_memory_create(s->e, 1, BIG, true, true);
    assert_non_null(s->m);
    fill(vkmm_mm_host_view(s->m), BIG, 1);
    vkmm_mm_submit(s->e);
    uint8_t *data = malloc(BIG);
    assert_non_null(data);
    fill(data, BIG, 3);
    const uint64_t shorts[][2] = { { 100, 130 }, { (5u << 20) + 3, (5u << 20) + 40 }, { BIG - 4200, BIG - 4150 } };
    for (int i = 0; i < 3; i++)
        vkmm_mm_write(s->e, s->m, shorts[i][0], shorts[i][1] - shorts[i][0], VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, &dispatch_cmd, data + shorts[i][0]);
    const struct vkmm_mm_dependency to_shader = {
        .src_stages = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        .src_access = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
        .dst_stages = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        .dst_access = VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
    };
    vkmm_mm_dependency(s->e, &to_shader);
    fill(data, BIG, 2);
    vkmm_mm_write(s->e, s->m, 64, BIG - 4160, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, &next_cmd, data + 64);
    const struct vkmm_mm_dependency to_host = {
        .src_stages = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        .src_access = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
        .dst_stages = VK_PIPELINE_STAGE_2_HOST_BIT,
        .dst_access = VK_ACCESS_2_HOST_READ_BIT,
    };
    vkmm_mm_dependency(s->e, &to_host);
    vkmm_mm_read(s->e, s->m, 0, BIG, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT, &copy_cmd,
                 stale_read);
    free(data);
}

static void test_bulk_landing_keeps_the_history_one_thread_keeps(void **state)
{
    (void)state;
    struct side one = { 0 }, spread = { 0 };
    struct pieces p = { 0 };
    uint8_t *read_one = malloc(BIG), *read_spread = malloc(BIG), *before = malloc(BIG);
    assert_non_null(read_one);
    assert_non_null(read_spread);
    assert_non_null(before);
    run_history_story(&one, NULL, read_one);
    run_history_story(&spread, &p, read_spread);
    assert_true(p.pieces > 8); /* the landing's snapshots went in pieces */
    assert_memory_equal(read_one, read_spread, BIG);
    fill(before, BIG, 1);
    assert_memory_equal(read_one, before, BIG); /* every byte from before both writes */
    assert_int_equal(one.hazards, spread.hazards);
    assert_true(one.hazards > 0);
    vkmm_mm_memory_destroy(one.m);
    vkmm_mm_memory_destroy(spread.m);
    vkmm_mm_engine_destroy(one.e);
    vkmm_mm_engine_destroy(spread.e);
    free(read_one);
    free(read_spread);
    free(before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bulk_copy_and_compare_match_libc_at_every_size),
        cmocka_unit_test(test_bulk_engine_gives_what_one_thread_gives),
        cmocka_unit_test(test_bulk_landing_keeps_the_history_one_thread_keeps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
