import Foundation
import Synchronization
import Testing
@testable import VirtualCamera

@Suite struct LatestFrameWriterTests {
    /// Frames written, in order, by a writer that takes its time.
    final class Recorder: @unchecked Sendable {
        let lock = NSLock()
        var frames: [UInt8] = []
        func add(_ f: [UInt8]) { lock.withLock { frames.append(f[0]) } }
    }

    @Test func aSlowWriterSupersedesFramesButNeverLosesCount() throws {
        let recorder = Recorder()
        let writer = LatestFrameWriter(name: "test") { frame in
            usleep(2_000)
            recorder.add(frame)
        }
        for i in 0..<200 { try writer.submit { $0 = [UInt8(i % 256)] } }
        try writer.finish()
        let counts = writer.snapshot
        #expect(counts.delivered + counts.superseded == 200)
        #expect(counts.superseded > 0, "a writer 2 ms a frame cannot keep up with a tight loop")
        #expect(recorder.frames.count == counts.delivered)
        // The newest frame is always written, and frames go out in order.
        #expect(recorder.frames.last == UInt8(199 % 256))
        #expect(recorder.frames == recorder.frames.sorted())
    }

    @Test func aWriterThatKeepsUpDeliversEveryFrame() throws {
        let recorder = Recorder()
        let writer = LatestFrameWriter(name: "test") { recorder.add($0) }
        for i in 0..<20 {
            try writer.submit { $0 = [UInt8(i)] }
            // Wait until it was taken, as a camera's frame interval would.
            while writer.snapshot.delivered < i + 1 { usleep(100) }
        }
        try writer.finish()
        #expect(writer.snapshot == .init(delivered: 20, superseded: 0))
        #expect(recorder.frames == (0..<20).map(UInt8.init))
    }

    struct Unplugged: Error {}

    @Test func aWriteErrorReachesTheProducer() throws {
        let writer = LatestFrameWriter(name: "test") { _ in throw Unplugged() }
        try writer.submit { $0 = [1] }
        var thrown = false
        for _ in 0..<1000 {
            do { try writer.submit { $0 = [2] } } catch is Unplugged { thrown = true; break }
            usleep(1000)
        }
        #expect(thrown)
        #expect(throws: Unplugged.self) { try writer.finish() }
        #expect(writer.snapshot.delivered == 0)
    }

    @Test func finishTwiceIsHarmless() throws {
        let writer = LatestFrameWriter(name: "test") { _ in }
        try writer.submit { $0 = [1] }
        try writer.finish()
        try writer.finish()
        #expect(writer.snapshot.delivered == 1)
    }
}
