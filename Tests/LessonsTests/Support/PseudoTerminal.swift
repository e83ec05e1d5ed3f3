import Foundation
@testable import LessonsKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private let systemRead = Glibc.read
#elseif canImport(Darwin)
private let systemRead = Darwin.read
#endif

/// A pseudo-terminal with one program in it, as a person at a real terminal would run it: the program is a
/// session leader with the terminal as its controlling terminal, so job control (foreground process groups,
/// stopping background readers) works as it does in a terminal emulator.
final class PseudoTerminal {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let master: Int32
    private let slavePath: String
    private(set) var pid: pid_t = 0
    /// Everything the program has written so far (escape codes included).
    private(set) var screen = ""
    private var exitStatus: Int32?

    init(columns: Int, rows: Int) throws {
        // posix_openpt, unlockpt and ptsname sit behind _XOPEN_SOURCE in the C module; on Linux they are
        // these calls (grantpt does nothing on devpts). The ioctl numbers are Linux's.
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw Failure(description: "cannot open /dev/ptmx (errno \(errno))") }
        var unlock: Int32 = 0, number: UInt32 = 0
        let setLock: UInt = 0x4004_5431, getNumber: UInt = 0x8004_5430  // TIOCSPTLCK, TIOCGPTN
        guard ioctl(master, setLock, &unlock) == 0, ioctl(master, getNumber, &number) == 0 else {
            close(master)
            throw Failure(description: "cannot unlock the pseudo-terminal (errno \(errno))")
        }
        slavePath = "/dev/pts/\(number)"
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard ioctl(master, UInt(TIOCSWINSZ), &size) == 0 else {
            throw Failure(description: "cannot set the pseudo-terminal's size (errno \(errno))")
        }
    }

    deinit {
        if pid > 0 && exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(master)
    }

    /// Starts `executable` in a new session whose controlling terminal is this one.
    func start(_ executable: String, _ arguments: [String], environment: [String: String], directory: String) throws {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        // A session leader opening a terminal without O_NOCTTY makes it its controlling terminal.
        posix_spawnattr_setflags(&attributes, Int16(0x80 /* POSIX_SPAWN_SETSID */ | POSIX_SPAWN_SETSIGDEF))
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        guard let changeDirectory = SpawnExtensions.addChangeDirectory, let closeFrom = SpawnExtensions.addCloseFrom,
              changeDirectory(&actions, directory) == 0,
              posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0) == 0,
              posix_spawn_file_actions_adddup2(&actions, 0, 1) == 0,
              posix_spawn_file_actions_adddup2(&actions, 0, 2) == 0,
              closeFrom(&actions, 3) == 0 else {
            throw Failure(description: "cannot set up posix_spawn for the pseudo-terminal")
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw Failure(description: "cannot start \(executable) (error \(result))") }
    }

    /// Types `text` as if from the keyboard.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads output until `condition` holds for everything read so far, or `timeout` seconds pass.
    @discardableResult
    func read(until condition: (String) -> Bool, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(screen) {
            guard Date() < deadline, drain(milliseconds: 50) else { return condition(screen) }
        }
        return true
    }

    /// Waits up to `timeout` seconds for the program to end, reading its output meanwhile; its exit status
    /// (128 + signal number when a signal ended it), or nil when it is still running.
    func waitForExit(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while exitStatus == nil {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                let signal = status & 0x7F
                exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
                break
            }
            if Date() >= deadline { return nil }
            _ = drain(milliseconds: 50)
        }
        _ = drain(milliseconds: 0)
        return exitStatus
    }

    /// Appends what is waiting on the terminal to `screen`; false once the terminal is closed.
    private func drain(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, milliseconds)
        guard ready > 0 else { return ready == 0 || errno == EINTR }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { systemRead(master, $0.baseAddress, $0.count) }
        if count <= 0 {
            // EIO: every program holding the terminal has closed it. Give waitpid a moment instead of spinning.
            usleep(20_000)
            return false
        }
        screen += String(decoding: buffer[0..<count], as: UTF8.self)
        return true
    }
}
