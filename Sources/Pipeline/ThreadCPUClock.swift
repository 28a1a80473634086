import Foundation

/// CPU time of the calling thread: what a stage cost itself, without the time it waited for a CPU
/// (on a shared machine wall time mostly measures the neighbours).
public enum ThreadCPUClock {
    public static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
