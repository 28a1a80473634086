import Foundation
import Testing

/// `live --output /dev/videoN` on machines without a virtual camera: the errors a user meets before
/// any frame is processed. (Writing to a real v4l2loopback device is tested in the vivid VM:
/// .ci/virtual-camera-inside.sh.)
@Suite(.serialized, .enabled(if: CLI.available, "lorgnette executable not built next to the tests"))
struct VirtualCameraOptionTests {
    @Test func aMissingDeviceIsOneLineBeforeAnyFrame() throws {
        let r = try CLI.run(["live", "--input", "demo", "--frames", "2", "--output", "/dev/video-lorgnette-missing"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("no video device at /dev/video-lorgnette-missing"), "\(r.stderr)")
        #expect(r.stderr.contains("modprobe v4l2loopback"), "\(r.stderr)")
        #expect(!r.stdout.contains("live: 2 frames"), "no frame may be processed: \(r.stdout)")
    }

    @Test func aCharacterDeviceThatIsNotVideoIsRefused() throws {
        let r = try CLI.run(["live", "--input", "demo", "--frames", "2", "--output", "/dev/null"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("/dev/null is not a V4L2 video device"), "\(r.stderr)")
    }

    @Test func outputFormatNeedsADevice() throws {
        let r = try CLI.run(["live", "--input", "demo", "--frames", "2", "--output", "x.avi", "--output-format", "yuyv"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--output-format applies to a video output device"), "\(r.stderr)")
        let bad = try CLI.run(["live", "--input", "demo", "--output", "/dev/video9", "--output-format", "rgb"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("yuyv") && bad.stderr.contains("i420") && bad.stderr.contains("mjpeg"), "\(bad.stderr)")
    }

    @Test func devicesJSONHasAnOutputsList() throws {
        let r = try CLI.run(["devices", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        #expect(json?["outputs"] is [Any], "\(r.stdout)")
        #expect(json?["devices"] is [Any], "the cameras' list keeps its key")
    }
}
