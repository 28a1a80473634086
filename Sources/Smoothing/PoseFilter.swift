import Geometry

/// One Euro smoothing of a rigid pose: translation (mm) as a 3-vector, rotation in the tangent space
/// of the last filtered rotation (the rotation vector of `filtered⁻¹ · measured`), so the filter never
/// meets Euler-angle wrap-around or gimbal lock and interpolates along geodesics.
///
/// Speeds are normalised: translation speed is divided by `faceSizeMM` (so `beta` is per face size
/// per second), rotation speed is in radians per second.
public struct PoseFilter: Sendable {
    public var translation: OneEuroParameters
    public var rotation: OneEuroParameters
    /// The face size used to normalise translation speed (≈ the biocular width).
    public var faceSizeMM = 90.0
    private var translationFilter: VectorOneEuroFilter
    private var filtered: Rotation?
    private var rotationSpeed = 0.0
    private var lastTime: Double?

    /// Defaults: still cutoff 1 Hz, beta 1.5 (per face size/s for translation, per rad/s for rotation);
    /// `FaceTrackerConfiguration` holds the values tuned on the dev videos.
    public init(translation: OneEuroParameters = OneEuroParameters(minCutoffHz: 1.0, beta: 1.5),
                rotation: OneEuroParameters = OneEuroParameters(minCutoffHz: 1.0, beta: 1.5)) {
        self.translation = translation
        self.rotation = rotation
        self.translationFilter = VectorOneEuroFilter(parameters: translation)
    }

    public mutating func reset() {
        translationFilter.reset()
        filtered = nil
        rotationSpeed = 0
        lastTime = nil
    }

    public mutating func filter(_ pose: RigidTransform, time: Double) -> RigidTransform {
        translationFilter.parameters = translation
        let t = translationFilter.filter([pose.translation.x, pose.translation.y, pose.translation.z], time: time, speedScale: faceSizeMM)
        let r: Rotation
        if let previous = filtered, let t0 = lastTime {
            let dt = max(time - t0, 1e-6)
            let delta = (previous.inverse * pose.rotation).rotationVector
            rotationSpeed += OneEuroFilter.alpha(cutoffHz: rotation.derivativeCutoffHz, dt: dt) * (delta.length / dt - rotationSpeed)
            let cutoff = rotation.minCutoffHz + rotation.beta * rotationSpeed
            r = previous * Rotation(rotationVector: OneEuroFilter.alpha(cutoffHz: cutoff, dt: dt) * delta)
        } else {
            r = pose.rotation
        }
        filtered = r
        lastTime = time
        return RigidTransform(rotation: r, translation: SIMD3(t[0], t[1], t[2]))
    }
}
