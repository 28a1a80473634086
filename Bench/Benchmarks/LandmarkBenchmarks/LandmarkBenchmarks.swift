// Landmark regression cost per face (issue 4 bar: ≤ 1 ms on one core, release build).
import Benchmark
import FaceData
import FaceDetection
import Foundation
import Imaging
import Inputs
import JPEGCodec
import Landmarks

/// Validation faces of the shared 300-W crops (the split training never sees) with canonical boxes.
func validationFaces(limit: Int) -> [(image: GrayImage, box: FaceBox, truth: [SIMD2<Float>])] {
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let dir = repo.deletingLastPathComponent().appendingPathComponent("shared/data/faces68/train").path
    guard let dataset = try? FaceDataset(directory: dir) else { return [] }
    return dataset.entries(.validation).prefix(limit).compactMap { entry in
        guard let face = try? FaceDataset.load(entry, decoder: PhotoDecoder()) else { return nil }
        return (face.image, FaceBox.canonical(landmarks: face.landmarks), face.landmarks)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: .seconds(3),
        maxIterations: 5_000
    )
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let modelPath = repo.appendingPathComponent("Models/landmarks.lmrk").path
    let faces = validationFaces(limit: 32)
    guard !faces.isEmpty, let model = try? LandmarkCascade(contentsOf: modelPath) else {
        print("LandmarkBenchmarks: skipped (needs Models/landmarks.lmrk and ../shared/data/faces68/train)")
        return
    }

    Benchmark("Landmarks model load") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! LandmarkCascade(contentsOf: modelPath)) }
    }
    // One iteration = one face (cycling over 32 validation faces of different sizes).
    Benchmark("Landmarks fit from box (68 points, \(model.stages.count) stages)") { benchmark in
        var k = 0
        for _ in benchmark.scaledIterations {
            let f = faces[k % faces.count]
            blackHole(model.landmarks(in: f.image, box: f.box))
            k += 1
        }
    }
    Benchmark("Landmarks track from previous shape") { benchmark in
        var k = 0
        for _ in benchmark.scaledIterations {
            let f = faces[k % faces.count]
            blackHole(model.track(in: f.image, previous: f.truth))
            k += 1
        }
    }
    // As the tracker runs it: one workspace for every fit, built and grown to the largest face once,
    // outside the measured closure. Measured 2026-11-22 (load ~4): 16 mallocs per sample (the
    // framework's baseline: none per fit) against 31 for the allocating `track` above; p50 729 vs 731 µs.
    var workspace = LandmarkCascade.Workspace(cascade: model)
    for f in faces { model.track(in: f.image, previous: f.truth, workspace: &workspace) }
    var k = 0
    Benchmark("Landmarks track from previous shape, reused workspace") { benchmark in
        for _ in benchmark.scaledIterations {
            let f = faces[k % faces.count]
            model.track(in: f.image, previous: f.truth, workspace: &workspace)
            blackHole(workspace.shape[0])
            k += 1
        }
    }
    // The descriptors alone (issue 9: tracking cost): one iteration = one face's 68 descriptors, the
    // feature vector of one stage (cycling over faces and stage strides), on crops built beforehand.
    // Measured 2026-11-22 (load 2-11): p0/p50 114/117 us with ffec950's PatchDescriptor, 93/98 us with
    // the fast path (same features to the bit); 16 mallocs per sample (the framework's baseline).
    let crops = faces.map { model.makeCrop(image: $0.image, around: $0.truth) }
    var extractWorkspace = LandmarkCascade.Workspace(cascade: model)
    var e = 0
    Benchmark("Landmarks descriptors (68 points, one stage's features)") { benchmark in
        for _ in benchmark.scaledIterations {
            let f = e % faces.count
            extractWorkspace.extract(cascade: model, crop: crops[f], shape: faces[f].truth,
                                     stride: model.stages[e % model.stages.count].stride)
            blackHole(extractWorkspace.features[0])
            e += 1
        }
    }
}
