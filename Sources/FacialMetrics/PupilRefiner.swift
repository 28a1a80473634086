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
    /// Eyes wider than this (pixels, corner to corner) are refined in a copy of the eye region
    /// shrunk by an area filter until they are about `workingEyeWidth` wide: the iris search and the
    /// limbus fit were tuned on webcam-sized eyes (40-60 px), and on a close photograph (eyes of
    /// 200-400 px) skin texture and lashes pull single edges. 0 turns it off.
    public var maximumEyeWidth: Float = 96
    public var workingEyeWidth: Float = 64
    public var limbus = LimbusFit()
    private let locator = IrisLocator()
    private let scratch = LimbusScratch()

    public init() {}

    /// Both eyes, image-left first (allocates the array; `refinePair` does not).
    public func refine(_ image: GrayImage, landmarks: [SIMD2<Float>]) -> [RefinedEye] {
        refinePair(image, landmarks: landmarks).array
    }

    /// Both eyes, without allocating (the per-frame path; eyes wider than `maximumEyeWidth` are
    /// refined in a shrunk copy of the eye region, which allocates).
    public func refinePair(_ image: GrayImage, landmarks: [SIMD2<Float>]) -> EyePair {
        precondition(landmarks.count >= 48, "68 landmarks expected")
        let eyeWidth = (EyeContour(landmarks: landmarks, first: 36).width + EyeContour(landmarks: landmarks, first: 42).width) / 2
        if maximumEyeWidth > 0, eyeWidth.isFinite, eyeWidth > maximumEyeWidth {
            return refineShrunk(image, landmarks: landmarks, factor: Int((eyeWidth / workingEyeWidth).rounded()))
        }
        return EyePair(left: refine(image, eye: EyeContour(landmarks: landmarks, first: 36)),
                       right: refine(image, eye: EyeContour(landmarks: landmarks, first: 42)))
    }

    /// The eyes' region (the eye points' box grown by an eye width) shrunk `factor` times by area
    /// averaging, refined there, and mapped back: p = (p' + 0.5) · factor - 0.5 + origin.
    private func refineShrunk(_ image: GrayImage, landmarks: [SIMD2<Float>], factor: Int) -> EyePair {
        var lo = landmarks[36], hi = landmarks[36]
        for p in landmarks[36 ... 47] { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        let margin = (hi.x - lo.x) / 2
        let x0 = max(0, Int((lo.x - margin).rounded(.down))), y0 = max(0, Int((lo.y - margin).rounded(.down)))
        let x1 = min(image.width, Int((hi.x + margin).rounded(.up)) + 1), y1 = min(image.height, Int((hi.y + margin).rounded(.up)) + 1)
        let f = Float(factor), origin = SIMD2(Float(x0), Float(y0))
        guard x1 - x0 >= 2 * factor, y1 - y0 >= 2 * factor else {
            return EyePair(left: refine(image, eye: EyeContour(landmarks: landmarks, first: 36)),
                           right: refine(image, eye: EyeContour(landmarks: landmarks, first: 42)))
        }
        let region = image.cropped(to: PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
        let small = region.resized(width: (x1 - x0) / factor, height: (y1 - y0) / factor, method: .area)
        var shrunk = landmarks
        for i in 36 ... 47 { shrunk[i] = (landmarks[i] - origin + 0.5) / f - 0.5 }
        func back(_ e: RefinedEye, first: Int) -> RefinedEye {
            var out = e
            let contour = EyeContour(landmarks: landmarks, first: first)
            // The contour fallback is recomputed at full resolution (the same centroid, unrounded).
            out.pupil = e.source == .limbus ? (e.pupil + 0.5) * f - 0.5 + origin : contour.centroid
            out.irisDiameterPx = e.irisDiameterPx.map { $0 * Double(f) }
            // Contrast and residual stay as the refiner saw them at the working size: the measurement
            // gate's sharpness thresholds are judged there.
            out.lidOpeningPx = contour.lidOpening
            return out
        }
        return EyePair(left: back(refine(small, eye: EyeContour(landmarks: shrunk, first: 36)), first: 36),
                       right: back(refine(small, eye: EyeContour(landmarks: shrunk, first: 42)), first: 42))
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
        var out: [SIMD2<Float>] = []
        pupils(image, landmarks: landmarks, into: &out)
        return out
    }

    /// The same into `pupils`, reusing its storage: the per-frame path (`track`'s pupils) allocates nothing.
    public func pupils(_ image: GrayImage, landmarks: [SIMD2<Float>], into pupils: inout [SIMD2<Float>]) {
        let eyes = refinePair(image, landmarks: landmarks)
        pupils.removeAll(keepingCapacity: true)
        pupils.append(eyes.left.source == .limbus ? eyes.left.pupil : EyeContour(landmarks: landmarks, first: 36).centroid)
        pupils.append(eyes.right.source == .limbus ? eyes.right.pupil : EyeContour(landmarks: landmarks, first: 42).centroid)
    }
}
