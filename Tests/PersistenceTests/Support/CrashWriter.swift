import Foundation
import XCTest

/// The package's `PersistenceCrashWriter` executable (Sources/PersistenceCrashWriter), which the process tests run
/// as a second program on a store file: killed mid-save, mid-migration, or writing while this process watches.
enum CrashWriter {
    struct Missing: Error {}

    /// The executable next to the test bundle (built by `swift build --build-tests`).
    static var url: URL {
        var folder = Bundle.main.bundleURL
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folder = bundle.bundleURL.deletingLastPathComponent()
        }
        if folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        return folder.appendingPathComponent("PersistenceCrashWriter")
    }

    /// The executable, or a failure saying how to build it.
    static func checked(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            XCTFail("\(url.path) is missing: build with `swift build --build-tests` before `swift test`", file: file, line: line)
            throw Missing()
        }
        return url
    }

    /// Runs the writer with `arguments` on `store` and kills it with SIGKILL at the first moment `point` accepts:
    /// every `interval` microseconds the writer is stopped (SIGSTOP), looked at from outside (``WriterState``),
    /// and either killed there or let go on (SIGCONT). A kill therefore lands exactly in the state `point` saw.
    /// When `missed` accepts a state, this run has gone past the point (a short moment, such as opening the store):
    /// it is killed there and the writer started again, up to 20 times. Answers the state of the kill at `point`,
    /// or nil (with a failure) when the writer ended first or the point never came.
    /// `beforeEachRun` prepares the store for each run (say, a fresh copy); `every` is the time between two looks,
    /// in microseconds, shorter than the shortest point wanted lasts.
    static func kill(_ arguments: [String], store: URL, at pointName: String, when point: (WriterState) -> Bool,
                     missed: (WriterState) -> Bool = { _ in false }, beforeEachRun: () throws -> Void = {},
                     every interval: UInt32 = 200,
                     file: StaticString = #filePath, line: UInt = #line) throws -> WriterState? {
        #if !os(Linux)
        // The writer's state is read from /proc (its descriptors, its locks), which Linux has and macOS has not.
        throw XCTSkip("killing the writer at a chosen point reads /proc, which only Linux has")
        #endif
        let deadline = Date().addingTimeInterval(60)
        for _ in 0..<20 {
            try beforeEachRun()
            let writer = try WatchedProcess(url: url, arguments: arguments)
            defer { writer.killAndWait() }
            while Date() < deadline {
                usleep(interval)
                guard writer.pause() else {
                    XCTFail("the writer ended (\(writer.terminationDescription)) before \(pointName): \(writer.printed)",
                            file: file, line: line)
                    return nil
                }
                var state = WriterState(pid: writer.pid, store: store, printed: writer.printed)
                if point(state) {
                    let reason = writer.killAndWait()
                    XCTAssertEqual(reason, .uncaughtSignal, "\(pointName): the writer ended on its own", file: file, line: line)
                    // What it printed before the pause may still have been in the pipe, unread, when the state was
                    // taken (seen under load: a batch saved and reported, and not counted); the pipe is drained now.
                    state.printed = writer.printed
                    return state
                }
                if missed(state) { break }
                writer.resume()
            }
        }
        XCTFail("the writer never reached \(pointName) (20 runs, or 60 s)", file: file, line: line)
        return nil
    }
}

/// What a stopped writer was doing to a store file, seen from outside: the write-ahead-log locks it held (SQLite
/// takes them as POSIX locks on bytes of the store's `-shm` file, which /proc/locks lists by process), whether the
/// log holds pages of a transaction not yet committed, and what it had printed.
struct WriterState {
    /// Inside a write transaction (`BEGIN IMMEDIATE` … `COMMIT`): SQLite's WAL_WRITE_LOCK, byte 120 of `-shm`.
    var holdsWriteLock = false
    /// Copying the log into the database (a checkpoint): WAL_CKPT_LOCK, byte 121.
    var holdsCheckpointLock = false
    /// The writer has the store file open (a descriptor in /proc/PID/fd names it).
    var hasStoreOpen = false
    /// What the log holds after the end its index records as committed.
    enum LogTail { case nothing, uncommittedFrames, commitFrameNotIndexed }
    var logTail = LogTail.nothing
    /// The log holds frames written after its last commit (by the current log's salt) and no commit frame among them:
    /// a transaction's pages are on disk without its commit frame, as in the middle of a COMMIT or after the page
    /// cache spilled.
    var hasUncommittedFrames: Bool { logTail == .uncommittedFrames }
    /// Nothing in the log after its last commit: a transaction, if one is open, has written nothing yet.
    var logEndsAtLastCommit: Bool { logTail == .nothing }
    /// The writer's standard output so far.
    var printed = ""

    /// Lines of `printed` that start with `prefix`.
    func count(_ prefix: String) -> Int { printed.split(separator: "\n").filter { $0.hasPrefix(prefix) }.count }

