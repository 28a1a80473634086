#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM handling for commands that write files: the first signal sets a
/// flag that processing loops check between frames, so they stop and finish their output
/// cleanly (a playable AVI with its index); a second signal exits at once with status 130.
enum Interrupt {
    fileprivate static let signals = Atomic<Int>(0)

    /// Installs the handler. Call once, before the loop that checks `requested`.
    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = interruptHandler
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        // A parent (a test runner, a supervisor) may have started us with these signals blocked.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// True once a SIGINT or SIGTERM has arrived.
    static var requested: Bool { signals.load(ordering: .relaxed) > 0 }
}

/// Async-signal-safe: an atomic increment, `write(2)` and `_exit(2)` only.
private func interruptHandler(_ signal: Int32) {
    let count = Interrupt.signals.add(1, ordering: .relaxed).newValue
    if count >= 2 {
        _exit(130)
    }
    let note = "\ninterrupted: finishing the output (press Ctrl-C again to quit at once)\n"
    _ = note.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
}
