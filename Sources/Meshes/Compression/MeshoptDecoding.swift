/// One bufferView compressed with `EXT_meshopt_compression` (glTF vendor extension by Arseny
/// Kapoulkine): how its `count` elements of `byteStride` bytes were encoded. The loader checks the
/// combination before a decoder sees it (see `MeshoptLayout.init`).
public struct MeshoptLayout: Sendable, Equatable {
    /// ATTRIBUTES: vertex codec; TRIANGLES: index codec (triangle lists); INDICES: index sequences.
    public enum Mode: String, Sendable { case attributes = "ATTRIBUTES", triangles = "TRIANGLES", indices = "INDICES" }
    /// Filters applied after the vertex codec: octahedral unit vectors (normals, tangents),
    /// quaternions (rotations) and a shared-exponent float encoding.
    public enum Filter: String, Sendable { case none = "NONE", octahedral = "OCTAHEDRAL", quaternion = "QUATERNION", exponential = "EXPONENTIAL" }

    public var mode: Mode
    public var filter: Filter
    public var count: Int
    public var byteStride: Int

    /// The byte size of the decoded bufferView.
    public var decodedSize: Int { count * byteStride }

    /// Nil with a reason when the extension's rules forbid the combination: ATTRIBUTES strides are
    /// multiples of 4 up to 256, index strides are 2 or 4, TRIANGLES counts are multiples of 3,
    /// OCTAHEDRAL needs a stride of 4 or 8 and QUATERNION of 8, filters only on ATTRIBUTES.
    public static func violation(mode: Mode, filter: Filter, count: Int, byteStride: Int) -> String? {
        guard count >= 0 else { return "negative count \(count)" }
        switch mode {
        case .attributes:
            guard byteStride > 0, byteStride % 4 == 0, byteStride <= 256 else { return "ATTRIBUTES byteStride \(byteStride) is not a multiple of 4 in 4...256" }
            if filter == .octahedral && byteStride != 4 && byteStride != 8 { return "OCTAHEDRAL filter needs byteStride 4 or 8, not \(byteStride)" }
            if filter == .quaternion && byteStride != 8 { return "QUATERNION filter needs byteStride 8, not \(byteStride)" }
        case .triangles, .indices:
            guard byteStride == 2 || byteStride == 4 else { return "\(mode.rawValue) byteStride \(byteStride) is neither 2 nor 4" }
            if filter != .none { return "filter \(filter.rawValue) is only allowed in ATTRIBUTES mode" }
            if mode == .triangles && count % 3 != 0 { return "TRIANGLES count \(count) is not a multiple of 3" }
        }
        return nil
    }

    public init(mode: Mode, filter: Filter, count: Int, byteStride: Int) {
        self.mode = mode
        self.filter = filter
        self.count = count
        self.byteStride = byteStride
    }
}

/// Decompresses `EXT_meshopt_compression` bufferViews. Implemented by an adapter over the
/// meshoptimizer library (`MeshoptCodec`), so this module stays free of C imports.
///
/// requires: `layout` has passed `MeshoptLayout.violation` (nil) and `layout.decodedSize` is within
/// the loader's limits. ensures: exactly `layout.decodedSize` bytes, the filter applied, or a
/// `MeshoptDecodingError` for bytes the codec refuses (it never reads past `compressed`).
public protocol MeshoptDecoding: Sendable {
    func decode(_ compressed: ArraySlice<UInt8>, layout: MeshoptLayout) throws -> [UInt8]
}

/// Why a meshopt-compressed bufferView could not be decoded.
public struct MeshoptDecodingError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
