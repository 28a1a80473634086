import Imaging
import JPEGCodec
import Media
import PNGCodec

/// Every photograph format the engine reads, chosen by content (`StillImageFormat`):
/// - JPEG: baseline and progressive, grey, YCbCr at any chroma subsampling, CMYK and YCCK (libjpeg-turbo),
///   turned upright by its EXIF orientation;
/// - PNG: 1-16 bit grey, grey+alpha, palette, RGB, RGBA, interlaced (libpng); transparency is
///   flattened over white, as a photo viewer on a white page shows it;
/// - PGM/PPM (P2, P3, P5, P6, any maxval).
/// Images over `maximumPixels` are refused from their header, before any pixel is allocated.
public final class PhotoDecoder: StillImageDecoding {
    /// The engine-wide cap (`ImageSizeLimit`): a forged header cannot make the engine allocate gigabytes.
    public static let maximumPixels = ImageSizeLimit.maximumPixels

    private let jpeg = TurboJPEGDecoder()
    private let png: LibPNGDecoder

    public init() {
        png = LibPNGDecoder()
        png.maximumPixels = Self.maximumPixels
    }

    public func payload(of bytes: [UInt8]) throws -> Frame.Payload {
        switch try format(of: bytes) {
        case .jpeg:
            let size = try jpeg.readSize(bytes)
            try Self.checkLimit(size.width, size.height)
            let orientation = EXIFOrientation.read(jpeg: bytes)
            if orientation == .upright { return .jpeg(bytes) }
            return .rgb(try jpeg.decodeRGB(bytes).upright(orientation))
        case .png:
            return .rgb(RGBImage(flatteningOverWhite: try png.decodePNG(bytes)))
        case .netpbm:
            switch try NetPBM.decode(bytes) {
            case .gray(let image): return .gray(image)
            case .rgb(let image): return .rgb(image)
            }
        }
    }

    public func uprightSize(of bytes: [UInt8]) throws -> (width: Int, height: Int) {
        switch try format(of: bytes) {
        case .jpeg:
            let size = try jpeg.readSize(bytes)
            return EXIFOrientation.read(jpeg: bytes).swapsAxes ? (size.height, size.width) : size
        case .png: return try png.size(of: bytes)
        case .netpbm:
            switch try NetPBM.decode(bytes) {
            case .gray(let image): return (image.width, image.height)
            case .rgb(let image): return (image.width, image.height)
            }
        }
    }

    /// The picture as RGB, upright.
    public func decodeRGB(_ bytes: [UInt8]) throws -> RGBImage {
        switch try payload(of: bytes) {
        case .jpeg(let compressed): return try jpeg.decodeRGB(compressed)
        case .rgb(let image): return image
        case .gray(let image): return RGBImage(gray: image)
        }
    }

    /// The picture's luma, upright.
    public func decodeGray(_ bytes: [UInt8]) throws -> GrayImage { try gray(payload(of: bytes)) }

    /// A frame payload's luma (a compressed JPEG decoded to grey at full size).
    public func gray(_ payload: Frame.Payload) throws -> GrayImage {
        switch payload {
        case .jpeg(let compressed): return try jpeg.decodeGray(compressed)
        case .rgb(let image): return GrayImage(luma: image)
        case .gray(let image): return image
        }
    }

    private func format(of bytes: [UInt8]) throws -> StillImageFormat {
        guard let format = StillImageFormat(magic: bytes) else {
            throw PhotoError(bytes.isEmpty ? "empty file" : "not an image this engine reads (accepted: \(StillImageFormat.accepted))")
        }
        return format
    }

    static func checkLimit(_ width: Int, _ height: Int) throws {
        if let reason = ImageSizeLimit.violation(width: width, height: height) { throw PhotoError(reason) }
    }
}

/// Why a photograph could not be read: one line.
public struct PhotoError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension RGBImage {
    /// RGBA with straight alpha, composited over white.
    public init(flatteningOverWhite rgba: RGBAImage) {
        var out = [UInt8](repeating: 0, count: 3 * rgba.width * rgba.height)
        rgba.pixels.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { d in
                for i in 0 ..< rgba.width * rgba.height {
                    let a = UInt32(s[4 * i + 3]), inverse = 255 - a
                    for c in 0 ..< 3 { d[3 * i + c] = UInt8((UInt32(s[4 * i + c]) * a + 255 * inverse + 127) / 255) }
                }
            }
        }
        self.init(width: rgba.width, height: rgba.height, pixels: out)
    }
}
