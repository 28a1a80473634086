#include "jpeg_shim.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int warnings;
    int eof_warning;
} lj_error;

static void lj_error_exit(j_common_ptr cinfo) {
    lj_error *err = (lj_error *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->message);
    longjmp(err->jump, 1);
}

static void lj_emit_message(j_common_ptr cinfo, int level) {
    lj_error *err = (lj_error *)cinfo->err;
    if (level < 0) { // a warning: keep the first message, count them all
        if (err->warnings == 0) (*cinfo->err->format_message)(cinfo, err->message);
        if (err->pub.msg_code == JWRN_JPEG_EOF) err->eof_warning = 1;
        err->warnings++;
    }
}

static void lj_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void lj_error_init(lj_error *err) {
    jpeg_std_error(&err->pub);
    err->pub.error_exit = lj_error_exit;
    err->pub.emit_message = lj_emit_message;
    err->pub.output_message = lj_output_message;
    err->message[0] = 0;
    err->warnings = 0;
    err->eof_warning = 0;
}

// ---------------------------------------------------------------------------------------------
// Per-image memory kept between frames.
//
// libjpeg builds its decoder/encoder modules for every image (jpeg_start_decompress/compress ->
// jinit_*) in the JPOOL_IMAGE pool and frees that pool at the end of the image (jpeg_abort, called
// by jpeg_finish_*), so a frame costs 5-8 malloc/free pairs. The memory manager is a table of
// function pointers that every module calls through, so we route JPOOL_IMAGE requests to an arena
// that free_pool(JPOOL_IMAGE) merely rewinds: after the first frame of a size, no allocation.
// Permanent-pool requests and virtual (whole-image) arrays, used only by progressive and
// multi-scan images, keep libjpeg's own allocator, whose free_pool still runs first.

typedef struct lj_chunk {
    struct lj_chunk *next;
    size_t size;
    size_t used;
    // The payload follows, 64-byte aligned (see lj_arena_alloc).
} lj_chunk;

typedef struct {
    struct jpeg_memory_mgr original;  // libjpeg's methods, called for what we do not serve
    lj_chunk *chunks;                 // every chunk owned, first to last
    lj_chunk *current;                // where the next allocation is tried
} lj_arena;

// 64 bytes: libjpeg-turbo's SIMD kernels need 32-byte aligned rows (ALIGN_SIZE) and may touch
// samples up to the row width rounded up to 2 * ALIGN_SIZE.
#define LJ_ALIGN 64
#define LJ_CHUNK_HEADER (((sizeof(lj_chunk) + LJ_ALIGN - 1) / LJ_ALIGN) * LJ_ALIGN)
#define LJ_MIN_CHUNK ((size_t)256 * 1024)

static size_t lj_round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

static void *lj_arena_alloc(j_common_ptr cinfo, size_t size) {
    lj_arena *arena = (lj_arena *)cinfo->client_data;
    size = lj_round_up(size ? size : 1, LJ_ALIGN);
    for (lj_chunk *c = arena->current; c; c = c->next) {
        if (c->size - c->used >= size) {
            void *p = (char *)c + LJ_CHUNK_HEADER + c->used;
            c->used += size;
            arena->current = c;
            return p;
        }
    }
    size_t payload = size > LJ_MIN_CHUNK ? size : LJ_MIN_CHUNK;
    void *block = NULL;
    if (posix_memalign(&block, LJ_ALIGN, LJ_CHUNK_HEADER + payload) != 0 || !block)
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 20);
    lj_chunk *chunk = block;
    chunk->next = NULL;
    chunk->size = payload;
    chunk->used = size;
    lj_chunk **tail = &arena->chunks;
    while (*tail) tail = &(*tail)->next;
    *tail = chunk;
    arena->current = chunk;
    return (char *)chunk + LJ_CHUNK_HEADER;
}

