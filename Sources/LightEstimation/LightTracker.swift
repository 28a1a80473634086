import Anchors
import Geometry
import Imaging

/// Per-face temporal smoothing of the light estimate: lighting changes slowly, so each tracked
/// face's spherical-harmonic light is an exponential moving average of its per-frame fits with
/// time constant `timeConstantSeconds` (weight 1 − exp(−Δt/τ) for a new frame, whatever the frame
/// rate). A face that is lost, or whose id disappears, starts afresh from its next fit; a frame
/// without a usable fit keeps the previous estimate. Not thread-safe: one per tracking loop.
///
/// The per-face states live in a small array reused from frame to frame, and the `into:` forms of
/// `process` write into the caller's reused array, so a steady tracking loop allocates nothing.
public final class LightTracker {
    public let estimator: LightEstimator
    public var timeConstantSeconds: Double
    /// A face whose light was measured less than this long ago keeps its smoothed estimate instead of
    /// being measured again (0: every frame). The estimate is an average over `timeConstantSeconds`,
    /// so measuring it 10 times a second instead of 30 changes it by far less than its own noise,
    /// and saves two thirds of the stage's cost at 30 fps. A new face is always measured at once.
    public var minimumIntervalSeconds = 0.0

    struct State {
        var id: Int
        var light: SphericalHarmonicLight
        var time: Double
        var samples: Int
        var luminanceOnly: Bool
    }
    var states: [State] = []

    public init(estimator: LightEstimator, timeConstantSeconds: Double = 0.5) {
        self.estimator = estimator
        self.timeConstantSeconds = timeConstantSeconds
    }

    /// Feeds one frame's measurement for face `id` at `timestampSeconds`; returns the smoothed
    /// estimate (nil until the face has had a usable fit).
    public func update(faceID id: Int, measurement: LightEstimate?, timestampSeconds: Double) -> LightEstimate? {
        let index = states.firstIndex { $0.id == id }
        if let m = measurement {
            if let i = index {
                let dt = max(0, timestampSeconds - states[i].time)
                let w = Float(timeConstantSeconds > 0 ? 1 - exp(-dt / timeConstantSeconds) : 1)
                states[i].light = states[i].light.mixed(with: m.light, w)
                states[i].time = timestampSeconds
                states[i].samples = m.sampleCount
                states[i].luminanceOnly = m.isLuminanceOnly
            } else {
                states.append(State(id: id, light: m.light, time: timestampSeconds, samples: m.sampleCount, luminanceOnly: m.isLuminanceOnly))
                return estimate(states[states.count - 1])
            }
        }
        return index.map { estimate(states[$0]) }
    }

    private func estimate(_ s: State) -> LightEstimate {
        var e = LightEstimate(light: s.light, sampleCount: s.samples)
        e.isLuminanceOnly = s.luminanceOnly
        return e
    }

    /// Forgets face `id` (track lost).
    public func reset(faceID id: Int) { states.removeAll { $0.id == id } }

    /// Forgets every face.
    public func resetAll() { states.removeAll(keepingCapacity: true) }

    /// One face's smoothed light, as the `into:` forms of `process` report it.
    public struct FaceLight: Sendable, Equatable {
        public var faceID: Int
        public var estimate: LightEstimate

        public init(faceID: Int, estimate: LightEstimate) {
            self.faceID = faceID
            self.estimate = estimate
        }
    }

    /// One frame of the tracking loop: estimates and smooths the light of every anchor that is not
    /// lost, forgets lost and vanished faces. `image` is the decoded frame (sRGB), `intrinsics` the
    /// tracker's camera (it may describe a scaled copy of `image`). Writes one entry per face with an
    /// estimate to `results` (cleared first; anchors' order): allocation-free once `results` has the
    /// capacity and is not shared. `byFace` keys them by face id.
    public func process(_ anchors: [FaceAnchor], image: RGBImage, intrinsics: CameraIntrinsics, timestampSeconds: Double,
                        into results: inout [FaceLight]) {
        process(anchors, timestampSeconds: timestampSeconds, into: &results) {
            estimator.estimate(image: image, cameraFromFace: $0, intrinsics: intrinsics)
        }
    }

    /// The same on a GRAY frame (the tracking path): luminance-only estimates
    /// (`LightEstimator.estimate(gray:...)`).
    public func process(_ anchors: [FaceAnchor], gray: GrayImage, intrinsics: CameraIntrinsics, timestampSeconds: Double,
                        into results: inout [FaceLight]) {
        process(anchors, timestampSeconds: timestampSeconds, into: &results) {
            estimator.estimate(gray: gray, cameraFromFace: $0, intrinsics: intrinsics)
        }
    }

    /// Each face's estimate keyed by its id.
    public static func byFace(_ list: [FaceLight]) -> [Int: LightEstimate] {
        Dictionary(list.map { ($0.faceID, $0.estimate) }, uniquingKeysWith: { _, last in last })
    }

    private func process(_ anchors: [FaceAnchor], timestampSeconds: Double, into results: inout [FaceLight],
                         measure: (RigidTransform) -> LightEstimate?) {
        results.removeAll(keepingCapacity: true)
        for a in anchors where a.state != .lost {
            let recent = states.contains { $0.id == a.id && timestampSeconds - $0.time < minimumIntervalSeconds && timestampSeconds >= $0.time }
            let m = recent ? nil : measure(a.cameraFromFace)
            if let e = update(faceID: a.id, measurement: m, timestampSeconds: timestampSeconds) {
                results.append(FaceLight(faceID: a.id, estimate: e))
            }
        }
        states.removeAll { s in !anchors.contains { $0.id == s.id && $0.state != .lost } }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
