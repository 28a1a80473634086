import Foundation

/// `KHR_texture_transform` on a base-colour texture: uv' = T(offset) · R(rotation) · S(scale) · uv,
/// with the extension's rotation convention (counter-clockwise in UV space, whose v axis points down):
/// u' = cos·sx·u + sin·sy·v + ox, v' = −sin·sx·u + cos·sy·v + oy. Applied once to the texture
/// coordinates on load, so the renderer samples as it always does.
struct UVTransform: Sendable {
    var row0: SIMD3<Float>
    var row1: SIMD3<Float>

    init(_ t: GLTFDocument.TextureTransform, material: Int, path: String) throws {
        let offset = t.offset ?? [0, 0], scale = t.scale ?? [1, 1], rotation = t.rotation ?? 0
        guard offset.count == 2, scale.count == 2, (offset + scale + [rotation]).allSatisfy(\.isFinite) else {
            throw MeshError(path, "material \(material): KHR_texture_transform needs finite offset[2], rotation and scale[2]")
        }
        let c = Float(cos(Double(rotation))), s = Float(sin(Double(rotation)))
        row0 = [c * scale[0], s * scale[1], offset[0]]
        row1 = [-s * scale[0], c * scale[1], offset[1]]
    }

    func apply(_ uv: SIMD2<Float>) -> SIMD2<Float> {
        SIMD2(row0.x * uv.x + row0.y * uv.y + row0.z, row1.x * uv.x + row1.y * uv.y + row1.z)
    }
}