static void *lj_alloc_small(j_common_ptr cinfo, int pool_id, size_t size) {
    lj_arena *arena = (lj_arena *)cinfo->client_data;
    if (pool_id != JPOOL_IMAGE) return arena->original.alloc_small(cinfo, pool_id, size);
    return lj_arena_alloc(cinfo, size);
}

static void *lj_alloc_large(j_common_ptr cinfo, int pool_id, size_t size) {
    lj_arena *arena = (lj_arena *)cinfo->client_data;
    if (pool_id != JPOOL_IMAGE) return arena->original.alloc_large(cinfo, pool_id, size);
    return lj_arena_alloc(cinfo, size);
}

static JSAMPARRAY lj_alloc_sarray(j_common_ptr cinfo, int pool_id, JDIMENSION samplesperrow, JDIMENSION numrows) {
    lj_arena *arena = (lj_arena *)cinfo->client_data;
    if (pool_id != JPOOL_IMAGE) return arena->original.alloc_sarray(cinfo, pool_id, samplesperrow, numrows);
    // Rows padded to a multiple of 2 * ALIGN_SIZE samples, as libjpeg-turbo's own alloc_sarray does.
    size_t stride = lj_round_up((size_t)samplesperrow * sizeof(JSAMPLE), LJ_ALIGN);
    JSAMPARRAY rows = lj_arena_alloc(cinfo, (size_t)numrows * sizeof(JSAMPROW));
    JSAMPROW workspace = lj_arena_alloc(cinfo, (size_t)numrows * stride);
    for (JDIMENSION i = 0; i < numrows; i++) rows[i] = workspace + (size_t)i * stride / sizeof(JSAMPLE);
    return rows;
}

static JBLOCKARRAY lj_alloc_barray(j_common_ptr cinfo, int pool_id, JDIMENSION blocksperrow, JDIMENSION numrows) {
    lj_arena *arena = (lj_arena *)cinfo->client_data;
    if (pool_id != JPOOL_IMAGE) return arena->original.alloc_barray(cinfo, pool_id, blocksperrow, numrows);
    size_t stride = (size_t)blocksperrow * sizeof(JBLOCK);
    JBLOCKARRAY rows = lj_arena_alloc(cinfo, (size_t)numrows * sizeof(JBLOCKROW));
    JBLOCKROW workspace = lj_arena_alloc(cinfo, (size_t)numrows * stride);
    for (JDIMENSION i = 0; i < numrows; i++) rows[i] = workspace + (size_t)i * blocksperrow;
    return rows;
}

static void lj_free_pool(j_common_ptr cinfo, int pool_id) {
    lj_arena *arena = (lj_arena *)cinfo->client_data;
    arena->original.free_pool(cinfo, pool_id);
    if (pool_id == JPOOL_IMAGE) {
        for (lj_chunk *c = arena->chunks; c; c = c->next) c->used = 0;
        arena->current = arena->chunks;
    }
}

// Installs the arena on a freshly created codec object (before any image).
static void lj_arena_install(j_common_ptr cinfo, lj_arena *arena) {
    arena->original = *cinfo->mem;
    arena->chunks = NULL;
    arena->current = NULL;
    cinfo->client_data = arena;
    cinfo->mem->alloc_small = lj_alloc_small;
    cinfo->mem->alloc_large = lj_alloc_large;
    cinfo->mem->alloc_sarray = lj_alloc_sarray;
    cinfo->mem->alloc_barray = lj_alloc_barray;
    cinfo->mem->free_pool = lj_free_pool;
}

// After jpeg_destroy_*: libjpeg no longer points into the arena.
static void lj_arena_release(lj_arena *arena) {
    for (lj_chunk *c = arena->chunks; c;) {
        lj_chunk *next = c->next;
        free(c);
        c = next;
    }
    arena->chunks = arena->current = NULL;
}

// ---------------------------------------------------------------------------------------------
// Decoder

