import FacialMetrics
import Testing

/// Pupils that cannot be trusted this frame are held in the eye's frame instead of jumping.
struct PupilContinuityTests {
    /// 68 points with the eye corners at the given places (the rest is irrelevant here).
    static func landmarks(shift: SIMD2<Float>) -> [SIMD2<Float>] {
        var p = [SIMD2<Float>](repeating: .zero, count: 68)
        p[36] = SIMD2(100, 100) + shift; p[39] = SIMD2(140, 100) + shift
        p[42] = SIMD2(180, 100) + shift; p[45] = SIMD2(220, 100) + shift
        return p
    }

    static func eye(_ pupil: SIMD2<Float>, iris: Double?, open: Bool = true) -> RefinedEye {
        RefinedEye(pupil: pupil, source: iris == nil ? .contour : .limbus, irisDiameterPx: iris, isOpen: open,
                   aspectRatio: 0.3, limbusContrast: 10, limbusResidualPx: 0.5, lidOpeningPx: 12)
    }

    @Test func misfitsAndBlinksAreHeldWhereTheEyeMoved() {
        var continuity = PupilContinuity()
        // Trusted frames: pupils 2 px left of each eye's centre, iris 26 px.
        for _ in 0 ..< 8 {
            let out = continuity.apply(EyePair(left: Self.eye(SIMD2(118, 100), iris: 26), right: Self.eye(SIMD2(198, 100), iris: 26)),
                                       landmarks: Self.landmarks(shift: .zero))
            #expect(out.left.source == .limbus && out.left.pupil == SIMD2(118, 100))
        }
        // The head moves 10 px right; the left limbus fit lands on the lid (iris 31 px, 12 px off).
        let moved = Self.landmarks(shift: SIMD2(10, 0))
        var out = continuity.apply(EyePair(left: Self.eye(SIMD2(140, 104), iris: 31), right: Self.eye(SIMD2(208, 100), iris: 26.5)), landmarks: moved)
        #expect(out.left.source == .held && !out.left.isOpen)
        #expect(abs(out.left.pupil.x - 128) < 1e-3 && abs(out.left.pupil.y - 100) < 1e-3)
        #expect(out.right.source == .limbus && out.right.pupil == SIMD2(208, 100))
        // A blink: both eyes fall back to their contour centroids (a few px low); both are held.
        out = continuity.apply(EyePair(left: Self.eye(SIMD2(130, 104), iris: nil, open: false), right: Self.eye(SIMD2(210, 104), iris: nil, open: false)),
                               landmarks: moved)
        #expect(out.left.source == .held && abs(out.left.pupil.y - 100) < 1e-3)
        #expect(out.right.source == .held && abs(out.right.pupil.x - 208) < 1e-3)
        // A one-frame jump of a quarter eye width (a fit on the lashes) is held; the same jump on two
        // frames in a row (the eye looked aside) is taken on the second.
        let aside = EyePair(left: Self.eye(SIMD2(138, 100), iris: 26), right: Self.eye(SIMD2(218, 100), iris: 26))
        out = continuity.apply(aside, landmarks: moved)
        #expect(out.left.source == .held && abs(out.left.pupil.x - 128) < 1e-3)
        out = continuity.apply(aside, landmarks: moved)
        #expect(out.left.source == .limbus && out.left.pupil == SIMD2(138, 100))
        // After a reset nothing is held: the fallback passes through.
        continuity.reset()
        out = continuity.apply(EyePair(left: Self.eye(SIMD2(130, 104), iris: nil, open: false), right: Self.eye(SIMD2(210, 104), iris: nil, open: false)),
                               landmarks: moved)
        #expect(out.left.source == .contour && out.left.pupil == SIMD2(130, 104))
    }
}
