#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Passes the interrupts `lessons` receives on to the program it is waiting for, and remembers them.
///
/// A child in a group of its own never sees the terminal's Ctrl-C, so it gets every interrupt sent on to its
/// whole group (a build's compilers included). A child in our group already got a Ctrl-C from the terminal,
/// so only signals sent to `lessons` alone (`kill`) are passed on, and only to the child itself.
/// One child at a time: `lessons` never waits for two.
enum InterruptForwarding {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    // Read and written by the signal handler, which may only touch plain values (async-signal safety).
    nonisolated(unsafe) private static var target: pid_t = 0
    nonisolated(unsafe) private static var received: Int32 = 0
    nonisolated(unsafe) private static var previous: [sigaction] = []

    /// Catches the interrupts from now on; until ``forward(to:group:)`` they are only remembered.
    static func begin() {
        target = 0
        received = 0
        var action = sigaction()
        #if canImport(Darwin)
        action.__sigaction_u.__sa_sigaction = handle
        #else
        action.__sigaction_handler.sa_sigaction = handle
        #endif
        // SA_RESTART: reads of the child's output and waitpid carry on rather than fail with EINTR.
        action.sa_flags = SA_SIGINFO | SA_RESTART
        sigemptyset(&action.sa_mask)
        previous = signals.map { number in
            var old = sigaction()
            sigaction(number, &action, &old)
            return old
        }
    }

    /// Sends what arrives from now on to `pid` (to its whole group when it has a group of its own), and what
    /// arrived since ``begin()`` right away.
    static func forward(to pid: pid_t, group: ChildProcess.Group) {
        target = group == .own ? -pid : pid
        if received != 0 && group == .own { kill(-pid, received) }
    }

    /// Stops catching (the previous handlers come back) and returns the interrupt received, if any.
    @discardableResult
    static func end() -> Int32? {
        for (number, old) in zip(signals, previous) {
            var old = old
            sigaction(number, &old, nil)
        }
        previous = []
        target = 0
        defer { received = 0 }
        return received == 0 ? nil : received
    }

    private static let handle: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?)
        -> Void = { number, info, _ in
            received = number
            let target = InterruptForwarding.target
            if target < 0 {
                kill(target, number)
            } else if target > 0, let info, info.pointee.si_code != SI_KERNEL {
                // Sent by a program rather than typed at the terminal, so the child has not had it.
                kill(target, number)
            }
        }
}
