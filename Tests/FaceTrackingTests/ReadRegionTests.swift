import FaceData
import FaceDetection
import FaceModel
import FaceTracking
import Foundation
import Geometry
import Imaging
import Inputs
import JPEGCodec
import Landmarks
import PoseEstimation
import Testing

private let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let facesFolder = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/data/faces68/train").path
private let hasFaces = FileManager.default.fileExists(atPath: facesFolder + "/index.csv")

/// Finds the face at a fixed box and remembers the images it was shown.
private final class RecordingDetector: FaceDetector {
    let box: FaceBox
    var seen: [GrayImage] = []
    init(_ box: FaceBox) { self.box = box }
    func detect(in image: GrayImage) -> [FaceBox] { seen.append(image); return [box] }
}

/// `face` pasted at (x, y) into a mid-gray frame three times its size: room around the face, as in a webcam frame.
private func frame(_ face: GrayImage, x: Int, y: Int) -> GrayImage {
    var out = GrayImage(width: 3 * face.width, height: 3 * face.height)
    for i in out.pixels.indices { out.pixels[i] = 128 }
    for v in 0..<face.height { for u in 0..<face.width { out[x + u, y + v] = face[u, v] } }
    return out
}

/// `image` with every pixel outside `region` set to 0: what a caller that converted only the region holds.
private func keepingOnly(_ region: PixelRect, of image: GrayImage) -> GrayImage {
    var out = GrayImage(width: image.width, height: image.height)
    for y in 0..<image.height { for x in 0..<image.width where region.contains(x: x, y: y) { out[x, y] = image[x, y] } }
    return out
}

/// The plan's read region is all the tracker reads while following a face: a frame blanked outside it
/// gives exactly the landmarks of the whole frame. When the face is lost, the tracker asks for the
/// detector (`wantsDetection`) and it runs on the whole frame it is given, not on the partial one.
@Test(.enabled(if: hasFaces, "shared face data not found next to the repository"))
func trackingReadsOnlyTheAnnouncedRegionAndDetectsOnTheWholeFrame() throws {
    let cascade = try LandmarkCascade(contentsOf: repoRoot.appendingPathComponent("Models/landmarks.lmrk").path)
    let meanFace = try MeanFace(contentsOf: repoRoot.appendingPathComponent("Models/mean-face.json").path)
    let entry = try #require(try FaceDataset(directory: facesFolder).entries(.validation).first)
    let face = try FaceDataset.load(entry, decoder: PhotoDecoder())
    let origin = (x: face.image.width, y: face.image.height)
    let box = FaceBox.canonical(landmarks: face.landmarks.map { $0 + SIMD2(Float(origin.x), Float(origin.y)) })
    var configuration = FaceTrackerConfiguration()
    configuration.confidenceModel = try TrackingConfidenceModel(contentsOf: repoRoot.appendingPathComponent("Models/tracking-confidence.tcnf").path)
    configuration.lossFrames = 1000  // the classifier judges, but only the last frame may lose the face
    configuration.lossConfidence = 0
    configuration.startConfidence = 0
    func makeTracker(_ detector: RecordingDetector) -> FaceTracker {
        FaceTracker(detector: detector, landmarkModel: cascade, poseEstimator: FacePoseEstimator(face: meanFace),
                    camera: CameraIntrinsics(horizontalFOVDegrees: 60, width: 3 * face.image.width, height: 3 * face.image.height),
                    configuration: configuration)
    }
    let wholeDetector = RecordingDetector(box), partialDetector = RecordingDetector(box)
    let whole = makeTracker(wholeDetector), partial = makeTracker(partialDetector)
    let width = 3 * face.image.width, height = 3 * face.image.height
    #expect(partial.plan(width: width, height: height) == TrackingPlan(readRegion: nil, detects: true), "nothing tracked yet: the whole frame")
    for k in 0..<6 {
        let image = frame(face.image, x: origin.x + 3 * k, y: origin.y + k)
        let plan = partial.plan(width: width, height: height)
        let region = plan.readRegion
        #expect(plan.detects == (k == 0))
        if k > 0 {
            let r = try #require(region, "frame \(k): a tracked face must announce its region")
            #expect(r.area < width * height / 2, "frame \(k): region \(r) is not a small part of the frame")
        }
        let a = whole.process(image, timestampSeconds: Double(k) / 30)
        partial.follow(.gray(region.map { keepingOnly($0, of: image) } ?? image), timestampSeconds: Double(k) / 30)
        if partial.wantsDetection { partial.detect(in: image) }
        let b = partial.finishFrame()
        try #require(a.count == 1 && b.count == 1)
        #expect(a[0].landmarks == b[0].landmarks, "frame \(k)")
    }
    // The face leaves: the partial frame (blank) loses it, and the detector must see the whole frame.
    let empty = frame(GrayImage(width: face.image.width, height: face.image.height), x: 0, y: 0)
    let region = try #require(partial.plan(width: width, height: height).readRegion)
    var wholeFrame = frame(face.image, x: 0, y: 0)
    wholeFrame[width - 1, height - 1] = 7  // a mark outside the tracked region
    let seenBefore = partialDetector.seen.count
    partial.configuration.lossFrames = 1
    partial.follow(.gray(keepingOnly(region, of: empty)), timestampSeconds: 1)
    #expect(partial.wantsDetection, "every face lost: the detector is due on this frame")
    partial.detect(in: wholeFrame)
    _ = partial.finishFrame()
    #expect(partialDetector.seen.count == seenBefore + 1)
    #expect(partialDetector.seen.last?[width - 1, height - 1] == 7)
}
