/* Unit tests of runtime/memmodel/: the strict-mode memory engine, part 1
 * (stage/access paths, device memory, host domain, host view, reports).
 * Each rule comes as a correct case (right answer, no report) beside the
 * buggy ones (stale answer, the expected hazard ID and missing operation). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "memmodel/memmodel.h"

/* ---- hazard log ---------------------------------------------------------- */

#define MAX_HAZARDS 64

struct recorded {
    char id[48];
    uint64_t memory_id, offset, size;
    struct vkmm_mm_agent reader, writer;
    char reader_kind[64], writer_kind[64];
    char missing[512];
};

struct log {
    struct recorded h[MAX_HAZARDS];
    unsigned count;
    /* Reads of never-written bytes, kept apart: most tests read fresh
     * memory on purpose. */
    unsigned uninitialized;
    uint64_t uninitialized_bytes;
};

static void record(void *user, const struct vkmm_mm_hazard *h)
{
    struct log *log = user;
    if (strcmp(h->id, VKMM_MM_HAZARD_UNINITIALIZED_READ) == 0) {
        log->uninitialized++;
        log->uninitialized_bytes += h->size;
        return;
    }
    if (log->count == MAX_HAZARDS)
        return;
    struct recorded *r = &log->h[log->count++];
    snprintf(r->id, sizeof r->id, "%s", h->id);
    r->memory_id = h->memory_id;
    r->offset = h->offset;
    r->size = h->size;
    r->reader = h->reader_or_second;
    r->writer = h->writer_or_first;
    snprintf(r->reader_kind, sizeof r->reader_kind, "%s", h->reader_or_second.kind);
    snprintf(r->writer_kind, sizeof r->writer_kind, "%s", h->writer_or_first.kind);
    r->reader.kind = r->writer.kind = NULL;
    snprintf(r->missing, sizeof r->missing, "%s", h->missing);
}

struct fixture {
    struct log log;
    struct vkmm_mm_engine *e;
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    f->e = vkmm_mm_engine_create(record, &f->log, 0);
    *state = f;
    return f->e ? 0 : -1;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    vkmm_mm_engine_destroy(f->e);
    free(f);
    return 0;
}

/* ---- shorthands ------------------------------------------------------------ */

static const VkPipelineStageFlags2 COPY = VK_PIPELINE_STAGE_2_COPY_BIT;
static const VkPipelineStageFlags2 COMPUTE = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
static const VkPipelineStageFlags2 HOST = VK_PIPELINE_STAGE_2_HOST_BIT;
static const VkAccessFlags2 TRANSFER_WRITE = VK_ACCESS_2_TRANSFER_WRITE_BIT;
static const VkAccessFlags2 TRANSFER_READ = VK_ACCESS_2_TRANSFER_READ_BIT;
static const VkAccessFlags2 STORAGE_READ = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
static const VkAccessFlags2 STORAGE_WRITE = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
static const VkAccessFlags2 UNIFORM_READ = VK_ACCESS_2_UNIFORM_READ_BIT;
static const VkAccessFlags2 HOST_READ = VK_ACCESS_2_HOST_READ_BIT;
static const VkAccessFlags2 HOST_WRITE = VK_ACCESS_2_HOST_WRITE_BIT;

static const struct vkmm_mm_agent copy_cmd = { .queue = 0, .submission = 1, .command = 0, .kind = "vkCmdCopyBuffer" };
static const struct vkmm_mm_agent dispatch_cmd = { .queue = 0, .submission = 1, .command = 1, .kind = "vkCmdDispatch" };
static const struct vkmm_mm_agent copy2_cmd = { .queue = 0, .submission = 1, .command = 2, .kind = "vkCmdCopyBuffer" };
static const struct vkmm_mm_agent host_thread = { .queue = VKMM_MM_HOST_QUEUE, .kind = "memcpy" };

#define N 64

static void barrier(struct vkmm_mm_engine *e, VkPipelineStageFlags2 src_stages, VkAccessFlags2 src_access,
                    VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access)
{
    const struct vkmm_mm_dependency d = {
        .src_stages = src_stages, .dst_stages = dst_stages, .src_access = src_access, .dst_access = dst_access
    };
    vkmm_mm_dependency(e, &d);
}

static void buffer_barrier(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, uint64_t offset, uint64_t size,
                           VkPipelineStageFlags2 src_stages, VkAccessFlags2 src_access,
                           VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access)
{
    const struct vkmm_mm_dependency d = { .src_stages = src_stages,
                                          .dst_stages = dst_stages,
                                          .src_access = src_access,
                                          .dst_access = dst_access,
                                          .memory = m,
                                          .offset = offset,
                                          .size = size };
    vkmm_mm_dependency(e, &d);
}

/* Bytes that differ from `old` at every position. */
static void derive(uint8_t *out, const uint8_t *old, size_t n, uint8_t key)
{
    for (size_t i = 0; i < n; i++)
        out[i] = old[i] ^ key;
}

static void coherent(struct vkmm_mm_memory *m, uint8_t *out)
{
    vkmm_mm_coherent_read(m, 0, N, out);
}

static void read_compute(struct fixture *f, struct vkmm_mm_memory *m, uint8_t *out)
{
    vkmm_mm_read(f->e, m, 0, N, COMPUTE, STORAGE_READ, &dispatch_cmd, out);
}

static void assert_stale_read(const struct recorded *r, uint64_t offset, uint64_t size, const char *writer_kind,
                              const char *reader_kind, const char *missing)
{
    assert_string_equal(r->id, VKMM_MM_HAZARD_STALE_READ);
    assert_int_equal(r->offset, offset);
    assert_int_equal(r->size, size);
    assert_string_equal(r->writer_kind, writer_kind);
    assert_string_equal(r->reader_kind, reader_kind);
    assert_string_equal(r->missing, missing);
}

static const char copy_to_compute[] = "a barrier with srcStageMask ⊇ COPY, srcAccessMask ⊇ TRANSFER_WRITE, "
                                      "dstStageMask ⊇ COMPUTE_SHADER, dstAccessMask ⊇ SHADER_STORAGE_READ";
static const char made_available[] = " (the write was made available; its visibility to the reader is missing)";

static void expect_copy_not_visible(struct fixture *f, const char *suffix)
{
    char missing[512];
    snprintf(missing, sizeof missing, "%s%s", copy_to_compute, suffix);
    assert_int_equal(f->log.count, 1);
    assert_stale_read(&f->log.h[0], 0, N, "vkCmdCopyBuffer", "vkCmdDispatch", missing);
    assert_int_equal(f->log.h[0].memory_id, 1);
    assert_int_equal(f->log.h[0].writer.command, 0);
    assert_int_equal(f->log.h[0].reader.command, 1);
}

/* A copy writes new bytes; `dep` (or nothing) runs; a dispatch reads them.
 * Returns whether the dispatch saw the new bytes (else it must see the old). */
static bool copy_then_dispatch(struct fixture *f, const struct vkmm_mm_dependency *dep)
{
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, false, false);
    assert_non_null(m);
    uint8_t old[N], data[N], got[N];
    coherent(m, old);
    derive(data, old, N, 0x5a);
    vkmm_mm_write(f->e, m, 0, N, COPY, TRANSFER_WRITE, &copy_cmd, data);
    if (dep)
        vkmm_mm_dependency(f->e, dep);
    read_compute(f, m, got);
    bool fresh = !memcmp(got, data, N);
    if (!fresh)
        assert_memory_equal(got, old, N);
    vkmm_mm_memory_destroy(m);
    return fresh;
}

static bool copy_then_dispatch_with(struct fixture *f, VkPipelineStageFlags2 src_stages, VkAccessFlags2 src_access,
                                    VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access)
{
    const struct vkmm_mm_dependency d = {
        .src_stages = src_stages, .dst_stages = dst_stages, .src_access = src_access, .dst_access = dst_access
    };
    return copy_then_dispatch(f, &d);
}

/* ---- allocation ------------------------------------------------------------ */

static void test_memmodel_fresh_memory_is_a_deterministic_nonzero_pattern(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 7, 256, true, false);
    assert_non_null(m);
    uint8_t device[256], coh[256];
    vkmm_mm_read(f->e, m, 0, 256, COMPUTE, STORAGE_READ, &dispatch_cmd, device);
    vkmm_mm_coherent_read(m, 0, 256, coh);
    assert_memory_equal(device, coh, 256);
    assert_memory_equal(vkmm_mm_host_view(m), coh, 256);
    unsigned distinct = 0;
    bool seen[256] = { false };
    for (int i = 0; i < 256; i++) {
        assert_int_not_equal(device[i], 0);
        distinct += !seen[device[i]];
        seen[device[i]] = true;
    }
    assert_true(distinct > 64);
    /* Every 32-bit word reads as at least 2^31 (and a negative float). */
    for (int i = 0; i < 256; i += 4) {
        uint32_t word;
        memcpy(&word, device + i, 4);
        assert_true(word >= 0x80000000u);
    }

    struct vkmm_mm_engine *same = vkmm_mm_engine_create(NULL, NULL, 0);
    struct vkmm_mm_engine *other = vkmm_mm_engine_create(NULL, NULL, 5);
    struct vkmm_mm_memory *a = vkmm_mm_memory_create(same, 7, 256, false, false);
    struct vkmm_mm_memory *b = vkmm_mm_memory_create(other, 7, 256, false, false);
    struct vkmm_mm_memory *c = vkmm_mm_memory_create(same, 8, 256, false, false);
    uint8_t pa[256], pb[256], pc[256];
    vkmm_mm_coherent_read(a, 0, 256, pa);
    vkmm_mm_coherent_read(b, 0, 256, pb);
    vkmm_mm_coherent_read(c, 0, 256, pc);
    assert_memory_equal(pa, device, 256);
    assert_memory_not_equal(pb, device, 256);
    assert_memory_not_equal(pc, device, 256);
    assert_null(vkmm_mm_host_view(a));
    vkmm_mm_engine_destroy(same); /* destroys a and c */
    vkmm_mm_engine_destroy(other);
    vkmm_mm_memory_destroy(m);
    assert_int_equal(f->log.count, 0);
}

