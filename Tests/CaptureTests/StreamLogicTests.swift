import Capture
import Imaging
import Testing

@Suite struct StreamLogicTests {
    // MARK: JPEG framing

    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x11, 0x22, 0xFF, 0x00, 0x33, 0xFF, 0xD9]

    @Test func exactJPEGIsTakenWhole() {
        #expect(JPEGFrameBounds.length(in: Self.jpeg) == Self.jpeg.count)
    }

    @Test func zeroPaddingAfterEOIIsCut() {
        // v4l2loopback's first buffer: bytesused == sizeimage, zero padded.
        #expect(JPEGFrameBounds.length(in: Self.jpeg + [UInt8](repeating: 0, count: 5000)) == Self.jpeg.count)
        // Some UVC cameras pad with a few junk bytes.
        #expect(JPEGFrameBounds.length(in: Self.jpeg + [0x12, 0xFF, 0x00]) == Self.jpeg.count)
    }

    @Test func theLastEOIEndsTheImage() {
        // An EXIF thumbnail carries its own SOI ... EOI before the main image's.
        let withThumbnail: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xD8, 0xFF, 0xD9, 0x44, 0x55, 0xFF, 0xD9, 0, 0]
        #expect(JPEGFrameBounds.length(in: withThumbnail) == 12)
    }

    @Test func brokenFramingIsRejected() {
        #expect(JPEGFrameBounds.length(in: Array(Self.jpeg.dropLast(2))) == nil)       // cut short: no EOI
        #expect(JPEGFrameBounds.length(in: Array(Self.jpeg.dropFirst(1))) == nil)      // no SOI
        #expect(JPEGFrameBounds.length(in: [UInt8](repeating: 0, count: 100)) == nil)  // an empty buffer
        #expect(JPEGFrameBounds.length(in: [0xFF, 0xD8]) == nil)
    }

    // MARK: YUYV

    @Test func limitedRangeYUYVConvertsToRGB() {
        // Two pixel pairs: white/black (Y 235/16, neutral chroma) and pure red (Y 81, U 90, V 240 in BT.601).
        let yuyv: [UInt8] = [235, 128, 16, 128, 81, 90, 81, 240]
        var image = RGBImage(width: 0, height: 0)
        yuyv.withUnsafeBytes { YUYVConverter.convert($0, width: 4, height: 1, bytesPerLine: 8, into: &image) }
        #expect(image.width == 4 && image.height == 1)
        #expect(image[0, 0] == (255, 255, 255))
        #expect(image[1, 0] == (0, 0, 0))
        let red = image[2, 0]
        #expect(red.r >= 250 && red.g <= 5 && red.b <= 5)
    }

    @Test func fullRangeAndRowPaddingAreHonoured() {
        // 2x2 with 2 bytes of padding per row; full range: Y 0 is black, 255 white.
        let yuyv: [UInt8] = [255, 128, 255, 128, 9, 9,
                             0, 128, 0, 128, 9, 9]
        var image = RGBImage(width: 0, height: 0)
        yuyv.withUnsafeBytes { YUYVConverter.convert($0, width: 2, height: 2, bytesPerLine: 6, fullRange: true, into: &image) }
        #expect(image[0, 0] == (255, 255, 255) && image[1, 0] == (255, 255, 255))
        #expect(image[0, 1] == (0, 0, 0) && image[1, 1] == (0, 0, 0))
    }

    // MARK: sequence gaps

    @Test func gapsInSequenceAreDrops() {
        var counter = SequenceGapCounter()
        #expect(counter.observe(10) == 0)
        #expect(counter.observe(11) == 0)
        #expect(counter.observe(14) == 2)
        #expect(counter.observe(14) == 0)  // repeated: not a gap
        #expect(counter.dropped == 2)
    }

    @Test func sequenceWrapsAndRestarts() {
        var counter = SequenceGapCounter()
        counter.observe(UInt32.max - 1)
        #expect(counter.observe(1) == 2)  // max, 0 missing
        #expect(counter.observe(0) == 0)  // backwards: the driver restarted counting
        counter.restart()
        #expect(counter.observe(500) == 0)
        #expect(counter.dropped == 2)
    }

    // MARK: latest frame wins

    final class FakeQueue {
        var ready: [DequeuedBuffer]
        var requeued: [Int] = []
        var observed: [UInt32] = []
        init(_ ready: [DequeuedBuffer]) { self.ready = ready }

        func drain(limit: Int = 64) throws -> LatestFrameDrain.Result {
            try LatestFrameDrain.drain(limit: limit,
                                       dequeue: { self.ready.isEmpty ? nil : self.ready.removeFirst() },
                                       requeue: { self.requeued.append($0.index) },
                                       observe: { self.observed.append($0.sequence) })
        }
    }

    static func buffer(_ index: Int, _ sequence: UInt32, error: Bool = false) -> DequeuedBuffer {
        DequeuedBuffer(index: index, sequence: sequence, bytesUsed: 100, flaggedError: error,
                       timestampNanoseconds: Int64(sequence) * 33_000_000)
    }

    @Test func onlyTheNewestReadyFrameIsKept() throws {
        let queue = FakeQueue([Self.buffer(2, 7), Self.buffer(3, 8), Self.buffer(0, 9)])
        let result = try queue.drain()
        #expect(result.newest?.index == 0 && result.newest?.sequence == 9)
        #expect(result.superseded == 2 && result.dequeued == 3)
        #expect(queue.requeued == [2, 3])  // older ones given back at once, in order
        #expect(queue.observed == [7, 8, 9])
    }

    @Test func errorFlaggedBuffersAreSkipped() throws {
        let queue = FakeQueue([Self.buffer(1, 4), Self.buffer(2, 5, error: true)])
        let result = try queue.drain()
        #expect(result.newest?.sequence == 4)
        #expect(result.flaggedError == 1 && result.superseded == 0)
        #expect(queue.requeued == [2])
        let allBad = FakeQueue([Self.buffer(1, 4, error: true)])
        #expect(try allBad.drain().newest == nil)
        #expect(try FakeQueue([]).drain() == LatestFrameDrain.Result())
    }

    @Test func drainingIsBounded() throws {
        let queue = FakeQueue((0..<10).map { Self.buffer($0 % 4, UInt32($0)) })
        let result = try queue.drain(limit: 4)
        #expect(result.dequeued == 4 && result.newest?.sequence == 3 && queue.ready.count == 6)
    }

    // MARK: back-off, statistics

    @Test func backoffDoublesUpToItsCap() {
        var backoff = Backoff(initialSeconds: 0.1, maxSeconds: 0.5)
        let delays = (0..<5).map { _ in backoff.next() }
        #expect(delays == [0.1, 0.2, 0.4, 0.5, 0.5])
        backoff.reset()
        #expect(backoff.next() == 0.1)
    }

    @Test func percentilesUseNearestRank() {
        let summary = SampleSummary((1...100).map(Double.init))!
        #expect(summary.p50 == 50 && summary.p99 == 99 && summary.max == 100 && summary.count == 100)
        #expect(SampleSummary([]) == nil)
        #expect(SampleSummary([7])!.p99 == 7)
    }

    @Test func measuredRateSpansDeliveredTimestamps() {
        var stats = CaptureStatistics()
        #expect(stats.measuredFramesPerSecond == nil)
        stats.delivered = 11
        stats.firstTimestamp = 100
        stats.lastTimestamp = 100.5
        #expect(stats.measuredFramesPerSecond == 20)
        var total = CaptureStatistics()
        total.add(stats)
        total.add(stats)
        #expect(total.delivered == 22 && total.firstTimestamp == 100)
    }
}
