/* The environment knobs of include/vkmm/vkmm.h. */
#include <stdlib.h>
#include <string.h>

#include "vkmm/vkmm.h"

enum vkmm_mode vkmm_mode(void)
{
    const char *mode = getenv("VKMM_MODE");
    if (mode && strcmp(mode, "fast") == 0)
        return VKMM_MODE_FAST;
    return VKMM_MODE_STRICT;
}

uint64_t vkmm_seed(void)
{
    const char *seed = getenv("VKMM_SEED");
    return seed ? strtoull(seed, NULL, 0) : 0;
}
