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

    /// Facial measurements of the largest face (rolling, over the frames that passed the
    /// measurement gate), in millimetres, and the frame size they recommend.
    public struct Metrics: Sendable, Codable, Equatable {
        /// Distance (far) pupillary distance, the one spectacles are made for.
        public var pdMM: Double?
        /// Half width of the ≈ 95 % band of `pdMM`.
        public var pdUncertaintyMM: Double?
        /// Binocular PD as measured, at the camera distance (near).
        public var nearPdMM: Double?
        public var templeWidthMM: Double?
        /// Recommended frame size as marked on a temple (ISO 8624), e.g. "50□20-145".
        public var recommendedSize: String?
        /// Size class, e.g. "M".
        public var sizeLabel: String?
        /// Frames the measurement aggregates.
        public var framesUsed: Int?
        public init(pdMM: Double? = nil, pdUncertaintyMM: Double? = nil, nearPdMM: Double? = nil, templeWidthMM: Double? = nil,
                    recommendedSize: String? = nil, sizeLabel: String? = nil, framesUsed: Int? = nil) {
            self.pdMM = pdMM
            self.pdUncertaintyMM = pdUncertaintyMM
            self.nearPdMM = nearPdMM
            self.templeWidthMM = templeWidthMM
            self.recommendedSize = recommendedSize
            self.sizeLabel = sizeLabel
            self.framesUsed = framesUsed
        }
    }

    /// The scene light estimated from the face (ARKit-style): ambient intensity (about 1000 for
    /// neutral light) and colour temperature (kelvin), and the primary light's direction (unit
    /// vector towards the light, camera frame: x right, y down, z forward) and intensity.
    public struct Light: Sendable, Codable, Equatable {
        public var ambientIntensity: Double
        public var colorTemperatureK: Double?
        public var towardsLight: [Double]?
        public var primaryIntensity: Double?
        public init(ambientIntensity: Double, colorTemperatureK: Double? = nil, towardsLight: [Double]? = nil, primaryIntensity: Double? = nil) {
            self.ambientIntensity = ambientIntensity
            self.colorTemperatureK = colorTemperatureK
            self.towardsLight = towardsLight
            self.primaryIntensity = primaryIntensity
        }
    }
}
