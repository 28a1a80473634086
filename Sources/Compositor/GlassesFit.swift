import FaceModel
import Foundation
import Meshes

/// A glasses model fitted to the metric mean face: the canonical model with its temples opened to
/// the head width (`mesh`, still in the canonical glasses frame of `CanonicalGlasses`: millimetres,
/// +x the wearer's left, +y up, +z out of the front) and the rigid `faceFromGlasses` placement that
/// puts it on the face frame of `MeanFace` (millimetres, origin between the pupils, +x the
/// subject's left, +y down, +z into the head). A try-on draws `mesh` with
/// `cameraFromFace * faceFromGlasses`.
///
/// Placement, following how optometrists fit frames (e.g. ISO 13666 vertex distance, boxing system):
/// - orientation: the 180° rotation about x between the glasses' y-up, temples-towards-−z frame and
///   the face's y-down, z-into-the-head frame (no mirroring: the wearer's left stays +x), then the
///   pantoscopic tilt (`pantoscopicTiltDegrees`, 8°: the lens plane leans from vertical with its lower
///   edge towards the cheeks, as frames are fitted — 8–10° is the usual range; vertical is the face
///   frame's y axis, which `MeanFace` orients with the Frankfort plane level) about the lens centre;
/// - depth: the lens plane (the canonical bridge's z, the front of the frame at the nose) sits
///   `vertexDistanceMM` (12 mm) in front of the cornea, i.e. at the pupils' z minus 12 mm;
/// - height: the front's vertical centre (canonical y = 0, the boxing centre) sits
///   `lensCentreBelowPupilsMM` below the pupils (fitters put the pupil at or a little above the
///   lens centre), which leaves the bridge on the nose at or slightly above pupil height, as real
///   frames sit;
/// - temples: each temple is first tilted about its hinge's horizontal axis so it passes over the
///   ear at the ear point's height (plus `templeRestAboveEarMM`), then bends twice about vertical axes, like a real temple adjusted to a head.
///   At the hinge it opens towards a point `templeClearanceMM` outside the ear point (the top of the
///   ear attachment, i.e. the head width), or wider when its inner surface would otherwise pass
///   less than `headClearanceMM` from the head's side (half breadth: the larger of the mean face's
///   temple x and its ear x less 2 mm, 70.5 mm, the width of `HeadOccluder`) near the temple
///   point. Where it meets the side of the head (5 mm behind the temple point) it turns back towards
///   the ear, no further in than the head allows. Each bend is blended in over `hingeBlendMM`, so
///   triangles straddling it stay connected; the front never moves.
/// - narrow frames (whose temples, swung towards the ears, would cut the head's front): real temples
///   flex instead of swinging at the hinge, so each leaves the hinge straight back, bows outwards
///   (a smoothstep offset, no kink) just enough to clear the head by where it meets the side of the
///   head, then runs straight to the ear (`templeBowMM`).
/// The frame keeps its real size: a try-on shows how this frame would look, so it is never
/// rescaled to the face.
public struct GlassesFit: Sendable {
    /// Tunable fitting constants (millimetres).
    public struct Options: Sendable, Equatable {
        /// Cornea (pupil plane) to lens plane distance; 12 mm is the usual fitting value.
        public var vertexDistanceMM: Float = 12
        /// Lens plane's angle from vertical (the face's y axis), lower edge towards the cheeks, degrees.
        public var pantoscopicTiltDegrees: Float = 8
        /// How far the boxing centre of the lenses sits below the pupils.
        public var lensCentreBelowPupilsMM: Float = 2
        /// Gap between the temple's centre line and the ear point, outwards: temples are a few
        /// millimetres thick and must run outside the head.
        public var templeClearanceMM: Float = 2.5
        /// Distance behind the hinge over which the temple turn is blended in.
        public var hingeBlendMM: Float = 4
        /// Height of the temple's centre above the ear point where it rests on the ear.
        public var templeRestAboveEarMM: Float = 1.5
        /// Gap between the head's side and the temple's inner surface.
        public var headClearanceMM: Float = 1
        public init() {}
    }

