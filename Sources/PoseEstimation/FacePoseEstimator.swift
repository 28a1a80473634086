import Foundation
import FaceModel
import Geometry

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
        estimate(landmarks: landmarks.map { SIMD2(Double($0.x), Double($0.y)) }, camera: camera, previous: previous)
    }

    public func estimate(landmarks: [SIMD2<Double>], camera: CameraIntrinsics, previous: RigidTransform? = nil) -> PoseEstimate? {
        guard landmarks.count == 68, landmarks.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        let pinhole = camera.withoutDistortion
        let undistorted = camera.distortion.isNone ? landmarks : landmarks.map { camera.undistortedPixel($0) }
        let d = undistorted[45] - undistorted[36]
        let interOcular = (d * d).sum().squareRoot()
        guard interOcular > 1 else { return nil }
        let huber = max(0.5, huberFraction * interOcular)

        func fromClosedForm() -> PerspectivePointSolver.Result? {
            let normalised = undistorted.map { SIMD2(($0.x - pinhole.cx) / pinhole.fx, ($0.y - pinhole.cy) / pinhole.fy) }
            guard let start = WeakPerspectivePose.solve(model: face.landmarks, normalised: normalised, weights: solver.weights) else { return nil }
            return solver.refine(imagePoints: undistorted, camera: pinhole, initial: start, huberPx: huber)
        }
        var best: PerspectivePointSolver.Result?
        if let previous {
            best = solver.refine(imagePoints: undistorted, camera: pinhole, initial: previous, huberPx: huber)
        }
        if best == nil || weightedRMS(best!.residuals) > 0.05 * interOcular {
            if let fresh = fromClosedForm(), best == nil || weightedRMS(fresh.residuals) < weightedRMS(best!.residuals) {
                best = fresh
            }
        }
        guard let result = best else { return nil }
        let rms = (result.residuals.map { ($0 * $0).sum() }.reduce(0, +) / 68).squareRoot()
        let wrms = weightedRMS(result.residuals)
        return PoseEstimate(cameraFromModel: result.pose, reprojectionRMSPx: rms, weightedRMSPx: wrms,
                            confidence: confidence(weightedRMSPx: wrms, interOcularPx: interOcular), iterations: result.iterations)
    }

    private func weightedRMS(_ residuals: [SIMD2<Double>]) -> Double {
        var s = 0.0, w = 0.0
        for i in 0..<residuals.count {
            s += solver.weights[i] * (residuals[i] * residuals[i]).sum()
            w += solver.weights[i]
        }
        return w > 0 ? (s / w).squareRoot() : .infinity
    }
}
