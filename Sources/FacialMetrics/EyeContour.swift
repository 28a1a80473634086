/// The six landmarks of one eye (iBUG order: corner, two upper-lid points, corner, two lower-lid
/// points), in pixels with the pixel-centre convention, and what they tell without looking at pixels:
/// the eye axis, its width and the eye aspect ratio.
///
/// The points are stored inline (no array), so building one per frame does not allocate.
public struct EyeContour: Sendable {
    private var p0, p1, p2, p3, p4, p5: SIMD2<Float>

    /// `points` must hold six points in iBUG order (36–41 or 42–47).
    public init(points: [SIMD2<Float>]) {
        precondition(points.count == 6, "an eye contour has six points")
        (p0, p1, p2, p3, p4, p5) = (points[0], points[1], points[2], points[3], points[4], points[5])
    }

    /// The six landmarks `first ..< first + 6` of a 68-point face (36 or 42).
    public init(landmarks: [SIMD2<Float>], first: Int) {
        precondition(landmarks.count >= first + 6, "68 landmarks expected")
        (p0, p1, p2, p3, p4, p5) = (landmarks[first], landmarks[first + 1], landmarks[first + 2],
                                    landmarks[first + 3], landmarks[first + 4], landmarks[first + 5])
    }

    /// The six points in iBUG order (allocates: for reports and diagnostics).
    public var points: [SIMD2<Float>] { [p0, p1, p2, p3, p4, p5] }

    /// Point `i` (0–5) in iBUG order.
    @inline(__always) public subscript(_ i: Int) -> SIMD2<Float> {
        switch i {
        case 0: return p0
        case 1: return p1
        case 2: return p2
        case 3: return p3
        case 4: return p4
        default: return p5
        }
    }

    /// The image-left eye (landmarks 36–41, the subject's right) and the image-right eye (42–47).
    public static func pair(from landmarks: [SIMD2<Float>]) -> [EyeContour] {
        precondition(landmarks.count >= 48, "68 landmarks expected")
        return [EyeContour(landmarks: landmarks, first: 36), EyeContour(landmarks: landmarks, first: 42)]
    }

    /// Whether every point is finite.
    public var isFinite: Bool {
        (0..<6).allSatisfy { self[$0].x.isFinite && self[$0].y.isFinite }
    }

    /// Corner to corner, image left to image right (pixels).
    public var width: Float { length(p3 - p0) }
    /// Midpoint of the corners.
    public var cornerMidpoint: SIMD2<Float> { (p0 + p3) / 2 }
    /// Mean of the six points: the rough eye centre used before refinement.
    public var centroid: SIMD2<Float> { (((((SIMD2<Float>.zero + p0) + p1) + p2) + p3) + p4 + p5) / 6 }
    /// Unit vector from the image-left corner to the image-right corner.
    public var axis: SIMD2<Float> {
        let a = p0.x <= p3.x ? p3 - p0 : p0 - p3
        let l = length(a)
        return l > 0 ? a / l : SIMD2(1, 0)
    }

    /// Eye aspect ratio (Soukupová & Čech, "Real-time eye blink detection using facial landmarks",
    /// CVWW 2016): mean lid opening over corner distance; ≈ 0.25–0.35 open, below ≈ 0.15 closed.
    public var aspectRatio: Float {
        let w = width
        guard w > 0 else { return 0 }
        return (length(p1 - p5) + length(p2 - p4)) / (2 * w)
    }

    /// Mean lid opening (pixels): the distances between the two upper-lid and the two lower-lid
    /// points (37–41 and 38–40, or 43–47 and 44–46), averaged.
    public var lidOpening: Float { (length(p1 - p5) + length(p2 - p4)) / 2 }

    /// Whether `p` lies inside the contour polygon grown by `margin` pixels about its centroid.
    public func contains(_ p: SIMD2<Float>, margin: Float = 0) -> Bool {
        let c = centroid
        var inside = false
        var j = 5
        for i in 0..<6 {
            var a = self[i], b = self[j]
            if margin != 0 {
                let da = a - c, db = b - c
                let la = length(da), lb = length(db)
                if la > 0 { a += da / la * margin }
                if lb > 0 { b += db / lb * margin }
            }
            if (a.y > p.y) != (b.y > p.y) {
                let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x)
                if p.x < x { inside.toggle() }
            }
            j = i
        }
        return inside
    }
}

@inline(__always) func length(_ v: SIMD2<Float>) -> Float { (v * v).sum().squareRoot() }
