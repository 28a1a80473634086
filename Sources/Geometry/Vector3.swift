/// 3-vectors are `SIMD3<Double>`; these are the few operations the geometry code needs on them.
/// Units are whatever the caller's frame uses (millimetres for the face anchor).
extension SIMD3 where Scalar == Double {
    @inlinable public func dot(_ o: SIMD3<Double>) -> Double { (self * o).sum() }

    @inlinable public func cross(_ o: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
    }

    @inlinable public var length: Double { (self * self).sum().squareRoot() }

    /// The unit vector in this direction; the zero vector stays zero.
    @inlinable public var normalized: SIMD3<Double> {
        let l = length
        return l > 0 ? self / l : self
    }
}
