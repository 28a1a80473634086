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

/// `lorgnette eval photos`: the face as `landmarks` finds it in photographs of every size, measured
/// on annotated faces placed the way real photos show them (the validation crops alone never show
/// a large face, a face at the frame's edge or a multi-megapixel photo).
struct EvalPhotosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "Detection and landmark accuracy on faces rescaled into large photos and cut by the frame's edge.",
        discussion: """
            Protocols (--protocol): natural (the crops as they are); canvas (each face rescaled by \
            x0.5, x1, x2, x4 and x8 and placed at a random spot of a --canvas photo, default 4000x3000, \
            filled with other crops turned upside down, so the canvas holds face-like content but no \
            upright face); tight (each face rescaled so its landmark box is 600-1,800 px and cropped to \
            that box grown by 0-15 %, shifted so that 0-25 % of the face lies outside the frame: a \
            selfie at arm's length). Faces are found as `lorgnette landmarks` finds them \
            (PhotoFaceDetector, detection-mode fits judged by the tracking-confidence model). Reported: \
            recall (a face whose box or fit has IoU ≥ 0.4 with the annotation's canonical box), false \
            positives per megapixel (faces off the annotated one), gross failures (the best-ranked \
            face near the annotated one has NME > 0.25), faces outranked by a false positive, and the \
            NME and failure rate (NME > 0.08; misses counted as failures) of the matched fits, \
            inter-ocular and inter-pupil. Detection time is thread CPU time of the detector alone.
            """
    )

    enum PhotoProtocol: String, ExpressibleByArgument, CaseIterable { case natural, canvas, tight }

    @Option(help: "Folder of .jpg + .pts (68 points).")
    var data: String
    @Option(help: "Which faces: validation, training or all.")
    var split = "validation"
    @Option(name: .customLong("protocol"), help: "natural, canvas or tight.")
    var photoProtocol: PhotoProtocol = .canvas
    @Option(help: "Canvas size for --protocol canvas (WxH).")
    var canvas = "4000x3000"
    @Option(help: "Evaluate at most this many faces, spread evenly over the split's sorted names (every source, not the first source alone); each face gets the scenes the full run gives it.")
    var limit: Int?
    @Option(help: "Landmark model file (default: Models/landmarks.lmrk).")
    var model: String?
    @Option(help: "Face detector model file (default: Models/face-detector.fdet).")
    var detector: String?
    @Option(name: .customLong("pixel-budget"), help: "PhotoFaceDetector's pixel budget for the first pyramid level.")
    var pixelBudget = 6_000_000
    @Option(name: .customLong("skipped-levels"), help: "Search the pyramid levels the pixel budget skips around seeds of the first scanned level: on (default) or off (the scan before issue 21's small faces).")
    var skippedLevels = "on"
    @Option(name: .customLong("seed-threshold"), help: "Window score on the first scanned level that makes a seed for the skipped levels (default: PhotoFaceDetector's).")
    var seedThreshold: Float?
    @Option(name: .customLong("skipped-level-pixels"), help: "Level pixels the skipped levels' regions may hold in all (default: PhotoFaceDetector's).")
    var skippedLevelPixels: Int?
    @Option(help: "Canvas scales to evaluate, comma-separated (the scenes are made for all five either way, so a scene is the same one the full run has).")
    var scales = "0.5,1,2,4,8"
    @Option(name: .customLong("border-cells"), help: "Black border around every pyramid level, in cells (0 = the plain detector).")
    var borderCells = 4
    @Option(name: .customLong("detector-threshold"), help: "Window score a detection needs (default: the detector model's threshold); lower finds more faces and leaves more to the fit judge.")
    var detectorThreshold: Float?
    @Option(name: .customLong("min-fit-score"), help: "Drop faces whose fit the judge scores below this (log-odds; -inf keeps every detection).")
    var minFitScore = PhotoFaceJudging.minimumFitScore
    @Option(name: .customLong("rival-threshold"), help: "Windows under the detector's threshold but over this are rivals of the box that suppresses them, never boxes of their own (default: PhotoFaceDetector's; the detector's threshold = rivals over the threshold only, as before).")
    var rivalThreshold: Float?
    @Option(name: .customLong("standby-windows"), help: "Weak windows fitted when no box gives a face (default: PhotoFaceDetector's; 0 = never, the behaviour before).")
    var standbyWindows: Int?
    @Option(name: .customLong("standby-fit-score"), help: "Log-odds a standby window's fit needs to count as a face.")
    var standbyFitScore = PhotoFaceJudging.standbyFitScore
    @Flag(name: .customLong("no-rivals"), help: "Fit only the boxes non-maximum suppression kept, not their suppressed rivals of another size (the behaviour before rivals were judged).")
    var noRivals = false
    @Option(help: "Also write every scene here as JPEG (quality 95) + .pts (0-based, as the shared data), so a peer (Bench/Peers/dlib_landmarks.py --split all) runs the same protocol.")
    var export: String?
    @Option(help: "Detection mode's mirrored fit: mean (default: the fit of the mirrored face averaged in), none, or agree:T (see eval landmarks).")
    var mirror = "mean"
    @Option(name: .customLong("baseline-model"), help: "Also fit the same scenes with this landmark model (e.g. the previous Models/landmarks.lmrk) and draw its curve on the SVG.")
    var baselineModel: String?
    @OptionGroup var curveOptions: ErrorCurveOptions
    @Flag(help: "One JSON object with the results instead of text.")
    var json = false

    func run() throws {
        try reportingErrors("eval photos", usageErrors: true) {
            try OutputSafety.refuseOverwritingInputs(outputs: curveOptions.outputs + [("--export", export)],
                                                     inputs: [data, model, detector, baselineModel, curveOptions.compareFile])
            try evaluate()
        }
    }

    /// What one scene gave.
    struct SceneResult {
        var megapixels: Double
        var seconds: Double
        /// NME of the fit from the box that matches the face (nil: missed).
        var errors: (io: Float, ip: Float)?
        var gross: Bool
        var outscored: Bool
        var falsePositives: Int
    }

    struct Tally {
        var faces = 0, found = 0, gross = 0, outscored = 0
        var falsePositives = 0
        var megapixels = 0.0
        var detectSeconds = 0.0
        var io: [Float] = [], ip: [Float] = []

        mutating func add(_ r: SceneResult) {
            faces += 1
            megapixels += r.megapixels
            detectSeconds += r.seconds
            found += r.errors == nil ? 0 : 1
            gross += r.gross ? 1 : 0
            outscored += r.outscored ? 1 : 0
            falsePositives += r.falsePositives
            io.append(r.errors?.io ?? .infinity)
            ip.append(r.errors?.ip ?? .infinity)
        }
    }

    private func evaluate() throws {
        let which: FaceDataset.Split = split == "all" ? .all : split == "training" ? .training : .validation
        let size = canvas.split(separator: "x").compactMap { Int($0) }
        guard size.count == 2, size[0] >= 64, size[1] >= 64, size[0] * size[1] <= 100_000_000 else { throw ValidationError("--canvas wants WxH") }
        var cascade = try LandmarkCascade(contentsOf: model ?? ModelsDirectory.file("landmarks.lmrk").path)
        cascade.detectionRefinement = DetectionRefinement(mirror: try DetectionRefinementOptions.mirror(mirror))
        if let scorer = try? TrackingConfidenceModel(contentsOf: ModelsDirectory.file("tracking-confidence.tcnf").path), scorer.matches(cascade) {
            cascade.detectionRefinement.scorer = scorer
        }
        var baseline: LandmarkCascade?
        if let baselineModel {
            baseline = try LandmarkCascade(contentsOf: baselineModel)
            baseline!.detectionRefinement = DetectionRefinement(mirror: cascade.detectionRefinement.mirror)
            if let scorer = cascade.detectionRefinement.scorer as? TrackingConfidenceModel, scorer.matches(baseline!) {
                baseline!.detectionRefinement.scorer = scorer
            }
        }
        var baselineTally = Tally()
        let finder = PhotoFaceDetector(model: try HOGFaceDetectorModel(contentsOfFile: detector ?? ModelsDirectory.file("face-detector.fdet").path))
        finder.pixelBudget = pixelBudget
        finder.detector.borderCells = max(0, borderCells)
        if let detectorThreshold { finder.detector.threshold = detectorThreshold }
        guard skippedLevels == "on" || skippedLevels == "off" else { throw ValidationError("--skipped-levels wants on or off") }
        finder.searchSkippedLevels = skippedLevels == "on"
        if let seedThreshold { finder.seedThreshold = seedThreshold }
        if let rivalThreshold { finder.rivalThreshold = rivalThreshold }
        if let skippedLevelPixels { finder.skippedLevelPixels = skippedLevelPixels }
        if let standbyWindows { finder.standbyCount = max(0, standbyWindows) }
        let selectedScales = Set(scales.split(separator: ",").compactMap { Float($0) })
        guard !selectedScales.isEmpty, selectedScales.isSubset(of: [0.5, 1, 2, 4, 8]) else { throw ValidationError("--scales wants some of 0.5,1,2,4,8") }
        let loaded = try TrainingSet.load(directories: [data], split: which, limit: limit, spread: true, decoder: PhotoDecoder())
        guard !loaded.faces.isEmpty else { throw ValidationError("no readable faces in \(data)") }
        let all = try TrainingSet.load(directories: [data], split: .training, limit: 400, decoder: PhotoDecoder()).faces
        if let export { try FileManager.default.createDirectory(atPath: export, withIntermediateDirectories: true) }
        let encoder = TurboJPEGEncoder()
        var sceneIndex = 0
        var sceneNames: [String] = []
        var tally = Tally()
        var perScale: [String: Tally] = [:]
        var causes = PhotoFailureCauses()
        var causesPerScale: [String: PhotoFailureCauses] = [:]
        var fitSeconds = 0.0, keptBoxes = 0, standbyBoxes = 0, rivalBoxes = 0, scenesWithRivals = 0, seeds = 0, skippedPixels = 0
        for (i, face) in loaded.faces.enumerated() {
            // Seeded by the face's name, so a face's scenes do not depend on which faces ran before it.
            var rng = SplitMix64(seed: 2026_11_26 ^ nameHash(face.name))
            let scenes: [(String, GrayImage, [SIMD2<Float>])]
            switch photoProtocol {
            case .natural: scenes = [("x1", face.image, face.landmarks)]
            case .canvas:
                // Every scale's scene is made (the random placement runs on), the unselected dropped.
                scenes = [0.5, 1, 2, 4, 8].compactMap { s in
                    let (image, points) = Self.place(face, scale: Float(s), width: size[0], height: size[1], background: all, rng: &rng)
                    return selectedScales.contains(Float(s)) ? ("x\(s)", image, points) : nil
                }
            case .tight:
                let (image, points) = Self.tightCrop(face, rng: &rng)
                scenes = [("tight", image, points)]
            }
            for (label, image, truth) in scenes {
                if let export {
                    let stem = export + "/" + String(format: "scene_%05d_", sceneIndex) + label.replacingOccurrences(of: ".", with: "_")
                    try OutputFile.write(encoder.encode(RGBImage(gray: image), quality: 95), to: stem + ".jpg")
                    let lines = truth.map { String(format: "%.3f %.3f", $0.x, $0.y) }.joined(separator: "\n")
                    try OutputFile.write("version: 1\nn_points:  68\n{\n\(lines)\n}\n", to: stem + ".pts")
                    sceneIndex += 1
                }
                // One scan per scene, timed; the baseline model fits the same boxes.
                let c0 = ThreadCPUClock.seconds()
                let contested = finder.detectContested(in: image)
                let seconds = ThreadCPUClock.seconds() - c0
                seeds += finder.lastSeedCount
                skippedPixels += finder.lastSkippedPixels
                let boxes = SceneBoxes(noRivals ? contested.map { ContestedBox(box: $0.box, standby: $0.standby) } : contested)
                let f0 = ThreadCPUClock.seconds()
                let result = Self.measure(image, truth, boxes: boxes, seconds: seconds, cascade: cascade, minimumFitScore: minFitScore, standbyFitScore: standbyFitScore)
                fitSeconds += ThreadCPUClock.seconds() - f0
                keptBoxes += boxes.boxes.count
                standbyBoxes += boxes.groups.count - boxes.boxes.count
                rivalBoxes += boxes.rivals
                scenesWithRivals += boxes.rivals > 0 ? 1 : 0
                tally.add(result)
                sceneNames.append("scene_\(tally.faces - 1)_\(label)")
                if !json {
                    let scene = PhotoFailureCauses.observe(image, truth: truth, detector: boxes.groups.flatMap { [$0.box] + $0.rivals }, nme: result.errors?.io, cascade: cascade,
                                                         finder: finder)
                    causes.add(scene)
                    causesPerScale[label, default: PhotoFailureCauses()].add(scene)
                    if AlignmentError.normaliser(truth) >= 40 { causesPerScale[Self.issueRange, default: PhotoFailureCauses()].add(scene) }
                    if let cause = scene.cause {
                        let best = scene.bestWindowScore.map { String(format: " (best window on it %.3f, threshold %.3f)", $0, finder.detector.threshold) } ?? ""
                        printError("eval photos: \(sceneNames.last!) (\(face.name)) failed: \(cause.rawValue)\(best)\(scene.cutByEdge ? ", cut by the edge" : "")"
                                   + (scene.overlapping.isEmpty ? "" : "; boxes over it instead: " + scene.overlapping.joined(separator: "; ")))
                    }
                }
                if let baseline { baselineTally.add(Self.measure(image, truth, boxes: boxes, seconds: seconds, cascade: baseline, minimumFitScore: minFitScore, standbyFitScore: standbyFitScore)) }
                perScale[label, default: Tally()].add(result)
                // Issue 21's stated range: faces from 40 px between the outer eye corners.
                if AlignmentError.normaliser(truth) >= 40 { perScale[Self.issueRange, default: Tally()].add(result) }
            }
            if !json && (i + 1) % 20 == 0 { printError("eval photos: \(i + 1)/\(loaded.faces.count) faces") }
        }
        report(tally, perScale: perScale, faces: loaded.faces.count)
        if !json {
            print("boxes fitted: \(keptBoxes) kept by the suppression, \(rivalBoxes) rivals of another size in \(scenesWithRivals) of \(tally.faces) scenes, "
                  + "\(standbyBoxes) standby windows (fitted where nothing else gave a face); "
                  + String(format: "fits (landmarks + judge) %.1f ms/scene thread CPU", 1000 * fitSeconds / Double(max(1, tally.faces))))
            print(String(format: "skipped levels: %.1f seeds and %.2f Mpixel of regions a scene", Double(seeds) / Double(max(1, tally.faces)),
                         Double(skippedPixels) / 1e6 / Double(max(1, tally.faces))))
            print(causes.summary)
            for key in causesPerScale.keys.sorted(by: { Float($0.dropFirst()) ?? .infinity < Float($1.dropFirst()) ?? .infinity }) {
                print("  \(key): " + causesPerScale[key]!.summary)
            }
        }
        if baseline != nil, !json {
            print("baseline model \(baselineModel!): " + String(format: "NME io %.2f %%, failures %.2f %%", 100 * baselineTally.io.filter(\.isFinite).reduce(0, +) / Float(max(1, baselineTally.io.filter(\.isFinite).count)), 100 * Double(baselineTally.io.filter { !($0 <= 0.08) }.count) / Double(max(1, baselineTally.faces))))
        }
        var curves = [CEDCurveSVG.Curve(label: "Lorgnette (\(model.map { ($0 as NSString).lastPathComponent } ?? "landmarks.lmrk"))", errors: tally.io.sorted(), colour: "#d62728")]
        if baseline != nil {
            curves.append(.init(label: "previous model (\((baselineModel! as NSString).lastPathComponent))", errors: baselineTally.io.sorted(), colour: "#7f7f7f"))
        }
        try curveOptions.write(rows: zip(sceneNames, zip(tally.io, tally.ip)).map { ($0, $1.0, $1.1) }, curves: curves,
                               title: "Cumulative error distribution, \(photoProtocol.rawValue) protocol (\(tally.faces) scenes)")
    }

    /// The extra row of `report`: scenes whose outer eye corners (points 36, 45) are ≥ 40 px apart.
    static let issueRange = "inter-ocular >= 40 px"

    /// One scene: find the faces as `landmarks` does, and judge them against the annotation.
    static func measure(_ image: GrayImage, _ truth: [SIMD2<Float>], boxes: SceneBoxes, seconds: Double, cascade: LandmarkCascade,
                        minimumFitScore: Float, standbyFitScore: Float) -> SceneResult {
        let faces = cascade.faces(in: image, detector: boxes, minimumFitScore: minimumFitScore, standbyFitScore: standbyFitScore)
        let canonical = FaceBox.canonical(landmarks: truth)
        let io = AlignmentError.normaliser(truth), ip = AlignmentError.interPupilNormaliser(truth)
        let fitBox = { (f: PhotoFace) in FaceBox.canonical(landmarks: f.landmarks) }
        let isOffFace = { (f: PhotoFace) in fitBox(f).iou(canonical) < 0.1 && !canonical.contains(fitBox(f).centre) }
        var result = SceneResult(megapixels: Double(image.width * image.height) / 1e6, seconds: seconds, errors: nil,
                                 gross: false, outscored: false, falsePositives: faces.filter(isOffFace).count)
        let matched = faces.filter { $0.box.iou(canonical) >= 0.4 || fitBox($0).iou(canonical) >= 0.4 }
        if let best = matched.max(by: { fitBox($0).iou(canonical) < fitBox($1).iou(canonical) }) {
            let e = AlignmentError.meanError(best.landmarks, truth)
            result.errors = (e / io, e / ip)
        }
        // What a user sees: the best-ranked face near the annotated one, and whether anything off the face ranked above it.
        if let top = faces.firstIndex(where: { !isOffFace($0) }) {
            result.gross = AlignmentError.meanError(faces[top].landmarks, truth) / io > 0.25
            result.outscored = top > 0
        } else {
            result.outscored = !faces.isEmpty
        }
        return result
    }

    /// `face` rescaled by `scale` at a random place of a `width x height` photo of upside-down crops.
    static func place(_ face: AnnotatedFace, scale: Float, width: Int, height: Int, background: [AnnotatedFace], rng: inout SplitMix64) -> (GrayImage, [SIMD2<Float>]) {
        var canvas = GrayImage(width: width, height: height, fill: 96)
        var y0 = 0
        while y0 < height {
            var x0 = 0, rowHeight = 0
            while x0 < width {
                let tile = background[Int(rng.next() % UInt64(background.count))].image
                let side = 300 + Int(rng.next() % 500)
                let turned = tile.resized(width: side, height: side, method: .bilinear)
                for y in 0 ..< side where y0 + y < height {
                    for x in 0 ..< side where x0 + x < width { canvas[x0 + x, y0 + y] = turned[side - 1 - x, side - 1 - y] }
                }
                x0 += side; rowHeight = max(rowHeight, side)
            }
            y0 += rowHeight
        }
        let w = max(1, Int((Float(face.image.width) * scale).rounded())), h = max(1, Int((Float(face.image.height) * scale).rounded()))
        let scaled = face.image.resized(width: w, height: h, method: scale < 1 ? .area : .bilinear)
        let ox = w >= width ? -Int(rng.next() % UInt64(w - width + 1)) : Int(rng.next() % UInt64(width - w + 1))
        let oy = h >= height ? -Int(rng.next() % UInt64(h - height + 1)) : Int(rng.next() % UInt64(height - h + 1))
        for y in 0 ..< h where oy + y >= 0 && oy + y < height {
            for x in 0 ..< w where ox + x >= 0 && ox + x < width { canvas[ox + x, oy + y] = scaled[x, y] }
        }
        let sx = Float(w) / Float(face.image.width), sy = Float(h) / Float(face.image.height)
        let points = face.landmarks.map { SIMD2(($0.x + 0.5) * sx - 0.5 + Float(ox), ($0.y + 0.5) * sy - 0.5 + Float(oy)) }
        return (canvas, points)
    }

    /// A tight portrait: the face's landmark box grown by 0-15 %, up to 25 % of it outside the frame.
    static func tightCrop(_ face: AnnotatedFace, rng: inout SplitMix64) -> (GrayImage, [SIMD2<Float>]) {
        let box = FaceBox.canonical(landmarks: face.landmarks)
        let targetSide = 600 + Float(rng.next() % 1200)
        let scale = targetSide / box.width
        let w = Int((Float(face.image.width) * scale).rounded()), h = Int((Float(face.image.height) * scale).rounded())
        let big = face.image.resized(width: w, height: h, method: .bilinear)
        let side = targetSide * (1 + 0.15 * rng.unit())
        let shift = SIMD2(rng.symmetric(), rng.symmetric()) * (0.25 * targetSide)
        let centre = (box.centre + 0.5) * scale - 0.5 + shift
        let x0 = Int((centre.x - side / 2).rounded()), y0 = Int((centre.y - side / 2).rounded())
        let cw = Int(side), ch = Int(side * (1.2 + 0.2 * rng.unit()))
        let cy0 = y0 - (ch - cw) / 2
        var out = GrayImage(width: cw, height: ch)
        for y in 0 ..< ch {
            let sy = cy0 + y
            guard sy >= 0 && sy < h else { continue }
            for x in 0 ..< cw {
                let sx = x0 + x
                if sx >= 0 && sx < w { out[x, y] = big[sx, sy] }
            }
        }
        let points = face.landmarks.map { ($0 + 0.5) * scale - 0.5 - SIMD2(Float(x0), Float(cy0)) }
        return (out, points)
    }

    private func report(_ t: Tally, perScale: [String: Tally], faces: Int) {
        func summary(_ t: Tally) -> [String: Any] {
            let n = max(1, t.faces)
            let sortedIO = t.io.sorted(), sortedIP = t.ip.sorted()
            let finite = t.io.filter(\.isFinite), finiteIP = t.ip.filter(\.isFinite)
            return [
                "scenes": t.faces,
                "recall": Double(t.found) / Double(n),
                "false_positives_per_megapixel": t.megapixels > 0 ? Double(t.falsePositives) / t.megapixels : 0,
                "gross_failures": Double(t.gross) / Double(n),
                "outscored_by_false_positive": Double(t.outscored) / Double(n),
                "nme_io_mean_found": finite.isEmpty ? 0 : Double(finite.reduce(0, +)) / Double(finite.count),
                "nme_ip_mean_found": finiteIP.isEmpty ? 0 : Double(finiteIP.reduce(0, +)) / Double(finiteIP.count),
                "nme_io_median": Double(sortedIO[sortedIO.count / 2]),
                "nme_ip_median": Double(sortedIP[sortedIP.count / 2]),
                "failure_rate_io": Double(t.io.filter { !($0 <= 0.08) }.count) / Double(n),
                "detect_ms_per_megapixel": t.megapixels > 0 ? 1000 * t.detectSeconds / t.megapixels : 0,
                "detect_ms_per_scene": 1000 * t.detectSeconds / Double(n),
            ]
        }
        var object = summary(t)
        object["protocol"] = photoProtocol.rawValue
        object["faces"] = faces
        object["by_scale"] = perScale.mapValues(summary)
        if json {
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            print(String(decoding: data ?? Data(), as: UTF8.self))
            return
        }
        func line(_ name: String, _ s: [String: Any]) -> String {
            func pct(_ k: String) -> String { String(format: "%.2f %%", 100 * (s[k] as? Double ?? 0)) }
            return "\(name): \(s["scenes"]!) scenes, recall \(pct("recall")), gross failures \(pct("gross_failures")), "
                + "outscored by a false positive \(pct("outscored_by_false_positive")), "
                + String(format: "FP/MP %.3f, ", s["false_positives_per_megapixel"] as? Double ?? 0)
                + "NME io \(pct("nme_io_mean_found")) (median \(pct("nme_io_median"))), ip \(pct("nme_ip_mean_found")), failures \(pct("failure_rate_io")), "
                + String(format: "detect %.1f ms/MP, %.1f ms/scene", s["detect_ms_per_megapixel"] as? Double ?? 0, s["detect_ms_per_scene"] as? Double ?? 0)
        }
        print(line("all (\(photoProtocol.rawValue))", object))
        for key in perScale.keys.sorted(by: { Float($0.dropFirst()) ?? .infinity < Float($1.dropFirst()) ?? .infinity }) { print(line("  " + key, summary(perScale[key]!))) }
    }
}

/// The photo detector's boxes for one scene, handed to `LandmarkCascade.faces(in:detector:)` so the
/// scene is scanned once however many models fit it.
final class SceneBoxes: ContestedFaceDetector {
    let groups: [ContestedBox]
    init(_ groups: [ContestedBox]) { self.groups = groups }
    /// The kept boxes.
    var boxes: [FaceBox] { groups.filter { !$0.standby }.map(\.box) }
    /// Rival boxes fitted beside the kept ones.
    var rivals: Int { groups.reduce(0) { $0 + $1.rivals.count } }
    func detect(in image: GrayImage) -> [FaceBox] { boxes }
    func detectContested(in image: GrayImage) -> [ContestedBox] { groups }
}

extension FaceBox {
    func contains(_ p: SIMD2<Float>) -> Bool { p.x >= x && p.x <= x + width && p.y >= y && p.y <= y + height }
}