    init(pid: Int32, store: URL, printed: String) {
        self.printed = printed
        let descriptors = "/proc/\(pid)/fd"
        hasStoreOpen = ((try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []).contains { name in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\(name)")) == store.path
        }
        let shm = store.path + "-shm"
        guard let inode = (try? FileManager.default.attributesOfItem(atPath: shm))?[.systemFileNumber] as? UInt64 else { return }
        let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
        for line in locks.split(separator: "\n") {
            // "1: POSIX  ADVISORY  WRITE 1234 fe:00:5678 120 120"; a waiting lock has "->" after the number.
            let fields = line.split(separator: " ")
            guard fields.count == 8, fields[1] == "POSIX", Int32(fields[4]) == pid,
                  fields[5].split(separator: ":").last.flatMap({ UInt64($0) }) == inode,
                  let start = Int(fields[6]), let end = Int(fields[7]) else { continue }
            if (start...end).contains(120) { holdsWriteLock = true }
            if (start...end).contains(121) { holdsCheckpointLock = true }
        }
        logTail = Self.tail(store: store)
    }

    /// Reads the committed end of the log from the `-shm` index header (mxFrame, native byte order, offset 16) and
    /// looks at the frames after it: a frame carrying the log header's salt was written after the last commit. A
    /// commit frame among them (a non-zero database size, bytes 4–7 of its header) means the transaction is as good
    /// as committed: SQLite writes the commit frame before it updates the index, and recovery keeps a log that ends
    /// in one (a kill in that moment kept a batch "in the middle of a commit", seen under load).
    private static func tail(store: URL) -> LogTail {
        guard let shm = FileHandle(forReadingAtPath: store.path + "-shm"), let wal = FileHandle(forReadingAtPath: store.path + "-wal")
        else { return .nothing }
        defer { try? shm.close(); try? wal.close() }
        guard let index = try? shm.read(upToCount: 48), index.count == 48,
              let header = try? wal.read(upToCount: 32), header.count == 32 else { return .nothing }
        let committed = index.withUnsafeBytes { UInt64($0.loadUnaligned(fromByteOffset: 16, as: UInt32.self)) }
        func bigEndian(_ data: Data, _ offset: Int) -> UInt32 { data[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        let pageSize = UInt64(bigEndian(header, 8))
        guard pageSize > 0 else { return .nothing }
        var next = 32 + committed * (24 + pageSize)
        var tail = LogTail.nothing
        while (try? wal.seek(toOffset: next)) != nil, let frame = try? wal.read(upToCount: 24), frame.count == 24,
              bigEndian(frame, 8) == bigEndian(header, 16), bigEndian(frame, 12) == bigEndian(header, 20) {
            if bigEndian(frame, 4) != 0 { return .commitFrameNotIndexed }
            tail = .uncommittedFrames
            next += 24 + pageSize
        }
        return tail
    }
}

/// A child process whose standard output is collected as it comes, and which can be stopped and continued. (Its
/// output is kept under a lock; the rest is used from the test's thread only.)
final class WatchedProcess: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var output = Data()
    private let drained = DispatchSemaphore(value: 0)

    init(url: URL, arguments: [String]) throws {
        process.executableURL = url
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let reader = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while case let data = reader.availableData, !data.isEmpty { lock.withLock { output.append(data) } }
            drained.signal()
        }
    }

    var pid: Int32 { process.processIdentifier }
    var printed: String { lock.withLock { String(decoding: output, as: UTF8.self) } }
    var terminationDescription: String {
        process.isRunning ? "running" : "\(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)"
    }

    /// Stops the process and waits until every thread of it is stopped; `false` when it has ended.
    func pause() -> Bool {
        guard process.isRunning, Foundation.kill(pid, SIGSTOP) == 0 else { return false }
        let tasks = "/proc/\(pid)/task"
        while true {
            guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks), !threads.isEmpty else { return false }
            let states = threads.map { thread -> Character? in
                // "pid (name) S …": the state follows the last ")", as the name may hold spaces or parentheses.
                guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { return nil }
                return stat[stat.index(after: close)...].first { $0 != " " }
            }
            if states.contains(where: { $0 == "Z" || $0 == "X" }) { return false }
            if states.allSatisfy({ $0 == "T" || $0 == "t" || $0 == nil }) { return true }
            usleep(50)
        }
    }

    func resume() { _ = Foundation.kill(pid, SIGCONT) }

    /// Kills the process (if it still runs), waits for it and for the last of its output.
    @discardableResult
    func killAndWait() -> Process.TerminationReason {
        if process.isRunning { _ = Foundation.kill(pid, SIGKILL) }
        process.waitUntilExit()
        drained.wait()
        drained.signal()
        return process.terminationReason
    }
}
