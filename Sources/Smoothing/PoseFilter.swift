import Foundation
import Geometry

/// One Euro smoothing of a rigid pose. Rotation is filtered in the tangent space of the last filtered
/// rotation (the rotation vector of `filtered⁻¹ · measured`), so the filter never meets Euler-angle
/// wrap-around or gimbal lock and interpolates along geodesics. Translation is filtered as what a
/// camera measures: the direction to the face (x/z, y/z: precise, from the face's image position)
/// and the log-depth ln z (ill-conditioned: it comes from the face's apparent size, so it is several
/// times noisier in millimetres), each with its own filter. Filtering the 3-vector instead lets the
/// depth noise leak into x and y (x = z · x/z) and its speed open the filter for all three.
///
/// Speeds are normalised: translation speeds are in face sizes per second (`faceSizeMM`, at the
/// current depth), rotation speed is in radians per second, so one tuning holds at any distance.
/// The state is a few fixed-size values: filtering allocates nothing.
public struct PoseFilter: Sendable {
    /// The lateral (image-direction) translation filter.
    public var translation: OneEuroParameters
    /// The depth filter (ln z; speed in face sizes per second along the line of sight).
    public var depth: OneEuroParameters
    public var rotation: OneEuroParameters
    /// The face size used to normalise translation speed (≈ the biocular width).
    public var faceSizeMM = 90.0
    private var translationFilter = PlanarOneEuroFilter()
    private var depthFilter: OneEuroFilter
    private var filtered: Rotation?
    private var rotationSpeed = 0.0
    private var lastTime: Double?

    /// Defaults: still cutoff 1 Hz, beta 1.5 (per face size/s for translation, per rad/s for rotation);
    /// `FaceTrackerConfiguration` holds the values tuned on the dev videos.
    public init(translation: OneEuroParameters = OneEuroParameters(minCutoffHz: 1.0, beta: 1.5),
                rotation: OneEuroParameters = OneEuroParameters(minCutoffHz: 1.0, beta: 1.5),
                depth: OneEuroParameters? = nil) {
        self.translation = translation
        self.rotation = rotation
        self.depth = depth ?? translation
        self.depthFilter = OneEuroFilter(parameters: depth ?? translation)
    }

    public mutating func reset() {
        translationFilter.reset()
        depthFilter.reset()
        filtered = nil
        rotationSpeed = 0
        lastTime = nil
    }

    public mutating func filter(_ pose: RigidTransform, time: Double) -> RigidTransform {
        depthFilter.parameters = depth
        let p = pose.translation
        let t: SIMD3<Double>
        if p.z > 1e-3, p.z.isFinite {
            // d(x/z) · z is a lateral speed in mm; d(ln z) · z a depth speed in mm.
            let scale = faceSizeMM / p.z
            let direction = translationFilter.filter(SIMD2(p.x / p.z, p.y / p.z), time: time, speedScale: scale, parameters: translation)
            let z = Foundation.exp(depthFilter.filter(Foundation.log(p.z), time: time, speedScale: scale))
            t = SIMD3(direction[0] * z, direction[1] * z, z)
        } else {
            // Behind the camera (a failed solve): nothing meaningful to filter.
            translationFilter.reset()
            depthFilter.reset()
            t = p
        }
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
        return RigidTransform(rotation: r, translation: t)
    }
}