/* DESIGN §3.2 "allocation": a device read of bytes nothing wrote since the
 * allocation is reported, once per run; bytes written (and made visible)
 * before are not. */
static void test_memmodel_uninitialized_read_is_reported(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 3, 64, false, false);
    uint8_t got[64], four[4] = { 1, 2, 3, 4 };
    vkmm_mm_write(f->e, m, 16, 4, COPY, TRANSFER_WRITE, &copy_cmd, four);
    barrier(f->e, COPY, TRANSFER_WRITE, COMPUTE, STORAGE_READ);
    vkmm_mm_read(f->e, m, 0, 64, COMPUTE, STORAGE_READ, &dispatch_cmd, got);
    assert_int_equal(f->log.count, 0);
    assert_int_equal(f->log.uninitialized, 2); /* [0, 16) and [20, 64) */
    assert_int_equal(f->log.uninitialized_bytes, 60);
    vkmm_mm_peek(f->e, m, 0, 64, COMPUTE, STORAGE_READ, got); /* a peek reports nothing */
    assert_int_equal(f->log.uninitialized, 2);
    vkmm_mm_memory_destroy(m);
}

/* vkmm_mm_peek_marking: the granules where a checked read could report get
 * a bit; the others are exactly those where vkmm_mm_read reports nothing,
 * as long as vkmm_mm_memory_changes stays put. */
static void test_memmodel_peek_marks_where_a_checked_read_could_report(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 4, 4 * VKMM_MM_GRANULE_BYTES, false, false);
    uint8_t data[128], got[256];
    memset(data, 7, sizeof data);
    vkmm_mm_write(f->e, m, 0, 128, COPY, TRANSFER_WRITE, &copy_cmd, data); /* granules 0, 1: made visible */
    barrier(f->e, COPY, TRANSFER_WRITE, COMPUTE, STORAGE_READ);
    vkmm_mm_write(f->e, m, 128, 64, COPY, TRANSFER_WRITE, &copy_cmd, data); /* granule 2: no barrier */
    uint64_t changes = vkmm_mm_memory_changes(m);
    uint64_t suspect[1] = { 0 };
    vkmm_mm_peek_marking(f->e, m, 0, 256, COMPUTE, STORAGE_READ, got, suspect, 0);
    assert_int_equal(suspect[0], 0xc); /* granule 2 stale, granule 3 never written */
    assert_memory_equal(got, data, 128);
    assert_int_equal(f->log.count + f->log.uninitialized, 0); /* a peek reports nothing */
    uint64_t part[1] = { 0 };
    vkmm_mm_peek_marking(f->e, m, 70, 100, COMPUTE, STORAGE_READ, got, part, 70); /* bit 0: granule 1 */
    assert_int_equal(part[0], 0x2);
    assert_int_equal(vkmm_mm_memory_changes(m), changes);
    /* What the bits promise. */
    vkmm_mm_read(f->e, m, 0, 128, COMPUTE, STORAGE_READ, &dispatch_cmd, got);
    assert_int_equal(f->log.count + f->log.uninitialized, 0);
    vkmm_mm_read(f->e, m, 128, 64, COMPUTE, STORAGE_READ, &dispatch_cmd, got);
    assert_int_equal(f->log.count, 1);
    assert_string_equal(f->log.h[0].id, VKMM_MM_HAZARD_STALE_READ);
    vkmm_mm_read(f->e, m, 192, 64, COMPUTE, STORAGE_READ, &dispatch_cmd, got);
    assert_int_equal(f->log.uninitialized, 1);
    /* A write that enters the coherent view changes the memory: the bits
     * no longer stand. */
    vkmm_mm_write(f->e, m, 0, 4, COPY, TRANSFER_WRITE, &copy_cmd, data);
    assert_true(vkmm_mm_memory_changes(m) > changes);
    vkmm_mm_memory_destroy(m);
}

/* ---- producer/consumer through stage/access paths -------------------------- */

static void test_memmodel_barrier_makes_copy_visible_to_dispatch(void **state)
{
    struct fixture *f = *state;
    assert_true(copy_then_dispatch_with(f, COPY, TRANSFER_WRITE, COMPUTE, STORAGE_READ));
    assert_int_equal(f->log.count, 0);
    assert_int_equal(vkmm_mm_engine_status(f->e), VK_SUCCESS);
}

static void test_memmodel_no_barrier_reads_old_bytes_and_names_the_barrier(void **state)
{
    struct fixture *f = *state;
    assert_false(copy_then_dispatch(f, NULL));
    expect_copy_not_visible(f, "");
    assert_int_equal(vkmm_mm_hazard_count(f->e), 1);
}

static void test_memmodel_wrong_src_access_leaves_the_write_unavailable(void **state)
{
    struct fixture *f = *state;
    assert_false(copy_then_dispatch_with(f, COPY, STORAGE_WRITE, COMPUTE, STORAGE_READ));
    expect_copy_not_visible(f, "");
}

static void test_memmodel_wrong_src_stage_leaves_the_write_unavailable(void **state)
{
    struct fixture *f = *state;
    assert_false(copy_then_dispatch_with(f, COMPUTE, TRANSFER_WRITE, COMPUTE, STORAGE_READ));
    expect_copy_not_visible(f, "");
}

static void test_memmodel_wrong_dst_access_leaves_the_write_invisible(void **state)
{
    struct fixture *f = *state;
    assert_false(copy_then_dispatch_with(f, COPY, TRANSFER_WRITE, COMPUTE, UNIFORM_READ));
    expect_copy_not_visible(f, made_available);
}

static void test_memmodel_wrong_dst_stage_leaves_the_write_invisible(void **state)
{
    struct fixture *f = *state;
    assert_false(copy_then_dispatch_with(f, COPY, TRANSFER_WRITE, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                                         VK_ACCESS_2_MEMORY_READ_BIT));
    expect_copy_not_visible(f, made_available);
}

static void test_memmodel_meta_bits_expand(void **state)
{
    struct fixture *f = *state;
    const VkPipelineStageFlags2 all = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    assert_true(copy_then_dispatch_with(f, all, VK_ACCESS_2_MEMORY_WRITE_BIT, all, VK_ACCESS_2_MEMORY_READ_BIT));
    assert_true(copy_then_dispatch_with(f, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, TRANSFER_WRITE, COMPUTE,
                                        VK_ACCESS_2_SHADER_READ_BIT));
    /* Legacy 32-bit masks mean the same. */
    assert_true(copy_then_dispatch_with(f, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT));
    assert_int_equal(f->log.count, 0);
    /* TOP_OF_PIPE and BOTTOM_OF_PIPE carry no access scope. */
    assert_false(copy_then_dispatch_with(f, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                                         VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, VK_ACCESS_2_MEMORY_READ_BIT));
    expect_copy_not_visible(f, "");
}

