/// The dot product of two float vectors of length `n`, sixteen lanes at a time: the inner loop of the
/// trainers' linear classifiers (detector SVM, tracking-confidence logistic regression). Kept in Swift
/// rather than BLAS `sdot` so trained models stay bit-identical to the ones in Models/.
@inline(__always)
public func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ n: Int) -> Float {
    var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>()
    let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
    var i = 0
    while i + 16 <= n {
        acc0 += ra.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<Float>.self) * rb.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<Float>.self)
        acc1 += ra.loadUnaligned(fromByteOffset: 4 * i + 32, as: SIMD8<Float>.self) * rb.loadUnaligned(fromByteOffset: 4 * i + 32, as: SIMD8<Float>.self)
        i += 16
    }
    var s = (acc0 + acc1).sum()
    while i < n { s += a[i] * b[i]; i += 1 }
    return s
}
