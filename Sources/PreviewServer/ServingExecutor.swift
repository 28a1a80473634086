import Dispatch

/// The executor every preview task runs on: Dispatch's ordinary worker threads, not Swift's
/// cooperative pool.
///
/// Why: the cooperative pool has one thread per core, and synchronous work on it (a capture loop
/// started from an async command, or the CPU-bound suites beside the preview's tests on a 2-core CI
/// machine) can hold every one of those threads for minutes. The server's handlers then never ran:
/// a request sat unanswered until its client gave up (CI: an empty reply after 60 s, while the
/// synthetic-head suite held the pool for 415 s). Dispatch's worker threads are not capped at the
/// core count, so the preview answers however busy the pool is (`ServingExecutorTests`).
final class ServingExecutor: TaskExecutor, @unchecked Sendable {
    // Concurrent: independent clients' tasks may run side by side; one task's jobs never overlap.
    private let queue = DispatchQueue(label: "lorgnette.preview", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
