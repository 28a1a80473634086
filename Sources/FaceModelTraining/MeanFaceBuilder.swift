import FaceModel
import FaceData
import FaceMarkup
import Foundation
import Geometry

/// Builds the metric `MeanFace` from 2D 68-point annotations of many different faces.
///
/// Method (documented with the numbers in Models/README.md):
/// 1. Every shape and its mirror image (`IBUG68.mirrored`) is centred and scaled to unit RMS size.
/// 2. Rigid factorisation (Tomasi & Kanade, IJCV 1992): the rank-3 truncation of the 2F×68 measurement
///    matrix, then the metric upgrade for scaled orthography (each camera's two rows orthogonal and of
///    equal length; Morita & Kanade / Poelman & Kanade, PAMI 1997), solved linearly for `Q Qᵀ`.
/// 3. Alternation (resection/intersection under scaled orthography): each image's camera is fitted to
///    the non-jaw points; then each point is re-triangulated. Jaw points are silhouettes whose 3D
///    position slides with yaw, so they are triangulated only from images with |yaw| ≤ `jawMaxYawDegrees`.
/// 4. The face frame: x along the left→right pairs, y down (eyes to mouth), z = x × y; the depth sign
///    is chosen so the nose tip is in front of the eyes (resolving the factorisation's reflection).
/// 5. Exact mirror symmetry (`IBUG68.mirror`), metric scale from `Anthropometry` (least squares in log
///    space over ex–ex, en–en and interpupillary distance).
/// 6. Pitch reference (`levelFrankfort`): the factorisation's "frontal" is the average view of the
///    photographs, not an anatomical one (its nasion → chin line receded 16.5° from vertical). The shape
///    is turned about x so the Frankfort horizontal is level: soft-tissue pogonion on the facial angle
///    of `Anthropometry.softTissueFacialAngleDegrees` from nasion (27), menton (8) the given distances
///    behind and below it. Then pupils, temples and ears (placed level with and behind the eye corners
///    in this anatomical frame), origin between the pupils.
public struct MeanFaceBuilder: Sendable {
    public var jawMaxYawDegrees = 20.0
    public var alternations = 10

    public init() {}

    public struct Report: Sendable {
        public var faces: Int
        /// Median over images of the RMS residual of the final scaled-orthographic fit (non-jaw points),
        /// as a fraction of each shape's inter-ocular distance.
        public var medianResidual: Double
        public var jawImages: Int
        public var scaleMMPerUnit: Double
    }

    public func build(shapes input: [[SIMD2<Float>]]) throws -> (MeanFace, Report) {
        let shapes2 = input.filter { $0.count == 68 }
        guard shapes2.count >= 10 else { throw MeanFaceError("need at least 10 68-point shapes, got \(shapes2.count)") }
        // 1. Normalised observations, with mirrors (x → −x, points permuted).
        var obs: [[SIMD2<Double>]] = []
        for s in shapes2 {
            let d = s.map { SIMD2(Double($0.x), Double($0.y)) }
            obs.append(Self.normalise(d))
            obs.append(Self.normalise((0..<68).map { SIMD2(-d[IBUG68.mirror[$0]].x, d[IBUG68.mirror[$0]].y) }))
        }
        let nonJaw = Array(17..<68)

        // 2. Factorisation on centred data (centroid of the non-jaw points, as in the alternation).
        var centred = obs.map { o -> [SIMD2<Double>] in
            var c = SIMD2<Double>.zero
            for i in nonJaw { c += o[i] }
            c /= Double(nonJaw.count)
            return o.map { $0 - c }
        }
        var shape = try Self.factorise(centred)

        // 3. Alternation.
        var cameras: [(rotation: Rotation, scale: Double, offset: SIMD2<Double>)] = []
        for round in 0..<alternations {
            if round == 0 { shape = Self.orient(shape) }
            cameras = obs.map { Self.fitCamera(shape: shape, observed: $0, points: nonJaw) }
            let jawFrames = cameras.indices.filter { abs(EulerAngles(cameras[$0].rotation).yaw) <= jawMaxYawDegrees * .pi / 180 }
            let all = Array(obs.indices)
            shape = (0..<68).map { i in
                Self.triangulate(point: i, frames: i <= 16 ? jawFrames : all, cameras: cameras, observed: obs) ?? shape[i]
            }
            shape = Self.orient(shape)
        }
        centred = []
        cameras = obs.map { Self.fitCamera(shape: shape, observed: $0, points: nonJaw) }
        var residuals: [Double] = []
        for (f, o) in obs.enumerated() {
            let c = cameras[f]
            var s = 0.0
            for i in nonJaw {
                let p = c.rotation * shape[i]
                let r = c.scale * SIMD2(p.x, p.y) + c.offset - o[i]
                s += (r * r).sum()
            }
            let io = ((o[45] - o[36]) * (o[45] - o[36])).sum().squareRoot()
            residuals.append((s / Double(nonJaw.count)).squareRoot() / io)
        }
        residuals.sort()
        let jawCount = cameras.filter { abs(EulerAngles($0.rotation).yaw) <= jawMaxYawDegrees * .pi / 180 }.count

        // 5. Symmetry, scale, extra points.
        let symmetric = Self.symmetrise(shape)
        let (face, scale) = Self.metricFace(symmetric)
        var meta = face.metadata
        meta["method"] = "Tomasi-Kanade factorisation + scaled-orthographic metric upgrade + \(alternations) resection/triangulation alternations; jaw triangulated from |yaw| <= \(jawMaxYawDegrees) deg; mirrored data; exact symmetry; anthropometric scale"
        meta["faces"] = "\(shapes2.count) annotated faces (+ mirrors)"
        meta["median_fit_residual_interocular"] = String(format: "%.4f", residuals[residuals.count / 2])
        var out = face
        out.metadata = meta
        return (out, Report(faces: shapes2.count, medianResidual: residuals[residuals.count / 2], jawImages: jawCount, scaleMMPerUnit: scale))
    }

