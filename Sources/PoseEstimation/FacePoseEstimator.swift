import Foundation
import FaceModel
import Geometry
import Synchronization

/// Head pose from 68 image landmarks: the `MeanFace` landmarks fitted by `PerspectivePointSolver`.
///
/// Contract: landmarks in pixels of the image described by `camera` (pixel-centre convention,
/// distorted as captured — they are undistorted here); the result maps face-model millimetres to
/// camera millimetres. Jaw points (0–16) are silhouette points whose true 3D position slides round
/// the cheek as the head turns, so they get `jawWeight`; residuals beyond `huberFraction` of the
/// inter-ocular distance are down-weighted (Huber). Start: the previous pose when given (tracking),
/// else the weak-perspective closed form; if a tracking start ends with a poor fit, the closed
/// form is tried too and the better fit kept.
public struct FacePoseEstimator: Sendable {
    public let face: MeanFace
    public var jawWeight: Double {
        didSet { solver.weights = Self.weights(jawWeight: jawWeight) }
    }
    /// Huber threshold as a fraction of the inter-ocular distance in the image.
    public var huberFraction = 0.04
    /// The normalised RMS error (fraction of inter-ocular distance) at which confidence falls to 1/e.
    public var confidenceScale = 0.08
    private var solver: PerspectivePointSolver
    private let workspace = PoseWorkspace()

    public init(face: MeanFace, jawWeight: Double = 0.3) {
        self.face = face
        self.jawWeight = jawWeight
        self.solver = PerspectivePointSolver(model: face.landmarks, weights: Self.weights(jawWeight: jawWeight))
    }

    static func weights(jawWeight: Double) -> [Double] {
        (0..<68).map { $0 <= 16 ? jawWeight : 1 }
    }

    /// Confidence from the weighted RMS reprojection error `e` normalised by the inter-ocular
    /// distance: `exp(−(e / confidenceScale)²)`. A good 68-point fit on a real face is 2–4 % (expression
    /// and identity differ from the mean face); a shape the rigid face cannot explain is > 10 %.
    public func confidence(weightedRMSPx: Double, interOcularPx: Double) -> Double {
        guard interOcularPx > 0, weightedRMSPx.isFinite else { return 0 }
        let e = weightedRMSPx / interOcularPx / confidenceScale
        return Foundation.exp(-e * e)
    }

    public func estimate(landmarks: [SIMD2<Float>], camera: CameraIntrinsics, previous: RigidTransform? = nil) -> PoseEstimate? {
        guard landmarks.count == 68 else { return nil }
        return withWorkspace { points, scratch in
            for i in 0..<68 { points[i] = SIMD2(Double(landmarks[i].x), Double(landmarks[i].y)) }
            return estimate(points, scratch, camera: camera, previous: previous)
        }
    }

    public func estimate(landmarks: [SIMD2<Double>], camera: CameraIntrinsics, previous: RigidTransform? = nil) -> PoseEstimate? {
        guard landmarks.count == 68 else { return nil }
        return withWorkspace { points, scratch in
            for i in 0..<68 { points[i] = landmarks[i] }
            return estimate(points, scratch, camera: camera, previous: previous)
        }
    }

    /// Runs `body` on the shared workspace (68 points, then 4 × 68 scratch points) when no other
    /// thread holds it, else on a fresh one: one estimator may serve several threads.
    private func withWorkspace(_ body: (UnsafeMutableBufferPointer<SIMD2<Double>>, UnsafeMutableBufferPointer<SIMD2<Double>>) -> PoseEstimate?) -> PoseEstimate? {
        func run(_ storage: inout [SIMD2<Double>]) -> PoseEstimate? {
            storage.withUnsafeMutableBufferPointer { all in
                body(UnsafeMutableBufferPointer(rebasing: all[0..<68]), UnsafeMutableBufferPointer(rebasing: all[68..<(5 * 68)]))
            }
        }
        if let result = workspace.storage.withLockIfAvailable({ storage in run(&storage) }) { return result }
        var fresh = PoseWorkspace.makeStorage()
        return run(&fresh)
    }

