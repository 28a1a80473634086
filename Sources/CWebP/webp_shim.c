#include "webp_shim.h"

#include <webp/decode.h>

int lw_read_size(const uint8_t *data, size_t length, int *width, int *height) {
    if (data == NULL || length == 0) return LW_CORRUPT;
    return WebPGetInfo(data, length, width, height) ? LW_OK : LW_CORRUPT;
}

int lw_decode_rgba(const uint8_t *data, size_t length, uint8_t *rgba, size_t capacity, int width, int height) {
    if (width <= 0 || height <= 0) return LW_CORRUPT;
    const size_t stride = 4 * (size_t)width;
    if (capacity < stride * (size_t)height) return LW_TOO_SMALL;
    return WebPDecodeRGBAInto(data, length, rgba, capacity, (int)stride) != NULL ? LW_OK : LW_CORRUPT;
}
