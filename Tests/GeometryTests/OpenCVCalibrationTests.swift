import Foundation
import Geometry
import Testing

/// Calibration files written by real OpenCV (`Fixtures/opencv/make_fixtures.py`: `cv2.calibrateCamera`
/// on a simulated chessboard, saved with `cv2.FileStorage` by opencv-python-headless 4.14 and 5.0).
private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/opencv")

private struct Expected: Decodable {
    var fx, fy, cx, cy, k1, k2, p1, p2, k3, width, height: Double
    var projections: [[Double]]
}

private func expected(_ major: Int) throws -> Expected {
    try JSONDecoder().decode(Expected.self, from: Data(contentsOf: fixtures.appendingPathComponent("expected-opencv\(major).json")))
}

private func file(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

@Test(arguments: [4, 5], ["yml", "json"])
func openCVFileStorageCalibrationReadsAsWritten(major: Int, format: String) throws {
    let e = try expected(major)
    let c = try CameraIntrinsics(calibrationFile: file("calibration-opencv\(major).\(format)"), imageWidth: 640, imageHeight: 480)
    func same(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-12 * max(1, abs(b)) }
    #expect(same(c.fx, e.fx) && same(c.fy, e.fy) && same(c.cx, e.cx) && same(c.cy, e.cy))
    #expect(same(c.distortion.k1, e.k1) && same(c.distortion.k2, e.k2) && same(c.distortion.p1, e.p1)
            && same(c.distortion.p2, e.p2) && same(c.distortion.k3, e.k3))
    #expect(c.width == 640 && c.height == 480)
    // The coefficients land on the right terms: our projection is OpenCV's projectPoints.
    for p in e.projections {
        let px = c.project(SIMD3(p[0], p[1], p[2]))
        #expect(abs(px.x - p[3]) < 1e-6 && abs(px.y - p[4]) < 1e-6, "\(p)")
        let n = c.normalised(pixel: px)
        #expect(abs(n.x - p[0] / p[2]) < 1e-9 && abs(n.y - p[1] / p[2]) < 1e-9)
    }
}

@Test func openCVCalibrationIsRescaledToFramesOfTheSameAspect() throws {
    let e = try expected(5)
    let c = try CameraIntrinsics(calibrationFile: file("calibration-opencv5.yml"), imageWidth: 320, imageHeight: 240)
    #expect(abs(c.fx - e.fx / 2) < 1e-9 && abs(c.fy - e.fy / 2) < 1e-9)
    #expect(abs(c.cx - ((e.cx + 0.5) / 2 - 0.5)) < 1e-9 && abs(c.cy - ((e.cy + 0.5) / 2 - 0.5)) < 1e-9)
    #expect(c.distortion.k3 == (try CameraIntrinsics(calibrationFile: file("calibration-opencv5.yml"), imageWidth: 640, imageHeight: 480)).distortion.k3)
}

@Test func openCVCalibrationOfAnotherAspectIsRefused() {
    #expect {
        try CameraIntrinsics(calibrationFile: file("calibration-opencv4.json"), imageWidth: 640, imageHeight: 360)
    } throws: { "\($0)".contains("another aspect ratio") && "\($0)".contains("640x480") }
}

@Test(arguments: [4, 5])
func openCVRationalModelIsRefused(major: Int) {
    #expect {
        try CameraIntrinsics(calibrationFile: file("rational-opencv\(major).yml"), imageWidth: 640, imageHeight: 480)
    } throws: { "\($0)".contains("k4") && "\($0)".contains("CALIB_RATIONAL_MODEL") }
}

private func parse(_ text: String, width: Int = 640, height: Int = 480) throws -> CameraIntrinsics {
    try CameraIntrinsics(openCVFileStorage: Data(text.utf8), imageWidth: width, imageHeight: height)
}

