/* ASTC LDR blocks decoded by ARM's astc-encoder library (libastcenc,
 * Debian's libastcenc-dev): the one compressed format set vkmm supports,
 * as the spec requires one of BC, ETC2 and ASTC LDR of every device. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The bw x bh texels of one 16-byte block as RGBA floats, row by row
 * (`rgba` holds bw * bh * 4 floats).  UNORM blocks decode at the spec's
 * default precision (16-bit, as the decode mode without
 * VK_EXT_astc_decode_mode); sRGB blocks give their 8-bit sRGB-encoded
 * values, which the caller converts to linear.  Reserved or malformed
 * blocks give the error colour (1, 0, 1, 1), as the spec says.  False only
 * when the library cannot be set up (no memory). */
bool vkmm_astc_decode_block(const uint8_t block[16], uint32_t block_width, uint32_t block_height, bool srgb,
                            float *rgba);

#ifdef __cplusplus
}
#endif
