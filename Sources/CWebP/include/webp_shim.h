// libwebp's decoder (Debian libwebp-dev) for Swift, reduced to the two calls a texture needs.
//
// libwebp reports errors by return value (no longjmp); the shim exists so the size is read and
// checked before a pixel buffer is allocated, and so Swift sees one status convention.
#ifndef LORGNETTE_WEBP_SHIM_H
#define LORGNETTE_WEBP_SHIM_H

#include <stddef.h>
#include <stdint.h>

enum lw_status {
    LW_OK = 0,
    LW_CORRUPT = 1,     // not a WebP file, or its data is damaged
    LW_TOO_SMALL = 2,   // output buffer smaller than 4 * width * height
};

/// Reads the bitstream header only: the image's size.
int lw_read_size(const uint8_t *data, size_t length, int *width, int *height);

/// Decodes to straight-alpha RGBA (4 bytes a pixel, rows packed) into `rgba` of `capacity` bytes.
int lw_decode_rgba(const uint8_t *data, size_t length, uint8_t *rgba, size_t capacity, int width, int height);

#endif