struct lj_decoder {
    struct jpeg_decompress_struct cinfo;
    lj_error err;
    lj_arena arena;
    int created;
};

lj_decoder *lj_decoder_create(void) {
    lj_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    lj_error_init(&d->err);
    d->cinfo.err = &d->err.pub;
    if (setjmp(d->err.jump)) { free(d); return NULL; }
    jpeg_create_decompress(&d->cinfo);
    lj_arena_install((j_common_ptr)&d->cinfo, &d->arena);
    d->created = 1;
    return d;
}

void lj_decoder_destroy(lj_decoder *d) {
    if (!d) return;
    if (d->created) jpeg_destroy_decompress(&d->cinfo);
    lj_arena_release(&d->arena);
    free(d);
}

const char *lj_decoder_message(const lj_decoder *d) { return d->err.message; }
int lj_decoder_warnings(const lj_decoder *d) { return d->err.warnings; }

static void lj_decoder_reset(lj_decoder *d) {
    d->err.message[0] = 0;
    d->err.warnings = 0;
    d->err.eof_warning = 0;
}

// Every entry point that can longjmp abort()s the decompressor on failure, which keeps the
// allocated codec state for the next frame (jpeg_abort, not destroy): no per-frame setup.
int lj_read_header(lj_decoder *d, const uint8_t *data, size_t length, int *width, int *height, int *components) {
    lj_decoder_reset(d);
    if (setjmp(d->err.jump)) { jpeg_abort_decompress(&d->cinfo); return LJ_ERROR; }
    jpeg_mem_src(&d->cinfo, data, (unsigned long)length);
    jpeg_read_header(&d->cinfo, TRUE);
    *width = (int)d->cinfo.image_width;
    *height = (int)d->cinfo.image_height;
    *components = d->cinfo.num_components;
    jpeg_abort_decompress(&d->cinfo);
    if (*width == 0 || *height == 0) return LJ_EMPTY;
    return LJ_OK;
}

static int lj_start(lj_decoder *d, const uint8_t *data, size_t length, int color, int scale_denom) {
    jpeg_mem_src(&d->cinfo, data, (unsigned long)length);
    jpeg_read_header(&d->cinfo, TRUE);
    if (d->cinfo.image_width == 0 || d->cinfo.image_height == 0) return LJ_EMPTY;
    // libjpeg converts CMYK and YCCK (Adobe) only to CMYK; lj_decode turns those rows into RGB or gray.
    int cmyk = d->cinfo.jpeg_color_space == JCS_CMYK || d->cinfo.jpeg_color_space == JCS_YCCK;
    d->cinfo.out_color_space = cmyk ? JCS_CMYK : color == LJ_GRAY ? JCS_GRAYSCALE : JCS_RGB;
    d->cinfo.scale_num = 1;
    d->cinfo.scale_denom = (unsigned int)scale_denom;
    // ISLOW is exact and, with libjpeg-turbo's SIMD, within a few per cent of IFAST.
    d->cinfo.dct_method = JDCT_ISLOW;
    d->cinfo.do_fancy_upsampling = TRUE;
    jpeg_calc_output_dimensions(&d->cinfo);
    return LJ_OK;
}

int lj_output_size(lj_decoder *d, const uint8_t *data, size_t length, int scale_denom, int *width, int *height,
                   int *image_width, int *image_height) {
    lj_decoder_reset(d);
    if (setjmp(d->err.jump)) { jpeg_abort_decompress(&d->cinfo); return LJ_ERROR; }
    int status = lj_start(d, data, length, LJ_GRAY, scale_denom);
    *width = (int)d->cinfo.output_width;
    *height = (int)d->cinfo.output_height;
    *image_width = (int)d->cinfo.image_width;
    *image_height = (int)d->cinfo.image_height;
    jpeg_abort_decompress(&d->cinfo);
    return status;
}

