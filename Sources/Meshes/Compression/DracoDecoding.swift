/// A mesh decoded from a `KHR_draco_mesh_compression` bitstream (Google Draco), reduced to what a
/// glTF primitive reads: triangle indices and, per Draco attribute unique id the primitive names,
/// the values as floats (`vertexCount × components`, normalised integer attributes already mapped
/// to 0...1 or -1...1 as Draco's own conversion does).
public struct DracoDecodedMesh: Sendable {
    public var vertexCount: Int
    public var indices: [UInt32]
    public var attributes: [Int: [Float]]

    public init(vertexCount: Int, indices: [UInt32], attributes: [Int: [Float]]) {
        self.vertexCount = vertexCount
        self.indices = indices
        self.attributes = attributes
    }
}

/// Decompresses `KHR_draco_mesh_compression` primitives. Implemented by an adapter over Debian's
/// libdraco (`DracoCodec`), so this module stays free of C and C++ imports.
///
/// requires: `attributes` maps each Draco unique id to read onto its component count (1...4).
/// ensures: every requested attribute is present with that many components, at most
/// `maximumVertices` vertices, indices below `vertexCount`; otherwise a `DracoDecodingError`
/// (corrupt bitstream, a point cloud rather than a mesh, a missing attribute).
public protocol DracoDecoding: Sendable {
    func decode(_ compressed: ArraySlice<UInt8>, attributes: [Int: Int], maximumVertices: Int) throws -> DracoDecodedMesh
}

/// Why a Draco bitstream could not be decoded.
public struct DracoDecodingError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