@Test func openCVFileStorageVariants() throws {
    // No image size: used for the frames as written. Four coefficients: k3 = 0. A float matrix.
    let bare = try parse("""
        %YAML:1.0
        ---
        calibration_time: "Tue Nov 24 10:00:00 2026"
        K: !!opencv-matrix
           rows: 3
           cols: 3
           dt: f
           data: [ 5.e+02, 0., 3.2e+02, 0., 5.1e+02, 2.4e+02, 0., 0., 1. ]
        D: !!opencv-matrix
           rows: 4
           cols: 1
           dt: d
           data: [ -1.0000000000000001e-01, 2.e-02, 0., 0. ]
        """, width: 800, height: 600)
    #expect(bare.fx == 500 && bare.fy == 510 && bare.cx == 320 && bare.cy == 240 && bare.width == 800)
    #expect(bare.distortion == LensDistortion(k1: -0.1, k2: 0.02))
    // image_size as a sequence; 14 coefficients whose extra terms are zero are accepted.
    let sized = try parse("""
        %YAML 1.2
        ---
        image_size: [ 1280, 960 ]
        camera_matrix: !!opencv-matrix
           rows: 3
           cols: 3
           dt: d
           data: [ 1000., 0., 639.5, 0., 1000., 479.5, 0., 0., 1. ]
        distortion_coefficients: !!opencv-matrix
           rows: 1
           cols: 14
           dt: d
           data: [ -0.2, 0.1, 0., 0., 0.01, 0., 0., 0., 0., 0., 0., 0., 0., 0. ]
        """)
    #expect(sized.fx == 500 && sized.cx == 319.5 && sized.cy == 239.5 && sized.distortion.k3 == 0.01)
    // The project's own JSON still reads, with k3 now.
    let own = try CameraIntrinsics(calibrationJSON: Data(#"{"fx": 600, "fy": 600, "cx": 319.5, "cy": 239.5, "k3": 0.5}"#.utf8), imageWidth: 640, imageHeight: 480)
    #expect(own.distortion.k3 == 0.5)
    #expect(try CameraIntrinsics(calibrationJSON: Data(own.calibrationJSON.utf8), imageWidth: 640, imageHeight: 480) == own)
}

@Test func openCVFileStorageMistakesAreNamed() {
    let cases: [(String, String)] = [
        ("%YAML:1.0\ncamera_matrix: !!opencv-matrix\n   rows: 3\n   cols: 3\n   dt: d\n   data: [ 1., 0., 2., 0., 1., 2. ]\n", "holds 6 numbers"),
        ("%YAML:1.0\ncamera_matrix: !!opencv-matrix\n   rows: 3\n   cols: 3\n   dt: d\n   data: [ .Nan, 0., 2., 0., 1., 2., 0., 0., 1. ]\n", "non-finite"),
        ("%YAML:1.0\ncamera_matrix: !!opencv-matrix\n   rows: 3\n   cols: 3\n   dt: d\n   data: [ 500., 3., 2., 0., 500., 2., 0., 0., 1. ]\n", "skewed"),
        ("%YAML:1.0\ndistortion_coefficients: !!opencv-matrix\n   rows: 1\n   cols: 5\n   dt: d\n   data: [ 0., 0., 0., 0., 0. ]\n", "no camera_matrix"),
        ("%YAML:1.0\ncamera_matrix: !!opencv-matrix\n   rows: 3\n   cols: 3\n   dt: d\n   data: [ 500., 0., 2., 0., 500., 2.,\n", "unclosed"),
        ("<?xml version=\"1.0\"?>\n<opencv_storage>\n</opencv_storage>\n", "XML"),
        ("{\"camera_matrix\": {\"type_id\": \"opencv-matrix\", \"rows\": 3, \"cols\": 3, \"dt\": \"d\", \"data\": [500.0, 0.0, 2.0, 0.0, 500.0, 2.0, 0.0, 0.0, 1.0]},"
         + " \"distortion_coefficients\": {\"type_id\": \"opencv-matrix\", \"rows\": 1, \"cols\": 3, \"dt\": \"d\", \"data\": [0.1, 0.0, 0.0]}}", "3 coefficients"),
    ]
    for (text, message) in cases {
        var thrown = ""
        do { _ = try parse(text) } catch { thrown = "\(error)" }
        #expect(thrown.contains(message), "expected \"\(message)\" for \(text.prefix(40)), got \"\(thrown)\"")
    }
}

@Test func lensDistortionDecodesWithoutK3() throws {
    let d = try JSONDecoder().decode(LensDistortion.self, from: Data(#"{"k1": -0.1, "k2": 0.02, "p1": 0, "p2": 0}"#.utf8))
    #expect(d == LensDistortion(k1: -0.1, k2: 0.02))
}
