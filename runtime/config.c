/* The environment knobs of include/vkmm/vkmm.h. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "vkmm/vkmm.h"

/* Read once: the knobs are per process, and vkmm_mode() sits on hot paths. */
static pthread_once_t read_once = PTHREAD_ONCE_INIT;
static enum vkmm_mode mode;
static uint64_t seed;

static void read_knobs(void)
{
    const char *mode_text = getenv("VKMM_MODE");
    mode = mode_text && strcmp(mode_text, "fast") == 0 ? VKMM_MODE_FAST : VKMM_MODE_STRICT;
    const char *seed_text = getenv("VKMM_SEED");
    seed = seed_text ? strtoull(seed_text, NULL, 0) : 0;
}

enum vkmm_mode vkmm_mode(void)
{
    pthread_once(&read_once, read_knobs);
    return mode;
}

uint64_t vkmm_seed(void)
{
    pthread_once(&read_once, read_knobs);
    return seed;
}
