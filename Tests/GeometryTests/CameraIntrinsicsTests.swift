import Foundation
import Geometry
import Testing

@Test func fieldOfViewIntrinsicsProjectTheAxisToTheImageCentre() {
    let c = CameraIntrinsics(horizontalFOVDegrees: 90, width: 641, height: 481)
    #expect(abs(c.fx - 320.5) < 1e-9)
    #expect(abs(c.horizontalFOVDegrees - 90) < 1e-9)
    let centre = c.project(SIMD3(0, 0, 1000))
    #expect(centre == SIMD2(320, 240))
    // A point at 45° lands on the outer edge of the image (pixel edge at −0.5 and W−0.5).
    let edge = c.project(SIMD3(1000, 0, 1000))
    #expect(abs(edge.x - 640.5) < 1e-9)
    #expect(abs(CameraIntrinsics.defaultWebcam(width: 640, height: 480).horizontalFOVDegrees - CameraIntrinsics.defaultHorizontalFOVDegrees) < 1e-9)
}

@Test func distortionUndistortionRoundTrip() {
    let c = CameraIntrinsics(fx: 600, fy: 610, cx: 322, cy: 238, width: 640, height: 480,
                             distortion: LensDistortion(k1: -0.28, k2: 0.08, p1: 0.001, p2: -0.0015))
    for x in stride(from: -300.0, through: 300, by: 50) {
        for y in stride(from: -220.0, through: 220, by: 55) {
            let p = SIMD3(x, y, 700.0)
            let px = c.project(p)
            let n = c.normalised(pixel: px)
            #expect(abs(n.x - x / 700) < 1e-9 && abs(n.y - y / 700) < 1e-9)
        }
    }
    // Barrel distortion pulls off-axis points towards the centre.
    #expect(c.project(SIMD3(300, 0, 700)).x < c.withoutDistortion.project(SIMD3(300, 0, 700)).x)
}

@Test func calibrationJSONParsesRescalesAndRejects() throws {
    let json = #"{"fx": 1000, "fy": 1000, "cx": 639.5, "cy": 359.5, "k1": -0.1, "width": 1280, "height": 720}"#
    let c = try CameraIntrinsics(calibrationJSON: Data(json.utf8), imageWidth: 640, imageHeight: 360)
    #expect(c.fx == 500 && c.cx == 319.5 && c.cy == 179.5 && c.distortion.k1 == -0.1)
    let again = try CameraIntrinsics(calibrationJSON: Data(c.calibrationJSON.utf8), imageWidth: 640, imageHeight: 360)
    #expect(again == c)
    #expect(throws: CameraCalibrationError.self) { try CameraIntrinsics(calibrationJSON: Data("[1]".utf8), imageWidth: 1, imageHeight: 1) }
    #expect(throws: CameraCalibrationError.self) { try CameraIntrinsics(calibrationJSON: Data(#"{"fx": 1, "fy": 1, "cx": 0}"#.utf8), imageWidth: 1, imageHeight: 1) }
    #expect(throws: CameraCalibrationError.self) { try CameraIntrinsics(calibrationJSON: Data(#"{"fx": -1, "fy": 1, "cx": 0, "cy": 0}"#.utf8), imageWidth: 1, imageHeight: 1) }
    #expect(throws: CameraCalibrationError.self) { try CameraIntrinsics(calibrationJSON: Data(#"{"fx": "a", "fy": 1, "cx": 0, "cy": 0}"#.utf8), imageWidth: 1, imageHeight: 1) }
}