    /// The canonical model with the temples opened (canonical glasses frame, mm).
    public var mesh: Mesh
    /// What the fit was made from, so it can be redone for another head width.
    public let glasses: CanonicalGlasses
    public let face: MeanFace
    public let options: Options
    /// Canonical glasses frame → mean face frame (rigid).
    public var faceFromGlasses: Transform3D
    /// The detected regions of the unopened model (canonical frame).
    public var regions: GlassesRegions
    /// Temple opening, degrees, outward positive: wearer's right (−x), left (+x). At the hinge for
    /// temples swung open; for bowed temples (narrow frames) the angle of the chord from the hinge
    /// to where the temple passes the ear.
    public var templeOpeningDegrees: SIMD2<Float>
    /// Outward bow of each temple in mm (0 when the temple is swung at the hinge instead): narrow frames.
    public var templeBowMM: SIMD2<Float>
    /// Temple tilt about the hinge's horizontal axis, degrees, raising the ear end positive.
    public var templeTiltDegrees: SIMD2<Float>
    /// Fitted points in the face frame (mm): bridge, hinges and temple ends (image-left first:
    /// the subject's right, −x).
    public var bridge: SIMD3<Float>
    public var hinges: [SIMD3<Float>]
    public var templeEnds: [SIMD3<Float>]

    /// The same frame fitted to a head `scale` times as wide as this fit's (temple and ear points
    /// moved sideways; see `MeanFace.withHeadWidth`): the temples open to the observed head.
    public func forHeadWidth(scale: Double) -> GlassesFit {
        GlassesFit(glasses: glasses, face: face.withHeadWidth(scale: scale), options: options)
    }

