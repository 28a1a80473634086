import Media
import Testing

@Suite("Frame rates as exact fractions")
struct FrameRateTests {
    @Test("common and odd rates become the expected AVI fractions",
          arguments: [(30.0, 30, 1), (25.0, 25, 1), (29.97, 2997, 100), (30000.0 / 1001, 30000, 1001),
                      (22.13, 2213, 100), (22.131, 22131, 1000), (0.5, 1, 2), (59.94, 2997, 50)])
    func fractions(fps: Double, rate: UInt32, scale: UInt32) throws {
        let r = try #require(FrameRate(framesPerSecond: fps))
        #expect(r.rate == rate && r.scale == scale)
        #expect(abs(r.framesPerSecond - fps) < 1e-9 * fps)
    }

    @Test("invalid rates are refused", arguments: [0.0, -5.0, Double.nan, Double.infinity, 1e7])
    func invalid(fps: Double) {
        #expect(FrameRate(framesPerSecond: fps) == nil)
    }

    @Test("frame duration in microseconds")
    func microseconds() {
        #expect(FrameRate(rate: 30000, scale: 1001).microsecondsPerFrame == 33367)
        #expect(FrameRate(rate: 25, scale: 1).microsecondsPerFrame == 40000)
    }
}
