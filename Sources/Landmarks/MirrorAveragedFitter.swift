import FaceDetection
import FaceMarkup
import Imaging

/// Test-time mirror averaging around another fitter (iBUG 68 points): every fit runs twice, on the
/// frame and on its left-right mirror (`GrayImage.setMirrored`, x → width − 1 − x) started from the
/// mirrored start, and each point is the mean of the direct fit and the mirrored fit mapped back
/// (`IBUG68.mirror`); the judge's score is the mean of the two scores.
///
/// Why: the cascade is not exactly mirror-equivariant (its features and regressors are learnt, and
/// mirrored training faces make it symmetric only on average), so the fit of a mirrored frame is not
/// the mirror of the frame's fit, and the PnP pose and the turned-head PD correction inherit the
/// difference (`measure` on videoretalking_face1 and its `ffmpeg -vf hflip`: far PD 66.71 against
/// 66.37 mm). The averaged fit is symmetric by construction: the mirrored frame started from the
/// mirrored shape gives the same two fits, swapped, so the same mean mirrored.
///
/// Costs two fits and a copy of the frame per tracked face and frame: for measurement only
/// (`FaceTrackerConfiguration.mirrorAveraged`), never for the try-on's tracking. Detection fits
/// (`fit(in:box:)`) are averaged the same way with the box mirrored (the judged cascade's detection
/// fit already averages with its mirrored square, `DetectionRefinement.mirror`; a model without it
/// does not). The start matters as much: a box and the mirrored frame's box that are not mirrors of
/// each other give different fits, so the tracker averages the boxes first (`MirrorAveragedDetection`).
/// Not thread-safe.
public final class MirrorAveragedFitter: LandmarkFitter {
    public let inner: any LandmarkFitter
    private var mirrored = GrayImage(width: 0, height: 0)
    private var start: [SIMD2<Float>] = []
    private var direct: [SIMD2<Float>] = []
    private var shape: [SIMD2<Float>] = []

    public init(_ inner: any LandmarkFitter) { self.inner = inner }

    public var isJudged: Bool { inner.isJudged }

    public func track(in image: LumaFrame, previous: [SIMD2<Float>]) -> (shape: [SIMD2<Float>], score: Float?) {
        guard previous.count == IBUG68.count else { return inner.track(in: image, previous: previous) }
        let d = inner.track(in: image, previous: previous)
        guard d.shape.count == IBUG68.count else { return d }
        direct.overwrite(with: d.shape)
        let dScore = d.score
        switch image {
        case .gray(let g): mirrored.setMirrored(of: g)
        case .rgb(let c): mirrored.setMirrored(of: GrayImage(luma: c))
        }
        let w = Float(mirrored.width - 1)
        IBUG68.mirrored(previous, imageWidth: mirrored.width, into: &start)
        let m = inner.track(in: .gray(mirrored), previous: start)
        // A fitter that gave up on the mirror (no shape) leaves the direct fit.
        guard m.shape.count == IBUG68.count else { return (direct, dScore) }
        return (average(m.shape, width: w), Self.mean(dScore, m.score))
    }

    public func fit(in image: GrayImage, box: FaceBox) -> (shape: [SIMD2<Float>], score: Float?) {
        let d = inner.fit(in: image, box: box)
        guard d.shape.count == IBUG68.count else { return d }
        direct.overwrite(with: d.shape)
        let dScore = d.score
        mirrored.setMirrored(of: image)
        let w = Float(image.width - 1)
        let m = inner.fit(in: mirrored, box: box.mirrored(imageWidth: image.width))
        guard m.shape.count == IBUG68.count else { return (direct, dScore) }
        return (average(m.shape, width: w), Self.mean(dScore, m.score))
    }

    /// `direct` averaged with `mirroredFit` mapped back, into `shape` (returned).
    private func average(_ mirroredFit: [SIMD2<Float>], width w: Float) -> [SIMD2<Float>] {
        shape.resize(to: direct.count, filler: .zero)
        for i in 0..<direct.count {
            let p = mirroredFit[IBUG68.mirror[i]]
            shape[i] = 0.5 * (direct[i] + SIMD2(w - p.x, p.y))
        }
        return shape
    }

    private static func mean(_ a: Float?, _ b: Float?) -> Float? {
        guard let a, let b else { return a ?? b }
        return (a + b) / 2
    }
}
