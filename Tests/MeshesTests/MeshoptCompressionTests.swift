import CMeshopt
import Foundation
import Meshes
import MeshoptCodec
import Testing

/// Issue 23 item 3, `EXT_meshopt_compression` through meshoptimizer (`MeshoptCodec`): the codec
/// round trip with each filter, gltfpack's compressed copies of a shared model against its
/// uncompressed copy, the fallback buffer, and refusals (corrupt bytes, forbidden layouts, the
/// extension required without a decoder).
struct MeshoptCompressionTests {
    // MARK: The codec, round trip through meshoptimizer's own encoders

    /// Each triangle rotated to start at its smallest index: the meshopt index codec may rotate a
    /// triangle's corners (same triangle, same winding).
    static func canonicalTriangles(_ i: [UInt32]) -> [UInt32] {
        stride(from: 0, to: i.count - i.count % 3, by: 3).flatMap { t -> [UInt32] in
            let (a, b, c) = (i[t], i[t + 1], i[t + 2])
            if a <= b && a <= c { return [a, b, c] }
            return b <= c ? [b, c, a] : [c, a, b]
        }
    }

    /// A primitive's triangles as sorted corner-position triples (each rotated to start at its
    /// smallest corner), independent of vertex order.
    static func trianglesByPosition(_ p: MeshPrimitive) -> [[Float]] {
        func less(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Bool { (a.x, a.y, a.z) < (b.x, b.y, b.z) }
        return stride(from: 0, to: p.indices.count - 2, by: 3).map { t -> [Float] in
            var c = [p.positions[Int(p.indices[t])], p.positions[Int(p.indices[t + 1])], p.positions[Int(p.indices[t + 2])]]
            let first = c.indices.min { less(c[$0], c[$1]) }!
            c = Array(c[first...] + c[..<first])
            return c.flatMap { [$0.x, $0.y, $0.z] }
        }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    static func encodeVertices(_ raw: [UInt8], count: Int, stride: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: meshopt_encodeVertexBufferBound(count, stride))
        let n = raw.withUnsafeBytes { meshopt_encodeVertexBuffer(&out, out.count, $0.baseAddress, count, stride) }
        return Array(out.prefix(n))
    }

    @Test func octahedralNormalsRoundTripWithinQuantisation() throws {
        let normals: [SIMD3<Float>] = (0..<100).map { i in
            let a = Float(i) * 0.37, b = Float(i) * 0.11 - 1
            return simdNormalize(SIMD3<Float>(cos(a) * cos(b), sin(b), sin(a) * cos(b)))
        }
        var flat: [Float] = normals.flatMap { [$0.x, $0.y, $0.z, 0] }
        var encoded = [UInt8](repeating: 0, count: 4 * normals.count)
        flat.withUnsafeMutableBufferPointer { meshopt_encodeFilterOct(&encoded, normals.count, 4, 8, $0.baseAddress) }
        let decoded = try MeshoptDecoder().decode(Self.encodeVertices(encoded, count: normals.count, stride: 4)[...],
                                                   layout: MeshoptLayout(mode: .attributes, filter: .octahedral, count: normals.count, byteStride: 4))
        for (i, n) in normals.enumerated() {
            let d = SIMD3<Float>((0..<3).map { Float(Int8(bitPattern: decoded[4 * i + $0])) / 127 })
            #expect(simdDot(simdNormalize(d), n) > 0.995, "normal \(i): \(d) vs \(n)")
        }
    }

    @Test func quaternionAndExponentialFiltersRoundTrip() throws {
        let quats: [SIMD4<Float>] = (0..<64).map { i in
            let q = SIMD4<Float>(sin(Float(i)), cos(Float(i) * 0.7), 0.3, Float(i % 5) - 2)
            return q / (q * q).sum().squareRoot()
        }
        var qf: [Float] = quats.flatMap { [$0.x, $0.y, $0.z, $0.w] }
        var qe = [UInt8](repeating: 0, count: 8 * quats.count)
        qf.withUnsafeMutableBufferPointer { meshopt_encodeFilterQuat(&qe, quats.count, 8, 12, $0.baseAddress) }
        let qd = try MeshoptDecoder().decode(Self.encodeVertices(qe, count: quats.count, stride: 8)[...],
                                              layout: MeshoptLayout(mode: .attributes, filter: .quaternion, count: quats.count, byteStride: 8))
        for (i, q) in quats.enumerated() {
            let d = SIMD4<Float>((0..<4).map { c -> Float in
                Float(Int16(littleEndian: qd.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 8 * i + 2 * c, as: Int16.self) })) / 32767 })
            #expect(abs((d * q).sum()) > 0.999, "quaternion \(i): \(d) vs \(q)") // q and -q are one rotation
        }
        let values: [Float] = (0..<90).map { Float($0) * 0.731 - 20 }
        var vf = values
        var ve = [UInt8](repeating: 0, count: 4 * values.count)
        vf.withUnsafeMutableBufferPointer { meshopt_encodeFilterExp(&ve, values.count / 3, 12, 20, $0.baseAddress) }
        let vd = try MeshoptDecoder().decode(Self.encodeVertices(ve, count: values.count / 3, stride: 12)[...],
                                              layout: MeshoptLayout(mode: .attributes, filter: .exponential, count: values.count / 3, byteStride: 12))
        for (i, v) in values.enumerated() {
            let d = vd.withUnsafeBytes { Float(bitPattern: $0.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)) }
            #expect(abs(d - v) < 1e-4, "value \(i): \(d) vs \(v)")
        }
    }

    @Test func indexCodecsRoundTripAndCorruptBytesAreRefused() throws {
        let indices: [UInt32] = [0, 1, 2, 2, 1, 3, 3, 1, 4, 4, 5, 3]
        var buffer = [UInt8](repeating: 0, count: meshopt_encodeIndexBufferBound(indices.count, 6))
        let n = indices.withUnsafeBufferPointer { meshopt_encodeIndexBuffer(&buffer, buffer.count, $0.baseAddress, indices.count) }
        let layout = MeshoptLayout(mode: .triangles, filter: .none, count: indices.count, byteStride: 4)
        let decoded = try MeshoptDecoder().decode(buffer[..<n], layout: layout)
        // The index codec keeps each triangle and its winding, not its first vertex.
        #expect(Self.canonicalTriangles(decoded.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }) == Self.canonicalTriangles(indices))
        var corrupt = Array(buffer[..<n])
        corrupt[0] = 0x00 // not the index codec's header
        #expect(throws: MeshoptDecodingError.self) { try MeshoptDecoder().decode(corrupt[...], layout: layout) }
        #expect(throws: MeshoptDecodingError.self) { try MeshoptDecoder().decode(buffer[..<(n / 2)], layout: layout) }
    }

    // MARK: Layouts and refusals in the loader (synthetic files)

    /// A quad whose positions bufferView is declared meshopt-compressed with `ext`, over a buffer
    /// holding `compressed`.
    static func compressedQuad(ext: String, compressed: [UInt8], required: Bool = true) -> String {
        let indices: [UInt8] = [0, 1, 2, 0, 2, 3]
        let payload = compressed + indices
        let list = required ? #""extensionsUsed": ["EXT_meshopt_compression"], "extensionsRequired": ["EXT_meshopt_compression"],"# : #""extensionsUsed": ["EXT_meshopt_compression"],"#
        return """
        {"asset": {"version": "2.0"}, \(list)
         "buffers": [{"uri": "data:application/octet-stream;base64,\(Data(payload).base64EncodedString())", "byteLength": \(payload.count)},
                     {"byteLength": 48, "extensions": {"EXT_meshopt_compression": {"fallback": true}}}],
         "bufferViews": [{"buffer": 1, "byteLength": 48, "byteStride": 12, "extensions": {"EXT_meshopt_compression": \(ext)}},
                         {"buffer": 0, "byteOffset": \(compressed.count), "byteLength": 6}],
         "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"},
                       {"bufferView": 1, "componentType": 5121, "count": 6, "type": "SCALAR"}],
         "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
         "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}]}
        """
    }

    static let quadPositions: [Float] = [0, 0, 0, 0.14, 0, 0, 0.14, 0.05, 0, 0, 0.05, 0]

    static func load(_ json: String, meshopt: Bool = true) throws -> Mesh {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(json.utf8).write(to: URL(fileURLWithPath: dir + "/model.gltf"))
        return try GLTFLoader(geometry: GeometryDecoders(meshopt: meshopt ? MeshoptDecoder() : nil)).load(path: dir + "/model.gltf")
    }

    static func reason(_ json: String, meshopt: Bool = true) -> String {
        do { _ = try load(json, meshopt: meshopt); return "" } catch let e as MeshError { return e.description } catch { return "\(error)" }
    }

    @Test func compressedPositionsLoadAndLayoutsTheExtensionForbidsAreRefused() throws {
        let raw = Self.quadPositions.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }
        let compressed = Self.encodeVertices(raw, count: 4, stride: 12)
        let ext = #"{"buffer": 0, "byteLength": \#(compressed.count), "byteStride": 12, "count": 4, "mode": "ATTRIBUTES"}"#
        let mesh = try Self.load(Self.compressedQuad(ext: ext, compressed: compressed))
        #expect(mesh.primitives[0].positions.flatMap { [$0.x, $0.y, $0.z] } == Self.quadPositions)

        func refusal(_ e: String, _ bytes: [UInt8] = compressed) -> String { Self.reason(Self.compressedQuad(ext: e, compressed: bytes)) }
        var corrupt = compressed
        corrupt[0] = 0x11 // the vertex codec's header byte is 0xA0
        for (why, r) in [("corrupt", refusal(ext, corrupt)),
                         ("truncated", refusal(ext.replacingOccurrences(of: "\"byteLength\": \(compressed.count)", with: "\"byteLength\": 9"))),
                         ("stride", refusal(ext.replacingOccurrences(of: "\"byteStride\": 12", with: "\"byteStride\": 6"))),
                         ("mode", refusal(ext.replacingOccurrences(of: "ATTRIBUTES", with: "VERTICES"))),
                         ("filter", refusal(ext.replacingOccurrences(of: "\"mode\"", with: "\"filter\": \"QUATERNION\", \"mode\""))),
                         ("range", refusal(ext.replacingOccurrences(of: "\"buffer\": 0", with: "\"buffer\": 0, \"byteOffset\": 4000"))),
                         ("count", refusal(ext.replacingOccurrences(of: "\"count\": 4", with: "\"count\": 2000000000")))] {
            #expect(r.contains("EXT_meshopt_compression: bufferView 0") && !r.contains("\n"), "\(why): \(r)")
        }
        // Required without a decoder: refused by name; only used: the fallback buffer has no data.
        let noDecoder = Self.reason(Self.compressedQuad(ext: ext, compressed: compressed), meshopt: false)
        #expect(noDecoder.contains("required extension EXT_meshopt_compression is not supported"), "\(noDecoder)")
        let noFallback = Self.reason(Self.compressedQuad(ext: ext, compressed: compressed, required: false), meshopt: false)
        #expect(noFallback.contains("EXT_meshopt_compression fallback without data"), "\(noFallback)")
    }

    // MARK: gltfpack's copies of a shared model

    static let gltfpack = ["/usr/bin/gltfpack", "/usr/local/bin/gltfpack"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs gltfpack on the Khronos sunglasses with `options`; the output path.
    static func pack(_ options: [String], into dir: String, name: String) throws -> String {
        let out = dir + "/" + name
        let p = Process()
        p.executableURL = URL(fileURLWithPath: gltfpack!)
        p.arguments = ["-i", SharedModels.directory + "/khronos_sunglasses/SunglassesKhronos.glb", "-o", out] + options
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "gltfpack \(options)")
        return out
    }

    @Test(.enabled(if: gltfpack != nil && SharedModels.available, "needs Debian's gltfpack and ../shared/data/glasses"))
    func gltfpackCopiesDecodeToTheUncompressedCopy() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let loader = SharedModels.loader()
        // Same quantisation, no compression: what the compressed copies must decode to, bit for bit.
        let plain = try loader.load(path: try Self.pack([], into: dir, name: "plain.glb"))
        let original = try loader.load(path: SharedModels.directory + "/khronos_sunglasses/SunglassesKhronos.glb")
        let compressed = try loader.load(path: try Self.pack(["-c"], into: dir, name: "c.glb"))
        let filtered = try loader.load(path: try Self.pack(["-cc"], into: dir, name: "cc.glb"))
        let triangles = plain.primitives.map { Self.canonicalTriangles($0.indices) }
        #expect(compressed.primitives.map(\.positions) == plain.primitives.map(\.positions), "-c positions differ")
        #expect(compressed.primitives.map { Self.canonicalTriangles($0.indices) } == triangles, "-c triangles differ")
        #expect(compressed.primitives.map(\.uvs) == plain.primitives.map(\.uvs), "-c texture coordinates differ")
        #expect(compressed.primitives.map(\.normals) == plain.primitives.map(\.normals), "-c normals differ")
        // -cc orders vertices for its stronger compression and stores normals with the OCTAHEDRAL
        // filter: the same triangles (by corner positions) and the same normals within 8-bit quantisation.
        #expect(filtered.primitives.map { Self.trianglesByPosition($0) } == plain.primitives.map { Self.trianglesByPosition($0) },
                "-cc triangles differ")
        for (f, p) in zip(filtered.primitives, plain.primitives) {
            var normalsAt: [SIMD3<Float>: [SIMD3<Float>]] = [:]
            for (x, n) in zip(p.positions, p.normals) { normalsAt[x, default: []].append(n) }
            let worst = zip(f.positions, f.normals).map { x, n in normalsAt[x, default: []].map { simdDot($0, n) }.max() ?? -1 }.min() ?? 1
            #expect(worst > 0.98, "\(f.name): normals differ by up to \(acos(min(worst, 1)) * 180 / .pi)°")
        }
        // And the original within 14-bit quantisation of the model's extent (0.16 m / 2^14 ≈ 0.01 mm).
        let a = try #require(original.bounds), b = try #require(compressed.bounds)
        #expect(simdLength(a.min - b.min) < 1e-4 && simdLength(a.max - b.max) < 1e-4, "\(a) vs \(b)")
        #expect(original.triangleCount == compressed.triangleCount)
        #expect(!compressed.warnings.contains { $0.contains("meshopt") })
    }

    /// Seeded byte damage anywhere in the compressed streams: every copy loads or is refused, none crashes.
    @Test(.enabled(if: gltfpack != nil && SharedModels.available, "needs Debian's gltfpack and ../shared/data/glasses"))
    func damagedCopiesLoadOrAreRefusedNeverCrash() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Self.pack(["-cc"], into: dir, name: "cc.glb"))))
        let bin = 20 + (Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16) + 8
        var state: UInt64 = 0x2545F4914F6CDD1D
        func next() -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) }
        var refused = 0
        for round in 0..<120 {
            var broken = bytes
            for _ in 0..<(1 + round % 8) { broken[bin + next() % (broken.count - bin)] ^= UInt8(1 + next() % 255) }
            let file = dir + "/m\(round).glb"
            try Data(broken).write(to: URL(fileURLWithPath: file))
            do { _ = try SharedModels.loader().load(path: file) } catch is MeshError { refused += 1 }
        }
        #expect(refused > 0, "no damaged copy was refused")
    }

    @Test(.enabled(if: gltfpack != nil && SharedModels.available, "needs Debian's gltfpack and ../shared/data/glasses"))
    func fallbackBufferIsReadWithoutTheDecoderAndCorruptDataNamesTheExtension() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try Self.pack(["-cf"], into: dir, name: "cf.glb")
        let decoded = try SharedModels.loader().load(path: path)
        let fallback = try MeshLoader().load(path: path)
        #expect(fallback.primitives.map(\.positions) == decoded.primitives.map(\.positions))
        let same = fallback.primitives.map { Self.canonicalTriangles($0.indices) } == decoded.primitives.map { Self.canonicalTriangles($0.indices) }
        #expect(same, "the fallback's triangles differ from the decoded ones")

        // The -c copy requires the extension: without the decoder it is refused by name.
        let required = try Self.pack(["-c"], into: dir, name: "c.glb")
        #expect(throws: MeshError.self) { try MeshLoader().load(path: required) }
        do { _ = try MeshLoader().load(path: required) } catch let e as MeshError {
            #expect(e.reason.contains("EXT_meshopt_compression"), "\(e)")
        }
        // Overwrite the compressed stream (the GLB's binary chunk ends with it) with a constant.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: required)))
        for i in (bytes.count - 4000)..<bytes.count { bytes[i] = 0x5A }
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/corrupt.glb"))
        do {
            _ = try SharedModels.loader().load(path: dir + "/corrupt.glb")
            Issue.record("a corrupt meshopt stream loaded")
        } catch let e as MeshError {
            #expect(e.reason.hasPrefix("EXT_meshopt_compression: bufferView") && !e.description.contains("\n"), "\(e)")
        }
    }
}
