import FaceDetection
import Imaging
import Landmarks
import ModelFormat
import Testing

@Suite struct YawDomainTests {
    /// `randomCascade` with its second stage split into three yaw domains of different random maps,
    /// the middle one ±0.03 around the yaw index of its (synthetic) mean shape.
    func partitionedCascade() -> LandmarkCascade {
        var cascade = randomCascade(stages: 2)
        let m = cascade.meanShape
        let y0 = YawDomains.yawIndex(reference: m[0], right: m[16], nose: m[30])
        let maps = (0..<3).map { d in randomCascade(stages: 2, seed: 11 + UInt64(d)).stages[1] }
        cascade.stages[1] = CascadeStage(domains: YawDomains(bounds: [y0 - 0.03, y0 + 0.03], maps: maps))
        return cascade
    }

    @Test func domainsFollowTheBounds() {
        let bounds: [Float] = [-0.1, 0.1]
        #expect(YawDomains.domain(forYaw: -0.3, bounds: bounds) == 0)
        #expect(YawDomains.domain(forYaw: -0.1, bounds: bounds) == 0)
        #expect(YawDomains.domain(forYaw: 0, bounds: bounds) == 1)
        #expect(YawDomains.domain(forYaw: 0.1001, bounds: bounds) == 2)
    }

    @Test func yawIndexIsZeroWhenFrontalAndFlipsSignWhenMirrored() {
        let left = SIMD2<Float>(-40, 10), right = SIMD2<Float>(40, 10)
        #expect(YawDomains.yawIndex(reference: left, right: right, nose: SIMD2(0, 0)) == 0)
        let turned = YawDomains.yawIndex(reference: left, right: right, nose: SIMD2(12, 0))
        #expect(abs(turned - 0.15) < 1e-6)
        let mirrored = YawDomains.yawIndex(reference: SIMD2(-right.x, right.y), right: SIMD2(-left.x, left.y), nose: SIMD2(-12, 0))
        #expect(abs(mirrored + turned) < 1e-6)
    }

    /// A partitioned stage applies the map of the domain the shape's yaw index falls in: stepping by
    /// hand with that domain's map gives the same shape as the stage.
    @Test func aPartitionedStageAppliesItsDomainsMap() {
        let cascade = partitionedCascade()
        let image = texturedImage(width: 200, height: 180)
        let domains = cascade.stages[1].yawDomains!
        var seen = Set<Int>()
        for shift: Float in [-14, 0, 14] {
            var shape = cascade.initialShape(for: FaceBox(x: 50, y: 40, width: 100, height: 100))
            shape[30].x += shift   // turns the nose, so the yaw index moves across the domains
            let crop = cascade.makeCrop(image: image, around: shape)
            let t = cascade.referenceTransform(for: shape)
            let d = domains.domain(forYaw: cascade.yawIndex(of: shape, transform: t))
            seen.insert(d)
            var ws = LandmarkCascade.Workspace(cascade: cascade)
            var viaStage = shape, viaMap = shape
            ws.apply(cascade.stages[1], cascade: cascade, crop: crop, shape: &viaStage)
            ws.apply(domains.maps[d], cascade: cascade, crop: crop, shape: &viaMap)
            #expect(viaStage == viaMap)
            let other = domains.maps[(d + 1) % 3]
            var viaOther = shape
            ws.apply(other, cascade: cascade, crop: crop, shape: &viaOther)
            #expect(viaStage != viaOther)
        }
        #expect(seen == [0, 1, 2], "the shifted noses should reach every domain")
    }

    /// Version 3 stores the domains and reads them back; a cascade without domains is still written
    /// as version 2, which this build (and the previous one) reads.
    @Test func partitionedStagesRoundTripAsVersionThree() throws {
        let cascade = partitionedCascade()
        let archive = cascade.archive(weightEncoding: .float32)
        #expect(archive.version == 3)
        let loaded = try LandmarkCascade(bytes: archive.serialized())
        #expect(loaded.stages[1].yawDomains?.bounds == cascade.stages[1].yawDomains?.bounds)
        #expect(loaded.stages[0].yawDomains == nil)
        let image = texturedImage(width: 200, height: 180)
        let box = FaceBox(x: 50, y: 40, width: 100, height: 100)
        let a = cascade.landmarks(in: image, box: box), b = loaded.landmarks(in: image, box: box)
        for i in 0..<68 { #expect(abs(a[i].x - b[i].x) < 1e-3 && abs(a[i].y - b[i].y) < 1e-3) }
        #expect(randomCascade().archive().version == 2)
    }

    @Test func badYawBoundsAreRefused() throws {
        var archive = partitionedCascade().archive(weightEncoding: .float32)
        archive.metadata["stage.1.yaw_bounds"] = "0.05,-0.05"   // not ascending
        #expect(throws: ModelFileError.self) { _ = try LandmarkCascade(bytes: archive.serialized()) }
        archive.metadata["stage.1.yaw_bounds"] = "-0.05,0.05,0.2"   // a fourth domain's maps are missing
        #expect(throws: (any Error).self) { _ = try LandmarkCascade(bytes: archive.serialized()) }
        var v2 = partitionedCascade().archive(weightEncoding: .float32)
        v2.version = 2   // domains in a version-2 file are damage, not a feature
        #expect(throws: ModelFileError.self) { _ = try LandmarkCascade(bytes: v2.serialized()) }
    }
}
