import FaceDetection
import FacialMetrics
import Imaging
import Landmarks
import Media

/// One photograph's faces, as `lorgnette landmarks` reports them: the upright picture's size, and
/// per face the detector's box, the 68 landmarks and the refined pupils (image-left eye first).
public struct PhotoLandmarks: Sendable {
    public struct Face: Sendable {
        public var box: FaceBox
        public var landmarks: [SIMD2<Float>]
        public var pupils: [SIMD2<Float>]
    }

    public var width: Int
    public var height: Int
    public var faces: [Face]
}

/// The journey of a photograph through `lorgnette landmarks`: decode → luma → every face (detection
/// mode, fits judged by the tracking-confidence model) → pupils. The decode is the frame pipeline's
/// luma stage (`PayloadDecoding`), and the photo arrives through the same reader as `measure`'s and
/// `live`'s, so a photo reads alike in every command.
public final class PhotoLandmarker {
    let detector: any FaceDetector
    let cascade: LandmarkCascade
    let decoder: any JPEGDecoding
    let refiner = PupilRefiner()
    private var gray = GrayImage(width: 1, height: 1)

    /// `judge` is used only when it was trained for `cascade` (`FitScorer.judges`); without one every
    /// detection is reported. `mirror`: how the fit of each mirrored face joins the direct one.
    public init(detector: any FaceDetector, cascade: LandmarkCascade, judge: (any FitScorer)?, decoder: any JPEGDecoding,
                mirror: DetectionRefinement.MirrorCombination? = DetectionRefinement().mirror) {
        var cascade = cascade
        cascade.detectionRefinement = DetectionRefinement(mirror: mirror)
        if let judge, judge.judges(cascade) { cascade.detectionRefinement.scorer = judge }
        self.detector = detector
        self.cascade = cascade
        self.decoder = decoder
    }

    public func landmarks(in payload: Frame.Payload) throws -> PhotoLandmarks {
        try PayloadDecoding.luma(of: payload, decoder: decoder, into: &gray)
        let faces = cascade.faces(in: gray, detector: detector).map {
            PhotoLandmarks.Face(box: $0.box, landmarks: $0.landmarks, pupils: refiner.pupils(gray, landmarks: $0.landmarks))
        }
        return PhotoLandmarks(width: gray.width, height: gray.height, faces: faces)
    }
}
