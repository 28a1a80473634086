import FaceModel
import FacialMetrics
import Foundation
import Geometry
import Imaging
import Meshes
import Rendering

/// A synthetic head for ground truth: the mean face's shape as a height field, textured with the
/// bundled public-domain portrait (warped so its landmarks land on the mean face's), synthetic eyes
/// (white sclera in the eye opening, an iris disc of known diameter clipped by the lids, a black
/// pupil) turning about rotation centres a known distance apart to fixate the camera, and
/// optionally an ID-1 card flat on the forehead. Face frame as `MeanFace` (mm).
///
/// A person of the population (issue 24, `SyntheticPerson`) changes three things the measurement
/// must not know: `faceScale` scales the skin and the eye openings about the face origin (a head
/// larger than the mean face; the camera method cannot tell it from a nearer one), `farPD` and
/// `irisDiameter` are the eyes' own, and `cardStandOffDeltaMM` moves the forehead card further in
/// front of the pupils than the scaled mean face puts it (a brow that sticks out more, a card not
/// pressed flat). The card is drawn over the skin (its depth test cleared), so a card moved back
/// sinks into no forehead. Not thread-safe (the renderer's buffers are reused); one head per thread.
public final class SyntheticHead {
    public let face: MeanFace
    public var farPD: Double
    public var irisDiameter: Double
    public var faceScale = 1.0
    public var cardStandOffDeltaMM = 0.0
    let head: RenderableMesh
    let card: RenderableMesh
    /// The card's centre on the mean face (mm), before `faceScale` and `cardStandOffDeltaMM`.
    public static let cardCentre = SIMD3<Double>(0, -53.5, -14.7)

    public init(face: MeanFace, photo: RGBImage, photoLandmarks: [SIMD2<Float>], farPD: Double = 62, irisDiameter: Double = 11.7) {
        self.face = face
        self.farPD = farPD
        self.irisDiameter = irisDiameter
        head = RenderableMesh(Self.headMesh(face: face, photo: photo, landmarks: photoLandmarks))
        card = RenderableMesh(Self.cardMesh())
    }

    /// This person's card centre in the face frame (mm).
    public var cardCentre: SIMD3<Double> {
        Self.cardCentre * faceScale - SIMD3(0, 0, cardStandOffDeltaMM)
    }

    /// This person's card corners in the face frame (mm), in `CardComposite.cornersInCard`'s order
    /// (top-left, top-right, bottom-right, bottom-left of an upright face's image), as the mesh has them.
    public var cardCorners: [SIMD3<Double>] { CardComposite.cornersInCard.map { cardCentre + $0 } }

    /// Rotation centres in the face frame: behind the pupil plane so that a pupil looking straight
    /// ahead sits 0.6 mm in front of the sclera plane (z = 0).
    public var rotationCentres: [SIMD3<Double>] {
        let r = EyeRotationModel().pupilToRotationCentreMM
        return [SIMD3(-farPD / 2, 0, r - 0.6), SIMD3(farPD / 2, 0, r - 0.6)]
    }

    /// Pupils (face frame) fixating the camera.
    public func pupils(cameraFromFace: RigidTransform) -> [SIMD3<Double>] {
        let cameraInFace = cameraFromFace.inverse.translation
        return EyeRotationModel().pupils(centres: rotationCentres, fixating: cameraInFace)
    }

    /// Truth near PD (along the face's x axis) and far PD.
    public func truth(cameraFromFace: RigidTransform) -> (near: Double, far: Double) {
        let p = pupils(cameraFromFace: cameraFromFace)
        return (abs(p[1].x - p[0].x), farPD)
    }

    static func transform(_ t: RigidTransform, scale: Double = 1) -> Transform3D {
        let m = t.rotation.matrix
        func f(_ v: SIMD3<Double>) -> SIMD3<Float> { SIMD3(Float(v.x), Float(v.y), Float(v.z)) }
        return Transform3D(columns: f(m.c0 * scale), f(m.c1 * scale), f(m.c2 * scale), translation: f(t.translation))
    }

    public func render(cameraFromFace: RigidTransform, camera: CameraIntrinsics, lighting: Lighting = .studio, withCard: Bool = false) -> RGBImage {
        var image = RGBImage(width: camera.width, height: camera.height)
        for y in 0..<camera.height {
            let g = UInt8(150 - 60 * y / camera.height)
            for x in 0..<camera.width { image[x, y] = (g, g, UInt8(Int(g) + 10)) }
        }
        let renderer = SceneRenderer(lighting: lighting)
        renderer.beginFrame(width: camera.width, height: camera.height)
        let pin = PinholeCamera(fx: Float(camera.fx), fy: Float(camera.fy), cx: Float(camera.cx), cy: Float(camera.cy),
                                width: camera.width, height: camera.height)
        let model = Self.transform(cameraFromFace)
        renderer.draw(head, modelToWorld: Self.transform(cameraFromFace, scale: faceScale), camera: pin, into: &image)
        renderer.draw(RenderableMesh(eyeMesh(cameraFromFace: cameraFromFace)), modelToWorld: model, camera: pin, into: &image)
        if withCard {
            // Over the skin: the card touches the forehead, and a card moved back must not sink into it.
            renderer.beginFrame(width: camera.width, height: camera.height)
            let offset = cardCentre - Self.cardCentre
            let placed = RigidTransform(rotation: cameraFromFace.rotation,
                                        translation: cameraFromFace.translation + cameraFromFace.rotation.matrix * offset)
            renderer.draw(card, modelToWorld: Self.transform(placed), camera: pin, into: &image)
        }
        return image
    }

