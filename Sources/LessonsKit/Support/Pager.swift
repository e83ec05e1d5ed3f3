import Foundation

/// Shows long text through a pager when, and only when, a person is reading a terminal.
public enum Pager {
    /// Prints `text`; on a terminal, text taller than the screen goes through `$PAGER` (default `less -R`,
    /// with `LESS=FRX` unless set: quit if one screen, keep colours, leave the text on screen).
    public static func show(_ text: String, terminal: TerminalInfo, environment: [String: String], usePager: Bool) {
        let lineCount = text.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        guard usePager, terminal.isTerminal, lineCount >= terminal.height else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        let command = environment["PAGER"].flatMap { $0.trimmingWhitespace.isEmpty ? nil : $0 } ?? "less -R"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var pagerEnvironment = environment
        if pagerEnvironment["LESS"] == nil { pagerEnvironment["LESS"] = "FRX" }
        process.environment = pagerEnvironment
        let pipe = Pipe()
        process.standardInput = pipe
        do {
            try process.run()
        } catch {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        // The pager may quit before reading everything (the reader pressed q): that is not an error.
        signal(SIGPIPE, SIG_IGN)
        try? pipe.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        try? pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        if process.terminationStatus == 127 {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}
