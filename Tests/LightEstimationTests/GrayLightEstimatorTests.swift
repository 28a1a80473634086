import Anchors
import FaceTracking
import Foundation
import Geometry
import Imaging
import LightEstimation
import PoseEstimation
import Testing

/// The tracking path's lighting: the same fit on the gray frame (`GrayImage(luma:)` of the rendered
/// synthetic face) must agree with the colour estimate's luminance, and say it is luminance-only.
/// BT.601 luma of gamma-encoded RGB is not linear luminance: on skin it reads 2–7 % brighter (most
/// under warm light, whose red the luma weights more), hence the 8 % bars; directions agree within 0.5°.
@Suite struct GrayLightEstimatorTests {
    static func luminance(_ l: SphericalHarmonicLight) -> [Float] { (0..<9).map { ColorTemperature.luminance(l[$0]) } }

    static func relativeDifference(_ a: [Float], _ b: [Float]) -> Float {
        var num: Float = 0, den: Float = 0
        for k in a.indices { num += (a[k] - b[k]) * (a[k] - b[k]); den += b[k] * b[k] }
        return (num / den).squareRoot()
    }

    @Test(arguments: LightEstimatorTests.cases)
    func grayAgreesWithTheColourEstimatesLuminance(_ c: LightEstimatorTests.Case) throws {
        let truth = SyntheticFaceScene.light(towardsLight: c.towardsLight, kelvin: c.kelvin, reading: c.reading, ambient: c.ambient)
        let pose = SyntheticFaceScene.pose(yawDegrees: c.yaw, pitchDegrees: c.pitch)
        let image = SyntheticFaceScene.render(truth, pose: pose)
        let estimator = SyntheticFaceScene.estimator, intrinsics = SyntheticFaceScene.intrinsics
        let colour = try #require(estimator.estimate(image: image, cameraFromFace: pose, intrinsics: intrinsics))
        let gray = try #require(estimator.estimate(gray: GrayImage(luma: image), cameraFromFace: pose, intrinsics: intrinsics))
        let shDifference = Self.relativeDifference(Self.luminance(gray.light), Self.luminance(colour.light))
        let angle = SyntheticFaceScene.angleDegrees(gray.towardsLight, colour.towardsLight)
        let ambient = abs(gray.ambientIntensity - colour.ambientIntensity) / colour.ambientIntensity
        print("\(c): gray vs colour luminance SH \(shDifference * 100) %, direction \(angle)°, ambient \(ambient * 100) %, samples \(gray.sampleCount) / \(colour.sampleCount)")
        #expect(gray.isLuminanceOnly && !colour.isLuminanceOnly)
        #expect(shDifference <= 0.08)
        #expect(angle <= 3)
        #expect(ambient <= 0.08)
        #expect(abs(gray.primaryLightIntensity - colour.primaryLightIntensity) <= 0.08 * colour.primaryLightIntensity)
        #expect(abs(gray.sampleCount - colour.sampleCount) <= colour.sampleCount / 10)
        // Neutral by construction: equal channels, the documented D65 temperature.
        for k in 0..<9 { #expect(gray.light[k].x == gray.light[k].y && gray.light[k].y == gray.light[k].z) }
        #expect(abs(gray.ambientColorTemperature - 6504) < 10)
    }

    @Test func grayRejectsClippedAndDarkSkinAsColourDoes() {
        let estimator = SyntheticFaceScene.estimator, intrinsics = SyntheticFaceScene.intrinsics
        // Saturated and black frames give no usable skin.
        #expect(estimator.estimate(gray: GrayImage(width: 640, height: 480, fill: 255), cameraFromFace: SyntheticFaceScene.pose(), intrinsics: intrinsics) == nil)
        #expect(estimator.estimate(gray: GrayImage(width: 640, height: 480), cameraFromFace: SyntheticFaceScene.pose(), intrinsics: intrinsics) == nil)
        #expect(estimator.estimate(gray: GrayImage(width: 1, height: 1), cameraFromFace: SyntheticFaceScene.pose(), intrinsics: intrinsics) == nil)
    }

    /// The `into:` forms report what the dictionary forms do, in anchor order, and forget lost faces.
    @Test func trackerIntoFormsMatchTheDictionaryForms() throws {
        let c = LightEstimatorTests.cases[1]
        let truth = SyntheticFaceScene.light(towardsLight: c.towardsLight, kelvin: c.kelvin, reading: c.reading, ambient: c.ambient)
        let pose = SyntheticFaceScene.pose(yawDegrees: c.yaw, pitchDegrees: c.pitch)
        let image = SyntheticFaceScene.render(truth, pose: pose), gray = GrayImage(luma: image)
        let intrinsics = SyntheticFaceScene.intrinsics, face = SyntheticFaceScene.face
        let landmarks = face.landmarks.map { p -> SIMD2<Float> in
            let q = intrinsics.project(pose.apply(p))
            return SIMD2(Float(q.x), Float(q.y))
        }
        let fit = PoseEstimate(cameraFromModel: pose, reprojectionRMSPx: 0, weightedRMSPx: 0, confidence: 1, iterations: 0)
        func anchor(_ id: Int, _ state: TrackingState) -> FaceAnchor {
            FaceTracker.anchor(id: id, time: 0, state: state, cameraFromFace: pose, landmarks: landmarks, face: face, camera: intrinsics, pose: fit)
        }
        let a = LightTracker(estimator: SyntheticFaceScene.estimator)
        var list: [LightTracker.FaceLight] = []
        for (i, anchors) in [[anchor(3, .detected), anchor(5, .tracked)], [anchor(3, .tracked), anchor(5, .lost)], [anchor(3, .tracked)]].enumerated() {
            a.process(anchors, image: image, intrinsics: intrinsics, timestampSeconds: Double(i) / 30, into: &list)
            #expect(list.map(\.faceID) == anchors.filter { $0.state != .lost }.map(\.id))
            let dictionary = LightTracker.byFace(list)
            for entry in list { #expect(dictionary[entry.faceID] == entry.estimate) }
            #expect(dictionary.count == list.count)
        }
        a.process([anchor(3, .tracked)], gray: gray, intrinsics: intrinsics, timestampSeconds: 0.1, into: &list)
        #expect(list.count == 1 && list[0].faceID == 3 && list[0].estimate.isLuminanceOnly)
        // Face 5 was lost: it starts afresh (no smoothing with its old light) when it comes back.
        a.process([anchor(5, .detected)], gray: gray, intrinsics: intrinsics, timestampSeconds: 0.2, into: &list)
        let back = try #require(LightTracker.byFace(list)[5])
        let fresh = try #require(SyntheticFaceScene.estimator.estimate(gray: gray, cameraFromFace: pose, intrinsics: intrinsics))
        #expect(back.light == fresh.light)
    }

    /// Several threads sharing one estimator (its reused workspace is taken under a lock; a busy
    /// workspace means a private one) get exactly the single-threaded answers.
    @Test func concurrentEstimatesEqualSerialOnes() async throws {
        let c = LightEstimatorTests.cases[0]
        let truth = SyntheticFaceScene.light(towardsLight: c.towardsLight, kelvin: c.kelvin, reading: c.reading, ambient: c.ambient)
        let poses = (0..<4).map { SyntheticFaceScene.pose(yawDegrees: Double($0) * 6 - 9) }
        let images = poses.map { SyntheticFaceScene.render(truth, pose: $0) }
        let estimator = SyntheticFaceScene.estimator, intrinsics = SyntheticFaceScene.intrinsics
        let serial = (0..<4).map { estimator.estimate(image: images[$0], cameraFromFace: poses[$0], intrinsics: intrinsics) }
        let parallel = await withTaskGroup(of: (Int, LightEstimate?).self) { group in
            for round in 0..<24 {
                let i = round % 4
                group.addTask { (i, estimator.estimate(image: images[i], cameraFromFace: poses[i], intrinsics: intrinsics)) }
            }
            var all: [(Int, LightEstimate?)] = []
            for await r in group { all.append(r) }
            return all
        }
        #expect(parallel.count == 24)
        for (i, e) in parallel { #expect(e == serial[i]) }
    }
}