    public init(glasses: CanonicalGlasses, face: MeanFace, options: Options = Options()) {
        self.glasses = glasses
        self.face = face
        self.options = options
        let regions = glasses.regions
        self.regions = regions
        let pupilY = Float((face.pupils[0].y + face.pupils[1].y) / 2)
        let pupilZ = Float((face.pupils[0].z + face.pupils[1].z) / 2)
        // 180° about x: (x, y, z) → (x, −y, −z).
        let flip = Transform3D(columns: [1, 0, 0], [0, -1, 0], [0, 0, -1])
        let lensPlaneZ = regions.bridge.z
        let target = SIMD3<Float>(0, pupilY + options.lensCentreBelowPupilsMM, pupilZ - options.vertexDistanceMM)
        // Pantoscopic tilt about the face's x axis through the lens centre: (y, z) → (y c − z s, y s + z c),
        // so a point below the centre (y > 0) moves into the head (z grows) for a positive angle.
        let pantoscopic = Transform3D.rotation(axis: [1, 0, 0], radians: options.pantoscopicTiltDegrees * .pi / 180)
        // face = pantoscopic · flip · (g − (0, 0, lensPlaneZ)) + target
        let faceFromGlasses = Transform3D.translation(target) * pantoscopic * flip * Transform3D.translation([0, 0, -lensPlaneZ])
        self.faceFromGlasses = faceFromGlasses
        let glassesFromFace = faceFromGlasses.inverse

        var mesh = glasses.mesh
        var opening = SIMD2<Float>(0, 0)
        var tilt = SIMD2<Float>(0, 0)
        var bows = SIMD2<Float>(0, 0)
        var ends: [SIMD3<Float>] = []
        // Side −1 is the wearer's right (image left), paired with ears[0].
        for (k, side) in [Float(-1), 1].enumerated() {
            let hinge = side < 0 ? regions.rightHinge : regions.leftHinge
            var end = side < 0 ? regions.rightTempleEnd : regions.leftTempleEnd
            var ear = glassesFromFace.apply(SIMD3<Float>(Float(face.ears[k].x), Float(face.ears[k].y), Float(face.ears[k].z)))
            ear.x += side * options.templeClearanceMM
            // Angles in the horizontal (x, z) plane, measured from straight back (−z), outward positive.
            func outwardAngle(_ v: SIMD3<Float>) -> Float { atan2f(side * (v.x - hinge.x), hinge.z - v.z) }
            let length = hinge.z - end.z
            guard length > 1, hinge.z - ear.z > 1 else { ends.append(end); continue }
            let start = hinge.z - 1
            // Tilt: turn the temple about the hinge's horizontal axis so it reaches the ear at the
            // ear's height (models often draw the temples sloping down for a tilted front). Measured
            // on the temple where it passes the ear, not at its end, which may drop behind the ear.
            let nearEar = mesh.primitives.flatMap { $0.positions }.filter { $0.x * side > 0 && abs($0.z - ear.z) < 5 }
            if nearEar.count >= 2, hinge.z - ear.z > 20 {
                let height = nearEar.reduce(Float(0)) { $0 + $1.y } / Float(nearEar.count)
                let run = hinge.z - ear.z
                let beta = atan2f(ear.y + options.templeRestAboveEarMM - hinge.y, run) - atan2f(height - hinge.y, run)
                if abs(beta) < 0.45 {
                    for p in mesh.primitives.indices {
                        for v in mesh.primitives[p].positions.indices {
                            let q = mesh.primitives[p].positions[v]
                            guard q.x * side > 0, q.z < start else { continue }
                            let b = beta * max(0, min(1, (start - q.z) / options.hingeBlendMM))
                            let c = cosf(b), s = sinf(b)
                            let d = q - hinge
                            mesh.primitives[p].positions[v] = hinge + SIMD3<Float>(d.x, d.y * c - d.z * s, d.y * s + d.z * c)
                            let n = mesh.primitives[p].normals[v]
                            mesh.primitives[p].normals[v] = SIMD3<Float>(n.x, n.y * c - n.z * s, n.y * s + n.z * c)
                        }
                    }
                    let d = end - hinge
                    end = hinge + SIMD3<Float>(d.x, d.y * cosf(beta) - d.z * sinf(beta), d.y * sinf(beta) + d.z * cosf(beta))
                    tilt[k] = beta * 180 / .pi
                }
            }
            // Canonical z of the face depth where the temple reaches the side of the head.
            let pivotZ = lensPlaneZ + target.z - (Float(face.temples[k].z) + 5)
            let along = (pivotZ - hinge.z) / (end.z - hinge.z)
            let pivot = hinge + (end - hinge) * max(0, min(1, along))
            // Rotation about +y by α maps (x, z) → (x cos α + z sin α, −x sin α + z cos α); turning a
            // backward vector outward on the +x side needs α < 0, on the −x side α > 0. Each bend's
            // weight rises from 0 to 1 over `hingeBlendMM` behind its pivot (original z).
            func rotate(_ v: SIMD3<Float>, about o: SIMD3<Float>, _ outward: Float) -> SIMD3<Float> {
                let a = -side * outward
                let c = cosf(a), s = sinf(a)
                let d = v - o
                return o + SIMD3<Float>(d.x * c + d.z * s, d.y, -d.x * s + d.z * c)
            }
            func weight(_ q: SIMD3<Float>, _ from: Float) -> Float { max(0, min(1, (from - q.z) / options.hingeBlendMM)) }
            func bent(_ q: SIMD3<Float>, _ d1: Float, _ d2: Float) -> SIMD3<Float> {
                let first = rotate(q, about: hinge, d1 * weight(q, start))
                let w2 = weight(q, pivotZ)
                return w2 > 0 ? rotate(first, about: rotate(pivot, about: hinge, d1), d2 * w2) : first
            }
            // Moves this side's temple vertices (behind `start`) by `move`, which gives a vertex its new
            // place and the turn about +y (radians) of the surface there; normals turn with it.
            func bendTemple(_ move: (SIMD3<Float>) -> (SIMD3<Float>, Float)) {
                for p in mesh.primitives.indices {
                    var positions = mesh.primitives[p].positions
                    var normals = mesh.primitives[p].normals
                    for v in positions.indices {
                        let q = positions[v]
                        guard q.x * side > 0, q.z < start else { continue }
                        let (moved, a) = move(q)
                        positions[v] = moved
                        let n = normals[v], c = cosf(a), s = sinf(a)
                        normals[v] = SIMD3<Float>(n.x * c + n.z * s, n.y, -n.x * s + n.z * c)
                    }
                    mesh.primitives[p].positions = positions
                    mesh.primitives[p].normals = normals
                }
            }
            let templeVertices = mesh.primitives.flatMap { $0.positions }.filter { $0.x * side > 0 && $0.z < start }
            let headHalfWidth = max(abs(Float(face.temples[k].x)), abs(Float(face.ears[k].x)) - 2) + options.headClearanceMM
            let sideFrom = Float(face.temples[k].z) - 10, sideTo = Float(face.ears[k].z) - 5
            func cutsTheHead(_ d1: Float, _ d2: Float, _ zFrom: Float, _ zTo: Float) -> Bool {
                templeVertices.contains { q in
                    let f = faceFromGlasses.apply(bent(q, d1, d2))
                    return f.z >= zFrom && f.z <= zTo && f.x * side < headHalfWidth
                }
            }
            // Smallest opening ≥ `from` for which `cuts` is false (bisection; at most 40° more).
            func smallest(from: Float, _ cuts: (Float) -> Bool) -> Float {
                guard cuts(from) else { return from }
                var lo = from, hi = from + 0.7
                if cuts(hi) { return hi }
                for _ in 0..<20 {
                    let mid = (lo + hi) / 2
                    if cuts(mid) { lo = mid } else { hi = mid }
                }
                return hi
            }
            // First bend, at the hinge: towards the ear, or wider when the head's front needs it.
            let towardsEar = outwardAngle(ear) - outwardAngle(end)
            let pivotFaceZ = Float(face.temples[k].z) + 5
            let bowLength = start - pivotZ
            if cutsTheHead(towardsEar, 0, sideFrom, pivotFaceZ), bowLength > 5 {
                // A frame narrower than the head: a real temple is not swung out at the hinge but
                // flexes, so it leaves the hinge straight back and bows outwards until it runs along
                // the side of the head (smoothstep over `bowLength`: no kink at either end), then
                // straight to the ear, no further in than the head allows.
                let earDistance = start - ear.z
                let straightXAtEar = hinge.x + (end.x - hinge.x) * (hinge.z - ear.z) / max(hinge.z - end.z, 1)
                let wantAtEar = side * (ear.x - straightXAtEar)
                func offset(_ q: SIMD3<Float>, _ bow: Float, _ lean: Float) -> (Float, Float) {
                    let d = start - q.z
                    guard d > 0 else { return (0, 0) }
                    let t = min(d / bowLength, 1)
                    let value = bow * t * t * (3 - 2 * t) + max(0, d - bowLength) * tanf(lean)
                    let slope = d < bowLength ? bow * 6 * t * (1 - t) / bowLength : tanf(lean)
                    return (value, slope)
                }
                func bowed(_ q: SIMD3<Float>, _ bow: Float, _ lean: Float) -> SIMD3<Float> {
                    SIMD3(q.x + side * offset(q, bow, lean).0, q.y, q.z)
                }
                func cutsBowed(_ bow: Float, _ lean: Float, _ zFrom: Float, _ zTo: Float) -> Bool {
                    templeVertices.contains { q in
                        let f = faceFromGlasses.apply(bowed(q, bow, lean))
                        return f.z >= zFrom && f.z <= zTo && f.x * side < headHalfWidth
                    }
                }
                // Smallest bow (mm) clearing the head's front, then the smallest lean from the
                // ear direction clearing the head further back.
                var lo: Float = 0, hi: Float = 40
                if cutsBowed(hi, 0, sideFrom, pivotFaceZ) { lo = hi }
                for _ in 0..<20 where hi - lo > 0.01 {
                    let mid = (lo + hi) / 2
                    if cutsBowed(mid, 0, sideFrom, pivotFaceZ) { lo = mid } else { hi = mid }
                }
                let bow = hi
                let leanToEar = earDistance > bowLength + 1 ? atanf((wantAtEar - bow) / (earDistance - bowLength)) : 0
                var lean = smallest(from: leanToEar) { cutsBowed(bow, $0, pivotFaceZ, sideTo) }
                // No lean clears the head (a temple tip curving in behind the ear): aim at the ear and
                // let the occluder hide the tip rather than swinging the temple out like a wing.
                if lean >= leanToEar + 0.69 { lean = leanToEar }
                opening[k] = atanf(offset(SIMD3(hinge.x, hinge.y, ear.z), bow, lean).0 / max(earDistance, 1)) * 180 / .pi
                // The surface turns with the centre line's local slope.
                bendTemple { q in (bowed(q, bow, lean), -side * atanf(offset(q, bow, lean).1)) }
                ends.append(bowed(end, bow, lean))
                bows[k] = bow
                continue
            }
            let d1 = smallest(from: towardsEar) { cutsTheHead($0, 0, sideFrom, pivotFaceZ) }
            // Second bend, where the temple meets the side of the head: back towards the ear,
            // unless that would cut the head further back.
            let pivotNow = rotate(pivot, about: hinge, d1), endNow = rotate(end, about: hinge, d1)
            func angle(_ v: SIMD3<Float>) -> Float { atan2f(side * (v.x - pivotNow.x), pivotNow.z - v.z) }
            let d2 = along > 0 && along < 1 ? smallest(from: angle(ear) - angle(endNow)) { cutsTheHead(d1, $0, pivotFaceZ, sideTo) } : 0
            opening[k] = d1 * 180 / .pi
            bendTemple { q in (bent(q, d1, d2), -side * (d1 * weight(q, start) + d2 * weight(q, pivotZ))) }
            ends.append(bent(end, d1, d2))
        }
        self.mesh = mesh
        templeOpeningDegrees = opening
        templeTiltDegrees = tilt
        templeBowMM = bows
        bridge = faceFromGlasses.apply(regions.bridge)
        hinges = [faceFromGlasses.apply(regions.rightHinge), faceFromGlasses.apply(regions.leftHinge)]
        templeEnds = ends.map { faceFromGlasses.apply($0) }
    }
}
