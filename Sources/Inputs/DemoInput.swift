import Foundation
import JPEGCodec
import Media

/// The `demo` input: the bundled portrait seen by a gently moving camera (`Media.DemoSource`),
/// so every command that takes an input works on a machine with no camera and no video.
///
/// Spec: `demo` (640x480, 10 s at 30 fps) or `demo:WxH` (same length, another size).
enum DemoInput {
    static let seconds = 10.0

    static func matches(_ spec: String) -> Bool { spec == "demo" || spec.hasPrefix("demo:") }

    static func open(_ spec: String, photoPath: String, framesPerSecond: Double?) throws -> FrameSource {
        var width = 640, height = 480
        if spec.hasPrefix("demo:") {
            let size = spec.dropFirst(5).split(separator: "x").compactMap { Int($0) }
            guard size.count == 2, size[0] >= 16, size[1] >= 16, size[0] <= 7680, size[1] <= 4320 else {
                throw InputError("\(spec): expected demo or demo:WxH, e.g. demo:1280x720")
            }
            width = size[0]; height = size[1]
        }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photoPath)))
        let portrait = try TurboJPEGDecoder().decodeRGB(bytes)
        let fps = framesPerSecond ?? 30
        return DemoSource(photo: portrait, focus: DemoSource.astronautFocus, span: DemoSource.astronautSpan,
                          width: width, height: height, framesPerSecond: fps,
                          frameCount: Int((seconds * fps).rounded()))
    }
}