    static func normalise(_ s: [SIMD2<Double>]) -> [SIMD2<Double>] {
        var c = SIMD2<Double>.zero
        for p in s { c += p }
        c /= Double(s.count)
        var ss = 0.0
        for p in s { ss += ((p - c) * (p - c)).sum() }
        let k = 1 / max((ss / Double(s.count)).squareRoot(), 1e-12)
        return s.map { ($0 - c) * k }
    }

    /// Rank-3 factorisation and metric upgrade; returns the 68 points (arbitrary rotation, maybe reflected).
    static func factorise(_ obs: [[SIMD2<Double>]]) throws -> [SIMD3<Double>] {
        let n = 68
        var wtw = [Double](repeating: 0, count: n * n)
        for o in obs {
            for i in 0..<n {
                for j in i..<n { wtw[i * n + j] += o[i].x * o[j].x + o[i].y * o[j].y }
            }
        }
        for i in 0..<n { for j in 0..<i { wtw[i * n + j] = wtw[j * n + i] } }
        let eig = JacobiEigen(wtw, n: n)
        let v = Array(eig.vectors.prefix(3))  // rows of S (3 × 68)
        // Motion rows: m = w · V (for each image, two 3-vectors).
        var constraints: [[Double]] = []
        func sym(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> [Double] {
            // aᵀ L b for symmetric L = [l0 l1 l2; l1 l3 l4; l2 l4 l5], as coefficients of l.
            [a.x * b.x, a.x * b.y + a.y * b.x, a.x * b.z + a.z * b.x, a.y * b.y, a.y * b.z + a.z * b.y, a.z * b.z]
        }
        var rows: [(SIMD3<Double>, SIMD3<Double>)] = []
        for o in obs {
            var a = SIMD3<Double>.zero, b = SIMD3<Double>.zero
            for i in 0..<n {
                let vi = SIMD3(v[0][i], v[1][i], v[2][i])
                a += o[i].x * vi
                b += o[i].y * vi
            }
            rows.append((a, b))
            let aa = sym(a, a), bb = sym(b, b)
            constraints.append(zip(aa, bb).map { $0 - $1 })
            constraints.append(sym(a, b))
        }
        var ctc = [Double](repeating: 0, count: 36)
        for c in constraints { for i in 0..<6 { for j in 0..<6 { ctc[i * 6 + j] += c[i] * c[j] } } }
        let l = JacobiEigen(ctc, n: 6).vectors[5]
        var lm = Matrix3(rows: SIMD3(l[0], l[1], l[2]), SIMD3(l[1], l[3], l[4]), SIMD3(l[2], l[4], l[5]))
        if lm.trace < 0 { lm = -1 * lm }
        let le = SymmetricEigen3(lm)
        guard le.values.z > 0 else { throw MeanFaceError("metric upgrade failed: Q Qᵀ is not positive definite (data not face-like?)") }
        let q = le.vectors * Matrix3.diagonal(SIMD3(le.values.x.squareRoot(), le.values.y.squareRoot(), le.values.z.squareRoot()))
        guard let qi = q.inverse else { throw MeanFaceError("metric upgrade failed: singular Q") }
        return (0..<n).map { qi * SIMD3(v[0][$0], v[1][$0], v[2][$0]) }
    }

    /// Rotates (and if needed reflects) a shape into the face frame, centred on its non-jaw centroid, unit RMS.
    static func orient(_ s: [SIMD3<Double>]) -> [SIMD3<Double>] {
        var x = SIMD3<Double>.zero
        for i in 0..<68 where IBUG68.mirror[i] != i {
            // Accumulate (right partner − left partner) once per pair.
            let j = IBUG68.mirror[i]
            if i < j { x += Self.isImageLeft(i) ? s[j] - s[i] : s[i] - s[j] }
        }
        x = x.normalized
        var eyes = SIMD3<Double>.zero, mouth = SIMD3<Double>.zero
        for i in 36...47 { eyes += s[i] / 12 }
        for i in 48...67 { mouth += s[i] / 20 }
        var y = mouth - eyes
        y = (y - x * x.dot(y)).normalized
        let z = x.cross(y)
        var c = SIMD3<Double>.zero
        for i in 17..<68 { c += s[i] / 51 }
        var out = s.map { p -> SIMD3<Double> in
            let d = p - c
            return SIMD3(d.dot(x), d.dot(y), d.dot(z))
        }
        // Reflection: the nose tip must be in front of (smaller z than) the eye corners.
        let eyeZ = (out[36].z + out[39].z + out[42].z + out[45].z) / 4
        if out[30].z > eyeZ { out = out.map { SIMD3($0.x, $0.y, -$0.z) } }
        var ss = 0.0
        for p in out { ss += p.dot(p) }
        let k = 1 / (ss / 68).squareRoot()
        return out.map { $0 * k }
    }

    /// Whether point i lies on the image-left side of a frontal face (pairs are (i, mirror[i])).
    static func isImageLeft(_ i: Int) -> Bool {
        switch i {
        case 0...7, 17...21, 31, 32, 36...41, 48...50, 59, 58, 60, 61, 67: return true
        default: return false
        }
    }

    /// Scaled-orthographic camera fitted to the given points: affine least squares, then the nearest rotation.
    static func fitCamera(shape: [SIMD3<Double>], observed: [SIMD2<Double>], points: [Int]) -> (rotation: Rotation, scale: Double, offset: SIMD2<Double>) {
        var mx = SIMD3<Double>.zero, mu = SIMD2<Double>.zero
        for i in points { mx += shape[i]; mu += observed[i] }
        mx /= Double(points.count); mu /= Double(points.count)
        var xx = Matrix3.zero
        var ux = SIMD3<Double>.zero, vx = SIMD3<Double>.zero
        for i in points {
            let d = shape[i] - mx, e = observed[i] - mu
            xx = xx + Matrix3.outer(d, d)
            ux += e.x * d
            vx += e.y * d
        }
        let inv = xx.inverse ?? .identity
        let a = inv * ux, b = inv * vx
        let s = (a.length + b.length) / 2
        let r = Rotation(nearestTo: Matrix3(rows: a.normalized, b.normalized, a.normalized.cross(b.normalized).normalized))
        let p = r * mx
        return (r, s, mu - s * SIMD2(p.x, p.y))
    }

    /// Least-squares 3D position of one point from its projections under known scaled-orthographic cameras.
    static func triangulate(point i: Int, frames: [Int], cameras: [(rotation: Rotation, scale: Double, offset: SIMD2<Double>)],
                            observed: [[SIMD2<Double>]]) -> SIMD3<Double>? {
        guard frames.count >= 3 else { return nil }
        var ata = Matrix3.zero
        var atb = SIMD3<Double>.zero
        for f in frames {
            let c = cameras[f]
            let r1 = c.scale * c.rotation.matrix.r0, r2 = c.scale * c.rotation.matrix.r1
            let target = observed[f][i] - c.offset
            ata = ata + Matrix3.outer(r1, r1) + Matrix3.outer(r2, r2)
            atb += target.x * r1 + target.y * r2
        }
        return ata.inverse.map { $0 * atb }
    }

    /// Exact mirror symmetry about x = 0.
    static func symmetrise(_ s: [SIMD3<Double>]) -> [SIMD3<Double>] {
        (0..<68).map { i in
            let m = s[IBUG68.mirror[i]]
            let p = (s[i] + SIMD3(-m.x, m.y, m.z)) / 2
            return IBUG68.mirror[i] == i ? SIMD3(0, p.y, p.z) : p
        }
    }

    /// Turns a metric shape about x so that the nasion (27) → menton (8) line has the inclination it has in
    /// a face with the Frankfort horizontal level: menton lies `mentonBehindPogonionMM` behind and
    /// `mentonBelowPogonionMM` below soft-tissue pogonion, which lies on the line leaving nasion at the soft-tissue
    /// facial angle. Returns the shape and the rotation in degrees (negative: the chin came forward).
    static func levelFrankfort(_ p: [SIMD3<Double>]) -> ([SIMD3<Double>], Double) {
        let d = p[8] - p[27]
        let length = (d.y * d.y + d.z * d.z).squareRoot()
        // Pogonion height below nasion h, and menton's depth behind nasion for that height.
        let h = length - Anthropometry.mentonBelowPogonionMM
        let behind = Anthropometry.mentonBehindPogonionMM - h * Foundation.tan((Anthropometry.softTissueFacialAngleDegrees - 90) * Double.pi / 180)
        let target = Foundation.asin(max(-1, min(1, behind / length)))
        let current = Foundation.atan2(d.z, d.y)
        // Rx(α) maps (y, z) to (y cos α − z sin α, y sin α + z cos α): the angle atan2(z, y) grows by α.
        let a = target - current
        let c = Foundation.cos(a), s = Foundation.sin(a)
        return (p.map { SIMD3($0.x, $0.y * c - $0.z * s, $0.y * s + $0.z * c) }, a * 180 / Double.pi)
    }

    /// Scales to millimetres, adds pupils, temples and ears, moves the origin between the pupils.
    static func metricFace(_ s: [SIMD3<Double>]) -> (MeanFace, Double) {
        func dist(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a - b).length }
        func eyeCentre(_ r: ClosedRange<Int>) -> SIMD3<Double> { r.reduce(SIMD3<Double>.zero) { $0 + s[$1] } / 6 }
        let pairs: [(measured: Double, published: Double)] = [
            (dist(s[36], s[45]), Anthropometry.biocularWidthMM),
            (dist(s[39], s[42]), Anthropometry.intercanthalWidthMM),
            (dist(eyeCentre(IBUG68.leftEye), eyeCentre(IBUG68.rightEye)), Anthropometry.interpupillaryDistanceMM),
        ]
        let logScale = pairs.map { Foundation.log($0.published / $0.measured) }.reduce(0, +) / Double(pairs.count)
        let k = Foundation.exp(logScale)
        let (p, pitch) = levelFrankfort(s.map { $0 * k })
        func pupil(_ eye: ClosedRange<Int>) -> SIMD3<Double> {
            let lids = [eye.lowerBound + 1, eye.lowerBound + 2, eye.lowerBound + 4, eye.lowerBound + 5]
            var c = SIMD3<Double>.zero
            for i in eye { c += p[i] / 6 }
            let lidZ = lids.reduce(0.0) { $0 + p[$1].z } / 4
            return SIMD3(c.x, c.y, lidZ - Anthropometry.pupilForwardOfLidsMM)
        }
        let leftPupil = pupil(IBUG68.leftEye), rightPupil = pupil(IBUG68.rightEye)
        let origin = (leftPupil + rightPupil) / 2
        let ex = p[45]  // image-right outer corner (x > 0)
        let temple = SIMD3(Anthropometry.templeBreadthMM / 2, ex.y, ex.z + Anthropometry.templeBehindCanthusMM)
        let ear = SIMD3(Anthropometry.earBreadthMM / 2, ex.y - Anthropometry.earAboveCanthusMM, ex.z + Anthropometry.earBehindCanthusMM)
        func mirrorX(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(-v.x, v.y, v.z) }
        // Temples and ears are placed relative to the head's midline (x = 0), not the pupils' midpoint's x (also 0).
        let shift = origin
        let face = MeanFace(
            landmarks: p.map { $0 - shift },
            pupils: [leftPupil - shift, rightPupil - shift],
            temples: [mirrorX(temple) - shift, temple - shift],
            ears: [mirrorX(ear) - shift, ear - shift],
            metadata: [
                "scale_sources": "ex-ex \(Anthropometry.biocularWidthMM) mm, en-en \(Anthropometry.intercanthalWidthMM) mm (Farkas 1994); IPD \(Anthropometry.interpupillaryDistanceMM) mm (Dodgson 2004)",
                "pitch_reference": String(format: "Frankfort horizontal level: turned %.1f deg about x so soft-tissue pogonion is on a %.0f deg facial angle from nasion (27) (Holdaway 1983) with menton (8) %.0f mm behind and %.0f mm below it",
                                          pitch, Anthropometry.softTissueFacialAngleDegrees, Anthropometry.mentonBehindPogonionMM, Anthropometry.mentonBelowPogonionMM),
            ])
        return (face, k)
    }
}
