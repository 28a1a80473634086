import Foundation
import Imaging
import Inputs
import JPEGCodec
import Media
import Meshes
import PNGCodec
import Testing

/// Issue 25's forged images: one cap (`ImageSizeLimit`) refused from the header, before any pixel
/// is allocated, whichever way the image arrives (photo, video frame, texture).
struct HostileImageTests {
    /// A valid 32x24 JPEG whose SOF declares `width` x `height`, padded to 16 KB as in the issue.
    static func forgedJPEG(width: Int, height: Int) -> [UInt8] {
        var b = FuzzSeeds.jpegs[0]
        let sof = (2..<b.count - 1).first { b[$0] == 0xFF && b[$0 + 1] == 0xC0 }!  // baseline SOF: length, precision, height, width
        let (h, w) = (sof + 5, sof + 7)
        b[h] = UInt8(height >> 8); b[h + 1] = UInt8(height & 0xFF)
        b[w] = UInt8(width >> 8); b[w + 1] = UInt8(width & 0xFF)
        let comment = 16_384 - b.count - 4  // a comment brings the file to 16 KB
        b.insert(contentsOf: [0xFF, 0xFE, UInt8((comment + 2) >> 8), UInt8((comment + 2) & 0xFF)] + [UInt8](repeating: 0x20, count: comment), at: 2)
        return b
    }

    static func message(_ body: () throws -> Void) -> String {
        do { try body(); return "accepted" } catch { return "\(error)" }
    }

    @Test("a 16 KB JPEG declaring 30000x30000 (or 65500x65500) is refused from its header at every scale")
    func forgedJPEGSize() throws {
        let decoder = TurboJPEGDecoder()
        for side in [30000, 65500, 20000] {
            let jpeg = Self.forgedJPEG(width: side, height: side)
            #expect(jpeg.count == 16_384)
            #expect(try decoder.readSize(jpeg) == (side, side))
            for scale in DCTScale.allCases {
                #expect(Self.message { _ = try decoder.decodeRGB(jpeg, scale: scale) } == "unsupported JPEG: image \(side)x\(side) is larger than the 100 Mpixel limit")
                #expect(Self.message { _ = try decoder.decodeGray(jpeg, scale: scale) }.contains("100 Mpixel limit"))
            }
            #expect(Self.message { _ = try PhotoDecoder().decodeRGB(jpeg) }.contains("100 Mpixel limit"))
            let texture = TextureDecoders(jpeg: decoder, png: LibPNGDecoder())
            #expect(Self.message { _ = try texture.decode(jpeg) }.contains("100 Mpixel limit"))
        }
        // 10000x10000 is exactly at the cap: it passes the size check and fails on the missing data.
        #expect(!Self.message { _ = try decoder.decodeGray(Self.forgedJPEG(width: 10000, height: 10000), scale: .eighth) }.contains("Mpixel"))
    }

    @Test("the forged JPEG as a frame of an MJPEG stream and of an AVI is refused when decoded")
    func forgedJPEGFrames() throws {
        let dir = try makeFuzzScratch("forged-frames")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let forged = Self.forgedJPEG(width: 30000, height: 30000)
        FileManager.default.createFile(atPath: dir + "/clip.mjpeg", contents: Data(FuzzSeeds.jpegs[0] + forged))
        let decoder = TurboJPEGDecoder()
        var messages: [String] = []
        let stream = try MJPEGStreamSource(path: dir + "/clip.mjpeg", useSidecar: false)
        while let frame = try stream.nextFrame() {
            if case .jpeg(let bytes) = frame.payload { messages.append(Self.message { _ = try decoder.decodeRGB(bytes) }) }
        }
        #expect(messages == ["accepted", "unsupported JPEG: image 30000x30000 is larger than the 100 Mpixel limit"])

        let sink = try AVIFileSink(path: dir + "/clip.avi", framesPerSecond: 25)
        try sink.write(jpeg: forged, timestampSeconds: 0)
        try sink.finish()
        let avi = try AVIFileSource(path: dir + "/clip.avi")
        let frame = try #require(try avi.nextFrame())
        guard case .jpeg(let bytes) = frame.payload else { Issue.record("not a JPEG frame"); return }
        #expect(Self.message { _ = try decoder.decodeGray(bytes, scale: .half) }.contains("100 Mpixel limit"))
    }

    @Test("PNG and JPEG textures, photos and Netpbm share one cap")
    func oneCap() {
        #expect(LibPNGDecoder().maximumPixels == ImageSizeLimit.maximumPixels)
        #expect(PhotoDecoder.maximumPixels == ImageSizeLimit.maximumPixels)
        #expect(ImageSizeLimit.violation(width: 10_000, height: 10_000) == nil)
        #expect(ImageSizeLimit.violation(width: 10_001, height: 10_000) != nil)
        #expect(ImageSizeLimit.violation(width: Int.max, height: Int.max) != nil)  // no overflow trap
        #expect(ImageSizeLimit.violation(width: -1, height: 5) != nil)
    }

    @Test("a 20-byte Netpbm header declaring 65536x65536 is refused before its samples are allocated")
    func forgedNetpbm() {
        let message = Self.message { _ = try NetPBM.decode(Array("P5\n65536 65536\n255\n".utf8)) }
        #expect(message.contains("100 Mpixel limit"))
        #expect(Self.message { _ = try NetPBM.decode(Array("P2\n9000 9000\n255\n1 2 3".utf8)) }.contains("truncated data"))
    }
}