// CMYK rows to RGB or gray, one scanline at a time through a row in the image pool. Photoshop and
// most Adobe-marked files store CMYK inverted (0 = full ink), others as printed (255 = full ink);
// either way the colour is r = (1 - c)(1 - k) in ink fractions, the naive conversion viewers use
// without an ICC profile.
static void lj_read_cmyk(lj_decoder *d, uint8_t *out, int color) {
    JDIMENSION width = d->cinfo.output_width;
    JSAMPARRAY row = (*d->cinfo.mem->alloc_sarray)((j_common_ptr)&d->cinfo, JPOOL_IMAGE, width * 4, 1);
    int inverted = d->cinfo.saw_Adobe_marker;
    while (d->cinfo.output_scanline < d->cinfo.output_height) {
        uint8_t *dst = out + (size_t)width * (size_t)color * d->cinfo.output_scanline;
        jpeg_read_scanlines(&d->cinfo, row, 1);
        const uint8_t *src = row[0];
        for (JDIMENSION x = 0; x < width; x++, src += 4) {
            int c = inverted ? src[0] : 255 - src[0], m = inverted ? src[1] : 255 - src[1];
            int y = inverted ? src[2] : 255 - src[2], k = inverted ? src[3] : 255 - src[3];
            int r = (c * k + 127) / 255, g = (m * k + 127) / 255, b = (y * k + 127) / 255;
            if (color == LJ_GRAY) {
                *dst++ = (uint8_t)((77 * r + 150 * g + 29 * b + 128) >> 8);
            } else {
                *dst++ = (uint8_t)r; *dst++ = (uint8_t)g; *dst++ = (uint8_t)b;
            }
        }
    }
}

int lj_decode(lj_decoder *d, const uint8_t *data, size_t length, int color, int scale_denom,
              uint8_t *out, size_t capacity, int *width, int *height) {
    lj_decoder_reset(d);
    if (setjmp(d->err.jump)) { jpeg_abort_decompress(&d->cinfo); return LJ_ERROR; }
    int status = lj_start(d, data, length, color, scale_denom);
    if (status != LJ_OK) { jpeg_abort_decompress(&d->cinfo); return status; }
    *width = (int)d->cinfo.output_width;
    *height = (int)d->cinfo.output_height;
    size_t row = (size_t)d->cinfo.output_width * (size_t)color;
    if (row * d->cinfo.output_height > capacity) { jpeg_abort_decompress(&d->cinfo); return LJ_TOO_SMALL; }
    jpeg_start_decompress(&d->cinfo);
    if (d->cinfo.out_color_space == JCS_CMYK) {
        lj_read_cmyk(d, out, color);
        jpeg_finish_decompress(&d->cinfo);
        return d->err.eof_warning ? LJ_TRUNCATED : LJ_OK;
    }
    while (d->cinfo.output_scanline < d->cinfo.output_height) {
        JSAMPROW rows[4];
        int n = 0;
        for (; n < 4 && d->cinfo.output_scanline + (JDIMENSION)n < d->cinfo.output_height; n++)
            rows[n] = out + row * (d->cinfo.output_scanline + (JDIMENSION)n);
        jpeg_read_scanlines(&d->cinfo, rows, (JDIMENSION)n);
    }
    // A truncated stream is padded by libjpeg with a fake EOI; finishing is still safe.
    jpeg_finish_decompress(&d->cinfo);
    return d->err.eof_warning ? LJ_TRUNCATED : LJ_OK;
}

// ---------------------------------------------------------------------------------------------
// Encoder: a destination manager that grows one buffer and keeps it between frames.

typedef struct {
    struct jpeg_destination_mgr pub;
    uint8_t *buffer;
    size_t capacity;
    size_t length;
} lj_dest;

struct lj_encoder {
    struct jpeg_compress_struct cinfo;
    lj_error err;
    lj_dest dest;
    lj_arena arena;
    int created;
};

