import Foundation
import Geometry
import Testing

private func randomRotationVector(_ g: inout SystemRandomNumberGenerator, maxAngle: Double = .pi * 0.999) -> SIMD3<Double> {
    let axis = SIMD3(Double.random(in: -1...1, using: &g), Double.random(in: -1...1, using: &g), Double.random(in: -1...1, using: &g)).normalized
    return axis * Double.random(in: 0...maxAngle, using: &g)
}

private func close(_ a: Matrix3, _ b: Matrix3, _ tol: Double = 1e-9) -> Bool { (a - b).norm < tol }

@Test func rodriguesRoundTripsOverTheWholeBall() {
    var g = SystemRandomNumberGenerator()
    for _ in 0..<500 {
        let v = randomRotationVector(&g)
        let r = Rotation(rotationVector: v)
        #expect(close(r.matrix * r.matrix.transposed, .identity))
        #expect(abs(r.matrix.determinant - 1) < 1e-12)
        #expect((r.rotationVector - v).length < 1e-8, "log(exp(v)) != v for \(v)")
    }
    // Tiny angles and angles at π keep their axis.
    let tiny = SIMD3<Double>(1e-9, -2e-9, 3e-9)
    #expect((Rotation(rotationVector: tiny).rotationVector - tiny).length < 1e-15)
    let half = SIMD3<Double>(0, 0.6, 0.8) * Double.pi
    let back = Rotation(rotationVector: half).rotationVector
    #expect((back - half).length < 1e-6 || (back + half).length < 1e-6)
}

@Test func rotationMatchesAxisConvention() {
    // +90° about z takes x to y (right-handed, y down: image right to image down = clockwise on screen).
    let r = Rotation(axis: SIMD3(0, 0, 1), angle: .pi / 2)
    #expect((r * SIMD3(1, 0, 0) - SIMD3(0, 1, 0)).length < 1e-12)
    #expect(abs(r.angle - .pi / 2) < 1e-12)
}

@Test func quaternionRoundTripAndComposition() {
    var g = SystemRandomNumberGenerator()
    for _ in 0..<300 {
        let a = Rotation(rotationVector: randomRotationVector(&g)), b = Rotation(rotationVector: randomRotationVector(&g))
        #expect(close(Quaternion(a).rotation.matrix, a.matrix))
        #expect(close((Quaternion(a) * Quaternion(b)).rotation.matrix, (a * b).matrix))
        let mid = Quaternion.slerp(Quaternion(a), Quaternion(b), 0.5).rotation
        #expect(abs(a.angle(to: mid) - b.angle(to: mid)) < 1e-8)
    }
}

@Test func eulerAnglesRoundTripAndSigns() {
    var g = SystemRandomNumberGenerator()
    for _ in 0..<300 {
        let e = EulerAngles(pitch: .random(in: -1.5...1.5, using: &g), yaw: .random(in: -1.5...1.5, using: &g), roll: .random(in: -3...3, using: &g))
        let back = EulerAngles(e.rotation)
        #expect(abs(back.pitch - e.pitch) < 1e-9 && abs(back.yaw - e.yaw) < 1e-9 && abs(back.roll - e.roll) < 1e-9)
    }
    // Positive yaw brings the face's +x side (image right) nearer: the nose turns to the image left.
    let yaw = EulerAngles(degreesPitch: 0, yaw: 20, roll: 0).rotation
    #expect((yaw * SIMD3(1, 0, 0)).z < 0)
    #expect((yaw * SIMD3(0, 0, -1)).x < 0)
    // Positive pitch brings the forehead (−y) towards the camera (−z).
    let pitch = EulerAngles(degreesPitch: 20, yaw: 0, roll: 0).rotation
    #expect((pitch * SIMD3(0, -1, 0)).z < 0)
    #expect(abs(EulerAngles(degreesPitch: 10, yaw: -30, roll: 5).degrees.y + 30) < 1e-9)
}

@Test func nearestRotationAndKabschRecoverAMotion() {
    var g = SystemRandomNumberGenerator()
    let r = Rotation(rotationVector: randomRotationVector(&g))
    // A rotation scaled and slightly perturbed projects back onto itself.
    var m = 2.5 * r.matrix
    m[0, 1] += 1e-3
    #expect(Rotation(nearestTo: m).angle(to: r) < 1e-3)
    // A reflection is never returned.
    #expect(Rotation(nearestTo: .diagonal(SIMD3(1, 1, -1))).matrix.determinant > 0)

    let truth = RigidTransform(rotation: r, translation: SIMD3(10, -20, 500))
    let source = (0..<20).map { _ in SIMD3(Double.random(in: -50...50, using: &g), Double.random(in: -50...50, using: &g), Double.random(in: -50...50, using: &g)) }
    let fitted = RigidTransform.fit(from: source, to: source.map(truth.apply))!
    #expect(fitted.rotation.angle(to: truth.rotation) < 1e-9)
    #expect((fitted.translation - truth.translation).length < 1e-7)
    let identity = truth * truth.inverse
    #expect(identity.rotation.angle < 1e-12 && identity.translation.length < 1e-9)
}

@Test func symmetricEigenAndSVD() {
    let a = Matrix3(rows: SIMD3(4, 1, 2), SIMD3(1, 3, 0), SIMD3(2, 0, 5))
    let e = SymmetricEigen3(a)
    let rebuilt = e.vectors * Matrix3.diagonal(e.values) * e.vectors.transposed
    #expect(close(rebuilt, a))
    #expect(e.values.x >= e.values.y && e.values.y >= e.values.z)
    let m = Matrix3(rows: SIMD3(1, 2, 3), SIMD3(4, 5, 6), SIMD3(7, 8, 10))
    let s = SingularValues3(m)
    #expect(close(s.u * Matrix3.diagonal(s.values) * s.v.transposed, m, 1e-8))
    let singular = Matrix3(rows: SIMD3(1, 2, 3), SIMD3(2, 4, 6), SIMD3(0, 0, 0))
    let s2 = SingularValues3(singular)
    // Singular values come from the eigenvalues of mᵀm, so a zero one is only resolved to ~1e-8 of the largest.
    #expect(close(s2.u * Matrix3.diagonal(s2.values) * s2.v.transposed, singular, 1e-6))
    #expect(close(s2.u * s2.u.transposed, .identity, 1e-9))
}
