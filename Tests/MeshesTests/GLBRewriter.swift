import Foundation

/// Test helper: reads a GLB, lets a test edit its JSON chunk as a dictionary (rename materials,
/// wrap the scene in a rig, declare extensions), and writes the result as a new GLB with the
/// original binary chunk, so tests derive hard cases from the shared models without committing copies.
enum GLBRewriter {
    static func u32(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
    }

    static func rewrite(_ source: String, to destination: String, _ edit: (inout [String: Any]) throws -> Void) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        let jsonLength = u32(bytes, 12)
        var json = try JSONSerialization.jsonObject(with: Data(bytes[20..<20 + jsonLength])) as! [String: Any]
        let rest = Array(bytes[(20 + jsonLength)...]) // the BIN chunk header and payload, as they were
        try edit(&json)
        var newJSON = [UInt8](try JSONSerialization.data(withJSONObject: json))
        while newJSON.count % 4 != 0 { newJSON.append(0x20) }
        func le(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(v).littleEndian, Array.init) }
        let total = 12 + 8 + newJSON.count + rest.count
        let out = le(0x4654_6C67) + le(2) + le(total) + le(newJSON.count) + le(0x4E4F_534A) + newJSON + rest
        try Data(out).write(to: URL(fileURLWithPath: destination))
    }
}