    /// `points`: the 68 landmarks (pixels, distorted as captured; undistorted here in place);
    /// `scratch`: 4 × 68 points for the closed form's normalised points and two residual sets.
    private func estimate(_ points: UnsafeMutableBufferPointer<SIMD2<Double>>, _ scratch: UnsafeMutableBufferPointer<SIMD2<Double>>,
                          camera: CameraIntrinsics, previous: RigidTransform?) -> PoseEstimate? {
        guard points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        let pinhole = camera.withoutDistortion
        if !camera.distortion.isNone { for i in 0..<68 { points[i] = camera.undistortedPixel(points[i]) } }
        let undistorted = UnsafeBufferPointer(points)
        let d = undistorted[45] - undistorted[36]
        let interOcular = (d * d).sum().squareRoot()
        guard interOcular > 1 else { return nil }
        let huber = max(0.5, huberFraction * interOcular)
        let normalised = UnsafeMutableBufferPointer(rebasing: scratch[0..<68])
        let trial = UnsafeMutableBufferPointer(rebasing: scratch[68..<136])
        var bestResiduals = UnsafeMutableBufferPointer(rebasing: scratch[136..<204])
        var freshResiduals = UnsafeMutableBufferPointer(rebasing: scratch[204..<272])

        typealias Fit = (pose: RigidTransform, iterations: Int)
        func fromClosedForm(into residuals: UnsafeMutableBufferPointer<SIMD2<Double>>) -> Fit? {
            for i in 0..<68 {
                let p = undistorted[i]
                normalised[i] = SIMD2((p.x - pinhole.cx) / pinhole.fx, (p.y - pinhole.cy) / pinhole.fy)
            }
            guard let start = WeakPerspectivePose.solve(model: face.landmarks, normalised: UnsafeBufferPointer(normalised), weights: solver.weights) else { return nil }
            return solver.refine(undistorted, camera: pinhole, initial: start, huberPx: huber, residuals: residuals, trial: trial)
        }
        var best: Fit?
        if let previous {
            best = solver.refine(undistorted, camera: pinhole, initial: previous, huberPx: huber, residuals: bestResiduals, trial: trial)
        }
        if best == nil || weightedRMS(bestResiduals) > 0.05 * interOcular {
            if let fresh = fromClosedForm(into: freshResiduals), best == nil || weightedRMS(freshResiduals) < weightedRMS(bestResiduals) {
                best = fresh
                swap(&bestResiduals, &freshResiduals)
            }
        }
        guard let result = best else { return nil }
        var sum = 0.0
        for r in bestResiduals { sum += (r * r).sum() }
        let rms = (sum / 68).squareRoot()
        let wrms = weightedRMS(bestResiduals)
        return PoseEstimate(cameraFromModel: result.pose, reprojectionRMSPx: rms, weightedRMSPx: wrms,
                            confidence: confidence(weightedRMSPx: wrms, interOcularPx: interOcular), iterations: result.iterations)
    }

    private func weightedRMS(_ residuals: UnsafeMutableBufferPointer<SIMD2<Double>>) -> Double {
        var s = 0.0, w = 0.0
        for i in 0..<residuals.count {
            s += solver.weights[i] * (residuals[i] * residuals[i]).sum()
            w += solver.weights[i]
        }
        return w > 0 ? (s / w).squareRoot() : .infinity
    }
}

/// The pose estimator's per-call storage, built once and reused under a lock so that estimating
/// allocates nothing (copies of one `FacePoseEstimator` share it; a call that finds it busy uses
/// a fresh one instead of waiting).
final class PoseWorkspace: Sendable {
    let storage = Mutex<[SIMD2<Double>]>(PoseWorkspace.makeStorage())

    static func makeStorage() -> [SIMD2<Double>] { [SIMD2<Double>](repeating: .zero, count: 5 * 68) }
}
