import Foundation

/// The aggregated measurement of one person (millimetres), as `lorgnette measure` prints it.
///
/// Mono PDs: `monoRight` is the subject's right eye (image left, OD), `monoLeft` the left (OS); both
/// are far (distance) values. `pd` is the near binocular PD as measured at `cameraDistance`; `pdFar`
/// the distance PD. Widths carry an extra model term in their band: the face-contour points are
/// placed at the mean face's depth (± 8 mm at the measured distance).
public struct MeasurementReport: Sendable {
    public var method: ScaleMethod
    public var framesUsed: Int
    public var pd: MetricSummary
    public var pdFar: MetricSummary
    public var monoRight: MetricSummary
    public var monoLeft: MetricSummary
    public var templeWidth: MetricSummary
    public var faceWidth: MetricSummary
    public var cameraDistance: MetricSummary
    public var recommendedSize: SizeRecommendation?
    /// With the iris scale: the person's iris diameter estimated once over the frames, in the PnP
    /// (mean-face) units, before it is taken to be 11.7 mm (nil otherwise).
    public var sessionIris: MetricSummary?
    /// Whether the person wore glasses (most judged frames, `EyeglassesDetector`); nil when not judged.
    /// Lenses magnify (plus) or shrink (minus) the eyes behind them, so the iris scale is refused with
    /// glasses on (`measure`), and the other scales carry the warning.
    public var eyeglasses: Bool? = nil
    /// The pupils' noise floor in the PD bands (1 SD, mm; both pupils): used below 5 frames, where the
    /// frames' own spread is no estimate of a photo's pupil error.
    public var pupilFloorSD: Double = 0

    /// One frame's iris-diameter fit, relative 1 SD: the spread of the per-frame fits on the dev clips
    /// d18 and face1 (README, "scale per frame"; 1.7 % against the rendered iris on sharp synthetic
    /// heads, `lorgnette eval coverage --sharp`). Used as the floor of the session's iris estimate
    /// below 5 frames, where the frames' own SD is no estimate (issue 24: a one-photo iris band had none).
    public static let irisFitRelativeSD = 0.016

    /// Depth uncertainty (1 SD, mm) of the face-contour points behind the pupils.
    public static let contourDepthSDMM = 8.0

    public init?(method: ScaleMethod, measurements: [FrameMeasurement]) {
        self.init(method: method, count: measurements.count, scratch: AggregationScratch()) { measurements[$0] }
    }

    /// Aggregates `count` frames given by `measurement(i)` (in order) in `scratch`, without allocating
    /// once the scratch has grown to `count`.
    ///
    /// With `method == .iris`, frames measured at the camera scale (`FrameMeasurement.method ==
    /// .camera`, as `MeasurementSession` keeps them) are scaled by one iris estimate for all of them:
    /// the robust mean of their iris diameters `I` (PnP units) is taken to be 11.7 mm, every frame is
    /// `rescaled(by: 11.7 / I)`, and the scale's uncertainty is the population's 0.4 mm plus the
    /// estimate's standard error. Frames already at the iris scale are used as they are.
    init?(method: ScaleMethod, count: Int, scratch: AggregationScratch, measurement: (Int) -> FrameMeasurement) {
        guard count > 0 else { return nil }
        if method == .iris, measurement(0).method == .camera {
            scratch.reserve(count)
            for i in 0..<count { scratch.values[i] = measurement(i).irisDiameter }
            guard let iris = MetricSummary.aggregate(scratch, count: count, relativeSD: 0, noiseFloorSD: 0), iris.value > 0 else { return nil }
            let factor = OcularConstants.irisDiameterMM / iris.value
            let population = OcularConstants.irisDiameterSDMM / OcularConstants.irisDiameterMM
            // Below 5 frames the frames' own spread says little (one photo: none), so each frame's iris
            // fit counts with at least the spread measured over frames of the dev clips (1.6 %).
            let perFrame = iris.n < 5 ? max(iris.sd / iris.value, Self.irisFitRelativeSD) : iris.sd / iris.value
            let estimate = perFrame / Double(iris.n).squareRoot()
            self.init(aggregating: method, count: count, scratch: scratch, sessionIris: iris) { i in
                var m = measurement(i).rescaled(by: factor)
                m.method = .iris
                m.scaleRelativeSD = (m.scaleRelativeSD * m.scaleRelativeSD + population * population + estimate * estimate).squareRoot()
                return m
            }
        } else {
            self.init(aggregating: method, count: count, scratch: scratch, sessionIris: nil, measurement: measurement)
        }
    }

