/// What the try-on engine reports about its latest frame, for `/status`. Filled by the capture loop
/// (the composition root) and stored as a snapshot, so a status request never touches the pipeline.
///
/// Units: seconds for times, milliseconds where the name says `Ms`, millimetres where it says `MM`,
/// degrees for angles. Optional parts are absent until the engine provides them.
public struct EngineState: Sendable, Codable, Equatable {
    /// Index of the latest processed video frame (0-based).
    public var frameIndex: Int
    /// Seconds since the first frame, on the source's clock.
    public var time: Double
    public var width: Int
    public var height: Int
    /// Frames per second of the capture → encode loop (recent average).
    public var fps: Double
    /// Processing time of the latest frame (decode → encode), milliseconds.
    public var latencyMs: Double
    /// Per-stage processing time of the latest frame, milliseconds, in pipeline order.
    public var stagesMs: [Stage]
    /// Catalogue `id[:variant]` (or file name) of the glasses drawn on the latest frame.
    public var glasses: String
    /// The glasses chosen for the next frames (differs from `glasses` until the switch is drawn).
    public var selectedGlasses: String
    public var tracking: Tracking
    public var metrics: Metrics?
    public var light: Light?

    public init(frameIndex: Int, time: Double, width: Int, height: Int, fps: Double, latencyMs: Double, stagesMs: [Stage],
                glasses: String, selectedGlasses: String, tracking: Tracking, metrics: Metrics? = nil, light: Light? = nil) {
        self.frameIndex = frameIndex
        self.time = time
        self.width = width
        self.height = height
        self.fps = fps
        self.latencyMs = latencyMs
        self.stagesMs = stagesMs
        self.glasses = glasses
        self.selectedGlasses = selectedGlasses
        self.tracking = tracking
        self.metrics = metrics
        self.light = light
    }

    public struct Stage: Sendable, Codable, Equatable {
        public var name: String
        public var ms: Double
        public init(name: String, ms: Double) { self.name = name; self.ms = ms }
    }

    /// The tracker's view of the latest frame.
    public struct Tracking: Sendable, Codable, Equatable {
        /// "tracking" when at least one face is tracked, else "searching".
        public var state: String
        public var faces: [Face]
        public init(faces: [Face]) {
            self.faces = faces
            state = faces.isEmpty ? "searching" : "tracking"
        }
    }

    /// One tracked face: head angles (degrees, camera frame) and distance from the camera (mm).
    public struct Face: Sendable, Codable, Equatable {
        public var id: Int
        public var state: String
        public var pitch: Double
        public var yaw: Double
        public var roll: Double
        public var distanceMM: Double
        public init(id: Int, state: String, pitch: Double, yaw: Double, roll: Double, distanceMM: Double) {
            self.id = id
            self.state = state
            self.pitch = pitch
            self.yaw = yaw
            self.roll = roll
            self.distanceMM = distanceMM
        }
    }

    /// Facial measurements of the first face, in millimetres, and the frame size they recommend.
    public struct Metrics: Sendable, Codable, Equatable {
        /// Far (distance) pupillary distance.
        public var pdMM: Double?
        /// One standard deviation of `pdMM`, when the measurer gives one.
        public var pdUncertaintyMM: Double?
        public var templeWidthMM: Double?
        /// Recommended frame size, e.g. "50□20-145".
        public var recommendedSize: String?
        /// Size class, e.g. "M".
        public var sizeLabel: String?
        public init(pdMM: Double? = nil, pdUncertaintyMM: Double? = nil, templeWidthMM: Double? = nil,
                    recommendedSize: String? = nil, sizeLabel: String? = nil) {
            self.pdMM = pdMM
            self.pdUncertaintyMM = pdUncertaintyMM
            self.templeWidthMM = templeWidthMM
            self.recommendedSize = recommendedSize
            self.sizeLabel = sizeLabel
        }
    }

    /// The scene light estimated from the face: ambient level and one directional light
    /// (unit direction towards the light, camera frame), linear RGB colours.
    public struct Light: Sendable, Codable, Equatable {
        public var ambient: [Double]
        public var direction: [Double]?
        public var color: [Double]?
        public init(ambient: [Double], direction: [Double]? = nil, color: [Double]? = nil) {
            self.ambient = ambient
            self.direction = direction
            self.color = color
        }
    }
}
