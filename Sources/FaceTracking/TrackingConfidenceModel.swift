import Foundation
import Landmarks
import ModelFormat

/// "Is this fitted shape still on a face?": an L2-regularised logistic regression on the landmark
/// cascade's own descriptors at the fitted shape (`LandmarkCascade.FittedShape.features`: every
/// landmark's SIFT-like descriptor at the last stage's stride, then a constant 1). The idea is the
/// failure check of supervised-descent trackers (e.g. Xiong & De la Torre 2015; dlib-style
/// trackers score the aligned descriptors with a linear SVM): a shape that drifted onto the mouth,
/// the hair or the background has descriptors unlike any face's.
///
/// `probability` is the calibrated P(face | features) in [0, 1]; `threshold` is the loss threshold
/// chosen at training (tracking keeps a face while the probability stays at or above it).
/// The weights only make sense for the landmark model they were trained with: `landmarkFingerprint`
/// (CRC-32 of that model's last-stage weights) lets callers check the pairing.
public struct TrackingConfidenceModel: Sendable, ArchivedModel {
    public static let archiveKind = "TCNF"
    public static let archiveVersion = 1
    public static let supportedVersions = archiveVersion...archiveVersion
    public static let modelName = "tracking confidence model"

    /// One weight per feature, including the constant feature (which carries the bias).
    public let weights: [Float]
    public let threshold: Float
    public let landmarkFingerprint: UInt32
    public var metadata: [String: String]

    public init(weights: [Float], threshold: Float, landmarkFingerprint: UInt32, metadata: [String: String] = [:]) {
        self.weights = weights
        self.threshold = threshold
        self.landmarkFingerprint = landmarkFingerprint
        self.metadata = metadata
    }

    /// CRC-32 of a cascade's last-stage weights as float32 bytes: identifies the features' meaning.
    public static func fingerprint(of cascade: LandmarkCascade) -> UInt32 {
        guard let stage = cascade.stages.last else { return 0 }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(stage.weights.count * 4 + 4)
        for w in stage.weights { withUnsafeBytes(of: w.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
        withUnsafeBytes(of: stage.stride.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        return CRC32.checksum(bytes)
    }

    /// Whether this model was trained on `cascade`'s features.
    public func matches(_ cascade: LandmarkCascade) -> Bool {
        weights.count == cascade.featureCount && landmarkFingerprint == Self.fingerprint(of: cascade)
    }

    /// The linear score w·x (log-odds of a face).
    public func score(_ features: [Float]) -> Float {
        precondition(features.count == weights.count, "features have \(features.count) values, model has \(weights.count)")
        return features.withUnsafeBufferPointer { x in
            weights.withUnsafeBufferPointer { w in
                let rx = UnsafeRawPointer(x.baseAddress!), rw = UnsafeRawPointer(w.baseAddress!)
                var acc = SIMD8<Float>()
                var i = 0
                let n = x.count
                while i + 8 <= n {
                    acc += rx.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<Float>.self) * rw.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<Float>.self)
                    i += 8
                }
                var s = acc.sum()
                while i < n { s += x[i] * w[i]; i += 1 }
                return s
            }
        }
    }

    /// P(face | features) = σ(w·x).
    public func probability(_ features: [Float]) -> Float {
        Self.probability(score: score(features))
    }

    /// The logistic of a score (log-odds).
    public static func probability(score: Float) -> Float {
        1 / (1 + expf(-score))
    }

    // MARK: File format

    public func archive() -> ModelArchive {
        var meta = metadata
        meta["threshold"] = String(threshold)
        meta["landmark_fingerprint"] = String(landmarkFingerprint)
        meta["features"] = String(weights.count)
        meta["method"] = "L2 logistic regression on the landmark cascade's last-stage descriptors"
        return ModelArchive(kind: Self.archiveKind, version: Self.archiveVersion, metadata: meta,
                            tensors: ["weights": .init(shape: [weights.count], values: weights)])
    }

    /// The file's bytes were parsed by ModelArchive (ModelFormat, built with Swift's checks); here the
    /// weights are only checked for rank. `score` reads them beside the cascade's features, and the
    /// tracker calls it only when `matches(_:)` has checked that the counts agree.
    public init(archive: ModelArchive) throws {
        let m = archive.metadata
        guard let threshold = m["threshold"].flatMap(Float.init), threshold > 0, threshold < 1 else {
            throw ModelFileError("tracking confidence model: missing or bad 'threshold'")
        }
        guard let fp = m["landmark_fingerprint"].flatMap(UInt32.init) else {
            throw ModelFileError("tracking confidence model: missing 'landmark_fingerprint'")
        }
        let w = try archive.tensor("weights")
        guard w.shape.count == 1, w.shape[0] > 1, w.values.allSatisfy(\.isFinite) else {
            throw ModelFileError("tracking confidence model: 'weights' is not a finite vector")
        }
        self.init(weights: w.values, threshold: threshold, landmarkFingerprint: fp, metadata: m)
    }
}
