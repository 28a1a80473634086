import Imaging
import Testing

@Suite struct NetPBMTests {
    @Test func binaryRoundTrip() throws {
        var rng = TestRandom(seed: 7)
        let gray = GrayImage(width: 13, height: 5, pixels: rng.bytes(65))
        let rgb = RGBImage(width: 4, height: 9, pixels: rng.bytes(108))
        #expect(try NetPBM.decode(NetPBM.encode(gray)) == .gray(gray))
        #expect(try NetPBM.decode(NetPBM.encode(rgb)) == .rgb(rgb))
    }

    @Test func asciiCommentsAndMaxval() throws {
        let text = "P2\n# a comment\n3 2 # trailing\n15\n0 15 7\n1 2 3\n"
        #expect(try NetPBM.decode(Array(text.utf8)) == .gray(GrayImage(width: 3, height: 2, pixels: [0, 255, 119, 17, 34, 51])))
        let p3 = "P3 1 1 255 10 20 30"
        #expect(try NetPBM.decode(Array(p3.utf8)) == .rgb(RGBImage(width: 1, height: 1, pixels: [10, 20, 30])))
        // 16-bit big-endian binary.
        let p5 = Array("P5 2 1 65535\n".utf8) + [0xFF, 0xFF, 0x80, 0x00]
        #expect(try NetPBM.decode(p5) == .gray(GrayImage(width: 2, height: 1, pixels: [255, 128])))
    }

    @Test func malformedInputThrows() {
        let bad: [String] = ["", "P7 1 1 255 ", "P5 0 3 255\n", "P5 2 2 255\n\u{1}", "P2 2 1 10 3 11", "P5 2 2", "hello"]
        for b in bad {
            #expect(throws: NetPBMError.self, "\(b.debugDescription)") { try NetPBM.decode(Array(b.utf8)) }
        }
    }
}
