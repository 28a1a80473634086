import Foundation
import Geometry
import Smoothing
import Testing

private struct Noise {
    var state: UInt64
    mutating func normal() -> Double {
        func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        return (-2 * log(max(next(), 1e-12))).squareRoot() * cos(2 * .pi * next())
    }
}

/// Depth noise (PnP depth comes from the face's apparent size and is the noisiest pose component)
/// must not move the face in the image: the filter smooths the direction to the face and the depth
/// separately, so the filtered x/z and y/z stay where the measurements put them.
@Test func depthNoiseDoesNotLeakIntoTheImagePosition() {
    var noise = Noise(state: 11)
    var filter = PoseFilter(translation: OneEuroParameters(minCutoffHz: 0.5, beta: 2), rotation: OneEuroParameters(minCutoffHz: 0.6, beta: 2),
                            depth: OneEuroParameters(minCutoffHz: 0.2, beta: 2))
    let direction = SIMD2(0.2, -0.1)
    var rawSecond = 0.0, filteredSecond = 0.0, worstDirection = 0.0
    var raw: [Double] = [], filtered: [Double] = []
    for k in 0..<150 {
        let z = 500 + 8 * noise.normal()
        let out = filter.filter(RigidTransform(rotation: .identity, translation: SIMD3(direction.x * z, direction.y * z, z)), time: Double(k) / 30)
        worstDirection = max(worstDirection, abs(out.translation.x / out.translation.z - direction.x), abs(out.translation.y / out.translation.z - direction.y))
        raw.append(z); filtered.append(out.translation.z)
    }
    for k in 31..<149 {
        rawSecond += abs(raw[k + 1] - 2 * raw[k] + raw[k - 1])
        filteredSecond += abs(filtered[k + 1] - 2 * filtered[k] + filtered[k - 1])
    }
    #expect(worstDirection < 1e-9)
    #expect(filteredSecond * 5 < rawSecond, "depth jitter raw \(rawSecond), filtered \(filteredSecond)")
}

/// A face walking towards the camera at 0.3 m/s (over 3 face sizes per second) is followed: after half
/// a second of the move the filtered depth is within 15 mm of the truth.
@Test func depthFollowsAnApproach() {
    var filter = PoseFilter(translation: OneEuroParameters(minCutoffHz: 0.5, beta: 2), rotation: OneEuroParameters(minCutoffHz: 0.6, beta: 2),
                            depth: OneEuroParameters(minCutoffHz: 0.2, beta: 2))
    var out = RigidTransform.identity
    var truth = 0.0
    for k in 0..<45 {
        let t = Double(k) / 30
        truth = k < 30 ? 700 : 700 - 300 * (t - 1)
        out = filter.filter(RigidTransform(rotation: .identity, translation: SIMD3(0, 0, truth)), time: t)
    }
    #expect(abs(out.translation.z - truth) < 15, "filtered \(out.translation.z) mm, truth \(truth) mm")
}
