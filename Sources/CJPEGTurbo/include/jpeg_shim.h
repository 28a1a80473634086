// A longjmp-free face of libjpeg(-turbo) for Swift.
//
// libjpeg reports fatal errors by calling error_exit, which must not return; Swift cannot
// unwind through a longjmp, so every entry point here sets a jump target, and a failure
// comes back as a non-zero status with libjpeg's own message in lj_*_message().
#ifndef LORGNETTE_JPEG_SHIM_H
#define LORGNETTE_JPEG_SHIM_H

#include <stddef.h>
#include <stdint.h>

typedef struct lj_decoder lj_decoder;
typedef struct lj_encoder lj_encoder;

enum lj_status {
    LJ_OK = 0,
    LJ_ERROR = 1,        // libjpeg error_exit: corrupt or unsupported stream
    LJ_TRUNCATED = 2,    // data ended before the image did (libjpeg's JWRN_JPEG_EOF)
    LJ_EMPTY = 3,        // 0x0 image
    LJ_TOO_SMALL = 4,    // output buffer too small (caller re-sizes and retries)
};

enum lj_color { LJ_GRAY = 1, LJ_RGB = 3 };

lj_decoder *lj_decoder_create(void);
void lj_decoder_destroy(lj_decoder *d);
const char *lj_decoder_message(const lj_decoder *d);
/// Number of libjpeg warnings during the last decode (corrupt-data warnings that libjpeg recovers from).
int lj_decoder_warnings(const lj_decoder *d);

/// Reads the frame header only. Sets width, height and the number of components.
int lj_read_header(lj_decoder *d, const uint8_t *data, size_t length, int *width, int *height, int *components);

/// Output size for a decode at 1/scale_denom (1, 2, 4, 8), as libjpeg will produce it, and the
/// frame header's full size (what the decode costs, whatever the scale).
int lj_output_size(lj_decoder *d, const uint8_t *data, size_t length, int scale_denom, int *width, int *height,
                   int *image_width, int *image_height);

/// Decodes into `out` (row-major, tightly packed, `color` bytes per pixel). `capacity` is the size of out.
int lj_decode(lj_decoder *d, const uint8_t *data, size_t length, int color, int scale_denom,
              uint8_t *out, size_t capacity, int *width, int *height);

lj_encoder *lj_encoder_create(void);
void lj_encoder_destroy(lj_encoder *e);
const char *lj_encoder_message(const lj_encoder *e);
/// Encodes a tightly packed RGB (color 3) or gray (color 1) image. On success *out points to
/// memory owned by the encoder, valid until the next call.
int lj_encode(lj_encoder *e, const uint8_t *pixels, int width, int height, int color, int quality,
              const uint8_t **out, size_t *out_length);

#endif
