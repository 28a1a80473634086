// The light estimation stage's cost per face per frame (issue 8 bar: ≤ 0.5 ms on one core): a
// synthetic Lambertian face (the estimator's own mean-face proxy, rendered by the project's
// rasteriser under a known warm key light plus ambient) 450 mm in front of a 640x480 webcam.
//
// Measured 2026-11-22 (shared 2-core VM, load ~6): estimate per face p0 / p50 295 / 300 µs, on the
// gray frame 296 / 300 µs; 16 mallocs per sample = the framework's own baseline, i.e. 0 by the
// estimator (issue 9; the 12:20 pipeline profile had ~47 per estimate: buffers, SH arrays, sorts). The smoothing
// benchmark's one extra malloc is its per-sample LightTracker set-up, not the per-frame update.
import Benchmark
import FaceModel
import Foundation
import Geometry
import Imaging
import LightEstimation
import Meshes
import Rendering

enum LightingScene {
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    static let intrinsics = CameraIntrinsics(horizontalFOVDegrees: 60, width: 640, height: 480)
    static let pose = RigidTransform(rotation: Rotation(axis: SIMD3(0, 1, 0), angle: 0.15), translation: SIMD3(0, 0, 450))

    /// The proxy surface on a 2 mm grid, rendered under `light` over a mid-grey frame.
    static func frame(_ estimator: LightEstimator, light: SphericalHarmonicLight) -> RGBImage {
        let xs = Array(stride(from: Float(-58), through: 58, by: 2)), ys = Array(stride(from: Float(-62), through: 52, by: 2))
        var positions: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = [], indices: [UInt32] = []
        for y in ys { for x in xs { let p = estimator.proxy.surfacePoint(x: x, y: y); positions.append(p.position); normals.append(p.normal) } }
        let w = xs.count
        for j in 0..<(ys.count - 1) { for i in 0..<(w - 1) {
            let a = UInt32(j * w + i), b = a + 1, c = a + UInt32(w), d = c + 1
            indices += [a, c, b, b, c, d]
        } }
        let mesh = Mesh(primitives: [MeshPrimitive(name: "face", positions: positions, normals: normals, uvs: [], indices: indices, materialIndex: 0)],
                        materials: [Material(name: "skin", baseColor: SIMD4<Float>(LightEstimator.skinAlbedo, 1), metallic: 0, roughness: 1)])
        let renderer = SceneRenderer(lighting: Lighting(ambient: .zero, direction: [0, 0, -1], color: .zero, sky: .zero, ground: .zero,
                                                        irradiance: IrradianceSH(radiance: light.coefficients)))
        var image = RGBImage(width: intrinsics.width, height: intrinsics.height, fill: (90, 90, 90))
        let m = pose.rotation.matrix
        let modelToWorld = Transform3D(columns: SIMD3<Float>(Float(m.r0.x), Float(m.r1.x), Float(m.r2.x)),
                                       SIMD3<Float>(Float(m.r0.y), Float(m.r1.y), Float(m.r2.y)),
                                       SIMD3<Float>(Float(m.r0.z), Float(m.r1.z), Float(m.r2.z)),
                                       translation: SIMD3<Float>(Float(pose.translation.x), Float(pose.translation.y), Float(pose.translation.z)))
        renderer.beginFrame(width: image.width, height: image.height)
        renderer.draw(RenderableMesh(mesh), modelToWorld: modelToWorld,
                      camera: PinholeCamera(fx: Float(intrinsics.fx), fy: Float(intrinsics.fy), cx: Float(intrinsics.cx), cy: Float(intrinsics.cy),
                                            width: intrinsics.width, height: intrinsics.height),
                      into: &image)
        return image
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: .seconds(3),
        maxIterations: 5_000
    )
    let face = try! MeanFace(contentsOf: LightingScene.repository.appendingPathComponent("Models/mean-face.json").path)
    let estimator = LightEstimator(face: face)
    let warm = ColorTemperature.rgb(kelvin: 4000)
    let light = SphericalHarmonicLight.directional(towardsLight: [-0.4, -0.5, -0.77], color: warm * (0.45 * .pi), ambient: warm * 0.3)
    let image = LightingScene.frame(estimator, light: light)
    precondition(estimator.estimate(image: image, cameraFromFace: LightingScene.pose, intrinsics: LightingScene.intrinsics) != nil,
                 "the benchmark face gives no estimate")

    Benchmark("Light estimate per face (\(estimator.proxy.samples.count) skin samples, 640x480)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(estimator.estimate(image: image, cameraFromFace: LightingScene.pose, intrinsics: LightingScene.intrinsics))
        }
    }
    let gray = GrayImage(luma: image)
    precondition(estimator.estimate(gray: gray, cameraFromFace: LightingScene.pose, intrinsics: LightingScene.intrinsics) != nil,
                 "the benchmark face gives no gray estimate")
    Benchmark("Light estimate per face, gray frame (tracking path, luminance only)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(estimator.estimate(gray: gray, cameraFromFace: LightingScene.pose, intrinsics: LightingScene.intrinsics))
        }
    }
    Benchmark("Light estimate + temporal smoothing per face") { benchmark in
        let tracker = LightTracker(estimator: estimator)
        var t = 0.0
        for _ in benchmark.scaledIterations {
            t += 1.0 / 30
            let m = estimator.estimate(image: image, cameraFromFace: LightingScene.pose, intrinsics: LightingScene.intrinsics)
            blackHole(tracker.update(faceID: 1, measurement: m, timestampSeconds: t))
        }
    }
    Benchmark("Proxy and estimator set-up (thin-plate spline solve)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(LightEstimator(face: face)) }
    }
}
