#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// Regularised least squares for the nine spherical-harmonic coefficients of three channels at
/// once: accumulates the normal equations (AᵀA + Λ) c = Aᵀb from weighted rows, then solves them
/// by Cholesky factorisation (the 9×9 matrix is symmetric positive definite once Λ > 0). Ridge
/// regularisation Λ = diag(λ_k)·Σw pulls poorly observed coefficients towards a prior μ
/// (minimising Σ w (y·c − b)² + Σ_k λ_k Σw (c_k − μ_k)²): a face shows only the camera-facing part
/// of the sphere of normals, where some combinations of the nine functions are nearly zero.
/// Kept in the estimator's workspace and `reset()` per fit; solving works on the stack.
struct RidgeSolver9 {
    var ata = [Double](repeating: 0, count: 81)
    var atb = [SIMD3<Double>](repeating: .zero, count: 9)
    var weightSum: Double = 0

    mutating func reset() {
        for i in 0..<81 { ata[i] = 0 }
        for i in 0..<9 { atb[i] = .zero }
        weightSum = 0
    }

    /// Adds one observation: basis values `y` (9), target `b`, weight `w`.
    @inline(__always) mutating func add(_ y: UnsafePointer<Float>, _ b: SIMD3<Float>, weight w: Float) {
        let bd = SIMD3<Double>(Double(b.x), Double(b.y), Double(b.z)) * Double(w)
        ata.withUnsafeMutableBufferPointer { a in
            for i in 0..<9 {
                let yi = Double(y[i]) * Double(w)
                for j in i..<9 { a[i * 9 + j] += yi * Double(y[j]) }
            }
        }
        atb.withUnsafeMutableBufferPointer { t in
            for i in 0..<9 { t[i] += bd * Double(y[i]) }
        }
        weightSum += Double(w)
    }

    /// Coefficients minimising Σ w (y·c − b)² + Σ λ_k Σw (c_k − μ_k)² for ridge weights λ (9) and
    /// prior μ (9), written to `x` (9); false when singular.
    func solve(ridge: UnsafePointer<Double>, prior: UnsafePointer<SIMD3<Double>>, into x: UnsafeMutablePointer<SIMD3<Double>>) -> Bool {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 81) { lb in
            withUnsafeTemporaryAllocation(of: SIMD3<Double>.self, capacity: 9) { zb in
                let l = lb.baseAddress!, z = zb.baseAddress!
                for k in 0..<81 { l[k] = 0 }
                for i in 0..<9 {
                    for j in i..<9 { l[j * 9 + i] = ata[i * 9 + j] }
                    l[i * 9 + i] += ridge[i] * weightSum
                }
                // Cholesky: l (lower) such that L Lᵀ = M, in place.
                for j in 0..<9 {
                    var d = l[j * 9 + j]
                    for k in 0..<j { d -= l[j * 9 + k] * l[j * 9 + k] }
                    guard d > 1e-12 else { return false }
                    let djj = d.squareRoot()
                    l[j * 9 + j] = djj
                    for i in (j + 1)..<9 {
                        var s = l[i * 9 + j]
                        for k in 0..<j { s -= l[i * 9 + k] * l[j * 9 + k] }
                        l[i * 9 + j] = s / djj
                    }
                }
                for i in 0..<9 {
                    var s = atb[i] + prior[i] * (ridge[i] * weightSum)
                    for k in 0..<i { s -= z[k] * l[i * 9 + k] }
                    z[i] = s / l[i * 9 + i]
                }
                for i in stride(from: 8, through: 0, by: -1) {
                    var s = z[i]
                    for k in (i + 1)..<9 { s -= x[k] * l[k * 9 + i] }
                    x[i] = s / l[i * 9 + i]
                }
                return true
            }
        }
    }
}