    private init?(aggregating method: ScaleMethod, count: Int, scratch: AggregationScratch, sessionIris: MetricSummary?,
                  measurement: (Int) -> FrameMeasurement) {
        var rel = 0.0, distance = 0.0, mmPerPx = 0.0
        for i in 0..<count { rel += measurement(i).scaleRelativeSD }
        for i in 0..<count { distance += measurement(i).cameraDistance }
        for i in 0..<count { mmPerPx += measurement(i).mmPerPixel }
        rel /= Double(count); distance /= Double(count); mmPerPx /= Double(count)
        // Half a pixel per pupil: on real photos (300-W validation, gate-accepted) our pupils minus
        // MediaPipe's iris centres, along the pupils' line, put 95 % within 1.39 px, 0.50 px per pupil
        // at the band's level (an upper bound: it holds MediaPipe's error too). Rendered heads' pupils
        // are better (0.19 px RMS per pupil), so the synthetic card band is wide (README, session 35).
        let pupilFloor = 0.5 * 2.squareRoot() * mmPerPx
        let widthRel = (rel * rel + pow(Self.contourDepthSDMM / distance, 2)).squareRoot()
        func agg(_ k: KeyPath<FrameMeasurement, Double>, _ r: Double, _ floor: Double) -> MetricSummary? {
            scratch.reserve(count)
            for i in 0..<count { scratch.values[i] = measurement(i)[keyPath: k] }
            return MetricSummary.aggregate(scratch, count: count, relativeSD: r, noiseFloorSD: floor)
        }
        guard let pd = agg(\.pdNear, rel, pupilFloor), let pdFar = agg(\.pdFar, rel, pupilFloor),
              let mr = agg(\.monoFarRight, rel, pupilFloor), let ml = agg(\.monoFarLeft, rel, pupilFloor),
              let tw = agg(\.templeWidth, widthRel, 2 * mmPerPx), let fw = agg(\.faceWidth, widthRel, 2 * mmPerPx),
              let cd = agg(\.cameraDistance, rel, 0) else { return nil }
        self.method = method
        self.framesUsed = count
        self.pd = pd; self.pdFar = pdFar; self.monoRight = mr; self.monoLeft = ml
        self.templeWidth = tw; self.faceWidth = fw; self.cameraDistance = cd
        self.recommendedSize = SizeRecommendation.recommended(farPD: pdFar.value, templeWidth: tw.value)
        self.sessionIris = sessionIris
        self.pupilFloorSD = pupilFloor
    }

    static func number(_ v: Double, _ digits: Int = 2) -> String {
        guard v.isFinite else { return "null" }
        let s = String(format: "%.\(digits)f", v)
        return s.hasPrefix("-") && Double(s) == 0 ? String(s.dropFirst()) : s
    }

    static func json(_ m: MetricSummary) -> String {
        "{\"value\": \(number(m.value)), \"sd\": \(number(m.sd)), \"ci95\": [\(number(m.ci95.0)), \(number(m.ci95.1))]}"
    }

    /// The issue's JSON object, keys in its order.
    public var json: String {
        var s = "{\"method\": \"\(method.rawValue)\", \"frames_used\": \(framesUsed), "
        s += "\"pd_mm\": \(Self.json(pd)), \"pd_far_mm\": \(Self.json(pdFar)), "
        s += "\"mono_pd_mm\": {\"left\": \(Self.json(monoLeft)), \"right\": \(Self.json(monoRight))}, "
        s += "\"temple_width_mm\": \(Self.json(templeWidth)), \"face_width_mm\": \(Self.json(faceWidth)), "
        s += "\"camera_distance_mm\": \(Self.json(cameraDistance)), "
        if let f = recommendedSize {
            s += "\"frame_size\": {\"code\": \"\(f.code)\", \"label\": \"\(f.label)\"}, "
        } else {
            s += "\"frame_size\": null, "
        }
        s += "\"eyeglasses\": \(eyeglasses.map { $0 ? "true" : "false" } ?? "null")}"
        return s
    }

    /// The optician's table.
    public var table: String {
        func row(_ name: String, _ m: MetricSummary, _ digits: Int = 1) -> String {
            let v = Self.number(m.value, digits), pm = Self.number(m.plusMinus, digits)
            return name.padding(toLength: 30, withPad: " ", startingAt: 0)
                + "\(v) mm".padding(toLength: 11, withPad: " ", startingAt: 0)
                + "± \(pm)".padding(toLength: 9, withPad: " ", startingAt: 0)
                + "(SD \(Self.number(m.sd, 2)), 95 % \(Self.number(m.ci95.0, digits))–\(Self.number(m.ci95.1, digits)))"
        }
        var lines = ["Scale: \(method.rawValue) (\(Self.methodNote(method))), \(framesUsed) frame\(framesUsed == 1 ? "" : "s") used"]
        lines.append(row("PD, distance (far)", pdFar))
        lines.append(row("PD, near (at camera distance)", pd))
        lines.append(row("Mono PD right eye (OD), far", monoRight))
        lines.append(row("Mono PD left eye (OS), far", monoLeft))
        lines.append(row("Temple width (at eye level)", templeWidth))
        lines.append(row("Face width (cheekbones)", faceWidth))
        lines.append(row("Camera distance", cameraDistance, 0))
        if let f = recommendedSize { lines.append("Recommended frame size: \(f.code) (\(f.label))") }
        if eyeglasses == true { lines.append("Eyeglasses: on the face (measured through their lenses)") }
        return lines.joined(separator: "\n")
    }

    static func methodNote(_ m: ScaleMethod) -> String {
        switch m {
        case .iris: return "iris diameter 11.7 ± 0.4 mm"
        case .card: return "ID-1 card 85.60 × 53.98 mm"
        case .camera: return "camera intrinsics + PnP depth of the mean face, head size ± 4 %"
        }
    }
}
