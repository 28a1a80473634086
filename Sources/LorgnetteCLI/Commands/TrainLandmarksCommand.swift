import ArgumentParser
import FaceData
import FaceDetection
import Foundation
import Imaging
import Inputs
import JPEGCodec
import LandmarkTraining
import Landmarks
import LinearAlgebra
import ModelFormat

/// `lorgnette train landmarks`: fits the SDM landmark cascade on the training split of 300-W-style folders.
struct TrainLandmarksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "landmarks",
        abstract: "Train the 68-point landmark cascade (supervised descent, ridge regression).",
        discussion: """
            Uses the training split of every --data folder (the photo-level 90 % that FaceDataset \
            keeps out of validation). Every face and its mirror get --perturbations initial shapes \
            from its box jittered by ±5 % (centre) and ±8 % (scale); with --detector the box is what \
            the detector outputs for the face, so the learned box-to-shape mapping matches it, else the \
            face's canonical box. The same data, options and --seed give the same model.
            """
    )

    @OptionGroup var training: TrainingOptions

    @Option(help: "Seed of the perturbations.")
    var seed: UInt64 = 1

    @Option(help: "Perturbed initialisations per face.")
    var perturbations = 10

    @Option(help: "Comma-separated grid stride per stage, reference units (coarse to fine).")
    var strides = "3.0,2.2,1.6,1.2,1.0"

    @Option(help: "Descriptor cells per side.")
    var cells = 3

    @Option(name: .customLong("cell-samples"), help: "Gradient samples per descriptor cell side.")
    var cellSamples = 4

    @Option(name: .customLong("rank-energy"), help: "Share of the fitted increments' energy each stage keeps (reduced-rank regression).")
    var rankEnergy: Float = 0.995

    @Option(name: .customLong("max-rank"), help: "Upper bound on each stage's rank (speed).")
    var maxRank = 24

    @Option(name: .customLong("rotation-jitter"), help: "Rotate the perturbed initial shapes by up to ± this many degrees (0 = upright, as from a detector box).")
    var rotationJitter: Float = 0

    @Option(name: .customLong("wide-perturbations"), help: "How many of each face's perturbations use twice the centre/scale jitter and a rotation of up to ±--wide-rotation degrees.")
    var widePerturbations = 0

    @Option(name: .customLong("wide-rotation"), help: "Rotation range of the wide perturbations, degrees.")
    var wideRotation: Float = 15

    @Option(name: .customLong("shape-features"), help: "Weight of the shape features each stage also reads (the current shape's deviation from the mean shape; 0 = none).")
    var shapeFeatures: Float = 0

    @Flag(name: .customLong("no-mirror"), help: "Do not add mirrored faces.")
    var noMirror = false

    @Option(help: "Use at most this many training faces (smoke tests).")
    var limit: Int?

    @Option(help: "Face detector model: learn the box-to-shape mapping (and train) from the boxes it outputs.")
    var detector: String?

    @Option(name: .customLong("remap-from"), help: "Keep this model's cascade and only re-learn its box-to-shape mapping from --detector boxes (minutes, not a full training).")
    var remapFrom: String?

    @Option(help: "Augmented copies per training face: turned, scaled and re-lit (0 = none).")
    var augment = 0

    @Option(name: .customLong("augment-rotation"), help: "Largest in-plane turn of an augmented copy, degrees.")
    var augmentRotation: Float = 25

    @Option(name: .customLong("augment-scale"), help: "Largest relative scale change of an augmented copy.")
    var augmentScale: Float = 0.15

    @Option(name: .customLong("yaw-domains"), help: "Pose-partitioned stages (Global SDM): one linear map per yaw domain from --yaw-from-stage on (1 = one map for every pose).")
    var yawDomains = 1

    @Option(name: .customLong("yaw-from-stage"), help: "First partitioned stage (1-based; the first stage's start says nothing about the yaw).")
    var yawFromStage = 2

    @Option(name: .customLong("yaw-overlap"), help: "Each yaw domain also learns from samples this many standard deviations of the yaw index beyond its bounds.")
    var yawOverlap: Float = 0.25

    @Option(name: .customLong("cross-fit"), help: "Move each of K groups of training faces by a map fitted without them (stacking; with the stage's between-face weight), so later stages learn from unseen-face residuals (1 = off; global stages only).")
    var crossFit = 1

    @Option(name: .customLong("cross-fit-stages"), help: "Only the first N stages cross-fit (default: every stage but the last).")
    var crossFitStages: Int?

    @Option(name: .customLong("between-weights"), help: "Between-face weights (0 < γ < 1, comma-separated) tried beside ordinary ridge in each global stage: the face means' part of the fit weighted by γ (random-effects GLS), chosen with the ridge on the ridge fold.")
    var betweenWeights: String?

    @Flag(name: .customLong("between-ridge-extend"), help: "With --between-weights: try each weight at ridge strengths beyond ordinary ridge's choice and its two neighbours while the ridge-fold error keeps falling at the edge.")
    var betweenRidgeExtend = false

    @Option(name: .customLong("stage-ridges"), help: "Fixed ridge strength per stage (comma-separated, x the mean Gram diagonal), e.g. as chosen on held-out folds; needs --stage-between-weights.")
    var stageRidges: String?

    @Option(name: .customLong("stage-between-weights"), help: "Fixed between-face weight per stage (comma-separated, 0 < γ ≤ 1), with --stage-ridges.")
    var stageBetweenWeights: String?

    @Flag(name: .customLong("yaw-prior"), help: "Shrink each yaw domain's map towards the stage's global map (strength chosen per domain on the ridge fold) rather than towards zero.")
    var yawPrior = false

    @Option(name: .customLong("ridge-fold"), help: "Which fifth of the training faces (0-4, by name hash) chooses the ridge strengths; with --hold-out, the cross-validation fold.")
    var ridgeFold = 0

    @Flag(name: .customLong("hold-out"), help: "Cross-validation: fit on the other folds only, so the --ridge-fold faces stay unseen (then: eval landmarks --split fold:K).")
    var holdOut = false

    @Option(name: .customLong("lbf-radii"), help: "Append one stage on local binary features (Ren et al. 2014: per-point random forests of pixel-difference tests, one ridge map on their leaves) per radius, reference units (the face box is 96), comma-separated, after the SDM stages (default: none).")
    var lbfRadii: String?

    @Option(name: .customLong("lbf-trees"), help: "Trees per point in each local-binary-feature stage.")
    var lbfTrees = 5

    @Option(name: .customLong("lbf-depth"), help: "Depth of those trees (2^depth leaves each).")
    var lbfDepth = 4

    @Option(name: .customLong("lbf-samples"), help: "Training samples the forests grow from (every sample gets its leaves for the map).")
    var lbfSamples = 12_000

    @Option(name: .customLong("lbf-ridges"), help: "Ridge strengths (x the mean Gram diagonal) tried for the local-binary-feature maps, chosen on the ridge fold (one value = fixed).")
    var lbfRidges = "0.003,0.01,0.03,0.1,0.3,1"

    @Option(name: .customLong("lbf-between-weights"), help: "Between-face weights (0 < γ ≤ 1) tried for the local-binary-feature maps with --lbf-ridges (one value = fixed).")
    var lbfBetweenWeights = "1,0.5,0.2"

    @Option(help: "Worker threads (descriptors and BLAS).")
    var threads = 2

    @Option(help: "Weight encoding in the model file: float16, float32 or int8.")
    var encoding = "float16"

    func run() throws {
        try reportingErrors("train landmarks") {
            try OutputSafety.refuseOverwritingInputs(outputs: [("--out", training.out)], inputs: training.data + [detector, remapFrom])
            try train()
        }
    }

    private func train() throws {
        guard !training.data.isEmpty else { throw ValidationError("give at least one --data folder") }
        let strideValues = strides.split(separator: ",").compactMap { Float($0.trimmingCharacters(in: .whitespaces)) }
        guard !strideValues.isEmpty, strideValues.count == strides.split(separator: ",").count, strideValues.allSatisfy({ $0 > 0 }) else {
            throw ValidationError("--strides must be positive numbers separated by commas")
        }
        guard (1...8).contains(yawDomains), yawFromStage >= 1, yawOverlap >= 0, yawOverlap.isFinite, (0...4).contains(ridgeFold), (1...10).contains(crossFit) else {
            throw ValidationError("--yaw-domains must be 1...8, --yaw-from-stage ≥ 1, --yaw-overlap ≥ 0, --ridge-fold 0...4, --cross-fit 1...10")
        }
        guard perturbations > 0, threads > 0, (0...perturbations).contains(widePerturbations), wideRotation >= 0, wideRotation <= 45, rotationJitter >= 0, rotationJitter <= 45, shapeFeatures >= 0, shapeFeatures.isFinite, maxRank > 0, (1...6).contains(cells), (1...8).contains(cellSamples), rankEnergy > 0, rankEnergy <= 1 else {
            throw ValidationError("--perturbations, --threads must be positive; --rotation-jitter, --wide-rotation 0...45; --wide-perturbations 0...perturbations; --shape-features ≥ 0; --cells 1...6; --cell-samples 1...8; --rank-energy in (0, 1]")
        }
        let weightEncoding: ModelArchive.Encoding
        switch encoding {
        case "float16": weightEncoding = .float16
        case "float32": weightEncoding = .float32
        case "int8": weightEncoding = .int8
        default: throw ValidationError("--encoding must be float16, float32 or int8")
        }
        BLAS.setThreads(threads)
        let started = Date()
        let loaded = try TrainingSet.load(directories: training.data, split: .training, limit: limit, decoder: PhotoDecoder())
        for f in loaded.failures { printError("skipped \(f.path): \(f.reason)") }
        guard !loaded.faces.isEmpty else { throw ValidationError("no readable training faces") }
        var annotated = loaded.faces
        if augment > 0 {
            var rng = SplitMix64(seed: seed &+ 7)
            for face in loaded.faces {
                for k in 0 ..< augment { annotated.append(Self.augmented(face, copy: k, rotation: augmentRotation, scale: augmentScale, rng: &rng)) }
            }
        }

        var detectorBoxes = DetectorBoxes(detector: nil)
        var boxSource = "canonical boxes (square on the landmarks' bounding box)"
        if let detector {
            detectorBoxes = DetectorBoxes(detector: HOGFaceDetector(model: try HOGFaceDetectorModel(contentsOfFile: detector)))
            boxSource = "boxes of detector \((detector as NSString).lastPathComponent)"
        }
        let bar0 = ProgressBar()
        var found: [FaceBox?] = []
        for (i, f) in annotated.enumerated() {
            found.append(detectorBoxes.box(in: f.image, landmarks: f.landmarks))
            if detector != nil { bar0.update(Double(i + 1) / Double(annotated.count), "detecting faces") }
        }
        bar0.finish()
        let detected = found.compactMap { $0 }.count
        if detector != nil { boxSource += " (found \(detected) of \(found.count); misses use the mean detector-to-canonical offset)" }
        let boxes = DetectorBoxes.fillMisses(found, landmarks: annotated.map(\.landmarks))
        let faces = zip(annotated, boxes).map { TrainingFace(name: $0.name, image: $0.image, landmarks: $0.landmarks, box: $1) }
        printError("loaded \(faces.count) training faces in \(String(format: "%.1f", Date().timeIntervalSince(started))) s; boxes: \(boxSource)")

        if let remapFrom {
            var cascade = try LandmarkCascade(contentsOf: remapFrom)
            cascade.stages = cascade.stages.map { $0.truncated(toRank: maxRank) }
            cascade.metadata["training.ranks"] = cascade.stages.map { String($0.rank) }.joined(separator: ",")
            cascade = cascade.withBoxShape(LandmarkTrainer.boxShape(faces: faces, mirror: !noMirror))
            cascade.metadata["training.boxes"] = boxSource
            cascade.metadata["training.remap"] = "box-to-shape mapping re-learned from detector boxes: lorgnette train landmarks " + CommandLine.arguments.dropFirst(3).joined(separator: " ")
            let bytes = cascade.archive(weightEncoding: weightEncoding).serialized()
            try OutputFile.write(bytes, to: training.out)
            printError("wrote \(training.out) (\(bytes.count) bytes): \(remapFrom) with ranks ≤ \(maxRank) and the box-to-shape mapping of \(boxSource)")
            return
        }

        var options = LandmarkTrainingOptions()
        options.seed = seed
        options.perturbations = perturbations
        options.mirror = !noMirror
        options.strides = strideValues
        options.descriptor = DescriptorSpec(cells: cells, cellSamples: cellSamples, bins: 8)
        options.rotationJitter = rotationJitter
        options.widePerturbations = widePerturbations
        options.wideRotation = wideRotation
        options.shapeFeatureScale = shapeFeatures
        options.rankEnergy = rankEnergy
        options.maxRank = maxRank
        options.threads = threads
        options.yawDomains = yawDomains
        options.yawFromStage = yawFromStage - 1
        options.yawOverlap = yawOverlap
        options.yawPrior = yawPrior
        options.crossFit = crossFit
        if let crossFitStages { options.crossFitStages = max(0, crossFitStages) }
        if let betweenWeights {
            let values = betweenWeights.split(separator: ",").compactMap { Float($0.trimmingCharacters(in: .whitespaces)) }
            guard values.count == betweenWeights.split(separator: ",").count, values.allSatisfy({ $0 > 0 && $0 <= 1 }) else {
                throw ValidationError("--between-weights must be numbers in (0, 1] separated by commas")
            }
            options.betweenWeights = values
        }
        options.betweenRidgeExtend = betweenRidgeExtend
        if stageRidges != nil || stageBetweenWeights != nil {
            func parse(_ v: String?) -> [Float] { (v ?? "").split(separator: ",").compactMap { Float($0.trimmingCharacters(in: .whitespaces)) } }
            let r = parse(stageRidges), g = parse(stageBetweenWeights)
            guard !r.isEmpty, r.count == g.count, r.count == (stageRidges ?? "").split(separator: ",").count,
                  g.count == (stageBetweenWeights ?? "").split(separator: ",").count,
                  r.allSatisfy({ $0 > 0 }), g.allSatisfy({ $0 > 0 && $0 <= 1 }) else {
                throw ValidationError("--stage-ridges (positive) and --stage-between-weights (0 < γ ≤ 1) need the same number of values")
            }
            options.stageParameters = zip(r, g).map { (ridge: $0, betweenWeight: $1) }
        }
        if let lbfRadii {
            func parse(_ v: String) -> [Float]? {
                let values = v.split(separator: ",").compactMap { Float($0.trimmingCharacters(in: .whitespaces)) }
                return values.count == v.split(separator: ",").count && !values.isEmpty && values.allSatisfy({ $0 > 0 && $0.isFinite }) ? values : nil
            }
            guard let radii = parse(lbfRadii), radii.allSatisfy({ $0 <= 96 }), let ridges = parse(lbfRidges), let gammas = parse(lbfBetweenWeights), gammas.allSatisfy({ $0 <= 1 }),
                  (1...64).contains(lbfTrees), (1...8).contains(lbfDepth), lbfSamples >= 100 else {
                throw ValidationError("--lbf-radii (0...96), --lbf-ridges (positive) and --lbf-between-weights (0 < γ ≤ 1) are comma-separated numbers; --lbf-trees 1...64, --lbf-depth 1...8, --lbf-samples ≥ 100")
            }
            options.binary.radii = radii
            options.binary.trees = lbfTrees
            options.binary.depth = lbfDepth
            options.binary.forestSamples = lbfSamples
            options.binary.ridgeCandidates = ridges
            options.binary.betweenWeights = gammas
        }
        options.ridgeFold = ridgeFold
        options.holdOut = holdOut
        let bar = ProgressBar()
        let (trained, reports) = try LandmarkTrainer(options: options).train(
            faces: faces, progress: { bar.update($0.fraction, $0.phase) },
            log: { message in bar.finish(); printError(message) })
        bar.finish()
        var cascade = trained
        cascade.metadata["training.command"] = "lorgnette train landmarks " + CommandLine.arguments.dropFirst(3).joined(separator: " ")
        cascade.metadata["training.data"] = training.data.map { ($0 as NSString).lastPathComponent }.joined(separator: ",") + " (training split, \(faces.count) faces\(noMirror ? "" : " + mirrors"))"
        cascade.metadata["training.seed"] = String(seed)
        cascade.metadata["training.perturbations"] = String(perturbations)
        cascade.metadata["training.boxes"] = boxSource
        cascade.metadata["training.ridge"] = reports.map { String(format: "%.4g", $0.ridge) }.joined(separator: ",")
        if !options.betweenWeights.isEmpty { cascade.metadata["training.between_weights"] = reports.map { String(format: "%.3g", $0.betweenWeight) }.joined(separator: ",") }
        cascade.metadata["training.ranks"] = reports.map { String($0.rank) }.joined(separator: ",")
        if holdOut { cascade.metadata["training.held_out"] = "fold \(ridgeFold) of 5 (by name hash) never fitted: a cross-validation model, not for shipping" }
        cascade.metadata["training.licence"] = "trained on 300-W annotations (research use only)"
        let bytes = cascade.archive(weightEncoding: weightEncoding).serialized()
        try OutputFile.write(bytes, to: training.out)
        printError(String(format: "wrote %@ (%d bytes, %d stages) in %.0f s", training.out, bytes.count, cascade.stages.count, Date().timeIntervalSince(started)))
    }

    /// A training face turned by up to ±`rotation` degrees and scaled by up to ±`scale` about its
    /// landmarks' centre, with its contrast (0.7-1.3) and brightness (±25 levels) changed.
    static func augmented(_ face: AnnotatedFace, copy: Int, rotation: Float, scale: Float, rng: inout SplitMix64) -> AnnotatedFace {
        let centre = face.landmarks.reduce(SIMD2<Float>(0, 0), +) / Float(face.landmarks.count)
        let angle = rng.symmetric() * rotation * .pi / 180, s = 1 + rng.symmetric() * scale
        // target = centre + s R (source - centre)
        let targetFromSource = Affine2D.similarity(scale: s, angle: angle, translation: .zero)
        let t = centre - targetFromSource.apply(centre)
        let forward = Affine2D(a: targetFromSource.a, b: targetFromSource.b, tx: t.x, c: targetFromSource.c, d: targetFromSource.d, ty: t.y)
        var image = face.image.warped(width: face.image.width, height: face.image.height, sourceFromTarget: forward.inverted ?? .identity)
        let contrast = 1 + 0.3 * rng.symmetric(), brightness = 25 * rng.symmetric()
        for i in image.pixels.indices {
            image.pixels[i] = UInt8(max(0, min(255, (contrast * (Float(image.pixels[i]) - 128) + 128 + brightness).rounded())))
        }
        return AnnotatedFace(name: face.name + "~\(copy)", image: image, landmarks: face.landmarks.map(forward.apply))
    }
}