static void test_memmodel_shader_read_excludes_uniform_read(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, false, false);
    uint8_t old[N], data[N], got[N];
    coherent(m, old);
    derive(data, old, N, 0x5a);
    vkmm_mm_write(f->e, m, 0, N, COPY, TRANSFER_WRITE, &copy_cmd, data);
    barrier(f->e, COPY, TRANSFER_WRITE, COMPUTE, VK_ACCESS_2_SHADER_READ_BIT);
    vkmm_mm_read(f->e, m, 0, N, COMPUTE, UNIFORM_READ, &dispatch_cmd, got);
    assert_memory_equal(got, old, N);
    assert_int_equal(f->log.count, 1);
    assert_stale_read(&f->log.h[0], 0, N, "vkCmdCopyBuffer", "vkCmdDispatch",
                      "a barrier with srcStageMask ⊇ COPY, srcAccessMask ⊇ TRANSFER_WRITE, dstStageMask ⊇ "
                      "COMPUTE_SHADER, dstAccessMask ⊇ UNIFORM_READ (the write was made available; its visibility "
                      "to the reader is missing)");
    vkmm_mm_read(f->e, m, 0, N, COMPUTE, STORAGE_READ, &dispatch_cmd, got);
    assert_memory_equal(got, data, N);
    assert_int_equal(f->log.count, 1);
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_own_stage_write_is_not_read_back(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, false, false);
    uint8_t old[N], data[N], got[N];
    coherent(m, old);
    derive(data, old, N, 0x5a);
    vkmm_mm_write(f->e, m, 0, N, COMPUTE, STORAGE_WRITE, &dispatch_cmd, data);
    read_compute(f, m, got);
    assert_memory_equal(got, old, N);
    assert_int_equal(f->log.count, 1);
    assert_stale_read(&f->log.h[0], 0, N, "vkCmdDispatch", "vkCmdDispatch",
                      "a barrier with srcStageMask ⊇ COMPUTE_SHADER, srcAccessMask ⊇ SHADER_STORAGE_WRITE, "
                      "dstStageMask ⊇ COMPUTE_SHADER, dstAccessMask ⊇ SHADER_STORAGE_READ");
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_write_changes_only_its_bytes(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, false, false);
    uint8_t old[N], got[N], four[4] = { 1, 2, 3, 4 };
    coherent(m, old);
    vkmm_mm_write(f->e, m, 10, 4, COPY, TRANSFER_WRITE, &copy_cmd, four);
    barrier(f->e, COPY, TRANSFER_WRITE, COMPUTE, STORAGE_READ);
    read_compute(f, m, got);
    memcpy(old + 10, four, 4);
    assert_memory_equal(got, old, N);
    assert_int_equal(f->log.count, 0);
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_chained_barriers_split_av_and_vis(void **state)
{
    struct fixture *f = *state;
    /* The first barrier makes the write available, the second, chained to it
     * by COMPUTE, makes it visible. */
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, false, false);
    uint8_t old[N], data[N], got[N];
    coherent(m, old);
    derive(data, old, N, 0x5a);
    vkmm_mm_write(f->e, m, 0, N, COPY, TRANSFER_WRITE, &copy_cmd, data);
    barrier(f->e, COPY, TRANSFER_WRITE, COMPUTE, 0);
    read_compute(f, m, got);
    assert_memory_equal(got, old, N);
    expect_copy_not_visible(f, made_available);
    barrier(f->e, COMPUTE, 0, COMPUTE, STORAGE_READ);
    read_compute(f, m, got);
    assert_memory_equal(got, data, N);
    assert_int_equal(f->log.count, 1);
    vkmm_mm_memory_destroy(m);
}

/* ---- buffer barriers --------------------------------------------------------- */

static void test_memmodel_buffer_barrier_flushes_only_its_range(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, false, false);
    uint8_t old[N], data[N], got[N];
    coherent(m, old);
    derive(data, old, N, 0x5a);
    vkmm_mm_write(f->e, m, 0, N, COPY, TRANSFER_WRITE, &copy_cmd, data);
    buffer_barrier(f->e, m, 0, 32, COPY, TRANSFER_WRITE, COMPUTE, STORAGE_READ);
    read_compute(f, m, got);
    assert_memory_equal(got, data, 32);
    assert_memory_equal(got + 32, old + 32, 32);
    assert_int_equal(f->log.count, 1);
    assert_stale_read(&f->log.h[0], 32, 32, "vkCmdCopyBuffer", "vkCmdDispatch", copy_to_compute);
    /* The rest, with VK_WHOLE_SIZE. */
    buffer_barrier(f->e, m, 32, VK_WHOLE_SIZE, COPY, TRANSFER_WRITE, COMPUTE, STORAGE_READ);
    read_compute(f, m, got);
    assert_memory_equal(got, data, N);
    assert_int_equal(f->log.count, 1);
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_buffer_barrier_makes_only_its_range_visible(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, false, false);
    struct vkmm_mm_memory *other = vkmm_mm_memory_create(f->e, 2, N, false, false);
    uint8_t old[N], data[N], got[N], other_old[N], other_data[N];
    coherent(m, old);
    coherent(other, other_old);
    derive(data, old, N, 0x5a);
    derive(other_data, other_old, N, 0x5a);
    vkmm_mm_write(f->e, m, 0, N, COPY, TRANSFER_WRITE, &copy_cmd, data);
    vkmm_mm_write(f->e, other, 0, N, COPY, TRANSFER_WRITE, &copy_cmd, other_data);
    barrier(f->e, COPY, TRANSFER_WRITE, COMPUTE, 0);
    buffer_barrier(f->e, m, 16, 16, COMPUTE, 0, COMPUTE, STORAGE_READ);
    read_compute(f, m, got);
    assert_memory_equal(got, old, 16);
    assert_memory_equal(got + 16, data + 16, 16);
    assert_memory_equal(got + 32, old + 32, 32);
    assert_int_equal(f->log.count, 2);
    assert_int_equal(f->log.h[0].offset, 0);
    assert_int_equal(f->log.h[0].size, 16);
    assert_int_equal(f->log.h[1].offset, 32);
    assert_int_equal(f->log.h[1].size, 32);
    /* The other memory is outside the buffer barrier. */
    read_compute(f, other, got);
    assert_memory_equal(got, other_old, N);
    assert_int_equal(f->log.count, 3);
    assert_int_equal(f->log.h[2].memory_id, 2);
    vkmm_mm_memory_destroy(other);
    vkmm_mm_memory_destroy(m);
}

/* ---- the versioned store ------------------------------------------------------ */

static void test_memmodel_read_path_keeps_seeing_its_last_visible_version(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, false, false);
    uint8_t old[N], a[N], b[N], got[N];
    coherent(m, old);
    derive(a, old, N, 0x5a);
    derive(b, old, N, 0xa5);
    vkmm_mm_write(f->e, m, 0, N, COPY, TRANSFER_WRITE, &copy_cmd, a);
    barrier(f->e, COPY, TRANSFER_WRITE, COMPUTE, STORAGE_READ);
    vkmm_mm_write(f->e, m, 0, N, COPY, TRANSFER_WRITE, &copy2_cmd, b);
    barrier(f->e, COPY, TRANSFER_WRITE, COPY, TRANSFER_READ);
    read_compute(f, m, got);
    assert_memory_equal(got, a, N);
    assert_int_equal(f->log.count, 1);
    assert_int_equal(f->log.h[0].writer.command, 2);
    assert_stale_read(&f->log.h[0], 0, N, "vkCmdCopyBuffer", "vkCmdDispatch", "a barrier with srcStageMask ⊇ COPY, "
                      "srcAccessMask ⊇ TRANSFER_WRITE, dstStageMask ⊇ COMPUTE_SHADER, dstAccessMask ⊇ "
                      "SHADER_STORAGE_READ (the write was made available; its visibility to the reader is missing)");
    vkmm_mm_read(f->e, m, 0, N, COPY, TRANSFER_READ, &copy2_cmd, got);
    assert_memory_equal(got, b, N);
    assert_int_equal(f->log.count, 1);
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_undo_log_is_bounded(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, 16, false, false);
    uint8_t old[16], a[16], got[16];
    vkmm_mm_coherent_read(m, 0, 16, old);
    derive(a, old, 16, 0x5a);
    vkmm_mm_write(f->e, m, 0, 16, COPY, TRANSFER_WRITE, &copy_cmd, a);
    barrier(f->e, COPY, TRANSFER_WRITE, COMPUTE, STORAGE_READ);
    for (unsigned i = 0; i < 1000; i++) {
        uint8_t data[16];
        memset(data, (int)(i & 0xff), sizeof data);
        vkmm_mm_write(f->e, m, 0, 16, COPY, TRANSFER_WRITE, &copy2_cmd, data);
        barrier(f->e, COPY, TRANSFER_WRITE, COPY, TRANSFER_READ);
    }
    /* Read paths can see the allocation (submit_vis 0: BLIT reads), `a`
     * (COMPUTE reads) and the newest (COPY reads); the log also holds the
     * previous newest until the next flush of the granule prunes it: at
     * most max(4, visibility records + 1) old versions of its one granule
     * (levels.c leaves histories of up to 4 alone), however long the
     * loop. */
    assert_true(vkmm_mm_memory_history(m) <= 4);
    vkmm_mm_read(f->e, m, 0, 16, COMPUTE, STORAGE_READ, &dispatch_cmd, got);
    assert_memory_equal(got, a, 16);
    vkmm_mm_read(f->e, m, 0, 16, VK_PIPELINE_STAGE_2_BLIT_BIT, TRANSFER_READ, &copy_cmd, got);
    assert_memory_equal(got, old, 16);
    vkmm_mm_submit(f->e);
    assert_int_equal(vkmm_mm_memory_history(m), 0);
    vkmm_mm_read(f->e, m, 0, 16, COMPUTE, STORAGE_READ, &dispatch_cmd, got);
    uint8_t last[16];
    memset(last, 999 & 0xff, sizeof last);
    assert_memory_equal(got, last, 16);
    vkmm_mm_memory_destroy(m);
}

/* Issue 9 "state proportional to the bytes touched": a fresh host-visible
 * memory holds four levels of values (device, coherent, view and view_base;
 * the host level reads device memory) and half a byte of metadata per byte
 * (two metas of 64-bit seqs, four of 32-bit write events, per 64-byte
 * granule); a host write whose bytes partly equal the old ones costs a pair
 * per granule and meta, not a per-byte block; a copy of view_base exists
 * only while the coherent view has absorbed host writes that no flush took
 * yet; room for old versions goes back after a submission that needed
 * none. */
