import Foundation
import Imaging
import ModelFormat

/// "Is this face wearing glasses?": an L2-regularised logistic regression on `EyeglassesFeatures`
/// (gradient-orientation cells over the band of the face glasses cover). Glasses through which a
/// person is measured change the iris scale (the lenses magnify or shrink the eyes), so `measure`
/// asks this per accepted frame (`MeasurementSession.eyeglasses`).
///
/// `score` is the log-odds of glasses; a face is judged to wear them when it is at or above
/// `threshold` (chosen at training, `train eyeglasses`). The file records the feature layout
/// (`EyeglassesFeatures.spec`); a model for another layout is refused.
public struct EyeglassesModel: Sendable, ArchivedModel {
    public static let archiveKind = "EYEG"
    public static let archiveVersion = 1
    public static let supportedVersions = archiveVersion...archiveVersion
    public static let modelName = "eyeglasses model"

    /// One weight per feature, the last (the constant feature's) being the bias.
    public let weights: [Float]
    public let threshold: Float
    public var metadata: [String: String]

    public init(weights: [Float], threshold: Float, metadata: [String: String] = [:]) {
        precondition(weights.count == EyeglassesFeatures.count, "weights have \(weights.count) values, features \(EyeglassesFeatures.count)")
        self.weights = weights
        self.threshold = threshold
        self.metadata = metadata
    }

    /// w·x, the log-odds of glasses.
    public func score(_ features: [Float]) -> Float {
        precondition(features.count == weights.count)
        var s: Float = 0
        for k in 0..<weights.count { s += weights[k] * features[k] }
        return s
    }

    public func wearsGlasses(_ features: [Float]) -> Bool { score(features) >= threshold }

    // MARK: File format

    public func archive() -> ModelArchive {
        var meta = metadata
        meta["threshold"] = String(threshold)
        meta["features"] = EyeglassesFeatures.spec
        meta["method"] = "L2 logistic regression on gradient-orientation cells of the eye band"
        return ModelArchive(kind: Self.archiveKind, version: Self.archiveVersion, metadata: meta,
                            tensors: ["weights": .init(shape: [weights.count], values: weights)])
    }

    /// ModelArchive (ModelFormat, with Swift's checks) parsed the bytes; here only the layout is checked.
    public init(archive: ModelArchive) throws {
        let m = archive.metadata
        guard m["features"] == EyeglassesFeatures.spec else {
            throw ModelFileError("eyeglasses model: features '\(m["features"] ?? "?")' are not this build's '\(EyeglassesFeatures.spec)'")
        }
        guard let threshold = m["threshold"].flatMap(Float.init), threshold.isFinite else {
            throw ModelFileError("eyeglasses model: missing or bad 'threshold'")
        }
        let w = try archive.tensor("weights")
        guard w.shape == [EyeglassesFeatures.count], w.values.allSatisfy(\.isFinite) else {
            throw ModelFileError("eyeglasses model: 'weights' is not a finite vector of \(EyeglassesFeatures.count)")
        }
        self.init(weights: w.values, threshold: threshold, metadata: m)
    }
}

/// One face's verdict per frame, kept for a session: `measure` says glasses are on when most frames
/// that were judged saw them (a majority, so a few frames with a hand or a reflection do not flip it).
public final class EyeglassesDetector {
    public let model: EyeglassesModel
    private var features = EyeglassesFeatures()
    private var buffer = [Float](repeating: 0, count: EyeglassesFeatures.count)
    public private(set) var framesJudged = 0
    public private(set) var framesWithGlasses = 0

    public init(model: EyeglassesModel) { self.model = model }

    /// This frame's log-odds of glasses (nil when the landmarks are degenerate); counts the vote.
    @discardableResult
    public func judge(_ image: GrayImage, landmarks: [SIMD2<Float>]) -> Float? {
        guard features.fill(&buffer, image, landmarks: landmarks) else { return nil }
        let s = model.score(buffer)
        framesJudged += 1
        if s >= model.threshold { framesWithGlasses += 1 }
        return s
    }

    /// Glasses on for the session: more than half the judged frames (nil before any).
    public var wearsGlasses: Bool? {
        framesJudged == 0 ? nil : framesWithGlasses * 2 > framesJudged
    }

    public func reset() { framesJudged = 0; framesWithGlasses = 0 }
}
