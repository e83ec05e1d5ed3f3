#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Facts about where output goes: a terminal or not, colours allowed, how wide, how tall.
public struct TerminalInfo: Sendable, Equatable {
    public var isTerminal: Bool
    public var colors: Bool
    public var width: Int
    public var height: Int

    public init(isTerminal: Bool, colors: Bool, width: Int, height: Int) {
        self.isTerminal = isTerminal
        self.colors = colors
        self.width = width
        self.height = height
    }

    /// Standard output as it is now. Colours only on a terminal, never with `NO_COLOR` (any value) or
    /// `TERM=dumb`. Width from the terminal, else `COLUMNS`, else 80.
    public static func standardOutput(environment: [String: String]) -> TerminalInfo {
        let terminal = isatty(STDOUT_FILENO) == 1
        let noColor = environment["NO_COLOR"] != nil || environment["TERM"] == "dumb"
        var size = (columns: 0, rows: 0)
        if terminal { size = windowSize(STDOUT_FILENO) }
        let columns = size.columns > 0 ? size.columns : (environment["COLUMNS"].flatMap(Int.init) ?? 80)
        let rows = size.rows > 0 ? size.rows : (environment["LINES"].flatMap(Int.init) ?? 24)
        return TerminalInfo(isTerminal: terminal, colors: terminal && !noColor, width: columns, height: rows)
    }

    /// Whether standard error is a terminal (where progress bars go).
    public static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// The width prose wraps to: the terminal's, but no more than 100 columns, since longer lines read badly.
    public var proseWidth: Int { min(max(width - 1, 20), 100) }

    /// The width code is soft-wrapped to: ``lineWidth`` on a terminal; nil when
    /// the output is a file or a pipe, where code stays as written so it can be copied.
    public var codeWidth: Int? { isTerminal ? lineWidth : nil }

    /// The width of lines that are not prose (summaries naming files): the whole terminal less its last
    /// column, so nothing lands in the column where some terminals wrap early.
    public var lineWidth: Int { max(width - 1, 20) }

    private static func windowSize(_ descriptor: Int32) -> (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 else { return (0, 0) }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}
