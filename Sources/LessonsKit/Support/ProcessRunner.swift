import Foundation

/// Runs another program (found on `PATH`) and hands its output over line by line.
public enum ProcessRunner {
    /// Runs `arguments[0]` with the rest as arguments in `directory`; standard output and error are merged
    /// into one stream (so messages stay in order) and passed to `onLine` as they arrive. Returns the exit
    /// status (128 + signal number when a signal ended it).
    public static func run(
        _ arguments: [String], in directory: URL, environment: [String: String]? = nil, onLine: (String) -> Void
    ) throws(LessonsError) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw LessonsError(.io, "cannot start \(arguments.first ?? "?"): \(error.localizedDescription)")
        }
        // Bytes, not String, until a whole line is there: a UTF-8 character may be split across reads.
        var buffer = Data()
        let reader = pipe.fileHandleForReading
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let lineData = buffer[buffer.startIndex..<newline]
                onLine(String(decoding: lineData, as: UTF8.self))
                buffer = Data(buffer[buffer.index(after: newline)...])
            }
        }
        if !buffer.isEmpty { onLine(String(decoding: buffer, as: UTF8.self)) }
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal { return 128 + process.terminationStatus }
        return process.terminationStatus
    }

    /// Runs a program with the terminal as its input and output (for `swift run` and pagers); returns its status.
    public static func runAttached(_ arguments: [String], in directory: URL) throws(LessonsError) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        do {
            try process.run()
        } catch {
            throw LessonsError(.io, "cannot start \(arguments.first ?? "?"): \(error.localizedDescription)")
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The first line a program prints for `arguments`, or nil when it cannot run or fails.
    public static func firstLine(_ arguments: [String], in directory: URL = URL(fileURLWithPath: "/")) -> String? {
        var first: String?
        let status = try? run(arguments, in: directory) { line in if first == nil { first = line } }
        guard status == 0 else { return nil }
        return first?.trimmingWhitespace
    }
}
