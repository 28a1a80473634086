import Dispatch
import Foundation
import PreviewServer
import Testing

/// The preview answers while every thread of Swift's cooperative pool is blocked (a capture loop
/// on the pool, or CPU-bound suites beside these tests): its tasks run on their own executor.
@Suite(.serialized)
struct ServingExecutorTests {
    @Test func requestsAreAnsweredWhileTheCooperativePoolIsBlocked() async throws {
        try await PreviewHarness.with { harness in
            let port = harness.port
            // More blockers than the pool has threads: every pool thread ends up waiting on `hold`.
            let blockers = ProcessInfo.processInfo.activeProcessorCount * 2
            let hold = DispatchSemaphore(value: 0)
            let started = DispatchSemaphore(value: 0)
            for _ in 0..<blockers {
                Task.detached { started.signal(); hold.wait() }
            }
            let (code, seconds, poolHeld) = try await blocking {
                defer { for _ in 0..<blockers { hold.signal() } }
                // Wait until the pool is held (each pool thread took one blocker), at most 10 s.
                let poolHeld = (0..<ProcessInfo.processInfo.activeProcessorCount).allSatisfy { _ in
                    started.wait(timeout: .now() + 10) == .success
                }
                let t0 = Date()
                let (code, _) = try LocalServiceTests.status(port, "GET /status HTTP/1.1\r\nHost: 127.0.0.1:\(port)")
                return (code, Date().timeIntervalSince(t0), poolHeld)
            }
            // In the full suite other tests may hold the pool first, so the blockers wait their turn:
            // the pool is busy either way, which is what the request has to get past.
            if !poolHeld { print("ServingExecutorTests: the pool was already busy with other suites; blockers queued") }
            // The blockers hold the pool until this request returns, so an answer at all proves the
            // handlers ran off the pool: without the executor none comes (the 60 s receive timeout
            // throws). No wall-clock bound: beside the CPU-bound suites on 2 cores it took 14 s (a
            // timing bar belongs in Bench/, not here).
            print("ServingExecutorTests: answered in \(String(format: "%.2f", seconds)) s with the cooperative pool blocked")
            #expect(code == 200)
        }
    }
}
