import Imaging
import Testing

/// `setLuma(of:inside:)` converts exactly the requested pixels, as `init(luma:)` would.
@Test(arguments: [(0 ..< 13, 0 ..< 9), (3 ..< 10, 2 ..< 7), (5 ..< 6, 4 ..< 5), (-4 ..< 40, 7 ..< 30), (0 ..< 13, 3 ..< 4)])
func lumaRegionConvertsOnlyTheRegion(columns: Range<Int>, rows: Range<Int>) {
    var rgb = RGBImage(width: 13, height: 9)
    var state: UInt32 = 12345
    for i in rgb.pixels.indices {
        state = state &* 1664525 &+ 1013904223
        rgb.pixels[i] = UInt8(truncatingIfNeeded: state >> 24)
    }
    let reference = GrayImage(luma: rgb)
    var gray = GrayImage(width: 13, height: 9)
    for i in gray.pixels.indices { gray.pixels[i] = 7 }
    gray.setLuma(of: rgb, inside: PixelRect(x0: columns.lowerBound, y0: rows.lowerBound, x1: columns.upperBound, y1: rows.upperBound))
    let inside = { (x: Int, y: Int) in columns.contains(x) && rows.contains(y) }
    var wrong = 0
    for y in 0 ..< 9 {
        for x in 0 ..< 13 {
            let expected = inside(x, y) ? reference.pixels[y * 13 + x] : 7
            if gray.pixels[y * 13 + x] != expected { wrong += 1 }
        }
    }
    #expect(wrong == 0)
}

/// A size change reallocates, so the whole image is converted whatever the region.
@Test func lumaRegionOnANewSizeConvertsEverything() {
    let rgb = RGBImage(width: 6, height: 4, fill: (10, 200, 30))
    var gray = GrayImage(width: 1, height: 1)
    gray.setLuma(of: rgb, inside: PixelRect(x: 2, y: 1, width: 1, height: 1))
    #expect(gray.pixels == GrayImage(luma: rgb).pixels)
}
