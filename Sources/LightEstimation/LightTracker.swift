import FaceTracking
import Geometry
import Imaging

/// Per-face temporal smoothing of the light estimate: lighting changes slowly, so each tracked
/// face's spherical-harmonic light is an exponential moving average of its per-frame fits with
/// time constant `timeConstantSeconds` (weight 1 − exp(−Δt/τ) for a new frame, whatever the frame
/// rate). A face that is lost, or whose id disappears, starts afresh from its next fit; a frame
/// without a usable fit keeps the previous estimate. Not thread-safe: one per tracking loop.
public final class LightTracker {
    public let estimator: LightEstimator
    public var timeConstantSeconds: Double

    struct State {
        var light: SphericalHarmonicLight
        var time: Double
        var samples: Int
    }
    var states: [Int: State] = [:]

    public init(estimator: LightEstimator, timeConstantSeconds: Double = 0.5) {
        self.estimator = estimator
        self.timeConstantSeconds = timeConstantSeconds
    }

    /// Feeds one frame's measurement for face `id` at `timestampSeconds`; returns the smoothed
    /// estimate (nil until the face has had a usable fit).
    public func update(faceID id: Int, measurement: LightEstimate?, timestampSeconds: Double) -> LightEstimate? {
        if let m = measurement {
            if var s = states[id] {
                let dt = max(0, timestampSeconds - s.time)
                let w = Float(timeConstantSeconds > 0 ? 1 - exp(-dt / timeConstantSeconds) : 1)
                s.light = s.light.mixed(with: m.light, w)
                s.time = timestampSeconds
                s.samples = m.sampleCount
                states[id] = s
            } else {
                states[id] = State(light: m.light, time: timestampSeconds, samples: m.sampleCount)
            }
        }
        return states[id].map { LightEstimate(light: $0.light, sampleCount: $0.samples) }
    }

    /// Forgets face `id` (track lost).
    public func reset(faceID id: Int) { states[id] = nil }

    /// Forgets every face.
    public func resetAll() { states.removeAll() }

    /// One frame of the tracking loop: estimates and smooths the light of every anchor that is not
    /// lost, forgets lost and vanished faces. `image` is the decoded frame (sRGB), `intrinsics` the
    /// tracker's camera (it may describe a scaled copy of `image`). Keyed by anchor id.
    public func process(_ anchors: [FaceAnchor], image: RGBImage, intrinsics: CameraIntrinsics, timestampSeconds: Double) -> [Int: LightEstimate] {
        var result: [Int: LightEstimate] = [:]
        var live = Set<Int>()
        for a in anchors where a.state != .lost {
            live.insert(a.id)
            let m = estimator.estimate(image: image, cameraFromFace: a.cameraFromFace, intrinsics: intrinsics)
            if let e = update(faceID: a.id, measurement: m, timestampSeconds: timestampSeconds) { result[a.id] = e }
        }
        for id in states.keys where !live.contains(id) { states[id] = nil }
        return result
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
