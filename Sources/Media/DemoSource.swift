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
    private var frame: RGBImage

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
        self.frame = RGBImage(width: width, height: height)
        self.info = SourceInfo(width: width, height: height, framesPerSecond: framesPerSecond,
                               frameCount: frameCount, codec: "demo")
    }

    public func nextFrame() throws -> Frame? {
        if let n = info.frameCount, index >= n { return nil }
        let t = Double(index) / (info.framesPerSecond ?? 30)
        render(at: t)
        defer { index += 1 }
        return Frame(payload: .rgb(frame), timestampSeconds: t, sequence: index)
    }

    /// Camera pose at time t: incommensurate periods so the motion does not visibly repeat.
    private func render(at t: Double) {
        let w = frame.width, h = frame.height
        let twoPi = 2 * Double.pi
        let zoom = Float(1 + 0.10 * sin(twoPi * t / 7.0))
        let roll = Float(4.0 * Double.pi / 180 * sin(twoPi * t / 5.3))
        let pan = SIMD2<Float>(Float(14 * sin(twoPi * t / 9.1)), Float(7 * sin(twoPi * t / 6.4)))
        // Output pixel -> photo pixel: p = focus + pan + R(roll) * (q - centre) * (span / w) / zoom.
        let k = span / Float(w) / zoom
        let c = cos(roll) * k, s = sin(roll) * k
        let centre = SIMD2<Float>(Float(w - 1) / 2, Float(h - 1) / 2)
        let origin = focus + pan
        let pw = photo.width, ph = photo.height
        photo.pixels.withUnsafeBufferPointer { src in
            frame.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let dy = Float(y) - centre.y
                    var px = origin.x - centre.x * c - dy * s
                    var py = origin.y - centre.x * s + dy * c
                    var o = 3 * y * w
                    for _ in 0..<w {
                        // Bilinear, edge-clamped: the camera never shows outside the photo in practice.
                        let fx = min(max(px, 0), Float(pw - 1)), fy = min(max(py, 0), Float(ph - 1))
                        let x0 = Int(fx), y0 = Int(fy)
                        let x1 = min(x0 + 1, pw - 1), y1 = min(y0 + 1, ph - 1)
                        let ax = fx - Float(x0), ay = fy - Float(y0)
                        let i00 = 3 * (y0 * pw + x0), i10 = 3 * (y0 * pw + x1)
                        let i01 = 3 * (y1 * pw + x0), i11 = 3 * (y1 * pw + x1)
                        for ch in 0..<3 {
                            let top = Float(src[i00 + ch]) + ax * (Float(src[i10 + ch]) - Float(src[i00 + ch]))
                            let bottom = Float(src[i01 + ch]) + ax * (Float(src[i11 + ch]) - Float(src[i01 + ch]))
                            dst[o + ch] = UInt8(top + ay * (bottom - top) + 0.5)
                        }
                        o += 3
                        px += c
                        py += s
                    }
                }
            }
        }
    }
}

extension DemoSource {
    /// The bundled portrait (`Models/demo/astronaut.jpg`, NASA, public domain): where its face is.
    public static let astronautFocus = SIMD2<Float>(224, 132)
    public static let astronautSpan: Float = 300
}