static void test_memmodel_host_visible_state_follows_what_is_pending(void **state)
{
    struct fixture *f = *state;
    enum { SIZE = 64 * 1024, GRANULES = SIZE / 64 };
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, SIZE, true, true);
    uint64_t fresh = vkmm_mm_memory_state_bytes(m);
    assert_int_equal(fresh, 4ull * SIZE + SIZE / 2 + SIZE / 16); /* and the history's index, 4 bytes a granule */
    /* Every byte but the eighth of each granule changes. */
    uint8_t *view = vkmm_mm_host_view(m);
    for (uint64_t b = 0; b < SIZE; b++)
        if (b % 64 != 7)
            view[b] ^= 0x5a;
    vkmm_mm_submit(f->e);
    uint64_t written = vkmm_mm_memory_state_bytes(m);
    assert_true(written > fresh);
    /* Pairs; no host page of its own (the submission landed every host
     * byte: the host level and device memory agree). */
    assert_true(written - fresh <= (uint64_t)GRANULES * 6 * 2 * 24 + 4096);
    /* A host write absorbed before any flush: view_seen, until the submit
     * flushes the whole memory. */
    view[3] ^= 0x11;
    vkmm_mm_check_host_read(f->e, m, 0, SIZE);
    assert_true(vkmm_mm_memory_state_bytes(m) >= written + SIZE);
    vkmm_mm_submit(f->e);
    assert_true(vkmm_mm_memory_state_bytes(m) < written + SIZE);
    /* The host level keeps the landed host writes in pages of its own (the
     * view's bytes, a page each) until a device->host domain operation over
     * the whole memory finds neither side ahead; a device write overwrites
     * every granule: a version of each until the next submission, and no
     * room kept after one more. */
    uint64_t flushed = vkmm_mm_memory_state_bytes(m);
    uint8_t data[SIZE];
    memset(data, 0x3c, sizeof data);
    vkmm_mm_write(f->e, m, 0, SIZE, COMPUTE, STORAGE_WRITE, &dispatch_cmd, data);
    barrier(f->e, COMPUTE, VK_ACCESS_2_SHADER_WRITE_BIT, COPY, TRANSFER_READ);
    assert_true(vkmm_mm_memory_history(m) >= GRANULES);
    uint64_t with_history = vkmm_mm_memory_state_bytes(m);
    assert_true(with_history >= flushed + (uint64_t)GRANULES * 64);
    barrier(f->e, COMPUTE, VK_ACCESS_2_SHADER_WRITE_BIT, HOST, HOST_READ);
    assert_true(vkmm_mm_memory_state_bytes(m) + SIZE <= with_history);
    barrier(f->e, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_NONE, 0);
    vkmm_mm_host_wait(f->e);
    assert_memory_equal(view, data, SIZE);
    vkmm_mm_submit(f->e);
    vkmm_mm_submit(f->e);
    assert_int_equal(vkmm_mm_memory_history(m), 0);
    assert_true(vkmm_mm_memory_state_bytes(m) + SIZE + (uint64_t)GRANULES * 64 <= with_history);
    uint8_t got[SIZE];
    vkmm_mm_read(f->e, m, 0, SIZE, COPY, TRANSFER_READ, &copy2_cmd, got);
    assert_memory_equal(got, data, SIZE);
    assert_true(vkmm_mm_check_host_read(f->e, m, 0, SIZE));
    assert_int_equal(f->log.count, 0);
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_submit_makes_available_writes_visible_everywhere(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, false, false);
    uint8_t old[N], a[N], b[N], got[N];
    coherent(m, old);
    derive(a, old, N, 0x5a);
    derive(b, old, N, 0xa5);
    vkmm_mm_write(f->e, m, 0, N, COPY, TRANSFER_WRITE, &copy_cmd, a);
    barrier(f->e, COPY, TRANSFER_WRITE, VK_PIPELINE_STAGE_2_NONE, 0);
    vkmm_mm_submit(f->e);
    read_compute(f, m, got);
    assert_memory_equal(got, a, N);
    vkmm_mm_read(f->e, m, 0, N, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT,
                 &dispatch_cmd, got);
    assert_memory_equal(got, a, N);
    assert_int_equal(f->log.count, 0);
    /* A submission does not flush write paths. */
    vkmm_mm_write(f->e, m, 0, N, COMPUTE, STORAGE_WRITE, &dispatch_cmd, b);
    vkmm_mm_submit(f->e);
    vkmm_mm_read(f->e, m, 0, N, COPY, TRANSFER_READ, &copy2_cmd, got);
    assert_memory_equal(got, a, N);
    assert_int_equal(f->log.count, 1);
    assert_stale_read(&f->log.h[0], 0, N, "vkCmdDispatch", "vkCmdCopyBuffer",
                      "a barrier with srcStageMask ⊇ COMPUTE_SHADER, srcAccessMask ⊇ SHADER_STORAGE_WRITE, "
                      "dstStageMask ⊇ COPY, dstAccessMask ⊇ TRANSFER_READ");
    vkmm_mm_memory_destroy(m);
}

/* ---- write after write ---------------------------------------------------- */

static void two_writers(struct fixture *f, bool ordered)
{
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, false, false);
    uint8_t old[N], a[N], b[N], got[N];
    coherent(m, old);
    derive(a, old, N, 0x5a);
    derive(b, old, N, 0xa5);
    vkmm_mm_write(f->e, m, 0, N, COPY, TRANSFER_WRITE, &copy_cmd, a);
    if (ordered)
        barrier(f->e, COPY, TRANSFER_WRITE, COMPUTE, STORAGE_WRITE);
    vkmm_mm_write(f->e, m, 0, N, COMPUTE, STORAGE_WRITE, &dispatch_cmd, b);
    barrier(f->e, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, COPY, TRANSFER_READ);
    vkmm_mm_read(f->e, m, 0, N, COPY, TRANSFER_READ, &copy2_cmd, got);
    coherent(m, old);
    assert_memory_equal(old, b, N);
    assert_memory_equal(got, ordered ? b : a, N);
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_write_after_write_with_barrier_keeps_the_newer(void **state)
{
    struct fixture *f = *state;
    two_writers(f, true);
    assert_int_equal(f->log.count, 0);
}

static void test_memmodel_write_after_write_without_barrier_loses_the_newer(void **state)
{
    struct fixture *f = *state;
    two_writers(f, false);
    assert_int_equal(f->log.count, 2);
    const struct recorded *waw = &f->log.h[0];
    assert_string_equal(waw->id, VKMM_MM_HAZARD_WRITE_AFTER_WRITE);
    assert_int_equal(waw->offset, 0);
    assert_int_equal(waw->size, N);
    assert_string_equal(waw->writer_kind, "vkCmdCopyBuffer");
    assert_string_equal(waw->reader_kind, "vkCmdDispatch");
    assert_string_equal(waw->missing, "a barrier with srcStageMask ⊇ COPY, srcAccessMask ⊇ TRANSFER_WRITE, "
                                      "dstStageMask ⊇ COMPUTE_SHADER, dstAccessMask ⊇ SHADER_STORAGE_WRITE between "
                                      "the two writes");
    assert_stale_read(&f->log.h[1], 0, N, "vkCmdDispatch", "vkCmdCopyBuffer",
                      "a barrier with srcStageMask ⊇ COMPUTE_SHADER, srcAccessMask ⊇ SHADER_STORAGE_WRITE, "
                      "dstStageMask ⊇ COPY, dstAccessMask ⊇ TRANSFER_READ (an older write became available over "
                      "it: see VKMM-HAZARD-WRITE-AFTER-WRITE)");
}

/* ---- host writes ------------------------------------------------------------ */

static void host_writes(struct vkmm_mm_memory *m, uint8_t *old, uint8_t *data)
{
    uint8_t *view = vkmm_mm_host_view(m);
    assert_non_null(view);
    memcpy(old, view, N);
    derive(data, old, N, 0x5a);
    memcpy(view, data, N); /* through the mapped pointer */
}

static void read_transfer(struct fixture *f, struct vkmm_mm_memory *m, uint8_t *out)
{
    vkmm_mm_read(f->e, m, 0, N, COPY, TRANSFER_READ, &copy_cmd, out);
}

static void test_memmodel_flushed_host_write_reaches_the_device_at_submit(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, true, false);
    uint8_t old[N], data[N], got[N];
    host_writes(m, old, data);
    vkmm_mm_flush(f->e, m, 0, VK_WHOLE_SIZE);
    vkmm_mm_submit(f->e);
    read_transfer(f, m, got);
    assert_memory_equal(got, data, N);
    assert_int_equal(f->log.count, 0);
    vkmm_mm_memory_destroy(m);
}

/* Host-coherent memory: a host write the engine took in early (a host read
 * check absorbs it) still reaches the device at the next submit, and so do
 * later writes to other bytes; a submit with no host write changes nothing.
 * (The flush compares the view with view_seen alone while view_base equals
 * it: an absorbed, unflushed write must not be skipped.) */
