import Imaging
import Meshes
import Rendering
import Testing

struct SceneRendererTests {
    static let red: SIMD3<Float> = [1, 0, 0], green: SIMD3<Float> = [0, 1, 0], blue: SIMD3<Float> = [0, 0, 1]

    @Test func nearerSurfaceWinsWhateverTheDrawOrder() {
        for nearFirst in [true, false] {
            let near = SceneFixtures.quad(x: -20...0, y: -20...20, z: 200, material: 0)
            let far = SceneFixtures.quad(x: -10...20, y: -20...20, z: 300, material: 1)
            let mesh = Mesh(primitives: nearFirst ? [near, far] : [far, near],
                            materials: [SceneFixtures.material(Self.red), SceneFixtures.material(Self.green)])
            let image = SceneFixtures.render(mesh)
            // Overlap around x = -5 mm at z = 200 -> pixel 100 + 500 * -5 / 200 = 87.5.
            #expect(image[85, 100] == (255, 0, 0), "near first: \(nearFirst)")
            #expect(image[110, 100] == (0, 255, 0))
        }
    }

    @Test func singleSidedFacesAreCulledFromBehind() {
        var quad = SceneFixtures.quad(x: -20...20, y: -20...20, z: 200)
        quad.indices = [0, 1, 2, 0, 2, 3] // now facing away from the camera
        let culled = SceneFixtures.render(Mesh(primitives: [quad], materials: [SceneFixtures.material(Self.red)]))
        #expect(culled[100, 100] == (0, 0, 0))
        let shown = SceneFixtures.render(Mesh(primitives: [quad], materials: [SceneFixtures.material(Self.red, doubleSided: true)]))
        #expect(shown[100, 100] == (255, 0, 0))
    }

