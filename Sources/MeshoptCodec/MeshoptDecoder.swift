import CMeshopt
import Meshes

/// `MeshoptDecoding` over meshoptimizer (Debian `libmeshoptimizer-dev`): the vertex codec with its
/// octahedral, quaternion and exponential filters, and the index buffer and index sequence codecs
/// that `EXT_meshopt_compression` names. The C shim re-checks the layout before the library's
/// asserted preconditions can be reached.
public struct MeshoptDecoder: MeshoptDecoding {
    public init() {}

    public func decode(_ compressed: ArraySlice<UInt8>, layout: MeshoptLayout) throws -> [UInt8] {
        let mode: Int32
        switch layout.mode {
        case .attributes: mode = Int32(LM_ATTRIBUTES.rawValue)
        case .triangles: mode = Int32(LM_TRIANGLES.rawValue)
        case .indices: mode = Int32(LM_INDICES.rawValue)
        }
        let filter: Int32
        switch layout.filter {
        case .none: filter = Int32(LM_FILTER_NONE.rawValue)
        case .octahedral: filter = Int32(LM_FILTER_OCTAHEDRAL.rawValue)
        case .quaternion: filter = Int32(LM_FILTER_QUATERNION.rawValue)
        case .exponential: filter = Int32(LM_FILTER_EXPONENTIAL.rawValue)
        }
        guard layout.count >= 0, layout.byteStride > 0 else { throw MeshoptDecodingError("invalid layout") }
        if layout.decodedSize == 0 { return [] }
        var out = [UInt8](repeating: 0, count: layout.decodedSize)
        let status = compressed.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                lm_decode(mode, filter, layout.count, layout.byteStride, src.baseAddress, src.count, dst.baseAddress, dst.count)
            }
        }
        switch status {
        case Int32(LM_OK.rawValue): return out
        case Int32(LM_BAD_LAYOUT.rawValue): throw MeshoptDecodingError("layout not allowed by the codec")
        default: throw MeshoptDecodingError("corrupt or truncated data")
        }
    }
}
