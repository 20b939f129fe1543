/* What identifies this build of the driver: a digest of the GNU build ID of
 * the object vkmm's code is linked into.  Pipeline-cache data is keyed by it
 * (pipeline_cache.c): object code one build compiled is never executed by
 * another. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define VKMM_DIGEST_SIZE 32 /* SHA-256 */

/* SHA-256 of the build ID note (or, when the linker wrote none, of the
 * version string and the compilation time).  Computed once. */
const uint8_t *vkmm_build_identity(void);

/* SHA-256 over `count` (data, size) pieces, in order. */
void vkmm_sha256(const void *const *pieces, const size_t *sizes, size_t count, uint8_t out[VKMM_DIGEST_SIZE]);

/* HMAC-SHA-256 of the pieces under `key`; false when the crypto library
 * failed (no memory). */
_Bool vkmm_hmac_sha256(const uint8_t key[VKMM_DIGEST_SIZE], const void *const *pieces, const size_t *sizes,
                       size_t count, uint8_t out[VKMM_DIGEST_SIZE]);
