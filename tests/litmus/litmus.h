/* The litmus suite's tables, filled by litmus_gen.py (litmus_table.h in
 * the build tree): one entry per translated test with every outcome its
 * loads (and FINAL locations) can show and what the memory model says of
 * it. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

enum litmus_verdict {
    LITMUS_ALLOWED,      /* some execution the model permits gives it */
    LITMUS_FORBIDDEN,    /* no execution the model permits gives it */
    LITMUS_UNCLASSIFIED, /* the source says nothing of it */
};

struct litmus_outcome {
    const uint32_t *values; /* one per slot: loads in thread order, then FINAL locations */
    enum litmus_verdict verdict;
    bool sc;                /* a sequentially consistent interleaving gives it */
    const char *why;
};

struct litmus_test {
    const char *name;   /* the shader is litmus_<name>.spv */
    const char *source; /* "khronos" or "classic" */
    const char *credit;
    uint32_t instances;  /* independent copies of the test in one dispatch */
    uint32_t workgroups; /* dispatched along x */
    uint32_t local_size;
    uint32_t variables;  /* words of memory per instance (at variable * instances + instance) */
    uint32_t loads;      /* result words per instance */
    uint32_t finals;     /* locations read by the host after the dispatch */
    bool racy;           /* the source says its stated outcome has a data race */
    bool race_free;      /* the source says its stated outcome has none */
    const char *const *slots;
    const uint32_t *final_offsets; /* word offset of each FINAL location's instance 0 */
    const struct litmus_outcome *outcomes;
    uint32_t outcome_count;
};

/* Binding 0 holds the results; bindings 1.. the memory, one binding per
 * qualifier (plain, nonprivate, subgroup/workgroup/queue-family/device
 * coherent) and the copies of shared FINALs, all bound to one buffer. */
#define LITMUS_BINDINGS 8