static void lj_dest_init(j_compress_ptr cinfo) {
    lj_dest *dest = (lj_dest *)cinfo->dest;
    // libjpeg stores a byte before it checks for room, so the buffer must never start empty.
    if (dest->capacity == 0) {
        dest->buffer = malloc(65536);
        if (!dest->buffer) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
        dest->capacity = 65536;
    }
    dest->pub.next_output_byte = dest->buffer;
    dest->pub.free_in_buffer = dest->capacity;
}

static boolean lj_dest_empty(j_compress_ptr cinfo) {
    lj_dest *dest = (lj_dest *)cinfo->dest;
    size_t used = dest->capacity; // called only when the buffer is full
    size_t grown = dest->capacity * 2;
    uint8_t *buffer = realloc(dest->buffer, grown);
    if (!buffer) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    dest->buffer = buffer;
    dest->capacity = grown;
    dest->pub.next_output_byte = buffer + used;
    dest->pub.free_in_buffer = grown - used;
    return TRUE;
}

static void lj_dest_term(j_compress_ptr cinfo) {
    lj_dest *dest = (lj_dest *)cinfo->dest;
    dest->length = dest->capacity - dest->pub.free_in_buffer;
}

lj_encoder *lj_encoder_create(void) {
    lj_encoder *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    lj_error_init(&e->err);
    e->cinfo.err = &e->err.pub;
    if (setjmp(e->err.jump)) { free(e); return NULL; }
    jpeg_create_compress(&e->cinfo);
    lj_arena_install((j_common_ptr)&e->cinfo, &e->arena);
    e->created = 1;
    e->dest.pub.init_destination = lj_dest_init;
    e->dest.pub.empty_output_buffer = lj_dest_empty;
    e->dest.pub.term_destination = lj_dest_term;
    e->cinfo.dest = &e->dest.pub;
    return e;
}

void lj_encoder_destroy(lj_encoder *e) {
    if (!e) return;
    if (e->created) jpeg_destroy_compress(&e->cinfo);
    lj_arena_release(&e->arena);
    free(e->dest.buffer);
    free(e);
}

const char *lj_encoder_message(const lj_encoder *e) { return e->err.message; }

int lj_encode(lj_encoder *e, const uint8_t *pixels, int width, int height, int color, int quality,
              const uint8_t **out, size_t *out_length) {
    e->err.message[0] = 0;
    if (width <= 0 || height <= 0) return LJ_EMPTY;
    if (setjmp(e->err.jump)) { jpeg_abort_compress(&e->cinfo); return LJ_ERROR; }
    e->cinfo.image_width = (JDIMENSION)width;
    e->cinfo.image_height = (JDIMENSION)height;
    e->cinfo.input_components = color;
    e->cinfo.in_color_space = color == LJ_GRAY ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&e->cinfo);
    jpeg_set_quality(&e->cinfo, quality, TRUE);
    // Standard (non-optimised) Huffman tables: every frame carries the same DHT, so MJPEG/AVI
    // consumers and passthrough never meet a frame whose tables differ.
    e->cinfo.optimize_coding = FALSE;
    e->cinfo.dct_method = JDCT_ISLOW;
    jpeg_start_compress(&e->cinfo, TRUE);
    size_t row = (size_t)width * (size_t)color;
    while (e->cinfo.next_scanline < e->cinfo.image_height) {
        JSAMPROW rows[8];
        int n = 0;
        for (; n < 8 && e->cinfo.next_scanline + (JDIMENSION)n < e->cinfo.image_height; n++)
            rows[n] = (JSAMPROW)(pixels + row * (e->cinfo.next_scanline + (JDIMENSION)n));
        jpeg_write_scanlines(&e->cinfo, rows, (JDIMENSION)n);
    }
    jpeg_finish_compress(&e->cinfo);
    *out = e->dest.buffer;
    *out_length = e->dest.length;
    return LJ_OK;
}