static void test_memmodel_absorbed_host_write_is_flushed_at_submit(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, true, true);
    uint8_t *view = vkmm_mm_host_view(m);
    uint8_t want[N], got[N];
    memcpy(want, view, N);
    view[3] ^= 0x5a;
    want[3] = view[3];
    vkmm_mm_check_host_read(f->e, m, 0, N); /* absorbs the write */
    vkmm_mm_submit(f->e);
    read_transfer(f, m, got);
    assert_memory_equal(got, want, N);
    view[N - 1] ^= 0xa5; /* other bytes, after a whole flush */
    want[N - 1] = view[N - 1];
    vkmm_mm_submit(f->e);
    read_transfer(f, m, got);
    assert_memory_equal(got, want, N);
    vkmm_mm_submit(f->e);
    read_transfer(f, m, got);
    assert_memory_equal(got, want, N);
    assert_int_equal(f->log.count, 0);
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_unflushed_host_write_is_stale_on_the_device(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, true, false);
    uint8_t old[N], data[N], got[N];
    host_writes(m, old, data);
    vkmm_mm_submit(f->e);
    read_transfer(f, m, got);
    assert_memory_equal(got, old, N);
    assert_int_equal(f->log.count, 1);
    assert_stale_read(&f->log.h[0], 0, N, "host", "vkCmdCopyBuffer",
                      "vkFlushMappedMemoryRanges over the written range, then vkQueueSubmit or a dependency with "
                      "srcStageMask ⊇ HOST, srcAccessMask ⊇ HOST_WRITE, dstStageMask ⊇ COPY, dstAccessMask ⊇ "
                      "TRANSFER_READ");
    assert_int_equal(f->log.h[0].writer.queue, VKMM_MM_HOST_QUEUE);
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_flush_alone_stops_at_the_host_domain(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, true, false);
    uint8_t old[N], data[N], got[N];
    host_writes(m, old, data);
    vkmm_mm_flush(f->e, m, 0, N);
    barrier(f->e, COPY, TRANSFER_WRITE, COPY, TRANSFER_READ);
    read_transfer(f, m, got);
    assert_memory_equal(got, old, N);
    assert_int_equal(f->log.count, 1);
    assert_stale_read(&f->log.h[0], 0, N, "host", "vkCmdCopyBuffer",
                      "vkQueueSubmit after the host write, or a dependency with srcStageMask ⊇ HOST, srcAccessMask "
                      "⊇ HOST_WRITE, dstStageMask ⊇ COPY, dstAccessMask ⊇ TRANSFER_READ");
    /* vkCmdWaitEvents after a host vkSetEvent: HOST_WRITE in the first scope. */
    barrier(f->e, HOST, HOST_WRITE, COPY, TRANSFER_READ);
    read_transfer(f, m, got);
    assert_memory_equal(got, data, N);
    assert_int_equal(f->log.count, 1);
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_flush_moves_only_its_range(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, true, false);
    uint8_t old[N], data[N], got[N];
    host_writes(m, old, data);
    vkmm_mm_flush(f->e, m, 0, 16);
    vkmm_mm_submit(f->e);
    read_transfer(f, m, got);
    assert_memory_equal(got, data, 16);
    assert_memory_equal(got + 16, old + 16, N - 16);
    assert_int_equal(f->log.count, 1);
    assert_int_equal(f->log.h[0].offset, 16);
    assert_int_equal(f->log.h[0].size, N - 16);
    vkmm_mm_memory_destroy(m);
}

/* A host rewrite that leaves bytes here and there with the value they had
 * (a counter's high bytes) writes only the bytes it changed: they land,
 * granule by granule, exactly; the others keep what device memory had; a
 * flush of part of the memory moves only that part (the rest is reported
 * stale, past the flushed range only).  Three granules and a short one. */
#define SCATTERED (3 * 64 + 5)

static void test_memmodel_host_rewrite_of_some_bytes_lands_exactly_them(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, SCATTERED, true, false);
    uint8_t *view = vkmm_mm_host_view(m);
    uint8_t want[SCATTERED], got[SCATTERED];
    for (unsigned i = 0; i < SCATTERED; i++)
        view[i] = (uint8_t)(i * 7 + 1);
    memcpy(want, view, SCATTERED);
    vkmm_mm_flush(f->e, m, 0, VK_WHOLE_SIZE);
    vkmm_mm_submit(f->e);
    for (unsigned round = 0; round < 4; round++) {
        for (unsigned i = 0; i < SCATTERED; i++)
            if (i % 4 == round || (i >= 60 && i < 70 + round))
                view[i] = want[i] = (uint8_t)(want[i] ^ (0x41 + round));
        vkmm_mm_flush(f->e, m, 0, VK_WHOLE_SIZE);
        vkmm_mm_submit(f->e);
        vkmm_mm_read(f->e, m, 0, SCATTERED, COPY, TRANSFER_READ, &copy_cmd, got);
        assert_memory_equal(got, want, SCATTERED);
    }
    assert_int_equal(f->log.count, 0);
    uint8_t before[SCATTERED];
    memcpy(before, want, SCATTERED);
    for (unsigned i = 1; i < SCATTERED; i += 3)
        view[i] = want[i] = (uint8_t)(want[i] + 1);
    vkmm_mm_flush(f->e, m, 0, 100);
    vkmm_mm_submit(f->e);
    vkmm_mm_read(f->e, m, 0, SCATTERED, COPY, TRANSFER_READ, &copy_cmd, got);
    assert_memory_equal(got, want, 100);
    assert_memory_equal(got + 100, before + 100, SCATTERED - 100);
    assert_true(f->log.count > 0);
    for (unsigned i = 0; i < f->log.count; i++)
        assert_true(f->log.h[i].offset >= 100);
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_coherent_host_write_reaches_the_device_at_submit(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, true, true);
    uint8_t old[N], data[N], got[N];
    host_writes(m, old, data);
    read_transfer(f, m, got); /* before the submission: stale */
    assert_memory_equal(got, old, N);
    assert_int_equal(f->log.count, 1);
    assert_stale_read(&f->log.h[0], 0, N, "host", "vkCmdCopyBuffer",
                      "vkQueueSubmit after the host write, or a dependency with srcStageMask ⊇ HOST, srcAccessMask "
                      "⊇ HOST_WRITE, dstStageMask ⊇ COPY, dstAccessMask ⊇ TRANSFER_READ");
    vkmm_mm_submit(f->e);
    read_transfer(f, m, got);
    assert_memory_equal(got, data, N);
    assert_int_equal(f->log.count, 1);
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_described_host_write_and_read(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, true, false);
    uint8_t old[N], data[N], got[N];
    coherent(m, old);
    derive(data, old, N, 0x33);
    vkmm_mm_write(f->e, m, 0, N, HOST, HOST_WRITE, &host_thread, data);
    assert_memory_equal(vkmm_mm_host_view(m), data, N);
    vkmm_mm_read(f->e, m, 0, N, HOST, HOST_READ, &host_thread, got);
    assert_memory_equal(got, data, N);
    vkmm_mm_flush(f->e, m, 0, N);
    vkmm_mm_submit(f->e);
    read_transfer(f, m, got);
    assert_memory_equal(got, data, N);
    assert_int_equal(f->log.count, 0);
    vkmm_mm_memory_destroy(m);
}

/* ---- device writes read by the host ------------------------------------------- */

/* A dispatch writes; `deps` runs (HOST_READ dependency or not); the host
 * waits.  Returns the new bytes. */
static void dispatch_writes_host_waits(struct fixture *f, struct vkmm_mm_memory *m, bool host_read_dependency,
                                       uint8_t *old, uint8_t *data)
{
    coherent(m, old);
    derive(data, old, N, 0x5a);
    vkmm_mm_write(f->e, m, 0, N, COMPUTE, STORAGE_WRITE, &dispatch_cmd, data);
    if (host_read_dependency)
        barrier(f->e, COMPUTE, VK_ACCESS_2_SHADER_WRITE_BIT, HOST, HOST_READ);
    /* The fence signal: all device writes available, nothing visible. */
    barrier(f->e, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_NONE, 0);
    vkmm_mm_host_wait(f->e);
}

static void assert_host_stale(const struct recorded *r, const char *missing)
{
    /* The missing HOST_READ dependency has an ID of its own. */
    bool no_dependency = strncmp(missing, "a dependency with dstStageMask ⊇ HOST,", 38) == 0;
    assert_string_equal(r->id, no_dependency ? VKMM_MM_HAZARD_HOST_READ_NO_DEPENDENCY : VKMM_MM_HAZARD_HOST_STALE_READ);
    assert_int_equal(r->offset, 0);
    assert_int_equal(r->size, N);
    assert_string_equal(r->writer_kind, "vkCmdDispatch");
    assert_string_equal(r->reader_kind, "host");
    assert_string_equal(r->missing, missing);
}

/* The device->host domain operation over bytes whose host seqs differ byte
 * by byte (the host rewrote some of them): each byte the device wrote
 * later reaches the host, the others keep the host's own, granule by
 * granule. */
