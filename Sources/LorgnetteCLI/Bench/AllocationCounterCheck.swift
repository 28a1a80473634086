import CMallocCounter
import Glibc

/// Proves the allocation counter is live in this binary before anyone reads "0 mallocs per frame" as
/// good news: a `malloc` made here must move the count by exactly one.
enum AllocationCounterCheck {
    /// Where the probe block goes, so the compiler cannot pair and remove the malloc/free.
    nonisolated(unsafe) private static var probe: UnsafeMutableRawPointer?

    static func counterCounts() -> Bool {
        let before = lm_allocation_count()
        probe = malloc(64)
        let after = lm_allocation_count()
        free(probe)
        probe = nil
        return after &- before == 1
    }
}
