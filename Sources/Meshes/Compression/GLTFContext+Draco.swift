/// `KHR_draco_mesh_compression`: a primitive whose indices and attributes are one Draco bitstream.
extension GLTFContext {
    /// What a Draco primitive's decoded stream replaces: attribute values by accessor index, the
    /// triangle list, and the vertex count the accessors must agree with.
    struct DracoPrimitive {
        var values: [Int: [Float]]
        var indices: [UInt32]
    }

    /// The semantics read from a Draco stream, with their component counts.
    static let dracoSemantics = ["POSITION": 3, "NORMAL": 3, "TEXCOORD_0": 2]

    /// Decodes the primitive's Draco stream, or nil when it has none or no decoder was given and the
    /// file does not require the extension (the spec's fallback: its accessors carry plain data, and
    /// a primitive whose POSITION has none is refused by name).
    mutating func dracoPrimitive(_ p: GLTFDocument.Primitive, name: String) throws -> DracoPrimitive? {
        guard let ext = p.extensions?.KHR_draco_mesh_compression else { return nil }
        func refuse(_ reason: String) -> MeshError { fail("\(name): KHR_draco_mesh_compression: \(reason)") }
        guard let decoder = geometry.draco else {
            if let a = p.attributes["POSITION"], let acc = doc.accessors?[safe: a], acc.bufferView == nil {
                throw refuse("no uncompressed fallback; the model needs the Draco decoder")
            }
            return nil
        }
        let mode = p.mode ?? 4
        guard mode == 4 || mode == 5 else { throw refuse("mode \(mode) is neither TRIANGLES nor TRIANGLE_STRIP") }
        var wanted: [Int: Int] = [:]      // Draco unique id → components
        var accessorOf: [Int: Int] = [:]  // Draco unique id → glTF accessor
        for (semantic, components) in GLTFContext.dracoSemantics {
            guard let id = ext.attributes[semantic] else { continue }
            guard let accessor = p.attributes[semantic] else { throw refuse("\(semantic) is compressed but not among the primitive's attributes") }
            wanted[id] = components
            accessorOf[id] = accessor
        }
        guard accessorOf.values.contains(where: { $0 == p.attributes["POSITION"] }) else { throw refuse("POSITION is not in the Draco stream") }
        let view = try bufferView(ext.bufferView)
        let decoded: DracoDecodedMesh
        do {
            decoded = try decoder.decode(view.bytes[view.offset..<view.offset + view.length], attributes: wanted,
                                         maximumVertices: MeshLimits.maximumElements)
        } catch {
            throw refuse("bufferView \(ext.bufferView) cannot be decoded (\(error))")
        }
        guard decoded.indices.count <= MeshLimits.maximumElements else { throw refuse("more than \(MeshLimits.maximumElements) indices") }
        var values: [Int: [Float]] = [:]
        for (id, accessor) in accessorOf {
            if let declared = doc.accessors?[safe: accessor]?.count, declared != decoded.vertexCount {
                throw refuse("accessor \(accessor) declares \(declared) vertices, the stream holds \(decoded.vertexCount)")
            }
            values[accessor] = decoded.attributes[id]
        }
        if mode == 4, let i = p.indices, let declared = doc.accessors?[safe: i]?.count, declared != decoded.indices.count {
            throw refuse("index accessor \(i) declares \(declared) indices, the stream holds \(decoded.indices.count)")
        }
        return DracoPrimitive(values: values, indices: decoded.indices)
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { i >= 0 && i < count ? self[i] : nil }
}
