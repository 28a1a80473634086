import Foundation
import Inputs
import Imaging
import JPEGCodec
import Media
import Pipeline

/// The frames one bench run feeds the pipeline: an input brought to the bench size and encoded as a
/// webcam sends MJPEG (baseline JPEG, quality 85, 4:2:0), held in memory so that reading files and
/// synthesising demo frames are never timed.
///
/// Sizing: a frame of another size is scaled to cover the bench size and centre-cropped (no
/// letterbox bars, which would make the codec's job artificially easy). The stream plays the
/// distinct frames forwards then backwards (ping-pong), so a run longer than the clip has no jump
/// for the tracker at the wrap.
struct BenchWorkload {
    /// "demo" or the input's file name.
    let name: String
    let width: Int
    let height: Int
    let framesPerSecond: Double
    /// The distinct frames, in input order.
    let jpegs: [[UInt8]]

    /// Bytes of frame `index` of the (ping-pong) stream.
    func jpeg(_ index: Int) -> [UInt8] {
        guard jpegs.count > 1 else { return jpegs[0] }
        let period = 2 * (jpegs.count - 1)
        let k = index % period
        return jpegs[k < jpegs.count ? k : period - k]
    }

    /// Frame `index` of the stream with its timestamp at the input's rate.
    func frame(_ index: Int) -> Frame {
        Frame(payload: .jpeg(jpeg(index)), timestampSeconds: Double(index) / framesPerSecond, sequence: index)
    }

    static let quality = 85

    /// Reads up to `count` frames of `spec` (`demo`, or a file `MediaFactory` opens) at `width x height`.
    static func load(spec: String, width: Int, height: Int, count: Int) throws -> BenchWorkload {
        let isDemo = InputOpener.kind(of: spec) == .demo
        let (source, _) = try MediaFactory.openSource(isDemo ? "demo:\(width)x\(height)" : spec)
        defer { source.close() }
        let decoder = TurboJPEGDecoder(), encoder = TurboJPEGEncoder()
        var jpegs: [[UInt8]] = []
        while jpegs.count < count, let frame = try source.nextFrame() {
            // A damaged frame is not a workload.
            guard let rgb = try? PayloadDecoding.colour(of: frame.payload, decoder: decoder) else { continue }
            jpegs.append(try encoder.encode(cover(rgb, width: width, height: height), quality: quality))
        }
        guard !jpegs.isEmpty else { throw CLIError("\(spec): no decodable frame to benchmark") }
        let name = isDemo ? "demo" : (spec as NSString).lastPathComponent
        return BenchWorkload(name: name, width: width, height: height,
                             framesPerSecond: source.info.framesPerSecond ?? 30, jpegs: jpegs)
    }

    /// `image` scaled (bilinear) to cover `width x height` and centre-cropped; unchanged when it fits.
    static func cover(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        if image.width == width && image.height == height { return image }
        let scale = min(Float(image.width) / Float(width), Float(image.height) / Float(height))
        // Pixel centres: the centre of the top-left pixel is (0,0), so an image's centre is (w-1)/2.
        let sourceCentre = SIMD2<Float>(Float(image.width - 1) / 2, Float(image.height - 1) / 2)
        let targetCentre = SIMD2<Float>(Float(width - 1) / 2, Float(height - 1) / 2)
        let m = Affine2D(a: scale, b: 0, tx: sourceCentre.x - scale * targetCentre.x,
                         c: 0, d: scale, ty: sourceCentre.y - scale * targetCentre.y)
        return image.warped(width: width, height: height, sourceFromTarget: m)
    }
}
