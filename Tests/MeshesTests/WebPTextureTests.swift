import Foundation
import Meshes
import PNGCodec
import Testing
import WebPCodec

/// Issue 23 item 3, `EXT_texture_webp` for base-colour textures through libwebp (`WebPCodec`):
/// the WebP source is used when a decoder is given, the core `source` (PNG here) otherwise, and a
/// file that requires the extension is refused without one.
struct WebPTextureTests {
    /// 2×2 lossless WebP (cwebp -lossless -exact): red, green / blue, yellow.
    static let webp = "UklGRiwAAABXRUJQVlA4TB8AAAAvAUAAAB8gEEjaH3qN+RcQFPk/2vwHXyTgBwgR/Q8BAA=="
    /// 2×2 PNG, all grey 128: the fallback.
    static let png = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAADklEQVR4nGNoAAMGCAUAKg4GARWeQtcAAAAASUVORK5CYII="

    static func model(webp: String = webp, fallback: Bool = true, required: Bool = false) -> String {
        let positions: [Float] = [0, 0, 0, 0.14, 0, 0, 0.14, 0.05, 0, 0, 0.05, 0]
        let uvs: [Float] = [0, 1, 1, 1, 1, 0, 0, 0]
        let floats: [UInt8] = (positions + uvs).flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }
        let payload = floats + [0, 1, 2, 0, 2, 3]
        let source = fallback ? #""source": 0, "# : ""
        let list = required ? #""extensionsUsed": ["EXT_texture_webp"], "extensionsRequired": ["EXT_texture_webp"],"# : #""extensionsUsed": ["EXT_texture_webp"],"#
        return """
        {"asset": {"version": "2.0"}, \(list)
         "buffers": [{"uri": "data:application/octet-stream;base64,\(Data(payload).base64EncodedString())", "byteLength": \(payload.count)}],
         "bufferViews": [{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 32}, {"buffer": 0, "byteOffset": 80, "byteLength": 6}],
         "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"},
                       {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC2"},
                       {"bufferView": 2, "componentType": 5121, "count": 6, "type": "SCALAR"}],
         "images": [{"uri": "data:image/png;base64,\(png)"}, {"uri": "data:image/webp;base64,\(webp)"}],
         "textures": [{\(source)"extensions": {"EXT_texture_webp": {"source": 1}}}],
         "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
         "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "indices": 2, "material": 0}]}],
         "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}]}
        """
    }

    static func load(_ json: String, webp: Bool) throws -> Mesh {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(json.utf8).write(to: URL(fileURLWithPath: dir + "/model.gltf"))
        let decoders = TextureDecoders(png: LibPNGDecoder(), webp: webp ? LibWebPDecoder() : nil)
        return try GLTFLoader(decoders: decoders).load(path: dir + "/model.gltf")
    }

    static func firstPixel(_ mesh: Mesh) throws -> [UInt8] {
        let texture = try #require(mesh.textures.first)
        return Array(texture.image.pixels.prefix(4))
    }

    @Test func webpSourceIsUsedWhenADecoderIsGiven() throws {
        let mesh = try Self.load(Self.model(), webp: true)
        #expect(try Self.firstPixel(mesh) == [255, 0, 0, 255])
        #expect(mesh.textures[0].image.pixels[12..<16] == [255, 255, 0, 255])
        #expect(!mesh.warnings.contains { $0.contains("EXT_texture_webp") })
    }

    @Test func coreSourceIsTheFallbackWithoutADecoder() throws {
        let mesh = try Self.load(Self.model(), webp: false)
        #expect(try Self.firstPixel(mesh) == [128, 128, 128, 255])
    }

    @Test func corruptWebPFallsBackToTheCoreSourceWithAWarning() throws {
        var broken = [UInt8](Data(base64Encoded: Self.webp)!)
        for i in 20..<broken.count { broken[i] ^= 0xA5 }
        let mesh = try Self.load(Self.model(webp: Data(broken).base64EncodedString()), webp: true)
        #expect(try Self.firstPixel(mesh) == [128, 128, 128, 255])
        #expect(mesh.warnings.contains { $0.contains("EXT_texture_webp") && $0.contains("image 1") }, "\(mesh.warnings)")
    }

    @Test func requiredWithoutADecoderIsRefusedByName() throws {
        do {
            _ = try Self.load(Self.model(fallback: false, required: true), webp: false)
            Issue.record("loaded a WebP-required model without a WebP decoder")
        } catch let e as MeshError {
            #expect(e.reason.contains("required extension EXT_texture_webp is not supported"), "\(e)")
        }
        let mesh = try Self.load(Self.model(fallback: false, required: true), webp: true)
        #expect(try Self.firstPixel(mesh) == [255, 0, 0, 255])
    }

    @Test func decoderRefusesForeignAndTruncatedBytes() {
        #expect(throws: TextureDecodingError.self) { try LibWebPDecoder().decodeWebP(Array("RIFF....WEBPVP8 ".utf8)) }
        #expect(throws: TextureDecodingError.self) { try LibWebPDecoder().decodeWebP(Array([UInt8](Data(base64Encoded: Self.webp)!).prefix(30))) }
    }
}