    // MARK: Meshes

    static func headMesh(face: MeanFace, photo: RGBImage, landmarks: [SIMD2<Float>]) -> Mesh {
        let xy = face.landmarks.map { SIMD2($0.x, $0.y) }
        let tpsU = ThinPlateSpline(centres: xy, values: landmarks.map { Double($0.x) })
        let tpsV = ThinPlateSpline(centres: xy, values: landmarks.map { Double($0.y) })
        // Depth: the landmarks plus a forehead, temples and cheeks so the surface closes like a head.
        var zc = xy, zv = face.landmarks.map { $0.z }
        let extra: [SIMD3<Double>] = [[0, -45, -12], [-25, -45, -8], [25, -45, -8], [-45, -40, 5], [45, -40, 5], [0, -85, -6],
                                      [-30, -85, 0], [30, -85, 0], [-58, -75, 22], [58, -75, 22], [-76, -30, 50], [76, -30, 50],
                                      [-80, 20, 56], [80, 20, 56], [-72, 65, 52], [72, 65, 52], [0, 125, 28], [-40, 118, 42], [40, 118, 42]]
        for e in extra { zc.append(SIMD2(e.x, e.y)); zv.append(e.z) }
        let tpsZ = ThinPlateSpline(centres: zc, values: zv, lambda: 1)
        let step = 2.5, xs = stride(from: -82.5, through: 82.5, by: step).map { $0 }, ys = stride(from: -100.0, through: 125, by: step).map { $0 }
        var positions: [SIMD3<Float>] = [], uvs: [SIMD2<Float>] = []
        for y in ys {
            for x in xs {
                var z = tpsZ(SIMD2(x, y))
                if y < -24 { z = max(z, -13.5) }
                let u = (tpsU(SIMD2(x, y)) + 0.5) / Double(photo.width), v = (tpsV(SIMD2(x, y)) + 0.5) / Double(photo.height)
                positions.append(SIMD3(Float(x), Float(y), Float(z)))
                uvs.append(SIMD2(Float(u), Float(v)))
            }
        }
        var indices: [UInt32] = []
        let nx = xs.count
        for j in 0..<(ys.count - 1) {
            for i in 0..<(nx - 1) {
                let a = UInt32(j * nx + i), b = a + 1, c = a + UInt32(nx), d = c + 1
                indices += [a, c, b, b, c, d]
            }
        }
        var normals = NormalGenerator.vertexNormals(positions: positions, indices: indices)
        if normals[normals.count / 2].z > 0 {
            for t in 0..<(indices.count / 3) { indices.swapAt(3 * t + 1, 3 * t + 2) }
            normals = NormalGenerator.vertexNormals(positions: positions, indices: indices)
        }
        let texture = Texture(image: RGBAImage(rgb: photo), wrapU: .clampToEdge, wrapV: .clampToEdge)
        let skin = Material(name: "skin", baseColorTexture: 0, metallic: 0, roughness: 0.9)
        return Mesh(primitives: [MeshPrimitive(name: "head", positions: positions, normals: normals, uvs: uvs, indices: indices, materialIndex: 0)],
                    materials: [skin], textures: [texture])
    }

    static func cardMesh() -> Mesh {
        let c = SIMD3<Float>(Float(cardCentre.x), Float(cardCentre.y), Float(cardCentre.z))
        let positions = CardComposite.cornersInCard.map { c + SIMD3<Float>(Float($0.x), Float($0.y), Float($0.z)) }
        let normals = [SIMD3<Float>](repeating: [0, 0, -1], count: 4)
        let material = Material(name: "card", baseColor: [0.78, 0.84, 0.92, 1], metallic: 0, roughness: 0.8, doubleSided: true)
        return Mesh(primitives: [MeshPrimitive(name: "card", positions: positions, normals: normals, uvs: [], indices: [0, 1, 2, 0, 2, 3], materialIndex: 0)],
                    materials: [material])
    }

