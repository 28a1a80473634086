// A checked face of meshoptimizer's decoders (Debian libmeshoptimizer-dev) for Swift.
//
// meshoptimizer's decoders return an error code for corrupt input, but they `assert` their size
// preconditions (vertex size a multiple of 4 up to 256, index size 2 or 4, triangle counts a
// multiple of 3, the filters' strides), which in a release build of the library means undefined
// behaviour, not an error. Every entry point here checks those first and returns a status.
#ifndef LORGNETTE_MESHOPT_SHIM_H
#define LORGNETTE_MESHOPT_SHIM_H

#include <stddef.h>
#include <stdint.h>
// The library's own header too: its encoders make the round-trip tests' inputs.
#include <meshoptimizer.h>

enum lm_mode { LM_ATTRIBUTES = 0, LM_TRIANGLES = 1, LM_INDICES = 2 };
enum lm_filter { LM_FILTER_NONE = 0, LM_FILTER_OCTAHEDRAL = 1, LM_FILTER_QUATERNION = 2, LM_FILTER_EXPONENTIAL = 3 };

enum lm_status {
    LM_OK = 0,
    LM_CORRUPT = 1,        // the decoder refused the bytes (truncated, forged or not meshopt data)
    LM_BAD_LAYOUT = 2,     // count / stride / mode / filter combination the format does not allow
    LM_TOO_SMALL = 3,      // destination smaller than count * stride
};

/// Decodes `source` (one EXT_meshopt_compression bufferView) into `destination`, which holds
/// `destination_size >= count * stride` bytes, and applies `filter` in place (ATTRIBUTES only).
int lm_decode(int mode, int filter, size_t count, size_t stride,
              const uint8_t *source, size_t source_size, uint8_t *destination, size_t destination_size);

#endif
