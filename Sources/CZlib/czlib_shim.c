#include "czlib_shim.h"
#include <zlib.h>
#include <string.h>

int czlib_inflate(const unsigned char *src, size_t srcLength, unsigned char *dst, size_t capacity, size_t *written) {
    z_stream s;
    memset(&s, 0, sizeof s);
    *written = 0;
    if (inflateInit(&s) != Z_OK) return 1;
    int result = 0;
    size_t inPos = 0, outPos = 0;
    // zlib's avail fields are 32-bit: feed large buffers in slices.
    for (;;) {
        size_t inChunk = srcLength - inPos > 0x40000000u ? 0x40000000u : srcLength - inPos;
        size_t outChunk = capacity - outPos > 0x40000000u ? 0x40000000u : capacity - outPos;
        s.next_in = (unsigned char *)(src + inPos);
        s.avail_in = (uInt)inChunk;
        s.next_out = dst + outPos;
        s.avail_out = (uInt)outChunk;
        int r = inflate(&s, Z_NO_FLUSH);
        inPos += inChunk - s.avail_in;
        outPos += outChunk - s.avail_out;
        if (r == Z_STREAM_END) { result = 0; break; }
        if (r == Z_NEED_DICT || r == Z_DATA_ERROR || r == Z_MEM_ERROR || r == Z_STREAM_ERROR) { result = 1; break; }
        if (outPos == capacity && s.avail_out == 0) {
            // Output full: either the stream is also finished with nothing left, or it does not fit.
            unsigned char probe;
            s.next_out = &probe;
            s.avail_out = 1;
            int r2 = inflate(&s, Z_NO_FLUSH);
            result = (r2 == Z_STREAM_END && s.avail_out == 1) ? 0 : 2;
            break;
        }
        if (inPos == srcLength) { result = 3; break; }
        if (r == Z_BUF_ERROR && s.avail_in == inChunk) { result = 1; break; }
    }
    *written = outPos;
    inflateEnd(&s);
    return result;
}
