// A C face of Google Draco's mesh decoder (Debian libdraco-dev, a C++ library) for Swift.
//
// Draco reports decode failures as a `draco::Status`, but it is C++: allocation failures throw
// (std::bad_alloc) and an exception must not unwind into Swift. Every entry point catches
// everything and returns a status with a message instead.
#ifndef LORGNETTE_DRACO_SHIM_H
#define LORGNETTE_DRACO_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ld_status {
    LD_OK = 0,
    LD_CORRUPT = 1,        // Draco refused the bitstream (message says why), or it is a point cloud
    LD_TOO_LARGE = 2,      // more points than the caller allows
    LD_NO_ATTRIBUTE = 3,   // no attribute with that unique id
    LD_COMPONENTS = 4,     // the attribute has another number of components
    LD_NO_MEMORY = 5,      // an allocation failed (std::bad_alloc)
};

typedef struct ld_mesh ld_mesh;

/// Decodes a Draco mesh bitstream. On success `*mesh` owns the result (free with `ld_free`); on
/// failure `*mesh` is NULL and `message` (of `message_size` bytes) holds Draco's reason.
int ld_decode(const uint8_t *data, size_t size, size_t maximum_points, ld_mesh **mesh, char *message, size_t message_size);

uint32_t ld_point_count(const ld_mesh *mesh);
uint32_t ld_face_count(const ld_mesh *mesh);

/// Writes 3 * face_count indices (point ids, each below point_count) to `indices`.
int ld_indices(const ld_mesh *mesh, uint32_t *indices, size_t capacity);

/// Writes point_count * components floats of the attribute with `unique_id` (normalised integer
/// attributes mapped as Draco's ConvertValue does) to `values`.
int ld_attribute(const ld_mesh *mesh, uint32_t unique_id, int components, float *values, size_t capacity);

void ld_free(ld_mesh *mesh);

#ifdef __cplusplus
}
#endif

#endif