static void test_memmodel_device_write_reaches_a_host_level_of_scattered_seqs(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, SCATTERED, true, true);
    uint8_t *view = vkmm_mm_host_view(m);
    uint8_t want[SCATTERED], data[SCATTERED];
    for (unsigned i = 0; i < SCATTERED; i++)
        view[i] = (uint8_t)(i * 5 + 3);
    vkmm_mm_submit(f->e);
    for (unsigned i = 0; i < SCATTERED; i += 3)
        view[i] = (uint8_t)(view[i] + 1);
    vkmm_mm_submit(f->e); /* the host's seqs now differ byte by byte */
    memcpy(want, view, SCATTERED);
    for (unsigned i = 0; i < SCATTERED; i++)
        data[i] = (uint8_t)(want[i] ^ 0xa5);
    vkmm_mm_write(f->e, m, 0, 50, COMPUTE, STORAGE_WRITE, &dispatch_cmd, data);
    vkmm_mm_write(f->e, m, 70, SCATTERED - 70, COMPUTE, STORAGE_WRITE, &dispatch_cmd, data + 70);
    memcpy(want, data, 50);
    memcpy(want + 70, data + 70, SCATTERED - 70);
    /* Part of the memory (the host level then keeps bytes of its own), then
     * the rest. */
    buffer_barrier(f->e, m, 0, SCATTERED - 3, COMPUTE, VK_ACCESS_2_SHADER_WRITE_BIT, HOST, HOST_READ);
    barrier(f->e, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_NONE, 0);
    vkmm_mm_host_wait(f->e);
    assert_memory_equal(vkmm_mm_host_view(m), want, SCATTERED - 3);
    assert_true(vkmm_mm_check_host_read(f->e, m, 0, SCATTERED - 3));
    buffer_barrier(f->e, m, SCATTERED - 3, 3, COMPUTE, VK_ACCESS_2_SHADER_WRITE_BIT, HOST, HOST_READ);
    vkmm_mm_host_wait(f->e);
    assert_memory_equal(vkmm_mm_host_view(m), want, SCATTERED);
    assert_true(vkmm_mm_check_host_read(f->e, m, 0, SCATTERED));
    assert_int_equal(f->log.count, 0);
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_coherent_view_updates_at_host_wait(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, true, true);
    uint8_t old[N], data[N];
    coherent(m, old);
    derive(data, old, N, 0x5a);
    vkmm_mm_write(f->e, m, 0, N, COMPUTE, STORAGE_WRITE, &dispatch_cmd, data);
    barrier(f->e, COMPUTE, VK_ACCESS_2_SHADER_WRITE_BIT, HOST, HOST_READ);
    /* Before the host observes completion the view is stale. */
    assert_memory_equal(vkmm_mm_host_view(m), old, N);
    assert_false(vkmm_mm_check_host_read(f->e, m, 0, N));
    assert_int_equal(f->log.count, 1);
    assert_host_stale(&f->log.h[0], "a fence or semaphore wait on the host before reading the mapped memory");
    vkmm_mm_host_wait(f->e);
    assert_memory_equal(vkmm_mm_host_view(m), data, N);
    assert_true(vkmm_mm_check_host_read(f->e, m, 0, N));
    assert_int_equal(f->log.count, 1);
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_noncoherent_view_needs_invalidate(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, true, false);
    uint8_t old[N], data[N];
    dispatch_writes_host_waits(f, m, true, old, data);
    assert_memory_equal(vkmm_mm_host_view(m), old, N);
    assert_false(vkmm_mm_check_host_read(f->e, m, 0, N));
    assert_int_equal(f->log.count, 1);
    assert_host_stale(&f->log.h[0], "vkInvalidateMappedMemoryRanges over the range after the fence wait");
    vkmm_mm_invalidate(f->e, m, 0, VK_WHOLE_SIZE);
    assert_memory_equal(vkmm_mm_host_view(m), data, N);
    assert_true(vkmm_mm_check_host_read(f->e, m, 0, N));
    assert_int_equal(f->log.count, 1);
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_missing_host_read_dependency_leaves_view_stale(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, true, true);
    uint8_t old[N], data[N];
    dispatch_writes_host_waits(f, m, false, old, data);
    /* ALL_COMMANDS does not include HOST (Vulkan-Docs issue 2555). */
    barrier(f->e, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
            VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
    vkmm_mm_host_wait(f->e);
    assert_memory_equal(vkmm_mm_host_view(m), old, N);
    assert_false(vkmm_mm_check_host_read(f->e, m, 0, N));
    assert_int_equal(f->log.count, 1);
    assert_host_stale(&f->log.h[0], "a dependency with dstStageMask ⊇ HOST, dstAccessMask ⊇ HOST_READ after the "
                                    "write was made available (srcStageMask ⊇ COMPUTE_SHADER, srcAccessMask ⊇ "
                                    "SHADER_STORAGE_WRITE), then a fence or semaphore wait on the host");
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_unavailable_device_write_names_the_whole_barrier(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, true, false);
    uint8_t old[N], data[N], got[N];
    coherent(m, old);
    derive(data, old, N, 0x5a);
    vkmm_mm_write(f->e, m, 0, N, COMPUTE, STORAGE_WRITE, &dispatch_cmd, data);
    vkmm_mm_host_wait(f->e);
    vkmm_mm_invalidate(f->e, m, 0, N);
    vkmm_mm_read(f->e, m, 0, N, HOST, HOST_READ, &host_thread, got);
    assert_memory_equal(got, old, N);
    assert_int_equal(f->log.count, 1);
    assert_string_equal(f->log.h[0].id, VKMM_MM_HAZARD_HOST_STALE_READ);
    assert_string_equal(f->log.h[0].reader_kind, "memcpy");
    assert_string_equal(f->log.h[0].missing,
                        "a barrier with srcStageMask ⊇ COMPUTE_SHADER, srcAccessMask ⊇ SHADER_STORAGE_WRITE, "
                        "dstStageMask ⊇ HOST, dstAccessMask ⊇ HOST_READ, then a fence wait and "
                        "vkInvalidateMappedMemoryRanges");
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_host_read_buffer_barrier_moves_only_its_range(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, true, true);
    uint8_t old[N], data[N];
    coherent(m, old);
    derive(data, old, N, 0x5a);
    vkmm_mm_write(f->e, m, 0, N, COMPUTE, STORAGE_WRITE, &dispatch_cmd, data);
    buffer_barrier(f->e, m, 0, 8, COMPUTE, STORAGE_WRITE, HOST, HOST_READ);
    vkmm_mm_host_wait(f->e);
    assert_memory_equal(vkmm_mm_host_view(m), data, 8);
    assert_memory_equal(vkmm_mm_host_view(m) + 8, old + 8, N - 8);
    assert_true(vkmm_mm_check_host_read(f->e, m, 0, 8));
    assert_false(vkmm_mm_check_host_read(f->e, m, 8, N));
    assert_int_equal(f->log.count, 1);
    assert_int_equal(f->log.h[0].offset, 8);
    assert_int_equal(f->log.h[0].size, N - 8);
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_device_to_host_keeps_newer_flushed_host_writes(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, true, false);
    uint8_t old[N], data[N], got[N];
    host_writes(m, old, data);
    vkmm_mm_flush(f->e, m, 0, N);
    /* Device memory still holds the older pattern: the domain operation to
     * the host must not undo the flushed host write. */
    barrier(f->e, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, HOST, HOST_READ);
    vkmm_mm_invalidate(f->e, m, 0, N);
    assert_memory_equal(vkmm_mm_host_view(m), data, N);
    vkmm_mm_submit(f->e);
    read_transfer(f, m, got);
    assert_memory_equal(got, data, N);
    assert_int_equal(f->log.count, 0);
    vkmm_mm_memory_destroy(m);
}

/* ---- invalidate -------------------------------------------------------------- */

static void test_memmodel_invalidate_loses_unflushed_host_writes(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, true, false);
    uint8_t *view = vkmm_mm_host_view(m);
    uint8_t old[N];
    memcpy(old, view, N);
    for (int i = 0; i < 16; i++)
        view[i] = old[i] ^ 0x11;
    vkmm_mm_flush(f->e, m, 8, 8); /* [8, 16) is flushed, [0, 8) is not */
    vkmm_mm_invalidate(f->e, m, 0, 32);
    assert_memory_equal(view, old, 8);
    assert_int_equal(view[8], old[8] ^ 0x11);
    assert_int_equal(f->log.count, 1);
    const struct recorded *r = &f->log.h[0];
    assert_string_equal(r->id, VKMM_MM_HAZARD_UNFLUSHED_HOST_WRITE);
    assert_int_equal(r->offset, 0);
    assert_int_equal(r->size, 8);
    assert_string_equal(r->writer_kind, "host");
    assert_string_equal(r->reader_kind, "vkInvalidateMappedMemoryRanges");
    assert_string_equal(r->missing, "vkFlushMappedMemoryRanges over the range before vkInvalidateMappedMemoryRanges");
    /* The coherent machine kept the write: reading the view now is stale. */
    assert_false(vkmm_mm_check_host_read(f->e, m, 0, 16));
    assert_int_equal(f->log.count, 2);
    assert_string_equal(f->log.h[1].id, VKMM_MM_HAZARD_HOST_STALE_READ);
    assert_int_equal(f->log.h[1].size, 8);
    assert_string_equal(f->log.h[1].missing, r->missing);
    vkmm_mm_memory_destroy(m);
}

