import Foundation

/// The executor every preview task runs on: threads of its own, neither Swift's cooperative pool
/// nor Dispatch's worker threads.
///
/// Why: the cooperative pool has one thread per core, and synchronous work on it (a capture loop
/// started from an async command, or the CPU-bound suites beside the preview's tests on a 2-core CI
/// machine) can hold every one of those threads for minutes. The server's handlers then never ran:
/// a request sat unanswered until its client gave up (CI: an empty reply after 60 s, while the
/// synthetic-head suite held the pool for 415 s). Dispatch's worker threads were the first fix, but
/// they are shared too: with blocking work queued on them (test clients, other suites) a request
/// still waited 257 s in one run while libdispatch decided to add threads. Threads owned by the
/// executor answer however busy both pools are (`ServingExecutorTests`).
///
/// One executor serves every server of the process (`shared`), so its threads are made once.
/// Jobs run first-in first-out on `threadCount` threads: a handler that blocks (a thumbnail being
/// rendered) holds one of them, the others keep answering.
final class ServingExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = ServingExecutor(threadCount: 4)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var next = 0

    init(threadCount: Int) {
        for index in 0..<threadCount {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "lorgnette.preview.\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while next == jobs.count { condition.wait() }
            let job = jobs[next]
            next += 1
            if next == jobs.count { jobs.removeAll(keepingCapacity: true); next = 0 }
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}
