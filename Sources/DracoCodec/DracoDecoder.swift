import CDraco
import Meshes

/// `DracoDecoding` over Google Draco (Debian `libdraco-dev`), the reference decoder of
/// `KHR_draco_mesh_compression`. The C++ library sits behind `CDraco`, a C API that catches every
/// exception; attribute values come out as floats through Draco's own conversion, which
/// dequantises and maps normalised integer attributes.
public struct DracoDecoder: DracoDecoding {
    public init() {}

    public func decode(_ compressed: ArraySlice<UInt8>, attributes: [Int: Int], maximumVertices: Int) throws -> DracoDecodedMesh {
        var message = [CChar](repeating: 0, count: 256)
        var handle: OpaquePointer? = nil
        let status = compressed.withUnsafeBufferPointer { bytes in
            ld_decode(bytes.baseAddress, bytes.count, maximumVertices, &handle, &message, message.count)
        }
        guard status == Int32(LD_OK.rawValue), let mesh = handle else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            switch status {
            case Int32(LD_TOO_LARGE.rawValue): throw DracoDecodingError("more than \(maximumVertices) vertices")
            default: throw DracoDecodingError(reason.isEmpty ? "corrupt bitstream" : reason)
            }
        }
        defer { ld_free(mesh) }
        let vertexCount = Int(ld_point_count(mesh))
        var indices = [UInt32](repeating: 0, count: 3 * Int(ld_face_count(mesh)))
        let indexStatus = indices.withUnsafeMutableBufferPointer { ld_indices(mesh, $0.baseAddress, $0.count) }
        guard indexStatus == Int32(LD_OK.rawValue) else { throw DracoDecodingError("corrupt connectivity (an index past the \(vertexCount) vertices)") }
        var values: [Int: [Float]] = [:]
        for (id, components) in attributes.sorted(by: { $0.key < $1.key }) {
            guard id >= 0, id <= Int(UInt32.max), (1...4).contains(components) else { throw DracoDecodingError("invalid attribute id \(id)") }
            var out = [Float](repeating: 0, count: vertexCount * components)
            let s = out.withUnsafeMutableBufferPointer { ld_attribute(mesh, UInt32(id), Int32(components), $0.baseAddress, $0.count) }
            switch s {
            case Int32(LD_OK.rawValue): values[id] = out
            case Int32(LD_NO_ATTRIBUTE.rawValue): throw DracoDecodingError("no attribute with unique id \(id)")
            case Int32(LD_COMPONENTS.rawValue): throw DracoDecodingError("attribute \(id) does not have \(components) components")
            default: throw DracoDecodingError("attribute \(id) cannot be read")
            }
        }
        return DracoDecodedMesh(vertexCount: vertexCount, indices: indices, attributes: values)
    }
}
