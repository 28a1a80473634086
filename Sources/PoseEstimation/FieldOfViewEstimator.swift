import FaceModel
import Foundation
import Geometry

/// Estimates a camera's horizontal field of view from 68-point landmarks of one face seen on several
/// frames (or photos from the same camera): from the face's perspective when that is conclusive, else
/// from its size and a typical viewing distance.
///
/// Perspective: a face's depth relief (nose tip ≈ 25 mm in front of the eyes) is magnified by
/// `1 − z/Z` at distance `Z`, and a wider lens puts the same image-size face nearer, so the relative
/// magnification of near and far points pins the focal length. For each candidate focal length the
/// pose of every frame is solved (`PerspectivePointSolver` on `weights`, from the weak-perspective
/// closed form) and the frames' costs — weighted mean square residual over the squared inter-ocular
/// distance — are averaged. The minimum is searched on a grid uniform in ln(focal length) over
/// `searchRangeDegrees`, then refined by golden-section search (Kiefer 1953). Interval: the grid
/// points whose mean cost exceeds the minimum's by less than `significance` standard errors of the
/// per-frame differences (a paired comparison; the standard error counts `frameCorrelation` video
/// frames as one observation, as neighbouring frames repeat much of their landmark error). It is
/// conclusive when there are at least `minimumFrames` frames, the minimum and the interval stay inside the search range, the interval spans at most
/// `maxConclusiveSpan` in ln f, and the face then lies at a plausible distance.
///
/// Measured limits (Tests/PoseEstimationTests/FieldOfViewTests and the four dev clips): on synthetic
/// faces 60 cm away with depth ±10 %, eyes ±5 % and 1 px noise, 12 frames, the focal length comes out
/// within a median 2–5 % at 15–80° (worst of 12 people: 7–10 % at 15–60°, 22 % at 80°, where the
/// interval often reaches the wide end and the face size decides); a face 10 % deeper than the mean
/// face reads as a 10 % longer focal length, a bias the interval does not include. On the real clips
/// the mean face's shape error and expressions swamp the cue: the cost falls monotonically to one end
/// of the range or the other depending on the points fitted, so the perspective is inconclusive on
/// three of the four and the face size decides.
///
/// Face size: the field of view that puts the face's median distance at `typicalDistanceMM` (60 cm, the
/// middle of the 50–70 cm people sit from a laptop or desktop camera; ANSI/HFES 100-2007 recommends
/// monitors at 50–100 cm), its interval the fields of view for `plausibleDistanceMM`. A wrong guess
/// mostly scales the estimated distance, which is what a field of view mostly changes anyway.
/// Principal point: the image centre (an off-centre crop of a larger frame biases the perspective).
public struct FieldOfViewEstimator: Sendable {
    public var face: MeanFace
    /// Horizontal field of view searched, degrees (wide enough that an 80–90° webcam is not at the edge).
    public var searchRangeDegrees: ClosedRange<Double> = 8...110
    /// Grid points over the search range (uniform in ln f).
    public var gridPoints = 33
    /// Standard errors of the paired cost difference that separate a field of view from the best one.
    public var significance = 2.0
    /// Frames per independent observation in the standard error (video frames share landmark error).
    public var frameCorrelation = 3.0
    /// Widest interval (in ln f) of a conclusive perspective: 0.9 is a factor 2.5 in focal length (e.g. 15–35°).
    public var maxConclusiveSpan = 0.9
    /// Fewest frames for a conclusive perspective (the interval needs the frames' spread).
    public var minimumFrames = 5
    /// Per-landmark weights in the fit and the cost (see `rigidPointWeights`).
    public var weights = FieldOfViewEstimator.rigidPointWeights
    /// Huber threshold as a fraction of the inter-ocular distance.
    public var huberFraction = 0.04

    /// The typical distance from the camera to the face (the point between the pupils), mm.
    public static let typicalDistanceMM = 600.0
    /// Face distances taken as plausible for a recorded face, mm.
    public static let plausibleDistanceMM = 400.0...1000.0

