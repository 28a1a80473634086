#include "png_shim.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const uint8_t *data;
    size_t length;
    size_t offset;
    char *message;
    size_t message_capacity;
} lp_reader;

static void lp_copy_message(char *message, size_t capacity, const char *text) {
    if (!message || capacity == 0) return;
    strncpy(message, text ? text : "unknown error", capacity - 1);
    message[capacity - 1] = 0;
}

// libpng calls this for a fatal error; it must not return. The message is kept for Swift.
static void lp_error(png_structp png, png_const_charp text) {
    lp_reader *r = (lp_reader *)png_get_error_ptr(png);
    if (r) lp_copy_message(r->message, r->message_capacity, text);
    png_longjmp(png, 1);
}

// Warnings (bad CRC in an ancillary chunk, unknown chunks, ...) are recovered from silently.
static void lp_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

static void lp_read(png_structp png, png_bytep into, png_size_t count) {
    lp_reader *r = (lp_reader *)png_get_io_ptr(png);
    if (count > r->length - r->offset) png_error(png, "file ends early (truncated)");
    memcpy(into, r->data + r->offset, count);
    r->offset += count;
}

static int lp_open(png_structp *png, png_infop *info, lp_reader *r) {
    if (r->length < 8 || png_sig_cmp(r->data, 0, 8) != 0) {
        lp_copy_message(r->message, r->message_capacity, "not a PNG file (bad signature)");
        return LP_ERROR;
    }
    *png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r, lp_error, lp_warning);
    if (!*png) { lp_copy_message(r->message, r->message_capacity, "out of memory"); return LP_ERROR; }
    *info = png_create_info_struct(*png);
    if (!*info) {
        png_destroy_read_struct(png, NULL, NULL);
        lp_copy_message(r->message, r->message_capacity, "out of memory");
        return LP_ERROR;
    }
    png_set_read_fn(*png, r, lp_read);
    // Ancillary-chunk CRC errors are warnings; critical ones stay errors.
    png_set_crc_action(*png, PNG_CRC_DEFAULT, PNG_CRC_WARN_DISCARD);
    return LP_OK;
}

int lp_read_size(const uint8_t *data, size_t length, int *width, int *height,
                 char *message, size_t message_capacity) {
    lp_reader r = { data, length, 0, message, message_capacity };
    png_structp png; png_infop info;
    if (lp_open(&png, &info, &r) != LP_OK) return LP_ERROR;
    if (setjmp(png_jmpbuf(png))) { png_destroy_read_struct(&png, &info, NULL); return LP_ERROR; }
    png_read_info(png, info);
    *width = (int)png_get_image_width(png, info);
    *height = (int)png_get_image_height(png, info);
    png_destroy_read_struct(&png, &info, NULL);
    return LP_OK;
}

int lp_decode_rgba(const uint8_t *data, size_t length, size_t max_pixels,
                   uint8_t *out, size_t capacity, int *width, int *height,
                   char *message, size_t message_capacity) {
    lp_reader r = { data, length, 0, message, message_capacity };
    png_structp png; png_infop info;
    if (lp_open(&png, &info, &r) != LP_OK) return LP_ERROR;
    png_bytep *rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        return LP_ERROR;
    }
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    *width = (int)w;
    *height = (int)h;
    if ((size_t)w * (size_t)h > max_pixels) { png_destroy_read_struct(&png, &info, NULL); return LP_TOO_LARGE; }
    if ((size_t)w * (size_t)h * 4 > capacity) { png_destroy_read_struct(&png, &info, NULL); return LP_TOO_SMALL; }
    int colour = png_get_color_type(png, info);
    int depth = png_get_bit_depth(png, info);
    if (depth == 16) png_set_scale_16(png);
    if (colour == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (colour == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (colour == PNG_COLOR_TYPE_GRAY || colour == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(colour & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4) png_error(png, "unexpected row size after conversion");
    rows = malloc(sizeof(png_bytep) * h);
    if (!rows) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < h; y++) rows[y] = out + (size_t)y * w * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    return LP_OK;
}

typedef struct {
    uint8_t *buffer;
    size_t length;
    size_t capacity;
} lp_writer;

static void lp_write(png_structp png, png_bytep from, png_size_t count) {
    lp_writer *w = (lp_writer *)png_get_io_ptr(png);
    if (count > w->capacity - w->length) {
        size_t capacity = w->capacity ? w->capacity : 65536;
        while (count > capacity - w->length) capacity *= 2;
        uint8_t *grown = realloc(w->buffer, capacity);
        if (!grown) png_error(png, "out of memory");
        w->buffer = grown;
        w->capacity = capacity;
    }
    memcpy(w->buffer + w->length, from, count);
    w->length += count;
}

static void lp_flush(png_structp png) { (void)png; }

int lp_encode(const uint8_t *pixels, int width, int height, int channels, int compression_level,
              uint8_t **out, size_t *out_length, char *message, size_t message_capacity) {
    lp_reader errors = { NULL, 0, 0, message, message_capacity };
    lp_writer w = { NULL, 0, 0 };
    *out = NULL;
    *out_length = 0;
    int colour = channels == 1 ? PNG_COLOR_TYPE_GRAY : channels == 3 ? PNG_COLOR_TYPE_RGB
               : channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : -1;
    if (colour < 0 || width <= 0 || height <= 0) {
        lp_copy_message(message, message_capacity, "cannot encode: empty image or unsupported channel count");
        return LP_ERROR;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &errors, lp_error, lp_warning);
    if (!png) { lp_copy_message(message, message_capacity, "out of memory"); return LP_ERROR; }
    png_infop info = png_create_info_struct(png);
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, info ? &info : NULL);
        free(w.buffer);
        return LP_ERROR;
    }
    png_set_write_fn(png, &w, lp_write, lp_flush);
    png_set_compression_level(png, compression_level);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, colour,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    size_t stride = (size_t)width * (size_t)channels;
    for (int y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(pixels + (size_t)y * stride));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out = w.buffer;
    *out_length = w.length;
    return LP_OK;
}

void lp_free(void *pointer) { free(pointer); }
