import Meshes

/// A colour/material variant of a catalogue frame: the frame's sRGB colour ("#rrggbb"), metal or
/// plastic, roughness and opacity (below 1 for crystal acetate), and the lens tint (sRGB) and
/// transmission (1 = all light passes through the tint; sun lenses have dark tints).
/// Applied to the materials named `frame` and `lens` of a generated frame.
public struct GlassesVariant: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var frameColor: String
    public var metallic: Float
    public var roughness: Float
    public var opacity: Float
    public var lensTint: String
    public var lensTransmission: Float

    public init(id: String, name: String, frameColor: String, metallic: Float, roughness: Float, opacity: Float = 1,
                lensTint: String = "#f4f6f6", lensTransmission: Float = 0.97) {
        self.id = id
        self.name = name
        self.frameColor = frameColor
        self.metallic = metallic
        self.roughness = roughness
        self.opacity = opacity
        self.lensTint = lensTint
        self.lensTransmission = lensTransmission
    }

    public func frameMaterial() -> Material {
        let c = ColorHex.linear(frameColor) ?? [0.5, 0.5, 0.5]
        return Material(name: "frame", baseColor: SIMD4<Float>(c, opacity), metallic: metallic, roughness: roughness,
                        alphaMode: opacity < 1 ? .blend : .opaque, doubleSided: false)
    }

    public func lensMaterial() -> Material {
        let c = ColorHex.linear(lensTint) ?? [1, 1, 1]
        return Material(name: "lens", baseColor: SIMD4<Float>(c, 1), metallic: 0, roughness: 0.05, alphaMode: .opaque,
                        doubleSided: true, transmission: lensTransmission, indexOfRefraction: 1.5)
    }

    /// `mesh` with its `frame` and `lens` materials replaced by this variant's.
    public func apply(to mesh: Mesh) -> Mesh {
        var out = mesh
        for i in out.materials.indices {
            switch out.materials[i].name {
            case "frame": out.materials[i] = frameMaterial()
            case "lens": out.materials[i] = lensMaterial()
            default: continue
            }
        }
        return out
    }

    /// Variants offered for a style: acetates for plastic frames, metal finishes for wire frames.
    public static func standard(for style: GlassesStyle) -> [GlassesVariant] {
        if style == .aviator {
            return [
                GlassesVariant(id: "gold-green", name: "Gold, G-15 green sun lens", frameColor: "#d4af5f", metallic: 1, roughness: 0.25,
                             lensTint: "#3b4a36", lensTransmission: 1),
                GlassesVariant(id: "silver-grey", name: "Silver, grey sun lens", frameColor: "#d8d8d8", metallic: 1, roughness: 0.2,
                             lensTint: "#3a3a3c", lensTransmission: 1),
                GlassesVariant(id: "gunmetal-clear", name: "Gunmetal, clear lens", frameColor: "#4a4a4f", metallic: 1, roughness: 0.3),
            ]
        }
        if style.isMetal {
            return [
                GlassesVariant(id: "gold", name: "Gold", frameColor: "#d4af5f", metallic: 1, roughness: 0.25),
                GlassesVariant(id: "silver", name: "Silver", frameColor: "#d8d8d8", metallic: 1, roughness: 0.2),
                GlassesVariant(id: "black", name: "Matte black", frameColor: "#202020", metallic: 0.6, roughness: 0.5),
            ]
        }
        return [
            GlassesVariant(id: "black", name: "Black acetate", frameColor: "#141414", metallic: 0, roughness: 0.3),
            GlassesVariant(id: "tortoise", name: "Havana brown", frameColor: "#5a3218", metallic: 0, roughness: 0.3),
            GlassesVariant(id: "crystal", name: "Crystal", frameColor: "#c8ccd0", metallic: 0, roughness: 0.15, opacity: 0.45),
            GlassesVariant(id: "red", name: "Cherry red", frameColor: "#8c1420", metallic: 0, roughness: 0.3),
        ]
    }
}
