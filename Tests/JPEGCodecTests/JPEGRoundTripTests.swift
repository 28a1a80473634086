import Imaging
import JPEGCodec
import Media
import Testing

@Suite struct JPEGRoundTripTests {
    let decoder = TurboJPEGDecoder()
    let encoder = TurboJPEGEncoder()

    @Test(arguments: [(640, 480), (1280, 720), (33, 17)])
    func rgbRoundTripPSNR(size: (Int, Int)) throws {
        let image = TestImages.scene(width: size.0, height: size.1)
        let jpeg = try encoder.encode(image, quality: 90)
        let back = try decoder.decodeRGB(jpeg)
        #expect(back.width == size.0 && back.height == size.1)
        let psnr = TestImages.psnr(image.pixels, back.pixels)
        // 4:2:0 chroma subsampling across the test image's hard colour edges bounds RGB PSNR near 30 dB.
        #expect(psnr > 28, "PSNR \(psnr) dB at quality 90")
    }

    @Test func qualityOrdersSizeAndPSNR() throws {
        // Gray, so chroma subsampling does not cap the PSNR and quality alone decides it.
        var image = GrayImage(width: 320, height: 240)
        let rgb = TestImages.scene(width: 320, height: 240)
        for i in 0..<(320 * 240) { image.pixels[i] = rgb.pixels[3 * i + 1] }
        let low = try encoder.encode(image, quality: 30), high = try encoder.encode(image, quality: 95)
        #expect(low.count < high.count)
        let pLow = TestImages.psnr(image.pixels, try decoder.decodeGray(low).pixels)
        let pHigh = TestImages.psnr(image.pixels, try decoder.decodeGray(high).pixels)
        #expect(pHigh > pLow + 6, "q30 \(pLow) dB, q95 \(pHigh) dB")
    }

    @Test func grayDecodeIsTheLumaOfTheRGBDecode() throws {
        let jpeg = try encoder.encode(TestImages.scene(width: 160, height: 120), quality: 92)
        let gray = try decoder.decodeGray(jpeg)
        let rgb = try decoder.decodeRGB(jpeg)
        var total = 0
        for i in 0..<(gray.width * gray.height) {
            let r = Int(rgb.pixels[3 * i]), g = Int(rgb.pixels[3 * i + 1]), b = Int(rgb.pixels[3 * i + 2])
            let y = (299 * r + 587 * g + 114 * b + 500) / 1000
            total += abs(y - Int(gray.pixels[i]))
        }
        // The RGB path re-mixes upsampled chroma, which differs from pure luma only at colour edges.
        let mean = Double(total) / Double(gray.width * gray.height)
        #expect(mean < 1.5, "mean |Y(rgb) - gray| = \(mean)")
    }

    @Test(arguments: DCTScale.allCases)
    func dctScaledDecodeMatchesAnAreaDownscale(scale: DCTScale) throws {
        let image = TestImages.scene(width: 640, height: 480)
        let jpeg = try encoder.encode(image, quality: 95)
        let full = try decoder.decodeGray(jpeg, scale: .full)
        let small = try decoder.decodeGray(jpeg, scale: scale)
        let s = scale.rawValue
        #expect(small.width == scale.scaled(640) && small.height == scale.scaled(480))
        // Compare with a box average of the full decode: DCT scaling is a low-pass too.
        var boxed = [UInt8](repeating: 0, count: small.width * small.height)
        for y in 0..<small.height {
            for x in 0..<small.width {
                var sum = 0
                for v in 0..<s { for u in 0..<s { sum += Int(full[x * s + u, y * s + v]) } }
                boxed[y * small.width + x] = UInt8(sum / (s * s))
            }
        }
        let psnr = TestImages.psnr(boxed, small.pixels)
        #expect(psnr > 25, "1/\(s): PSNR \(psnr) dB against a box downscale")
    }

    @Test func decodingIntoAReusedImageKeepsItsStorage() throws {
        let a = try encoder.encode(TestImages.scene(width: 320, height: 240), quality: 80)
        let b = try encoder.encode(TestImages.scene(width: 320, height: 240, phase: 9), quality: 80)
        var image = GrayImage(width: 0, height: 0)
        try decoder.decodeGray(a, scale: .half, into: &image)
        let first = image.pixels.withUnsafeBufferPointer { $0.baseAddress }
        try decoder.decodeGray(b, scale: .half, into: &image)
        #expect(image.pixels.withUnsafeBufferPointer { $0.baseAddress } == first)
        #expect(image.pixels == (try decoder.decodeGray(b, scale: .half)).pixels)
    }

    /// libjpeg-turbo writes 32-byte-aligned RGB rows with non-temporal (cache-bypassing) stores, so
    /// the decoder keeps a canvas whose rows are all aligned (RGB rows a multiple of 32 bytes) 16 bytes
    /// off; the image is the same, and a reused canvas keeps its storage.
    @Test func rgbRowsAreNeverAllThirtyTwoByteAligned() throws {
        let jpeg = try encoder.encode(TestImages.scene(width: 640, height: 48), quality: 80)
        let expected = try decoder.decodeRGB(jpeg)
        @inline(__always) func address(_ image: RGBImage) -> UInt { image.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        // Canvases of varied capacity (held, so each is new) until one starts on a 32-byte boundary.
        var held: [RGBImage] = []
        for k in 0..<64 where !held.contains(where: { address($0) % 32 == 0 }) {
            let pixels = [UInt8](unsafeUninitializedCapacity: 3 * 640 * 48 + 16 * k) { b, c in
                b.baseAddress!.initialize(repeating: 0, count: 3 * 640 * 48); c = 3 * 640 * 48
            }
            held.append(RGBImage(width: 640, height: 48, pixels: pixels))
        }
        var canvas = try #require(held.first { address($0) % 32 == 0 })
        held.removeAll()
        try decoder.decodeRGB(jpeg, scale: .full, into: &canvas)
        #expect(address(canvas) % 32 == 16)
        #expect(canvas == expected)
        let kept = address(canvas)
        try decoder.decodeRGB(jpeg, scale: .full, into: &canvas)
        #expect(address(canvas) == kept, "a canvas already off the boundary keeps its storage")
    }

    @Test func readSizeNeedsOnlyTheHeader() throws {
        let jpeg = try encoder.encode(TestImages.scene(width: 123, height: 45), quality: 75)
        let size = try decoder.readSize(jpeg)
        #expect(size.width == 123 && size.height == 45)
    }

    @Test func grayImagesEncodeToo() throws {
        var gray = GrayImage(width: 64, height: 48)
        for y in 0..<48 { for x in 0..<64 { gray[x, y] = UInt8((x * 4 + y) & 255) } }
        let back = try decoder.decodeGray(try encoder.encode(gray, quality: 95))
        #expect(TestImages.psnr(gray.pixels, back.pixels) > 35)
    }
}
