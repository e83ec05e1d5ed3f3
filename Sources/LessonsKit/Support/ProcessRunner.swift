import Foundation

/// Runs another program (found on `PATH`) and hands its output over line by line.
///
/// While it runs, Ctrl-C and the other interrupts reach it as well (see ``InterruptForwarding``); once it
/// has ended, `lessons` ends the same way instead of carrying on with half a result.
public enum ProcessRunner {
    /// Runs `arguments[0]` with the rest as arguments in `directory`; standard output and error are merged
    /// into one stream (so messages stay in order) and passed to `onLine` as they arrive. Returns the exit
    /// status (128 + signal number when a signal ended it).
    public static func run(
        _ arguments: [String], in directory: URL, environment: [String: String]? = nil, onLine: (String) -> Void
    ) throws(LessonsError) -> Int32 {
        try run(arguments, in: directory, environment: environment, output: .merged, onLine: onLine)
    }

    /// Runs a program with the terminal as its input and output (for `swift run`); returns its status.
    /// It runs in this process's group, so when `lessons` is the terminal's foreground job it is too.
    public static func runAttached(_ arguments: [String], in directory: URL) throws(LessonsError) -> Int32 {
        var child = try ChildProcess.start(arguments, in: directory, group: .shared, input: .inherit, output: .inherit)
        let end = child.wait()
        if let interrupt = end.interrupt { ChildProcess.endThisProcess(like: interrupt) }
        return end.status
    }

    /// The first line a program prints on standard output, or nil when it cannot run or fails. What it
    /// writes to standard error (a launcher script's complaints, say) is not part of the answer.
    public static func firstLine(_ arguments: [String], in directory: URL = URL(fileURLWithPath: "/")) -> String? {
        var first: String?
        let status = try? run(arguments, in: directory, environment: nil, output: .standardOutputOnly) { line in
            if first == nil { first = line }
        }
        guard status == 0 else { return nil }
        return first?.trimmingWhitespace
    }

    private static func run(
        _ arguments: [String], in directory: URL, environment: [String: String]?, output: ChildProcess.Output,
        onLine: (String) -> Void
    ) throws(LessonsError) -> Int32 {
        // A group of its own: the terminal's Ctrl-C comes to `lessons`, which passes it to the whole group.
        var child = try ChildProcess.start(arguments, in: directory, environment: environment, group: .own,
                                           input: .null, output: output)
        // Bytes, not String, until a whole line is there: a UTF-8 character may be split across reads.
        var buffer = Data()
        child.readOutput { chunk in
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                onLine(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer = Data(buffer[buffer.index(after: newline)...])
            }
        }
        if !buffer.isEmpty { onLine(String(decoding: buffer, as: UTF8.self)) }
        let end = child.wait()
        if let interrupt = end.interrupt { ChildProcess.endThisProcess(like: interrupt) }
        return end.status
    }
}
