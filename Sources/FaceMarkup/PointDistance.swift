/// The one measure of how far apart two shapes are: the mean Euclidean distance between
/// corresponding points. Training's NME (`AlignmentError`) and detection mode's agreement tests
/// (`LandmarkCascade`) both use it, so they cannot drift apart.
public enum PointDistance {
    /// Mean distance over `indices` (all points when nil), in the shapes' units.
    @inlinable
    public static func mean<A: Collection<SIMD2<Float>>, B: Collection<SIMD2<Float>>>(
        _ a: A, _ b: B, indices: ClosedRange<Int>? = nil
    ) -> Float where A.Index == Int, B.Index == Int {
        let r = indices ?? 0...(max(a.count, 1) - 1)
        guard !a.isEmpty else { return 0 }
        var sum: Float = 0
        for i in r {
            let d = a[a.startIndex + i] - b[b.startIndex + i]
            sum += (d * d).sum().squareRoot()
        }
        return sum / Float(r.count)
    }
}
