import Imaging
import JPEGCodec
import Media
import Testing

/// Webcams send MJPEG without DHT; our insertion must reproduce exactly the Annex K tables.
@Suite struct HuffmanTableTests {
    let jpeg: [UInt8]
    init() throws { jpeg = try TurboJPEGEncoder().encode(TestImages.scene(width: 200, height: 150), quality: 80) }

    @Test func encoderUsesStandardTablesAndInsertionRestoresThemByteForByte() {
        #expect(JPEGHuffmanTables.hasHuffmanTables(jpeg))
        let stripped = JPEGHuffmanTables.strippingHuffmanTables(jpeg)
        #expect(!JPEGHuffmanTables.hasHuffmanTables(stripped))
        #expect(stripped.count == jpeg.count - JPEGHuffmanTables.segments.count)
        // libjpeg writes the Annex K tables (optimize_coding off) right before SOS, as we do.
        #expect(JPEGHuffmanTables.insertingStandardTablesIfMissing(stripped) == jpeg)
    }

    @Test func framesWithoutTablesDecodeIdenticallyAfterInsertion() throws {
        let decoder = TurboJPEGDecoder()
        let stripped = JPEGHuffmanTables.strippingHuffmanTables(jpeg)
        let reference = try decoder.decodeRGB(jpeg)
        #expect(try decoder.decodeRGB(stripped).pixels == reference.pixels)
        #expect(try decoder.decodeRGB(JPEGHuffmanTables.insertingStandardTablesIfMissing(stripped)).pixels == reference.pixels)
    }

    @Test func framesWithTablesAndMalformedFramesAreLeftAlone() {
        #expect(JPEGHuffmanTables.insertingStandardTablesIfMissing(jpeg) == jpeg)
        let junk: [UInt8] = [1, 2, 3, 4, 5]
        #expect(JPEGHuffmanTables.insertingStandardTablesIfMissing(junk) == junk)
    }
}
