import FaceModel
import Foundation
import Geometry
import Imaging
import LightEstimation
import Meshes
import Rendering

/// A Lambertian head of known albedo under known spherical-harmonic light, rendered by the
/// project's rasteriser: the light proxy's own surface (mean-face thin-plate spline), 450 mm in
/// front of a 640x480 webcam (60° horizontal field of view), shaded with `IrradianceSH`.
enum SyntheticFaceScene {
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static let face: MeanFace = try! MeanFace(contentsOf: repository.appendingPathComponent("Models/mean-face.json").path)
    static let estimator = LightEstimator(face: face)
    static let intrinsics = CameraIntrinsics(horizontalFOVDegrees: 60, width: 640, height: 480)

    /// The proxy surface as a mesh on a 2 mm grid over the face, albedo `LightEstimator.skinAlbedo`.
    static let mesh: Mesh = {
        let proxy = estimator.proxy
        let xs = Array(stride(from: Float(-58), through: 58, by: 2)), ys = Array(stride(from: Float(-62), through: 52, by: 2))
        var positions: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = [], indices: [UInt32] = []
        for y in ys {
            for x in xs {
                let p = proxy.surfacePoint(x: x, y: y)
                positions.append(p.position)
                normals.append(p.normal)
            }
        }
        let w = xs.count
        for j in 0..<(ys.count - 1) {
            for i in 0..<(w - 1) {
                let a = UInt32(j * w + i), b = a + 1, c = a + UInt32(w), d = c + 1
                // Counter-clockwise as seen from the camera in front of the face (−z side).
                indices += [a, c, b, b, c, d]
            }
        }
        let material = Material(name: "skin", baseColor: SIMD4<Float>(LightEstimator.skinAlbedo, 1), metallic: 0, roughness: 1)
        return Mesh(primitives: [MeshPrimitive(name: "face", positions: positions, normals: normals, uvs: [], indices: indices, materialIndex: 0)],
                    materials: [material])
    }()

    static func pose(yawDegrees: Double = 0, pitchDegrees: Double = 0, distance: Double = 450) -> RigidTransform {
        let r = Rotation(axis: SIMD3(0, 1, 0), angle: yawDegrees * .pi / 180) * Rotation(axis: SIMD3(1, 0, 0), angle: pitchDegrees * .pi / 180)
        return RigidTransform(rotation: r, translation: SIMD3(0, 0, distance))
    }

    static func transform(_ t: RigidTransform) -> Transform3D {
        let m = t.rotation.matrix
        return Transform3D(columns: SIMD3<Float>(Float(m.r0.x), Float(m.r1.x), Float(m.r2.x)),
                           SIMD3<Float>(Float(m.r0.y), Float(m.r1.y), Float(m.r2.y)),
                           SIMD3<Float>(Float(m.r0.z), Float(m.r1.z), Float(m.r2.z)),
                           translation: SIMD3<Float>(Float(t.translation.x), Float(t.translation.y), Float(t.translation.z)))
    }

    /// The face lit only by `light` (no specular, no environment) over a mid-grey frame.
    static func render(_ light: SphericalHarmonicLight, pose: RigidTransform) -> RGBImage {
        let lighting = Lighting(ambient: .zero, direction: [0, 0, -1], color: .zero, sky: .zero, ground: .zero,
                                irradiance: IrradianceSH(radiance: light.coefficients))
        let renderer = SceneRenderer(lighting: lighting)
        var image = RGBImage(width: intrinsics.width, height: intrinsics.height, fill: (90, 90, 90))
        let camera = PinholeCamera(fx: Float(intrinsics.fx), fy: Float(intrinsics.fy), cx: Float(intrinsics.cx), cy: Float(intrinsics.cy),
                                   width: intrinsics.width, height: intrinsics.height)
        renderer.beginFrame(width: image.width, height: image.height)
        renderer.draw(RenderableMesh(mesh), modelToWorld: transform(pose), camera: camera, into: &image)
        return image
    }

    /// A directional light from `towardsLight` whose colour is a black body at `kelvin`, lighting a
    /// facing surface to `reading` (E/π) with an ambient of `ambient` (radiance), same colour.
    static func light(towardsLight d: SIMD3<Float>, kelvin: Float, reading: Float, ambient: Float) -> SphericalHarmonicLight {
        let c = ColorTemperature.rgb(kelvin: kelvin)
        return SphericalHarmonicLight.directional(towardsLight: d, color: c * (reading * .pi), ambient: c * ambient)
    }

    static func angleDegrees(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
        let c = (a * b).sum() / ((a * a).sum() * (b * b).sum()).squareRoot()
        return acos(min(1, max(-1, c))) * 180 / .pi
    }
}
