import Foundation
import Inputs
import Media
import Testing

@Suite("Image folders, single images and raw MJPEG files as sinks and sources")
struct ImageFolderTests {
    @Test("folder sink writes frame_000000.jpg ...; folder source reads them back in order")
    func folderRoundTrip() throws {
        let dir = try TestMedia.temporaryDirectory() + "/frames"
        let frames = try TestMedia.frames(12)
        let sink = try ImageFolderSink(directory: dir)
        for (i, f) in frames.enumerated() { try sink.write(jpeg: f, timestampSeconds: Double(i)) }
        try sink.finish()
        #expect(sink.framesWritten == 12)
        #expect(FileManager.default.fileExists(atPath: dir + "/frame_000011.jpg"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: dir + "/README.txt"))
        let source = try ImageFolderSource(path: dir, decoder: PhotoDecoder(), framesPerSecond: 10)
        #expect(source.info.frameCount == 12)
        #expect(source.info.width == 64 && source.info.height == 48)
        var got: [Frame] = []
        while let f = try source.nextFrame() { got.append(f) }
        #expect(got.map { if case .jpeg(let b) = $0.payload { b } else { [] } } == frames)
        #expect(got.last?.timestampSeconds == 1.1)
        #expect(source.issues.isEmpty)
    }

    @Test("a .jpg that is not a JPEG is skipped and reported")
    func badFileInFolder() throws {
        let dir = try TestMedia.temporaryDirectory()
        try TestMedia.write(try TestMedia.frame(0), to: dir + "/a.jpg")
        try TestMedia.write(Array("nope".utf8), to: dir + "/b.JPG")
        try TestMedia.write(try TestMedia.frame(1), to: dir + "/c.jpeg")
        let source = try ImageFolderSource(path: dir, decoder: PhotoDecoder())
        #expect(try TestMedia.drain(source).count == 2)
        #expect(source.issues.count == 1 && source.issues[0].contains("b.JPG"))
    }

    @Test("a single image is a one-frame source")
    func singleImage() throws {
        let path = try TestMedia.temporaryDirectory() + "/one.jpeg"
        let frame = try TestMedia.frame(3)
        try TestMedia.write(frame, to: path)
        let source = try ImageFolderSource(path: path, decoder: PhotoDecoder())
        #expect(source.info.frameCount == 1)
        #expect(try TestMedia.drain(source) == [frame])
    }

    @Test("raw MJPEG sink output splits back into the same frames")
    func mjpegSinkRoundTrip() throws {
        let path = try TestMedia.temporaryDirectory() + "/out.mjpeg"
        let frames = try TestMedia.frames(7)
        let sink = try MJPEGFileSink(path: path)
        for f in frames { try sink.write(jpeg: f, timestampSeconds: 0) }
        try sink.finish()
        #expect(try TestMedia.read(path) == frames.flatMap { $0 })
        #expect(try TestMedia.drain(try MJPEGStreamSource(path: path)) == frames)
    }

    @Test("sinks add the standard Huffman tables to frames that lack them (webcam MJPEG)")
    func insertsHuffmanTables() throws {
        let path = try TestMedia.temporaryDirectory() + "/dhtless.mjpeg"
        let stripped = JPEGHuffmanTables.strippingHuffmanTables(try TestMedia.frame(0))
        #expect(!JPEGHuffmanTables.hasHuffmanTables(stripped))
        let sink = try MJPEGFileSink(path: path)
        try sink.write(jpeg: stripped, timestampSeconds: 0)
        try sink.finish()
        let got = try TestMedia.drain(try MJPEGStreamSource(path: path))
        #expect(got.count == 1 && JPEGHuffmanTables.hasHuffmanTables(got[0]))
    }

    @Test("JPEG frame header gives the size without decoding")
    func frameHeader() throws {
        let header = try #require(JPEGFrameHeader(try TestMedia.frame(0, width: 33, height: 17)))
        #expect(header.width == 33 && header.height == 17 && header.components == 3)
        #expect(JPEGFrameHeader([0xFF, 0xD8, 0x00]) == nil)
        #expect(JPEGFrameHeader([]) == nil)
    }
}
