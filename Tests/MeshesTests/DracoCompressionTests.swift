import DracoCodec
import Foundation
import Meshes
import Testing

enum DracoTranscoder {
    static let path = ["/usr/bin/draco_transcoder", "/usr/local/bin/draco_transcoder"].first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Issue 23 item 3, `KHR_draco_mesh_compression` through Google Draco (`DracoCodec`): Debian's
/// `draco_transcoder` compresses a shared model, and the decoded copy must match the original
/// within the quantisation asked for; corrupt streams and a missing decoder are refused by name.
@Suite(.enabled(if: DracoTranscoder.path != nil && SharedModels.available,
                "needs Debian's draco_transcoder (package draco) and ../shared/data/glasses"))
struct DracoCompressionTests {
    static let transcoder = DracoTranscoder.path
    static let source = SharedModels.directory + "/khronos_sunglasses/SunglassesKhronos.glb"
    static let positionBits = 14

    /// Transcodes the Khronos sunglasses into `dir` with 14-bit positions, 12-bit texture
    /// coordinates and 10-bit normals.
    static func compress(into dir: String) throws -> String {
        let out = dir + "/draco.glb"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: transcoder!)
        p.arguments = ["-i", source, "-o", out, "-qp", "\(positionBits)", "-qt", "12", "-qn", "10"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "draco_transcoder failed")
        return out
    }

    @Test func decodedCopyMatchesTheOriginalWithinQuantisation() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let loader = SharedModels.loader()
        let original = try loader.load(path: Self.source)
        let draco = try loader.load(path: try Self.compress(into: dir))
        #expect(draco.triangleCount == original.triangleCount)
        let a = try #require(original.bounds), b = try #require(draco.bounds)
        // Draco quantises each primitive over its own box: one step is at most the model's extent / 2^14.
        let step = (a.max - a.min).max() / Float(1 << Self.positionBits)
        #expect(simdLength(a.min - b.min) < 2 * step && simdLength(a.max - b.max) < 2 * step, "\(a) vs \(b)")
        // Every decoded vertex lies within one quantisation step of an original vertex (cell hash).
        let all = original.primitives.flatMap(\.positions)
        let cell = 2 * step
        func key(_ p: SIMD3<Float>) -> SIMD3<Int32> { SIMD3<Int32>((p / cell).rounded(.down)) }
        var grid: [SIMD3<Int32>: [SIMD3<Float>]] = [:]
        for p in all { grid[key(p), default: []].append(p) }
        var worst: Float = 0
        for p in draco.primitives.flatMap(\.positions) {
            let k = key(p)
            var best = Float.infinity
            for dx in -1...1 { for dy in -1...1 { for dz in -1...1 {
                for q in grid[k &+ SIMD3(Int32(dx), Int32(dy), Int32(dz))] ?? [] { best = min(best, simdLength(q - p)) }
            } } }
            worst = max(worst, best)
        }
        #expect(worst <= step, "a decoded vertex lies \(worst) from the nearest original one (step \(step))")
        #expect(draco.primitives.count == original.primitives.count)
        for (d, o) in zip(draco.primitives, original.primitives) {
            #expect(d.normals.count == d.positions.count && d.uvs.isEmpty == o.uvs.isEmpty && (d.uvs.isEmpty || d.uvs.count == d.positions.count),
                    "\(d.name): \(d.positions.count) positions, \(d.normals.count) normals, \(d.uvs.count) uvs (original \(o.uvs.count))")
        }
    }

    @Test func corruptStreamAndMissingDecoderAreRefusedByName() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try Self.compress(into: dir)
        do { _ = try MeshLoader().load(path: path); Issue.record("loaded a Draco-required model without a decoder") } catch let e as MeshError {
            #expect(e.reason.contains("required extension KHR_draco_mesh_compression is not supported"), "\(e)")
        }
        // Overwrite the start of the binary chunk, where the first Draco stream lies, a few ways.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let json = Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24
        let bin = 20 + json + 8
        for (i, damage) in [(0, 0x00), (5, 0xFF), (40, 0x55)].enumerated() {
            var broken = bytes
            for j in bin + damage.0..<min(bin + damage.0 + 400, broken.count) { broken[j] = UInt8(damage.1 ^ (j & 0x0F)) }
            let file = dir + "/broken\(i).glb"
            try Data(broken).write(to: URL(fileURLWithPath: file))
            do {
                _ = try SharedModels.loader().load(path: file)
                Issue.record("damage \(damage) loaded")
            } catch let e as MeshError {
                #expect(e.reason.contains("KHR_draco_mesh_compression") && !e.description.contains("\n"), "\(e)")
            }
        }
    }

    /// Seeded byte damage anywhere in the Draco streams: every copy loads or is refused, none crashes.
    @Test func damagedCopiesLoadOrAreRefusedNeverCrash() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Self.compress(into: dir))))
        let bin = 20 + (Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16) + 8
        var state: UInt64 = 0x9E3779B97F4A7C15
        func next() -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) }
        var refused = 0
        for round in 0..<120 {
            var broken = bytes
            for _ in 0..<(1 + round % 8) { broken[bin + next() % (broken.count - bin)] ^= UInt8(1 + next() % 255) }
            let file = dir + "/d\(round).glb"
            try Data(broken).write(to: URL(fileURLWithPath: file))
            do { _ = try SharedModels.loader().load(path: file) } catch is MeshError { refused += 1 }
        }
        #expect(refused > 0, "no damaged copy was refused")
    }

    @Test func decoderRefusesTruncatedAndForeignBytes() throws {
        let decoder = DracoDecoder()
        #expect(throws: DracoDecodingError.self) { try decoder.decode([][...], attributes: [0: 3], maximumVertices: 100) }
        #expect(throws: DracoDecodingError.self) { try decoder.decode(Array("DRACO but not really".utf8)[...], attributes: [0: 3], maximumVertices: 100) }
    }
}
