/* Unit tests of runtime/memmodel/host.c and host_level.c: a host-visible
 * memory keeps view_seen only while it is ahead of view_base, and the host
 * domain's bytes only in pages where they differ from device memory.  Both
 * are pure savings: an engine that keeps the two levels whole
 * (vkmm_mm_set_whole_levels, the engine as it was) must give the same
 * answers.  Long random runs of host writes through the mapped pointer,
 * flushes and invalidates of random ranges, submissions, host waits,
 * device writes, dependencies with and without HOST_READ, device reads and
 * host read checks go to both engines, on coherent and non-coherent
 * memory; after every step the views, the reads and the reports agree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "memmodel/memmodel_internal.h"

enum { SIZE = 3 * 4096 + 100 };

/* Every report so far, as a count and a hash of their IDs, ranges and
 * missing operations in order. */
struct reports {
    uint64_t count, hash;
};

static void hash_bytes(uint64_t *hash, const void *bytes, size_t size)
{
    for (size_t i = 0; i < size; i++)
        *hash = (*hash ^ ((const uint8_t *)bytes)[i]) * 1099511628211ull;
}

static void record(void *user, const struct vkmm_mm_hazard *h)
{
    struct reports *log = user;
    log->count++;
    hash_bytes(&log->hash, h->id, strlen(h->id));
    hash_bytes(&log->hash, &h->offset, sizeof(h->offset));
    hash_bytes(&log->hash, &h->size, sizeof(h->size));
    hash_bytes(&log->hash, h->missing, strlen(h->missing));
}

struct side {
    struct vkmm_mm_engine *e;
    struct vkmm_mm_memory *m;
    struct reports log;
};

static uint64_t next(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state >> 33;
}

static const struct vkmm_mm_agent dispatch = { .queue = 0, .submission = 1, .command = 0, .kind = "vkCmdDispatch" };

static void dependency(struct side *s, VkPipelineStageFlags2 src, VkAccessFlags2 src_access,
                       VkPipelineStageFlags2 dst, VkAccessFlags2 dst_access)
{
    vkmm_mm_dependency(s->e, &(struct vkmm_mm_dependency){ .src_stages = src,
                                                          .src_access = src_access,
                                                          .dst_stages = dst,
                                                          .dst_access = dst_access });
}

/* One random step, the same on both sides. */
static void step(struct side sides[2], uint64_t *rng)
{
    uint64_t op = next(rng) % 12;
    uint64_t offset = next(rng) % SIZE, size = 1 + next(rng) % (SIZE - offset);
    uint64_t whole = next(rng) % 8;
    if (whole < 2)
        size = VK_WHOLE_SIZE;
    if (whole == 0)
        offset = 0; /* the whole memory */
    uint64_t span = size == VK_WHOLE_SIZE ? SIZE - offset : size;
    uint8_t data[SIZE], got[2][SIZE];
    uint8_t seed = (uint8_t)next(rng);
    for (uint64_t i = 0; i < SIZE; i++)
        data[i] = (uint8_t)(seed + i * 7 + (i % 5 == 0 ? 0 : i / 3));
    for (int k = 0; k < 2; k++) {
        struct side *s = &sides[k];
        uint8_t *view = vkmm_mm_host_view(s->m);
        switch (op) {
        case 0: /* the host writes through the mapped pointer (some bytes keep their value) */
        case 1:
            for (uint64_t i = 0; i < span; i++)
                if ((i + seed) % 9 != 0)
                    view[offset + i] = data[i];
            break;
        case 2:
            vkmm_mm_flush(s->e, s->m, offset, size);
            break;
        case 3:
            vkmm_mm_invalidate(s->e, s->m, offset, size);
            break;
        case 4:
            vkmm_mm_submit(s->e);
            break;
        case 5:
            vkmm_mm_host_wait(s->e);
            break;
        case 6:
            vkmm_mm_write(s->e, s->m, offset, span, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                          VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, &dispatch, data);
            break;
        case 7:
            dependency(s, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
            break;
        case 8:
            dependency(s, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
            break;
        case 9: /* the fence signal */
            dependency(s, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_NONE, 0);
            break;
        case 10:
            vkmm_mm_read(s->e, s->m, offset, span, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                         VK_ACCESS_2_SHADER_STORAGE_READ_BIT, &dispatch, got[k]);
            break;
        default:
            got[k][0] = vkmm_mm_check_host_read(s->e, s->m, offset, size);
            span = 1;
            break;
        }
    }
    if (op >= 10)
        assert_memory_equal(got[0], got[1], span);
}

static void assert_same(const struct side sides[2])
{
    assert_memory_equal(vkmm_mm_host_view(sides[0].m), vkmm_mm_host_view(sides[1].m), SIZE);
    uint8_t coherent[2][SIZE];
    for (int k = 0; k < 2; k++)
        vkmm_mm_coherent_read(sides[k].m, 0, SIZE, coherent[k]);
    assert_memory_equal(coherent[0], coherent[1], SIZE);
    assert_int_equal(sides[0].log.count, sides[1].log.count);
    assert_int_equal(sides[0].log.hash, sides[1].log.hash);
}

static void run(bool coherent, uint64_t seed)
{
    static struct side sides[2];
    for (int k = 0; k < 2; k++) {
        sides[k].log = (struct reports){ .hash = 14695981039346656037ull };
        sides[k].e = vkmm_mm_engine_create(record, &sides[k].log, 5);
        assert_non_null(sides[k].e);
        vkmm_mm_set_whole_levels(sides[k].e, k == 1);
        sides[k].m = vkmm_mm_memory_create(sides[k].e, 1, SIZE, true, coherent);
        assert_non_null(sides[k].m);
    }
    uint64_t rng = seed, shared_steps = 0, quiet_steps = 0;
    for (int i = 0; i < 1500; i++) {
        step(sides, &rng);
        assert_same(sides);
        /* The saving happens: the sharing side often holds no host page
         * of its own and no view_seen, the whole side always holds both. */
        shared_steps += sides[0].m->host_own_pages == 0;
        quiet_steps += sides[0].m->view_seen == NULL;
        assert_non_null(sides[1].m->view_seen);
    }
    assert_true(shared_steps > 100);
    assert_true(quiet_steps > 100);
    assert_true(sides[0].log.count > 0);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(vkmm_mm_engine_status(sides[k].e), VK_SUCCESS);
        vkmm_mm_memory_destroy(sides[k].m);
        vkmm_mm_engine_destroy(sides[k].e);
    }
}

static void test_shared_levels_answer_as_whole_ones_on_coherent_memory(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 4; seed++)
        run(true, seed);
}

static void test_shared_levels_answer_as_whole_ones_on_noncoherent_memory(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 4; seed++)
        run(false, seed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_levels_answer_as_whole_ones_on_coherent_memory),
        cmocka_unit_test(test_shared_levels_answer_as_whole_ones_on_noncoherent_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