    /// The pose estimator's weights: jaw contour (0–16, a silhouette that slides round the cheek with the
    /// viewpoint) 0.3, the rest 1. Fitting only the nose and eyes (least moved by expression) was tried:
    /// on synthetic faces the cue then becomes too weak to conclude, and on the real clips it was no
    /// more consistent.
    public static let rigidPointWeights: [Double] = (0..<68).map { $0 <= 16 ? 0.3 : 1 }

    public init(face: MeanFace) { self.face = face }

    /// Per-frame fits at one field of view: the cost (weighted mean square reprojection residual over the
    /// squared inter-ocular distance) and the face's distance in mm; nil for frames the pose fails on.
    public func frameFits(_ observations: [[SIMD2<Double>]], width: Int, height: Int,
                          horizontalFOVDegrees fov: Double) -> [(cost: Double, distanceMM: Double)?] {
        let camera = CameraIntrinsics(horizontalFOVDegrees: fov, width: width, height: height)
        let solver = PerspectivePointSolver(model: face.landmarks, weights: weights)
        let totalWeight = weights.reduce(0, +)
        let origin = (face.pupils[0] + face.pupils[1]) / 2
        return observations.map { points -> (cost: Double, distanceMM: Double)? in
            let d = points[45] - points[36]
            let io2 = (d * d).sum()
            guard io2 > 1, totalWeight > 0 else { return nil }
            let normalised = points.map { SIMD2(($0.x - camera.cx) / camera.fx, ($0.y - camera.cy) / camera.fy) }
            guard let start = WeakPerspectivePose.solve(model: face.landmarks, normalised: normalised, weights: weights),
                  let fit = solver.refine(imagePoints: points, camera: camera, initial: start, huberPx: max(0.5, huberFraction * io2.squareRoot()))
            else { return nil }
            var sum = 0.0
            for i in 0..<68 where weights[i] > 0 { sum += weights[i] * (fit.residuals[i] * fit.residuals[i]).sum() }
            return (sum / totalWeight / io2, fit.pose.apply(origin).length)
        }
    }

