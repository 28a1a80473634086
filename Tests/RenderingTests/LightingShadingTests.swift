import Imaging
import Meshes
import Rendering
import Testing

/// Diffuse light from spherical harmonics, evaluated per vertex, and what a clear lens adds.
@Suite struct LightingShadingTests {
    static func toSRGB(_ c: Float) -> Int {
        let s = c <= 0.0031308 ? c * 12.92 : 1.055 * powf(c, 1 / 2.4) - 0.055
        return Int((min(max(s, 0), 1) * 255).rounded())
    }

    @Test func shIrradianceShadesLambertianSurfaces() {
        let sh = IrradianceSH.directional([0.3, -0.4, -0.866], color: [0.9, 0.7, 0.5], ambient: [0.2, 0.25, 0.3])
        let lighting = Lighting(ambient: .zero, direction: [0, 0, -1], color: .zero, sky: .zero, ground: .zero, irradiance: sh)
        let albedo = SIMD3<Float>(0.6, 0.5, 0.4)
        let mesh = Mesh(primitives: [SceneFixtures.quad(x: -40...40, y: -40...40, z: 400)],
                        materials: [Material(name: "m", baseColor: SIMD4<Float>(albedo, 1), metallic: 0, roughness: 1)])
        var image = SceneFixtures.background()
        let renderer = SceneRenderer(lighting: lighting)
        renderer.beginFrame(width: 200, height: 200)
        renderer.draw(RenderableMesh(mesh), modelToWorld: .identity, camera: SceneFixtures.camera(), into: &image)
        // The quad faces the camera (normal −z): every pixel reads albedo × E(−z)/π, no specular (light colour 0).
        let expected = albedo * sh.diffuse(normal: [0, 0, -1])
        let px = image[100, 100]
        #expect(abs(Int(px.r) - Self.toSRGB(expected.x)) <= 1 && abs(Int(px.g) - Self.toSRGB(expected.y)) <= 1
                && abs(Int(px.b) - Self.toSRGB(expected.z)) <= 1, "\(px) vs \(expected)")
        // E/π of a light facing the surface: the 9-term value, about color/π + ambient.
        let facing = sh.diffuse(normal: simdNormalize([0.3, -0.4, -0.866]))
        #expect(abs(facing.x - (0.9 / .pi * 1.0625 + 0.2)) < 1e-3)
    }

    /// glTF emission (`emissiveFactor` × `KHR_materials_emissive_strength`) is added to the
    /// reflected light: a black, unlit quad shows exactly its emissive colour.
    @Test func emissiveSurfaceShowsItsEmissionWithoutLight() {
        let dark = Lighting(ambient: .zero, direction: [0, 0, -1], color: .zero, sky: .zero, ground: .zero)
        func centre(_ emissive: SIMD3<Float>) -> (UInt8, UInt8, UInt8) {
            let m = Material(name: "m", baseColor: [0, 0, 0, 1], metallic: 0, roughness: 1, emissive: emissive)
            let mesh = Mesh(primitives: [SceneFixtures.quad(x: -40...40, y: -40...40, z: 400)], materials: [m])
            var image = SceneFixtures.background(200, 200, 0)
            let renderer = SceneRenderer(lighting: dark)
            renderer.beginFrame(width: 200, height: 200)
            renderer.draw(RenderableMesh(mesh), modelToWorld: .identity, camera: SceneFixtures.camera(), into: &image)
            let px = image[100, 100]
            return (px.r, px.g, px.b)
        }
        #expect(centre(.zero) == (0, 0, 0))
        let lit = centre([1, 0.2140, 0]) // linear 0.214 is sRGB 128
        #expect(lit.0 == 255 && abs(Int(lit.1) - 128) <= 2 && lit.2 == 0, "\(lit)")
    }

    @Test func clearLensBarelyLiftsDarkPixels() {
        // A clear spectacle lens (tint #f4f6f6, transmission 0.97, as in the catalogue) in front of
        // black, under the studio light: at most a few per cent of white from reflections, not a haze.
        let lens = Material(name: "lens", baseColor: [0.905, 0.92, 0.92, 1], metallic: 0, roughness: 0.05, doubleSided: true,
                            transmission: 0.97, indexOfRefraction: 1.5)
        let mesh = Mesh(primitives: [SceneFixtures.quad(x: -20...20, y: -20...20, z: 200)], materials: [lens])
        var image = SceneFixtures.background()
        let renderer = SceneRenderer(lighting: .studio)
        renderer.beginFrame(width: 200, height: 200)
        renderer.draw(RenderableMesh(mesh), modelToWorld: .identity, camera: SceneFixtures.camera(), into: &image)
        let px = image[100, 100]
        // sRGB 40 is 2 % of white in linear light.
        #expect(px.r <= 40 && px.g <= 40 && px.b <= 40, "\(px)")
        #expect(px.r > 0, "a lens still reflects something")
        // What is behind is seen through the tint: mid-grey stays within 15 % (linear) of itself.
        var grey = SceneFixtures.background(200, 200, 128)
        renderer.beginFrame(width: 200, height: 200)
        renderer.draw(RenderableMesh(mesh), modelToWorld: .identity, camera: SceneFixtures.camera(), into: &grey)
        #expect(abs(Int(grey[100, 100].g) - 128) <= 12, "\(grey[100, 100])")
    }
}

#if canImport(Glibc)
import Glibc
#endif
