/// One Euro smoothing of a set of 2D landmarks (pixels), one speed-adaptive filter per point,
/// with speeds measured in face sizes per second (`faceSize` in pixels, e.g. the inter-ocular
/// distance) so the same parameters hold whether the face is near or far.
public struct LandmarkFilter: Sendable {
    public var parameters: OneEuroParameters {
        didSet { for i in filters.indices { filters[i].parameters = parameters } }
    }
    private var filters: [VectorOneEuroFilter] = []

    /// Defaults: 1.5 Hz still cutoff; beta 2 per (face size / s).
    public init(parameters: OneEuroParameters = OneEuroParameters(minCutoffHz: 1.5, beta: 2.0, derivativeCutoffHz: 1.0)) {
        self.parameters = parameters
    }

    public mutating func reset() { filters = [] }

    public mutating func filter(_ points: [SIMD2<Float>], time: Double, faceSize: Double) -> [SIMD2<Float>] {
        if filters.count != points.count {
            filters = Array(repeating: VectorOneEuroFilter(parameters: parameters), count: points.count)
        }
        var out = points
        for i in points.indices {
            let f = filters[i].filter([Double(points[i].x), Double(points[i].y)], time: time, speedScale: faceSize)
            out[i] = SIMD2(Float(f[0]), Float(f[1]))
        }
        return out
    }
}