static void test_memmodel_coherent_invalidate_loses_nothing(void **state)
{
    struct fixture *f = *state;
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(f->e, 1, N, true, true);
    uint8_t old[N], data[N];
    host_writes(m, old, data);
    vkmm_mm_invalidate(f->e, m, 0, N);
    assert_memory_equal(vkmm_mm_host_view(m), data, N);
    assert_true(vkmm_mm_check_host_read(f->e, m, 0, N));
    assert_int_equal(f->log.count, 0);
    vkmm_mm_memory_destroy(m);
}

/* ---- determinism and seeds ----------------------------------------------------- */

/* Every kind of hazard, on two memories. */
static void buggy_program(struct vkmm_mm_engine *e)
{
    struct vkmm_mm_memory *m = vkmm_mm_memory_create(e, 1, N, true, false);
    struct vkmm_mm_memory *c = vkmm_mm_memory_create(e, 2, N, true, true);
    if (!m || !c) { /* out of memory */
        vkmm_mm_memory_destroy(c);
        vkmm_mm_memory_destroy(m);
        return;
    }
    uint8_t got[N], data[N];
    memset(data, 0x42, N);
    vkmm_mm_write(e, m, 0, N, COPY, TRANSFER_WRITE, &copy_cmd, data);
    vkmm_mm_write(e, m, 8, 8, COMPUTE, STORAGE_WRITE, &dispatch_cmd, data + 8);
    vkmm_mm_read(e, m, 0, N, COMPUTE, STORAGE_READ, &dispatch_cmd, got);
    barrier(e, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, COMPUTE, UNIFORM_READ);
    vkmm_mm_read(e, m, 0, N, COMPUTE, STORAGE_READ, &dispatch_cmd, got);
    memset(vkmm_mm_host_view(c), 0x17, 16);
    vkmm_mm_host_view(m)[40] ^= 1;
    vkmm_mm_invalidate(e, m, 32, 16);
    vkmm_mm_read(e, c, 0, N, COPY, TRANSFER_READ, &copy_cmd, got);
    vkmm_mm_submit(e);
    vkmm_mm_write(e, c, 0, N, COMPUTE, STORAGE_WRITE, &dispatch_cmd, data);
    vkmm_mm_host_wait(e);
    vkmm_mm_check_host_read(e, c, 0, N);
    vkmm_mm_check_host_read(e, m, 0, N);
    vkmm_mm_memory_destroy(c);
    vkmm_mm_memory_destroy(m);
}

static void run_buggy(uint64_t seed, struct log *log)
{
    memset(log, 0, sizeof *log);
    struct vkmm_mm_engine *e = vkmm_mm_engine_create(record, log, seed);
    assert_non_null(e);
    buggy_program(e);
    vkmm_mm_engine_destroy(e);
}

static void assert_agents_equal(const struct vkmm_mm_agent *a, const struct vkmm_mm_agent *b)
{
    assert_int_equal(a->queue, b->queue);
    assert_int_equal(a->submission, b->submission);
    assert_int_equal(a->command, b->command);
}

static void assert_logs_equal(const struct log *a, const struct log *b)
{
    assert_int_equal(a->count, b->count);
    for (unsigned i = 0; i < a->count; i++) {
        const struct recorded *x = &a->h[i], *y = &b->h[i];
        assert_string_equal(x->id, y->id);
        assert_int_equal(x->memory_id, y->memory_id);
        assert_int_equal(x->offset, y->offset);
        assert_int_equal(x->size, y->size);
        assert_agents_equal(&x->reader, &y->reader);
        assert_agents_equal(&x->writer, &y->writer);
        assert_string_equal(x->reader_kind, y->reader_kind);
        assert_string_equal(x->writer_kind, y->writer_kind);
        assert_string_equal(x->missing, y->missing);
    }
}

static void test_memmodel_same_calls_give_the_same_reports(void **state)
{
    (void)state;
    static struct log first, second;
    for (uint64_t seed = 0; seed < 4; seed++) {
        run_buggy(seed, &first);
        run_buggy(seed, &second);
        assert_true(first.count >= 6);
        assert_logs_equal(&first, &second);
    }
    run_buggy(0, &first);
    const char *ids[] = { VKMM_MM_HAZARD_STALE_READ, VKMM_MM_HAZARD_WRITE_AFTER_WRITE,
                          VKMM_MM_HAZARD_UNFLUSHED_HOST_WRITE, VKMM_MM_HAZARD_HOST_STALE_READ };
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        bool found = false;
        for (unsigned i = 0; i < first.count; i++)
            found |= !strcmp(first.h[i].id, ids[k]);
        assert_true(found);
    }
}

static void test_memmodel_seeds_never_break_a_correct_program(void **state)
{
    (void)state;
    for (uint64_t seed = 0; seed < 16; seed++) {
        struct fixture f = { 0 };
        f.e = vkmm_mm_engine_create(record, &f.log, seed);
        assert_true(copy_then_dispatch_with(&f, COPY, TRANSFER_WRITE, COMPUTE, STORAGE_READ));
        assert_int_equal(f.log.count, 0);
        vkmm_mm_engine_destroy(f.e);
    }
}

/* DESIGN §3 "Manifest": a racing read is stale and reported under every
 * seed — a seed may not pick the fresh value (the program's expectation)
 * through a cache miss. */
static void test_memmodel_every_seed_gives_the_stale_racy_result(void **state)
{
    (void)state;
    for (uint64_t seed = 0; seed < 32; seed++) {
        struct fixture f = { 0 };
        f.e = vkmm_mm_engine_create(record, &f.log, seed);
        /* Available, never made visible: the stalest result is the old bytes. */
        bool saw_new = copy_then_dispatch_with(&f, COPY, TRANSFER_WRITE, VK_PIPELINE_STAGE_2_NONE, 0);
        assert_false(saw_new);
        assert_int_equal(f.log.count, 1);
        vkmm_mm_engine_destroy(f.e);
    }
}

/* ---- differential test against a slow reference ------------------------------
 * The reference keeps every version of every byte and an explicit visible
 * seq per (read path, byte); scopes come from a hand-written table, not from
 * the engine's expansion. */

/* Several granules (64 bytes each), the last one short: uniform granules,
 * per-byte blocks and their collapse all take part. */
#define REF_SIZE 200
#define REF_VERSIONS 256

static const struct {
    VkPipelineStageFlags2 stage;
    VkAccessFlags2 access;
} ref_write_paths[] = {
    { VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT },
    { VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT },
    { VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT },
}, ref_read_paths[] = {
    { VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT },
    { VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT },
    { VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_UNIFORM_READ_BIT },
    { VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT },
};

static const struct {
    VkPipelineStageFlags2 stages;
    VkAccessFlags2 access;
    unsigned paths; /* bit i: ref_write_paths[i] is in the scope */
} ref_src[] = {
    { VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, 1 },
    { VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT, 2 },
    { VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, 5 },
    { VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, 7 },
    { VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, 0 },
    { 0, 0, 0 },
}, ref_dst[] = {
    { VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT, 1 },
    { VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_READ_BIT, 2 },
    { VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_UNIFORM_READ_BIT, 6 },
    { VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT, 15 },
    { VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
      VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT, 8 },
    { 0, 0, 0 },
};

struct ref {
    uint8_t pending[3][REF_SIZE];
    uint32_t pending_wts[3][REF_SIZE]; /* 0: clean */
    uint8_t value[REF_SIZE][REF_VERSIONS];
    uint64_t seq_of[REF_SIZE][REF_VERSIONS];
    unsigned versions[REF_SIZE];
    uint64_t visible[4][REF_SIZE];
    uint8_t coherent[REF_SIZE];
    uint64_t seq;
    uint32_t wts;
};

static uint32_t lcg(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*x >> 33);
}

static void ref_land(struct ref *r, unsigned b, unsigned paths)
{
    /* Oldest write last, as the engine does with seed 0. */
    for (;;) {
        int newest = -1;
        for (int p = 0; p < 3; p++)
            if ((paths >> p & 1) && r->pending_wts[p][b] &&
                (newest < 0 || r->pending_wts[p][b] > r->pending_wts[newest][b]))
                newest = p;
        if (newest < 0)
            return;
        assert_true(r->versions[b] < REF_VERSIONS);
        r->value[b][r->versions[b]] = r->pending[newest][b];
        r->seq_of[b][r->versions[b]++] = r->seq;
        r->pending_wts[newest][b] = 0;
    }
}

static uint8_t ref_read(const struct ref *r, unsigned key, unsigned b)
{
    for (unsigned v = r->versions[b]; v-- > 0;)
        if (r->seq_of[b][v] <= r->visible[key][b])
            return r->value[b][v];
    fail();
    return 0;
}