    /// Sclera (the eye opening at z = 0), iris and pupil discs (facing the camera, clipped to the opening).
    ///
    /// Each disc is a true circle in the plane facing the camera, and is clipped by the eye opening as
    /// the camera sees it (the opening projected from the camera onto the disc's plane). It is drawn a
    /// little in front of the pupil along the ray to the camera, with its radius shrunk to keep the
    /// pupil's projected size, so that a disc tilted by a turned head does not sink behind the flat
    /// sclera (a real cornea bulges): before, a 15° yaw hid half of each iris and the pupils came out
    /// 4–6 px off (issue 24).
    func eyeMesh(cameraFromFace: RigidTransform) -> Mesh {
        let pupils = pupils(cameraFromFace: cameraFromFace)
        let cameraInFace = cameraFromFace.inverse.translation
        var prims: [MeshPrimitive] = []
        for e in 0..<2 {
            let opening = (e == 0 ? Array(36...41) : Array(42...47)).map { SIMD3(face.landmarks[$0].x * faceScale, face.landmarks[$0].y * faceScale, 0) }
            // Sclera fan.
            prims.append(Self.polygon(opening, material: 0, name: "sclera"))
            let toCamera = cameraInFace - pupils[e]
            let n = toCamera.normalized  // disc normal towards the camera
            // An orthonormal basis of the disc plane.
            let u = SIMD3<Double>(0, 1, 0).cross(n).normalized, v = n.cross(u)
            for (radius, lift, material) in [(irisDiameter / 2, 2.5, 1), (1.75, 2.55, 2)] {
                let centre = pupils[e] + n * lift
                let r = radius * (toCamera.length - lift) / toCamera.length
                // The opening seen from the camera, on the disc's plane, in (u, v).
                let clipper: [SIMD2<Double>] = opening.map { q in
                    let d = q - cameraInFace
                    let t = n.dot(centre - cameraInFace) / n.dot(d)
                    let onPlane = cameraInFace + d * t - centre
                    return SIMD2(onPlane.dot(u), onPlane.dot(v))
                }
                var disc: [SIMD2<Double>] = (0..<64).map { k in
                    let t = Double(k) / 64 * 2 * .pi
                    return SIMD2(r * cos(t), r * sin(t))
                }
                disc = Self.clip(disc, to: clipper)
                guard disc.count >= 3 else { continue }
                prims.append(Self.polygon(disc.map { centre + u * $0.x + v * $0.y }, material: material, name: material == 1 ? "iris" : "pupil"))
            }
        }
        let materials = [Material(name: "sclera", baseColor: [0.85, 0.83, 0.8, 1], metallic: 0, roughness: 1),
                         Material(name: "iris", baseColor: [0.05, 0.03, 0.02, 1], metallic: 0, roughness: 1),
                         Material(name: "pupil", baseColor: [0.01, 0.01, 0.01, 1], metallic: 0, roughness: 1)]
        return Mesh(primitives: prims, materials: materials)
    }

    static func polygon(_ pts: [SIMD3<Double>], material: Int, name: String) -> MeshPrimitive {
        let c = pts.reduce(SIMD3<Double>.zero, +) / Double(pts.count)
        var positions = [SIMD3<Float>(Float(c.x), Float(c.y), Float(c.z))]
        positions += pts.map { SIMD3(Float($0.x), Float($0.y), Float($0.z)) }
        var indices: [UInt32] = []
        for k in 0..<pts.count { indices += [0, UInt32(1 + k), UInt32(1 + (k + 1) % pts.count)] }
        var normals = NormalGenerator.vertexNormals(positions: positions, indices: indices)
        if normals[0].z > 0 {
            for t in 0..<(indices.count / 3) { indices.swapAt(3 * t + 1, 3 * t + 2) }
            normals = NormalGenerator.vertexNormals(positions: positions, indices: indices)
        }
        return MeshPrimitive(name: name, positions: positions, normals: normals, uvs: [], indices: indices, materialIndex: material)
    }

    /// Sutherland–Hodgman clip of `poly` by the convex polygon `clipper`.
    static func clip(_ poly: [SIMD2<Double>], to clipper: [SIMD2<Double>]) -> [SIMD2<Double>] {
        let c = clipper.reduce(SIMD2<Double>.zero, +) / Double(clipper.count)
        var out = poly
        for i in clipper.indices {
            let a = clipper[i], b = clipper[(i + 1) % clipper.count]
            let d = b - a
            func side(_ p: SIMD2<Double>) -> Double { d.x * (p.y - a.y) - d.y * (p.x - a.x) }
            let inside = side(c) > 0
            func isIn(_ p: SIMD2<Double>) -> Bool { (side(p) > 0) == inside }
            var next: [SIMD2<Double>] = []
            for k in out.indices {
                let p = out[k], q = out[(k + 1) % out.count]
                if isIn(p) { next.append(p) }
                if isIn(p) != isIn(q) {
                    let sp = side(p), sq = side(q)
                    next.append(p + (q - p) * (sp / (sp - sq)))
                }
            }
            out = next
            if out.isEmpty { break }
        }
        return out
    }
}
