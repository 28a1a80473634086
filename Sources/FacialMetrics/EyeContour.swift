/// The six landmarks of one eye (iBUG order: corner, two upper-lid points, corner, two lower-lid
/// points), in pixels with the pixel-centre convention, and what they tell without looking at pixels:
/// the eye axis, its width and the eye aspect ratio.
public struct EyeContour: Sendable {
    public var points: [SIMD2<Float>]

    /// `points` must hold six points in iBUG order (36–41 or 42–47).
    public init(points: [SIMD2<Float>]) {
        precondition(points.count == 6, "an eye contour has six points")
        self.points = points
    }

    /// The image-left eye (landmarks 36–41, the subject's right) and the image-right eye (42–47).
    public static func pair(from landmarks: [SIMD2<Float>]) -> [EyeContour] {
        precondition(landmarks.count >= 48, "68 landmarks expected")
        return [EyeContour(points: Array(landmarks[36...41])), EyeContour(points: Array(landmarks[42...47]))]
    }

    /// Corner to corner, image left to image right (pixels).
    public var width: Float { length(points[3] - points[0]) }
    /// Midpoint of the corners.
    public var cornerMidpoint: SIMD2<Float> { (points[0] + points[3]) / 2 }
    /// Mean of the six points: the rough eye centre used before refinement.
    public var centroid: SIMD2<Float> { points.reduce(.zero, +) / 6 }
    /// Unit vector from the image-left corner to the image-right corner.
    public var axis: SIMD2<Float> {
        let a = points[0].x <= points[3].x ? points[3] - points[0] : points[0] - points[3]
        let l = length(a)
        return l > 0 ? a / l : SIMD2(1, 0)
    }

    /// Eye aspect ratio (Soukupová & Čech, "Real-time eye blink detection using facial landmarks",
    /// CVWW 2016): mean lid opening over corner distance; ≈ 0.25–0.35 open, below ≈ 0.15 closed.
    public var aspectRatio: Float {
        let w = width
        guard w > 0 else { return 0 }
        return (length(points[1] - points[5]) + length(points[2] - points[4])) / (2 * w)
    }

    /// Whether `p` lies inside the contour polygon grown by `margin` pixels about its centroid.
    public func contains(_ p: SIMD2<Float>, margin: Float = 0) -> Bool {
        let c = centroid
        var inside = false
        var j = 5
        for i in 0..<6 {
            var a = points[i], b = points[j]
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
