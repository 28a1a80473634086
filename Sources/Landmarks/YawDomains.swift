/// Pose-partitioned regression for one cascade stage (Global SDM, Xiong & De la Torre, "Global
/// Supervised Descent Method", CVPR 2015): instead of one linear map for every head pose, the stage
/// holds one map per *yaw domain* and picks the domain from the shape entering the stage. A face
/// turned to one side moves its points in ways a frontal face does not (the far jaw line folds
/// behind the nose), so a single average descent direction is a compromise for both.
///
/// The domain is chosen by `yawIndex` of the current shape, which costs three points of the shape
/// already in hand: the fit's cost stays one linear map per stage. Domains are ordered from faces
/// turned to the image's left (negative index) to the right; `bounds` are the ascending upper
/// limits of every domain but the last.
public struct YawDomains: Sendable {
    /// Ascending; domain `d` holds yaw indices in `(bounds[d-1], bounds[d]]`, the first and last open-ended.
    public let bounds: [Float]
    /// One linear map per domain (`bounds.count + 1`), each a plain `CascadeStage` without domains.
    public let maps: [CascadeStage]

    public init(bounds: [Float], maps: [CascadeStage]) {
        precondition(maps.count == bounds.count + 1 && maps.count >= 2, "need one map per yaw domain (\(bounds.count + 1)), got \(maps.count)")
        precondition(zip(bounds, bounds.dropFirst()).allSatisfy { $0 < $1 }, "yaw bounds must ascend")
        precondition(maps.allSatisfy { $0.yawDomains == nil }, "a yaw domain's map cannot itself be partitioned")
        self.bounds = bounds
        self.maps = maps
    }

    /// The domain of a shape whose yaw index is `yaw`.
    public func domain(forYaw yaw: Float) -> Int { Self.domain(forYaw: yaw, bounds: bounds) }

    /// The domain of `yaw` among domains with upper limits `bounds` (ascending).
    public static func domain(forYaw yaw: Float, bounds: [Float]) -> Int {
        var d = 0
        while d < bounds.count && yaw > bounds[d] { d += 1 }
        return d
    }

    /// iBUG-68 indices the yaw index reads: jaw ends (0, 16) and nose tip (30).
    static let jawLeft = 0, jawRight = 16, noseTip = 30

    /// A yaw proxy of a 68-point shape given in the reference frame (the mean shape's, so scale and
    /// roll are already factored out): the nose tip's horizontal offset from the midpoint of the jaw
    /// ends, in units of the jaw's width. About 0 for a frontal face, ±0.3 and beyond towards profile;
    /// its sign flips under mirroring, so mirrored training faces fill the domains symmetrically.
    public static func yawIndex(reference left: SIMD2<Float>, right: SIMD2<Float>, nose: SIMD2<Float>) -> Float {
        let width = right.x - left.x
        guard abs(width) > 1e-3 else { return 0 }
        return (nose.x - (left.x + right.x) / 2) / width
    }
}
