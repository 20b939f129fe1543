/* vkmm's own public interface: version and the environment knobs.
 *
 * Knobs (read once, when the first instance is created):
 *   VKMM_MODE     strict (default) | fast
 *   VKMM_SEED     unsigned integer; changes every adversarial choice of strict mode
 *   VKMM_REPORT   path or "stderr": where hazard reports go (strict mode)
 *   VKMM_THREADS  worker threads for fast mode (default: every core)
 *   VKMM_LOG      "stderr": also print driver messages on stderr
 */
#pragma once

#include <stdint.h>

#define VKMM_VERSION_MAJOR 0
#define VKMM_VERSION_MINOR 1
#define VKMM_VERSION_PATCH 0
#define VKMM_VERSION_STRING "0.1.0"

enum vkmm_mode {
    VKMM_MODE_STRICT = 0,
    VKMM_MODE_FAST = 1,
};

/* The mode chosen by VKMM_MODE (strict when unset or unrecognised). */
enum vkmm_mode vkmm_mode(void);
/* VKMM_SEED, or 0. */
uint64_t vkmm_seed(void);
