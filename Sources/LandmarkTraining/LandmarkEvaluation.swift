import FaceData
import FaceMarkup

/// Accumulates the 300-W style accuracy report of a landmark model over annotated faces.
///
/// Each face contributes its inter-ocular NME (outer eye corners 36, 45), inter-pupil NME (eye-contour
/// centres) and per-region inter-ocular NMEs, or a miss when no face was detected for it. Failure rates
/// and AUC count misses as failures (NME = ∞); mean NMEs are over detected faces.
public struct LandmarkEvaluation: Sendable {
    public struct FaceResult: Sendable {
        public let name: String
        /// nil when the detector missed the face.
        public let interOcularNME: Float?
        public let interPupilNME: Float?
        public let regionNME: [Float]
    }

    public private(set) var results: [FaceResult] = []
    public private(set) var landmarkSeconds: [Double] = []
    public private(set) var detectorSeconds: [Double] = []

    public init() {}

    public mutating func add(name: String, predicted: [SIMD2<Float>], truth: [SIMD2<Float>], seconds: Double) {
        let io = AlignmentError.normaliser(truth), ip = AlignmentError.interPupilNormaliser(truth)
        let err = AlignmentError.meanError(predicted, truth)
        let regions = truth.count == IBUG68.count
            ? IBUG68.regions.map { AlignmentError.meanError(predicted, truth, indices: $0.indices) / io } : []
        results.append(FaceResult(name: name, interOcularNME: err / io, interPupilNME: err / ip, regionNME: regions))
        landmarkSeconds.append(seconds)
    }

    public mutating func addMiss(name: String) {
        results.append(FaceResult(name: name, interOcularNME: nil, interPupilNME: nil, regionNME: []))
    }

    public mutating func addDetectorTime(_ seconds: Double) { detectorSeconds.append(seconds) }

    public var count: Int { results.count }
    public var missed: Int { results.filter { $0.interOcularNME == nil }.count }
    /// Inter-ocular NMEs with misses as +∞, sorted ascending.
    public var sortedNME: [Float] { results.map { $0.interOcularNME ?? .infinity }.sorted() }

    public var meanInterOcular: Float { Self.mean(results.compactMap(\.interOcularNME)) }
    public var meanInterPupil: Float { Self.mean(results.compactMap(\.interPupilNME)) }
    public var medianInterOcular: Float {
        let v = results.compactMap(\.interOcularNME).sorted()
        return v.isEmpty ? .nan : v[v.count / 2]
    }

    /// Share of faces with NME above `threshold`, misses included as failures.
    public func failureRate(above threshold: Float) -> Float {
        guard count > 0 else { return .nan }
        return Float(results.filter { ($0.interOcularNME ?? .infinity) > threshold }.count) / Float(count)
    }

    /// Area under the cumulative error distribution up to `limit`, divided by `limit` (1 = perfect).
    public func auc(limit: Float) -> Float {
        guard count > 0 else { return .nan }
        var s: Float = 0
        for e in sortedNME where e < limit { s += limit - e }
        return s / (limit * Float(count))
    }

    /// Mean inter-ocular NME of each `IBUG68.regions` entry over detected faces.
    public var regionMeans: [(name: String, nme: Float)] {
        IBUG68.regions.enumerated().map { i, r in
            (r.name, Self.mean(results.compactMap { $0.regionNME.count > i ? $0.regionNME[i] : nil }))
        }
    }

    public var millisecondsPerFace: Double { landmarkSeconds.isEmpty ? .nan : 1000 * landmarkSeconds.reduce(0, +) / Double(landmarkSeconds.count) }
    public var detectorMillisecondsPerImage: Double { detectorSeconds.isEmpty ? .nan : 1000 * detectorSeconds.reduce(0, +) / Double(detectorSeconds.count) }

    static func mean(_ v: [Float]) -> Float { v.isEmpty ? .nan : v.reduce(0, +) / Float(v.count) }
}
