import FaceDetection
import FaceModel
import Geometry
import Imaging
import Landmarks
import Media
import PoseEstimation

/// A pre-scan of the first frames of a recording that estimates the camera's field of view
/// (`FieldOfViewEstimator`) before the real tracking starts, so the pose never jumps mid-stream.
///
/// Feed frames in order with `add` until it returns true (`frames` frames with a face collected), or
/// until the caller's own frame limit; then `estimate()`. The landmarks come from a `FaceTracker`
/// without smoothing (its own camera is only a placeholder: landmark fits do not depend on it), the
/// first tracked face only; a frame whose landmarks repeat the previous ones within 0.01 px (a still
/// picture) is not counted again. All frames must have the first frame's size.
public final class FieldOfViewScan {
    public let estimator: FieldOfViewEstimator
    /// Frames with a face to collect.
    public let frames: Int
    private let tracker: FaceTracker
    private var observations: [[SIMD2<Double>]] = []
    private var size: (width: Int, height: Int)?

    public init(detector: any FaceDetector, landmarkModel: any LandmarkModel, face: MeanFace,
                configuration: FaceTrackerConfiguration = FaceTrackerConfiguration(), frames: Int = 30) {
        var configuration = configuration
        configuration.smoothing = false
        configuration.maxFaces = 1
        estimator = FieldOfViewEstimator(face: face)
        self.frames = max(frames, 1)
        tracker = FaceTracker(detector: detector, landmarkModel: landmarkModel, poseEstimator: FacePoseEstimator(face: face),
                              camera: .defaultWebcam(width: 640, height: 480), configuration: configuration)
    }

    /// Frames with a face collected so far.
    public var collected: Int { observations.count }

    /// Tracks one frame; true once `frames` frames with a face are collected. Frames of another size
    /// than the first are ignored.
    @discardableResult
    public func add(_ image: GrayImage, timestampSeconds: Double) -> Bool {
        if size == nil {
            size = (image.width, image.height)
            tracker.camera = .defaultWebcam(width: image.width, height: image.height)
        }
        guard image.width == size!.width, image.height == size!.height, observations.count < frames else { return observations.count >= frames }
        let anchors = tracker.process(image, timestampSeconds: timestampSeconds).filter { $0.state != .lost }
        if let face = anchors.first {
            let points = face.landmarks.map { SIMD2(Double($0.x), Double($0.y)) }
            let repeated = observations.last.map { last in zip(last, points).allSatisfy { abs($0.x - $1.x) < 0.01 && abs($0.y - $1.y) < 0.01 } } ?? false
            if !repeated { observations.append(points) }
        }
        return observations.count >= frames
    }

    /// Feeds up to `maxFrames` frames of `source` (a second opening of the recording about to be
    /// played; the caller closes it), decoded to gray with `decoder`, until `frames` of them show a
    /// face; timestamps are taken relative to the first frame. Then `estimate()`.
    public func scan(_ source: FrameSource, decoder: any JPEGDecoding, maxFrames: Int = 150) throws -> FieldOfViewEstimate? {
        var image = GrayImage(width: 1, height: 1)
        var t0: Double?
        for _ in 0..<maxFrames {
            guard let frame = try source.nextFrame() else { break }
            switch frame.payload {
            case .jpeg(let bytes):
                // A frame that does not decode is skipped, as the run that follows the scan skips it.
                do { try decoder.decodeGray(bytes, scale: .full, into: &image) } catch is JPEGError { continue }
            case .rgb(let rgb): image = GrayImage(luma: rgb)
            case .gray(let gray): image = gray
            }
            let start = t0 ?? frame.timestampSeconds
            t0 = start
            if add(image, timestampSeconds: frame.timestampSeconds - start) { break }
        }
        return estimate()
    }

    /// The estimate from the frames collected (nil without any face).
    public func estimate() -> FieldOfViewEstimate? {
        guard let size, !observations.isEmpty else { return nil }
        return estimator.estimate(observations, width: size.width, height: size.height)
    }
}
