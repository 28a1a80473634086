import Imaging

/// Refines both pupils of a face inside the eye regions given by its 68 landmarks: a coarse iris
/// circle (`IrisLocator`, two-sided circular Hough), then the limbus circle (`LimbusFit`) whose centre
/// is the sub-pixel pupil and whose diameter is the iris size. Closed eyes (eye aspect ratio below
/// `closedAspectRatio`, Soukupová & Čech 2016) and eyes whose limbus is not found on both sides are
/// reported with `isOpen == false`.
///
/// Input landmarks are pixels in iBUG order; results are image-left eye first (the subject's right).
/// Not thread-safe (scratch buffers): one refiner per thread.
public final class PupilRefiner {
    public var closedAspectRatio: Float = 0.13
    public var limbus = LimbusFit()
    private let locator = IrisLocator()
    private let scratch = LimbusScratch()

    public init() {}

    /// Both eyes, image-left first (allocates the array; `refinePair` does not).
    public func refine(_ image: GrayImage, landmarks: [SIMD2<Float>]) -> [RefinedEye] {
        refinePair(image, landmarks: landmarks).array
    }

    /// Both eyes, without allocating (the per-frame path).
    public func refinePair(_ image: GrayImage, landmarks: [SIMD2<Float>]) -> EyePair {
        precondition(landmarks.count >= 48, "68 landmarks expected")
        return EyePair(left: refine(image, eye: EyeContour(landmarks: landmarks, first: 36)),
                       right: refine(image, eye: EyeContour(landmarks: landmarks, first: 42)))
    }

    public func refine(_ image: GrayImage, eye: EyeContour) -> RefinedEye {
        let ear = eye.aspectRatio
        let fallback = eye.centroid
        guard eye.isFinite else {
            return RefinedEye(pupil: fallback, source: .contour, irisDiameterPx: nil, isOpen: false, aspectRatio: ear,
                              limbusContrast: 0, limbusResidualPx: .infinity, lidOpeningPx: eye.lidOpening)
        }
        guard let coarse = locator.locate(in: image, eye: eye) else {
            return RefinedEye(pupil: fallback, source: .contour, irisDiameterPx: nil, isOpen: false, aspectRatio: ear,
                              limbusContrast: 0, limbusResidualPx: .infinity, lidOpeningPx: eye.lidOpening)
        }
        if let fit = limbus.fit(in: image, eye: eye, start: coarse.circle, scratch: scratch),
           eye.contains(SIMD2(Float(fit.circle.centre.x), Float(fit.circle.centre.y)), margin: 1) {
            let c = SIMD2(Float(fit.circle.centre.x), Float(fit.circle.centre.y))
            return RefinedEye(pupil: c, source: .limbus, irisDiameterPx: 2 * fit.circle.radius, isOpen: ear >= closedAspectRatio,
                              aspectRatio: ear, limbusContrast: fit.meanContrast, limbusResidualPx: fit.rmsResidualPx,
                              lidOpeningPx: eye.lidOpening)
        }
        return RefinedEye(pupil: fallback, source: .contour, irisDiameterPx: nil, isOpen: false,
                          aspectRatio: ear, limbusContrast: 0, limbusResidualPx: .infinity, lidOpeningPx: eye.lidOpening)
    }

    /// What the refinement of one eye went through (diagnostics): the coarse circle, the edge points
    /// of the first ray fan from it, and the limbus fit (nil when none).
    public struct Diagnosis {
        public var coarse: Circle?
        public var firstEdges: [LimbusFit.Edge]
        public var fit: LimbusFit.Result?
    }

    public func diagnose(_ image: GrayImage, eye: EyeContour) -> Diagnosis {
        guard let coarse = locator.locate(in: image, eye: eye)?.circle else { return Diagnosis(coarse: nil, firstEdges: [], fit: nil) }
        let c = SIMD2(Float(coarse.centre.x), Float(coarse.centre.y)), r = Float(coarse.radius)
        return Diagnosis(coarse: coarse, firstEdges: limbus.edges(in: image, eye: eye, centre: c, rMin: 0.75 * r, rMax: 1.3 * r),
                         fit: limbus.fit(in: image, eye: eye, start: coarse))
    }

    /// The pupils to report for a face: refined where the eye is open, else the contour centroid
    /// (what `landmarks` and `track` print). Image-left first.
    public func pupils(_ image: GrayImage, landmarks: [SIMD2<Float>]) -> [SIMD2<Float>] {
        refine(image, landmarks: landmarks).enumerated().map { i, e in
            e.source == .limbus ? e.pupil : EyeContour.pair(from: landmarks)[i].centroid
        }
    }
}
