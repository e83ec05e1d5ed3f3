import Foundation

/// How `lessons lab` shows where it is while it builds and runs a lab: a progress bar on a terminal; elsewhere
/// one plain line per step (the build, each fill, each way measured), so a log keeps the steps without a bar's
/// redrawing.
public final class LabProgress {
    private let bar: ProgressBar?
    private let write: (String) -> Void
    private var lastLabel: String?

    /// `terminal` defaults to "standard error is a terminal"; `write` gets each plain line (standard error by
    /// default).
    public init(terminal: Bool = TerminalInfo.standardErrorIsTerminal,
                write: @escaping (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) {
        bar = terminal ? ProgressBar(label: "", enabled: true, delay: 0.5) : nil
        self.write = write
    }

    /// A step's progress: `total` nil or 0 when the step has no count (a way being measured, say).
    public func update(_ label: String, done: Int, total: Int?) {
        let total = total.flatMap { $0 > 0 ? $0 : nil }
        if let bar {
            bar.update(label: label, done: done, total: total)
            return
        }
        guard label != lastLabel else { return }
        lastLabel = label
        write(label + "…")
    }

    /// Clears the bar; call before printing results.
    public func finish() {
        bar?.finish()
    }
}
