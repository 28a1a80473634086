import Foundation
import Meshes
import Testing

/// OBJ corners are welded through a hash in linear time (they were copied on every new vertex:
/// 30k / 60k / 120k vertices took 0.8 / 3.1 / 12 s in a release build).
struct OBJWeldingTests {
    /// A `side` x `side` grid of vertices with texture coordinates, as quads (`f v/vt`).
    static func grid(side: Int) -> String {
        var lines: [String] = []
        lines.reserveCapacity(3 * side * side)
        for y in 0..<side { for x in 0..<side { lines.append("v \(x) \(y) \((x * y) % 7)") } }
        for y in 0..<side { for x in 0..<side { lines.append("vt \(Double(x) / Double(side)) \(Double(y) / Double(side))") } }
        for y in 0..<(side - 1) {
            for x in 0..<(side - 1) {
                let a = y * side + x + 1, b = a + 1, c = a + side + 1, d = a + side
                lines.append("f \(a)/\(a) \(b)/\(b) \(c)/\(c) \(d)/\(d)")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func loadSeconds(side: Int, in dir: String) throws -> (Double, Mesh) {
        let path = dir + "/grid\(side).obj"
        FileManager.default.createFile(atPath: path, contents: Data(grid(side: side).utf8))
        let start = Date()
        let mesh = try OBJLoader().load(path: path)
        return (Date().timeIntervalSince(start), mesh)
    }

    @Test("welding is linear: 4x the vertices takes well under 16x the time")
    func linearWelding() throws {
        let dir = try makeFuzzScratch("welding")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (small, smallMesh) = try Self.loadSeconds(side: 173, in: dir)   // 30k vertices
        let (large, largeMesh) = try Self.loadSeconds(side: 346, in: dir)   // 120k vertices
        print("OBJ welding: 30k vertices \(String(format: "%.2f", small)) s, 120k vertices \(String(format: "%.2f", large)) s")
        #expect(smallMesh.vertexCount == 173 * 173 && largeMesh.vertexCount == 346 * 346)
        #expect(largeMesh.triangleCount == 2 * 345 * 345)
        #expect(large < 8 * small + 1, "30k vertices: \(small) s, 120k: \(large) s")
    }
}
