import Compositor
import FaceModel
import Foundation
import GlassesCatalogue
import Geometry
import Imaging
import Meshes
import Rendering
import Testing

/// Synthetic try-on checks: a procedural frame fitted to the repository's metric mean face, drawn
/// with known head poses, compared with where the face's own points project.
struct GlassesFitTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let meanFacePath = repo.appendingPathComponent("Models/mean-face.json").path

    static func face() throws -> MeanFace { try MeanFace(contentsOf: meanFacePath) }

    static func fitted(_ face: MeanFace) -> GlassesFit {
        let mesh = GlassesGenerator.generate(style: .rectangular, size: GlassesSize(lensWidth: 52, bridge: 18, templeLength: 140))
        return GlassesFit(glasses: GlassesNormalizer.normalize(mesh), face: face)
    }

    static let camera = CameraIntrinsics(fx: 600, fy: 600, cx: 319.5, cy: 239.5, width: 640, height: 480)

    /// Face 600 mm in front of the camera, rotated by pitch, yaw (degrees) about its own origin.
    static func pose(pitch: Double, yaw: Double) -> RigidTransform {
        let r = Rotation(axis: SIMD3(0, 1, 0), angle: yaw * .pi / 180).matrix * Rotation(axis: SIMD3(1, 0, 0), angle: pitch * .pi / 180).matrix
        return RigidTransform(rotation: Rotation(nearestTo: r), translation: SIMD3(0, 0, 600))
    }

    static func d(_ v: SIMD3<Float>) -> SIMD3<Double> { SIMD3<Double>(Double(v.x), Double(v.y), Double(v.z)) }

    static func background() -> RGBImage {
        RGBImage(width: 640, height: 480, fill: (128, 128, 128))
    }

    static func changed(_ a: RGBImage, _ b: RGBImage, x: ClosedRange<Int>, y: ClosedRange<Int>) -> Int {
        var n = 0
        for yy in y where yy >= 0 && yy < a.height {
            for xx in x where xx >= 0 && xx < a.width && a[xx, yy] != b[xx, yy] { n += 1 }
        }
        return n
    }

    @Test func fitPlacesTheLensPlaneTwelveMillimetresInFrontOfTheCorneaWithoutMirroring() throws {
        let face = try Self.face()
        let fit = Self.fitted(face)
        // 180° about x, then the 8° pantoscopic tilt: the wearer's left (+x) stays +x, up becomes −y leaning
        // towards the camera (the lower rim goes towards the cheeks), the front (+z) faces the camera (−z).
        let m = fit.faceFromGlasses
        let t = 8 * Float.pi / 180
        #expect(m.determinant > 0.999 && m.determinant < 1.001)
        #expect(simdLength(m.applyLinear([1, 0, 0]) - [1, 0, 0]) < 1e-5)
        #expect(simdLength(m.applyLinear([0, 1, 0]) - [0, -cos(t), -sin(t)]) < 1e-5)
        #expect(simdLength(m.applyLinear([0, 0, 1]) - [0, sin(t), -cos(t)]) < 1e-5)
        // The lens centre (boxing centre on the lens plane) sits 12 mm in front of the cornea, 2 mm below the pupils.
        let centre = m.apply([0, 0, fit.regions.bridge.z])
        #expect(abs(centre.z - (Float(face.pupils[0].z) - 12)) < 1e-3)
        #expect(abs(centre.y - (Float(face.pupils[0].y) + 2)) < 1e-3)
        #expect(abs(fit.bridge.z - (Float(face.pupils[0].z) - 12)) < 1.5)
        // The bridge sits above the nose's upper half (landmark 28) and not far above the pupils.
        #expect(fit.bridge.y < Float(face.landmarks[28].y))
        #expect(fit.bridge.y > Float(face.pupils[0].y) - 12)
        // Hinges stay where the front puts them: image-left first.
        #expect(fit.hinges[0].x < 0 && fit.hinges[1].x > 0)
    }

    @Test func bridgeProjectsBetweenTheInnerEyeCornersAboveTheNoseTip() throws {
        let face = try Self.face()
        let fit = Self.fitted(face)
        let renderer = TryOnRenderer(fit: fit)
        for (pitch, yaw) in [(0.0, 0.0), (10.0, 20.0), (-10.0, -25.0)] {
            let pose = Self.pose(pitch: pitch, yaw: yaw)
            let bridge = Self.camera.project(pose.apply(Self.d(fit.bridge)))
            let inner = [39, 42].map { Self.camera.project(pose.apply(face.landmarks[$0])) }
            let noseTip = Self.camera.project(pose.apply(face.landmarks[30]))
            #expect(bridge.x > inner[0].x && bridge.x < inner[1].x, "pitch \(pitch) yaw \(yaw)")
            #expect(bridge.y < noseTip.y - 10, "pitch \(pitch) yaw \(yaw)")
            // The rendered frame covers the bridge: pixels just above its underside changed.
            let plain = Self.background()
            var image = plain
            renderer.render(cameraFromFace: [pose], intrinsics: Self.camera, into: &image)
            let bx = Int(bridge.x.rounded()), by = Int(bridge.y.rounded())
            #expect(Self.changed(plain, image, x: (bx - 2)...(bx + 2), y: (by - 6)...by) > 5, "pitch \(pitch) yaw \(yaw)")
            // And leaves the image far from the face alone.
            #expect(Self.changed(plain, image, x: 0...60, y: 0...479) == 0)
        }
    }

    @Test func templesReachTheEarsOutsideTheHead() throws {
        let face = try Self.face()
        let fit = Self.fitted(face)
        for k in 0..<2 {
            let ear = SIMD3<Float>(Float(face.ears[k].x), Float(face.ears[k].y), Float(face.ears[k].z))
            let end = fit.templeEnds[k]
            // The temple's end lies behind the ear attachment at the head's width.
            #expect(abs(end.x - ear.x) < 6, "side \(k): end \(end), ear \(ear)")
            #expect(end.z > ear.z - 5, "side \(k): end \(end), ear \(ear)")
            // Projected (frontal and turned), the ends land near the ears: within 12 mm at 600 mm.
            for yaw in [0.0, 30.0] {
                let pose = Self.pose(pitch: 0, yaw: yaw)
                let a = Self.camera.project(pose.apply(Self.d(SIMD3(end.x, ear.y, ear.z))))
                let b = Self.camera.project(pose.apply(Self.d(ear)))
                #expect(simd_distance(a, b) < 12, "side \(k) yaw \(yaw)")
            }
        }
        // Every temple vertex level with the ear runs outside the head proxy.
        let fitted = fit.mesh.transformed(by: fit.faceFromGlasses)
        var checked = 0
        for p in fitted.primitives {
            for v in p.positions where v.z > 30 && v.z < 90 {
                #expect(abs(v.x) > HeadOccluder.halfBreadth, "vertex \(v) inside the head")
                checked += 1
            }
        }
        #expect(checked > 10)
        // Where they pass the ears, the temples rest on them: level with the ear point (1.5 mm above).
        for k in 0..<2 {
            let ear = face.ears[k]
            let earX = Float(ear.x), earZ = Float(ear.z)
            let all: [SIMD3<Float>] = fitted.primitives.flatMap { $0.positions }
            let near = all.filter { (v: SIMD3<Float>) -> Bool in v.x * earX > 0 && abs(v.z - earZ) < 5 }
            #expect(near.count >= 2)
            let height = near.reduce(Float(0)) { $0 + $1.y } / Float(max(1, near.count))
            #expect(abs(height - (Float(ear.y) - 1.5)) < 1.5, "side \(k): temple at y \(height), ear at \(ear.y)")
        }
    }

    @Test func headOccluderHidesTheFarTempleAtSixtyDegreesYaw() throws {
        let face = try Self.face()
        var fit = Self.fitted(face)
        // Keep only the wearer's right temple (−x), from 15 mm behind its hinge.
        let hingeZ = fit.regions.rightHinge.z
        var mesh = fit.mesh
        for i in mesh.primitives.indices {
            let p = mesh.primitives[i]
            var kept: [UInt32] = []
            for t in 0..<p.triangleCount {
                let tri = (0..<3).map { p.indices[3 * t + $0] }
                if tri.allSatisfy({ p.positions[Int($0)].x < 0 && p.positions[Int($0)].z < hingeZ - 15 }) { kept += tri }
            }
            mesh.primitives[i].indices = kept
        }
        fit.mesh = mesh
        #expect(fit.mesh.triangleCount > 0)
        // Turned 60° so the face's left side (+x) comes towards the camera: the right temple is far.
        let pose = Self.pose(pitch: 0, yaw: 60)
        #expect(pose.apply(SIMD3(-70, 0, 50)).z > pose.apply(SIMD3(70, 0, 50)).z)
        let renderer = TryOnRenderer(fit: fit)
        let plain = Self.background()
        var open = plain, hidden = plain
        renderer.occlusion = false
        renderer.render(cameraFromFace: [pose], intrinsics: Self.camera, into: &open)
        renderer.occlusion = true
        renderer.render(cameraFromFace: [pose], intrinsics: Self.camera, into: &hidden)
        let shown = Self.changed(plain, open, x: 0...639, y: 0...479)
        let leaked = Self.changed(plain, hidden, x: 0...639, y: 0...479)
        #expect(shown > 200)
        #expect(leaked * 50 < shown, "\(leaked) of \(shown) temple pixels visible through the head")
    }
}

private func simd_distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { ((a - b) * (a - b)).sum().squareRoot() }
