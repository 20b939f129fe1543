/* Runs compiled shaders directly, without the Vulkan API: for unit tests of
 * the compiler.  One workgroup at a time; its subgroups are called in turn
 * until all are done (a barrier returns to this loop). */
#pragma once

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "descriptor_set.h"

static inline uint32_t *load_spirv(const char *name, size_t *word_count)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s.spv", VKMM_TEST_SHADER_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *words = malloc((size_t)size);
    if (words && fread(words, 1, (size_t)size, f) != (size_t)size) {
        free(words);
        words = NULL;
    }
    fclose(f);
    *word_count = (size_t)size / 4;
    return words;
}

/* Bindings 0..count-1 of set 0, one descriptor each. */
static inline int compile_named(const char *name, unsigned width, uint32_t binding_count,
                                struct vkmm_compiled_shader *out, char *error, size_t error_size)
{
    size_t word_count = 0;
    uint32_t *words = load_spirv(name, &word_count);
    if (!words) {
        snprintf(error, error_size, "cannot read %s.spv", name);
        return -1;
    }
    struct vkmm_compile_binding bindings[16];
    for (uint32_t i = 0; i < binding_count; i++)
        bindings[i] = (struct vkmm_compile_binding){ i, i, 1 };
    struct vkmm_compile_set set = { binding_count, bindings };
    struct vkmm_compile_options options = {
        .entry_point = "main",
        .subgroup_width = width,
        .set_count = 1,
        .sets = &set,
        .optimize = 1,
    };
    int result = vkmm_compile(words, word_count, &options, out, error, error_size);
    free(words);
    return result;
}

static inline void run_workgroups(const struct vkmm_compiled_shader *s, const struct vkmm_descriptor *set0,
                                  const void *push, uint32_t gx, uint32_t gy, uint32_t gz)
{
    uint8_t push_constants[256] = { 0 };
    if (push)
        memcpy(push_constants, push, 256);
    uint32_t subgroups = s->subgroup_count;
    uint8_t *states = aligned_alloc(64, (size_t)subgroups * s->state_size + 64);
    uint8_t *shared = calloc(1, s->shared_memory_size + 16);
    int *done = calloc(subgroups, sizeof(int));
    for (uint32_t z = 0; z < gz; z++)
        for (uint32_t y = 0; y < gy; y++)
            for (uint32_t x = 0; x < gx; x++) {
                memset(states, 0, (size_t)subgroups * s->state_size);
                memset(done, 0, subgroups * sizeof(int));
                memset(shared, 0, s->shared_memory_size);
                uint32_t remaining = subgroups;
                while (remaining) {
                    for (uint32_t g = 0; g < subgroups; g++) {
                        if (done[g])
                            continue;
                        struct vkmm_shader_invocation inv = {
                            .sets = { set0 },
                            .push_constants = push_constants,
                            .shared_memory = shared,
                            .workgroup_id = { x, y, z },
                            .num_workgroups = { gx, gy, gz },
                            .subgroup_id = g,
                        };
                        if (s->function(states + (size_t)g * s->state_size, &inv) == VKMM_SHADER_DONE) {
                            done[g] = 1;
                            remaining--;
                        }
                    }
                }
            }
    free(done);
    free(shared);
    free(states);
}
