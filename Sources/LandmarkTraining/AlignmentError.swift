import FaceData
import FaceMarkup

/// Landmark error measures of the 300-W protocol (Sagonas et al. 2013).
///
/// NME is the mean point-to-point Euclidean error divided by a normalising distance of the *true*
/// shape: the inter-ocular distance (outer eye corners 36 and 45) or the inter-pupil distance
/// (eye-contour centres). For markups other than 68 points the box diagonal is used.
public enum AlignmentError {
    public static func meanError(_ predicted: [SIMD2<Float>], _ truth: [SIMD2<Float>], indices: ClosedRange<Int>? = nil) -> Float {
        PointDistance.mean(predicted, truth, indices: indices ?? 0...(truth.count - 1))
    }

    /// Inter-ocular distance of the true shape (68 points), else its landmark box diagonal.
    public static func normaliser(_ truth: [SIMD2<Float>]) -> Float {
        if truth.count == IBUG68.count { return IBUG68.interOcular(truth) }
        let b = boxDiagonal(truth)
        return b
    }

    public static func interPupilNormaliser(_ truth: [SIMD2<Float>]) -> Float {
        truth.count == IBUG68.count ? IBUG68.interPupil(truth) : boxDiagonal(truth)
    }

    static func boxDiagonal(_ s: [SIMD2<Float>]) -> Float {
        var lo = s[0], hi = s[0]
        for p in s { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        let d = hi - lo
        return (d * d).sum().squareRoot()
    }
}
