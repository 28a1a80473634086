#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <stddef.h>

/// Inflates one zlib stream (RFC 1950) from `src` into `dst`.
/// Returns 0 on success (stream ended, `*written` bytes produced), 1 for corrupt data,
/// 2 when the output does not fit in `capacity`, 3 when the input ends before the stream does.
int czlib_inflate(const unsigned char *src, size_t srcLength, unsigned char *dst, size_t capacity, size_t *written);

#endif
