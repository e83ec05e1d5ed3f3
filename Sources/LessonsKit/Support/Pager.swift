import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Shows long text through a pager when, and only when, a person is reading a terminal.
public enum Pager {
    /// Prints `text`; on a terminal, text taller than the screen goes through `$PAGER` (default `less -R`,
    /// with `LESS=FRX` unless set: quit if one screen, keep colours, leave the text on screen).
    ///
    /// The pager runs in this process's group, so it is the terminal's foreground job with `lessons` and
    /// reads the keyboard; in a group of its own the terminal would stop it at its first key read.
    public static func show(_ text: String, terminal: TerminalInfo, environment: [String: String], usePager: Bool) {
        let lineCount = text.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        guard usePager, terminal.isTerminal, lineCount >= terminal.height else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        // The default pager is started directly: a shell in between would be one more process in the terminal's
        // foreground group to receive Ctrl-C alongside less. `$PAGER` is a command line, so a shell reads it.
        let custom = environment["PAGER"].flatMap { $0.trimmingWhitespace.isEmpty ? nil : $0 }
        let command = custom.map { ["sh", "-c", $0] } ?? ["less", "-R"]
        var pagerEnvironment = environment
        if pagerEnvironment["LESS"] == nil { pagerEnvironment["LESS"] = "FRX" }
        guard var pager = try? ChildProcess.start(command, environment: pagerEnvironment,
                                                  group: .shared, input: .pipe, output: .inherit) else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        pager.send(Data(text.utf8))
        let end = pager.wait()
        // Ctrl-C and Ctrl-\ typed in the pager are the pager's business (less stops a search); anything
        // else sent to `lessons` ends it as it ended the pager.
        if let interrupt = end.interrupt, interrupt != SIGINT, interrupt != SIGQUIT {
            ChildProcess.endThisProcess(like: interrupt)
        }
        if end.status == 127 {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}