static void one_random_op(struct vkmm_mm_engine *e, struct vkmm_mm_memory *m, struct ref *r, uint64_t *x)
{
    unsigned op = lcg(x) % 100;
    unsigned begin = lcg(x) % REF_SIZE;
    unsigned size = 1 + lcg(x) % (REF_SIZE - begin);
    if (op < 40) { /* a command write */
        unsigned p = lcg(x) % 3;
        uint8_t data[REF_SIZE];
        r->wts++;
        for (unsigned i = 0; i < size; i++) {
            data[i] = (uint8_t)lcg(x);
            r->pending[p][begin + i] = data[i];
            r->pending_wts[p][begin + i] = r->wts;
            r->coherent[begin + i] = data[i];
        }
        const struct vkmm_mm_agent agent = { .submission = 1, .command = r->wts, .kind = "write" };
        vkmm_mm_write(e, m, begin, size, ref_write_paths[p].stage, ref_write_paths[p].access, &agent, data);
    } else if (op < 70) { /* a global or buffer barrier */
        unsigned s = lcg(x) % 6, d = lcg(x) % 6;
        bool global = lcg(x) & 1;
        if (global) {
            begin = 0;
            size = REF_SIZE;
        }
        r->seq++;
        for (unsigned b = begin; b < begin + size; b++) {
            ref_land(r, b, ref_src[s].paths);
            for (unsigned k = 0; k < 4; k++)
                if (ref_dst[d].paths >> k & 1)
                    r->visible[k][b] = r->seq;
        }
        const struct vkmm_mm_dependency dep = { .src_stages = ref_src[s].stages,
                                                .dst_stages = ref_dst[d].stages,
                                                .src_access = ref_src[s].access,
                                                .dst_access = ref_dst[d].access,
                                                .memory = global ? NULL : m,
                                                .offset = begin,
                                                .size = size };
        vkmm_mm_dependency(e, &dep);
    } else if (op < 97) { /* a command read */
        unsigned k = lcg(x) % 4;
        uint8_t got[REF_SIZE];
        const struct vkmm_mm_agent agent = { .submission = 1, .kind = "read" };
        vkmm_mm_read(e, m, begin, size, ref_read_paths[k].stage, ref_read_paths[k].access, &agent, got);
        for (unsigned i = 0; i < size; i++)
            assert_int_equal(got[i], ref_read(r, k, begin + i));
    } else { /* a submission: everything available becomes visible */
        r->seq++;
        for (unsigned b = 0; b < REF_SIZE; b++) {
            r->value[b][0] = r->value[b][r->versions[b] - 1];
            r->seq_of[b][0] = 0;
            r->versions[b] = 1;
            for (unsigned k = 0; k < 4; k++)
                r->visible[k][b] = 0;
        }
        vkmm_mm_submit(e);
    }
}

static void test_memmodel_matches_the_reference_model(void **state)
{
    (void)state;
    static struct ref r;
    for (uint64_t round = 0; round < 8; round++) {
        struct log log = { 0 };
        struct vkmm_mm_engine *e = vkmm_mm_engine_create(record, &log, 0);
        struct vkmm_mm_memory *m = vkmm_mm_memory_create(e, 3, REF_SIZE, false, false);
        memset(&r, 0, sizeof r);
        vkmm_mm_coherent_read(m, 0, REF_SIZE, r.coherent);
        for (unsigned b = 0; b < REF_SIZE; b++) {
            r.value[b][0] = r.coherent[b];
            r.versions[b] = 1;
        }
        uint64_t x = round + 1;
        for (unsigned i = 0; i < 3000; i++) {
            one_random_op(e, m, &r, &x);
            uint8_t coh[REF_SIZE];
            vkmm_mm_coherent_read(m, 0, REF_SIZE, coh);
            assert_memory_equal(coh, r.coherent, REF_SIZE);
        }
        /* Bounded: at most (visibility records + 1) old versions a granule. */
        assert_true(vkmm_mm_memory_history(m) <= (REF_SIZE + 63) / 64 * 16);
        assert_true(log.count > 0);
        assert_int_equal(vkmm_mm_engine_status(e), VK_SUCCESS);
        vkmm_mm_engine_destroy(e);
    }
}

/* ---- allocation failures --------------------------------------------------------- */

struct failing {
    int countdown; /* allocations left before they fail; < 0: never */
    int live;
};

static void *VKAPI_PTR failing_alloc(void *user, size_t size, size_t align, VkSystemAllocationScope scope)
{
    (void)align;
    (void)scope;
    struct failing *fa = user;
    if (fa->countdown == 0)
        return NULL;
    if (fa->countdown > 0)
        fa->countdown--;
    void *p = malloc(size);
    fa->live += p != NULL;
    return p;
}

static void *VKAPI_PTR failing_realloc(void *user, void *old, size_t size, size_t align,
                                       VkSystemAllocationScope scope)
{
    (void)align;
    (void)scope;
    struct failing *fa = user;
    if (fa->countdown == 0)
        return NULL;
    if (fa->countdown > 0)
        fa->countdown--;
    void *p = realloc(old, size);
    fa->live += p && !old;
    return p;
}

static void VKAPI_PTR failing_free(void *user, void *p)
{
    struct failing *fa = user;
    fa->live -= p != NULL;
    free(p);
}

static void test_memmodel_allocation_failures_are_survived(void **state)
{
    (void)state;
    unsigned failed_creates = 0, failed_calls = 0, clean = 0;
    for (int n = 0; n < 400; n++) {
        struct failing fa = { .countdown = n };
        const VkAllocationCallbacks cb = {
            .pUserData = &fa, .pfnAllocation = failing_alloc, .pfnReallocation = failing_realloc,
            .pfnFree = failing_free
        };
        struct log log = { 0 };
        struct vkmm_mm_engine *e = vkmm_mm_engine_create2(record, &log, 0, &cb);
        if (!e) {
            failed_creates++;
            assert_int_equal(fa.live, 0);
            continue;
        }
        buggy_program(e);
        if (vkmm_mm_engine_status(e) == VK_SUCCESS)
            clean++;
        else
            failed_calls++;
        vkmm_mm_engine_destroy(e);
        assert_int_equal(fa.live, 0);
    }
    assert_true(failed_creates > 0);
    assert_true(failed_calls > 0);
    assert_true(clean > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
        T(test_memmodel_fresh_memory_is_a_deterministic_nonzero_pattern),
        T(test_memmodel_barrier_makes_copy_visible_to_dispatch),
        T(test_memmodel_no_barrier_reads_old_bytes_and_names_the_barrier),
        T(test_memmodel_wrong_src_access_leaves_the_write_unavailable),
        T(test_memmodel_wrong_src_stage_leaves_the_write_unavailable),
        T(test_memmodel_wrong_dst_access_leaves_the_write_invisible),
        T(test_memmodel_wrong_dst_stage_leaves_the_write_invisible),
        T(test_memmodel_meta_bits_expand),
        T(test_memmodel_shader_read_excludes_uniform_read),
        T(test_memmodel_own_stage_write_is_not_read_back),
        T(test_memmodel_write_changes_only_its_bytes),
        T(test_memmodel_chained_barriers_split_av_and_vis),
        T(test_memmodel_buffer_barrier_flushes_only_its_range),
        T(test_memmodel_buffer_barrier_makes_only_its_range_visible),
        T(test_memmodel_read_path_keeps_seeing_its_last_visible_version),
        T(test_memmodel_undo_log_is_bounded),
        T(test_memmodel_host_visible_state_follows_what_is_pending),
        T(test_memmodel_submit_makes_available_writes_visible_everywhere),
        T(test_memmodel_write_after_write_with_barrier_keeps_the_newer),
        T(test_memmodel_write_after_write_without_barrier_loses_the_newer),
        T(test_memmodel_flushed_host_write_reaches_the_device_at_submit),
        T(test_memmodel_unflushed_host_write_is_stale_on_the_device),
        T(test_memmodel_flush_alone_stops_at_the_host_domain),
        T(test_memmodel_flush_moves_only_its_range),
        T(test_memmodel_host_rewrite_of_some_bytes_lands_exactly_them),
        T(test_memmodel_device_write_reaches_a_host_level_of_scattered_seqs),
        T(test_memmodel_coherent_host_write_reaches_the_device_at_submit),
        T(test_memmodel_described_host_write_and_read),
        T(test_memmodel_coherent_view_updates_at_host_wait),
        T(test_memmodel_noncoherent_view_needs_invalidate),
        T(test_memmodel_missing_host_read_dependency_leaves_view_stale),
        T(test_memmodel_unavailable_device_write_names_the_whole_barrier),
        T(test_memmodel_host_read_buffer_barrier_moves_only_its_range),
        T(test_memmodel_absorbed_host_write_is_flushed_at_submit),
        T(test_memmodel_device_to_host_keeps_newer_flushed_host_writes),
        T(test_memmodel_invalidate_loses_unflushed_host_writes),
        T(test_memmodel_coherent_invalidate_loses_nothing),
        T(test_memmodel_same_calls_give_the_same_reports),
        T(test_memmodel_seeds_never_break_a_correct_program),
        T(test_memmodel_every_seed_gives_the_stale_racy_result),
        T(test_memmodel_uninitialized_read_is_reported),
        T(test_memmodel_peek_marks_where_a_checked_read_could_report),
        T(test_memmodel_matches_the_reference_model),
        T(test_memmodel_allocation_failures_are_survived),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
