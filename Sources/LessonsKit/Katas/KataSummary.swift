/// The readable summary of a kata run: one line per kata in the kata file's order, failure messages under
/// the failing ones, and the next step.
public struct KataSummary: Sendable {
    public var lesson: Lesson
    public var suite: KataSuite
    public var report: KataRunReport
    /// The kata that was asked for, or nil for the whole suite.
    public var onlyKata: String?

    public init(lesson: Lesson, suite: KataSuite, report: KataRunReport, onlyKata: String?) {
        self.lesson = lesson
        self.suite = suite
        self.report = report
        self.onlyKata = onlyKata
    }

    /// The katas this run was about, in file order (plus any the output names that the file scan missed).
    public var katas: [String] {
        let listed = onlyKata.map { [$0] } ?? suite.katas
        let extra = report.results.filter { $0.suite == suite.name && !suite.katas.contains($0.name) }.map(\.name)
        return listed + (onlyKata == nil ? extra : [])
    }

    public var passedCount: Int {
        katas.filter { report.outcome(of: $0) == .passed }.count
    }

    /// Every kata of the whole suite passed (a run of one kata never completes the lesson).
    public var lessonPassed: Bool {
        onlyKata == nil && !katas.isEmpty && passedCount == katas.count
    }

    /// Each kata's state word for the progress file.
    public var states: [String: KataState] {
        Dictionary(uniqueKeysWithValues: katas.map { kata in
            switch report.outcome(of: kata) {
            case .passed: return (kata, .passed)
            case .failed, .crashed: return (kata, .failed)
            case .skipped: return (kata, .skipped)
            case .notRun: return (kata, .notRun)
            }
        })
    }

    public func render(colors: Bool, workspace: Workspace, title: String) -> String {
        func paint(_ text: String, _ style: TextStyle) -> String {
            StyledText(text, style).rendered(colors: colors)
        }
        var lines = [paint("Lesson \(lesson.number) · \(title) — \(suite.name)", TextStyle(bold: true))]
        if report.buildFailed {
            lines.append(paint("The package did not build, so no kata ran:", TextStyle(bold: true, color: .red)))
            for error in report.buildErrors.prefix(10) {
                lines.append("  " + relative(error, workspace: workspace))
            }
            if report.buildErrors.count > 10 { lines.append("  … and \(report.buildErrors.count - 10) more") }
            return lines.joined(separator: "\n") + "\n"
        }
        let numberWidth = String(suite.katas.count).count
        // Status words share one column width so the kata names line up; messages start under the names.
        func status(_ word: String, _ style: TextStyle) -> String {
            "  " + paint(word, style) + String(repeating: " ", count: 9 - word.count) + "  "
        }
        let indent = String(repeating: " ", count: 2 + 9 + 2 + numberWidth + 2)
        for (index, kata) in katas.enumerated() {
            let number = String(suite.katas.firstIndex(of: kata).map { $0 + 1 } ?? index + 1)
            let label = String(repeating: " ", count: max(0, numberWidth - number.count)) + number + "  " + kata
            switch report.outcome(of: kata) {
            case .passed:
                lines.append(status("✓ pass", TextStyle(color: .green)) + label)
            case .failed(let failures):
                lines.append(status("✗ FAIL", TextStyle(bold: true, color: .red)) + label)
                for failure in failures {
                    if let file = failure.file, let line = failure.line {
                        lines.append(indent + paint("\(relative(file, workspace: workspace)):\(line)", TextStyle(dim: true)))
                    }
                    for messageLine in failure.text.split(separator: "\n", omittingEmptySubsequences: false) {
                        lines.append(indent + messageLine)
                    }
                }
            case .crashed(let reason):
                lines.append(status("✗ CRASH", TextStyle(bold: true, color: .red)) + label)
                lines.append(indent + reason)
                lines.append(indent + "The test process stopped here; katas after this one did not run.")
            case .skipped(let reason):
                lines.append(status("- skip", TextStyle(color: .yellow)) + label + " — " + reason)
            case .notRun:
                lines.append(status("· not run", TextStyle(dim: true)) + label)
            }
        }
        lines.append("")
        if katas.isEmpty {
            lines.append("No katas found in \(suite.file).")
        } else if passedCount == katas.count {
            lines.append(paint(onlyKata == nil
                ? "All \(katas.count) katas pass: lesson \(lesson.number) is done. "
                    + "Compare with the reference: swift run lessons solution \(lesson.number)"
                : "The kata passes. Run them all: swift run lessons check \(lesson.number)",
                TextStyle(bold: true, color: .green)))
        } else {
            lines.append("\(passedCount) of \(katas.count) katas pass. Stuck? swift run lessons hint \(lesson.number)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Shortens absolute paths inside the package to package-relative ones.
    private func relative(_ text: String, workspace: Workspace) -> String {
        text.replacingOccurrences(of: workspace.packageRoot.path + "/", with: "")
    }
}
