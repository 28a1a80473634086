import FaceDetection
import FaceModel
import FaceTracking
import FacialMetrics
import Foundation
import Landmarks
import ModelFormat
import Testing

/// Seeded mutations of the three model files (landmark cascade, HOG detector, tracking confidence)
/// and the mean face. Binary mutations are resealed with a correct checksum nine times in ten, so
/// they reach the parser behind it; metadata mutations rewrite one value as an extreme number.
struct ModelFileFuzzTests {
    /// A two-landmark cascade with one float16 and one int8 stage (features: 2 x 2 + 1 = 5).
    static let landmarks = ModelArchive(kind: "LMRK", version: 2, metadata: [
        "landmarks": "2", "stages": "2", "descriptor": "cells=1 cell_samples=1 bins=2", "reference_side": "96",
        "shape_feature_scale": "0", "stage.0.stride": "1.5", "stage.1.stride": "0.75",
    ], tensors: [
        "mean_shape": .init(shape: [2, 2], values: [30, 40, 60, 40]),
        "box_shape": .init(shape: [2, 2], values: [0.3, 0.4, 0.6, 0.4]),
        "stage.0.weights": .init(shape: [5, 2], values: (0..<10).map { Float($0) / 10 }, encoding: .float16),
        "stage.0.basis": .init(shape: [2, 4], values: (0..<8).map { Float($0) / 8 }),
        "stage.1.weights": .init(shape: [5, 1], values: (0..<5).map { Float($0) - 2 }, encoding: .int8),
        "stage.1.basis": .init(shape: [1, 4], values: [1, 0, 0, 1]),
    ])
    static let detector = ModelArchive(kind: "FDET", version: 1, metadata: [
        "feature": "fhog31-cell8-hardbin", "window": "2,0,2", "levels_per_octave": "4", "threshold": "0.5", "prune_rows": "1",
    ], tensors: [
        "weights": .init(shape: [1, 2, 2, 31], values: (0..<124).map { Float($0 % 7) / 7 }, encoding: .float16),
        "bias": .init(shape: [1], values: [-0.5]),
        "prune_threshold": .init(shape: [1], values: [0.25]),
    ])
    static let confidence = ModelArchive(kind: "TCNF", version: 1, metadata: ["threshold": "0.5", "landmark_fingerprint": "1234"],
                                         tensors: ["weights": .init(shape: [6], values: [0.1, -0.2, 0.3, 0, 1, -1])])

    static func load(_ bytes: [UInt8], kind: String) throws {
        switch kind {
        case "LMRK": _ = try LandmarkCascade(bytes: bytes)
        case "FDET": _ = try HOGFaceDetectorModel(bytes: bytes)
        case "EYEG": _ = try EyeglassesModel(bytes: bytes)
        default: _ = try TrackingConfidenceModel(bytes: bytes)
        }
    }

    static func mutate(_ archive: ModelArchive, _ rng: inout SeededRandom) -> [UInt8] {
        if Int.random(in: 0..<10, using: &rng) < 3, let key = archive.metadata.keys.sorted().randomElement(using: &rng) {
            var a = archive
            a.metadata[key] = Mutations.extremeNumbers.randomElement(using: &rng)!
            return a.serialized()
        }
        let bytes = archive.serialized()
        let mutated = Mutations.binary(bytes, fields: FuzzSeeds.archiveFields(bytes), using: &rng)
        return Int.random(in: 0..<10, using: &rng) < 9 ? FuzzSeeds.resealed(mutated) : mutated
    }

    @Test("model files: mutated landmark, detector, confidence and eyeglasses models load or throw", arguments: ["LMRK", "FDET", "TCNF", "EYEG"])
    func modelFile(kind: String) throws {
        // The eyeglasses model has only the shipped file as its seed (its layout is fixed by the features).
        var archives = kind == "EYEG" ? [] : [kind == "LMRK" ? Self.landmarks : kind == "FDET" ? Self.detector : Self.confidence]
        // The shipped detector, confidence and eyeglasses models are small enough to fuzz too (the cascade is 1.1 MB).
        let shipped = ["FDET": "face-detector.fdet", "TCNF": "tracking-confidence.tcnf", "EYEG": "eyeglasses.eyeg"]
        if let file = shipped[kind], let data = FileManager.default.contents(atPath: repositoryRoot + "/Models/" + file) {
            archives.append(try ModelArchive(bytes: [UInt8](data), expectedKind: kind, supportedVersions: 1...2))
        }
        try #require(!archives.isEmpty, "Models/eyeglasses.eyeg is missing")
        for a in archives { try Self.load(a.serialized(), kind: kind) }  // the seeds themselves are valid
        let scratch = try makeFuzzScratch("model-\(kind)")
        let seeds = archives.indices.map { [UInt8($0)] }
        fuzz("model \(kind)", seeds: seeds, cases: FuzzBudget.cases(0.06), scratch: scratch,
             mutate: { rng, seed in Self.mutate(archives[Int(seed[0])], &rng) }) { input in
            try Self.load(input, kind: kind)
        }
        try? FileManager.default.removeItem(atPath: scratch)
    }

    @Test("mean face: mutated mean-face.json loads or throws, and what loads is bounded")
    func meanFace() throws {
        let seed = try #require(FileManager.default.contents(atPath: repositoryRoot + "/Models/mean-face.json"))
        let scratch = try makeFuzzScratch("mean-face")
        fuzz("mean-face", seeds: [[UInt8](seed)], cases: FuzzBudget.cases(0.06), scratch: scratch,
             mutate: { rng, seed in Mutations.text(String(decoding: seed, as: UTF8.self), using: &rng) }) { input in
            let face = try MeanFace(json: Data(input))
            #expect((face.landmarks + face.pupils + face.temples + face.ears).allSatisfy {
                abs($0.x) <= MeanFace.maximumCoordinateMM && abs($0.y) <= MeanFace.maximumCoordinateMM && abs($0.z) <= MeanFace.maximumCoordinateMM
            })
        }
        try? FileManager.default.removeItem(atPath: scratch)
    }
}
