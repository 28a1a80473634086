import ArgumentParser
import FaceData
import FaceDetection
import FaceTracking
import Foundation
import Imaging
import Inputs
import JPEGCodec
import LandmarkTraining
import Landmarks
import Pipeline

/// `lorgnette eval landmarks`: 300-W style accuracy of detection + landmarks on annotated faces.
struct EvalLandmarksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "landmarks",
        abstract: "NME, failure rate, AUC, per-region errors and speed of the landmark model.",
        discussion: """
            Runs on the validation split of --data (the photo-level 10 % that training never sees; \
            --split all for every face). With --boxes detector each face starts from the detector box \
            that best overlaps it (IoU ≥ 0.4; none = a miss, counted as a failure). With --boxes \
            jittered it starts from its canonical box moved by up to ±5 % and scaled by up to ±8 % \
            (fixed seed), which stands in for a detector. NME is the mean point error divided by the \
            inter-ocular (outer eye corners 36, 45) or inter-pupil distance of the annotation. \
            Fits from a box run in detection mode (--refinement full: refit from the box the first \
            fit implies when it disagrees with the start, and more starts when the tracking-confidence \
            model doubts the fit; refit: without the extra starts; none: one fit from the box). \
            With --mirror mean (the default, as in `landmarks`, `measure` and the tracker's detection \
            frames) each face is also fitted in its mirror image and the two fits averaged; --mirror \
            none gives the direct fit alone, as before.
            """
    )

    @Option(help: "Folder of .jpg + .pts (68 points).")
    var data: String

    @Option(help: "Landmark model file (default: Models/landmarks.lmrk).")
    var model: String?

    @Option(help: "Which faces: validation, training, all, or fold:K (the training faces of cross-validation fold K, 0-4, that `train landmarks --hold-out --ridge-fold K` leaves out).")
    var split = "validation"

    @Option(help: "Initial boxes: detector, jittered or canonical; or tracking (tracking mode from the annotation moved by up to ±5 % of the inter-ocular distance, scaled ±5 %, rolled ±5°).")
    var boxes = "detector"

    @Option(help: "Face detector model for --boxes detector (default: Models/face-detector.fdet).")
    var detector: String?

    @Option(help: "Detection-mode refinement: full, refit or none.")
    var refinement = "full"

    @Option(help: "Tracking-confidence model that scores detection-mode starts for --refinement full (default: Models/tracking-confidence.tcnf).")
    var confidence: String?

    @Option(name: .customLong("retry-rounds"), help: "Rounds of extra starts for --refinement full.")
    var retryRounds = DetectionRefinement().retryRounds

    @Option(name: .customLong("retry-margin"), help: "Log-odds an extra start must out-score the best fit by to replace it, for --refinement full.")
    var retryMargin = DetectionRefinement().retryMargin

    @Option(name: .customLong("retry-below"), help: "Log-odds below which the judge's doubt triggers the extra starts, for --refinement full (inf: always).")
    var retryBelow = DetectionRefinement().retryBelowScore

    @Option(help: "How the starts' fits combine, for --refinement full: best, median:D or weighted:D (fits within D inter-ocular distances of the best, mean point distance).")
    var consensus = "best"

    @Option(help: "Also fit the mirrored face and combine: none, mean, or agree:T (the mean when the two fits lie within T inter-ocular distances, else the higher-scoring fit).")
    var mirror = "mean"

    @Option(name: .customLong("box-offset"), help: "Stress test: move every detector box down by DY of its side and scale it by S (DY,S, e.g. -0.3,1 or 0,1.2).")
    var boxOffset: String?

    @Option(name: .customLong("max-rank"), help: "Evaluate the model with each stage truncated to this many output directions.")
    var maxRank: Int?

    @Option(name: .customLong("max-stages"), help: "Evaluate only the first N stages of the cascade.")
    var maxStages: Int?

    @Option(name: .customLong("binary-stages"), help: "Evaluate only the first N stages on local binary features (0 = the SDM stages alone; the model's SDM stages are those of a model trained without --lbf-radii, so one training gives both).")
    var binaryStages: Int?

    @Option(name: .customLong("timing-repeats"), help: "Fit every face this many times and also report the median over faces of each face's fastest fit (thread CPU time): robust to other processes on a shared machine.")
    var timingRepeats = 1

    @OptionGroup var curveOptions: ErrorCurveOptions

    func run() throws {
        try reportingErrors("eval landmarks", usageErrors: true) {
            try OutputSafety.refuseOverwritingInputs(outputs: curveOptions.outputs,
                                                     inputs: [data, model, detector, confidence, curveOptions.compareFile])
            try evaluate()
        }
    }

    private func evaluate() throws {
        let which: FaceDataset.Split
        var fold: Int?
        switch split {
        case "validation": which = .validation
        case "training": which = .training
        case "all": which = .all
        default:
            guard split.hasPrefix("fold:"), let k = Int(split.dropFirst(5)), (0...4).contains(k) else {
                throw ValidationError("--split must be validation, training, all or fold:K (K 0-4)")
            }
            which = .training
            fold = k
        }
        guard timingRepeats >= 1 else { throw ValidationError("--timing-repeats must be at least 1") }
        guard ["detector", "jittered", "canonical", "tracking"].contains(boxes) else { throw ValidationError("--boxes must be detector, jittered, canonical or tracking") }
        var faceDetector: DetectorBoxes?
        if boxes == "detector" {
            faceDetector = DetectorBoxes(detector: HOGFaceDetector(model: try HOGFaceDetectorModel(contentsOfFile: detector ?? ModelsDirectory.file("face-detector.fdet").path)))
        }
        guard ["full", "refit", "none"].contains(refinement) else { throw ValidationError("--refinement must be full, refit or none") }
        var cascade = try LandmarkCascade(contentsOf: model ?? ModelsDirectory.file("landmarks.lmrk").path)
        if let maxRank { cascade.stages = cascade.stages.map { $0.truncated(toRank: maxRank) } }
        if let maxStages { cascade.stages = Array(cascade.stages.prefix(max(1, maxStages))) }
        if let binaryStages { cascade.binaryStages = Array(cascade.binaryStages.prefix(max(0, binaryStages))) }
        cascade.detectionRefinement = refinement == "none" ? .none : DetectionRefinement()
        if refinement == "full" {
            let scorer = try TrackingConfidenceModel(contentsOf: confidence ?? ModelsDirectory.file("tracking-confidence.tcnf").path)
            guard scorer.matches(cascade) else {
                throw ValidationError("the tracking-confidence model was trained for another landmark model; use --refinement refit or retrain it")
            }
            cascade.detectionRefinement.scorer = scorer
            cascade.detectionRefinement.retryRounds = max(0, retryRounds)
            guard retryMargin.isFinite, retryMargin >= 0 else { throw ValidationError("--retry-margin must be a finite number ≥ 0") }
            cascade.detectionRefinement.retryMargin = retryMargin
        }
        cascade.detectionRefinement.retryBelowScore = retryBelow
        cascade.detectionRefinement.consensus = try DetectionRefinementOptions.consensus(consensus)
        cascade.detectionRefinement.mirror = try DetectionRefinementOptions.mirror(mirror)
        var offset: (dy: Float, scale: Float)?
        if let boxOffset {
            let parts = boxOffset.split(separator: ",").compactMap { Float($0) }
            guard parts.count == 2, parts[1] > 0 else { throw ValidationError("--box-offset wants DY,SCALE with SCALE > 0") }
            offset = (parts[0], parts[1])
        }
        var loaded = try TrainingSet.load(directories: [data], split: which, decoder: PhotoDecoder())
        if let fold { loaded.faces = loaded.faces.filter { LandmarkTrainer.isRidgeFold($0.name, percent: LandmarkTrainingOptions().ridgeFoldPercent, fold: fold) } }
        for f in loaded.failures { printError("skipped \(f.path): \(f.reason)") }
        guard !loaded.faces.isEmpty else { throw ValidationError("no readable faces in \(data)") }

        var evaluation = LandmarkEvaluation()
        var rng = SplitMix64(seed: 20_131_001)
        var cpuSeconds = 0.0
        var fastestSeconds: [Double] = []
        var fitCounts: [Int] = []
        for face in loaded.faces {
            var box = FaceBox.canonical(landmarks: face.landmarks)
            if let faceDetector {
                let t0 = DispatchTime.now().uptimeNanoseconds
                let found = faceDetector.box(in: face.image, landmarks: face.landmarks)
                evaluation.addDetectorTime(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
                guard let found else { evaluation.addMiss(name: face.name); continue }
                box = found
                if let offset {
                    let side = box.width * offset.scale, c = box.centre + SIMD2(0, offset.dy * box.width)
                    box = FaceBox(x: c.x - side / 2, y: c.y - side / 2, width: side, height: side)
                }
            } else if boxes == "jittered" {
                let side = box.width * (1 + 0.08 * rng.symmetric())
                let c = box.centre + SIMD2(rng.symmetric(), rng.symmetric()) * (0.05 * box.width)
                box = FaceBox(x: c.x - side / 2, y: c.y - side / 2, width: side, height: side)
            }
            var previous: [SIMD2<Float>]?
            if boxes == "tracking" {
                let io = AlignmentError.normaliser(face.landmarks)
                let angle = 5 * Float.pi / 180 * rng.symmetric(), scale = 1 + 0.05 * rng.symmetric()
                let shift = SIMD2(rng.symmetric(), rng.symmetric()) * (0.05 * io)
                let centre = face.landmarks.reduce(SIMD2<Float>(0, 0), +) / Float(face.landmarks.count)
                let t = SimilarityTransform(a: scale * cos(angle), b: scale * sin(angle), tx: 0, ty: 0)
                previous = face.landmarks.map { centre + shift + t.applyLinear($0 - centre) }
            }
            let fitOnce = { previous.map { cascade.track(in: face.image, previous: $0) } ?? cascade.landmarks(in: face.image, box: box) }
            if previous == nil { fitCounts.append(cascade.detectionFit(in: face.image, box: box).fitCount) }
            let t0 = DispatchTime.now().uptimeNanoseconds, c0 = ThreadCPUClock.seconds()
            let shape = fitOnce()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
            var fastest = ThreadCPUClock.seconds() - c0
            cpuSeconds += fastest
            for _ in 1..<max(1, timingRepeats) {
                let c1 = ThreadCPUClock.seconds()
                _ = fitOnce()
                fastest = min(fastest, ThreadCPUClock.seconds() - c1)
            }
            fastestSeconds.append(fastest)
            evaluation.add(name: face.name, predicted: shape, truth: face.landmarks, seconds: seconds)
        }
        let boxDescription = boxes == "detector" ? "detector \(detector ?? "Models/face-detector.fdet") (IoU ≥ 0.4 with the annotation's canonical box)"
            : boxes == "jittered" ? "canonical boxes jittered ±5 % centre, ±8 % scale"
            : boxes == "tracking" ? "tracking mode from the annotation moved ±5 % of the inter-ocular distance, scaled ±5 %, rolled ±5°" : "canonical boxes"
        printReport(evaluation, boxDescription: boxDescription)
        if !fitCounts.isEmpty {
            let sorted = fitCounts.sorted()
            print(String(format: "detection mode (--refinement %@): %.2f cascade fits per face on average, %d faces with more than one, max %d",
                         refinement, Double(sorted.reduce(0, +)) / Double(sorted.count), sorted.filter { $0 > 1 }.count, sorted.last ?? 0))
        }
        print(String(format: "landmarks CPU time: %.3f ms per face (this thread's CPU time, unaffected by other processes)", 1000 * cpuSeconds / Double(max(1, evaluation.count - evaluation.missed))))
        if timingRepeats > 1, !fastestSeconds.isEmpty {
            let sorted = fastestSeconds.sorted()
            print(String(format: "landmarks CPU time, fastest of %d fits per face: median %.3f ms, p90 %.3f ms, max %.3f ms per face", timingRepeats,
                         1000 * sorted[sorted.count / 2], 1000 * sorted[min(sorted.count - 1, sorted.count * 9 / 10)], 1000 * sorted[sorted.count - 1]))
        }

        try curveOptions.write(rows: evaluation.results.map { ($0.name, $0.interOcularNME, $0.interPupilNME) },
                               curves: [CEDCurveSVG.Curve(label: "Lorgnette SDM (\(boxes) boxes)", errors: evaluation.sortedNME, colour: "#d62728")],
                               title: "Cumulative error distribution, \(split) split (\(evaluation.count) faces)")
    }


    private func printReport(_ e: LandmarkEvaluation, boxDescription: String) {
        func pct(_ v: Float) -> String { String(format: "%.2f %%", 100 * v) }
        print("faces: \(e.count) (\(split) split of \(data)), initial boxes: \(boxDescription)")
        print("missed faces: \(e.missed)")
        print("NME inter-ocular: mean \(pct(e.meanInterOcular)), median \(pct(e.medianInterOcular))")
        print("NME inter-pupil:  mean \(pct(e.meanInterPupil))")
        print("failure rate: NME > 0.08: \(pct(e.failureRate(above: 0.08))), NME > 0.10: \(pct(e.failureRate(above: 0.10))) (misses count as failures)")
        print(String(format: "AUC@0.08: %.4f", e.auc(limit: 0.08)))
        print("per region (inter-ocular NME): " + e.regionMeans.map { "\($0.name) \(pct($0.nme))" }.joined(separator: ", "))
        print(String(format: "landmarks wall time: %.3f ms per face (one thread, includes the face crop)", e.millisecondsPerFace))
        if !e.detectorSeconds.isEmpty { print(String(format: "detector: %.2f ms per image", e.detectorMillisecondsPerImage)) }
    }
}
