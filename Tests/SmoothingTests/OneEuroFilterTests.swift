import Foundation
import Geometry
import Smoothing
import Testing

private struct Gaussian: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func normal() -> Double {
        let u = Double.random(in: 1e-12..<1, using: &self), v = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}

@Test func oneEuroReducesJitterOnAStillSignalAndFollowsARamp() {
    var g = Gaussian(state: 1)
    var f = OneEuroFilter(parameters: OneEuroParameters(minCutoffHz: 0.5, beta: 0.002))
    var raw: [Double] = [], out: [Double] = []
    for k in 0..<300 {
        let x = 5 + g.normal()
        raw.append(x)
        out.append(f.filter(x, time: Double(k) / 30))
    }
    func std(_ a: [Double]) -> Double {
        let m = a.reduce(0, +) / Double(a.count)
        return (a.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(a.count)).squareRoot()
    }
    #expect(std(Array(out[30...])) < std(raw) / 3)
    // A fast ramp is followed closely thanks to beta.
    f = OneEuroFilter(parameters: OneEuroParameters(minCutoffHz: 0.5, beta: 0.5))
    var last = 0.0
    for k in 0..<60 { last = f.filter(Double(k) * 10, time: Double(k) / 30) }
    #expect(abs(last - 590) < 30)
    // The first sample after a reset passes through unchanged.
    f.reset()
    #expect(f.filter(42, time: 100) == 42)
}

@Test func oneEuroIsDrivenByTimestampsNotSampleCounts() {
    // The same signal sampled at 30 and 60 Hz settles to the same value at the same time.
    var a = OneEuroFilter(parameters: OneEuroParameters(minCutoffHz: 1)), b = a
    var ya = 0.0, yb = 0.0
    _ = a.filter(0, time: 0); _ = b.filter(0, time: 0)
    for k in 1...30 { ya = a.filter(1, time: Double(k) / 30) }
    for k in 1...60 { yb = b.filter(1, time: Double(k) / 60) }
    #expect(abs(ya - yb) < 0.02)
    #expect(ya > 0.95)
}

@Test func landmarkFilterTuningIsScaleInvariant() {
    // A face twice as large, moving twice as many pixels, gets the same relative smoothing.
    var small = LandmarkFilter(), large = LandmarkFilter()
    var s = SIMD2<Float>.zero, l = SIMD2<Float>.zero
    for k in 0..<40 {
        let t = Double(k) / 30, x = Float(k) * 2
        s = small.filter([SIMD2(x, 0)], time: t, faceSize: 50)[0]
        l = large.filter([SIMD2(2 * x, 0)], time: t, faceSize: 100)[0]
    }
    #expect(abs(l.x - 2 * s.x) < 1e-3)
}

@Test func poseFilterSmoothsRotationOnTheManifold() {
    var g = Gaussian(state: 7)
    var filter = PoseFilter()
    let truth = EulerAngles(degreesPitch: 5, yaw: 170, roll: 0).rotation  // near the ±180° Euler wrap
    var rawErr = 0.0, filtErr = 0.0
    for k in 0..<200 {
        let noise = SIMD3(g.normal(), g.normal(), g.normal()) * (1.0 * .pi / 180)
        let measured = RigidTransform(rotation: truth * Rotation(rotationVector: noise), translation: SIMD3(0, 0, 600) + SIMD3(g.normal(), g.normal(), g.normal()))
        let out = filter.filter(measured, time: Double(k) / 30)
        if k >= 30 {
            rawErr += measured.rotation.angle(to: truth)
            filtErr += out.rotation.angle(to: truth)
        }
    }
    #expect(filtErr < rawErr / 2)
    // A 20° step is reached: after 0.3 s the filter is within 2° of the new orientation.
    let turned = EulerAngles(degreesPitch: 5, yaw: -170, roll: 0).rotation
    var out = RigidTransform.identity
    for k in 200..<209 { out = filter.filter(RigidTransform(rotation: turned, translation: SIMD3(0, 0, 600)), time: Double(k) / 30) }
    #expect(out.rotation.angle(to: turned) < 2 * .pi / 180)
}
