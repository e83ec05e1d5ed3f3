import Foundation

/// A progress line on standard error for work that takes more than about two seconds: it stays hidden for
/// the first two seconds (quick work shows nothing) and only ever appears on a terminal.
public final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private let enabled: Bool
    private let start = Date()
    private let delay: TimeInterval
    private var label: String
    private var done = 0
    private var total: Int?
    private var shown = false
    private var finished = false
    private var timer: DispatchSourceTimer?

    /// `enabled` defaults to "standard error is a terminal".
    public init(label: String, enabled: Bool = TerminalInfo.standardErrorIsTerminal, delay: TimeInterval = 2) {
        self.label = label
        self.enabled = enabled
        self.delay = delay
        guard enabled else { return }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + delay, repeating: .milliseconds(200))
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
        self.timer = timer
    }

    deinit {
        timer?.cancel()
    }

    /// Sets the current step; `total` nil shows a spinner with the elapsed time instead of a bar.
    public func update(label: String? = nil, done: Int, total: Int?) {
        lock.lock()
        if let label { self.label = label }
        self.done = done
        self.total = total
        lock.unlock()
    }

    /// Clears the line; call before printing results.
    public func finish() {
        lock.lock()
        defer { lock.unlock() }
        guard enabled, !finished else { return }
        finished = true
        timer?.cancel()
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }

    /// The line as drawn, e.g. `building [██████░░░░░░] 12/40  0:05`.
    public static func line(label: String, done: Int, total: Int?, elapsed: TimeInterval, width: Int = 24) -> String {
        let seconds = Int(elapsed)
        let clock = "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
        guard let total, total > 0 else {
            let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
            return "\(frames[Int(elapsed * 5) % frames.count]) \(label)  \(clock)"
        }
        let filled = min(width, width * min(done, total) / total)
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        return "\(label) [\(bar)] \(done)/\(total)  \(clock)"
    }

    private func draw() {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return }
        shown = true
        let text = Self.line(label: label, done: done, total: total, elapsed: Date().timeIntervalSince(start))
        FileHandle.standardError.write(Data(("\r\u{1B}[2K" + text).utf8))
    }
}
