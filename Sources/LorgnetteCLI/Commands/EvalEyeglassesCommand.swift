import ArgumentParser
import EyeglassesTraining
import FaceData
import FaceModel
import FacialMetrics
import Foundation
import Imaging
import Landmarks
import Media
import Pipeline

/// `lorgnette eval eyeglasses`: how often the eyeglasses classifier is right on held-out faces and on videos.
struct EvalEyeglassesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eyeglasses",
        abstract: "Measure the eyeglasses classifier: held-out photos (real and drawn glasses) and videos.",
        discussion: """
            Photos (--data): every face of --split as it is, judged against --labels (real glasses and \
            sunglasses found, bare faces called glasses), and every bare face again with --rendered-per-face \
            pairs drawn on by the try-on renderer (the glasses taken in turn, so each is drawn alike; a seed \
            other than training's). Landmarks: the cascade's tracking fit from the annotation, on the image judged. \
            Videos (--video, with --expect glasses or none): the metrics pipeline tracks the largest face as \
            `measure` does, every frame with a face is judged, and the share called glasses is reported with \
            the classifier's thread CPU time per frame (feature sampling + dot product).
            """
    )

    @Option(help: "Folder of face crops with .pts annotations.")
    var data: String?

    @Option(help: "Which faces of --data: validation (held out of training), training or all.")
    var split = "validation"

    @Option(help: "Hand labels (default: Models/faces68-eyeglasses-labels.txt).")
    var labels: String?

    @Option(help: "Eyeglasses model (default: Models/eyeglasses.eyeg).")
    var model: String?

    @Option(name: .customLong("glasses-models"), help: "Folder of folders of .glb/.gltf glasses to draw too.")
    var glassesModels: String?

    @Option(name: .customLong("rendered-per-face"), help: "Glasses drawn on each bare held-out face.")
    var renderedPerFace = 2

    @Option(help: "Seed of the drawn glasses' light and field of view.")
    var seed: UInt64 = 1001

    @Option(name: .customLong("video"), parsing: .upToNextOption, help: "Videos to judge frame by frame.")
    var videos: [String] = []

    @Option(help: "What the videos show: glasses or none.")
    var expect = "none"

    @Flag(name: .customLong("list-errors"), help: "Name every misjudged photo.")
    var listErrors = false

    func run() throws {
        try reportingErrors("eval eyeglasses", usageErrors: true) {
            let detector = try EyeglassesModel(contentsOf: model ?? ModelsDirectory.file("eyeglasses.eyeg").path)
            if let data { try photos(data, detector) }
            for video in videos { try judge(video, detector) }
        }
    }

    private func photos(_ data: String, _ model: EyeglassesModel) throws {
        let dataset = try FaceDataset(directory: data)
        let which: FaceDataset.Split = split == "training" ? .training : split == "all" ? .all : .validation
        let labelSet = try EyeglassesLabels(contentsOf: labels ?? ModelsDirectory.file("faces68-eyeglasses-labels.txt").path)
        let cascade = try LandmarkCascade(contentsOf: ModelsDirectory.file("landmarks.lmrk").path)
        let face = try MeanFace(contentsOf: ModelsDirectory.file("mean-face.json").path)
        let glasses = try EyeglassesData.glasses(modelsFolder: glassesModels)
        var maker = EyeglassesSampleMaker(landmarks: cascade, face: face, glasses: glasses)
        var rng = SplitMix64(seed: seed)
        var counts: [String: (n: Int, yes: Int)] = [:]
        var perGlasses = [(n: Int, yes: Int)](repeating: (0, 0), count: glasses.count)
        var turn = 0
        func note(_ key: String, _ yes: Bool) { counts[key, default: (0, 0)].n += 1; if yes { counts[key]!.yes += 1 } }
        func judged(_ gray: GrayImage, _ points: [SIMD2<Float>]) -> Bool? {
            maker.features(gray, start: points).first.map { model.wearsGlasses($0) }
        }
        for entry in dataset.entries(which) {
            let label = labelSet.label(entry.name)
            if label == .unsure { continue }
            let (rgb, points) = try EyeglassesData.load(entry)
            guard let bare = judged(GrayImage(luma: rgb), points) else { continue }
            note(label.rawValue, bare)
            if listErrors && bare != (label != .none) { print("misjudged \(entry.name) (\(label.rawValue))") }
            guard label == .none else { continue }
            for _ in 0..<renderedPerFace {
                let g = turn % glasses.count
                turn += 1
                guard let composite = maker.composite(rgb, points: points, glassesIndex: g, rng: &rng),
                      let yes = judged(GrayImage(luma: composite), points) else { continue }
                note("rendered", yes)
                perGlasses[g].n += 1
                if yes { perGlasses[g].yes += 1 }
            }
        }
        func line(_ key: String, _ what: String) {
            let c = counts[key] ?? (0, 0)
            print(String(format: "%@: %d of %d (%.2f %%)", what, c.yes, c.n, c.n > 0 ? 100 * Double(c.yes) / Double(c.n) : 0))
        }
        print("eyeglasses on \(split) photos of \(data) (threshold \(model.threshold)):")
        line("none", "  bare faces called glasses (false alarms)")
        line("glasses", "  real glasses found")
        line("sunglasses", "  real sunglasses found")
        line("rendered", "  rendered glasses found")
        for (i, g) in glasses.enumerated() where perGlasses[i].n > 0 && perGlasses[i].yes < perGlasses[i].n {
            print("    \(g.name): \(perGlasses[i].yes) of \(perGlasses[i].n)")
        }
    }

    private func judge(_ path: String, _ model: EyeglassesModel) throws {
        var configuration = PipelineConfiguration()
        configuration.mode = .metrics
        configuration.tracker.smoothing = false
        configuration.tracker.maxFaces = 1
        configuration.keepsImage = true
        let face = try MeanFace(contentsOf: ModelsDirectory.file("mean-face.json").path)
        let pipeline = try PipelineFactory.makePipeline(glasses: nil, face: face, configuration: configuration)
        let (source, _) = try MediaFactory.openSource(path)
        defer { source.close() }
        let detector = EyeglassesDetector(model: model)
        var frames = 0, cpu: [Double] = []
        while let frame = try source.nextFrame() {
            frames += 1
            let out = try pipeline.process(frame)
            guard let gray = out.gray, let a = out.anchors.max(by: { $0.box.width < $1.box.width }) else { continue }
            let t0 = ThreadCPUClock.seconds()
            detector.judge(gray, landmarks: a.landmarks)
            cpu.append(ThreadCPUClock.seconds() - t0)
        }
        cpu.sort()
        let rate = detector.framesJudged > 0 ? 100 * Double(detector.framesWithGlasses) / Double(detector.framesJudged) : 0
        print(String(format: "%@: glasses on %d of %d frames with a face (%.1f %%; %d frames; expected %@); session verdict %@; %.1f µs/frame median (thread CPU)",
                     (path as NSString).lastPathComponent, detector.framesWithGlasses, detector.framesJudged, rate, frames, expect,
                     (detector.wearsGlasses ?? false) ? "glasses" : "none", cpu.isEmpty ? 0 : cpu[cpu.count / 2] * 1e6))
    }
}
