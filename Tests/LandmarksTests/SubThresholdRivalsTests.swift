import FaceDetection
import Foundation
import Imaging
import JPEGCodec
import Testing

/// Windows under the detector's threshold as rivals only (`PhotoFaceDetector.rivalThreshold`, issue
/// 21's canvas protocol: a turned face whose own windows scored -1.17 to -1.53 under a larger box
/// over the threshold -0.84 was missed at every scale): they join the groups of the boxes that
/// suppress them, and never become boxes of their own.
struct SubThresholdRivalsTests {
    @Test func windowsUnderTheThresholdAreRivalsOnly() throws {
        let models = PhotoFacesTests.models
        let bytes = [UInt8](try Data(contentsOf: models.appendingPathComponent("demo/astronaut.jpg")))
        let photo = try TurboJPEGDecoder().decodeGray(bytes)
        let detector = PhotoFaceDetector(model: try HOGFaceDetectorModel(contentsOfFile: models.appendingPathComponent("face-detector.fdet").path))
        let threshold = detector.detector.threshold
        #expect(detector.rivalThreshold < threshold, "sub-threshold rivals are off by default")
        let groups = detector.detectContested(in: photo)
        detector.rivalThreshold = threshold
        let before = detector.detectContested(in: photo)
        // The kept boxes are the scan's as before; only the groups grow. Standby windows (fitted only
        // when no box gives a face) follow the kept boxes: under the threshold, without rivals.
        let kept = { (groups: [ContestedBox]) in groups.filter { !$0.standby }.map(\.box) }
        #expect(kept(groups) == kept(before))
        #expect(kept(groups) == detector.detect(in: photo))
        #expect(groups.drop { !$0.standby }.allSatisfy { $0.standby && $0.rivals.isEmpty && $0.box.score < threshold })
        #expect(groups.filter(\.standby).count <= detector.standbyCount)
        #expect(!before.contains { $0.standby }, "standby windows come from under the threshold, and there are none at rivalThreshold = threshold")
        #expect(!groups.isEmpty, "no face in the demo portrait")
        #expect(before.allSatisfy { $0.rivals.allSatisfy { $0.score >= threshold } })
        let weak = groups.flatMap { g in g.rivals.filter { $0.score < threshold } }
        #expect(!weak.isEmpty, "no rival under the threshold in the demo portrait: the test would not show the change")
        detector.rivalThreshold = -1.6
        for g in detector.detectContested(in: photo) {
            for r in g.rivals {
                #expect(r.score >= -1.6)
                let ratio = r.width / g.box.width
                #expect(ratio >= 1.5 || ratio <= 1 / 1.5, "rival x\(ratio) of a kept box is not of clearly different size")
            }
        }
    }
}
