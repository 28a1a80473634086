import ArgumentParser
import DetectorTraining
import FaceDetection
import Foundation
import Imaging
import Inputs
import JPEGCodec
import Media
import Pipeline

/// `lorgnette eval detector`: accuracy on the validation split and speed on 640x480 frames.
struct EvalDetectorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detector",
        abstract: "Measure the face detector: recall and false positives on validation faces, ms per frame.",
        discussion: """
            Accuracy: the validation split of every --data folder (photo-level, never trained on). \
            A face counts as found when a detection overlaps its canonical box with IoU >= 0.5; every \
            other detection is a false positive (AFW crops may hold unannotated faces, so that rate is \
            an upper bound). Speed: every --video input (any format `convert` reads), each frame \
            decoded to gray and centre-cropped to 640x480 when larger, detected --repeats times on one \
            thread; thread CPU time and wall time are reported. The video clips have no ground truth: \
            for them the command reports how many whole (uncropped) frames have a detection and how \
            many extra ones.
            """
    )

    @Option(help: "Detector model file.")
    var model = "Models/face-detector.fdet"

    @Option(name: .customLong("data"), parsing: .upToNextOption, help: "Annotated folders (.jpg + .pts) whose validation split is scored.")
    var data: [String] = []

    @Option(name: .customLong("video"), parsing: .upToNextOption, help: "Videos for the speed measurement (e.g. shared/data/videos/*.mjpeg).")
    var videos: [String] = []

    @Option(help: "Score threshold (default: the model's calibrated one).")
    var threshold: Float?

    @Option(help: "Detections per video frame for timing.")
    var repeats = 3

    @Option(name: .customLong("max-frames"), help: "Frames read per video.")
    var maxFrames = 120

    func run() throws {
        try reportingErrors("eval detector", usageErrors: true) {
            try evaluate()
        }
    }

    private func evaluate() throws {
        guard !data.isEmpty || !videos.isEmpty else { throw ValidationError("give --data folders and/or --video inputs") }
        guard repeats >= 1, maxFrames >= 1 else { throw ValidationError("--repeats and --max-frames must be positive") }
        guard FileManager.default.fileExists(atPath: model) else { throw CLIError("\(model): no such model file") }
        let loadStart = Date()
        let trained = try HOGFaceDetectorModel(contentsOfFile: model)
        let loadMs = Date().timeIntervalSince(loadStart) * 1000
        let detector = HOGFaceDetector(model: trained)
        if let threshold { detector.threshold = threshold }
        print(String(format: "model %@: %d filter(s), threshold %.4f, loaded in %.1f ms", model, trained.filters.count, detector.threshold, loadMs))

        if !data.isEmpty {
            try MediaFactory.requireFolders(data)
            var faces: [DetectorTrainingFace] = []
            for directory in data {
                faces += try DetectorTrainingFace.load(directory: directory, split: .validation, decoder: PhotoDecoder())
            }
            guard !faces.isEmpty else { throw CLIError("no validation faces in \(data.joined(separator: ", "))") }
            let e = DetectorEvaluation.run(detector, on: faces, threshold: detector.threshold - 1.5)
            print("validation: \(faces.count) faces (one annotated face per crop)")
            for t in [detector.threshold - 0.5, detector.threshold - 0.25, detector.threshold, detector.threshold + 0.25, detector.threshold + 0.5] {
                let s = e.summary(threshold: t)
                print(String(format: "  threshold %+.3f%@: recall %.2f %% (IoU >= 0.5), %.3f false positives per image, mean IoU %.3f",
                             t, t == detector.threshold ? " (used)" : "", 100 * s.recall, s.falsePositivesPerImage, s.meanIoU))
            }
            let missed = zip(faces, e.matchScores).filter { $0.1 < detector.threshold }.map(\.0.name)
            if !missed.isEmpty { print("  missed: " + missed.prefix(20).joined(separator: " ") + (missed.count > 20 ? " ..." : "")) }
        }

        for video in videos {
            let whole = try grayFrames(video)
            guard !whole.isEmpty else { throw CLIError("\(video): no frames") }
            var withFace = 0, extra = 0
            for frame in whole {
                let found = detector.detect(in: frame)
                if !found.isEmpty { withFace += 1 }
                extra += max(0, found.count - 1)
            }
            let frames = whole.map(Self.centreCrop640x480)
            var cpu: [Double] = [], wall: [Double] = []
            _ = detector.detect(in: frames[0])
            for frame in frames {
                for _ in 0 ..< repeats {
                    let c0 = ThreadCPUClock.seconds(), w0 = Date()
                    blackHole(detector.detect(in: frame))
                    cpu.append((ThreadCPUClock.seconds() - c0) * 1000)
                    wall.append(Date().timeIntervalSince(w0) * 1000)
                }
            }
            cpu.sort(); wall.sort()
            print(String(format: "%@: %d frames %dx%d, %d with a detection, %d extra detections; timed at %dx%d: ms/frame CPU median %.2f mean %.2f, wall median %.2f",
                         (video as NSString).lastPathComponent, whole.count, whole[0].width, whole[0].height, withFace, extra,
                         frames[0].width, frames[0].height,
                         cpu[cpu.count / 2], cpu.reduce(0, +) / Double(cpu.count), wall[wall.count / 2]))
        }
    }

    /// The centre 640x480 of a larger frame (the camera size the speed bar is stated for).
    static func centreCrop640x480(_ gray: GrayImage) -> GrayImage {
        guard gray.width >= 640 && gray.height >= 480 && (gray.width > 640 || gray.height > 480) else { return gray }
        return gray.cropped(to: PixelRect(x: (gray.width - 640) / 2, y: (gray.height - 480) / 2, width: 640, height: 480))
    }

    /// Up to --max-frames gray frames of `path`.
    private func grayFrames(_ path: String) throws -> [GrayImage] {
        let (source, _) = try MediaFactory.openSource(path)
        defer { source.close() }
        let decoder = TurboJPEGDecoder()
        var frames: [GrayImage] = []
        while frames.count < maxFrames, let frame = try source.nextFrame() {
            var gray = GrayImage(width: 1, height: 1)
            try PayloadDecoding.luma(of: frame.payload, decoder: decoder, into: &gray)
            frames.append(gray)
        }
        return frames
    }
}

/// Keeps a result alive so the optimiser cannot drop the call that made it.
@inline(never) private func blackHole<T>(_ value: T) { _ = value }

