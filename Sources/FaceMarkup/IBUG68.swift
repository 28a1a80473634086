/// The iBUG / Multi-PIE 68-point face markup used by 300-W, and facts about it that every stage
/// shares. "Left"/"right" are image left/right for a face looking at the camera.
public enum IBUG68 {
    public static let count = 68

    public static let jaw = 0...16
    public static let brows = 17...26
    public static let nose = 27...35
    public static let eyes = 36...47
    public static let mouth = 48...67
    /// Image-left eye (the subject's right): 36 outer corner ... 39 inner corner.
    public static let leftEye = 36...41
    public static let rightEye = 42...47
    /// Outer eye corners: the 300-W normalisation distance ("inter-ocular").
    public static let outerEyeCorners = (36, 45)

    public static let regions: [(name: String, indices: ClosedRange<Int>)] = [
        ("jaw", jaw), ("brows", brows), ("nose", nose), ("eyes", eyes), ("mouth", mouth),
    ]

    /// `mirror[i]` is the index of point i's counterpart after a horizontal flip
    /// (x' = width - 1 - x): jaw 0<->16, brows 17<->26, eyes 36<->45, mouth 48<->54, ...
    public static let mirror: [Int] = {
        var m = Array(0..<68)
        func swap(_ a: Int, _ b: Int) { m[a] = b; m[b] = a }
        for i in 0...7 { swap(i, 16 - i) }                         // jaw
        for i in 0...4 { swap(17 + i, 26 - i) }                    // brows
        swap(31, 35); swap(32, 34)                                 // nostrils
        swap(36, 45); swap(37, 44); swap(38, 43); swap(39, 42)     // eyes: corners and upper lids
        swap(41, 46); swap(40, 47)                                 // lower lids
        swap(48, 54); swap(49, 53); swap(50, 52)                   // outer upper lip
        swap(59, 55); swap(58, 56)                                 // outer lower lip
        swap(60, 64); swap(61, 63); swap(67, 65)                   // inner lip
        return m
    }()

    /// Centre of each eye contour (image-left eye first): the pupil proxy before refinement.
    public static func eyeCentres(_ shape: [SIMD2<Float>]) -> (left: SIMD2<Float>, right: SIMD2<Float>) {
        var l = SIMD2<Float>(0, 0), r = SIMD2<Float>(0, 0)
        for i in leftEye { l += shape[i] }
        for i in rightEye { r += shape[i] }
        return (l / 6, r / 6)
    }

    /// Distance between the outer eye corners (36, 45).
    public static func interOcular(_ shape: [SIMD2<Float>]) -> Float {
        let d = shape[outerEyeCorners.0] - shape[outerEyeCorners.1]
        return (d * d).sum().squareRoot()
    }

    /// Distance between the eye-contour centres.
    public static func interPupil(_ shape: [SIMD2<Float>]) -> Float {
        let (l, r) = eyeCentres(shape)
        let d = l - r
        return (d * d).sum().squareRoot()
    }

    /// The shape of a horizontally flipped image of width `width` (pixel-centre convention).
    public static func mirrored(_ shape: [SIMD2<Float>], imageWidth width: Int) -> [SIMD2<Float>] {
        var out: [SIMD2<Float>] = []
        mirrored(shape, imageWidth: width, into: &out)
        return out
    }

    /// `mirrored(_:imageWidth:)` into `out`, whose storage is reused (per-frame callers).
    public static func mirrored(_ shape: [SIMD2<Float>], imageWidth width: Int, into out: inout [SIMD2<Float>]) {
        let w = Float(width - 1)
        if out.count != shape.count { out = [SIMD2<Float>](repeating: .zero, count: shape.count) }
        for i in 0..<shape.count {
            let p = shape[mirror[i]]
            out[i] = SIMD2(w - p.x, p.y)
        }
    }
}
