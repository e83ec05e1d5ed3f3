import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A program started with `posix_spawn`, for two things Foundation's `Process` does not offer: choosing its
/// process group, and passing on the interrupts this process receives while it runs.
///
/// `Process` always puts the child in a process group of its own. On a terminal that group is in the
/// background, so a pager that reads the keyboard is stopped by the terminal (SIGTTIN) and waits forever;
/// and Ctrl-C reaches only `lessons`, which dies and leaves the compiler it started running.
struct ChildProcess {
    enum Group {
        /// This process's group: when `lessons` is the terminal's foreground job, so is the child, and it
        /// reads the keyboard and gets Ctrl-C from the terminal itself (pagers, `swift run`).
        case shared
        /// A group of its own, away from the terminal's signals; what `lessons` receives while waiting is
        /// passed on to the whole group (builds and test runs whose output is read through a pipe).
        case own
        /// This process's group, with nothing passed on: for several children at once (``ProcessPool``), which
        /// the terminal's Ctrl-C ends together with `lessons`. Interrupt forwarding follows one child only.
        case sharedUnforwarded
    }

    enum Input {
        case inherit, null
        /// A pipe this process writes into with ``send(_:)``.
        case pipe
    }

    enum Output: Equatable {
        case inherit
        /// Standard output and error merged into one pipe, read with ``readOutput(_:)``.
        case merged
        /// Standard output into the pipe; standard error discarded.
        case standardOutputOnly
        /// Standard output and error merged into a file, created or emptied first.
        case file(String)
    }

    /// How the child ended: its exit status (128 + the signal's number when a signal ended it) and the
    /// interrupt `lessons` received meanwhile, if any.
    struct Termination: Equatable {
        var status: Int32
        var interrupt: Int32?
    }

    let pid: pid_t
    let group: Group
    private var inputDescriptor: Int32?
    private var outputDescriptor: Int32?