    /// The estimate from 68-point landmark sets in pixels (pixel-centre convention) of `width`×`height`
    /// images. Nil when no set has a pose at every candidate or the size is invalid.
    public func estimate(_ observations: [[SIMD2<Double>]], width: Int, height: Int) -> FieldOfViewEstimate? {
        let usable = observations.filter { $0.count == 68 && $0.allSatisfy { $0.x.isFinite && $0.y.isFinite } }
        guard width > 1, height > 1, !usable.isEmpty, gridPoints >= 5 else { return nil }
        func logF(_ fov: Double) -> Double { Foundation.log(Double(width) / 2 / Foundation.tan(fov * Double.pi / 360)) }
        func fov(_ lf: Double) -> Double { 2 * Foundation.atan(Double(width) / 2 / Foundation.exp(lf)) * 180 / Double.pi }
        let lo = logF(searchRangeDegrees.upperBound), hi = logF(searchRangeDegrees.lowerBound)
        let grid = (0..<gridPoints).map { lo + (hi - lo) * Double($0) / Double(gridPoints - 1) }
        var perFrame = grid.map { frameFits(usable, width: width, height: height, horizontalFOVDegrees: fov($0)) }
        // Frames whose pose fails at some candidate are left out everywhere, so every mean is over the same frames.
        let keep = usable.indices.filter { k in perFrame.allSatisfy { $0[k] != nil } }
        guard !keep.isEmpty else { return nil }
        perFrame = perFrame.map { fits in keep.map { fits[$0] } }
        let kept = keep.map { usable[$0] }
        func costs(_ fits: [(cost: Double, distanceMM: Double)?]) -> [Double]? {
            fits.allSatisfy { $0 != nil } ? fits.map { $0!.cost } : nil
        }
        func mean(_ c: [Double]) -> Double { c.reduce(0, +) / Double(c.count) }
        func median(_ v: [Double]) -> Double { let s = v.sorted(); return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2 }
        func medianDistance(_ lf: Double) -> Double? {
            let fits = frameFits(kept, width: width, height: height, horizontalFOVDegrees: fov(lf)).compactMap { $0?.distanceMM }
            return fits.isEmpty ? nil : median(fits)
        }
        let gridCosts = perFrame.map { costs($0)! }
        let means = gridCosts.map(mean)
        let best = means.indices.min { means[$0] < means[$1] }!

        // Golden-section refinement inside the neighbouring grid cells.
        var a = grid[max(best - 1, 0)], b = grid[min(best + 1, grid.count - 1)]
        let ratio = (5.0.squareRoot() - 1) / 2
        func cost(_ lf: Double) -> Double { costs(frameFits(kept, width: width, height: height, horizontalFOVDegrees: fov(lf))).map(mean) ?? .infinity }
        var x1 = b - ratio * (b - a), x2 = a + ratio * (b - a)
        var c1 = cost(x1), c2 = cost(x2)
        for _ in 0..<12 {
            if c1 < c2 { b = x2; x2 = x1; c2 = c1; x1 = b - ratio * (b - a); c1 = cost(x1) } else { a = x1; x1 = x2; c1 = c2; x2 = a + ratio * (b - a); c2 = cost(x2) }
        }
        let refined = c1 < c2 ? x1 : x2
        let refinedCosts = costs(frameFits(kept, width: width, height: height, horizontalFOVDegrees: fov(refined)))
        let (minimumLF, minimumCosts) = refinedCosts.map { mean($0) <= means[best] } == true ? (refined, refinedCosts!) : (grid[best], gridCosts[best])

        // Paired comparison with the minimum at every grid point.
        let n = Double(kept.count)
        let effective = max(n / max(frameCorrelation, 1), 1)
        let accepted = grid.indices.map { j -> Bool in
            let d = zip(gridCosts[j], minimumCosts).map { $0 - $1 }
            let m = d.reduce(0, +) / n
            guard kept.count >= 2 else { return m <= 0 }
            let v = d.reduce(0) { $0 + ($1 - m) * ($1 - m) } / (n - 1)
            return m <= significance * (v / effective).squareRoot()
        }
        // The interval is the connected run of accepted grid points around the minimum.
        var first = grid.firstIndex { $0 >= minimumLF } ?? grid.count - 1
        var last = grid.lastIndex { $0 <= minimumLF } ?? 0
        while first > 0 && accepted[first - 1] { first -= 1 }
        while last < grid.count - 1 && accepted[last + 1] { last += 1 }
        let lowLF = min(grid[first], minimumLF), highLF = max(grid[last], minimumLF)
        let perspectiveDistance = medianDistance(minimumLF) ?? .nan
        let conclusive = kept.count >= minimumFrames && first > 0 && last < grid.count - 1 && highLF - lowLF <= maxConclusiveSpan
            && Self.plausibleDistanceMM.contains(perspectiveDistance)

        var estimate = FieldOfViewEstimate(
            horizontalFOVDegrees: fov(minimumLF), lowerDegrees: fov(highLF), upperDegrees: fov(lowLF), basis: .perspective,
            frames: kept.count, perspectiveDegrees: fov(minimumLF), perspectiveLowerDegrees: fov(highLF),
            perspectiveUpperDegrees: fov(lowLF), perspectiveIsConclusive: conclusive, medianDistanceMM: perspectiveDistance)
        if conclusive { return estimate }

        // Face size: distance grows with the focal length (exactly so under weak perspective), so two
        // fixed-point steps from the minimum put the median face at the typical distance.
        var lf = minimumLF
        for _ in 0..<3 {
            guard let z = medianDistance(lf), z > 0 else { return nil }
            lf += Foundation.log(Self.typicalDistanceMM / z)
        }
        guard let z = medianDistance(lf), z > 0 else { return nil }
        let nearLF = lf + Foundation.log(Self.plausibleDistanceMM.lowerBound / z), farLF = lf + Foundation.log(Self.plausibleDistanceMM.upperBound / z)
        estimate.basis = .faceSize
        estimate.horizontalFOVDegrees = fov(lf)
        estimate.lowerDegrees = fov(farLF)
        estimate.upperDegrees = fov(nearLF)
        estimate.medianDistanceMM = z
        return estimate
    }
}
