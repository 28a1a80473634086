// A longjmp-free face of libpng for Swift.
//
// libpng reports fatal errors by longjmp to the jump buffer set with png_jmpbuf; Swift cannot
// unwind through a longjmp, so every entry point here sets that target itself, and a failure comes
// back as a non-zero status with libpng's own message copied into the caller's `message`.
#ifndef LORGNETTE_PNG_SHIM_H
#define LORGNETTE_PNG_SHIM_H

#include <stddef.h>
#include <stdint.h>

enum lp_status {
    LP_OK = 0,
    LP_ERROR = 1,       // libpng error: corrupt or unsupported file (message says which)
    LP_TOO_SMALL = 2,   // output buffer smaller than 4 * width * height
    LP_TOO_LARGE = 3,   // the header declares more pixels than the caller allows
};

/// Reads the header only: the image's size.
int lp_read_size(const uint8_t *data, size_t length, int *width, int *height,
                 char *message, size_t message_capacity);

/// Decodes any PNG (every colour type, bit depths 1-16, palette, tRNS, Adam7 interlacing) to
/// straight-alpha RGBA with 8 bits per sample (16-bit samples are scaled, not truncated).
/// Refuses headers of more than `max_pixels` pixels before allocating anything.
int lp_decode_rgba(const uint8_t *data, size_t length, size_t max_pixels,
                   uint8_t *out, size_t capacity, int *width, int *height,
                   char *message, size_t message_capacity);

/// Encodes tightly packed 8-bit pixels (`channels`: 1 gray, 3 RGB, 4 RGBA) as a non-interlaced PNG.
/// On success *out is a malloc'd buffer the caller frees with lp_free.
int lp_encode(const uint8_t *pixels, int width, int height, int channels, int compression_level,
              uint8_t **out, size_t *out_length, char *message, size_t message_capacity);

void lp_free(void *pointer);

#endif
