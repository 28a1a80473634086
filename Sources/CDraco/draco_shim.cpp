#include "draco_shim.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <new>

#include <draco/compression/decode.h>
#include <draco/mesh/mesh.h>

struct ld_mesh {
    std::unique_ptr<draco::Mesh> mesh;
};

static void copy_message(char *message, size_t size, const char *text) {
    if (message == nullptr || size == 0) return;
    std::snprintf(message, size, "%s", text);
}

int ld_decode(const uint8_t *data, size_t size, size_t maximum_points, ld_mesh **out, char *message, size_t message_size) {
    *out = nullptr;
    try {
        draco::DecoderBuffer buffer;
        buffer.Init(reinterpret_cast<const char *>(data), size);
        auto type = draco::Decoder::GetEncodedGeometryType(&buffer);
        if (!type.ok()) { copy_message(message, message_size, type.status().error_msg()); return LD_CORRUPT; }
        if (type.value() != draco::TRIANGULAR_MESH) { copy_message(message, message_size, "not a triangular mesh (point cloud)"); return LD_CORRUPT; }
        draco::Decoder decoder;
        auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
        if (!decoded.ok()) { copy_message(message, message_size, decoded.status().error_msg()); return LD_CORRUPT; }
        std::unique_ptr<draco::Mesh> mesh = std::move(decoded).value();
        if (mesh->num_points() > maximum_points) { copy_message(message, message_size, "too many points"); return LD_TOO_LARGE; }
        *out = new ld_mesh{std::move(mesh)};
        return LD_OK;
    } catch (const std::bad_alloc &) {
        copy_message(message, message_size, "out of memory");
        return LD_NO_MEMORY;
    } catch (...) {
        copy_message(message, message_size, "decoder exception");
        return LD_CORRUPT;
    }
}

uint32_t ld_point_count(const ld_mesh *m) { return m->mesh->num_points(); }
uint32_t ld_face_count(const ld_mesh *m) { return m->mesh->num_faces(); }

int ld_indices(const ld_mesh *m, uint32_t *indices, size_t capacity) {
    const draco::Mesh &mesh = *m->mesh;
    if (capacity < 3 * static_cast<size_t>(mesh.num_faces())) return LD_TOO_LARGE;
    const uint32_t points = mesh.num_points();
    for (draco::FaceIndex f(0); f < mesh.num_faces(); ++f) {
        const draco::Mesh::Face &face = mesh.face(f);
        for (int c = 0; c < 3; ++c) {
            const uint32_t v = face[c].value();
            if (v >= points) return LD_CORRUPT; // a forged connectivity stream
            indices[3 * f.value() + c] = v;
        }
    }
    return LD_OK;
}

int ld_attribute(const ld_mesh *m, uint32_t unique_id, int components, float *values, size_t capacity) {
    try {
        const draco::Mesh &mesh = *m->mesh;
        const draco::PointAttribute *attribute = mesh.GetAttributeByUniqueId(unique_id);
        if (attribute == nullptr) return LD_NO_ATTRIBUTE;
        if (components < 1 || components > 4 || attribute->num_components() != components) return LD_COMPONENTS;
        const size_t points = mesh.num_points();
        if (capacity < points * static_cast<size_t>(components)) return LD_TOO_LARGE;
        for (draco::PointIndex p(0); p < mesh.num_points(); ++p) {
            const draco::AttributeValueIndex index = attribute->mapped_index(p);
            if (index.value() >= attribute->size()) return LD_CORRUPT;
            if (!attribute->ConvertValue<float>(index, static_cast<int8_t>(components), values + p.value() * components)) return LD_CORRUPT;
        }
        return LD_OK;
    } catch (...) {
        return LD_NO_MEMORY;
    }
}

void ld_free(ld_mesh *m) { delete m; }