    /// Starts `arguments[0]`, found on the `PATH` of `environment` (default: this process's), with the other
    /// elements as its arguments. Interrupts are forwarded from now until ``wait()``, which must follow.
    static func start(_ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
                      group: Group, input: Input = .null, output: Output = .inherit) throws(LessonsError) -> ChildProcess {
        let name = arguments.first ?? "?"
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        var opened: [Int32] = []
        func fail(_ what: String, code: Int32 = errno) -> LessonsError {
            opened.forEach { close($0) }
            return LessonsError(.io, "cannot start \(name): \(what) failed (\(String(cString: strerror(code))))")
        }
        /// The `posix_spawn_…` set-up calls return an error number instead of setting errno.
        func check(_ result: Int32, _ what: String) throws(LessonsError) {
            if result != 0 { throw fail(what, code: result) }
        }

        var childInput: Int32?, parentInput: Int32?
        switch input {
        case .inherit: break
        case .null:
            try check(posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0), "addopen")
        case .pipe:
            guard let (read, write) = Self.makePipe() else { throw fail("pipe") }
            opened += [read, write]
            (childInput, parentInput) = (read, write)
            try check(posix_spawn_file_actions_adddup2(&actions, read, 0), "adddup2")
        }
        var childOutput: Int32?, parentOutput: Int32?
        switch output {
        case .inherit:
            break
        case .file(let path):
            try check(posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644),
                      "addopen")
            try check(posix_spawn_file_actions_adddup2(&actions, 1, 2), "adddup2")
        case .merged, .standardOutputOnly:
            guard let (read, write) = Self.makePipe() else { throw fail("pipe") }
            opened += [read, write]
            (childOutput, parentOutput) = (write, read)
            try check(posix_spawn_file_actions_adddup2(&actions, write, 1), "adddup2")
            if output == .merged {
                try check(posix_spawn_file_actions_adddup2(&actions, write, 2), "adddup2")
            } else {
                try check(posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0), "addopen")
            }
        }
        // Descriptors this process holds for itself (the test runner's pipes, say) stay out of the child.
        if let closeFrom = SpawnExtensions.addCloseFrom { try check(closeFrom(&actions, 3), "addclosefrom") }
        if let directory {
            guard let changeDirectory = SpawnExtensions.addChangeDirectory else {
                opened.forEach { close($0) }
                throw LessonsError(.io, "cannot start \(name) in \(directory.path): this C library cannot "
                    + "change a new process's folder")
            }
            try check(changeDirectory(&actions, directory.path), "addchdir")
        }

        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if group == .own {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            try check(posix_spawnattr_setpgroup(&attributes, 0), "setpgroup")
        }
        try check(posix_spawnattr_setflags(&attributes, Int16(flags)), "setflags")
        // Signals `lessons` ignores or catches must not stay ignored in the child (ignoring survives exec).
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in InterruptForwarding.signals + [SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD] {
            sigaddset(&defaults, signal)
        }
        try check(posix_spawnattr_setsigdefault(&attributes, &defaults), "setsigdefault")
        var noMask = sigset_t()
        sigemptyset(&noMask)
        try check(posix_spawnattr_setsigmask(&attributes, &noMask), "setsigmask")

        let argv = (["/usr/bin/env"] + arguments).map { strdup($0) } + [nil]
        let variables = environment ?? ProcessInfo.processInfo.environment
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let forwards = group != .sharedUnforwarded
        if forwards { InterruptForwarding.begin() }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/usr/bin/env", &actions, &attributes, argv, envp)
        if let childInput { close(childInput) }
        if let childOutput { close(childOutput) }
        guard result == 0 else {
            if forwards { InterruptForwarding.end() }
            if let parentInput { close(parentInput) }
            if let parentOutput { close(parentOutput) }
            throw LessonsError(.io, "cannot start \(name): \(String(cString: strerror(result)))")
        }
        if forwards { InterruptForwarding.forward(to: pid, group: group) }
        return ChildProcess(pid: pid, group: group, inputDescriptor: parentInput, outputDescriptor: parentOutput)
    }

    /// Writes `data` to the child's standard input and closes it. A reader that quits early (a pager after
    /// `q`) is not an error: the rest is dropped.
    mutating func send(_ data: Data) {
        guard let descriptor = inputDescriptor else { return }
        let previous = signal(SIGPIPE, SIG_IGN)
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { break }
                offset += written
            }
        }
        close(descriptor)
        signal(SIGPIPE, previous)
        inputDescriptor = nil
    }

    /// Reads the child's output until every writer has closed it, handing over each chunk as it arrives.
    mutating func readOutput(_ onChunk: (Data) -> Void) {
        guard let descriptor = outputDescriptor else { return }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            onChunk(Data(buffer[0..<count]))
        }
        close(descriptor)
        outputDescriptor = nil
    }

    /// Waits for the child to end and stops forwarding interrupts.
    mutating func wait() -> Termination {
        if let descriptor = inputDescriptor { close(descriptor) }
        inputDescriptor = nil
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        if let descriptor = outputDescriptor { close(descriptor) }
        outputDescriptor = nil
        let interrupt = group == .sharedUnforwarded ? nil : InterruptForwarding.end()
        let signal = status & 0x7F
        return Termination(status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal, interrupt: interrupt)
    }

    /// Ends this process with `signal`, the way it would have ended without a handler, so a shell sees
    /// "interrupted" (status 130 for Ctrl-C) and scripts that loop over `lessons` stop too.
    static func endThisProcess(like number: Int32) -> Never {
        signal(number, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, number)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        raise(number)
        exit(128 + number)
    }

    private static func makePipe() -> (read: Int32, write: Int32)? {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { return nil }
        // Close-on-exec: only the copies `posix_spawn` duplicates onto 0, 1 and 2 reach the child.
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (descriptors[0], descriptors[1])
    }

}
