import Foundation
import Smoothing
import Testing

/// `LandmarkFilter` keeps its per-point state in one flat array (no array per point): it must give
/// exactly what one `VectorOneEuroFilter` per point gives, through both of its forms, across a
/// change in the number of points and a reset.
@Test func landmarkFilterEqualsOneVectorFilterPerPoint() {
    let parameters = OneEuroParameters(minCutoffHz: 1.5, beta: 2.0, derivativeCutoffHz: 1.0)
    var filter = LandmarkFilter(parameters: parameters), intoFilter = LandmarkFilter(parameters: parameters)
    var reference: [VectorOneEuroFilter] = []
    var out: [SIMD2<Float>] = []
    var seed: UInt64 = 5
    func jitter() -> Float {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return Float(Int(seed >> 40) % 2001 - 1000) / 500
    }
    for frame in 0..<90 {
        // 68 points, then 5 (the filter restarts), then 68 again after a reset.
        let count = frame < 40 ? 68 : frame < 60 ? 5 : 68
        if frame == 60 { filter.reset(); intoFilter.reset() }
        if reference.count != count || frame == 60 { reference = Array(repeating: VectorOneEuroFilter(parameters: parameters), count: count) }
        let time = Double(frame) / 30 + (frame % 7 == 0 ? 0.004 : 0)
        let faceSize = 60 + Double(frame % 5)
        let points = (0..<count).map { i in SIMD2<Float>(100 + Float(i) * 3 + Float(frame) * 1.5 + jitter(), 200 - Float(frame) + jitter()) }
        let a = filter.filter(points, time: time, faceSize: faceSize)
        intoFilter.filter(points, time: time, faceSize: faceSize, into: &out)
        for i in 0..<count {
            let r = reference[i].filter([Double(points[i].x), Double(points[i].y)], time: time, speedScale: faceSize)
            let expected = SIMD2(Float(r[0]), Float(r[1]))
            #expect(a[i] == expected, "frame \(frame) point \(i)")
            #expect(out[i] == expected, "frame \(frame) point \(i) (into)")
        }
        #expect(a.count == count && out.count == count)
    }
}