    /// Anti-aliasing smooths the silhouette, never the shared diagonal inside a quad.
    @Test func silhouetteEdgesAreSmoothInteriorEdgesAreNot() {
        // Edges at x = ±20.3 mm, z = 200: pixel columns 49.25 and 150.75.
        let quad = SceneFixtures.quad(x: -20.3...20.3, y: -20.3...20.3, z: 200)
        let mesh = Mesh(primitives: [quad], materials: [SceneFixtures.material([1, 1, 1])])
        let image = SceneFixtures.render(mesh)
        // Interior, including the diagonal from (49, 49) to (150, 150): pure white everywhere.
        for i in 52...148 { #expect(image[i, i] == (255, 255, 255), "diagonal pixel \(i)") }
        // Column 49 lies 0.25 px outside the left edge: covered 25 % -> linear 0.25 -> sRGB ≈ 137.
        let edge = image[49, 100]
        #expect(edge.r > 110 && edge.r < 160, "edge pixel \(edge)")
        #expect(image[48, 100] == (0, 0, 0))
        let hard = SceneFixtures.render(mesh, antialiasing: false)
        #expect(hard[49, 100] == (0, 0, 0) && hard[50, 100] == (255, 255, 255))
    }

    @Test func trianglesCrossingTheNearPlaneAreClipped() {
        // A floor-like quad from z = 0.2 (behind the near plane at 1) to z = 400.
        let p: [SIMD3<Float>] = [[-50, 30, 0.2], [50, 30, 0.2], [50, 30, 400], [-50, 30, 400]]
        var prim = MeshPrimitive(name: "floor", positions: p, normals: Array(repeating: [0, -1, 0], count: 4), uvs: [],
                                 indices: [0, 1, 2, 0, 2, 3], materialIndex: 0)
        prim.indices = [0, 2, 1, 0, 3, 2]
        let image = SceneFixtures.render(Mesh(primitives: [prim], materials: [SceneFixtures.material(Self.red, doubleSided: true)]))
        // The far part projects to y = 100 + 500 * 30 / 400 = 137.5; the near part is below the image.
        #expect(image[100, 140] == (255, 0, 0))
        #expect(image[100, 199] == (255, 0, 0))
        #expect(image[100, 130] == (0, 0, 0))
    }

    @Test func translucentSurfacesBlendAndLensesTint() {
        let back = SceneFixtures.quad(x: -40...40, y: -40...40, z: 400, material: 0)
        let glass = SceneFixtures.quad(x: -20...20, y: -20...20, z: 200, material: 1)
        let blend = Mesh(primitives: [glass, back], materials: [SceneFixtures.material(Self.red), SceneFixtures.material([1, 1, 1], alpha: 0.5)])
        let image = SceneFixtures.render(blend)
        // Drawn after the opaque back whatever the order: red behind 50 % white.
        #expect(image[100, 100] == (255, 188, 188))
        // A lens: transmission 1 with a green tint passes only green; plus Fresnel (black environment: nothing).
        let lens = Mesh(primitives: [glass, back], materials: [SceneFixtures.material([1, 1, 0]),
                                                                SceneFixtures.material([0.2, 1, 0.2], transmission: 1)])
        let tinted = SceneFixtures.render(lens)
        let px = tinted[100, 100]
        // Yellow behind a green lens: red attenuated to 0.2 * 0.96 linear (sRGB ≈ 122), green kept (≈ 0.96 -> 250).
        #expect(px.b == 0 && abs(Int(px.r) - 122) <= 3 && abs(Int(px.g) - 250) <= 3, "\(px)")
        // A lens behind an opaque surface is hidden.
        let hidden = Mesh(primitives: [SceneFixtures.quad(x: -20...20, y: -20...20, z: 100, material: 0),
                                       SceneFixtures.quad(x: -40...40, y: -40...40, z: 200, material: 1)],
                          materials: [SceneFixtures.material(Self.blue), SceneFixtures.material([1, 1, 1], transmission: 1)])
        #expect(SceneFixtures.render(hidden, into: SceneFixtures.background(200, 200, 255))[100, 100] == (0, 0, 255))
    }

    /// MASK: texels below the cutoff are cut out and do not hide what is behind them.
    @Test func maskedTexelsAreDiscarded() {
        // Left half of the texture transparent, right half opaque white.
        let texels = RGBAImage(width: 2, height: 1, pixels: [255, 255, 255, 0, 255, 255, 255, 255])
        var front = SceneFixtures.quad(x: -20...20, y: -20...20, z: 200, material: 0)
        front.uvs = [[0, 0], [1, 0], [1, 1], [0, 1]]
        let back = SceneFixtures.quad(x: -40...40, y: -40...40, z: 300, material: 1)
        var cutout = SceneFixtures.material([1, 1, 1])
        cutout.alphaMode = .mask(cutoff: 0.5)
        cutout.baseColorTexture = 0
        let mesh = Mesh(primitives: [front, back], materials: [cutout, SceneFixtures.material(Self.blue)],
                        textures: [Texture(image: texels, wrapU: .clampToEdge, wrapV: .clampToEdge, nearest: true)])
        let image = SceneFixtures.render(mesh)
        // x = -10 mm at z = 200 -> column 75 (u = 0.25): cut out, the blue back shows through.
        #expect(image[75, 100] == (0, 0, 255))
        #expect(image[125, 100] == (255, 255, 255))
    }

    @Test func lookAtAndProjectionAgree() {
        var camera = PinholeCamera.perspective(verticalFieldOfViewDegrees: 40, width: 320, height: 240)
        camera.lookAt(eye: [0, 0, 500], target: [0, 0, 0], up: [0, 1, 0])
        // World +y is up in the image, world +x to the right when looking down -z.
        let up = camera.project([0, 50, 0])!, right = camera.project([50, 0, 0])!, centre = camera.project([0, 0, 0])!
        #expect(abs(centre.pixel.x - 159.5) < 1e-3 && abs(centre.pixel.y - 119.5) < 1e-3 && abs(centre.depth - 500) < 1e-3)
        #expect(up.pixel.y < centre.pixel.y && right.pixel.x > centre.pixel.x)
        #expect(camera.project([0, 0, 600]) == nil, "behind the camera")
    }
}
