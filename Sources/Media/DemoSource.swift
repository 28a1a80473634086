import Foundation
import Imaging

/// The embedded default source: a portrait photo seen by a slowly drifting handheld camera
/// (zoom, pan and roll), so `lorgnette` shows a real face on machines without a camera.
///
/// Frames are `.rgb`, `width x height`, at `framesPerSecond`, timestamps `index / fps`. The motion
/// is a smooth periodic similarity warp of the photo about `focus` (photo pixels), slow enough for
/// a tracker and large enough to show that the glasses follow the face.
public final class DemoSource: FrameSource {
    public let info: SourceInfo
    private let photo: RGBImage
    private let focus: SIMD2<Float>
    /// Photo pixels covered by the output width at rest.
    private let span: Float
    private var index = 0

    /// - Parameters:
    ///   - photo: the portrait.
    ///   - focus: the point of the photo the camera looks at (between the eyes works well).
    ///   - span: how many photo pixels the output width covers at rest.
    ///   - frameCount: nil for an endless stream.
    public init(photo: RGBImage, focus: SIMD2<Float>, span: Float, width: Int = 640, height: Int = 480,
                framesPerSecond: Double = 30, frameCount: Int? = nil) {
        precondition(width > 0 && height > 0 && framesPerSecond > 0 && span > 0)
        self.photo = photo
        self.focus = focus
        self.span = span
        self.info = SourceInfo(width: width, height: height, framesPerSecond: framesPerSecond,
                               frameCount: frameCount, codec: "demo")
    }

    public func nextFrame() throws -> Frame? {
        if let n = info.frameCount, index >= n { return nil }
        let t = Double(index) / (info.framesPerSecond ?? 30)
        let frame = photo.warped(width: info.width!, height: info.height!, sourceFromTarget: camera(at: t))
        defer { index += 1 }
        return Frame(payload: .rgb(frame), timestampSeconds: t, sequence: index)
    }

    /// Camera pose at time t as the map from output to photo pixels: incommensurate periods so the
    /// motion does not visibly repeat.
    private func camera(at t: Double) -> Affine2D {
        let w = Float(info.width!), h = Float(info.height!)
        let twoPi = 2 * Double.pi
        let zoom = Float(1 + 0.10 * sin(twoPi * t / 7.0))
        let roll = Float(4.0 * Double.pi / 180 * sin(twoPi * t / 5.3))
        let pan = SIMD2<Float>(Float(14 * sin(twoPi * t / 9.1)), Float(7 * sin(twoPi * t / 6.4)))
        // p = focus + pan + R(roll) * (q - centre) * (span / w) / zoom.
        let k = span / w / zoom
        let c = cos(roll) * k, s = sin(roll) * k
        let centre = SIMD2<Float>((w - 1) / 2, (h - 1) / 2)
        let origin = focus + pan
        return Affine2D(a: c, b: -s, tx: origin.x - c * centre.x + s * centre.y,
                        c: s, d: c, ty: origin.y - s * centre.x - c * centre.y)
    }
}

extension DemoSource {
    /// The bundled portrait (`Models/demo/astronaut.jpg`, NASA, public domain): where its face is.
    public static let astronautFocus = SIMD2<Float>(224, 132)
    public static let astronautSpan: Float = 300
}
