#include "meshopt_shim.h"

#include <meshoptimizer.h>

int lm_decode(int mode, int filter, size_t count, size_t stride,
              const uint8_t *source, size_t source_size, uint8_t *destination, size_t destination_size) {
    if (stride == 0 || count > SIZE_MAX / stride) return LM_BAD_LAYOUT;
    if (destination_size < count * stride) return LM_TOO_SMALL;
    int r;
    switch (mode) {
    case LM_ATTRIBUTES:
        // The vertex codec works on 4-byte lanes (meshoptimizer.h: vertex_size % 4 == 0, <= 256).
        if (stride % 4 != 0 || stride > 256) return LM_BAD_LAYOUT;
        switch (filter) {
        case LM_FILTER_NONE: break;
        case LM_FILTER_OCTAHEDRAL: if (stride != 4 && stride != 8) return LM_BAD_LAYOUT; break;
        case LM_FILTER_QUATERNION: if (stride != 8) return LM_BAD_LAYOUT; break;
        case LM_FILTER_EXPONENTIAL: break; // any multiple of 4
        default: return LM_BAD_LAYOUT;
        }
        r = meshopt_decodeVertexBuffer(destination, count, stride, source, source_size);
        if (r != 0) return LM_CORRUPT;
        switch (filter) {
        case LM_FILTER_OCTAHEDRAL: meshopt_decodeFilterOct(destination, count, stride); break;
        case LM_FILTER_QUATERNION: meshopt_decodeFilterQuat(destination, count, stride); break;
        case LM_FILTER_EXPONENTIAL: meshopt_decodeFilterExp(destination, count, stride); break;
        default: break;
        }
        return LM_OK;
    case LM_TRIANGLES:
        if ((stride != 2 && stride != 4) || count % 3 != 0 || filter != LM_FILTER_NONE) return LM_BAD_LAYOUT;
        r = meshopt_decodeIndexBuffer(destination, count, stride, source, source_size);
        return r == 0 ? LM_OK : LM_CORRUPT;
    case LM_INDICES:
        if ((stride != 2 && stride != 4) || filter != LM_FILTER_NONE) return LM_BAD_LAYOUT;
        r = meshopt_decodeIndexSequence(destination, count, stride, source, source_size);
        return r == 0 ? LM_OK : LM_CORRUPT;
    default:
        return LM_BAD_LAYOUT;
    }
}
