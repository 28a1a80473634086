import FaceModel

/// The head proxy the light estimator reads the face's shading against: a smooth surface through
/// the metric mean face, and the skin points sampled on it.
///
/// Surface: a smoothing thin-plate spline height field z(x, y) (`ThinPlateSpline`) through the
/// mean face's jaw line, brows, nose, eyes and outer lips, plus a forehead the 68 landmarks do not
/// reach: three rows of points 35–65 mm above the pupils on a cylinder of radius 80 mm (the
/// forehead's breadth curvature) leaning back 15° from vertical. Normals come from the spline's
/// gradient, n ∝ (∂z/∂x, ∂z/∂y, −1), pointing out of the face (towards the camera of a frontal
/// face). Face frame and units are `MeanFace`'s: millimetres, origin between the pupils, x to the
/// image right, y down, z into the head.
///
/// Samples: a 4 mm grid over three skin regions only — forehead (28–55 mm above the pupils,
/// within 40 mm of the midline: above the brows, below most hairlines), cheeks (14–46 mm below
/// the pupils, 18–50 mm out: under the lower lids, beside the nose, inside the jaw, above the
/// mouth corners) and the nose (bridge to tip, widening from ±5 to ±12 mm). Eyes, brows, lips and
/// the jaw edge fall outside these regions by construction; hair, beard, glasses and shadows are
/// left to the estimator's photometric rejection.
public struct FaceLightProxy: Sendable {
    /// One skin point: position and unit outward normal in the face frame, and its region.
    public struct Sample: Sendable {
        public var position: SIMD3<Float>
        public var normal: SIMD3<Float>
        public var region: Region
    }

    public enum Region: String, Sendable, CaseIterable {
        case forehead, leftCheek, rightCheek, nose
    }

    let surface: ThinPlateSpline
    public private(set) var samples: [Sample]

    public init(face: MeanFace) {
        var points: [SIMD3<Double>] = []
        // Jaw, brows, nose, eyes, outer lips; the inner lips sit too close to the outer ones.
        for i in 0..<60 { points.append(face.landmarks[i]) }
        let browZ = face.landmarks[21].z
        for y in [-35.0, -50.0, -65.0] {
            for x in stride(from: -50.0, through: 50.0, by: 12.5) {
                let radius = 80.0
                let lean = (-30 - y) * 0.27 // tan 15°
                let z = browZ + 3 + lean + radius - (radius * radius - x * x).squareRoot()
                points.append(SIMD3(x, y, z))
            }
        }
        let spline = ThinPlateSpline(points: points, smoothing: 20)!
        var list: [Sample] = []
        func add(_ x: Double, _ y: Double, _ region: Region) {
            let (z, g) = spline.evaluate(x: x, y: y)
            let n = SIMD3<Double>(g.x, g.y, -1)
            let unit = n / (n * n).sum().squareRoot()
            list.append(Sample(position: SIMD3<Float>(Float(x), Float(y), Float(z)),
                                  normal: SIMD3<Float>(Float(unit.x), Float(unit.y), Float(unit.z)), region: region))
        }
        let step = 4.0
        for y in stride(from: -55.0, through: -28.0, by: step) {
            for x in stride(from: -40.0, through: 40.0, by: step) { add(x, y, .forehead) }
        }
        for y in stride(from: 14.0, through: 46.0, by: step) {
            for x in stride(from: 18.0, through: 50.0, by: step) {
                add(-x, y, .leftCheek)
                add(x, y, .rightCheek)
            }
        }
        for y in stride(from: 6.0, through: 40.0, by: step) {
            let half = 5 + 7 * (y - 6) / 34
            for x in stride(from: -half, through: half + 1e-9, by: step) { add(x, y, .nose) }
        }
        surface = spline
        samples = list
    }

    /// Height and unit outward normal of the proxy surface at face-frame (x, y), millimetres:
    /// for rendering the proxy itself (the synthetic ground-truth tests).
    public func surfacePoint(x: Float, y: Float) -> (position: SIMD3<Float>, normal: SIMD3<Float>) {
        let (z, g) = surface.evaluate(x: Double(x), y: Double(y))
        let n = SIMD3<Double>(g.x, g.y, -1)
        let unit = n / (n * n).sum().squareRoot()
        return (SIMD3<Float>(x, y, Float(z)), SIMD3<Float>(Float(unit.x), Float(unit.y), Float(unit.z)))
    }

    /// The same proxy sampling only `regions` (e.g. without the forehead when hair covers it).
    public func restricted(to regions: Set<Region>) -> FaceLightProxy {
        var copy = self
        copy.samples = samples.filter { regions.contains($0.region) }
        return copy
    }
}
